#include "serve/live_state.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <simdjson.h>

#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <set>
#include <thread>

#include "base/test_files.h"
#include "model/timestamp.h"
#include "store/file_system.h"

namespace kaizen::serve {
namespace {

// 2025-03-10T12:00:00Z and the days around it.
constexpr int64_t kNow = 1741608000000;
constexpr int64_t kDay = 86400000;

std::string Outcome(const std::string& bead, int64_t at_ms, bool success = true) {
  return fmt::format(R"({{"kind":"outcome","timestamp":"{}","bead_id":"{}","duration_ms":1000,)"
                     R"("error_count":0,"retry_count":0,"success":{}}})",
                     model::FormatUtc(at_ms), bead, success ? "true" : "false");
}

class LiveStateTest : public ::testing::Test {
 protected:
  void SetUp() override {
    home_ = base::test_files::MakeTempDir("kaizen-live");
    ASSERT_FALSE(home_.empty());
  }
  void TearDown() override { std::filesystem::remove_all(home_); }

  std::unique_ptr<LiveState> Open(int64_t poll_ms = 0) {
    LiveOptions o;
    o.home = home_;
    o.fixed_now_ms = kNow;
    o.poll_ms = poll_ms;
    auto opened = LiveState::Open(o);
    EXPECT_TRUE(opened.ok()) << opened.status().message();
    return opened.ok() ? std::move(opened).value() : nullptr;
  }

  uint64_t Folded(LiveState& s) {
    uint64_t n = 0;
    s.Read([&](const learn::Learner& l, int64_t now) {
      EXPECT_EQ(now, kNow);
      n = l.events();
    });
    return n;
  }

  // Another process recording: its own Ingestor on the same home.
  void AppendElsewhere(const std::string& jsonl) {
    ingest::Ingestor other(home_, store::DefaultFileSystem());
    simdjson::padded_string line(jsonl);
    ingest::IngestOptions o;
    o.now_ms = kNow;
    ingest::IngestSummary sum;
    ASSERT_TRUE(other.Ingest(line, o, &sum).ok());
    ASSERT_EQ(sum.stored, 1u);
  }

  // Waits up to 10 s for the fold to reach `want` events; returns the last count seen.
  uint64_t WaitFolded(LiveState& s, uint64_t want) {
    uint64_t n = Folded(s);
    for (int i = 0; i < 1000 && n != want; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
      n = Folded(s);
    }
    return n;
  }

