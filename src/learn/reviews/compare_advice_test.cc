#include "learn/reviews/compare_advice.h"

#include <gtest/gtest.h>

namespace kaizen::learn {
namespace {

ApprovalResult Decided(std::string_view task_type, int approved, int rejected) {
  ApprovalLearner learner;
  for (int i = 0; i < approved + rejected; ++i) {
    model::ReviewView r;
    r.server_type = task_type;
    r.decision = i < approved ? model::Decision::kApproved : model::Decision::kRejected;
    learner.Add(r);
  }
  return learner.Result();
}

TEST(CompareAdvice, OneVersionWhenNoTriggerFires) {
  const CompareAdvice a = AdviseComparison(CompareConfig{}, CalibrationCurve(CalibrationConfig{}),
                                           Decided("api", 9, 1), {"api", 0.9, 1});
  EXPECT_FALSE(a.compare);
  EXPECT_TRUE(a.reasons.empty());
  EXPECT_EQ(a.calibrated_confidence, 0.9);  // no bucket holds pairs yet: raw is kept
  EXPECT_EQ(a.approved, 9);
  EXPECT_EQ(a.decided, 10);
}

TEST(CompareAdvice, EachOfTheSeedsThreeTriggersSaysCompare) {
  const CalibrationCurve curve{CalibrationConfig{}};
  const CompareAdvice low =
      AdviseComparison(CompareConfig{}, curve, Decided("api", 9, 1), {"api", 0.6, 1});
  EXPECT_TRUE(low.compare && low.low_confidence);
  EXPECT_EQ(low.reasons, std::vector<std::string>{"calibrated confidence 60% is under 65%"});
  const CompareAdvice two =
      AdviseComparison(CompareConfig{}, curve, Decided("api", 9, 1), {"api", std::nullopt, 2});
  EXPECT_TRUE(two.compare && two.several_approaches && !two.low_confidence);
  const CompareAdvice mixed =
      AdviseComparison(CompareConfig{}, curve, Decided("api", 4, 4), {"api", 0.9, 1});
  EXPECT_TRUE(mixed.compare && mixed.mixed_preferences);
  EXPECT_EQ(mixed.reasons, std::vector<std::string>{
                               "reviewers were split on api: 4 of 8 decided reviews approved"});
}

TEST(CompareAdvice, TooFewOrOneSidedReviewsAreNotMixed) {
  const CalibrationCurve curve{CalibrationConfig{}};
  EXPECT_FALSE(
      AdviseComparison(CompareConfig{}, curve, Decided("api", 2, 3), {"api", 0.9, 1}).compare);
  EXPECT_FALSE(
      AdviseComparison(CompareConfig{}, curve, Decided("api", 8, 2), {"api", 0.9, 1}).compare);
  EXPECT_FALSE(
      AdviseComparison(CompareConfig{}, curve, Decided("web", 4, 4), {"api", 0.9, 1}).compare);
}

}  // namespace
}  // namespace kaizen::learn
