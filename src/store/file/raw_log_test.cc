// RawLog under injected failures (after leveldb's fault_injection_test): each test is named after
// the failure it checks and checks the specific error, and what is (not) left on disk.
#include "store/file/raw_log.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "base/test_files.h"
#include "store/file/fault_injection_file_system.h"
#include "store/log_format.h"

namespace kaizen::store {
namespace {

using base::test_files::ReadAll;

namespace fs = std::filesystem;

void WriteAll(const std::string& path, const std::string& data) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << data;
}

class RawLogTest : public ::testing::Test {
 protected:
  void SetUp() override {
    home_ = base::test_files::MakeTempDir("kaizen-rawlog");
    ASSERT_FALSE(home_.empty());
    log_ = std::make_unique<RawLog>(home_, &fault_fs_);
    auto lock = log_->Lock();
    ASSERT_TRUE(lock.ok()) << lock.status().ToString();
    lock_ = std::move(lock).value();
    ASSERT_TRUE(log_->EnsureLayout().ok());
  }
  void TearDown() override {
    lock_.reset();
    log_.reset();
    std::error_code ec;
    fs::remove_all(home_, ec);
  }

  std::string Raw(const std::string& day) const {
    return PathIn(home_, kRawDir) + "/" + day + ".jsonl";
  }
  std::string RawContents(const std::string& day) const { return ReadAll(Raw(day)); }
  uint64_t RawSize(const std::string& day) const {
    std::error_code ec;
    auto size = fs::file_size(Raw(day), ec);
    return ec ? 0 : size;  // a missing file holds nothing
  }

