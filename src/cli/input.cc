#include "cli/input.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

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

}  // namespace kaizen::cli
