// ReadLogViews cuts the log into slices at line starts and folds them in order on several
// threads. Whatever the slice size (here down to 7 bytes, so that slices start inside lines,
// right after newlines and deep inside a long line), every event is folded once, in log order,
// one at a time, and every bad line is reported with its place in its file.
#include "home/log_views.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "base/test_files.h"
#include "store/copy_progress.h"
#include "store/file/fault_injection_file_system.h"
#include "store/file/raw_log.h"
#include "store/file_system.h"
#include "store/log_format.h"

namespace kaizen::home {
namespace {

std::string Outcome(int day, int n, size_t description_bytes) {
  return "{\"kind\":\"outcome\",\"id\":\"0198" + std::to_string(1000000 + n) +
         "\",\"timestamp\":\"2025-07-0" + std::to_string(day) + "T10:00:00.000Z\",\"bead_id\":\"b" +
         std::to_string(n) + "\",\"duration_ms\":5,\"error_count\":0,\"retry_count\":0," +
         "\"success\":true,\"files_touched\":[],\"strategy\":\"s\",\"description\":\"" +
         std::string(description_bytes, 'x') + "\"}";
}

struct Folded {
  std::vector<std::string> beads;  // in the order folded
  std::vector<std::tuple<std::string, uint64_t, std::string>> bad;
  uint64_t events = 0, bytes = 0, unreadable = 0;
  std::vector<std::pair<std::string, uint64_t>> files;

  bool operator==(const Folded&) const = default;
};

class LogViewsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    home_ = base::test_files::MakeTempDir("kaizen-log-views");
    ASSERT_FALSE(home_.empty());
    std::filesystem::create_directories(home_ + "/" + std::string(store::kRawDir));
  }
  void TearDown() override {
    std::error_code ec;
    std::filesystem::remove_all(home_, ec);
  }

  void Write(const std::string& name, const std::string& text) {
    std::ofstream(home_ + "/" + std::string(store::kRawDir) + "/" + name, std::ios::binary) << text;
  }

  // The log read in slices of `slice_bytes`; *status, when given, gets what ReadLogViews
  // returned (else it must be OK).
  Folded Read(uint64_t slice_bytes, store::FileSystem* fs = store::DefaultFileSystem(),
              Status* status = nullptr, size_t threads = 0) {
    store::RawLog log(home_, fs);
    Folded out;
    LogScan scan;
    std::atomic<int> folding{0};
    Status s = ReadLogViews(
        log,
        [&](learn::EventViews& e) {
          // One fold at a time, whichever thread runs it.
          EXPECT_EQ(folding.fetch_add(1), 0);
          EXPECT_EQ(e.kind, model::EventKind::kOutcome);
          out.beads.emplace_back(e.outcome.bead_id);
          folding.fetch_sub(1);
        },
        &scan, nullptr, {}, slice_bytes, threads);
    if (status != nullptr) {
      *status = s;
    } else {
      EXPECT_TRUE(s.ok()) << s.ToString();
    }
    for (const BadLine& b : scan.first_unreadable) out.bad.emplace_back(b.file, b.line, b.why);
    out.events = scan.events;
    out.bytes = scan.bytes;
    out.unreadable = scan.unreadable;
    out.files = scan.files;
    return out;
  }

  std::string home_;
};