  std::string home_;
  FaultInjectionFileSystem fault_fs_;
  std::unique_ptr<RawLog> log_;
  std::unique_ptr<FileLock> lock_;
};

// ---- Append ---------------------------------------------------------------------------------

TEST_F(RawLogTest, AppendThenReadBack) {
  ASSERT_TRUE(log_->Append({{"2025-07-11", "{\"a\":1}\n{\"a\":2}\n"}}).ok());
  ASSERT_TRUE(log_->Append({{"2025-07-11", "{\"a\":3}\n"}}).ok());
  auto read = log_->ReadRaw("2025-07-11.jsonl", 0);
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_EQ(*read, "{\"a\":1}\n{\"a\":2}\n{\"a\":3}\n");
  auto from = log_->ReadRaw("2025-07-11.jsonl", 8);
  ASSERT_TRUE(from.ok());
  EXPECT_EQ(*from, "{\"a\":2}\n{\"a\":3}\n");
  auto files = log_->ListRawFiles();
  ASSERT_TRUE(files.ok());
  ASSERT_EQ(files->size(), 1u);
  EXPECT_EQ((*files)[0].first, "2025-07-11.jsonl");
  EXPECT_EQ((*files)[0].second, 24u);
}

TEST_F(RawLogTest, ListRawFilesIgnoresFilesThatAreNotDailyLogs) {
  ASSERT_TRUE(log_->Append({{"2025-07-11", "{}\n"}}).ok());
  WriteAll(PathIn(home_, kRawDir) + "/notes.txt", "x");
  WriteAll(PathIn(home_, kRawDir) + "/2025-07-11.jsonl.bak", "x");
  auto files = log_->ListRawFiles();
  ASSERT_TRUE(files.ok());
  ASSERT_EQ(files->size(), 1u);
  EXPECT_EQ((*files)[0].first, "2025-07-11.jsonl");
}

TEST_F(RawLogTest, GroupCommitAcrossTwoDaysWritesTwoFilesWithOneSyncEach) {
  uint64_t syncs = fault_fs_.sync_calls();
  uint64_t appends = fault_fs_.append_calls();
  ASSERT_TRUE(log_->Append({{"2025-07-11", "{\"d\":11}\n"}, {"2025-07-12", "{\"d\":12}\n"}}).ok());
  EXPECT_EQ(RawContents("2025-07-11"), "{\"d\":11}\n");
  EXPECT_EQ(RawContents("2025-07-12"), "{\"d\":12}\n");
  EXPECT_EQ(fault_fs_.append_calls() - appends, 2u);  // one write per file
  EXPECT_EQ(fault_fs_.sync_calls() - syncs, 2u);      // one fsync per file
  const uint64_t dir_syncs = fault_fs_.sync_dir_calls();
  EXPECT_GE(dir_syncs, 1u);  // new files: their directory is synced
  // Appending to existing files does not sync any directory again.
  ASSERT_TRUE(log_->Append({{"2025-07-11", "{}\n"}, {"2025-07-12", "{}\n"}}).ok());
  EXPECT_EQ(fault_fs_.sync_dir_calls(), dir_syncs);
}

// ---- fsync failure --------------------------------------------------------------------------

TEST_F(RawLogTest, FsyncFailureReturnsErrorTruncatesBatchAndPoisonsLog) {
  ASSERT_TRUE(log_->Append({{"2025-07-11", "{\"before\":1}\n"}}).ok());
  const std::string before = RawContents("2025-07-11");

  fault_fs_.FailSyncFrom(1);
  Status s = log_->Append({{"2025-07-11", "{\"batch\":1}\n"}, {"2025-07-12", "{\"batch\":2}\n"}});
  EXPECT_EQ(s.code(), StatusCode::kIoError) << s.ToString();
  EXPECT_NE(s.message().find("Input/output error"), std::string::npos) << s.message();
  // Nothing of the batch remains, in either file.
  EXPECT_EQ(RawContents("2025-07-11"), before);
  EXPECT_EQ(RawSize("2025-07-12"), 0u);

  // Poisoned: every later Append fails, even once the disk is healthy again, and writes nothing.
  fault_fs_.ClearFaults();
  uint64_t appends = fault_fs_.append_calls();
  for (int i = 0; i < 2; ++i) {
    Status again = log_->Append({{"2025-07-11", "{\"after\":1}\n"}});
    EXPECT_EQ(again.code(), StatusCode::kFailedPrecondition) << again.ToString();
    EXPECT_NE(again.message().find("Input/output error"), std::string::npos) << again.message();
  }
  EXPECT_EQ(fault_fs_.append_calls(), appends);
  EXPECT_EQ(RawContents("2025-07-11"), before);

  // The poison belongs to the writer that saw the failure: a fresh RawLog (a restart, after
  // `kaizen verify`) may write again.
  RawLog reopened(home_, &fault_fs_);
  ASSERT_TRUE(reopened.Append({{"2025-07-11", "{\"after\":1}\n"}}).ok());
  EXPECT_EQ(RawContents("2025-07-11"), before + "{\"after\":1}\n");
}

TEST_F(RawLogTest, FsyncFailureOnSecondFileAlsoUndoesTheFirstFileAlreadySynced) {
  ASSERT_TRUE(log_->Append({{"2025-07-11", "{\"a\":1}\n"}, {"2025-07-12", "{\"b\":1}\n"}}).ok());
  const std::string day1 = RawContents("2025-07-11");
  const std::string day2 = RawContents("2025-07-12");

  fault_fs_.FailSyncFrom(2);  // the first file's fsync succeeds, the second's fails
  Status s = log_->Append({{"2025-07-11", "{\"a\":2}\n"}, {"2025-07-12", "{\"b\":2}\n"}});
  EXPECT_EQ(s.code(), StatusCode::kIoError) << s.ToString();
  EXPECT_EQ(RawContents("2025-07-11"), day1);
  EXPECT_EQ(RawContents("2025-07-12"), day2);
  fault_fs_.ClearFaults();
  EXPECT_EQ(log_->Append({{"2025-07-13", "{}\n"}}).code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(RawSize("2025-07-13"), 0u);
}

TEST_F(RawLogTest, SyncDirFailureForNewFileReturnsErrorTruncatesAndPoisons) {
  fault_fs_.FailSyncDir(true);
  Status s = log_->Append({{"2025-07-11", "{\"new\":1}\n"}});
  EXPECT_EQ(s.code(), StatusCode::kIoError) << s.ToString();
  EXPECT_NE(s.message().find("Input/output error"), std::string::npos) << s.message();
  EXPECT_EQ(RawSize("2025-07-11"), 0u);
  fault_fs_.ClearFaults();
  EXPECT_EQ(log_->Append({{"2025-07-11", "{}\n"}}).code(), StatusCode::kFailedPrecondition);
}

// ---- full disk ------------------------------------------------------------------------------

TEST_F(RawLogTest, DiskFullShortWriteReturnsResourceExhaustedAndLeavesNothingHalfWritten) {
  ASSERT_TRUE(log_->Append({{"2025-07-11", "{\"before\":1}\n"}}).ok());
  const std::string before = RawContents("2025-07-11");

  // Room for the first file's data and 5 bytes of the second's.
  const std::string day1 = "{\"batch\":1}\n{\"batch\":2}\n";
  const std::string day2 = "{\"batch\":3}\n";
  fault_fs_.SetAppendBudget(day1.size() + 5);
  Status s = log_->Append({{"2025-07-11", day1}, {"2025-07-12", day2}});
  EXPECT_EQ(s.code(), StatusCode::kResourceExhausted) << s.ToString();
  EXPECT_NE(s.message().find("No space left on device"), std::string::npos) << s.message();
  EXPECT_EQ(fault_fs_.append_budget(), 0u);      // the short write really happened...
  EXPECT_EQ(RawContents("2025-07-11"), before);  // ...and was undone, as was the first file
  EXPECT_EQ(RawSize("2025-07-12"), 0u);

  // A full disk does not poison the log: once space is freed, the same batch goes through whole.
  fault_fs_.SetAppendBudget(std::nullopt);
  ASSERT_TRUE(log_->Append({{"2025-07-11", day1}, {"2025-07-12", day2}}).ok());
  EXPECT_EQ(RawContents("2025-07-11"), before + day1);
  EXPECT_EQ(RawContents("2025-07-12"), day2);
}

TEST_F(RawLogTest, DiskFullShortWriteInTheMiddleOfALineIsTruncatedBack) {
  const std::string line = "{\"a line that will not fit\":true}\n";
  fault_fs_.SetAppendBudget(line.size() / 2);
  Status s = log_->Append({{"2025-07-11", line}});
  EXPECT_EQ(s.code(), StatusCode::kResourceExhausted) << s.ToString();
  EXPECT_EQ(RawSize("2025-07-11"), 0u);
  fault_fs_.SetAppendBudget(line.size());
  ASSERT_TRUE(log_->Append({{"2025-07-11", line}}).ok());
  EXPECT_EQ(RawContents("2025-07-11"), line);
}

// ---- torn tails -----------------------------------------------------------------------------

TEST_F(RawLogTest, CutTornTailCutsLastLineWithoutNewlineAndSavesIt) {
  ASSERT_TRUE(log_->Append({{"2025-07-11", "{\"a\":1}\n{\"a\":2}\n"}}).ok());
  const std::string good = RawContents("2025-07-11");
  WriteAll(Raw("2025-07-11"), good + "{\"a\":3,\"tor");

  std::vector<RecoveryNote> notes;
  auto cut = log_->CutTornTail("2025-07-11.jsonl", &notes);
  ASSERT_TRUE(cut.ok()) << cut.status().ToString();
  EXPECT_TRUE(*cut);
  EXPECT_EQ(RawContents("2025-07-11"), good);
  const std::string saved =
      PathIn(home_, kRecoveredDir) + "/2025-07-11.jsonl." + std::to_string(good.size()) + ".torn";
  ASSERT_TRUE(fs::exists(saved)) << saved;
  EXPECT_EQ(ReadAll(saved), "{\"a\":3,\"tor");
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0].file, "feedback/raw/2025-07-11.jsonl");
  EXPECT_NE(notes[0].text.find("torn last line of 11 bytes"), std::string::npos) << notes[0].text;
  EXPECT_NE(notes[0].text.find("feedback/recovered/2025-07-11.jsonl." +
                               std::to_string(good.size()) + ".torn"),
            std::string::npos)
      << notes[0].text;
  // Appends after the cut start on a line boundary.
  ASSERT_TRUE(log_->Append({{"2025-07-11", "{\"a\":4}\n"}}).ok());
  EXPECT_EQ(RawContents("2025-07-11"), good + "{\"a\":4}\n");
}

