// The ingest pipeline end to end on a real temporary home, with failures injected through
// FaultInjectionFileSystem: what is acknowledged, what is stored, what is refused and why.
#include "ingest/ingestor.h"

#include <gtest/gtest.h>
#include <simdjson.h>
#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "base/test_files.h"
#include "model/limits.h"
#include "store/file/fault_injection_file_system.h"
#include "store/log_format.h"

namespace kaizen::ingest {
namespace {

using base::test_files::ReadAll;

namespace fs = std::filesystem;

constexpr int64_t kNowMs = 1752969600000;  // 2025-07-20T00:00:00Z
constexpr char kDay[] = "2025-07-19";      // the UTC day of kTimestamp
constexpr char kTimestamp[] = "2025-07-19T10:00:00Z";

// Deterministic ids: 00000000-0000-7000-8000-0000000000NN.
std::string Id(int n) { return fmt::format("00000000-0000-7000-8000-{:012d}", n); }

std::string Outcome(int n, const std::string& timestamp = kTimestamp) {
  return fmt::format(
      R"({{"kind":"outcome","id":"{}","timestamp":"{}","bead_id":"bd-{}","duration_ms":1000,)"
      R"("error_count":0,"retry_count":0,"success":true}})",
      Id(n), timestamp, n);
}

std::string FullWorkProduct(const std::string& artifact, const std::string& version) {
  return fmt::format(
      R"({{"type":"code-module","id":"{}","version":"{}","summary":"a module",)"
      R"("bubaConfidence":0.5,"bubaScorePrediction":7,"generationContext":{{"promptHash":"ph",)"
      R"("memorySnapshot":[],"modelUsed":"model-x","generationTimeMs":10,"iterationCount":1}}}})",
      artifact, version);
}

std::string Work(int n, const std::string& artifact, const std::string& version = "v1") {
  return fmt::format(R"({{"kind":"work","id":"{}","timestamp":"{}","workProduct":{}}})", Id(n),
                     kTimestamp, FullWorkProduct(artifact, version));
}

// `work_product` is a JSON object: a reference {"id":...} or a full WorkProductRef.
std::string Feedback(int n, const std::string& session, const std::string& modal,
                     const std::string& work_product, const std::string& extra = "") {
  return fmt::format(
      R"({{"kind":"feedback","id":"{}","timestamp":"{}","sessionId":"{}","modalId":"{}",)"
      R"("workProduct":{},"pipelineStage":"review"{},"meta":{{"timeToDecisionMs":1000}}}})",
      Id(n), kTimestamp, session, modal, work_product, extra);
}

// Feedback that needs no recorded work: it carries the full WorkProductRef.
std::string FreeFeedback(int n, const std::string& session, const std::string& modal) {
  return Feedback(n, session, modal, FullWorkProduct("inline-art", "v1"));
}

std::string Jsonl(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& l : lines) out += l + "\n";
  return out;
}

// What on_line reported, copied out of the input.
struct Reported {
  uint64_t line_number = 0;
  bool stored = false;
  std::string id;
  std::vector<FieldError> errors;

  bool HasError(const std::string& path, const std::string& fragment) const {
    return std::any_of(errors.begin(), errors.end(), [&](const FieldError& e) {
      return e.path == path && e.message.find(fragment) != std::string::npos;
    });
  }
  std::string ErrorText() const {
    std::string out;
    for (const auto& e : errors) out += e.ToString() + "; ";
    return out;
  }
};

struct IngestRun {
  Status status;
  IngestSummary summary;
  std::vector<Reported> lines;