TEST_F(LogViewsTest, AnySliceSizeFoldsEveryEventOnceInLogOrderAndPlacesEveryBadLine) {
  // Day 1: short and long lines, blank lines, a malformed line and a line with two values.
  std::string day1;
  std::vector<std::string> beads;
  int n = 0;
  for (int i = 0; i < 40; ++i) {
    // Lengths from 200 bytes to 5 KB: a slice of a few hundred bytes starts inside most lines.
    day1 += Outcome(1, n, static_cast<size_t>((i * 397) % 5000)) + "\n";
    beads.push_back("b" + std::to_string(n++));
    if (i == 7) day1 += "\n\n";                                 // lines 9 and 10
    if (i == 20) day1 += "not json\n";                          // line 24
    if (i == 30) day1 += Outcome(1, 999, 10) + " {\"a\":1}\n";  // line 35: read, and reported
    if (i == 30) beads.push_back("b999");
  }
  Write("2025-07-01.jsonl", day1);
  // Day 2: a line longer than many slices, a line that is not an event, and a torn last line
  // (no newline: not an event, and not reported).
  std::string day2 = Outcome(2, n, 20000) + "\n[]\n" + Outcome(2, n + 1, 3) + "\n";
  beads.push_back("b" + std::to_string(n));
  beads.push_back("b" + std::to_string(n + 1));
  day2 += "{\"broken";
  Write("2025-07-02.jsonl", day2);

  const Folded whole = Read(kLogSliceBytes);
  EXPECT_EQ(whole.beads, beads);
  EXPECT_EQ(whole.events, beads.size());
  EXPECT_EQ(whole.unreadable, 3u);
  using Bad = std::tuple<std::string, uint64_t, std::string>;
  EXPECT_EQ(whole.bad,
            (std::vector<Bad>{{"feedback/raw/2025-07-01.jsonl", 24,
                               "not a stored event (malformed JSON, or no kind/timestamp)"},
                              {"feedback/raw/2025-07-01.jsonl", 35,
                               "more than one JSON value on the line (the first was read)"},
                              {"feedback/raw/2025-07-02.jsonl", 2,
                               "not a stored event (malformed JSON, or no kind/timestamp)"}}));
  const uint64_t day2_read = day2.size() - std::string("{\"broken").size();
  EXPECT_EQ(whole.files, (std::vector<std::pair<std::string, uint64_t>>{
                             {"2025-07-01.jsonl", day1.size()}, {"2025-07-02.jsonl", day2_read}}));
  EXPECT_EQ(whole.bytes, day1.size() + day2_read);

  // One reader, and more readers than this machine has cores, in turn with the slices.
  for (size_t threads : {1, 2, 4, 8}) {
    for (uint64_t slice : {7, 64, 300, 1000, 4096, 65536}) {
      EXPECT_EQ(Read(slice, store::DefaultFileSystem(), nullptr, threads), whole)
          << "slices of " << slice << " bytes, " << threads << " threads";
    }
  }
}

TEST_F(LogViewsTest, AFileThatCannotBeReadStopsTheReadingWithItsErrorAfterTheFilesBeforeIt) {
  std::string text;
  for (int day = 1; day <= 3; ++day) {
    text.clear();
    for (int i = 0; i < 30; ++i) text += Outcome(day, day * 100 + i, 300) + "\n";
    Write("2025-07-0" + std::to_string(day) + ".jsonl", text);
  }
  store::FaultInjectionFileSystem fs;
  fs.FailReadsOf(home_ + "/" + std::string(store::kRawDir) + "/2025-07-02.jsonl");
  for (size_t threads : {1, 4}) {
    for (uint64_t slice : {uint64_t{7}, uint64_t{1000}, kLogSliceBytes}) {
      SCOPED_TRACE(std::to_string(threads) + " threads");
      Status status;
      const Folded f = Read(slice, &fs, &status, threads);
      EXPECT_EQ(status.code(), StatusCode::kIoError) << slice;
      EXPECT_NE(status.message().find("2025-07-02.jsonl"), std::string::npos) << status.ToString();
      ASSERT_EQ(f.beads.size(), 30u) << slice;  // the first day's, and nothing after the failure
      EXPECT_EQ(f.beads.front(), "b100");
      EXPECT_EQ(f.beads.back(), "b129");
      EXPECT_EQ(f.files.size(), 1u);
      EXPECT_EQ(f.files[0].first, "2025-07-01.jsonl");
    }
  }
}

TEST_F(LogViewsTest, AnEmptyLogAndEmptyFilesFoldNothing) {
  EXPECT_EQ(Read(kLogSliceBytes), Folded{});
  Write("2025-07-01.jsonl", "");
  Write("2025-07-02.jsonl", "\n\n");
  for (uint64_t slice : {uint64_t{1}, uint64_t{5}, kLogSliceBytes}) {
    const Folded f = Read(slice);
    EXPECT_TRUE(f.beads.empty());
    EXPECT_EQ(f.unreadable, 0u);
    EXPECT_EQ(f.bytes, 2u) << slice;
  }
}

// A first copy of a store streaming into a new home (ingest::BackgroundSync): days in order, each
// written in pieces, each piece announced once written. `days` holds each day's pieces.
struct Copier {
  std::string home;
  std::vector<std::pair<std::string, std::vector<std::string>>> days;  // file, its pieces
  Status ends_with;
  size_t fail_after = SIZE_MAX;  // pieces written before the copy fails with ends_with

