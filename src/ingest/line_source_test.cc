// Cutting input into chunks of lines: in memory, from a file and from a pipe, with lines that span
// reads, lines longer than a chunk, blank stretches and a missing final newline.
#include "ingest/line_source.h"

#include <sys/stat.h>

#include <fcntl.h>
#include <gtest/gtest.h>
#include <simdjson.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "base/test_files.h"
#include "ingest/mapped_line_source.h"

namespace kaizen::ingest {
namespace {

struct Cut {
  std::vector<std::pair<uint64_t, std::string>> lines;
  std::vector<std::pair<uint64_t, uint64_t>> cut_short;  // line number, whole length
  uint64_t blank = 0;
  uint64_t bytes = 0;
  std::vector<uint64_t> ends;  // LineChunk::end of each chunk
  size_t chunks = 0;
};

// Every chunk `source` gives until Done(), its lines copied out before the next is cut.
Cut CutAll(LineSource& source, size_t max_lines, size_t max_bytes) {
  Cut cut;
  LineChunk chunk;
  while (!source.Done()) {
    Status s = source.Next(max_lines, max_bytes, &chunk);
    EXPECT_TRUE(s.ok()) << s.message();
    if (!s.ok()) break;
    for (const CutLine& line : chunk.lines) {
      cut.lines.emplace_back(line.number, std::string(line.text));
      if (line.length != line.text.size()) cut.cut_short.emplace_back(line.number, line.length);
    }
    cut.blank += chunk.blank;
    cut.bytes += chunk.bytes;
    cut.ends.push_back(chunk.end);
    if (!chunk.lines.empty()) ++cut.chunks;
  }
  return cut;
}

// `text` written to a temporary file, opened for reading.
class TempInput {
 public:
  explicit TempInput(const std::string& text) {
    dir_ = base::test_files::MakeTempDir("line-source");
    path_ = dir_ + "/input.jsonl";
    std::ofstream(path_, std::ios::binary) << text;
    fd_ = ::open(path_.c_str(), O_RDONLY);
  }
  ~TempInput() {
    ::close(fd_);
    std::filesystem::remove_all(dir_);
  }
  int fd() const { return fd_; }
  const std::string& path() const { return path_; }

