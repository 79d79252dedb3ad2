// libFuzzer target for cutting input into lines (ingest/line_source.h), differential: the bytes
// read by FdLineSource from a pipe, and from a file (read ahead, and opened part way through, after
// a prefix), and the same file mapped (MappedLineSource), must give the same lines, line numbers,
// lengths and blank count as the same bytes cut in memory by MemoryLineSource, whatever the chunk
// limits and the line limit (the first three bytes). A line over the limit keeps exactly its first
// bytes and its whole length. 0xFF then a byte k repeats the byte before (k + 1) * 97 times, so
// short inputs make lines longer than the reads (4 KiB and up), which the file sources read past
// instead of holding. Nothing may crash, hang or lose a byte.
//
//   make fuzz
#include <simdjson.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "ingest/line_source.h"
#include "ingest/mapped_line_source.h"

namespace {

using kaizen::ingest::CutLine;
using kaizen::ingest::LineChunk;
using kaizen::ingest::LineSource;

struct Line {
  uint64_t number, length;
  std::string text;
  bool operator==(const Line&) const = default;
};

struct Cut {
  std::vector<Line> lines;
  uint64_t blank = 0;
  uint64_t end = 0;
};

// What fits in a pipe's buffer (64 KiB), so one thread can write it all before reading.
constexpr size_t kMaxInput = 60000;

std::string Expand(const uint8_t* data, size_t size) {
  std::string out;
  for (size_t i = 0; i < size && out.size() < kMaxInput; ++i) {
    if (data[i] == 0xFF && i + 1 < size && !out.empty()) {
      out.append(std::min<size_t>((data[i + 1] + 1) * 97, kMaxInput - out.size()), out.back());
      ++i;
    } else {
      out.push_back(static_cast<char>(data[i]));
    }
  }
  return out;
}

Cut CutAll(LineSource& source, size_t max_lines, size_t max_bytes) {
  Cut cut;
  LineChunk chunk;
  while (!source.Done()) {
    if (!source.Next(max_lines, max_bytes, &chunk).ok()) std::abort();
    // Every chunk but the last holds a line: the pipeline stops at the first empty one.
    if (chunk.lines.empty() && !source.Done()) std::abort();
    for (const CutLine& line : chunk.lines) {
      cut.lines.push_back({line.number, line.length, std::string(line.text)});
    }
    cut.blank += chunk.blank;
    cut.end = chunk.end;
  }
  return cut;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 3) return 0;
  const size_t max_bytes = 1 + size_t{data[0]} * 17;
  const size_t max_lines = 1 + data[1] % 8;
  const size_t max_line = data[2] == 0xFF ? SIZE_MAX : 1 + size_t{data[2]} * 61;
  const std::string input = Expand(data + 3, size - 3);

  simdjson::padded_string padded(input);
  kaizen::ingest::MemoryLineSource memory(std::string_view(padded.data(), padded.size()), max_line);
  const Cut expected = CutAll(memory, max_lines, max_bytes);
  for (const Line& line : expected.lines) {
    if (line.text.size() != std::min<uint64_t>(line.length, max_line)) std::abort();
  }

  int fds[2];
  if (::pipe(fds) != 0) return 0;
  size_t written = 0;
  while (written < input.size()) {
    const ssize_t n = ::write(fds[1], input.data() + written, input.size() - written);
    if (n <= 0) std::abort();
    written += static_cast<size_t>(n);
  }
  ::close(fds[1]);
  kaizen::ingest::FdLineSource piped(fds[0], max_line);
  const Cut got = CutAll(piped, max_lines, max_bytes);
  ::close(fds[0]);

  // The same bytes in a file, after a prefix the descriptor has already passed.
  const std::string prefix(data[1] % 5, '\n');
  const int file = ::memfd_create("line-source-fuzz", MFD_CLOEXEC);
  if (file < 0) return 0;
  const std::string contents = prefix + input;
  if (::write(file, contents.data(), contents.size()) != static_cast<ssize_t>(contents.size()) ||
      ::lseek(file, static_cast<off_t>(prefix.size()), SEEK_SET) !=
          static_cast<off_t>(prefix.size())) {
    std::abort();
  }
  kaizen::ingest::FdLineSource from_file(file, max_line);
  const Cut file_cut = CutAll(from_file, max_lines, max_bytes);
  // And mapped (what `kaizen import` does with a file), from the same place.
  if (::lseek(file, static_cast<off_t>(prefix.size()), SEEK_SET) !=
      static_cast<off_t>(prefix.size())) {
    std::abort();
  }
  const Cut mapped_cut = [&] {
    if (input.empty()) return expected;  // nothing to map
    auto source = kaizen::ingest::MappedLineSource::Map(file, max_line);
    if (source == nullptr) std::abort();
    return CutAll(*source, max_lines, max_bytes);
  }();
  ::close(file);

  for (const Cut* c : {&got, &file_cut, &mapped_cut}) {
    if (c->lines != expected.lines || c->blank != expected.blank || c->end != expected.end ||
        c->end != input.size()) {
      std::abort();
    }
  }
  return 0;
}