TEST_F(RawLogTest, CutTornTailLeavesFileEndingInNewlineAlone) {
  ASSERT_TRUE(log_->Append({{"2025-07-11", "{\"a\":1}\n{\"a\":2}\n"}}).ok());
  const std::string good = RawContents("2025-07-11");
  std::vector<RecoveryNote> notes;
  auto cut = log_->CutTornTail("2025-07-11.jsonl", &notes);
  ASSERT_TRUE(cut.ok()) << cut.status().ToString();
  EXPECT_FALSE(*cut);
  EXPECT_TRUE(notes.empty());
  EXPECT_EQ(RawContents("2025-07-11"), good);
  EXPECT_FALSE(fs::exists(PathIn(home_, kRecoveredDir)));
}

TEST_F(RawLogTest, CutTornTailLeavesEmptyFileAlone) {
  WriteAll(Raw("2025-07-11"), "");
  std::vector<RecoveryNote> notes;
  auto cut = log_->CutTornTail("2025-07-11.jsonl", &notes);
  ASSERT_TRUE(cut.ok()) << cut.status().ToString();
  EXPECT_FALSE(*cut);
  EXPECT_TRUE(notes.empty());
}

TEST_F(RawLogTest, CutTornTailOfFileThatIsOneTornLineEmptiesIt) {
  WriteAll(Raw("2025-07-11"), "{\"only\":\"torn");
  std::vector<RecoveryNote> notes;
  auto cut = log_->CutTornTail("2025-07-11.jsonl", &notes);
  ASSERT_TRUE(cut.ok()) << cut.status().ToString();
  EXPECT_TRUE(*cut);
  EXPECT_EQ(RawSize("2025-07-11"), 0u);
  EXPECT_TRUE(fs::exists(Raw("2025-07-11")));
  EXPECT_EQ(ReadAll(PathIn(home_, kRecoveredDir) + "/2025-07-11.jsonl.0.torn"), "{\"only\":\"torn");
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].text.find("at byte 0"), std::string::npos) << notes[0].text;
}