  const Reported* Line(uint64_t n) const {
    for (const auto& r : lines) {
      if (r.line_number == n) return &r;
    }
    return nullptr;
  }
  std::vector<uint64_t> StoredLines() const {
    std::vector<uint64_t> out;
    for (const auto& r : lines) {
      if (r.stored) out.push_back(r.line_number);
    }
    return out;
  }
};

IngestRun IngestText(Ingestor& ingestor, const std::string& text, size_t chunk_events = 50000) {
  IngestRun run;
  simdjson::padded_string input(text);
  IngestOptions options;
  options.now_ms = kNowMs;
  options.chunk_events = chunk_events;
  options.on_line = [&](const LineResult& r) {
    run.lines.push_back({r.line_number, r.stored, r.id, r.errors});
  };
  run.status = ingestor.Ingest(std::string_view(input), options, &run.summary);
  return run;
}

class IngestorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    home_ = base::test_files::MakeTempDir("kaizen-ingestor");
    ASSERT_FALSE(home_.empty());
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(home_, ec);
  }

  std::string RawDir() const { return store::PathIn(home_, store::kRawDir); }
  std::string RawFile(const std::string& day = kDay) const {
    return RawDir() + "/" + day + ".jsonl";
  }

  // Every complete stored line of every raw file, in file order.
  std::vector<std::string> StoredLines() const {
    std::vector<std::string> files;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(RawDir(), ec)) {
      files.push_back(entry.path().string());
    }
    std::sort(files.begin(), files.end());
    std::vector<std::string> lines;
    for (const auto& f : files) {
      std::string data = ReadAll(f);
      store::ForEachLine(data, 1,
                         [&](std::string_view line, uint64_t) { lines.emplace_back(line); });
    }
    return lines;
  }
  // How many stored lines carry the event id.
  int CountStored(const std::string& id) const {
    int n = 0;
    for (const auto& line : StoredLines()) {
      if (line.find("\"id\":\"" + id + "\"") != std::string::npos) ++n;
    }
    return n;
  }
  // meta.sessionFatigue of the stored event with this id; -1 if absent.
  int64_t StoredFatigue(const std::string& id) const {
    for (const auto& line : StoredLines()) {
      if (line.find("\"id\":\"" + id + "\"") == std::string::npos) continue;
      simdjson::dom::parser parser;
      simdjson::dom::element e;
      if (parser.parse(line).get(e) != simdjson::SUCCESS) return -1;
      int64_t fatigue;
      if (e["meta"]["sessionFatigue"].get_int64().get(fatigue) != simdjson::SUCCESS) return -1;
      return fatigue;
    }
    return -1;
  }

  std::string home_;
};

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

// ---- validation -----------------------------------------------------------------------------

TEST_F(IngestorTest, ValidAndInvalidMixStoresValidOnesAndReportsEachInvalidOne) {
  Ingestor ingestor(home_, store::DefaultFileSystem());
  std::string duration_negative = Outcome(2);
  duration_negative.replace(duration_negative.find("\"duration_ms\":1000"), 18,
                            "\"duration_ms\":-5");
  std::string two_errors = Outcome(6);
  two_errors.replace(two_errors.find("\"error_count\":0"), 15, "\"error_count\":\"x\"");
  two_errors.insert(two_errors.size() - 1, ",\"bogus\":1");
  std::string input = Outcome(1) + "\n" +                         // 1: stored
                      duration_negative + "\n" +                  // 2: out of range
                      "   \n" +                                   // 3: blank
                      "{\"kind\":\"outcome\",\n" +                // 4: not JSON
                      Outcome(5) + "\r\n" +                       // 5: stored (CRLF)
                      R"({"kind":"feedback","sessionId":"s"})" +  // 6: missing fields
                      "\n" + two_errors + "\n" +                  // 7: two errors
                      R"({"kind":"nope"})" + "\n" +               // 8: unknown kind
                      Outcome(9, "2031-01-01T00:00:00Z");         // 9: future, no final '\n'
  IngestRun run = IngestText(ingestor, input);
  ASSERT_TRUE(run.status.ok()) << run.status.ToString();
  EXPECT_EQ(run.summary.stored, 2u);
  EXPECT_EQ(run.summary.rejected, 6u);
  EXPECT_EQ(run.summary.blank, 1u);
  EXPECT_EQ(run.StoredLines(), (std::vector<uint64_t>{1, 5}));
  ASSERT_EQ(run.lines.size(), 8u);  // every non-blank line, in order
  EXPECT_EQ(run.Line(1)->id, Id(1));

  const Reported* l2 = run.Line(2);
  ASSERT_NE(l2, nullptr);
  EXPECT_TRUE(l2->HasError("duration_ms", "-5")) << l2->ErrorText();
  EXPECT_EQ(l2->errors.size(), 1u) << l2->ErrorText();
  EXPECT_EQ(run.Line(3), nullptr);
  ASSERT_NE(run.Line(4), nullptr);
  EXPECT_TRUE(run.Line(4)->HasError("(event)", "is not JSON")) << run.Line(4)->ErrorText();
  const Reported* l6 = run.Line(6);
  ASSERT_NE(l6, nullptr);
  EXPECT_TRUE(l6->HasError("modalId", "missing")) << l6->ErrorText();
  EXPECT_TRUE(l6->HasError("workProduct", "missing")) << l6->ErrorText();
  EXPECT_TRUE(l6->HasError("pipelineStage", "missing")) << l6->ErrorText();
  EXPECT_TRUE(l6->HasError("meta", "missing")) << l6->ErrorText();
  const Reported* l7 = run.Line(7);
  ASSERT_NE(l7, nullptr);
  EXPECT_TRUE(l7->HasError("error_count", "is not a number")) << l7->ErrorText();
  EXPECT_TRUE(l7->HasError("bogus", "unknown field")) << l7->ErrorText();
  ASSERT_NE(run.Line(8), nullptr);
  EXPECT_TRUE(run.Line(8)->HasError("kind", "is not one of")) << run.Line(8)->ErrorText();
  ASSERT_NE(run.Line(9), nullptr);
  EXPECT_TRUE(run.Line(9)->HasError("timestamp", "in the future")) << run.Line(9)->ErrorText();

  EXPECT_EQ(StoredLines().size(), 2u);
  EXPECT_EQ(CountStored(Id(1)), 1);
  EXPECT_EQ(CountStored(Id(5)), 1);
  EXPECT_EQ(CountStored(Id(2)), 0);
}