 private:
  std::string dir_, path_;
  int fd_ = -1;
};

const std::string kText = "{\"a\":1}\n\n  \t\r\n{\"b\":2}\r\n{\"c\":3}\n\n{\"d\":4}";

void ExpectTextCut(const Cut& cut) {
  ASSERT_EQ(cut.lines.size(), 4u);
  EXPECT_EQ(cut.lines[0], std::make_pair(uint64_t{1}, std::string("{\"a\":1}")));
  EXPECT_EQ(cut.lines[1], std::make_pair(uint64_t{4}, std::string("{\"b\":2}")));  // no \r
  EXPECT_EQ(cut.lines[2], std::make_pair(uint64_t{5}, std::string("{\"c\":3}")));
  EXPECT_EQ(cut.lines[3], std::make_pair(uint64_t{7}, std::string("{\"d\":4}")));  // no final \n
  EXPECT_EQ(cut.blank, 3u);
  EXPECT_EQ(cut.bytes, kText.size());
  EXPECT_EQ(cut.ends.back(), kText.size());
}

TEST(MemoryLineSource, CutsLinesWithTheirNumbersSkippingBlankOnesAndCarriageReturns) {
  simdjson::padded_string input(kText);
  MemoryLineSource source(std::string_view(input.data(), input.size()));
  ExpectTextCut(CutAll(source, 100, 1 << 20));
}

TEST(MemoryLineSource, EndsAChunkAtItsLineLimitButNeverOnBlankLinesAlone) {
  simdjson::padded_string input(kText);
  MemoryLineSource source(std::string_view(input.data(), input.size()));
  Cut cut = CutAll(source, 1, 1 << 20);
  ExpectTextCut(cut);
  EXPECT_EQ(cut.chunks, 4u);
}

TEST(MemoryLineSource, ALineOverTheLineLimitKeepsOnlyItsStartAndSaysHowLongItWas) {
  simdjson::padded_string input("{\"a\":1}\n" + std::string(1000, 'x') + "\r\n" +
                                std::string(100, ' ') + "\n{}");
  MemoryLineSource source(std::string_view(input.data(), input.size()), 16);
  Cut cut = CutAll(source, 100, 1 << 20);
  ASSERT_EQ(cut.lines.size(), 3u);
  EXPECT_EQ(cut.lines[1], std::make_pair(uint64_t{2}, std::string(16, 'x')));
  EXPECT_EQ(cut.cut_short, (std::vector<std::pair<uint64_t, uint64_t>>{{2, 1000}}));
  EXPECT_EQ(cut.blank, 1u);
}

TEST(FdLineSource, CutsAFileLikeTheSameTextInMemory) {
  TempInput file(kText);
  FdLineSource source(file.fd());
  ExpectTextCut(CutAll(source, 100, 1 << 20));
}

// `cmd < file` after the shell read part of it, or a caller's own fd: the source starts where the
// descriptor is (reading the file ahead must not move it).
TEST(FdLineSource, AFileDescriptorPartWayThroughIsReadFromWhereItStands) {
  const std::string skipped = "{\"already\":\"read\"}\n";
  TempInput file(skipped + kText);
  ASSERT_EQ(::lseek(file.fd(), static_cast<off_t>(skipped.size()), SEEK_SET),
            static_cast<off_t>(skipped.size()));
  FdLineSource source(file.fd());
  ExpectTextCut(CutAll(source, 100, 1 << 20));
}

TEST(FdLineSource, LinesSpanningReadsComeOutWholeAtEveryChunkSize) {
  std::string text;
  for (int i = 0; i < 300; ++i) {
    text += "{\"n\":" + std::to_string(i) + ",\"pad\":\"" +
            std::string(static_cast<size_t>(i % 37), 'x') + "\"}\n";
    if (i % 50 == 0) text += "\n";
  }
  for (size_t max_bytes : {1, 7, 100, 4095, 4096, 4097, 100000}) {
    SCOPED_TRACE(max_bytes);
    TempInput file(text);
    FdLineSource source(file.fd());
    Cut cut = CutAll(source, 1000, max_bytes);
    ASSERT_EQ(cut.lines.size(), 300u);
    for (size_t i = 0; i < cut.lines.size(); ++i) {
      EXPECT_EQ(cut.lines[i].second.substr(0, 5 + std::to_string(i).size()),
                "{\"n\":" + std::to_string(i));
    }
    EXPECT_EQ(cut.blank, 6u);
    EXPECT_EQ(cut.ends.back(), text.size());
  }
}

TEST(FdLineSource, ALineLongerThanAChunkIsReadToItsEnd) {
  const std::string big = "{\"s\":\"" + std::string(3 << 20, 'y') + "\"}";
  TempInput file("{\"a\":1}\n" + big + "\n{\"b\":2}\n");
  FdLineSource source(file.fd(), 4 << 20);
  Cut cut = CutAll(source, 100, 4096);
  ASSERT_EQ(cut.lines.size(), 3u);
  EXPECT_EQ(cut.lines[1].second, big);
  EXPECT_EQ(cut.lines[2].second, "{\"b\":2}");
  EXPECT_TRUE(cut.cut_short.empty());
}

TEST(FdLineSource, ALineOverTheLineLimitKeepsOnlyItsStartAndSaysHowLongItWas) {
  const std::string text = "{\"a\":1}\n" + std::string(1000, 'x') + "\n{\"b\":2}\n";
  for (size_t max_bytes : {1, 100, 4096}) {
    SCOPED_TRACE(max_bytes);
    TempInput file(text);
    FdLineSource source(file.fd(), 16);
    Cut cut = CutAll(source, 100, max_bytes);
    ASSERT_EQ(cut.lines.size(), 3u);
    EXPECT_EQ(cut.lines[1], std::make_pair(uint64_t{2}, std::string(16, 'x')));
    EXPECT_EQ(cut.lines[2], std::make_pair(uint64_t{3}, std::string("{\"b\":2}")));
    EXPECT_EQ(cut.cut_short, (std::vector<std::pair<uint64_t, uint64_t>>{{2, 1000}}));
    EXPECT_EQ(cut.bytes, text.size());  // the bytes read past count as consumed
    EXPECT_EQ(cut.ends.back(), text.size());
  }
}

TEST(FdLineSource, ALongLineAtTheEndWithoutNewlineOrWithCrlfHasItsExactLength) {
  {
    TempInput file("{\"a\":1}\n" + std::string(5000, 'z'));
    FdLineSource source(file.fd(), 64);
    Cut cut = CutAll(source, 100, 128);
    EXPECT_EQ(cut.cut_short, (std::vector<std::pair<uint64_t, uint64_t>>{{2, 5000}}));
    EXPECT_EQ(cut.ends.back(), 5008u);
  }
  {
    TempInput file(std::string(5000, 'z') + "\r\n{\"b\":2}\r\n");
    FdLineSource source(file.fd(), 64);
    Cut cut = CutAll(source, 100, 128);
    ASSERT_EQ(cut.lines.size(), 2u);
    EXPECT_EQ(cut.cut_short, (std::vector<std::pair<uint64_t, uint64_t>>{{1, 5000}}));
    EXPECT_EQ(cut.lines[1].second, "{\"b\":2}");
  }
}

// Blank or not is decided on the whole line, not on the part kept.
TEST(FdLineSource, ALongLineIsBlankOnlyIfAllOfItIs) {
  TempInput file(std::string(3000, ' ') + "\n" + std::string(3000, ' ') + "x\n{\"b\":2}\n");
  FdLineSource source(file.fd(), 64);
  Cut cut = CutAll(source, 100, 128);
  EXPECT_EQ(cut.blank, 1u);
  ASSERT_EQ(cut.lines.size(), 2u);
  EXPECT_EQ(cut.lines[0], std::make_pair(uint64_t{2}, std::string(64, ' ')));
  EXPECT_EQ(cut.cut_short, (std::vector<std::pair<uint64_t, uint64_t>>{{2, 3001}}));
}

// A line of any length through a pipe costs the line limit and a read, not the line: 48 MiB held
// whole would need a 64 MiB buffer.
TEST(FdLineSource, AHugeLineFromAPipeIsNeverHeldWhole) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  constexpr size_t kHuge = 48 << 20;
  std::thread writer([w = fds[1]] {
    const std::string block(1 << 16, 'q');
    for (size_t sent = 0; sent < kHuge; sent += block.size()) {
      (void)!::write(w, block.data(), block.size());
    }
    (void)!::write(w, "\n{}\n", 4);
    ::close(w);
  });
  FdLineSource source(fds[0]);
  LineChunk chunk;
  size_t largest = 0;
  std::vector<uint64_t> cut_short;
  uint64_t lines = 0;
  while (!source.Done()) {
    ASSERT_TRUE(source.Next(100, 4096, &chunk).ok());
    largest = std::max(largest, chunk.storage.capacity);
    for (const CutLine& line : chunk.lines) {
      if (line.length != line.text.size()) cut_short.push_back(line.length);
    }
    lines += chunk.lines.size();
  }
  writer.join();
  ::close(fds[0]);
  EXPECT_EQ(lines, 2u);
  EXPECT_EQ(cut_short, std::vector<uint64_t>{kHuge});
  EXPECT_LT(largest, 4u << 20);
}

TEST(FdLineSource, LinesAreFollowedByReadablePaddingForTheParser) {
  TempInput file("{\"a\":[1,2,3]}\n{\"b\":true}");
  FdLineSource source(file.fd());
  LineChunk chunk;
  ASSERT_TRUE(source.Next(100, 1 << 20, &chunk).ok());
  ASSERT_EQ(chunk.lines.size(), 2u);
  const char* end = chunk.lines[1].text.data() + chunk.lines[1].text.size();
  EXPECT_GE(static_cast<size_t>(chunk.storage.data.get() + chunk.storage.capacity - end),
            simdjson::SIMDJSON_PADDING);
  simdjson::dom::parser parser;
  for (const CutLine& line : chunk.lines) {
    simdjson::dom::element e;
    EXPECT_EQ(parser.parse(line.text.data(), line.text.size(), false).get(e), simdjson::SUCCESS)
        << line.text;
  }
}

TEST(FdLineSource, AStretchOfBlankLinesLongerThanAChunkDoesNotEndTheInput) {
  TempInput file("{\"a\":1}\n" + std::string(50000, '\n') + "{\"b\":2}\n");
  FdLineSource source(file.fd());
  Cut cut = CutAll(source, 100, 4096);
  ASSERT_EQ(cut.lines.size(), 2u);
  EXPECT_EQ(cut.lines[1], std::make_pair(uint64_t{50002}, std::string("{\"b\":2}")));
  EXPECT_EQ(cut.blank, 50000u);
}

TEST(FdLineSource, ReadsAPipeAsItIsWritten) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  std::thread writer([w = fds[1]] {
    for (int i = 0; i < 2000; ++i) {
      std::string line = "{\"i\":" + std::to_string(i) + "}\n";
      // Lines split across writes: the reader sees partial lines.
      for (char c : line) (void)!::write(w, &c, 1);
    }
    ::close(w);
  });
  FdLineSource source(fds[0]);
  Cut cut = CutAll(source, 100, 256);
  writer.join();
  ::close(fds[0]);
  ASSERT_EQ(cut.lines.size(), 2000u);
  EXPECT_EQ(cut.lines[1999].second, "{\"i\":1999}");
}

