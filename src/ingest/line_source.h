// Where the ingest pipeline takes its lines from, one chunk at a time: a buffer already in memory
// (a server's batch, a test), or a file descriptor read as the pipeline goes (`kaizen import` of a
// file or a pipe), so importing a file of any size holds only a few chunks in memory and the
// reading overlaps the work on the chunk before.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string_view>
#include <utility>
#include <vector>

#include "kaizen/status.h"
#include "model/limits.h"

namespace kaizen::ingest {

// Bytes a source reads into. Not a std::string: resizing one zero-fills what read() overwrites.
struct ChunkBuffer {
  std::unique_ptr<char[]> data;
  size_t size = 0;
  size_t capacity = 0;
};

// One line of the input, without its line ending ("\n" or "\r\n"), followed by at least
// SIMDJSON_PADDING readable bytes.
struct CutLine {
  uint64_t number = 0;    // 1-based; blank lines count too
  std::string_view text;  // the line, or only its first bytes when it is longer than a line may be
  uint64_t length = 0;    // the whole line's length: text.size() unless it was cut short
};

// The next lines of the input, cut at line ends.
struct LineChunk {
  std::vector<CutLine> lines;  // every non-blank line
  uint64_t blank = 0;          // blank lines cut into this chunk
  uint64_t bytes = 0;          // input bytes this chunk covers
  uint64_t end = 0;            // input bytes consumed through the end of this chunk
  // What `lines` point into, when the source reads; Next reuses a chunk's buffer.
  ChunkBuffer storage;
};

// A line longer than a source's `max_line_bytes` keeps only its first `max_line_bytes` bytes, so a
// line of any length costs no more memory than that: the pipeline refuses such a line by its
// length, and a reject file keeps its start. Blank or not is decided on the whole line.
class LineSource {
 public:
  virtual ~LineSource() = default;
  // Cuts the next chunk: up to `max_lines` non-blank lines, stopping once they reach `max_bytes`;
  // at least one non-blank line unless the input is exhausted. Blank lines never end a chunk by
  // themselves. IoError when reading fails (the message says what could not be read).
  virtual Status Next(size_t max_lines, size_t max_bytes, LineChunk* chunk) = 0;
  // True once Next has cut everything.
  virtual bool Done() const = 0;
  // Input bytes not cut yet, when the source knows (a file, a buffer); 0 when it does not (a pipe).
  virtual uint64_t BytesLeft() const { return 0; }
};

// How far ahead of the cutting the file sources ask the kernel to read: a few chunks, so the
// disk's queue stays full (`kaizen import` of an 800 MB file from a cold page cache: 5.2-5.8 s
// without it, 4.5 s with it, as fast as from a warm one).
inline constexpr uint64_t kReadAheadBytes = 32 << 20;

// Lines viewed in place. REQUIRES: `input` is followed by SIMDJSON_PADDING readable bytes and
// outlives every chunk.
class MemoryLineSource : public LineSource {
 public:
  // Told [from, to) (offsets in the input) of a line longer than max_line_bytes, past the part
  // kept, once it is scanned: a mapped file lets those pages go.
  using Passed = std::function<void(size_t from, size_t to)>;
  // No line limit unless given: the input is in memory already.
  explicit MemoryLineSource(std::string_view input, size_t max_line_bytes = SIZE_MAX,
                            Passed passed = {})
      : input_(input), max_line_bytes_(max_line_bytes), passed_(std::move(passed)) {}
  Status Next(size_t max_lines, size_t max_bytes, LineChunk* chunk) override;
  bool Done() const override { return pos_ >= input_.size(); }
  uint64_t BytesLeft() const override { return input_.size() - pos_; }

 private:
  std::string_view input_;
  size_t max_line_bytes_;
  Passed passed_;
  size_t pos_ = 0;
  uint64_t line_number_ = 0;
};

// Lines read from `fd` (a file or a pipe; not closed) as they are needed. A chunk reads about
// `max_bytes`, more when one line is longer, up to `max_line_bytes`: past that the rest of the
// line is read past, not held.
class FdLineSource : public LineSource {
 public:
  explicit FdLineSource(int fd, size_t max_line_bytes = model::kMaxEventBytes);
  Status Next(size_t max_lines, size_t max_bytes, LineChunk* chunk) override;
  bool Done() const override { return eof_ && carry_.size == 0; }

 private:
  // Reads into `buffer` until it holds `want` bytes or the input ends.
  Status Fill(ChunkBuffer* buffer, size_t want);
  // Asks the kernel to start reading the file ahead of `offset_`, so a file not in the page cache
  // streams from disk while the pipeline works on the chunks before.
  void ReadAhead();
  // A line SkipLongLine cut short.
  struct LongLine {
    uint64_t length = 0;   // without its line ending; 0: no line was cut short
    bool blank = false;    // all of it spaces, tabs and carriage returns
    uint64_t dropped = 0;  // input bytes read past and not held
  };
  // `buffer` holds the start of one line, longer than max_line_bytes_, and no line end: reads on
  // past the line's end, keeping the line's first max_line_bytes_ bytes, then a '\n' (if the line
  // has one), then whatever was read after the line.
  Status SkipLongLine(ChunkBuffer* buffer, LongLine* line);

  int fd_;
  size_t max_line_bytes_;
  bool eof_ = false;
  bool seekable_;      // a file, not a pipe: it can be read ahead
  uint64_t offset_;    // fd_'s offset in the file
  uint64_t hinted_;    // the file up to here has been asked for
  ChunkBuffer carry_;  // read but not yet cut: the start of a line
  uint64_t consumed_ = 0;
  uint64_t line_number_ = 0;
};

}  // namespace kaizen::ingest