TEST_F(IngestorTest, DuplicateIdWithinOneBatchRefused) {
  Ingestor ingestor(home_, store::DefaultFileSystem());
  IngestRun run = IngestText(ingestor, Jsonl({Outcome(1), Outcome(2), Outcome(1)}));
  ASSERT_TRUE(run.status.ok()) << run.status.ToString();
  EXPECT_EQ(run.StoredLines(), (std::vector<uint64_t>{1, 2}));
  ASSERT_NE(run.Line(3), nullptr);
  EXPECT_TRUE(run.Line(3)->HasError("id", "is already recorded (duplicate event)"))
      << run.Line(3)->ErrorText();
  EXPECT_EQ(CountStored(Id(1)), 1);
}

TEST_F(IngestorTest, DuplicateIdAcrossBatchesRefused) {
  Ingestor ingestor(home_, store::DefaultFileSystem());
  ASSERT_TRUE(IngestText(ingestor, Jsonl({Outcome(1)})).status.ok());
  // The same id, also spelled in upper case, and under another kind.
  std::string upper = Outcome(1);
  std::string id = Id(1);
  std::string upper_id = id;
  std::transform(upper_id.begin(), upper_id.end(), upper_id.begin(), ::toupper);
  upper.replace(upper.find(id), id.size(), upper_id);
  IngestRun run = IngestText(ingestor, Jsonl({Outcome(1), upper, Work(1, "art-1")}));
  ASSERT_TRUE(run.status.ok()) << run.status.ToString();
  EXPECT_TRUE(run.StoredLines().empty());
  for (uint64_t n = 1; n <= 3; ++n) {
    ASSERT_NE(run.Line(n), nullptr);
    EXPECT_TRUE(run.Line(n)->HasError("id", "duplicate event")) << run.Line(n)->ErrorText();
  }
  EXPECT_EQ(StoredLines().size(), 1u);
}

TEST_F(IngestorTest, DuplicateModalIdAndSessionIdRefused) {
  Ingestor ingestor(home_, store::DefaultFileSystem());
  IngestRun run =
      IngestText(ingestor, Jsonl({FreeFeedback(1, "s1", "m1"), FreeFeedback(2, "s1", "m1"),
                                  FreeFeedback(3, "s2", "m1"), FreeFeedback(4, "s1", "m2")}));
  ASSERT_TRUE(run.status.ok()) << run.status.ToString();
  EXPECT_EQ(run.StoredLines(), (std::vector<uint64_t>{1, 3, 4}));
  ASSERT_NE(run.Line(2), nullptr);
  EXPECT_TRUE(run.Line(2)->HasError("modalId", "duplicate submission")) << run.Line(2)->ErrorText();
  // And across batches.
  IngestRun again = IngestText(ingestor, Jsonl({FreeFeedback(5, "s2", "m1")}));
  ASSERT_TRUE(again.status.ok());
  ASSERT_NE(again.Line(1), nullptr);
  EXPECT_TRUE(again.Line(1)->HasError("modalId", "duplicate submission"))
      << again.Line(1)->ErrorText();
  EXPECT_EQ(CountStored(Id(2)), 0);
  EXPECT_EQ(CountStored(Id(5)), 0);
}

