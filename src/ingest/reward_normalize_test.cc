#include "ingest/reward_normalize.h"

#include <gtest/gtest.h>
#include <simdjson.h>

#include <cmath>
#include <optional>
#include <string>
#include <string_view>

namespace kaizen::ingest {
namespace {

// NormalizeReward on `raw_json`, parsed as a JSON value.
Result<double> Normalize(std::string_view type, std::string_view raw_json,
                         std::optional<double> baseline = std::nullopt) {
  static simdjson::dom::parser parser;
  simdjson::dom::element raw;
  auto err = parser.parse(raw_json.data(), raw_json.size()).get(raw);
  EXPECT_EQ(err, simdjson::SUCCESS) << raw_json;
  return NormalizeReward(type, raw, baseline);
}

// The normalized value, or NaN (which fails every EXPECT_DOUBLE_EQ) with the error printed.
double Value(std::string_view type, std::string_view raw_json,
             std::optional<double> baseline = std::nullopt) {
  auto r = Normalize(type, raw_json, baseline);
  EXPECT_TRUE(r.ok()) << type << " " << raw_json << ": " << r.status().message();
  return r.ok() ? r.value() : std::nan("");
}

bool Refused(std::string_view type, std::string_view raw_json,
             std::optional<double> baseline = std::nullopt) {
  auto r = Normalize(type, raw_json, baseline);
  if (r.ok()) return false;
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  EXPECT_FALSE(r.status().message().empty());
  return true;
}

// ---- ci_result: pass/fail -> 1.0 / 0.0 -------------------------------------------------------

TEST(RewardNormalize, CiResultPassIsOneFailIsZero) {
  EXPECT_DOUBLE_EQ(Value("ci_result", R"("pass")"), 1.0);
  EXPECT_DOUBLE_EQ(Value("ci_result", R"("fail")"), 0.0);
}

TEST(RewardNormalize, CiResultAcceptsPassedFailedSuccessFailure) {
  EXPECT_DOUBLE_EQ(Value("ci_result", R"("passed")"), 1.0);
  EXPECT_DOUBLE_EQ(Value("ci_result", R"("failed")"), 0.0);
  EXPECT_DOUBLE_EQ(Value("ci_result", R"("success")"), 1.0);
  EXPECT_DOUBLE_EQ(Value("ci_result", R"("failure")"), 0.0);
}

TEST(RewardNormalize, CiResultAcceptsJsonBooleans) {
  EXPECT_DOUBLE_EQ(Value("ci_result", "true"), 1.0);
  EXPECT_DOUBLE_EQ(Value("ci_result", "false"), 0.0);
}

TEST(RewardNormalize, CiResultRefusesOtherValuesStatingTheRule) {
  auto r = Normalize("ci_result", R"("flaky")");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "must be pass or fail for signal_type ci_result");
  EXPECT_TRUE(Refused("ci_result", "1"));
  EXPECT_TRUE(Refused("ci_result", R"("PASS")"));
  EXPECT_TRUE(Refused("ci_result", "null"));
}

// ---- coverage_delta: -100..+100 -> 0..1, 0.5 = no change -------------------------------------

TEST(RewardNormalize, CoverageDeltaMapsMinusHundredToZeroZeroToHalfPlusHundredToOne) {
  EXPECT_DOUBLE_EQ(Value("coverage_delta", "-100"), 0.0);
  EXPECT_DOUBLE_EQ(Value("coverage_delta", "0"), 0.5);
  EXPECT_DOUBLE_EQ(Value("coverage_delta", "100"), 1.0);
}

TEST(RewardNormalize, CoverageDeltaIsLinearInBetween) {
  EXPECT_DOUBLE_EQ(Value("coverage_delta", "50"), 0.75);
  EXPECT_DOUBLE_EQ(Value("coverage_delta", "-25"), 0.375);
  EXPECT_DOUBLE_EQ(Value("coverage_delta", "2.5"), 0.5125);
}

TEST(RewardNormalize, CoverageDeltaOutsideTheRangeIsRefused) {
  auto r = Normalize("coverage_delta", "150");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            "must be a number in -100..100 (percentage points) for coverage_delta");
  EXPECT_TRUE(Refused("coverage_delta", "-100.5"));
  EXPECT_TRUE(Refused("coverage_delta", R"("5")"));
}

// ---- merge_outcome: merged/closed/reverted -> 1 / 0.5 / 0 ------------------------------------

TEST(RewardNormalize, MergeOutcomeMergedClosedReverted) {
  EXPECT_DOUBLE_EQ(Value("merge_outcome", R"("merged")"), 1.0);
  EXPECT_DOUBLE_EQ(Value("merge_outcome", R"("closed")"), 0.5);
  EXPECT_DOUBLE_EQ(Value("merge_outcome", R"("reverted")"), 0.0);
}

TEST(RewardNormalize, MergeOutcomeRefusesOtherValues) {
  auto r = Normalize("merge_outcome", R"("open")");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            "must be merged, closed or reverted for signal_type merge_outcome");
  EXPECT_TRUE(Refused("merge_outcome", "true"));
  EXPECT_TRUE(Refused("merge_outcome", "1"));
}

// ---- satisfaction (and the other 1..5 ratings): 0 / .25 / .5 / .75 / 1 -----------------------

