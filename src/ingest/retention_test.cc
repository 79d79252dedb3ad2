// The retention table (seed 000 §9.1, seed 004) on single stored events at a fixed `now`.
#include "ingest/retention.h"

#include <gtest/gtest.h>
#include <simdjson.h>

#include <string>

namespace kaizen::ingest {
namespace {

constexpr int64_t kMsPerDay = 86'400'000;
constexpr int64_t kNow = 1767225600000;  // 2026-01-01T00:00:00Z
// 2025-09-01 ended 121 days before kNow; 2025-12-01 ended 30 days before; 2025-12-15: 16 days.
constexpr char kOld[] = "2025-09-01";
constexpr char kMonthOld[] = "2025-12-01";
constexpr char kRecent[] = "2025-12-15";

const char kFeedback[] =
    R"({"kind":"feedback","id":"00000000-0000-7000-8000-000000000001","timestamp":"DAYT10:00:00.000Z",)"
    R"("sessionId":"s","reviewerId":"jake","freeText":{"liked":"clean","disliked":"no retries",)"
    R"("_extractedThemes":["error-handling"],"_sentiment":0.1,"_actionableItems":["add retries"]},)"
    R"("annotations":[{"type":"criticism","target":{"file":"a.ts","lineStart":3},"text":"retry"}],)"
    R"("meta":{"timeToDecisionMs":40000,"scrollDepth":0.5,"deviceType":"desktop","revisits":2,)"
    R"("timeOfDay":"morning","dayOfWeek":"monday","sessionFatigue":1}})";

std::string On(const std::string& day, std::string text) {
  text.replace(text.find("DAY"), 3, day);
  return text;
}

struct Doc {
  simdjson::dom::parser parser;
  simdjson::padded_string text;
  simdjson::dom::element e;
  explicit Doc(const std::string& json) : text(json) { EXPECT_FALSE(parser.parse(text).get(e)); }
};

std::optional<std::string> Compact(const std::string& json, const std::string& day,
                                   BehaviorAggregates* aggregates, CompactionCounts* counts) {
  Doc d(json);
  return CompactEvent(d.e, day, RetentionPolicy(), kNow, *aggregates, counts);
}

TEST(RetentionTest, ADayIsPastItsWindowOnceTheWholeDayIsThatOld) {
  EXPECT_TRUE(DayPastWindow("2025-12-01", 30, kNow));   // ended 2025-12-02, 30 days before
  EXPECT_FALSE(DayPastWindow("2025-12-02", 30, kNow));  // ended 29 days before
  EXPECT_TRUE(DayPastWindow("2025-10-02", 90, kNow));   // ended 2025-10-03: 90 days before
  EXPECT_FALSE(DayPastWindow("2025-10-03", 90, kNow));
  EXPECT_FALSE(DayPastWindow("not-a-day", 1, kNow));
  EXPECT_TRUE(DayPastWindow("2025-12-30", 0, kNow + kMsPerDay));
}

TEST(RetentionTest, RecentEventsAreLeftByteForByte) {
  BehaviorAggregates a;
  CompactionCounts n;
  EXPECT_FALSE(Compact(On(kRecent, kFeedback), kRecent, &a, &n).has_value());
  EXPECT_FALSE(n.any());
}

TEST(RetentionTest, OldFreeTextKeepsOnlyItsThemesAndAnnotationsAreDelinked) {
  BehaviorAggregates a;
  Doc d(On(kOld, kFeedback));
  a.Fold(kOld, d.e);
  a.FinishDay(kOld);
  CompactionCounts n;
  auto out = Compact(On(kOld, kFeedback), kOld, &a, &n);
  ASSERT_TRUE(out.has_value());
  EXPECT_EQ(*out, R"({"kind":"feedback","id":"00000000-0000-7000-8000-000000000001",)"
                  R"("timestamp":"2025-09-01T10:00:00.000Z","sessionId":"s","reviewerId":"jake",)"
                  R"("freeText":{"_extractedThemes":["error-handling"],"_sentiment":0.1},)"
                  R"("annotations":[{"type":"criticism","target":{},"text":"retry"}],)"
                  R"("meta":{"timeToDecisionMs":40000,"timeOfDay":"morning","dayOfWeek":"monday",)"
                  R"("sessionFatigue":1}})");
  EXPECT_EQ(n.free_text, 1u);
  EXPECT_EQ(n.annotations, 1u);
  EXPECT_EQ(n.behavior, 1u);
  // Idempotent: the compacted event compacts to itself.
  CompactionCounts again;
  EXPECT_FALSE(Compact(*out, kOld, &a, &again).has_value());
  EXPECT_FALSE(again.any());
}

TEST(RetentionTest, BehavioralMetaIsAveragedPerDayThenStrippedAfter30Days) {
  BehaviorAggregates a;
  std::string second = On(kMonthOld, kFeedback);
  second.replace(second.find("000000000001"), 12, "000000000002");
  second.replace(second.find("40000"), 5, "10001");
  Doc d1(On(kMonthOld, kFeedback)), d2(second);
  a.Fold(kMonthOld, d1.e);
  a.Fold(kMonthOld, d2.e);
  a.Fold(kMonthOld, d1.e);  // the same id again: counted once
  a.FinishDay(kMonthOld);
  ASSERT_EQ(a.WrittenMean(kMonthOld), 25001);  // round((40000 + 10001) / 2)
  const BehaviorDay& day = a.days().at(kMonthOld);
  EXPECT_EQ(day.reviews, 2u);
  EXPECT_EQ(day.device_type.at("desktop"), 2u);
  EXPECT_DOUBLE_EQ(day.scroll_depth.sum, 1.0);
  CompactionCounts n;
  auto out = Compact(second, kMonthOld, &a, &n);
  ASSERT_TRUE(out.has_value());
  // Within 90 days: free text and annotations stay; the meta is stripped.
  EXPECT_NE(out->find(R"("liked":"clean")"), std::string::npos);
  EXPECT_NE(out->find(R"("meta":{"timeToDecisionMs":25001,"timeOfDay":"morning")"),
            std::string::npos)
      << *out;
  EXPECT_EQ(out->find("scrollDepth"), std::string::npos);
  EXPECT_EQ(n.behavior, 1u);
  EXPECT_EQ(n.free_text, 0u);
}

TEST(RetentionTest, AggregatesSurviveTheirJsonAndKeepTheWrittenMean) {
  BehaviorAggregates a;
  Doc d(On(kMonthOld, kFeedback));
  a.Fold(kMonthOld, d.e);
  a.FinishDay(kMonthOld);
  auto back = BehaviorAggregates::Parse(a.Json());
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->Json(), a.Json());
  EXPECT_EQ(back->WrittenMean(kMonthOld), 40000);
  EXPECT_FALSE(back->changed());
  back->Fold(kMonthOld, d.e);  // already folded
  EXPECT_FALSE(back->changed());
  EXPECT_FALSE(BehaviorAggregates::Parse("[1]").ok());
}

TEST(RetentionTest, OldCorrectionsLoseTheirTextsAndKeepTypeAndCategory) {
  const std::string correction =
      R"({"kind":"correction","id":"00000000-0000-7000-8000-000000000003",)"
      R"("timestamp":"2025-09-01T10:00:00.000Z","session_id":"cs","correction_type":"tone_mismatch",)"
      R"("original":"Hey guys","corrected":"Hello team","user_id":"jordan","_category":"style"})";
  BehaviorAggregates a;
  CompactionCounts n;
  auto out = Compact(correction, kOld, &a, &n);
  ASSERT_TRUE(out.has_value());
  EXPECT_EQ(out->find("Hey guys"), std::string::npos);
  EXPECT_EQ(out->find("Hello team"), std::string::npos);
  EXPECT_NE(out->find(R"("correction_type":"tone_mismatch")"), std::string::npos);
  EXPECT_NE(out->find(R"("_category":"style")"), std::string::npos);
  EXPECT_EQ(n.corrections, 1u);
  CompactionCounts again;
  EXPECT_FALSE(Compact(*out, kOld, &a, &again).has_value());
}

}  // namespace
}  // namespace kaizen::ingest