TEST_F(IngestorTest, FeedbackReferencingWorkRecordedInTheSameBatchAccepted) {
  Ingestor ingestor(home_, store::DefaultFileSystem());
  IngestRun run = IngestText(
      ingestor, Jsonl({Feedback(1, "s1", "m0", R"({"id":"art-1"})"),  // before the work: unknown
                       Work(2, "art-1", "v1"), Feedback(3, "s1", "m1", R"({"id":"art-1"})"),
                       Feedback(4, "s1", "m2", R"({"id":"art-1","version":"v1"})"),
                       Feedback(5, "s1", "m3", R"({"id":"art-1","version":"v9"})"),
                       Feedback(6, "s1", "m4", R"({"id":"art-1"})",
                                R"(,"scores":[{"dimension":"naming","score":9}])")}));
  ASSERT_TRUE(run.status.ok()) << run.status.ToString();
  EXPECT_EQ(run.StoredLines(), (std::vector<uint64_t>{2, 3, 4, 6}));
  ASSERT_NE(run.Line(1), nullptr);
  EXPECT_TRUE(run.Line(1)->HasError("workProduct.id", "names no recorded work event"))
      << run.Line(1)->ErrorText();
  ASSERT_NE(run.Line(5), nullptr);
  EXPECT_TRUE(run.Line(5)->HasError("workProduct.id", "version \"v9\""))
      << run.Line(5)->ErrorText();
  // The prediction of the work recorded in the same batch (7) is used for the delta (9 - 7).
  bool found = false;
  for (const auto& line : StoredLines()) {
    if (line.find(Id(6)) == std::string::npos) continue;
    found = true;
    EXPECT_NE(line.find("\"_predictionDelta\":2"), std::string::npos) << line;
  }
  EXPECT_TRUE(found);
}

TEST_F(IngestorTest, LargeChunkKeepsLineOrderAndRefusesDuplicatesAcrossPreparationSlices) {
  // Enough lines that the stateless stages run on several threads: the stateful checks must
  // still see the lines in input order.
  std::vector<std::string> lines;
  for (int i = 1; i <= 300; ++i) {
    lines.push_back(Outcome(i));
    lines.push_back(FreeFeedback(1000 + i, "s-big", "m" + std::to_string(i)));
  }
  for (int i = 1; i <= 300; i += 7) lines.push_back(Outcome(i));  // duplicates, late in the batch
  Ingestor ingestor(home_, store::DefaultFileSystem());
  IngestRun run = IngestText(ingestor, Jsonl(lines));
  ASSERT_TRUE(run.status.ok()) << run.status.ToString();
  ASSERT_EQ(run.lines.size(), lines.size());
  for (size_t i = 0; i < run.lines.size(); ++i) {
    EXPECT_EQ(run.lines[i].line_number, i + 1);
    EXPECT_EQ(run.lines[i].stored, i < 600) << "line " << i + 1 << ": " << run.lines[i].ErrorText();
  }
  EXPECT_EQ(run.summary.stored, 600u);
  EXPECT_EQ(StoredFatigue(Id(1001)), 1);
  EXPECT_EQ(StoredFatigue(Id(1150)), 150);
  EXPECT_EQ(StoredFatigue(Id(1300)), 300);
}

TEST_F(IngestorTest, ManyChunksPreparedByWhicheverThreadIsFreeAreStoredInInputOrder) {
  // The lines of a chunk are prepared in blocks by the preparing threads and by the thread that
  // committed the chunk before: whoever prepares a line, the log gets the lines in input order
  // and the checks against the log see them in that order. Chunk sizes from one thread's worth
  // to several chunks, with a chunk boundary inside the duplicates.
  std::vector<std::string> lines, ids;
  for (int i = 1; i <= 300; ++i) {
    lines.push_back(Outcome(i));
    ids.push_back(Id(i));
    lines.push_back(FreeFeedback(1000 + i, "s-big", "m" + std::to_string(i)));
    ids.push_back(Id(1000 + i));
  }
  for (int i = 1; i <= 300; i += 7) lines.push_back(Outcome(i));  // duplicates, late in the batch
  for (size_t chunk_events : {size_t{64}, size_t{130}, size_t{200}, size_t{631}}) {
    SCOPED_TRACE("chunk_events = " + std::to_string(chunk_events));
    fs::remove_all(home_);
    fs::create_directories(home_);
    Ingestor ingestor(home_, store::DefaultFileSystem());
    IngestRun run = IngestText(ingestor, Jsonl(lines), chunk_events);
    ASSERT_TRUE(run.status.ok()) << run.status.ToString();
    ASSERT_EQ(run.lines.size(), lines.size());
    for (size_t i = 0; i < run.lines.size(); ++i) {
      EXPECT_EQ(run.lines[i].line_number, i + 1);
      EXPECT_EQ(run.lines[i].stored, i < 600) << "line " << i + 1;
    }
    std::vector<std::string> stored_ids;
    for (const std::string& line : StoredLines()) {
      const size_t at = line.find("\"id\":\"") + 6;
      stored_ids.push_back(line.substr(at, 36));
    }
    EXPECT_EQ(stored_ids, ids);
    EXPECT_EQ(StoredFatigue(Id(1300)), 300);
  }
}