TEST(FdLineSource, AReadErrorNamesTheInputAndTheSystemError) {
  const int fd = ::open("/", O_RDONLY | O_DIRECTORY);
  ASSERT_GE(fd, 0);
  FdLineSource source(fd);
  LineChunk chunk;
  Status s = source.Next(100, 4096, &chunk);
  ::close(fd);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), StatusCode::kIoError);
  EXPECT_NE(s.message().find("cannot read the input: Is a directory"), std::string::npos)
      << s.message();
}

TEST(MappedLineSource, CutsAFileLikeTheSameTextInMemory) {
  TempInput file(kText);
  auto source = MappedLineSource::Map(file.fd());
  ASSERT_NE(source, nullptr);
  EXPECT_EQ(source->BytesLeft(), kText.size());
  ExpectTextCut(CutAll(*source, 100, 1 << 20));
  EXPECT_EQ(source->BytesLeft(), 0u);
}

TEST(LineSource, SaysHowManyBytesAreLeftWhenItKnows) {
  simdjson::padded_string input(kText);
  MemoryLineSource memory(std::string_view(input.data(), input.size()));
  LineChunk chunk;
  ASSERT_TRUE(memory.Next(1, 1 << 20, &chunk).ok());
  EXPECT_EQ(memory.BytesLeft(), kText.size() - chunk.end);
  TempInput file(kText);
  FdLineSource read(file.fd());
  EXPECT_EQ(read.BytesLeft(), 0u);  // unknown: it reads as it goes
}