TEST(RewardNormalize, SatisfactionOneToFiveMapsToQuarterSteps) {
  EXPECT_DOUBLE_EQ(Value("satisfaction", "1"), 0.0);
  EXPECT_DOUBLE_EQ(Value("satisfaction", "2"), 0.25);
  EXPECT_DOUBLE_EQ(Value("satisfaction", "3"), 0.5);
  EXPECT_DOUBLE_EQ(Value("satisfaction", "4"), 0.75);
  EXPECT_DOUBLE_EQ(Value("satisfaction", "5"), 1.0);
}

TEST(RewardNormalize, SatisfactionAcceptsAWholeDecimal) {
  EXPECT_DOUBLE_EQ(Value("satisfaction", "4.0"), 0.75);
}

TEST(RewardNormalize, SatisfactionRefusesZeroSixAndFractions) {
  auto r = Normalize("satisfaction", "0");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "must be an integer rating 1..5 for signal_type satisfaction");
  EXPECT_TRUE(Refused("satisfaction", "6"));
  EXPECT_TRUE(Refused("satisfaction", "2.5"));
  EXPECT_TRUE(Refused("satisfaction", R"("5")"));
}

TEST(RewardNormalize, OtherOneToFiveRatingsUseTheSameScale) {
  EXPECT_DOUBLE_EQ(Value("session_productivity", "3"), 0.5);
  EXPECT_DOUBLE_EQ(Value("handoff_clarity", "5"), 1.0);
  auto r = Normalize("handoff_clarity", "7");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "must be an integer rating 1..5 for signal_type handoff_clarity");
}

// ---- approach_correctness: yes/no -> 1 / 0 ---------------------------------------------------

TEST(RewardNormalize, ApproachCorrectnessYesNo) {
  EXPECT_DOUBLE_EQ(Value("approach_correctness", R"("yes")"), 1.0);
  EXPECT_DOUBLE_EQ(Value("approach_correctness", R"("y")"), 1.0);
  EXPECT_DOUBLE_EQ(Value("approach_correctness", "true"), 1.0);
  EXPECT_DOUBLE_EQ(Value("approach_correctness", R"("no")"), 0.0);
  EXPECT_DOUBLE_EQ(Value("approach_correctness", R"("n")"), 0.0);
  EXPECT_DOUBLE_EQ(Value("approach_correctness", "false"), 0.0);
  EXPECT_TRUE(Refused("approach_correctness", R"("pass")"));
}

// ---- iteration_count: N -> 1/N ---------------------------------------------------------------

TEST(RewardNormalize, IterationCountIsOneOverN) {
  EXPECT_DOUBLE_EQ(Value("iteration_count", "1"), 1.0);
  EXPECT_DOUBLE_EQ(Value("iteration_count", "2"), 0.5);
  EXPECT_DOUBLE_EQ(Value("iteration_count", "4"), 0.25);
  EXPECT_DOUBLE_EQ(Value("iteration_count", "3"), 1.0 / 3.0);
}

TEST(RewardNormalize, IterationCountRefusesZeroNegativeAndFractions) {
  auto r = Normalize("iteration_count", "0");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "must be an integer >= 1 for signal_type iteration_count");
  EXPECT_TRUE(Refused("iteration_count", "-2"));
  EXPECT_TRUE(Refused("iteration_count", "1.5"));
}

// ---- time_efficiency: min(1, baseline / seconds) ---------------------------------------------

TEST(RewardNormalize, TimeEfficiencyIsBaselineOverSecondsCappedAtOne) {
  EXPECT_DOUBLE_EQ(Value("time_efficiency", "60", 30.0), 0.5);
  EXPECT_DOUBLE_EQ(Value("time_efficiency", "120", 30.0), 0.25);
  EXPECT_DOUBLE_EQ(Value("time_efficiency", "30", 30.0), 1.0);
  EXPECT_DOUBLE_EQ(Value("time_efficiency", "10", 30.0), 1.0);  // faster than baseline: capped
  EXPECT_DOUBLE_EQ(Value("time_efficiency", "45", 9.0), 0.2);
}

TEST(RewardNormalize, TimeEfficiencyWithoutBaselineIsRefused) {
  auto r = Normalize("time_efficiency", "60");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            "time_efficiency needs baseline_seconds > 0 to normalize against");
  EXPECT_TRUE(Refused("time_efficiency", "60", 0.0));
}

TEST(RewardNormalize, TimeEfficiencyRefusesNonPositiveSeconds) {
  auto r = Normalize("time_efficiency", "0", 30.0);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "must be a number of seconds > 0 for time_efficiency");
  EXPECT_TRUE(Refused("time_efficiency", "-5", 30.0));
  EXPECT_TRUE(Refused("time_efficiency", R"("fast")", 30.0));
}

// ---- HasNormalization ------------------------------------------------------------------------

TEST(RewardNormalize, HasNormalizationForEveryTypeInTheTable) {
  for (std::string_view t :
       {"ci_result", "coverage_delta", "merge_outcome", "satisfaction", "session_productivity",
        "handoff_clarity", "approach_correctness", "iteration_count", "time_efficiency"}) {
    EXPECT_TRUE(HasNormalization(t)) << t;
  }
}

TEST(RewardNormalize, HasNoNormalizationForUnknownTypes) {
  EXPECT_FALSE(HasNormalization(""));
  EXPECT_FALSE(HasNormalization("vibes"));
  EXPECT_FALSE(HasNormalization("CI_RESULT"));
  EXPECT_FALSE(HasNormalization("ci_result "));
  EXPECT_FALSE(HasNormalization("human_edit"));
}

}  // namespace
}  // namespace kaizen::ingest