// What `kaizen verify` and the derived-file rebuild (src/cli/verify.cc, derived_files.cc) do with
// a stored line: refuse it if it is longer than kMaxStoredEventBytes, else parse and validate it.
// Returns the problems found; none for a good line.
std::vector<std::string> VerifyStoredLine(std::string_view line) {
  if (line.size() > model::kMaxStoredEventBytes) {
    return {
        fmt::format("stored line of {} bytes is longer than kMaxStoredEventBytes ({}): verify "
                    "reports it as not JSON and rebuild skips it",
                    line.size(), model::kMaxStoredEventBytes)};
  }
  simdjson::dom::parser parser;
  simdjson::dom::element e;
  if (auto err = parser.parse(std::string(line)).get(e)) return {simdjson::error_message(err)};
  ValidateOptions vopts;
  vopts.now_ms = kNowMs;
  EventFacts facts;
  std::vector<std::string> out;
  for (const auto& err : ValidateEvent(e, vopts, &facts)) out.push_back(err.ToString());
  return out;
}

std::string Join(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) out += s.substr(0, 200) + "\n";
  return out;
}

// An event exactly at the input limit is accepted; kaizen then adds id, timestamp (and for
// feedback the meta fields), so its stored line must still be one verify accepts.
TEST_F(IngestorTest, EventAtTheSizeLimitIsStoredAsALineVerifyAccepts) {
  // An outcome with no id or timestamp (both generated), padded with files_touched to exactly
  // kMaxEventBytes.
  std::string head = R"({"kind":"outcome","bead_id":"bd-big","duration_ms":1,"error_count":0,)"
                     R"("retry_count":0,"success":true,"files_touched":[)";
  std::string event = head;
  const std::string chunk(60000, 'f');
  while (event.size() + chunk.size() + 4 < model::kMaxEventBytes) {
    event += (event.size() == head.size() ? "\"" : ",\"") + chunk + "\"";
  }
  const size_t fill = model::kMaxEventBytes - event.size() - 5;  // ,"" + ]}
  event += ",\"" + std::string(fill, 'g') + "\"]}";
  ASSERT_EQ(event.size(), model::kMaxEventBytes);

  Ingestor ingestor(home_, store::DefaultFileSystem());
  IngestRun run = IngestText(ingestor, event + "\n");
  ASSERT_TRUE(run.status.ok()) << run.status.ToString();
  ASSERT_EQ(run.lines.size(), 1u);
  if (!run.lines[0].stored) {
    // Refusing it is fine too, if the error names the limit.
    EXPECT_NE(run.lines[0].ErrorText().find("limit"), std::string::npos)
        << run.lines[0].ErrorText();
    return;
  }
  std::vector<std::string> lines = StoredLines();
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_TRUE(VerifyStoredLine(lines[0]).empty()) << Join(VerifyStoredLine(lines[0]));
}

// freeText may hold three strings of up to 64 KiB; the enrichment lists their actionable
// sentences in _actionableItems, an array that verify caps at kMaxArrayItems elements.
TEST_F(IngestorTest, FeedbackWithManyActionableSentencesIsStoredAsALineVerifyAccepts) {
  std::string fields[3];
  int n = 0;
  for (auto& f : fields) {
    // "add 12345\n" per sentence: every one a distinct actionable item.
    while (f.size() + 40 < model::kMaxStringBytes) f += fmt::format("add {}\\n", ++n);
  }
  ASSERT_GT(n, static_cast<int>(model::kMaxArrayItems));
  std::string event =
      Feedback(1, "s1", "m1", FullWorkProduct("inline-art", "v1"),
               fmt::format(R"(,"freeText":{{"liked":"{}","disliked":"{}","generalNotes":"{}"}})",
                           fields[0], fields[1], fields[2]));
  Ingestor ingestor(home_, store::DefaultFileSystem());
  IngestRun run = IngestText(ingestor, event + "\n");
  ASSERT_TRUE(run.status.ok()) << run.status.ToString();
  ASSERT_EQ(run.lines.size(), 1u);
  ASSERT_TRUE(run.lines[0].stored) << run.lines[0].ErrorText();
  std::vector<std::string> lines = StoredLines();
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_TRUE(VerifyStoredLine(lines[0]).empty()) << Join(VerifyStoredLine(lines[0]));
}

// ---- the cache and recovery -----------------------------------------------------------------