TEST(MappedLineSource, AFileDescriptorPartWayThroughIsReadFromWhereItStands) {
  const std::string skipped = "{\"already\":\"read\"}\n";
  TempInput file(skipped + kText);
  ASSERT_EQ(::lseek(file.fd(), static_cast<off_t>(skipped.size()), SEEK_SET),
            static_cast<off_t>(skipped.size()));
  auto source = MappedLineSource::Map(file.fd());
  ASSERT_NE(source, nullptr);
  ExpectTextCut(CutAll(*source, 100, 1 << 20));
}

// The Ingestor's rhythm: two chunks in turn, each handed back to Next once it is done, which lets
// its pages go; a page shared with the chunk still in flight must keep its bytes.
TEST(MappedLineSource, TwoChunksInTurnKeepTheirLinesWhileTheLastOnesPagesAreLetGo) {
  std::string text;
  for (int i = 0; i < 4000; ++i) {
    text += "{\"n\":" + std::to_string(i) + ",\"pad\":\"" +
            std::string(static_cast<size_t>(i % 91), 'x') + "\"}\n";
  }
  simdjson::padded_string in_memory(text);
  for (size_t max_bytes : {100, 4096, 10000, 65536}) {
    SCOPED_TRACE("chunks of " + std::to_string(max_bytes) + " bytes");
    MemoryLineSource expected_source(std::string_view(in_memory.data(), in_memory.size()));
    const Cut expected = CutAll(expected_source, 1000, max_bytes);
    TempInput file(text);
    auto source = MappedLineSource::Map(file.fd());
    ASSERT_NE(source, nullptr);
    LineChunk chunks[2];
    std::vector<std::pair<uint64_t, std::string>> lines;
    for (size_t turn = 0; !source->Done(); ++turn) {
      LineChunk& chunk = chunks[turn % 2];
      ASSERT_TRUE(source->Next(1000, max_bytes, &chunk).ok());
      // The other chunk, cut before this one and not handed back yet, is intact.
      const LineChunk& other = chunks[(turn + 1) % 2];
      if (turn > 0) {
        ASSERT_FALSE(other.lines.empty());
        const size_t first = lines.size() - other.lines.size();
        for (size_t i = 0; i < other.lines.size(); ++i)
          ASSERT_EQ(other.lines[i].text, lines[first + i].second);
      }
      for (const CutLine& line : chunk.lines) lines.emplace_back(line.number, line.text);
    }
    EXPECT_EQ(lines, expected.lines);
  }
}

