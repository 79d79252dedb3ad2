#include "serve/mcp_line_reader.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <string>
#include <thread>

namespace kaizen::serve {
namespace {

// Feeds `input` through a pipe from another thread (a pipe holds only 64 KiB) and collects what
// the reader reports: "L:<line>", "O:<bytes>", then "EOF".
std::vector<std::string> ReadAllLines(const std::string& input, size_t cap) {
  int fds[2];
  EXPECT_EQ(::pipe(fds), 0);
  std::thread writer([&] {
    size_t off = 0;
    while (off < input.size()) {
      const ssize_t n = ::write(fds[1], input.data() + off, input.size() - off);
      if (n <= 0) break;
      off += static_cast<size_t>(n);
    }
    ::close(fds[1]);
  });
  std::vector<std::string> out;
  LineReader reader(fds[0], cap);
  std::string line;
  for (;;) {
    size_t dropped = 0;
    const LineReader::Next next = reader.Read(&line, &dropped);
    if (next == LineReader::Next::kLine) out.push_back("L:" + line);
    if (next == LineReader::Next::kOversized) out.push_back("O:" + std::to_string(dropped));
    if (next == LineReader::Next::kEof || next == LineReader::Next::kError) break;
  }
  out.push_back("EOF");
  writer.join();
  ::close(fds[0]);
  return out;
}

TEST(LineReaderTest, SplitsLinesAndStripsCarriageReturns) {
  EXPECT_EQ(ReadAllLines("a\r\nbc\n\nd", 100),
            (std::vector<std::string>{"L:a", "L:bc", "L:", "L:d", "EOF"}));
}

TEST(LineReaderTest, ALineOverTheCapIsDroppedAndTheNextOneRead) {
  const std::string big(1 << 20, 'x');
  EXPECT_EQ(ReadAllLines("ok\n" + big + "\nafter\n", 1000),
            (std::vector<std::string>{"L:ok", "O:1048576", "L:after", "EOF"}));
}

TEST(LineReaderTest, ALineOfExactlyTheCapIsKept) {
  const std::string line(1000, 'y');
  EXPECT_EQ(ReadAllLines(line + "\n", 1000), (std::vector<std::string>{"L:" + line, "EOF"}));
}

TEST(LineReaderTest, AnOversizedLastLineWithoutNewlineIsReportedAtEof) {
  EXPECT_EQ(ReadAllLines(std::string(300000, 'z'), 1000),
            (std::vector<std::string>{"O:300000", "EOF"}));
}

}  // namespace
}  // namespace kaizen::serve