TEST_F(IngestorTest, DeletedCacheFilesStillRefuseDuplicatesAfterReopen) {
  const std::string input = Jsonl({Outcome(1), Work(2, "art-1"), FreeFeedback(3, "s1", "m1")});
  {
    Ingestor ingestor(home_, store::DefaultFileSystem());
    ASSERT_TRUE(IngestText(ingestor, input).status.ok());
  }
  const std::string journal = store::PathIn(home_, "feedback/indexes/ingest.cache");
  const std::string watermark = store::PathIn(home_, "feedback/indexes/ingest.watermark");
  ASSERT_TRUE(fs::exists(journal));
  ASSERT_TRUE(fs::exists(watermark));
  fs::remove(journal);
  fs::remove(watermark);

  Ingestor reopened(home_, store::DefaultFileSystem());
  IngestRun run =
      IngestText(reopened, Jsonl({Outcome(1), Work(4, "art-1"), FreeFeedback(5, "s1", "m1"),
                                  FreeFeedback(6, "s1", "m2")}));
  ASSERT_TRUE(run.status.ok()) << run.status.ToString();
  EXPECT_EQ(run.StoredLines(), (std::vector<uint64_t>{4}));
  EXPECT_TRUE(run.Line(1)->HasError("id", "duplicate event")) << run.Line(1)->ErrorText();
  EXPECT_TRUE(run.Line(2)->HasError("workProduct.version", "already recorded"))
      << run.Line(2)->ErrorText();
  EXPECT_TRUE(run.Line(3)->HasError("modalId", "duplicate submission")) << run.Line(3)->ErrorText();
  EXPECT_EQ(StoredFatigue(Id(6)), 2);  // the rebuilt state still counts the session's reviews
  EXPECT_TRUE(fs::exists(journal));
  EXPECT_TRUE(fs::exists(watermark));
}

TEST_F(IngestorTest, ADamagedCacheRecordIsNoticedAndTheCacheRebuilt) {
  // One byte of one record's id changed, at each offset of the id in turn: had the checksum let
  // it through, the state would know the event by the wrong id and store it a second time.
  const std::string input = Jsonl({Outcome(1), Outcome(2), Outcome(3)});
  const std::string journal = store::PathIn(home_, "feedback/indexes/ingest.cache");
  constexpr size_t kId = offsetof(CacheRecord, id);
  for (size_t at = kId; at < kId + 16; ++at) {
    fs::remove_all(home_);
    {
      Ingestor ingestor(home_, store::DefaultFileSystem());
      ASSERT_TRUE(IngestText(ingestor, input).status.ok());
    }
    std::string records = ReadAll(journal);
    ASSERT_EQ(records.size(), 3 * sizeof(CacheRecord));
    records[sizeof(CacheRecord) + at] ^= 0x10;  // the second record's id
    std::ofstream(journal, std::ios::binary | std::ios::trunc) << records;
    Ingestor reopened(home_, store::DefaultFileSystem());
    IngestRun run = IngestText(reopened, input);
    ASSERT_TRUE(run.status.ok()) << run.status.ToString();
    EXPECT_TRUE(run.StoredLines().empty()) << "id byte " << at - kId;
  }
}

TEST_F(IngestorTest, DeletedCacheFilesUnderALiveIngestorStillRefuseDuplicates) {
  Ingestor ingestor(home_, store::DefaultFileSystem());
  ASSERT_TRUE(IngestText(ingestor, Jsonl({Outcome(1), Outcome(2)})).status.ok());
  fs::remove(store::PathIn(home_, "feedback/indexes/ingest.cache"));
  fs::remove(store::PathIn(home_, "feedback/indexes/ingest.watermark"));
  IngestRun run = IngestText(ingestor, Jsonl({Outcome(1), Outcome(2), Outcome(3)}));
  ASSERT_TRUE(run.status.ok()) << run.status.ToString();
  EXPECT_EQ(run.StoredLines(), (std::vector<uint64_t>{3}));
  EXPECT_EQ(StoredLines().size(), 3u);
}

TEST_F(IngestorTest, TornTailAppendedByHandIsCutOnNextIngestAndReported) {
  Ingestor ingestor(home_, store::DefaultFileSystem());
  ASSERT_TRUE(IngestText(ingestor, Jsonl({Outcome(1), Outcome(2)})).status.ok());
  EXPECT_TRUE(ingestor.TakeNotes().empty());
  const uint64_t good_size = fs::file_size(RawFile());
  const std::string torn = Outcome(3).substr(0, 40);  // a crash mid-write
  {
    std::ofstream out(RawFile(), std::ios::binary | std::ios::app);
    out << torn;
  }
  IngestRun run = IngestText(ingestor, Jsonl({Outcome(4)}));
  ASSERT_TRUE(run.status.ok()) << run.status.ToString();
  EXPECT_EQ(run.StoredLines(), (std::vector<uint64_t>{1}));

  std::vector<store::RecoveryNote> notes = ingestor.TakeNotes();
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0].file, std::string("feedback/raw/") + kDay + ".jsonl");
  EXPECT_NE(notes[0].text.find("torn last line of 40 bytes"), std::string::npos) << notes[0].text;
  EXPECT_TRUE(ingestor.TakeNotes().empty());  // taken
  EXPECT_EQ(ReadAll(store::PathIn(home_, store::kRecoveredDir) + "/" + kDay + ".jsonl." +
                    std::to_string(good_size) + ".torn"),
            torn);
  // The raw file holds whole lines only: the two events before the tear and the new one.
  std::string raw = ReadAll(RawFile());
  ASSERT_FALSE(raw.empty());
  EXPECT_EQ(raw.back(), '\n');
  EXPECT_EQ(StoredLines().size(), 3u);
  EXPECT_EQ(CountStored(Id(4)), 1);
  simdjson::dom::parser parser;
  for (const auto& line : StoredLines()) {
    EXPECT_EQ(parser.parse(line).error(), simdjson::SUCCESS) << line;
  }
}

