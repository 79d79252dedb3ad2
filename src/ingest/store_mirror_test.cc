// A home's first copy of a shared store, on a thread of its own (BackgroundSync), against the
// real PostgreSQL server $KAIZEN_TEST_PG names: the pieces it announces are the day files'
// bytes, in log order, and the home ends as the store's copy.
#include "ingest/store_mirror.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "base/test_files.h"
#include "store/copy_progress.h"
#include "store/file/raw_log.h"
#include "store/log_format.h"
#include "store/pg/pg_test_database.h"

namespace kaizen::ingest {
namespace {

std::string Line(int n, int day) {
  char id[40];
  std::snprintf(id, sizeof id, "019c0000-0000-7000-8000-%012d", n);
  return "{\"kind\":\"outcome\",\"id\":\"" + std::string(id) + "\",\"timestamp\":\"2026-03-0" +
         std::to_string(day) + "T10:00:00.000Z\",\"note\":\"row " + std::to_string(n) + "\"}";
}

std::string Day(int day) { return "2026-03-0" + std::to_string(day); }

class BackgroundSyncTest : public store::PgTestDatabase {
 protected:
  void SetUp() override {
    store::PgTestDatabase::SetUp();
    if (IsSkipped()) return;
    home_ = base::test_files::MakeTempDir("kaizen-background-sync");
    ASSERT_FALSE(home_.empty());
  }
  void TearDown() override {
    std::error_code ec;
    if (!home_.empty()) std::filesystem::remove_all(home_, ec);
    store::PgTestDatabase::TearDown();
  }

  // Stores rows n..n+count-1 of `day` in one batch.
  void Store(store::PgLog& pg, int day, int n, int count) {
    std::string lines;
    for (int i = n; i < n + count; ++i) lines += Line(i, day) + "\n";
    ASSERT_TRUE(pg.Insert({{Day(day), lines}}).ok());
  }

  std::string File(int day) {
    std::ifstream in(home_ + "/" + std::string(store::kRawDir) + "/" + Day(day) + ".jsonl",
                     std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }

  std::string home_;
};

TEST_F(BackgroundSyncTest, AFirstCopyAnnouncesEveryDayFileInPiecesInLogOrderAndBecomesTheCopy) {
  auto pg = Open();
  ASSERT_NE(pg, nullptr);
  // Written out of day order, a day in two batches: the copy streams day by day, each day's rows
  // in the order they were written. 45,000 rows: more than one page of the copy.
  Store(*pg, 3, 0, 20000);
  Store(*pg, 1, 20000, 5);
  Store(*pg, 3, 20005, 20000);
  Store(*pg, 2, 40005, 4995);

  BackgroundSync sync(home_, conninfo_);
  std::shared_ptr<store::CopyProgress> progress = store::CopyInProgress(home_);
  ASSERT_NE(progress, nullptr);
  EXPECT_TRUE(progress->Whole());
  std::vector<store::CopiedPiece> pieces;
  while (auto piece = progress->Piece(pieces.size())) pieces.push_back(std::move(*piece));
  ASSERT_TRUE(sync.Join().ok());
  EXPECT_EQ(store::CopyInProgress(home_), nullptr);

  std::map<std::string, uint64_t> bytes, lines;
  std::vector<std::string> order;
  size_t handed_over = 0;
  for (const store::CopiedPiece& p : pieces) {
    if (order.empty() || order.back() != p.file) order.push_back(p.file);
    EXPECT_EQ(p.start, bytes[p.file]) << p.file;  // each piece goes on where the last ended
    EXPECT_EQ(p.lines_before, lines[p.file]) << p.file;
    const std::string text = File(std::stoi(p.file.substr(8, 2)));
    const std::string piece = text.substr(p.start, p.end - p.start);
    EXPECT_EQ(piece.back(), '\n');  // whole lines
    if (!p.bytes.empty()) {
      EXPECT_EQ(p.bytes, piece);  // handed over: the bytes written
      EXPECT_GE(p.bytes.capacity(), p.bytes.size() + store::kPieceSlack);
    }
    handed_over += !p.bytes.empty();
    bytes[p.file] = p.end;
    lines[p.file] += static_cast<uint64_t>(std::count(piece.begin(), piece.end(), '\n'));
  }
  EXPECT_EQ(order,
            (std::vector<std::string>{Day(1) + ".jsonl", Day(2) + ".jsonl", Day(3) + ".jsonl"}));
  EXPECT_GT(pieces.size(), 3u);           // the third day came in more than one page
  EXPECT_EQ(handed_over, pieces.size());  // ~35 MB: under what a copy holds for its reader
  std::string day3;
  for (int i = 0; i < 20000; ++i) day3 += Line(i, 3) + "\n";
  for (int i = 20005; i < 40005; ++i) day3 += Line(i, 3) + "\n";
  EXPECT_EQ(File(3), day3);
  EXPECT_EQ(bytes[Day(3) + ".jsonl"], day3.size());
  EXPECT_EQ(lines[Day(2) + ".jsonl"], 4995u);

  auto state = store::ReadMirrorState(home_, store::DefaultFileSystem());
  ASSERT_TRUE(state.ok() && state->has_value());
  EXPECT_EQ((*state)->store_id, pg->store_id());
  EXPECT_NE((*state)->frontier, "0");
}

TEST_F(BackgroundSyncTest, ACopyOntoAnEarlierCopyIsNotWholeAndAppendsOnlyTheNewRows) {
  auto pg = Open();
  ASSERT_NE(pg, nullptr);
  Store(*pg, 1, 0, 10);
  ASSERT_TRUE(BackgroundSync(home_, conninfo_).Join().ok());
  Store(*pg, 1, 10, 3);
  BackgroundSync again(home_, conninfo_);
  std::shared_ptr<store::CopyProgress> progress = store::CopyInProgress(home_);
  ASSERT_NE(progress, nullptr);
  EXPECT_FALSE(progress->Whole());
  EXPECT_EQ(progress->Piece(0), std::nullopt);  // a reader reads the files once it ended
  ASSERT_TRUE(again.Join().ok());
  std::string day1;
  for (int i = 0; i < 13; ++i) day1 += Line(i, 1) + "\n";
  EXPECT_EQ(File(1), day1);
}

TEST_F(BackgroundSyncTest, AStoreThatCannotBeReachedEndsTheCopyWithUnavailable) {
  BackgroundSync sync(home_, "postgresql://kaizen@127.0.0.1:1/kaizen?connect_timeout=2");
  std::shared_ptr<store::CopyProgress> progress = store::CopyInProgress(home_);
  ASSERT_NE(progress, nullptr);
  EXPECT_FALSE(progress->Whole());
  const Status s = sync.Join();
  EXPECT_EQ(s.code(), StatusCode::kUnavailable) << s.ToString();
}

}  // namespace
}  // namespace kaizen::ingest
