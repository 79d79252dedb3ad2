// The ingest pipeline's refusals, on a real temporary home: what is refused and why (the checks
// against the log too), and that what is stored is a line `kaizen verify` accepts.
#include <gtest/gtest.h>
#include <simdjson.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "ingest/ingestor.h"
#include "ingest/ingestor_test_fixture.h"
#include "ingest/validate.h"
#include "model/limits.h"

namespace kaizen::ingest {
namespace {

using namespace ingestor_test;  // NOLINT: the fixture and its helpers

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
