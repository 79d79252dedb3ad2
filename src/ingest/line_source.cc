#include "ingest/line_source.h"

#include <fcntl.h>
#include <simdjson.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>
#include <utility>

namespace kaizen::ingest {
namespace {

bool IsBlank(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return c == ' ' || c == '\t' || c == '\r'; });
}

// Where the line that starts at `pos` ends (its '\n'), or nullptr. Past the line's first
// `max_line` bytes (all of it that is kept) the search goes a mebibyte at a time and tells
// `passed` each stretch it is done with, when there is a `passed`.
const char* FindLineEnd(std::string_view text, size_t pos, size_t max_line,
                        const MemoryLineSource::Passed& passed) {
  const size_t size = text.size();
  if (!passed || size - pos <= max_line) {
    return static_cast<const char*>(std::memchr(text.data() + pos, '\n', size - pos));
  }
  if (const void* found = std::memchr(text.data() + pos, '\n', max_line)) {
    return static_cast<const char*>(found);
  }
  constexpr size_t kWindow = 1 << 20;
  for (size_t from = pos + max_line; from < size; from += kWindow) {
    const size_t n = std::min(kWindow, size - from);
    if (const void* found = std::memchr(text.data() + from, '\n', n)) {
      return static_cast<const char*>(found);
    }
    passed(from, from + n);
  }
  return nullptr;
}

// Cuts lines of `text` from `pos` into `chunk` until the limits; a last line without '\n' is cut
// only when `final` (the text ends the input). A line longer than `max_line` keeps its first
// `max_line` bytes. A nonzero `first_length` says the first line is the start of a line that
// long (blank or not as `first_blank` says), longer than what `text` holds of it. Returns the
// position after the last line cut.
size_t CutLines(std::string_view text, size_t pos, bool final, size_t max_lines, size_t max_bytes,
                size_t max_line, uint64_t* line_number, LineChunk* chunk, uint64_t first_length = 0,
                bool first_blank = false, const MemoryLineSource::Passed& passed = {}) {
  max_lines = std::max<size_t>(1, max_lines);  // so every call that can cut a line advances
  max_bytes = std::max<size_t>(1, max_bytes);
  size_t bytes = 0;
  while (pos < text.size() && chunk->lines.size() < max_lines && bytes < max_bytes) {
    const char* found = FindLineEnd(text, pos, max_line, passed);
    if (found == nullptr && !final) break;
    const size_t end = found ? static_cast<size_t>(found - text.data()) : text.size();
    std::string_view raw = text.substr(pos, end - pos);
    pos = found ? end + 1 : end;
    ++*line_number;
    uint64_t length = std::exchange(first_length, 0);
    bool blank = first_blank;
    if (length == 0) {
      if (!raw.empty() && raw.back() == '\r') raw.remove_suffix(1);
      length = raw.size();
      blank = IsBlank(raw);
    }
    if (blank) {
      ++chunk->blank;
      continue;
    }
    raw = raw.substr(0, max_line);
    bytes += raw.size();
    chunk->lines.push_back({*line_number, raw, length});
  }
  return pos;
}

void Reset(LineChunk* chunk) {
  chunk->lines.clear();
  chunk->blank = 0;
  chunk->bytes = 0;
}

// A buffer of at least `capacity` bytes holding the first `keep` bytes of `old`.
ChunkBuffer Grown(ChunkBuffer old, size_t capacity, size_t keep) {
  if (old.capacity >= capacity) {
    old.size = keep;
    return old;
  }
  ChunkBuffer b;
  b.data = std::make_unique_for_overwrite<char[]>(capacity);
  b.capacity = capacity;
  b.size = keep;
  if (keep > 0) std::memcpy(b.data.get(), old.data.get(), keep);
  return b;
}

}  // namespace

Status MemoryLineSource::Next(size_t max_lines, size_t max_bytes, LineChunk* chunk) {
  Reset(chunk);
  const size_t start = pos_;
  pos_ = CutLines(input_, pos_, true, max_lines, max_bytes, max_line_bytes_, &line_number_, chunk,
                  0, false, passed_);
  chunk->bytes = pos_ - start;
  chunk->end = pos_;
  return Status::Ok();
}

// Hints go out in steps of this, which keeps them to one system call per several chunks.
constexpr uint64_t kReadAheadStep = 8 << 20;

FdLineSource::FdLineSource(int fd, size_t max_line_bytes)
    : fd_(fd), max_line_bytes_(std::max<size_t>(1, max_line_bytes)) {
  const off_t at = ::lseek(fd, 0, SEEK_CUR);  // ESPIPE for a pipe or a terminal
  seekable_ = at >= 0;
  offset_ = hinted_ = seekable_ ? static_cast<uint64_t>(at) : 0;
}

