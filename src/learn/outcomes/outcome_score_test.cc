#include "learn/outcomes/outcome_score.h"

#include <gtest/gtest.h>

namespace kaizen::learn {
namespace {

constexpr double kMinute = 60'000;

model::OutcomeView Outcome(bool success, double duration_ms, int64_t errors, int64_t retries) {
  model::OutcomeView o;
  o.success = success;
  o.duration_ms = duration_ms;
  o.error_count = errors;
  o.retry_count = retries;
  return o;
}

TEST(OutcomeScore, FastCleanSuccessScoresOne) {
  const OutcomeScore s = ScoreOutcome(Outcome(true, 3 * kMinute, 0, 0), OutcomeConfig{});
  EXPECT_EQ(s.raw_hundredths, 100);
  EXPECT_EQ(s.raw_score, 1.0);
  EXPECT_EQ(s.duration_score, 1.0);
  EXPECT_EQ(s.error_score, 1.0);
  EXPECT_EQ(s.retry_score, 1.0);
  EXPECT_EQ(s.type, FeedbackType::kHelpful);
}

TEST(OutcomeScore, ExactlyFiveMinutesIsMedium) {
  const OutcomeConfig c;
  EXPECT_EQ(ScoreOutcome(Outcome(true, 5 * kMinute - 1, 0, 0), c).duration_score, 1.0);
  EXPECT_EQ(ScoreOutcome(Outcome(true, 5 * kMinute, 0, 0), c).duration_score, 0.6);
}

TEST(OutcomeScore, ExactlyThirtyMinutesIsMedium) {
  const OutcomeConfig c;
  EXPECT_EQ(ScoreOutcome(Outcome(true, 30 * kMinute, 0, 0), c).duration_score, 0.6);
  EXPECT_EQ(ScoreOutcome(Outcome(true, 30 * kMinute + 1, 0, 0), c).duration_score, 0.2);
}

TEST(OutcomeScore, ErrorBandsUpToMaxErrorsForHelpfulAreNeutral) {
  const OutcomeConfig c;
  EXPECT_EQ(ScoreOutcome(Outcome(true, 0, 0, 0), c).error_score, 1.0);
  EXPECT_EQ(ScoreOutcome(Outcome(true, 0, 1, 0), c).error_score, 0.6);
  EXPECT_EQ(ScoreOutcome(Outcome(true, 0, 2, 0), c).error_score, 0.6);
  EXPECT_EQ(ScoreOutcome(Outcome(true, 0, 3, 0), c).error_score, 0.2);
  OutcomeConfig strict;
  strict.max_errors_for_helpful = 0;
  EXPECT_EQ(ScoreOutcome(Outcome(true, 0, 1, 0), strict).error_score, 0.2);
}

TEST(OutcomeScore, RetryBands) {
  const OutcomeConfig c;
  EXPECT_EQ(ScoreOutcome(Outcome(true, 0, 0, 0), c).retry_score, 1.0);
  EXPECT_EQ(ScoreOutcome(Outcome(true, 0, 0, 1), c).retry_score, 0.7);
  EXPECT_EQ(ScoreOutcome(Outcome(true, 0, 0, 2), c).retry_score, 0.3);
  EXPECT_EQ(ScoreOutcome(Outcome(true, 0, 0, 9), c).retry_score, 0.3);
}

TEST(OutcomeScore, NegativeCountsScoreAsZero) {
  const OutcomeScore s = ScoreOutcome(Outcome(true, 0, -1, -2), OutcomeConfig{});
  EXPECT_EQ(s.error_score, 1.0);
  EXPECT_EQ(s.retry_score, 1.0);
}

// 0.4 + 1.0*0.2 + 0.2*0.2 + 0.3*0.2 and 0.4 + 0.2*0.2 + 0.6*0.2 + 0.7*0.2 are both exactly 0.7.
TEST(OutcomeScore, ExactlyPointSevenIsHelpful) {
  const OutcomeConfig c;
  const OutcomeScore a = ScoreOutcome(Outcome(true, 1 * kMinute, 3, 2), c);
  EXPECT_EQ(a.raw_hundredths, 70);
  EXPECT_EQ(a.raw_score, 0.7);
  EXPECT_EQ(a.type, FeedbackType::kHelpful);
  const OutcomeScore b = ScoreOutcome(Outcome(true, 31 * kMinute, 1, 1), c);
  EXPECT_EQ(b.raw_hundredths, 70);
  EXPECT_EQ(b.type, FeedbackType::kHelpful);
}

TEST(OutcomeScore, BelowPointSevenIsNeutral) {
  // 0.4 + 0.2*0.2 + 0.2*0.2 + 1.0*0.2 = 0.68
  const OutcomeScore s = ScoreOutcome(Outcome(true, 31 * kMinute, 3, 0), OutcomeConfig{});
  EXPECT_EQ(s.raw_hundredths, 68);
  EXPECT_EQ(s.type, FeedbackType::kNeutral);
}

// With the seed's component scores no outcome scores exactly 0.4: failures score (d+e+r)*0.2,
// and the nearest are 0.38 and 0.44.
TEST(OutcomeScore, PointThreeEightIsHarmfulPointFourFourNeutral) {
  const OutcomeConfig c;
  const OutcomeScore low = ScoreOutcome(Outcome(false, 10 * kMinute, 0, 2), c);  // .6+1+.3
  EXPECT_EQ(low.raw_hundredths, 38);
  EXPECT_EQ(low.type, FeedbackType::kHarmful);
  const OutcomeScore high = ScoreOutcome(Outcome(false, 10 * kMinute, 1, 0), c);  // .6+.6+1
  EXPECT_EQ(high.raw_hundredths, 44);
  EXPECT_EQ(high.type, FeedbackType::kNeutral);
}

TEST(OutcomeScore, FailureIsNeverHelpful) {
  const OutcomeScore s = ScoreOutcome(Outcome(false, 0, 0, 0), OutcomeConfig{});
  EXPECT_EQ(s.raw_hundredths, 60);
  EXPECT_EQ(s.type, FeedbackType::kNeutral);
}

// In naive double arithmetic 0.4 + 0.6*0.2 + 1.0*0.2 + 1.0*0.2 is 0.9199999999999999 and
// 1.0*0.2 + 0.2*0.2 + 1.0*0.2 is 0.44000000000000006: each would miss its threshold.
TEST(OutcomeScore, ThresholdOnAnExactScoreIsNotFlippedByRounding) {
  OutcomeConfig c;
  c.helpful_threshold = 0.92;
  EXPECT_EQ(ScoreOutcome(Outcome(true, 10 * kMinute, 0, 0), c).type, FeedbackType::kHelpful);
  OutcomeConfig h;
  h.harmful_threshold = 0.44;
  const OutcomeScore s = ScoreOutcome(Outcome(false, 0, 3, 0), h);
  EXPECT_EQ(s.raw_hundredths, 44);
  EXPECT_EQ(s.type, FeedbackType::kHarmful);
  h.harmful_threshold = 0.6;
  EXPECT_EQ(ScoreOutcome(Outcome(false, 0, 0, 0), h).type, FeedbackType::kHarmful);
}

TEST(OutcomeScore, TypeNames) {
  EXPECT_EQ(FeedbackTypeName(FeedbackType::kHelpful), "helpful");
  EXPECT_EQ(FeedbackTypeName(FeedbackType::kNeutral), "neutral");
  EXPECT_EQ(FeedbackTypeName(FeedbackType::kHarmful), "harmful");
}

TEST(OutcomeConfig, FieldsNameEveryThresholdWithSeedDefaults) {
  OutcomeConfig c;
  const ConfigFields fields = c.Fields();
  ASSERT_EQ(fields.size(), 19u);
  for (const ConfigField& f : fields) {
    EXPECT_EQ(f.name.substr(0, 9), "outcomes.") << f.name;
    EXPECT_GE(*f.value, f.min) << f.name;
    EXPECT_LE(*f.value, f.max) << f.name;
    EXPECT_FALSE(f.doc.empty()) << f.name;
  }
  EXPECT_EQ(fields[0].name, "outcomes.half_life_days");
  EXPECT_EQ(*fields[0].value, 90);
  *fields[0].value = 30;
  EXPECT_EQ(c.half_life_days, 30);
}

}  // namespace
}  // namespace kaizen::learn