TEST_F(IngestorTest, TornTailIsCutByANewIngestorToo) {
  {
    Ingestor ingestor(home_, store::DefaultFileSystem());
    ASSERT_TRUE(IngestText(ingestor, Jsonl({Outcome(1)})).status.ok());
  }
  {
    std::ofstream out(RawFile(), std::ios::binary | std::ios::app);
    out << "{\"kind\":\"outc";
  }
  Ingestor reopened(home_, store::DefaultFileSystem());
  IngestRun run = IngestText(reopened, Jsonl({Outcome(1), Outcome(2)}));
  ASSERT_TRUE(run.status.ok()) << run.status.ToString();
  EXPECT_EQ(run.StoredLines(), (std::vector<uint64_t>{2}));
  auto notes = reopened.TakeNotes();
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].text.find("torn"), std::string::npos) << notes[0].text;
  EXPECT_EQ(StoredLines().size(), 2u);
}

TEST_F(IngestorTest, TwoIngestorsOnOneHomeSeeEachOthersEvents) {
  Ingestor a(home_, store::DefaultFileSystem());
  Ingestor b(home_, store::DefaultFileSystem());
  ASSERT_TRUE(IngestText(a, Jsonl({Outcome(1)})).status.ok());

  IngestRun b1 = IngestText(b, Jsonl({Outcome(1), Outcome(2), FreeFeedback(3, "s1", "m1")}));
  ASSERT_TRUE(b1.status.ok()) << b1.status.ToString();
  EXPECT_EQ(b1.StoredLines(), (std::vector<uint64_t>{2, 3}));
  EXPECT_TRUE(b1.Line(1)->HasError("id", "duplicate event")) << b1.Line(1)->ErrorText();

  IngestRun a1 = IngestText(a, Jsonl({Outcome(2), FreeFeedback(4, "s1", "m1"),
                                      FreeFeedback(5, "s1", "m2"), Work(6, "art-9")}));
  ASSERT_TRUE(a1.status.ok()) << a1.status.ToString();
  EXPECT_EQ(a1.StoredLines(), (std::vector<uint64_t>{3, 4}));
  EXPECT_TRUE(a1.Line(1)->HasError("id", "duplicate event")) << a1.Line(1)->ErrorText();
  EXPECT_TRUE(a1.Line(2)->HasError("modalId", "duplicate submission")) << a1.Line(2)->ErrorText();
  EXPECT_EQ(StoredFatigue(Id(5)), 2);  // b's review of s1 counted

  // b sees a's work event.
  IngestRun b2 =
      IngestText(b, Jsonl({Feedback(7, "s1", "m3", R"({"id":"art-9"})"), Work(8, "art-9")}));
  ASSERT_TRUE(b2.status.ok()) << b2.status.ToString();
  EXPECT_EQ(b2.StoredLines(), (std::vector<uint64_t>{1}));
  EXPECT_TRUE(b2.Line(2)->HasError("workProduct.version", "already recorded"))
      << b2.Line(2)->ErrorText();
  EXPECT_EQ(StoredFatigue(Id(7)), 3);

  for (int n : {1, 2, 3, 5, 6, 7}) EXPECT_EQ(CountStored(Id(n)), 1) << n;
  EXPECT_EQ(StoredLines().size(), 6u);
}

