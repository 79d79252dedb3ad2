#include "learn/kpis/kpis.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace kaizen::learn {
namespace {

constexpr int64_t kDay = model::kMsPerDay;
constexpr int64_t kNow = 1753056000000 + 12 * 3600 * 1000;  // 2025-07-21T12:00:00Z

model::ReviewView Review(int64_t at_ms, model::Decision d, double score = 7, double seconds = 60,
                         std::optional<double> delta = std::nullopt) {
  model::ReviewView r;
  r.at_ms = at_ms;
  r.decision = d;
  r.scores.push_back({"code-quality", score});
  r.time_to_decision_ms = seconds * 1000;
  r.prediction_delta = delta;
  return r;
}

const KpiValue& Kpi(const KpiResult& r, std::string_view name) {
  for (const KpiValue& k : r.kpis) {
    if (k.name == name) return k;
  }
  ADD_FAILURE() << "no KPI " << name;
  return r.kpis.front();
}

// The messages of the alerts raised for `condition`.
std::vector<std::string> AlertMessages(const KpiResult& r, std::string_view condition) {
  std::vector<std::string> out;
  for (const Alert& a : r.alerts) {
    if (a.condition == condition) out.push_back(a.message);
  }
  return out;
}

bool HasAlert(const KpiResult& r, std::string_view condition) {
  for (const Alert& a : r.alerts) {
    if (a.condition == condition) return true;
  }
  return false;
}

TEST(KpiTracker, EmptyInputHasNullValuesAndOnlyTheNoFeedbackNotice) {
  KpiTracker t{KpiConfig()};
  KpiResult r = t.Result(kNow, {}, {});
  ASSERT_EQ(r.kpis.size(), 8u);
  EXPECT_FALSE(Kpi(r, "approvalRate").values[2].has_value());
  EXPECT_DOUBLE_EQ(*Kpi(r, "feedbackPerWeek").values[2], 0);
  ASSERT_EQ(r.alerts.size(), 1u);
  EXPECT_EQ(r.alerts[0].condition, "no-feedback");
  EXPECT_EQ(r.alerts[0].level, "notice");
}

TEST(KpiTracker, ThreeThirtyDayWindowsEndOnNowsDayAndShowTheTrend) {
  KpiTracker t{KpiConfig()};
  // Window 1 (60-89 days ago): 1 of 2 approved; window 2: 2 of 2; window 3: 3 of 4.
  t.Add(Review(kNow - 70 * kDay, model::Decision::kApproved, 5));
  t.Add(Review(kNow - 70 * kDay, model::Decision::kRejected, 3));
  t.Add(Review(kNow - 40 * kDay, model::Decision::kApproved, 7));
  t.Add(Review(kNow - 40 * kDay, model::Decision::kApproved, 7));
  t.Add(Review(kNow - 1 * kDay, model::Decision::kApproved, 9));
  t.Add(Review(kNow - 1 * kDay, model::Decision::kApproved, 9));
  t.Add(Review(kNow, model::Decision::kApproved, 9));
  t.Add(Review(kNow, model::Decision::kNeedsWork, 5));
  t.Add(Review(kNow, model::Decision::kDeferred, 5));  // not a decision
  KpiResult r = t.Result(kNow, {}, {});
  const KpiValue& approval = Kpi(r, "approvalRate");
  EXPECT_DOUBLE_EQ(*approval.values[0], 0.5);
  EXPECT_DOUBLE_EQ(*approval.values[1], 1.0);
  EXPECT_DOUBLE_EQ(*approval.values[2], 0.75);
  EXPECT_EQ(approval.n, (std::vector<uint64_t>{2, 2, 4}));
  // 2 and 4 decided reviews: below the 5 a judged window needs, so no trend (the values stand).
  EXPECT_FALSE(approval.trend.has_value());
  const KpiValue& quality = Kpi(r, "avgQualityScore");
  EXPECT_DOUBLE_EQ(*quality.values[0], 4);
  EXPECT_DOUBLE_EQ(*quality.values[2], (9 + 9 + 9 + 5 + 5) / 5.0);
  EXPECT_EQ(quality.n, (std::vector<uint64_t>{2, 2, 5}));
  EXPECT_FALSE(quality.trend.has_value());
  EXPECT_DOUBLE_EQ(*Kpi(r, "feedbackPerWeek").values[2], 5 * 7 / 30.0);
  EXPECT_EQ(r.windows.back().second, model::DayOf(kNow));
  EXPECT_EQ(r.windows.front().first, model::DayOf(kNow) - 89);
}

TEST(KpiTracker, ATrendNeedsTheMinimumNInBothWindows) {
  KpiTracker t{KpiConfig()};
  // 5 decided reviews 40 days ago (4 approved), 5 yesterday (all approved): a trend up.
  for (int i = 0; i < 5; ++i) {
    t.Add(
        Review(kNow - 40 * kDay, i < 4 ? model::Decision::kApproved : model::Decision::kRejected));
    t.Add(Review(kNow - kDay, model::Decision::kApproved));
  }
  EXPECT_EQ(Kpi(t.Result(kNow, {}, {}), "approvalRate").trend, "up");
  EXPECT_EQ(Kpi(t.Result(kNow, {}, {}), "approvalRate").min_n, 5u);
  // One review fewer in the older window: its 4 are too few to compare with.
  KpiTracker thin{KpiConfig()};
  for (int i = 0; i < 5; ++i) {
    if (i < 4) thin.Add(Review(kNow - 40 * kDay, model::Decision::kApproved));
    thin.Add(Review(kNow - kDay, model::Decision::kApproved));
  }
  const KpiResult r = thin.Result(kNow, {}, {});
  const KpiValue& approval = Kpi(r, "approvalRate");
  EXPECT_DOUBLE_EQ(*approval.values[1], 1.0);
  EXPECT_EQ(approval.n[1], 4u);
  EXPECT_FALSE(approval.trend.has_value());
}

TEST(KpiTracker, EveryKpiHasAMinimumNFromTheSeeds) {
  KpiResult r = KpiTracker{KpiConfig()}.Result(kNow, {}, {});
  for (const KpiValue& k : r.kpis) {
    EXPECT_GE(k.min_n, 5u) << k.name;
    EXPECT_EQ(k.n.size(), 3u) << k.name;
    EXPECT_FALSE(k.n_unit.empty()) << k.name;
  }
  EXPECT_EQ(Kpi(r, "avgQualityScore").min_n, 20u);
  EXPECT_EQ(Kpi(r, "ruleEffectiveness").min_n, 7u);
}

// The dashboard's charts: the KPI's own 30-day window, rolled back a week at a time, so the
// chart's last point is the value the card shows.
TEST(KpiTracker, RollingWindowsStepBackByTheStepAndTheNewestIsTheKpiWindow) {
  KpiTracker t{KpiConfig()};
  for (int d = 0; d < 60; ++d) t.Add(Review(kNow - d * kDay, model::Decision::kApproved));
  const KpiResult rolling = t.Result(kNow, {}, {}, 30, 13, 7);
  ASSERT_EQ(rolling.windows.size(), 13u);
  EXPECT_EQ(rolling.windows.back(), std::make_pair(model::DayOf(kNow) - 29, model::DayOf(kNow)));
  EXPECT_EQ(rolling.windows[11], std::make_pair(model::DayOf(kNow) - 36, model::DayOf(kNow) - 7));
  const KpiResult own = t.Result(kNow, {}, {});
  EXPECT_DOUBLE_EQ(*Kpi(rolling, "feedbackPerWeek").values.back(),
                   *Kpi(own, "feedbackPerWeek").values.back());
  EXPECT_DOUBLE_EQ(*Kpi(rolling, "feedbackPerWeek").values.back(), 30 * 7 / 30.0);
  // 8 weeks back the window (days -85..-56) holds the 4 oldest days only.
  EXPECT_EQ(Kpi(rolling, "feedbackPerWeek").n[4], 4u);
}

TEST(KpiTracker, ReviewsOutOfDayOrderCountOnTheirOwnDays) {
  // The tracker finds the day fast when the log runs in day order; a review of an earlier day
  // that comes later (clock skew between writers) still lands in its own window.
  KpiTracker t{KpiConfig()};
  t.Add(Review(kNow - 1 * kDay, model::Decision::kApproved, 9));
  t.Add(Review(kNow - 40 * kDay, model::Decision::kRejected, 3));
  t.Add(Review(kNow - 1 * kDay, model::Decision::kRejected, 5));
  t.Add(Review(kNow - 70 * kDay, model::Decision::kApproved, 5));
  t.Add(Review(kNow - 40 * kDay, model::Decision::kApproved, 7));
  KpiResult r = t.Result(kNow, {}, {});
  const KpiValue& approval = Kpi(r, "approvalRate");
  EXPECT_DOUBLE_EQ(*approval.values[0], 1.0);
  EXPECT_DOUBLE_EQ(*approval.values[1], 0.5);
  EXPECT_DOUBLE_EQ(*approval.values[2], 0.5);
  EXPECT_DOUBLE_EQ(*Kpi(r, "avgQualityScore").values[2], (9 + 5) / 2.0);
}

TEST(KpiTracker, ReasonsDifferingOnlyInCaseSpacingAndTrailingPunctuationAreOne) {
  KpiTracker t{KpiConfig()};
  for (std::string_view reason :
       {"  Missing retry logic!", "missing\tretry   LOGIC;", "Missing retry logic..", "   "}) {
    model::ReviewView r = Review(kNow - kDay, model::Decision::kRejected);
    r.reason = reason;
    t.Add(r);
  }
  const std::vector<std::string> alerts =
      AlertMessages(t.Result(kNow, {}, {}), "new-rejection-reason");
  ASSERT_EQ(alerts.size(), 1u)
      << "three spellings of one reason, seen three times; a blank is none";
  EXPECT_NE(alerts[0].find("Missing retry logic!"), std::string::npos) << alerts[0];
}

TEST(KpiTracker, AutoApproveAndRegressionRatesComeFromTheDelegationDays) {
  KpiTracker t{KpiConfig()};
  std::map<int64_t, DelegationDayCounts> days;
  days[model::DayOf(kNow)] = {10, 4, 8, 2};
  days[model::DayOf(kNow) - 31] = {5, 0, 0, 0};
  std::vector<RuleIntroduction> rules = {
      {kNow - 2 * kDay, 1.5, 2}, {kNow - 3 * kDay, 0.5, 1}, {kNow - 45 * kDay, std::nullopt}};
  KpiResult r = t.Result(kNow, days, rules);
  EXPECT_DOUBLE_EQ(*Kpi(r, "autoApproveRate").values[2], 0.4);
  EXPECT_DOUBLE_EQ(*Kpi(r, "autoApproveRate").values[1], 0.0);
  EXPECT_FALSE(Kpi(r, "regressionRate").values[1].has_value());
  EXPECT_DOUBLE_EQ(*Kpi(r, "regressionRate").values[2], 0.25);
  EXPECT_DOUBLE_EQ(*Kpi(r, "ruleEffectiveness").values[2], 1.0);
  // n: the days of scores after the introductions, 2 + 1 (a rule without a delta counts none).
  EXPECT_EQ(Kpi(r, "ruleEffectiveness").n, (std::vector<uint64_t>{0, 0, 3}));
  EXPECT_FALSE(Kpi(r, "ruleEffectiveness").values[1].has_value());
  EXPECT_EQ(Kpi(r, "autoApproveRate").n, (std::vector<uint64_t>{0, 5, 10}));
  EXPECT_EQ(Kpi(r, "regressionRate").n, (std::vector<uint64_t>{0, 0, 8}));
}

TEST(KpiTracker, ApprovalDropOfMoreThanTenPointsWeekOverWeekIsCritical) {
  KpiTracker t{KpiConfig()};
  for (int i = 0; i < 10; ++i) t.Add(Review(kNow - 10 * kDay, model::Decision::kApproved));  // 100%
  for (int i = 0; i < 10; ++i) {
    t.Add(Review(kNow - 1 * kDay,
                 i < 8 ? model::Decision::kApproved : model::Decision::kRejected));  // 80%
  }
  KpiResult r = t.Result(kNow, {}, {});
  ASSERT_TRUE(HasAlert(r, "approval-drop"));
  EXPECT_EQ(r.alerts[0].level, "critical");
}

TEST(KpiTracker, ADropOfExactlyTenPointsIsNotAnAlert) {
  KpiTracker t{KpiConfig()};
  for (int i = 0; i < 10; ++i) t.Add(Review(kNow - 10 * kDay, model::Decision::kApproved));
  for (int i = 0; i < 10; ++i) {
    t.Add(Review(kNow - 1 * kDay,
                 i < 9 ? model::Decision::kApproved : model::Decision::kRejected));  // 90%
  }
  EXPECT_FALSE(HasAlert(t.Result(kNow, {}, {}), "approval-drop"));
}

TEST(KpiTracker, AWeekWithFewDecisionsRaisesNoApprovalAlert) {
  KpiTracker t{KpiConfig()};
  for (int i = 0; i < 4; ++i) t.Add(Review(kNow - 10 * kDay, model::Decision::kApproved));
  for (int i = 0; i < 10; ++i) t.Add(Review(kNow - 1 * kDay, model::Decision::kRejected));
  EXPECT_FALSE(HasAlert(t.Result(kNow, {}, {}), "approval-drop"));
}

TEST(KpiTracker, PredictionErrorAboveTwoIsAWarning) {
  KpiTracker t{KpiConfig()};
  for (int i = 0; i < 5; ++i) {
    t.Add(Review(kNow - kDay, model::Decision::kApproved, 7, 60, i % 2 == 0 ? 2.5 : -2.5));
  }
  EXPECT_TRUE(HasAlert(t.Result(kNow, {}, {}), "prediction-accuracy"));
  KpiTracker exact{KpiConfig()};
  for (int i = 0; i < 5; ++i)
    exact.Add(Review(kNow - kDay, model::Decision::kApproved, 7, 60, 2.0));
  EXPECT_FALSE(HasAlert(exact.Result(kNow, {}, {}), "prediction-accuracy"));
}

TEST(KpiTracker, ANewRejectionReasonSeenThreeTimesIsAWarning) {
  KpiTracker t{KpiConfig()};
  for (int i = 0; i < 3; ++i) {
    model::ReviewView r = Review(kNow - kDay, model::Decision::kRejected);
    r.reason = i == 0 ? "Missing retry logic." : "missing  RETRY logic";
    t.Add(r);
  }
  model::ReviewView old = Review(kNow - 60 * kDay, model::Decision::kRejected);
  old.blockers = {"No tests"};
  t.Add(old);
  t.Add(old);
  t.Add(old);
  const std::vector<std::string> alerts =
      AlertMessages(t.Result(kNow, {}, {}), "new-rejection-reason");
  ASSERT_EQ(alerts.size(), 1u) << "the old reason is not new";
  EXPECT_NE(alerts[0].find("Missing retry logic."), std::string::npos) << alerts[0];
}

TEST(KpiTracker, RisingTimeToDecisionIsANotice) {
  KpiTracker t{KpiConfig()};
  t.Add(Review(kNow - 70 * kDay, model::Decision::kApproved, 7, 30));
  t.Add(Review(kNow - 40 * kDay, model::Decision::kApproved, 7, 60));
  t.Add(Review(kNow - kDay, model::Decision::kApproved, 7, 90));
  EXPECT_TRUE(HasAlert(t.Result(kNow, {}, {}), "time-to-decision-increasing"));
  t.Add(Review(kNow - kDay, model::Decision::kApproved, 7, 1));  // window 3 mean falls to 45.5
  EXPECT_FALSE(HasAlert(t.Result(kNow, {}, {}), "time-to-decision-increasing"));
}

TEST(KpiTracker, SilenceOfFortyEightHoursIsANotice) {
  KpiTracker t{KpiConfig()};
  t.Add(Review(kNow - 48 * 3600 * 1000, model::Decision::kApproved));
  EXPECT_TRUE(HasAlert(t.Result(kNow, {}, {}), "no-feedback"));
  EXPECT_FALSE(HasAlert(t.Result(kNow - 1, {}, {}), "no-feedback"));
}

}  // namespace
}  // namespace kaizen::learn
