#include "home/input.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

namespace kaizen::home {

Result<simdjson::padded_string> ReadInput(const std::string& file) {
  KZ_ASSIGN_OR_RETURN(InputFile input, InputFile::Open(file));
  std::string data;
  data.reserve(input.size());
  char buf[1 << 16];
  while (true) {
    ssize_t n = ::read(input.fd(), buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      return IoError("cannot read " + (file == "-" ? std::string("standard input") : file) + ": " +
                     std::strerror(errno));
    }
    if (n == 0) break;
    data.append(buf, static_cast<size_t>(n));
  }
  return simdjson::padded_string(data);
}

Result<InputFile> InputFile::Open(const std::string& file) {
  if (file == "-") {
    // Standard input redirected from a file (`< event.json`) has the file's size, read from its
    // start; a pipe or a terminal has none.
    struct stat st;
    const bool whole_file = ::fstat(STDIN_FILENO, &st) == 0 && S_ISREG(st.st_mode) &&
                            ::lseek(STDIN_FILENO, 0, SEEK_CUR) == 0;
    return InputFile(STDIN_FILENO, false, whole_file ? static_cast<uint64_t>(st.st_size) : 0);
  }
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

}  // namespace kaizen::home
