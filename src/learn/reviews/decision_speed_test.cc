#include "learn/reviews/decision_speed.h"

#include <gtest/gtest.h>

#include <string>

#include "model/timestamp.h"

namespace kaizen::learn {
namespace {

const int64_t kDay = model::DaysFromCivil(2025, 7, 11) * model::kMsPerDay;  // 2025-07-11T00:00:00Z

model::ReviewView Review(model::Decision d, double ms, int64_t at = kDay,
                         std::string_view id = "f1") {
  model::ReviewView r;
  r.id = id;
  r.at_ms = at;
  r.decision = d;
  r.time_to_decision_ms = ms;
  r.task_type = "shopify";
  r.work.artifact_id = "srv-1";
  r.reason = "no retries";
  return r;
}

std::string Json(const DecisionSpeedResult& r) {
  rapidjson::StringBuffer buf;
  base::JsonWriter w(buf);
  WriteJson(w, r);
  return buf.GetString();
}

TEST(DecisionSpeed, ExactlyThirtySecondsAndExactlyFiveMinutesAreMedium) {
  DecisionSpeedLearner l{SpeedConfig{}};
  EXPECT_EQ(l.Classify(0), Speed::kFast);
  EXPECT_EQ(l.Classify(29'999), Speed::kFast);
  EXPECT_EQ(l.Classify(30'000), Speed::kMedium);
  EXPECT_EQ(l.Classify(300'000), Speed::kMedium);
  EXPECT_EQ(l.Classify(300'001), Speed::kSlow);
}

TEST(DecisionSpeed, EmptyHasNoShare) {
  DecisionSpeedLearner l{SpeedConfig{}};
  DecisionSpeedResult r = l.Result();
  EXPECT_EQ(r.decided, 0);
  EXPECT_FALSE(r.fast_rejection_share.has_value());
  EXPECT_EQ(Json(r), R"({"fastSeconds":30.0,"slowSeconds":300.0,"decided":0,"quadrants":{)"
                     R"("fast":{"approved":0,"rejected":0},"medium":{"approved":0,"rejected":0},)"
                     R"("slow":{"approved":0,"rejected":0}},)"
                     R"("fastRejections":{"count":0,"share":null,"recent":[]}})");
}

TEST(DecisionSpeed, QuadrantsCountNeedsWorkAsRejectionAndSkipDeferred) {
  DecisionSpeedLearner l{SpeedConfig{}};
  l.Add(Review(model::Decision::kApproved, 10'000));
  l.Add(Review(model::Decision::kRejected, 10'000));
  l.Add(Review(model::Decision::kNeedsWork, 29'999));
  l.Add(Review(model::Decision::kRejected, 30'000));
  l.Add(Review(model::Decision::kApproved, 400'000));
  l.Add(Review(model::Decision::kDeferred, 1'000));
  l.Add(Review(model::Decision::kNone, 1'000));
  DecisionSpeedResult r = l.Result();
  EXPECT_EQ(r.decided, 5);
  EXPECT_EQ(r.quadrants[0].approved, 1);
  EXPECT_EQ(r.quadrants[0].rejected, 2);
  EXPECT_EQ(r.quadrants[1].rejected, 1);
  EXPECT_EQ(r.quadrants[2].approved, 1);
  EXPECT_EQ(r.fast_rejections, 2);
  EXPECT_EQ(r.rejections, 3);
  EXPECT_NEAR(*r.fast_rejection_share, 2.0 / 3, 1e-12);
  EXPECT_EQ(r.recent.size(), 2u);
}

TEST(DecisionSpeed, KeepsTheNewestFastRejectionsNewestFirst) {
  SpeedConfig config;
  config.recent_fast_rejections = 2;
  DecisionSpeedLearner l{config};
  l.Add(Review(model::Decision::kRejected, 1'000, kDay + 3'000, "c"));
  l.Add(Review(model::Decision::kRejected, 1'000, kDay + 1'000, "a"));  // older than c: logged late
  l.Add(Review(model::Decision::kRejected, 1'000, kDay + 3'000, "d"));  // ties c, later in the log
  l.Add(Review(model::Decision::kRejected, 1'000, kDay + 2'000, "b"));  // older than both kept
  l.Add(Review(model::Decision::kRejected, 60'000, kDay + 9'000, "slow"));
  DecisionSpeedResult r = l.Result();
  ASSERT_EQ(r.recent.size(), 2u);
  EXPECT_EQ(r.recent[0].id, "d");
  EXPECT_EQ(r.recent[1].id, "c");
  EXPECT_EQ(r.fast_rejections, 4);
}

TEST(DecisionSpeed, ListsTwentyByDefault) {
  DecisionSpeedLearner l{SpeedConfig{}};
  std::vector<std::string> ids;
  for (int i = 0; i < 25; ++i) ids.push_back("f" + std::to_string(i));
  for (int i = 0; i < 25; ++i) l.Add(Review(model::Decision::kRejected, 5'000, kDay + i, ids[i]));
  DecisionSpeedResult r = l.Result();
  ASSERT_EQ(r.recent.size(), 20u);
  EXPECT_EQ(r.recent.front().id, "f24");
  EXPECT_EQ(r.recent.back().id, "f5");
}

TEST(DecisionSpeed, JsonCarriesTheFastRejectionsWhole) {
  DecisionSpeedLearner l{SpeedConfig{}};
  model::ReviewView r = Review(model::Decision::kNeedsWork, 12'000, kDay + 9 * 3'600'000);
  std::vector<std::string_view> blockers = {"missing retry", "no tests"};
  r.blockers = blockers;
  l.Add(r);
  l.Add(Review(model::Decision::kApproved, 45'000));
  EXPECT_EQ(Json(l.Result()),
            R"({"fastSeconds":30.0,"slowSeconds":300.0,"decided":2,"quadrants":{)"
            R"("fast":{"approved":0,"rejected":1},"medium":{"approved":1,"rejected":0},)"
            R"("slow":{"approved":0,"rejected":0}},)"
            R"("fastRejections":{"count":1,"share":1.0,"recent":[{"id":"f1",)"
            R"("at":"2025-07-11T09:00:00.000Z","taskType":"shopify","artifactId":"srv-1",)"
            R"("reason":"no retries","blockers":["missing retry","no tests"]}]}})");
}

}  // namespace
}  // namespace kaizen::learn
