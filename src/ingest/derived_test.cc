#include "ingest/derived.h"

#include <gtest/gtest.h>
#include <simdjson.h>

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace kaizen::ingest {
namespace {

// A stored feedback event. `server` empty: no mcpServerType; `decision` empty: no decision;
// `scores` is the JSON array text or empty; `delta` the _predictionDelta.
std::string Feedback(std::string_view id, std::string_view ts, std::string_view server,
                     std::string_view stage, std::string_view decision, std::string_view scores,
                     std::optional<double> delta = std::nullopt, int decision_ms = 1000) {
  std::string s = std::string(R"({"kind":"feedback","id":")") + std::string(id) +
                  R"(","timestamp":")" + std::string(ts) + R"(","sessionId":"s1","modalId":"m")";
  if (!server.empty()) s += R"(,"mcpServerType":")" + std::string(server) + "\"";
  s += R"(,"workProduct":{"id":"wp"},"pipelineStage":")" + std::string(stage) + "\"";
  if (!decision.empty()) s += R"(,"decision":{"decision":")" + std::string(decision) + "\"}";
  if (!scores.empty()) s += R"(,"scores":)" + std::string(scores);
  s += R"(,"meta":{"timeToDecisionMs":)" + std::to_string(decision_ms) +
       R"(,"timeOfDay":"morning","dayOfWeek":"monday","sessionFatigue":1})";
  if (delta) s += R"(,"_predictionDelta":)" + std::to_string(*delta);
  return s + "}";
}

std::string Outcome(std::string_view id, std::string_view ts, bool success) {
  return std::string(R"({"kind":"outcome","id":")") + std::string(id) + R"(","timestamp":")" +
         std::string(ts) + R"(","bead_id":"b","duration_ms":1,"error_count":0,"retry_count":0,)" +
         R"("success":)" + (success ? "true" : "false") + "}";
}

std::string Reward(std::string_view id, std::string_view ts, std::string_view type, double value) {
  return std::string(R"({"kind":"reward","id":")") + std::string(id) + R"(","timestamp":")" +
         std::string(ts) + R"(","signal_type":")" + std::string(type) +
         R"(","source":"automatic","signal_value":)" + std::to_string(value) + "}";
}

std::string Correction(std::string_view id, std::string_view ts, std::string_view type) {
  return std::string(R"({"kind":"correction","id":")") + std::string(id) + R"(","timestamp":")" +
         std::string(ts) + R"(","session_id":"s","correction_type":")" + std::string(type) +
         R"(","original":"a","corrected":"b"})";
}

void AddAll(DerivedBuilder& b, const std::vector<std::string>& events) {
  simdjson::dom::parser parser;
  for (const std::string& e : events) {
    simdjson::dom::element doc;
    ASSERT_EQ(parser.parse(e).get(doc), simdjson::SUCCESS) << e;
    b.Add(doc);
  }
}

std::set<std::string> FilesUnder(const std::map<std::string, std::string>& files,
                                 std::string_view dir) {
  std::set<std::string> out;
  for (const auto& [path, content] : files) {
    if (path.starts_with(dir)) out.insert(path.substr(dir.size()));
  }
  return out;
}

// One week of mixed events (2025-07-07 is a Monday, ISO week 28).
std::vector<std::string> Sample() {
  return {
      Feedback("f1", "2025-07-07T10:00:00.000Z", "shopify", "build", "approved",
               R"([{"dimension":"code-quality","score":8},{"dimension":"dx","score":6.4}])", 1.0,
               1000),
      Feedback("f2", "2025-07-08T10:00:00.000Z", "stripe", "build", "rejected",
               R"([{"dimension":"code-quality","score":4}])", -2.0, 3000),
      Outcome("o1", "2025-07-08T11:00:00.000Z", true),
      Feedback("f3", "2025-07-09T10:00:00.000Z", "", "review", "approved", "", std::nullopt, 2000),
      Outcome("o2", "2025-07-10T11:00:00.000Z", false),
      Reward("r1", "2025-07-10T12:00:00.000Z", "ci_result", 1.0),
      Reward("r2", "2025-07-11T12:00:00.000Z", "ci_result", 0.0),
      Reward("r3", "2025-07-11T13:00:00.000Z", "satisfaction", 0.75),
      Correction("c1", "2025-07-12T09:00:00.000Z", "tone_mismatch"),
      Correction("c2", "2025-07-13T23:59:59.999Z", "tone_mismatch"),
  };
}