  // The copy's work, as CopyProgress::Start runs it: its status ends the copy.
  Status Run(store::CopyProgress* progress) {
    progress->SetWhole(true);
    size_t written = 0;
    for (const auto& [file, pieces] : days) {
      std::ofstream out(home + "/" + std::string(store::kRawDir) + "/" + file, std::ios::binary);
      uint64_t at = 0, lines = 0;
      for (const std::string& piece : pieces) {
        if (written++ == fail_after) return ends_with;
        out << piece << std::flush;
        // The reader is ahead now and then: it waits for the next piece.
        std::this_thread::sleep_for(std::chrono::milliseconds(written % 3));
        // Every other piece comes with its bytes (as the copy hands them over while it holds
        // few); the others are read back from the file.
        std::string bytes;
        if (written % 2 == 0) {
          bytes.reserve(piece.size() + store::kPieceSlack);
          bytes.assign(piece);
        }
        progress->Add({file, at, at + piece.size(), lines, std::move(bytes)});
        at += piece.size();
        lines += static_cast<uint64_t>(std::count(piece.begin(), piece.end(), '\n'));
      }
    }
    return Status::Ok();
  }
};

TEST_F(LogViewsTest, FollowingAStreamingCopyFoldsWhatReadingItsFilesAfterwardsFolds) {
  Copier copier{home_};
  int n = 0;
  for (int day = 1; day <= 3; ++day) {
    std::vector<std::string> pieces;
    for (int p = 0; p < 4; ++p) {
      std::string piece;
      for (int i = 0; i < 5 + p; ++i)
        piece += Outcome(day, n++, static_cast<size_t>(i * 97)) + "\n";
      if (day == 2 && p == 2) piece += "not json\n";  // its line number counts the pieces before
      pieces.push_back(piece);
    }
    copier.days.push_back({"2025-07-0" + std::to_string(day) + ".jsonl", pieces});
  }
  for (size_t threads : {1, 2, 4}) {
    for (uint64_t slice : {uint64_t{100}, kLogSliceBytes}) {
      SCOPED_TRACE(std::to_string(threads) + " threads, slices of " + std::to_string(slice));
      std::filesystem::remove_all(home_ + "/" + std::string(store::kRawDir));
      std::filesystem::create_directories(home_ + "/" + std::string(store::kRawDir));
      auto progress = std::make_shared<store::CopyProgress>();
      store::SetCopyInProgress(home_, progress);
      progress->Start([&] { return copier.Run(progress.get()); });
      const Folded followed = Read(slice, store::DefaultFileSystem(), nullptr, threads);
      store::SetCopyInProgress(home_, nullptr);
      const Folded afterwards = Read(slice, store::DefaultFileSystem(), nullptr, threads);
      EXPECT_EQ(followed, afterwards);
      EXPECT_EQ(followed.beads.size(), static_cast<size_t>(n));
      ASSERT_EQ(followed.bad.size(), 1u);
      EXPECT_EQ(std::get<1>(followed.bad[0]), 5u + 6u + 7u + 1u);  // day 2, third piece's end
      EXPECT_EQ(followed.files.size(), 3u);  // a file read in pieces is one file of the scan
    }
  }
}

TEST_F(LogViewsTest, ACopyThatFailsEndsTheFollowingReadWithTheCopysError) {
  Copier copier{home_};
  copier.days.push_back({"2025-07-01.jsonl", {Outcome(1, 1, 10) + "\n", Outcome(1, 2, 10) + "\n"}});
  copier.days.push_back({"2025-07-02.jsonl", {Outcome(2, 3, 10) + "\n"}});
  copier.fail_after = 2;
  copier.ends_with = Unavailable("the store postgresql://kaizen@db/kaizen went away");
  auto progress = std::make_shared<store::CopyProgress>();
  store::SetCopyInProgress(home_, progress);
  progress->Start([&] { return copier.Run(progress.get()); });
  Status status;
  Read(kLogSliceBytes, store::DefaultFileSystem(), &status);
  store::SetCopyInProgress(home_, nullptr);
  EXPECT_EQ(status.code(), StatusCode::kUnavailable) << status.ToString();
  EXPECT_NE(status.message().find("went away"), std::string::npos);
}

TEST_F(LogViewsTest, ACopyOntoAnEarlierCopyIsWaitedForThenTheFilesAreRead) {
  Write("2025-07-01.jsonl", Outcome(1, 1, 10) + "\n");
  auto progress = std::make_shared<store::CopyProgress>();
  store::SetCopyInProgress(home_, progress);
  progress->Start([&] {
    progress->SetWhole(false);  // rows appended to the copy made earlier
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    std::ofstream(home_ + "/" + std::string(store::kRawDir) + "/2025-07-01.jsonl",
                  std::ios::app | std::ios::binary)
        << Outcome(1, 2, 10) << "\n";
    return Status::Ok();
  });
  const Folded f = Read(kLogSliceBytes);
  store::SetCopyInProgress(home_, nullptr);
  EXPECT_EQ(f.beads, (std::vector<std::string>{"b1", "b2"}));  // the appended row included
}

}  // namespace
}  // namespace kaizen::home