TEST_F(IngestorTest, SessionFatigueCountsOneTwoThreeWithinASession) {
  Ingestor ingestor(home_, store::DefaultFileSystem());
  std::string preset = FreeFeedback(3, "s1", "m3");
  // A sessionFatigue given by the client is replaced by the computed one.
  preset.replace(preset.find("\"timeToDecisionMs\":1000"), 23,
                 "\"timeToDecisionMs\":1000,\"sessionFatigue\":99");
  IngestRun run =
      IngestText(ingestor, Jsonl({FreeFeedback(1, "s1", "m1"), FreeFeedback(2, "s1", "m2"),
                                  FreeFeedback(10, "s2", "m1"), preset}));
  ASSERT_TRUE(run.status.ok()) << run.status.ToString();
  EXPECT_EQ(run.StoredLines(), (std::vector<uint64_t>{1, 2, 3, 4}));
  EXPECT_EQ(StoredFatigue(Id(1)), 1);
  EXPECT_EQ(StoredFatigue(Id(2)), 2);
  EXPECT_EQ(StoredFatigue(Id(3)), 3);
  EXPECT_EQ(StoredFatigue(Id(10)), 1);
  // Refused reviews do not count; the next batch continues the count.
  IngestRun next =
      IngestText(ingestor, Jsonl({FreeFeedback(11, "s1", "m1"), FreeFeedback(4, "s1", "m4")}));
  ASSERT_TRUE(next.status.ok()) << next.status.ToString();
  EXPECT_EQ(next.StoredLines(), (std::vector<uint64_t>{2}));
  EXPECT_EQ(StoredFatigue(Id(4)), 4);
}

}  // namespace
}  // namespace kaizen::ingest

namespace kaizen::ingest {
namespace {

// A refused duplicate must not leave an empty file behind for its (otherwise unused) day.
TEST_F(IngestorTest, RefusedDuplicateCreatesNoFileForItsDay) {
  Ingestor ingestor(home_, store::DefaultFileSystem());
  ASSERT_TRUE(IngestText(ingestor, Outcome(1)).status.ok());
  IngestRun run = IngestText(ingestor, Outcome(1, "2025-07-12T10:00:00Z"));
  ASSERT_TRUE(run.status.ok());
  ASSERT_EQ(run.lines.size(), 1u);
  EXPECT_TRUE(run.lines[0].HasError("id", "already recorded")) << run.lines[0].ErrorText();
  EXPECT_FALSE(fs::exists(RawFile("2025-07-12")));
}

}  // namespace
}  // namespace kaizen::ingest

namespace kaizen::ingest {
namespace {

// on_appended reports, per group commit and raw file, exactly the bytes appended and where they
// start, and that offset counts another process's lines appended before (serve folds its own
// lines from these reports and must notice such a gap).
TEST_F(IngestorTest, OnAppendedReportsEachFilesStoredBytesAndWhereTheyStart) {
  Ingestor mine(home_, store::DefaultFileSystem());
  Ingestor other(home_, store::DefaultFileSystem());
  struct Seen {
    std::string file, text;
    uint64_t offset;
  };
  auto ingest = [&](Ingestor& ingestor, const std::string& text, size_t chunk_events) {
    std::vector<Seen> seen;
    simdjson::padded_string input(text);
    IngestOptions options;
    options.now_ms = kNowMs;
    options.chunk_events = chunk_events;
    options.on_appended = [&](const AppendedLines& a) {
      seen.push_back({a.file, std::string(a.text), a.offset});
    };
    IngestSummary summary;
    EXPECT_TRUE(ingestor.Ingest(std::string_view(input), options, &summary).ok());
    return seen;
  };
  // Two days in one chunk, in file-name order; a refused line adds nothing.
  std::vector<Seen> first = ingest(
      mine,
      Jsonl({Outcome(1, "2025-07-19T10:00:00Z"), Outcome(2, "2025-07-18T10:00:00Z"), Outcome(1)}),
      50000);
  ASSERT_EQ(first.size(), 2u);
  EXPECT_EQ(first[0].file, "2025-07-18.jsonl");
  EXPECT_EQ(first[1].file, "2025-07-19.jsonl");
  EXPECT_EQ(first[0].offset, 0u);
  EXPECT_EQ(first[1].offset, 0u);
  EXPECT_EQ(first[0].text, ReadAll(RawFile("2025-07-18")));
  EXPECT_EQ(first[1].text, ReadAll(RawFile(kDay)));

  const uint64_t before_other = ReadAll(RawFile(kDay)).size();
  ASSERT_TRUE(IngestText(other, Outcome(3)).status.ok());
  const uint64_t after_other = ReadAll(RawFile(kDay)).size();
  ASSERT_GT(after_other, before_other);

  // One line per chunk: two reports for one file, each starting where the one before ended.
  std::vector<Seen> second = ingest(mine, Jsonl({Outcome(4), Outcome(5)}), 1);
  ASSERT_EQ(second.size(), 2u);
  EXPECT_EQ(second[0].offset, after_other);
  EXPECT_EQ(second[1].offset, after_other + second[0].text.size());
  const std::string day = ReadAll(RawFile(kDay));
  EXPECT_EQ(day.substr(after_other), second[0].text + second[1].text);
  EXPECT_NE(second[0].text.find(Id(4)), std::string::npos);
  EXPECT_NE(second[1].text.find(Id(5)), std::string::npos);
}

}  // namespace
}  // namespace kaizen::ingest