TEST_F(RawLogTest, CutTornTailOfFileThatIsOneLongTornLineWithNoNewlineAtAll) {
  const std::string torn(50000, 'x');  // several read windows, reaching the file start
  WriteAll(Raw("2025-07-11"), torn);
  std::vector<RecoveryNote> notes;
  auto cut = log_->CutTornTail("2025-07-11.jsonl", &notes);
  ASSERT_TRUE(cut.ok()) << cut.status().ToString();
  EXPECT_TRUE(*cut);
  EXPECT_EQ(RawSize("2025-07-11"), 0u);
  EXPECT_EQ(ReadAll(PathIn(home_, kRecoveredDir) + "/2025-07-11.jsonl.0.torn"), torn);
}

TEST_F(RawLogTest, CutTornTailLongerThanTheFirstReadWindow) {
  for (size_t torn_size : {size_t{4096}, size_t{4097}, size_t{10000}, size_t{100000}}) {
    SCOPED_TRACE(torn_size);
    const std::string good = "{\"a\":1}\n{\"a\":2}\n";
    const std::string torn = "{\"big\":\"" + std::string(torn_size - 8, 'y');
    ASSERT_EQ(torn.size(), torn_size);
    WriteAll(Raw("2025-07-11"), good + torn);
    std::vector<RecoveryNote> notes;
    auto cut = log_->CutTornTail("2025-07-11.jsonl", &notes);
    ASSERT_TRUE(cut.ok()) << cut.status().ToString();
    EXPECT_TRUE(*cut);
    EXPECT_EQ(RawContents("2025-07-11"), good);
    EXPECT_EQ(ReadAll(PathIn(home_, kRecoveredDir) + "/2025-07-11.jsonl." +
                      std::to_string(good.size()) + ".torn"),
              torn);
    ASSERT_EQ(notes.size(), 1u);
    EXPECT_NE(notes[0].text.find("of " + std::to_string(torn_size) + " bytes"), std::string::npos)
        << notes[0].text;
  }
}

