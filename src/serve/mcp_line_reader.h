// Newline-delimited messages from a file descriptor (the MCP stdio transport), with a cap on the
// length of one line: a longer line is skipped as it streams in, never held whole in memory.
#pragma once

#include <cstddef>
#include <string>

namespace kaizen::serve {

class LineReader {
 public:
  // REQUIRES: fd stays open while the reader is in use; max_line_bytes > 0.
  LineReader(int fd, size_t max_line_bytes);

  enum class Next {
    kLine,       // *line holds the next line, without "\n" (and without a "\r" before it)
    kOversized,  // a line longer than the cap was read and dropped; *dropped is its length
    kEof,        // end of input; a last line without "\n" was returned as kLine before
    kError,      // read(2) failed (not EINTR); errno is kept
  };
  Next Read(std::string* line, size_t* dropped);

 private:
  bool Fill();  // false at end of input or on an error (error_ set)

  int fd_;
  size_t cap_;
  std::string buffer_;
  size_t start_ = 0;    // where the unread part of buffer_ begins
  size_t scanned_ = 0;  // buffer_[start_, scanned_) holds no newline
  bool eof_ = false, error_ = false;
};

}  // namespace kaizen::serve
