#pragma once

#include <simdjson.h>

#include <cstdint>
#include <string>

#include "kaizen/status.h"

namespace kaizen::home {

// Reads a file, or standard input for "-", into a buffer simdjson can parse in place.
Result<simdjson::padded_string> ReadInput(const std::string& file);

// A file, or standard input for "-", opened to be read as it goes (ingest::FdLineSource): the
// pipeline never holds the whole input. Closes the file (not standard input) when destroyed.
class InputFile {
 public:
  static Result<InputFile> Open(const std::string& file);
  InputFile(InputFile&& other) noexcept;
  InputFile& operator=(InputFile&&) = delete;
  ~InputFile();

  int fd() const { return fd_; }
  // The size of a regular file (standard input redirected from one too); 0 for a pipe or a
  // terminal (unknown).
  uint64_t size() const { return size_; }

 private:
  InputFile(int fd, bool owned, uint64_t size) : fd_(fd), owned_(owned), size_(size) {}
  int fd_;
  bool owned_;
  uint64_t size_;
};

}  // namespace kaizen::home