TEST_F(RawLogTest, CutTornTailKeepsLongCompleteLinesBeforeTheTear) {
  // The last '\n' lies more than one read window before the end of the file.
  const std::string good = "{\"long\":\"" + std::string(20000, 'z') + "\"}\n";
  const std::string torn = std::string(5000, 'q');
  WriteAll(Raw("2025-07-11"), good + torn);
  std::vector<RecoveryNote> notes;
  auto cut = log_->CutTornTail("2025-07-11.jsonl", &notes);
  ASSERT_TRUE(cut.ok()) << cut.status().ToString();
  EXPECT_TRUE(*cut);
  EXPECT_EQ(RawContents("2025-07-11"), good);
}

// ---- ForEachLine ----------------------------------------------------------------------------

std::vector<std::pair<std::string, uint64_t>> Lines(std::string_view data, uint64_t first) {
  std::vector<std::pair<std::string, uint64_t>> out;
  ForEachLine(data, first,
              [&](std::string_view line, uint64_t n) { out.emplace_back(std::string(line), n); });
  return out;
}

TEST(RawLogForEachLine, SkipsIncompleteLastLine) {
  using V = std::vector<std::pair<std::string, uint64_t>>;
  EXPECT_EQ(Lines("a\nb\nc", 1), (V{{"a", 1}, {"b", 2}}));
  EXPECT_EQ(Lines("a\nb\n", 1), (V{{"a", 1}, {"b", 2}}));
  EXPECT_EQ(Lines("torn", 1), V{});
  EXPECT_EQ(Lines("", 1), V{});
}

TEST(RawLogForEachLine, NumbersLinesFromTheGivenFirstLineAndKeepsEmptyLines) {
  using V = std::vector<std::pair<std::string, uint64_t>>;
  EXPECT_EQ(Lines("x\n\ny\n", 41), (V{{"x", 41}, {"", 42}, {"y", 43}}));
  EXPECT_EQ(Lines("a\r\n", 1), (V{{"a\r", 1}}));  // '\r' is not removed (see raw_log.h)
}

// ---- the fault injector itself --------------------------------------------------------------

// The fault injector itself, on a raw file (reusing the RawLog fixture's temporary home).
using FaultInjectionFileSystemTest = RawLogTest;

TEST_F(FaultInjectionFileSystemTest, FailsFromTheNthSyncAndShortWritesOnceTheBudgetIsSpent) {
  auto file = fault_fs_.OpenAppendable(Raw("2025-07-11"));
  ASSERT_TRUE(file.ok());
  fault_fs_.FailSyncFrom(3);
  EXPECT_TRUE((*file)->Sync().ok());
  EXPECT_TRUE((*file)->Sync().ok());
  EXPECT_EQ((*file)->Sync().code(), StatusCode::kIoError);
  EXPECT_EQ((*file)->Sync().code(), StatusCode::kIoError);
  EXPECT_EQ(fault_fs_.sync_calls(), 4u);
  fault_fs_.ClearFaults();
  EXPECT_TRUE((*file)->Sync().ok());

  fault_fs_.SetAppendBudget(3);
  Status s = (*file)->Append("hello");
  EXPECT_EQ(s.code(), StatusCode::kResourceExhausted);
  EXPECT_EQ((*file)->Size(), 3u);
  EXPECT_EQ(RawContents("2025-07-11"), "hel");
  EXPECT_EQ((*file)->Append("x").code(), StatusCode::kResourceExhausted);
  EXPECT_EQ((*file)->Size(), 3u);
  EXPECT_TRUE((*file)->Truncate(0).ok());
  EXPECT_EQ(fault_fs_.truncate_calls(), 1u);
  EXPECT_EQ(fault_fs_.append_calls(), 2u);
}

}  // namespace
}  // namespace kaizen::store
