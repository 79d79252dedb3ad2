// A regular file's lines viewed in place through a read-only mapping: no copy out of the page
// cache, which for a large uncached file cost more kernel time than the reading itself
// (docs/performance.md, "Figures behind the source's choices").
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "ingest/line_source.h"
#include "model/limits.h"

namespace kaizen::ingest {

class MappedLineSource : public LineSource {
 public:
  // A source for `fd` from its current offset to the end the file has now (what is appended
  // later is not read), or nullptr when `fd` is not a non-empty regular file or cannot be mapped.
  // The descriptor may be closed afterwards.
  static std::unique_ptr<MappedLineSource> Map(int fd,
                                               size_t max_line_bytes = model::kMaxEventBytes);
  ~MappedLineSource() override;
  MappedLineSource(const MappedLineSource&) = delete;
  MappedLineSource& operator=(const MappedLineSource&) = delete;

  // As MemoryLineSource::Next, and it lets the pages of the chunk it reuses go (the process
  // holds only the chunks in flight). IoError when the file shrank while it was mapped: its
  // pages past the new end read as zeros, not as lines, and nothing of that chunk is cut.
  Status Next(size_t max_lines, size_t max_bytes, LineChunk* chunk) override;
  bool Done() const override { return lines_.Done(); }
  uint64_t BytesLeft() const override { return lines_.BytesLeft(); }

 private:
  MappedLineSource(char* map, size_t map_bytes, size_t start, size_t size, int slot,
                   size_t max_line_bytes);
  // Lets go of the whole pages in [from, to) (offsets in the file).
  void Release(size_t from, size_t to);

  char* map_;         // the mapping: the file, then at least a page of zeros
  size_t map_bytes_;  // the whole mapping's length
  size_t start_;      // the offset the source starts at
  size_t released_;   // the pages wholly before this offset were let go
  int slot_;          // this mapping's entry in the SIGBUS handler's table
  MemoryLineSource lines_;
};

// The lines of `fd`: mapped when it is a regular file that can be mapped, else read as they come
// (FdLineSource: a pipe, a terminal). REQUIRES: `fd` stays open while the source is used.
std::unique_ptr<LineSource> LinesOf(int fd, size_t max_line_bytes = model::kMaxEventBytes);

}  // namespace kaizen::ingest
