// What the Ingestor keeps besides the events, on a real temporary home: its cache (rebuilt when
// deleted or damaged), torn tails cut, other processes' lines seen, and what a commit reports.
#include <gtest/gtest.h>
#include <simdjson.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include "ingest/ingestor.h"
#include "ingest/ingestor_test_fixture.h"
#include "store/log_format.h"

namespace kaizen::ingest {
namespace {

using namespace ingestor_test;  // NOLINT: the fixture and its helpers

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