// ---- Indexes ---------------------------------------------------------------------------------

TEST(Derived, ByServerTypeGroupsFeedbackIdsWithNoneForMissing) {
  DerivedBuilder b;
  AddAll(b, Sample());
  EXPECT_EQ(b.Files().at("feedback/indexes/by-server-type.json"),
            R"js({"(none)":{"count":1,"ids":["f3"]},"shopify":{"count":1,"ids":["f1"]},)js"
            R"("stripe":{"count":1,"ids":["f2"]}})"
            "\n");
}

TEST(Derived, ByDecisionGroupsFeedbackIds) {
  DerivedBuilder b;
  AddAll(b, Sample());
  EXPECT_EQ(b.Files().at("feedback/indexes/by-decision.json"),
            R"({"approved":{"count":2,"ids":["f1","f3"]},"rejected":{"count":1,"ids":["f2"]}})"
            "\n");
}

TEST(Derived, ByStageGroupsFeedbackIds) {
  DerivedBuilder b;
  AddAll(b, Sample());
  EXPECT_EQ(b.Files().at("feedback/indexes/by-stage.json"),
            R"({"build":{"count":2,"ids":["f1","f2"]},"review":{"count":1,"ids":["f3"]}})"
            "\n");
}

TEST(Derived, ByDimensionHasCountMeanHistogramAndIds) {
  DerivedBuilder b;
  AddAll(b, Sample());
  EXPECT_EQ(b.Files().at("feedback/indexes/by-dimension.json"),
            R"({"code-quality":{"count":2,"mean":6.0,"histogram":[0,0,0,1,0,0,0,1,0,0],)"
            R"("ids":["f1","f2"]},)"
            R"("dx":{"count":1,"mean":6.4,"histogram":[0,0,0,0,0,1,0,0,0,0],"ids":["f1"]}})"
            "\n");
}