TEST(MappedLineSource, AFileOfWholePagesIsFollowedByReadablePaddingForTheParser) {
  const size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  std::string text = "{\"a\":\"" + std::string(2 * page - 8, 'y') + "\"}";  // no final newline
  ASSERT_EQ(text.size(), 2 * page);
  TempInput file(text);
  auto source = MappedLineSource::Map(file.fd());
  ASSERT_NE(source, nullptr);
  LineChunk chunk;
  ASSERT_TRUE(source->Next(100, 1 << 20, &chunk).ok());
  ASSERT_EQ(chunk.lines.size(), 1u);
  const std::string_view line = chunk.lines[0].text;
  // The parser reads past the line's end without copying it first.
  simdjson::dom::parser parser;
  simdjson::dom::element e;
  ASSERT_EQ(parser.parse(line.data(), line.size(), false).get(e), simdjson::SUCCESS);
  for (size_t i = 0; i < simdjson::SIMDJSON_PADDING; ++i)
    EXPECT_EQ(line.data()[line.size() + i], 0);
}

TEST(MappedLineSource, IsNotForAPipeOrAnEmptyFileWhichAreReadInstead) {
  TempInput empty("");
  EXPECT_EQ(MappedLineSource::Map(empty.fd()), nullptr);
  auto lines = LinesOf(empty.fd());
  EXPECT_TRUE(CutAll(*lines, 100, 4096).lines.empty());
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  EXPECT_EQ(MappedLineSource::Map(fds[0]), nullptr);
  ASSERT_EQ(::write(fds[1], "{\"a\":1}\n", 8), 8);
  ::close(fds[1]);
  auto piped = LinesOf(fds[0]);
  const Cut cut = CutAll(*piped, 100, 4096);
  ::close(fds[0]);
  ASSERT_EQ(cut.lines.size(), 1u);
  EXPECT_EQ(cut.lines[0].second, "{\"a\":1}");
}

// Truncated while it is imported: the pages past the new end cannot be read (SIGBUS). The next
// chunk is a read error, not a crash and not lines of zeros.
TEST(MappedLineSource, AFileThatShrinksWhileMappedIsAReadErrorNotACrash) {
  std::string text;
  while (text.size() < (256 << 10)) text += "{\"filler\":\"" + std::string(100, 'z') + "\"}\n";
  TempInput file(text);
  auto source = MappedLineSource::Map(file.fd());
  ASSERT_NE(source, nullptr);
  LineChunk chunk;
  ASSERT_TRUE(source->Next(1, 1 << 20, &chunk).ok());
  ASSERT_EQ(chunk.lines.size(), 1u);
  ASSERT_EQ(::truncate(file.path().c_str(), 4096), 0);
  Status s = source->Next(1 << 20, 1 << 20, &chunk);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), StatusCode::kIoError);
  EXPECT_NE(s.message().find("the file shrank while it was being read"), std::string::npos)
      << s.message();
  EXPECT_TRUE(chunk.lines.empty());
  // Another mapping afterwards is not taken for the shrunk one.
  TempInput other(kText);
  auto again = MappedLineSource::Map(other.fd());
  ASSERT_NE(again, nullptr);
  ExpectTextCut(CutAll(*again, 100, 1 << 20));
}

}  // namespace
}  // namespace kaizen::ingest
