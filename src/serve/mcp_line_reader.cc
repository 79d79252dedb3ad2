#include "serve/mcp_line_reader.h"

#include <unistd.h>

#include <cerrno>

namespace kaizen::serve {
namespace {
constexpr size_t kChunk = 64 << 10;
}

LineReader::LineReader(int fd, size_t max_line_bytes) : fd_(fd), cap_(max_line_bytes) {}

bool LineReader::Fill() {
  if (eof_ || error_) return false;
  if (start_ > 0 && start_ >= buffer_.size() / 2) {  // keep the buffer from growing forever
    buffer_.erase(0, start_);
    scanned_ -= start_;
    start_ = 0;
  }
  const size_t old = buffer_.size();
  buffer_.resize(old + kChunk);
  ssize_t n;
  do {
    n = ::read(fd_, buffer_.data() + old, kChunk);
  } while (n < 0 && errno == EINTR);
  buffer_.resize(old + (n > 0 ? static_cast<size_t>(n) : 0));
  if (n < 0) error_ = true;
  if (n == 0) eof_ = true;
  return n > 0;
}

LineReader::Next LineReader::Read(std::string* line, size_t* dropped) {
  size_t skipped = 0;  // bytes of an oversized line dropped so far
  for (;;) {
    const size_t nl = buffer_.find('\n', scanned_);
    if (nl != std::string::npos) {
      const size_t length = nl - start_;
      if (skipped > 0 || length > cap_) {
        *dropped = skipped + length;
        start_ = scanned_ = nl + 1;
        return Next::kOversized;
      }
      line->assign(buffer_, start_, length);
      if (!line->empty() && line->back() == '\r') line->pop_back();
      start_ = scanned_ = nl + 1;
      return Next::kLine;
    }
    scanned_ = buffer_.size();
    if (scanned_ - start_ > cap_) {
      // Over the cap with no end in sight: drop what is held and keep counting.
      skipped += scanned_ - start_;
      buffer_.clear();
      start_ = scanned_ = 0;
    }
    if (!Fill()) {
      if (error_) return Next::kError;
      if (skipped > 0) {
        *dropped = skipped + (buffer_.size() - start_);
        buffer_.clear();
        start_ = scanned_ = 0;
        return Next::kOversized;
      }
      if (start_ < buffer_.size()) {  // a last line without its newline
        line->assign(buffer_, start_, std::string::npos);
        if (!line->empty() && line->back() == '\r') line->pop_back();
        buffer_.clear();
        start_ = scanned_ = 0;
        return Next::kLine;
      }
      return Next::kEof;
    }
  }
}

}  // namespace kaizen::serve