void FdLineSource::ReadAhead() {
  if (!seekable_ || hinted_ >= offset_ + kReadAheadBytes - kReadAheadStep) return;
  const uint64_t to = offset_ + kReadAheadBytes;
  // A failure only loses the hint.
  (void)::posix_fadvise(fd_, static_cast<off_t>(hinted_), static_cast<off_t>(to - hinted_),
                        POSIX_FADV_WILLNEED);
  hinted_ = to;
}

Status FdLineSource::Fill(ChunkBuffer* buffer, size_t want) {
  want = std::min(want, buffer->capacity - simdjson::SIMDJSON_PADDING);
  while (buffer->size < want && !eof_) {
    ReadAhead();
    const ssize_t n = ::read(fd_, buffer->data.get() + buffer->size, want - buffer->size);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return IoError(std::string("cannot read the input: ") + std::strerror(errno));
    if (n == 0) eof_ = true;
    buffer->size += static_cast<size_t>(n);
    offset_ += static_cast<uint64_t>(n);
  }
  return Status::Ok();
}

Status FdLineSource::SkipLongLine(ChunkBuffer* buffer, LongLine* line) {
  // Read on a mebibyte at a time into the space after the part kept and its '\n'.
  constexpr size_t kStep = 1 << 20;
  const size_t keep = max_line_bytes_;
  *buffer = Grown(std::move(*buffer),
                  std::max(buffer->capacity, keep + 1 + kStep + simdjson::SIMDJSON_PADDING),
                  buffer->size);
  char* data = buffer->data.get();
  uint64_t seen = buffer->size;  // bytes of the line so far, a '\r' before its '\n' included
  line->blank = IsBlank({data, buffer->size});
  char last = data[buffer->size - 1];
  while (true) {
    buffer->size = keep + 1;
    KZ_RETURN_IF_ERROR(Fill(buffer, buffer->capacity));
    const char* read = data + keep + 1;
    const size_t n = buffer->size - (keep + 1);
    const char* found = static_cast<const char*>(std::memchr(read, '\n', n));
    const size_t part = found ? static_cast<size_t>(found - read) : n;
    line->blank = line->blank && IsBlank({read, part});
    seen += part;
    if (part > 0) last = read[part - 1];
    if (found != nullptr || eof_) {
      line->length = seen - (last == '\r' ? 1 : 0);
      line->dropped = seen - keep;
      const size_t after = found ? n - part - 1 : 0;
      if (found) {
        data[keep] = '\n';
        std::memmove(data + keep + 1, found + 1, after);
      }
      buffer->size = found ? keep + 1 + after : keep;
      return Status::Ok();
    }
  }
}

Status FdLineSource::Next(size_t max_lines, size_t max_bytes, LineChunk* chunk) {
  Reset(chunk);
  const size_t want = std::max<size_t>(max_bytes, 4096);
  ChunkBuffer buffer = std::move(chunk->storage);
  const uint64_t start = consumed_;
  while (true) {
    // What the last chunk left (the start of a line), then fresh bytes.
    buffer = Grown(std::move(buffer),
                   std::max(want, carry_.size) + 4096 + simdjson::SIMDJSON_PADDING, 0);
    if (carry_.size > 0) std::memcpy(buffer.data.get(), carry_.data.get(), carry_.size);
    buffer.size = carry_.size;
    carry_.size = 0;
    KZ_RETURN_IF_ERROR(Fill(&buffer, want));
    // A line longer than the buffer: read on until it ends, doubling the buffer, or past its
    // end once it is longer than a line may be.
    size_t scanned = 0;
    LongLine long_line;
    while (!eof_ &&
           std::memchr(buffer.data.get() + scanned, '\n', buffer.size - scanned) == nullptr) {
      if (buffer.size > max_line_bytes_) {
        KZ_RETURN_IF_ERROR(SkipLongLine(&buffer, &long_line));
        break;
      }
      scanned = buffer.size;
      buffer = Grown(std::move(buffer), 2 * buffer.capacity, buffer.size);
      KZ_RETURN_IF_ERROR(Fill(&buffer, buffer.capacity));
    }
    const std::string_view text(buffer.data.get(), buffer.size);
    const size_t cut = CutLines(text, 0, eof_, max_lines, max_bytes, max_line_bytes_, &line_number_,
                                chunk, long_line.length, long_line.blank);
    const size_t left = buffer.size - cut;
    carry_ = Grown(std::move(carry_), left + simdjson::SIMDJSON_PADDING, 0);
    if (left > 0) std::memcpy(carry_.data.get(), buffer.data.get() + cut, left);
    carry_.size = left;
    buffer.size = cut;
    consumed_ += cut + long_line.dropped;
    // Only blank lines so far: read on into the same buffer (they are counted; no line points
    // into it yet).
    if (!chunk->lines.empty() || Done()) break;
  }
  chunk->bytes = consumed_ - start;
  chunk->end = consumed_;
  chunk->storage = std::move(buffer);
  return Status::Ok();
}

}  // namespace kaizen::ingest
