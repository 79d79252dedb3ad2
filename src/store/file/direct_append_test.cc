#include "store/file/direct_append.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "base/test_files.h"
#include "store/file_system.h"

namespace kaizen::store {
namespace {

// Bytes that differ at every offset, so a block written at the wrong place or twice shows.
std::string Pattern(size_t size, size_t seed) {
  std::string s(size, '\0');
  for (size_t i = 0; i < size; ++i) s[i] = static_cast<char>('a' + (i * 7 + seed * 13) % 26);
  return s;
}

class DirectAppendTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = base::test_files::MakeTempDir("kaizen-direct");
    ASSERT_FALSE(dir_.empty());
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // Whether the temporary directory's file system takes direct writes at all.
  bool DirectSupported() {
    const std::string probe = dir_ + "/probe";
    int fd = ::open(probe.c_str(), O_RDWR | O_CREAT | O_DIRECT, 0644);
    if (fd >= 0) ::close(fd);
    return fd >= 0;
  }

  std::string dir_;
};

TEST_F(DirectAppendTest, LargeAppendsAfterAFileOfAnySizeKeepEveryByteInOrder) {
  FileSystem* fs = DefaultFileSystem();
  const std::vector<size_t> starts = {0, 1, 100, 4095, 4096, 4097, 12345};
  // Around the threshold, around a block, and past the 4 MiB buffer the writes go out of.
  const std::vector<size_t> sizes = {kDirectAppendMinBytes, kDirectAppendMinBytes + 1,
                                     kDirectAppendMinBytes + kDirectAlign - 1,
                                     (4 << 20) + kDirectAlign, (9 << 20) + 123};
  for (size_t start : starts) {
    for (size_t size : sizes) {
      SCOPED_TRACE("file of " + std::to_string(start) + " bytes, append of " +
                   std::to_string(size));
      const std::string path = dir_ + "/log.jsonl";
      std::filesystem::remove(path);
      std::string expected = Pattern(start, 1);
      {
        auto file = fs->OpenAppendable(path);
        ASSERT_TRUE(file.ok()) << file.status().ToString();
        ASSERT_TRUE((*file)->Append(expected).ok());  // below the threshold: buffered
      }
      auto file = fs->OpenAppendable(path);
      ASSERT_TRUE(file.ok());
      const std::string data = Pattern(size, 2);
      ASSERT_TRUE((*file)->Append(data).ok());
      expected += data;
      EXPECT_EQ((*file)->Size(), expected.size());
      // Read back through the page cache before any fsync: what readers of the log see.
      ASSERT_EQ(base::test_files::ReadAll(path), expected);
      ASSERT_TRUE((*file)->Sync().ok());
      ASSERT_EQ(base::test_files::ReadAll(path), expected);
    }
  }
}

TEST_F(DirectAppendTest, LargeAndSmallAppendsInTurnToOneFileKeepEveryByteInOrder) {
  FileSystem* fs = DefaultFileSystem();
  const std::string path = dir_ + "/log.jsonl";
  std::string expected;
  auto file = fs->OpenAppendable(path);
  ASSERT_TRUE(file.ok());
  const std::vector<size_t> sizes = {3, (2 << 20) + 5, 17, 4096, (1 << 20) + 4091, (5 << 20),
                                     1, (1 << 20),     77};
  for (size_t i = 0; i < sizes.size(); ++i) {
    const std::string data = Pattern(sizes[i], i);
    ASSERT_TRUE((*file)->Append(data).ok());
    expected += data;
    ASSERT_EQ(base::test_files::ReadAll(path), expected) << "after append " << i;
  }
  EXPECT_EQ((*file)->Size(), expected.size());
  // Truncate, as a failed batch is undone, then append again.
  const uint64_t keep = 3 + (2 << 20) + 5 + 17;
  ASSERT_TRUE((*file)->Truncate(keep).ok());
  expected.resize(keep);
  const std::string more = Pattern((3 << 20) + 9, 99);
  ASSERT_TRUE((*file)->Append(more).ok());
  expected += more;
  ASSERT_TRUE((*file)->Sync().ok());
  EXPECT_EQ(base::test_files::ReadAll(path), expected);
}

TEST_F(DirectAppendTest, WritesWholeBlocksDirectlyAndLeavesLessThanABlockForTheCaller) {
  if (!DirectSupported()) GTEST_SKIP() << "the temporary directory's file system has no O_DIRECT";
  const std::string path = dir_ + "/log.jsonl";
  const std::string before = Pattern(5000, 3);  // a full block and 904 bytes of the next
  {
    auto file = DefaultFileSystem()->OpenAppendable(path);
    ASSERT_TRUE(file.ok());
    ASSERT_TRUE((*file)->Append(before).ok());
  }
  const std::string data = Pattern(3 * kDirectAlign + 10, 4);
  uint64_t end = before.size();
  size_t consumed = 0;
  ASSERT_TRUE(AppendDirect(path, data, &end, &consumed).ok());
  // 904 + 12298 bytes from offset 4096: three whole blocks, 3202 bytes of data left over.
  EXPECT_EQ(end, 4 * kDirectAlign);
  EXPECT_EQ(consumed, 4 * kDirectAlign - before.size());
  EXPECT_EQ(base::test_files::ReadAll(path), before + data.substr(0, consumed));
}

TEST_F(DirectAppendTest, LessThanABlockOrAFileThatCannotBeOpenedIsLeftToTheCaller) {
  uint64_t end = 10;
  size_t consumed = 7;
  ASSERT_TRUE(
      AppendDirect(dir_ + "/log.jsonl", Pattern(kDirectAlign - 11, 5), &end, &consumed).ok());
  EXPECT_EQ(consumed, 0u);
  EXPECT_EQ(end, 10u);
  ASSERT_TRUE(
      AppendDirect(dir_ + "/no/such/dir/log.jsonl", Pattern(1 << 20, 6), &end, &consumed).ok());
  EXPECT_EQ(consumed, 0u);
  EXPECT_EQ(end, 10u);
}

}  // namespace
}  // namespace kaizen::store
