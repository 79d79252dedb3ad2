// The ingest pipeline end to end on a real temporary home, with failures injected through
// FaultInjectionFileSystem: what is acknowledged, what is stored, what is refused and why.
// The fixture is ingestor_test_fixture.h's; the other tests of the pipeline are
// ingestor_validation_test.cc and ingestor_cache_test.cc.
#include "ingest/ingestor.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "ingest/ingestor_test_fixture.h"
#include "store/file/fault_injection_file_system.h"
#include "store/log_format.h"

namespace kaizen::ingest {
namespace {

using namespace ingestor_test;  // NOLINT: the fixture and its helpers

// ---- system failures ------------------------------------------------------------------------

TEST_F(IngestorTest, FsyncFailureAcknowledgesNothingOfTheFailedChunk) {
  store::FaultInjectionFileSystem faulty;
  const std::string input = Jsonl({Outcome(1), Outcome(2), Outcome(3), Outcome(4)});
  {
    Ingestor ingestor(home_, &faulty);
    // Chunks of two events, one fsync each: the first chunk's fsync succeeds, the second fails.
    faulty.FailSyncFrom(2);
    IngestRun run = IngestText(ingestor, input, /*chunk_events=*/2);
    EXPECT_EQ(run.status.code(), StatusCode::kIoError) << run.status.ToString();
    EXPECT_NE(run.status.message().find("Input/output error"), std::string::npos);
    // The first chunk was durable and acknowledged; nothing of the second was reported stored.
    EXPECT_EQ(run.StoredLines(), (std::vector<uint64_t>{1, 2}));
    for (const auto& r : run.lines) {
      if (r.line_number >= 3) {
        EXPECT_FALSE(r.stored) << "line " << r.line_number;
      }
    }
    EXPECT_EQ(run.summary.stored, 2u);

    // The writer is poisoned: the same Ingestor refuses even once the disk is healthy.
    faulty.ClearFaults();
    IngestRun again = IngestText(ingestor, Jsonl({Outcome(5)}));
    EXPECT_EQ(again.status.code(), StatusCode::kFailedPrecondition) << again.status.ToString();
    EXPECT_TRUE(again.StoredLines().empty());
  }
  EXPECT_EQ(CountStored(Id(1)), 1);
  EXPECT_EQ(CountStored(Id(2)), 1);
  EXPECT_EQ(CountStored(Id(3)), 0);
  EXPECT_EQ(CountStored(Id(4)), 0);
  EXPECT_EQ(CountStored(Id(5)), 0);

  // Reopened on a healthy file system (a restart): the failed chunk was never stored, so sending
  // the same input again stores it, and refuses the part that was acknowledged.
  Ingestor reopened(home_, store::DefaultFileSystem());
  IngestRun retry = IngestText(reopened, input);
  ASSERT_TRUE(retry.status.ok()) << retry.status.ToString();
  EXPECT_EQ(retry.StoredLines(), (std::vector<uint64_t>{3, 4}));
  ASSERT_NE(retry.Line(1), nullptr);
  EXPECT_TRUE(retry.Line(1)->HasError("id", "duplicate event")) << retry.Line(1)->ErrorText();
  ASSERT_NE(retry.Line(2), nullptr);
  EXPECT_TRUE(retry.Line(2)->HasError("id", "duplicate event")) << retry.Line(2)->ErrorText();
  for (int n = 1; n <= 4; ++n) EXPECT_EQ(CountStored(Id(n)), 1) << n;
  EXPECT_EQ(StoredLines().size(), 4u);
}

TEST_F(IngestorTest, FsyncFailureOnFirstBatchLeavesNothingAndReingestStoresAll) {
  store::FaultInjectionFileSystem faulty;
  const std::string input =
      Jsonl({Outcome(1), Work(2, "art-1"), Feedback(3, "s1", "m1", R"({"id":"art-1"})")});
  {
    Ingestor ingestor(home_, &faulty);
    faulty.FailSyncFrom(1);
    IngestRun run = IngestText(ingestor, input);
    EXPECT_EQ(run.status.code(), StatusCode::kIoError) << run.status.ToString();
    EXPECT_TRUE(run.StoredLines().empty());
    EXPECT_EQ(run.summary.stored, 0u);
  }
  EXPECT_TRUE(StoredLines().empty());
  Ingestor reopened(home_, store::DefaultFileSystem());
  IngestRun retry = IngestText(reopened, input);
  ASSERT_TRUE(retry.status.ok()) << retry.status.ToString();
  EXPECT_EQ(retry.StoredLines(), (std::vector<uint64_t>{1, 2, 3}));
  EXPECT_EQ(StoredLines().size(), 3u);
  EXPECT_EQ(StoredFatigue(Id(3)), 1);  // the failed attempt did not count as a review
}

TEST_F(IngestorTest, DiskFullShortWriteAcknowledgesNothingAndRetryAfterFreeingSpaceStores) {
  store::FaultInjectionFileSystem faulty;
  Ingestor ingestor(home_, &faulty);
  const std::string input = Jsonl({Outcome(1), Outcome(2)});
  faulty.SetAppendBudget(40);  // less than one stored line
  IngestRun run = IngestText(ingestor, input);
  EXPECT_EQ(run.status.code(), StatusCode::kResourceExhausted) << run.status.ToString();
  EXPECT_TRUE(run.StoredLines().empty());
  EXPECT_TRUE(StoredLines().empty());
  EXPECT_EQ(fs::file_size(RawFile()), 0u);  // the short write was truncated away

  // A full disk does not poison the writer: free space and retry with the same Ingestor.
  faulty.ClearFaults();
  IngestRun retry = IngestText(ingestor, input);
  ASSERT_TRUE(retry.status.ok()) << retry.status.ToString();
  EXPECT_EQ(retry.StoredLines(), (std::vector<uint64_t>{1, 2}));
  EXPECT_EQ(StoredLines().size(), 2u);
}

TEST_F(IngestorTest, DiskFullWhileWritingTheCacheStillStoresAndKeepsRefusingDuplicates) {
  const std::string input = Jsonl({Outcome(1), Outcome(2)});
  // Measure the stored size of the batch in a scratch home (ids and timestamps are fixed, so the
  // stored bytes are identical).
  uint64_t raw_bytes = 0;
  {
    std::string scratch = home_ + "/scratch";
    Ingestor measure(scratch, store::DefaultFileSystem());
    ASSERT_TRUE(IngestText(measure, input).status.ok());
    raw_bytes = fs::file_size(store::PathIn(scratch, store::kRawDir) + "/" + kDay + ".jsonl");
  }
  const std::string home = home_ + "/home";
  store::FaultInjectionFileSystem faulty;
  {
    Ingestor ingestor(home, &faulty);
    // Room for the raw lines and 10 bytes of the cache journal's records: the events are durable,
    // the derived cache is left with a torn record.
    faulty.SetAppendBudget(raw_bytes + 10);
    IngestRun run = IngestText(ingestor, input);
    ASSERT_TRUE(run.status.ok()) << run.status.ToString();
    EXPECT_EQ(run.StoredLines(), (std::vector<uint64_t>{1, 2}));
    faulty.ClearFaults();
    IngestRun dup = IngestText(ingestor, input);
    ASSERT_TRUE(dup.status.ok()) << dup.status.ToString();
    EXPECT_TRUE(dup.StoredLines().empty());
    EXPECT_EQ(dup.summary.rejected, 2u);
  }
  Ingestor reopened(home, store::DefaultFileSystem());
  IngestRun dup = IngestText(reopened, input);
  ASSERT_TRUE(dup.status.ok()) << dup.status.ToString();
  EXPECT_TRUE(dup.StoredLines().empty());
  ASSERT_NE(dup.Line(1), nullptr);
  EXPECT_TRUE(dup.Line(1)->HasError("id", "duplicate event")) << dup.Line(1)->ErrorText();
}

// Ingest must always make progress: chunk limits of 0 must be refused or treated as 1, not loop
// forever re-taking the lock on an empty chunk. on_progress reports the bytes done after each
// chunk; if it repeats without progress, throw to get out of the loop and fail the test.
TEST_F(IngestorTest, ZeroChunkLimitsDoNotLoopForever) {
  struct NoProgress {};
  for (bool zero_events : {true, false}) {
    SCOPED_TRACE(zero_events ? "chunk_events = 0" : "chunk_bytes = 0");
    Ingestor ingestor(home_ + (zero_events ? "/events" : "/bytes"), store::DefaultFileSystem());
    simdjson::padded_string input(Jsonl({Outcome(1), Outcome(2)}));
    IngestOptions options;
    options.now_ms = kNowMs;
    (zero_events ? options.chunk_events : options.chunk_bytes) = 0;
    uint64_t last = 0;
    int stalls = 0;
    options.on_progress = [&](uint64_t done) {
      stalls = done == last ? stalls + 1 : 0;
      last = done;
      if (stalls > 100) throw NoProgress{};
    };
    IngestSummary summary;
    Status s;
    bool looped = false;
    try {
      s = ingestor.Ingest(std::string_view(input), options, &summary);
    } catch (const NoProgress&) {
      looped = true;
    }
    EXPECT_FALSE(looped) << "Ingest looped on empty chunks without consuming any input";
    if (looped) continue;
    if (s.ok()) {
      EXPECT_EQ(summary.stored, 2u);  // treated as "one event per chunk"
    } else {
      EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << s.ToString();
    }
  }
}

}  // namespace
}  // namespace kaizen::ingest