  std::string home_;
};

TEST_F(LiveStateTest, SubmittedEventIsDurableAndFoldedBeforeSubmitReturns) {
  auto s = Open();
  ASSERT_TRUE(s);
  SubmitResult r;
  ASSERT_TRUE(s->Submit(Outcome("bd-1", kNow - 1000), std::nullopt, &r).ok());
  ASSERT_EQ(r.lines.size(), 1u);
  EXPECT_TRUE(r.lines[0].stored);
  EXPECT_FALSE(r.lines[0].id.empty());
  EXPECT_EQ(r.summary.stored, 1u);
  EXPECT_EQ(Folded(*s), 1u);
  // A second process opening the home sees it: it is in the log, not only in memory.
  auto again = Open();
  EXPECT_EQ(Folded(*again), 1u);
}

TEST_F(LiveStateTest, RefusedLineNamesFieldAndIsNotFolded) {
  auto s = Open();
  SubmitResult r;
  std::string bad = R"({"kind":"outcome","bead_id":"bd-1","duration_ms":-5,"error_count":0,)"
                    R"("retry_count":0,"success":true})";
  ASSERT_TRUE(s->Submit(bad + "\n" + Outcome("bd-2", kNow), std::nullopt, &r).ok());
  ASSERT_EQ(r.lines.size(), 2u);
  EXPECT_FALSE(r.lines[0].stored);
  EXPECT_EQ(r.lines[0].line_number, 1u);
  ASSERT_FALSE(r.lines[0].errors.empty());
  EXPECT_EQ(r.lines[0].errors[0].path, "duration_ms");
  EXPECT_TRUE(r.lines[1].stored);
  EXPECT_EQ(r.lines[1].line_number, 2u);
  EXPECT_EQ(r.summary.rejected, 1u);
  EXPECT_EQ(Folded(*s), 1u);
}

TEST_F(LiveStateTest, ExpectedKindAppliesWithoutKindField) {
  auto s = Open();
  SubmitResult r;
  std::string no_kind = R"({"bead_id":"bd-1","duration_ms":5,"error_count":0,)"
                        R"("retry_count":0,"success":true})";
  ASSERT_TRUE(s->Submit(no_kind, model::EventKind::kOutcome, &r).ok());
  ASSERT_EQ(r.lines.size(), 1u);
  EXPECT_TRUE(r.lines[0].stored) << (r.lines[0].errors.empty() ? ""
                                                               : r.lines[0].errors[0].ToString());
}

TEST_F(LiveStateTest, ConcurrentSubmissionsAreAllStoredWithDistinctIdsAndLineNumbers) {
  auto s = Open();
  constexpr int kThreads = 8, kEach = 40;
  std::vector<std::vector<std::string>> ids(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kEach; ++i) {
        SubmitResult r;
        // Two lines per submission: line numbers must stay per submission in a shared batch.
        std::string two = Outcome(fmt::format("bd-{}-{}", t, i), kNow - 10) + "\n" +
                          Outcome(fmt::format("bd-{}-{}b", t, i), kNow - 5);
        Status st = s->Submit(two, std::nullopt, &r);
        ASSERT_TRUE(st.ok()) << st.message();
        ASSERT_EQ(r.lines.size(), 2u);
        EXPECT_EQ(r.lines[0].line_number, 1u);
        EXPECT_EQ(r.lines[1].line_number, 2u);
        for (const LineOutcome& o : r.lines) {
          EXPECT_TRUE(o.stored);
          ids[t].push_back(o.id);
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  std::set<std::string> distinct;
  for (auto& v : ids) distinct.insert(v.begin(), v.end());
  EXPECT_EQ(distinct.size(), size_t{kThreads * kEach * 2});
  EXPECT_EQ(Folded(*s), uint64_t{kThreads * kEach * 2});
  EXPECT_EQ(s->full_reloads(), 0u);
}

TEST_F(LiveStateTest, BackfillIntoEarlierDayRefoldsTheWholeLog) {
  auto s = Open();
  SubmitResult r;
  ASSERT_TRUE(s->Submit(Outcome("bd-new", kNow), std::nullopt, &r).ok());
  EXPECT_EQ(s->full_reloads(), 0u);
  // Two days earlier: its day file sorts before the newest one folded.
  ASSERT_TRUE(s->Submit(Outcome("bd-old", kNow - 2 * kDay), std::nullopt, &r).ok());
  EXPECT_EQ(s->full_reloads(), 1u);
  EXPECT_EQ(Folded(*s), 2u);
}

TEST_F(LiveStateTest, AnotherProcessesAppendsAreFoldedOnTheNextRefresh) {
  auto s = Open();
  {
    ingest::Ingestor other(home_, store::DefaultFileSystem());
    simdjson::padded_string line(Outcome("bd-other", kNow - 100));
    ingest::IngestOptions o;
    o.now_ms = kNow;
    ingest::IngestSummary sum;
    ASSERT_TRUE(other.Ingest(line, o, &sum).ok());
    ASSERT_EQ(sum.stored, 1u);
  }
  SubmitResult r;
  ASSERT_TRUE(s->Submit(Outcome("bd-mine", kNow), std::nullopt, &r).ok());
  EXPECT_EQ(Folded(*s), 2u);
}

// The writer folds its own lines from memory; the polls in between read the files and must
// find nothing new: each event is folded once.
TEST_F(LiveStateTest, OwnLinesAreFoldedOnceThoughPollsRunBetweenBatches) {
  auto s = Open(/*poll_ms=*/5);
  ASSERT_TRUE(s);
  SubmitResult r;
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(s->Submit(Outcome(fmt::format("bd-{}", i), kNow - 100 + i), std::nullopt, &r).ok());
    EXPECT_EQ(Folded(*s), uint64_t(i + 1));
    std::this_thread::sleep_for(std::chrono::milliseconds(40));  // several polls
    EXPECT_EQ(Folded(*s), uint64_t(i + 1));
  }
  EXPECT_EQ(s->full_reloads(), 0u);
  auto fresh = Open();
  EXPECT_EQ(Folded(*fresh), 3u);
}

// Another process appends to the day file between two of this process's batches, and no poll
// runs (an hour apart): the second batch does not start where the fold ended, so the writer reads
// the file instead and folds the other line once, before its own, in file order.
TEST_F(LiveStateTest, AnotherProcessesAppendBetweenTwoBatchesIsFoldedOnce) {
  auto s = Open(/*poll_ms=*/3600000);
  ASSERT_TRUE(s);
  SubmitResult r;
  ASSERT_TRUE(s->Submit(Outcome("bd-a", kNow - 300), std::nullopt, &r).ok());
  AppendElsewhere(Outcome("bd-other", kNow - 200));
  EXPECT_EQ(Folded(*s), 1u);  // not polled yet
  ASSERT_TRUE(s->Submit(Outcome("bd-b", kNow - 100), std::nullopt, &r).ok());
  EXPECT_EQ(Folded(*s), 3u);
  // Back in step: the next batch is folded from memory, after the three.
  ASSERT_TRUE(s->Submit(Outcome("bd-c", kNow), std::nullopt, &r).ok());
  EXPECT_EQ(Folded(*s), 4u);
  EXPECT_EQ(s->full_reloads(), 0u);
  auto fresh = Open();
  EXPECT_EQ(Folded(*fresh), 4u);
}

TEST_F(LiveStateTest, PollFoldsAnotherProcessesAppendWithoutAnySubmission) {
  auto s = Open(/*poll_ms=*/10);
  ASSERT_TRUE(s);
  AppendElsewhere(Outcome("bd-other", kNow - 200));
  EXPECT_EQ(WaitFolded(*s, 1), 1u);
}

// Under a steady stream of submissions the writer never waits long enough for its poll timer,
// yet another process's event in a file this process does not write (an earlier day: a backfill,
// so a whole fold) is still folded, once.
TEST_F(LiveStateTest, PollFoldsAnotherProcessesAppendUnderAStreamOfSubmissions) {
  auto s = Open(/*poll_ms=*/20);
  ASSERT_TRUE(s);
  SubmitResult r;
  ASSERT_TRUE(s->Submit(Outcome("bd-0", kNow), std::nullopt, &r).ok());
  AppendElsewhere(Outcome("bd-other", kNow - 2 * kDay));
  uint64_t submitted = 1, folded = 0;
  for (int i = 1; i < 5000; ++i) {
    ASSERT_TRUE(s->Submit(Outcome(fmt::format("bd-{}", i), kNow), std::nullopt, &r).ok());
    ++submitted;
    folded = Folded(*s);
    if (folded == submitted + 1) break;
    ASSERT_EQ(folded, submitted);
  }
  EXPECT_EQ(folded, submitted + 1);
  EXPECT_EQ(s->full_reloads(), 1u);
  // Later batches (now after the backfilled day) are folded from memory again, once each.
  ASSERT_TRUE(s->Submit(Outcome("bd-last", kNow), std::nullopt, &r).ok());
  EXPECT_EQ(Folded(*s), submitted + 2);
  EXPECT_EQ(s->full_reloads(), 1u);
}

TEST_F(LiveStateTest, SubmitAfterShutdownIsUnavailableAndStoresNothing) {
  auto s = Open();
  s->Shutdown();
  SubmitResult r;
  Status st = s->Submit(Outcome("bd-late", kNow), std::nullopt, &r);
  EXPECT_EQ(st.code(), StatusCode::kUnavailable);
  EXPECT_TRUE(r.lines.empty());
  auto again = Open();
  EXPECT_EQ(Folded(*again), 0u);
}

TEST_F(LiveStateTest, AsyncSubmissionsAnswerOnceEachAfterTheirEventsAreDurableAndFolded) {
  auto s = Open();
  constexpr int kSubmissions = 200;
  // Texts the submissions borrow until they are answered.
  std::vector<std::string> texts;
  for (int i = 0; i < kSubmissions; ++i) texts.push_back(Outcome(fmt::format("bd-{}", i), kNow));
  std::mutex mu;
  std::condition_variable cv;
  std::vector<int> answers(kSubmissions, 0);
  std::set<std::string> ids;
  uint64_t folded_when_last_answered = 0;
  int answered = 0;
  for (int i = 0; i < kSubmissions; ++i) {
    s->SubmitAsync(texts[i], std::nullopt, [&, i](Status st, SubmitResult r) {
      EXPECT_TRUE(st.ok()) << st.message();
      ASSERT_EQ(r.lines.size(), 1u);
      EXPECT_TRUE(r.lines[0].stored);
      std::lock_guard<std::mutex> l(mu);
      ++answers[i];
      ids.insert(r.lines[0].id);
      if (++answered == kSubmissions) {
        // Called on the writer thread after the fold: a read now sees every event.
        folded_when_last_answered = s->events();
        cv.notify_all();
      }
    });
  }
  std::unique_lock<std::mutex> l(mu);
  ASSERT_TRUE(cv.wait_for(l, std::chrono::seconds(30), [&] { return answered == kSubmissions; }));
  EXPECT_EQ(answers, std::vector<int>(kSubmissions, 1));
  EXPECT_EQ(ids.size(), size_t{kSubmissions});
  EXPECT_EQ(folded_when_last_answered, uint64_t{kSubmissions});
  l.unlock();
  auto again = Open();  // in the log, not only in memory
  EXPECT_EQ(Folded(*again), uint64_t{kSubmissions});
}

TEST_F(LiveStateTest, AsyncSubmitAfterShutdownAnswersUnavailableAtOnce) {
  auto s = Open();
  s->Shutdown();
  const std::string text = Outcome("bd-late", kNow);
  bool called = false;
  s->SubmitAsync(text, std::nullopt, [&](Status st, SubmitResult r) {
    EXPECT_EQ(st.code(), StatusCode::kUnavailable);
    EXPECT_TRUE(r.lines.empty());
    called = true;
  });
  EXPECT_TRUE(called);  // on this thread, before SubmitAsync returned
  auto again = Open();
  EXPECT_EQ(Folded(*again), 0u);
}

// A CLI verb answered by the server must see what another process stored a moment before, with no
// poll to wait for: CatchUp folds it before returning.
TEST_F(LiveStateTest, CatchUpFoldsAnotherProcessesAppendBeforeReturning) {
  auto s = Open(/*poll_ms=*/3600000);
  ASSERT_TRUE(s);
  AppendElsewhere(Outcome("bd-other", kNow - 200));
  ASSERT_TRUE(s->CatchUp().ok());
  EXPECT_EQ(Folded(*s), 1u);
}

// Its learner was folded under the config it started with: after a change it must not answer as
// if it were a fresh fold.
TEST_F(LiveStateTest, CatchUpRefusesOnceTheLearningConfigChanged) {
  auto s = Open();
  ASSERT_TRUE(s);
  ASSERT_TRUE(s->CatchUp().ok());
  std::filesystem::create_directories(home_ + "/config");
  std::ofstream(home_ + "/config/learning.json") << R"({"memory": {"context_budget_tokens": 300}})";
  const Status changed = s->CatchUp();
  EXPECT_EQ(changed.code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(changed.message().find("restart"), std::string::npos) << changed.message();
}

// A hook answered for a CLI call stores its events with the caller's clock, not the server's.
TEST_F(LiveStateTest, SubmitWithAClockStampsTheEventWithIt) {
  auto s = Open();
  ASSERT_TRUE(s);
  SubmitResult r;
  const int64_t caller = kNow - 3 * 86400000LL;
  // No timestamp of its own, as the hook's events: the pipeline stamps it.
  const std::string event =
      R"({"kind":"outcome","bead_id":"bd-caller","duration_ms":5,"error_count":0,)"
      R"("retry_count":0,"success":true})";
  ASSERT_TRUE(s->Submit(event, std::nullopt, &r, caller).ok());
  ASSERT_EQ(r.summary.stored, 1u);
  s->Read([&](const learn::Learner& l, int64_t) { EXPECT_EQ(l.newest_ms(), caller); });
}

}  // namespace
}  // namespace kaizen::serve
