// Rewriting and archiving day files: atomic replacement, the cold archive as seen by readers, and
// a move interrupted after the cold write completing without duplicates.
#include "store/file/log_rewrite.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>

#include "base/test_files.h"
#include "store/log_format.h"

namespace kaizen::store {
namespace {

using base::test_files::ReadAll;

namespace fs = std::filesystem;

class LogRewriteTest : public ::testing::Test {
 protected:
  void SetUp() override {
    home_ = base::test_files::MakeTempDir("kaizen-rewrite");
    ASSERT_FALSE(home_.empty());
    log_ = std::make_unique<RawLog>(home_, DefaultFileSystem());
    auto lock = log_->Lock();
    ASSERT_TRUE(lock.ok());
    lock_ = std::move(lock).value();
    ASSERT_TRUE(log_->EnsureLayout().ok());
  }
  void TearDown() override {
    lock_.reset();
    fs::remove_all(home_);
  }
  void Append(const std::string& day, const std::string& lines) {
    ASSERT_TRUE(log_->Append({{day, lines}}).ok());
  }
  std::string home_;
  std::unique_ptr<RawLog> log_;
  std::unique_ptr<FileLock> lock_;
};

TEST_F(LogRewriteTest, RewriteReplacesTheFileAndEmptyContentRemovesIt) {
  Append("2025-01-01", "{\"a\":1}\n{\"b\":2}\n");
  ASSERT_TRUE(RewriteDayFile(*log_, "2025-01-01.jsonl", "{\"a\":1}\n").ok());
  EXPECT_EQ(ReadAll(home_ + "/feedback/raw/2025-01-01.jsonl"), "{\"a\":1}\n");
  EXPECT_FALSE(RewriteDayFile(*log_, "2025-01-01.jsonl", "{\"torn\"").ok());
  EXPECT_FALSE(RewriteDayFile(*log_, "../etc.jsonl", "x\n").ok());
  ASSERT_TRUE(RewriteDayFile(*log_, "2025-01-01.jsonl", "").ok());
  EXPECT_FALSE(fs::exists(home_ + "/feedback/raw/2025-01-01.jsonl"));
}

TEST_F(LogRewriteTest, ColdFilesAreListedBeforeTheirDaysHotFileAndReadThroughTheLog) {
  Append("2025-01-01", "{\"old\":1}\n");
  Append("2025-01-02", "{\"newer\":1}\n");
  ASSERT_TRUE(MoveDayFileToCold(*log_, "2025-01-01.jsonl", "{\"old\":1}\n").ok());
  EXPECT_FALSE(fs::exists(home_ + "/feedback/raw/2025-01-01.jsonl"));
  EXPECT_EQ(ReadAll(home_ + "/feedback/cold/2025-01-01.jsonl"), "{\"old\":1}\n");
  Append("2025-01-01", "{\"late\":1}\n");  // an old event imported after the move
  auto files = log_->ListRawFiles();
  ASSERT_TRUE(files.ok());
  ASSERT_EQ(files->size(), 3u);
  EXPECT_EQ((*files)[0].first, "2025-01-01.cold.jsonl");
  EXPECT_EQ((*files)[1].first, "2025-01-01.jsonl");
  EXPECT_EQ((*files)[2].first, "2025-01-02.jsonl");
  auto cold = log_->ReadRaw("2025-01-01.cold.jsonl", 0);
  ASSERT_TRUE(cold.ok());
  EXPECT_EQ(*cold, "{\"old\":1}\n");
  // The next move merges the late line into the cold file.
  ASSERT_TRUE(MoveDayFileToCold(*log_, "2025-01-01.jsonl", "{\"late\":1}\n").ok());
  EXPECT_EQ(ReadAll(home_ + "/feedback/cold/2025-01-01.jsonl"), "{\"old\":1}\n{\"late\":1}\n");
}

TEST_F(LogRewriteTest, AMoveInterruptedAfterTheColdWriteCompletesWithoutDuplicates) {
  Append("2025-01-01", "{\"a\":1}\n{\"b\":2}\n");
  // The state a crash between the cold write and the hot removal leaves: both files.
  fs::create_directories(home_ + "/feedback/cold");
  std::ofstream(home_ + "/feedback/cold/2025-01-01.jsonl") << "{\"a\":1}\n{\"b\":2}\n";
  ASSERT_TRUE(MoveDayFileToCold(*log_, "2025-01-01.jsonl", "{\"a\":1}\n{\"b\":2}\n").ok());
  EXPECT_EQ(ReadAll(home_ + "/feedback/cold/2025-01-01.jsonl"), "{\"a\":1}\n{\"b\":2}\n");
  EXPECT_FALSE(fs::exists(home_ + "/feedback/raw/2025-01-01.jsonl"));
}

}  // namespace
}  // namespace kaizen::store