TEST(Derived, HistogramRoundsScoresToTheNearestBucket) {
  DerivedBuilder b;
  AddAll(b, {Feedback("a", "2025-07-07T10:00:00.000Z", "s", "p", "",
                      R"([{"dimension":"dx","score":1},{"dimension":"naming","score":10}])"),
             Feedback("b", "2025-07-07T11:00:00.000Z", "s", "p", "",
                      R"([{"dimension":"dx","score":1.4},{"dimension":"naming","score":9.5}])")});
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  ASSERT_EQ(parser.parse(b.Files().at("feedback/indexes/by-dimension.json")).get(doc),
            simdjson::SUCCESS);
  std::vector<uint64_t> dx, naming;
  for (auto v : doc["dx"]["histogram"].get_array()) dx.push_back(v.get_uint64().value());
  for (auto v : doc["naming"]["histogram"].get_array()) naming.push_back(v.get_uint64().value());
  EXPECT_EQ(dx, (std::vector<uint64_t>{2, 0, 0, 0, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(naming, (std::vector<uint64_t>{0, 0, 0, 0, 0, 0, 0, 0, 0, 2}));
  // A feedback without a decision is in no decision group.
  EXPECT_EQ(b.Files().at("feedback/indexes/by-decision.json"), "{}\n");
}

// `"decision": null` passes validation (null means "not given") and is stored as written, so the
// fold must treat it like an absent decision.
TEST(Derived, FeedbackWithNullDecisionIsInNoDecisionGroup) {
  std::string event = Feedback("a", "2025-07-07T10:00:00.000Z", "s", "p", "", "");
  event.insert(event.size() - 1, R"(,"decision":null)");
  DerivedBuilder b;
  AddAll(b, {event});
  EXPECT_EQ(b.events(), 1u);
  EXPECT_EQ(b.Files().at("feedback/indexes/by-decision.json"), "{}\n");
  EXPECT_TRUE(b.all_time().decisions.empty());
}

TEST(Derived, OnlyFeedbackIsIndexed) {
  DerivedBuilder b;
  AddAll(b, {Outcome("o", "2025-07-07T10:00:00.000Z", true),
             Correction("c", "2025-07-07T10:00:00.000Z", "t")});
  auto files = b.Files();
  EXPECT_EQ(files.at("feedback/indexes/by-server-type.json"), "{}\n");
  EXPECT_EQ(files.at("feedback/indexes/by-stage.json"), "{}\n");
  EXPECT_EQ(files.at("feedback/indexes/by-dimension.json"), "{}\n");
  EXPECT_EQ(b.events(), 2u);
}

TEST(Derived, EventWithUnparsableTimestampIsSkipped) {
  DerivedBuilder b;
  AddAll(b, {Outcome("o", "yesterday", true)});
  EXPECT_EQ(b.events(), 0u);
  EXPECT_TRUE(b.all_time().events_by_kind.empty());
}

// ---- Period files ------------------------------------------------------------------------------

TEST(Derived, WeeklyFilesFollowIsoWeeks) {
  DerivedBuilder b;
  AddAll(b, {Outcome("a", "2025-01-01T12:00:00.000Z", true),    // Wednesday: 2025-W01
             Outcome("b", "2024-12-30T00:00:00.000Z", true),    // Monday: 2025-W01
             Outcome("c", "2021-01-03T23:59:59.999Z", true),    // Sunday: 2020-W53
             Outcome("d", "2025-07-11T09:30:00.000Z", true),    // seed 000's 2025-W28
             Outcome("e", "2025-07-13T23:59:59.999Z", true),    // Sunday: still 2025-W28
             Outcome("f", "2025-07-14T00:00:00.000Z", true),    // Monday: 2025-W29
             Outcome("g", "2026-12-31T00:00:00.000Z", true)});  // Thursday: 2026-W53
  auto files = b.Files();
  EXPECT_EQ(FilesUnder(files, "feedback/aggregates/weekly/"),
            (std::set<std::string>{"2020-W53.json", "2025-W01.json", "2025-W28.json",
                                   "2025-W29.json", "2026-W53.json"}));
  simdjson::dom::parser parser;
  simdjson::dom::element w01;
  ASSERT_EQ(parser.parse(files.at("feedback/aggregates/weekly/2025-W01.json")).get(w01),
            simdjson::SUCCESS);
  EXPECT_EQ(w01["period"].get_string().value(), "2025-W01");
  EXPECT_EQ(w01["outcomes"]["n"].get_uint64().value(), 2u);
  EXPECT_EQ(w01["from"].get_string().value(), "2024-12-30T00:00:00.000Z");
  EXPECT_EQ(w01["to"].get_string().value(), "2025-01-01T12:00:00.000Z");
}

TEST(Derived, MonthlyFilesAreNamedYearDashMonth) {
  DerivedBuilder b;
  AddAll(b, {Outcome("a", "2025-01-01T00:00:00.000Z", true),
             Outcome("b", "2024-12-31T23:59:59.999Z", false),
             Outcome("c", "2025-01-31T10:00:00.000Z", true)});
  auto files = b.Files();
  EXPECT_EQ(FilesUnder(files, "feedback/aggregates/monthly/"),
            (std::set<std::string>{"2024-12.json", "2025-01.json"}));
  simdjson::dom::parser parser;
  simdjson::dom::element jan;
  ASSERT_EQ(parser.parse(files.at("feedback/aggregates/monthly/2025-01.json")).get(jan),
            simdjson::SUCCESS);
  EXPECT_EQ(jan["period"].get_string().value(), "2025-01");
  EXPECT_EQ(jan["outcomes"]["n"].get_uint64().value(), 2u);
  EXPECT_DOUBLE_EQ(jan["outcomes"]["successRate"].get_double().value(), 1.0);
}

TEST(Derived, FileSetIsIndexesPeriodsAndRolling) {
  DerivedBuilder b;
  AddAll(b, Sample());
  std::set<std::string> paths;
  for (const auto& [path, content] : b.Files()) {
    paths.insert(path);
    ASSERT_FALSE(content.empty()) << path;
    EXPECT_EQ(content.back(), '\n') << path;
  }
  EXPECT_EQ(paths,
            (std::set<std::string>{
                "feedback/aggregates/monthly/2025-07.json", "feedback/aggregates/rolling-30d.json",
                "feedback/aggregates/weekly/2025-W28.json", "feedback/indexes/by-decision.json",
                "feedback/indexes/by-dimension.json", "feedback/indexes/by-server-type.json",
                "feedback/indexes/by-stage.json"}));
}

TEST(Derived, Rolling30dCoversThirtyUtcDaysEndingAtTheNewestEvent) {
  DerivedBuilder b;
  // Log order is not time order: the newest event comes first.
  AddAll(b, {Outcome("newest", "2025-07-31T12:00:00.000Z", true),
             Outcome("day1", "2025-07-02T00:00:00.000Z", true),      // 29 days before: in
             Outcome("day0", "2025-07-01T23:59:59.999Z", false),     // 30 days before: out
             Outcome("minus31", "2025-06-30T12:00:00.000Z", false),  // 31 days before: out
             Outcome("mid", "2025-07-15T12:00:00.000Z", true)});
  PeriodStats r = b.Rolling30d();
  EXPECT_EQ(r.outcomes, 3u);
  EXPECT_EQ(r.outcome_successes, 3u);
  EXPECT_EQ(r.first_timestamp, "2025-07-02T00:00:00.000Z");
  EXPECT_EQ(r.last_timestamp, "2025-07-31T12:00:00.000Z");
  EXPECT_EQ(b.all_time().outcomes, 5u);

  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  ASSERT_EQ(parser.parse(b.Files().at("feedback/aggregates/rolling-30d.json")).get(doc),
            simdjson::SUCCESS);
  EXPECT_EQ(doc["period"].get_string().value(), "rolling-30d");
  EXPECT_EQ(doc["events"]["outcome"].get_uint64().value(), 3u);
  EXPECT_DOUBLE_EQ(doc["outcomes"]["successRate"].get_double().value(), 1.0);
}

TEST(Derived, Rolling30dOfNothingIsEmpty) {
  DerivedBuilder b;
  PeriodStats r = b.Rolling30d();
  EXPECT_TRUE(r.events_by_kind.empty());
  EXPECT_EQ(r.outcomes, 0u);
  auto files = b.Files();
  EXPECT_EQ(files.at("feedback/aggregates/rolling-30d.json"),
            R"({"period":"rolling-30d","from":"","to":"","events":{},"decisions":{},)"
            R"("approvalRate":null,"avgQualityScore":null,"avgTimeToDecisionMs":null,)"
            R"("predictionAccuracy":null,"byDimension":{},"outcomes":{"n":0,"successRate":null},)"
            R"("rewards":{},"corrections":{}})"
            "\n");
  EXPECT_TRUE(FilesUnder(files, "feedback/aggregates/weekly/").empty());
}

TEST(Derived, FilesAreIdenticalWhenBuiltTwiceFromTheSameEvents) {
  DerivedBuilder a, b;
  AddAll(a, Sample());
  AddAll(b, Sample());
  EXPECT_EQ(a.Files(), b.Files());
  EXPECT_EQ(a.Files(), a.Files());
}

TEST(Derived, PeriodJsonHasApprovalRateQualityScoreAndPredictionAccuracy) {
  DerivedBuilder b;
  AddAll(b, Sample());
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  ASSERT_EQ(parser.parse(b.Files().at("feedback/aggregates/weekly/2025-W28.json")).get(doc),
            simdjson::SUCCESS);
  EXPECT_EQ(doc["period"].get_string().value(), "2025-W28");
  EXPECT_EQ(doc["from"].get_string().value(), "2025-07-07T10:00:00.000Z");
  EXPECT_EQ(doc["to"].get_string().value(), "2025-07-13T23:59:59.999Z");
  EXPECT_EQ(doc["events"]["feedback"].get_uint64().value(), 3u);
  EXPECT_EQ(doc["events"]["outcome"].get_uint64().value(), 2u);
  EXPECT_EQ(doc["events"]["reward"].get_uint64().value(), 3u);
  EXPECT_EQ(doc["events"]["correction"].get_uint64().value(), 2u);
  EXPECT_EQ(doc["decisions"]["approved"].get_uint64().value(), 2u);
  EXPECT_EQ(doc["decisions"]["rejected"].get_uint64().value(), 1u);
  EXPECT_DOUBLE_EQ(doc["approvalRate"].get_double().value(), 0.666667);
  EXPECT_DOUBLE_EQ(doc["avgQualityScore"].get_double().value(), 6.133333);  // (8+6.4+4)/3
  EXPECT_DOUBLE_EQ(doc["avgTimeToDecisionMs"].get_double().value(), 2000.0);
  EXPECT_DOUBLE_EQ(doc["predictionAccuracy"].get_double().value(), 1.5);  // mean |delta|
  EXPECT_EQ(doc["byDimension"]["code-quality"]["n"].get_uint64().value(), 2u);
  EXPECT_DOUBLE_EQ(doc["byDimension"]["code-quality"]["mean"].get_double().value(), 6.0);
  EXPECT_DOUBLE_EQ(doc["byDimension"]["dx"]["mean"].get_double().value(), 6.4);
  EXPECT_EQ(doc["outcomes"]["n"].get_uint64().value(), 2u);
  EXPECT_DOUBLE_EQ(doc["outcomes"]["successRate"].get_double().value(), 0.5);
  EXPECT_EQ(doc["rewards"]["ci_result"]["n"].get_uint64().value(), 2u);
  EXPECT_DOUBLE_EQ(doc["rewards"]["ci_result"]["mean"].get_double().value(), 0.5);
  EXPECT_DOUBLE_EQ(doc["rewards"]["satisfaction"]["mean"].get_double().value(), 0.75);
  EXPECT_EQ(doc["corrections"]["tone_mismatch"].get_uint64().value(), 2u);

  // The month and the rolling window hold the same events here.
  EXPECT_EQ(b.Files().at("feedback/aggregates/monthly/2025-07.json"),
            PeriodJson("2025-07", b.all_time()));
  EXPECT_EQ(b.Files().at("feedback/aggregates/rolling-30d.json"),
            PeriodJson("rolling-30d", b.all_time()));
}

TEST(Derived, PeriodJsonExactText) {
  PeriodStats s;
  s.events_by_kind = {{"feedback", 2}};
  s.decisions = {{"approved", 1}, {"rejected", 1}};
  s.scores = 2;
  s.score_sum = 15;
  s.decision_time_n = 2;
  s.decision_time_sum = 3000;
  s.prediction_n = 1;
  s.prediction_abs_error_sum = 0.5;
  s.dimension_sums = {{"dx", {2, 15.0}}};
  s.rewards = {{"merge_outcome", {4, 3.0}}};
  s.corrections = {{"formatting", 3}};
  s.first_timestamp = "2025-07-07T10:00:00.000Z";
  s.last_timestamp = "2025-07-08T10:00:00.000Z";
  EXPECT_EQ(PeriodJson("2025-W28", s),
            R"({"period":"2025-W28","from":"2025-07-07T10:00:00.000Z",)"
            R"("to":"2025-07-08T10:00:00.000Z","events":{"feedback":2},)"
            R"("decisions":{"approved":1,"rejected":1},"approvalRate":0.5,)"
            R"("avgQualityScore":7.5,"avgTimeToDecisionMs":1500.0,"predictionAccuracy":0.5,)"
            R"("byDimension":{"dx":{"n":2,"mean":7.5}},"outcomes":{"n":0,"successRate":null},)"
            R"("rewards":{"merge_outcome":{"n":4,"mean":0.75}},"corrections":{"formatting":3}})"
            "\n");
}

TEST(Derived, ApprovalRateCountsOnlyApprovedAmongDecisions) {
  DerivedBuilder b;
  AddAll(b, {Feedback("a", "2025-07-07T10:00:00.000Z", "s", "p", "needs-work", ""),
             Feedback("b", "2025-07-07T11:00:00.000Z", "s", "p", "deferred", ""),
             Feedback("c", "2025-07-07T12:00:00.000Z", "s", "p", "approved", ""),
             Feedback("d", "2025-07-07T13:00:00.000Z", "s", "p", "", "")});
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  ASSERT_EQ(parser.parse(PeriodJson("all", b.all_time())).get(doc), simdjson::SUCCESS);
  EXPECT_DOUBLE_EQ(doc["approvalRate"].get_double().value(), 0.333333);
  EXPECT_TRUE(doc["avgQualityScore"].is_null());
  EXPECT_TRUE(doc["predictionAccuracy"].is_null());
}

}  // namespace
}  // namespace kaizen::ingest
