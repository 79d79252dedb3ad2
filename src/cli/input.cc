#include "cli/input.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

namespace kaizen::cli {

Result<simdjson::padded_string> ReadInput(const std::string& file) {
  if (file == "-") {
    std::string data;
    char buf[1 << 16];
    while (true) {
      ssize_t n = ::read(0, buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) return IoError(std::string("cannot read standard input: ") + std::strerror(errno));
      if (n == 0) break;
      data.append(buf, static_cast<size_t>(n));
    }
    return simdjson::padded_string(data);
  }
  struct stat st;
  if (::stat(file.c_str(), &st) != 0) {
    return IoError("cannot read " + file + ": " + std::strerror(errno));
  }
  if (S_ISDIR(st.st_mode)) return IoError("cannot read " + file + ": it is a directory");
  errno = 0;
  simdjson::padded_string data;
  if (simdjson::padded_string::load(file).get(data) != simdjson::SUCCESS) {
    return IoError("cannot read " + file + ": " + (errno ? std::strerror(errno) : "read failed"));
  }
  return data;
}

Result<InputFile> InputFile::Open(const std::string& file) {
  if (file == "-") return InputFile(0, false, 0);
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return IoError("cannot read " + file + ": " + std::strerror(errno));
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    const int err = errno;
    ::close(fd);
    return IoError("cannot read " + file + ": " + std::strerror(err));
  }
  if (S_ISDIR(st.st_mode)) {
    ::close(fd);
    return IoError("cannot read " + file + ": it is a directory");
  }
  const uint64_t size = S_ISREG(st.st_mode) ? static_cast<uint64_t>(st.st_size) : 0;
  // The pipeline reads the file once, front to back.
  if (size > 0) (void)::posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
  return InputFile(fd, true, size);
}

InputFile::InputFile(InputFile&& other) noexcept
    : fd_(other.fd_), owned_(std::exchange(other.owned_, false)), size_(other.size_) {}

InputFile::~InputFile() {
  if (owned_) ::close(fd_);
}

}  // namespace kaizen::cli
