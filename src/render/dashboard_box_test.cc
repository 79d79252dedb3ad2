#include "render/dashboard_box.h"

#include <gtest/gtest.h>

#include <sstream>

namespace kaizen::render {
namespace {

DashboardData Fixed() {
  DashboardData d;
  d.now = "2025-06-30T12:00:00.000Z";
  d.window_days = 30;
  d.events = 3000;
  d.kpis = {
      {"approvalRate", {0.78, 0.85, 0.89}, "up", "up"},
      {"avgQualityScore", {6.2, 7.1, 7.6}, "up", "up"},
      {"timeToDecisionSeconds", {120, 85, 62}, "down", "down"},
      {"predictionError", {2.1, 1.4, 2.5}, "up", "down"},
      {"autoApproveRate", {0, 0.12, 0.28}, "up", "up"},
      {"feedbackPerWeek", {40, 42.5, 50}, "up", "down"},
      {"ruleEffectiveness", {std::nullopt, 0.4, std::nullopt}, std::nullopt, "up"},
      {"regressionRate", {0.1, 0.05, 0}, "down", "down"},
  };
  d.alerts = {
      {"warning", "prediction-accuracy", "score predictions are off by ±2.5 on average (> ±2.0)",
       "recalibrate immediately"},
      {"notice", "no-feedback", "no feedback events for 50 hours", "check pipeline health"}};
  return d;
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

int Columns(const std::string& s) {
  int n = 0;
  for (char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

TEST(DashboardBoxTest, PlainAsciiBoxHasExactLines) {
  DashboardOptions o;
  o.utf8 = false;
  // Health: approval, time, auto-approve and regressions good (4), quality and volume fair (2 x
  // 0.5), prediction poor, rule effectiveness without a newest value: 5 of 7 = 71%.
  // clang-format off
  const std::vector<std::string> expected = {
      "+------------------------------------------------------------------------------+",
      "|                          KAIZEN LEARNING DASHBOARD                           |",
      "|    2025-06-30T12:00:00.000Z - 3000 events - 30-day windows, oldest first     |",
      "+---------------------+-------------------------------+-----------+------------+",
      "| KPI                 | trend                         | now       | target     |",
      "+---------------------+-------------------------------+-----------+------------+",
      "| Approval Rate       | 78.0% -> 85.0% -> 89.0%       | 89.0% ^   | >= 85%     |",
      "| Avg Quality Score   | 6.2 -> 7.1 -> 7.6             | 7.6 ^     | >= 8.0     |",
      "| Time-to-Decision    | 120s -> 85s -> 62s            | 62s v     | v falling  |",
      "| Prediction Accuracy | +/-2.1 -> +/-1.4 -> +/-2.5    | +/-2.5 ^  | <= +/-0.5  |",
      "| Auto-Approve Rate   | 0.0% -> 12.0% -> 28.0%        | 28.0% ^   | ^ rising   |",
      "| Feedback Volume     | 40.0/wk -> 42.5/wk -> 50.0/wk | 50.0/wk ^ | v falling  |",
      "| Rule Effectiveness  | - -> +0.4 -> -                | no data   | > 0        |",
      "| Regression Rate     | 10.0% -> 5.0% -> 0.0%         | 0.0% v    | = 0        |",
      "+---------------------+-------------------------------+-----------+------------+",
      "| Overall Health      #######... 71% on target (7 KPIs with data)              |",
      "+------------------------------------------------------------------------------+",
      "| Alerts                                                                       |",
      "|   [warning] score predictions are off by +/-2.5 on average (> +/-2.0) ->     |",
      "|             recalibrate immediately                                          |",
      "|   [notice] no feedback events for 50 hours -> check pipeline health          |",
      "+------------------------------------------------------------------------------+",
  };
  // clang-format on
  EXPECT_EQ(Lines(RenderDashboardBox(Fixed(), o)), expected);
}

TEST(DashboardBoxTest, EveryLineIsEightyColumnsInBothCharsets) {
  for (bool utf8 : {false, true}) {
    DashboardOptions o;
    o.utf8 = utf8;
    for (const std::string& line : Lines(RenderDashboardBox(Fixed(), o))) {
      EXPECT_EQ(Columns(line), 80) << (utf8 ? "utf8: " : "ascii: ") << line;
    }
  }
}

TEST(DashboardBoxTest, ColorMarksStandingsAndAlertLevels) {
  DashboardOptions o;
  o.utf8 = true;
  o.color = true;
  const std::vector<std::string> lines = Lines(RenderDashboardBox(Fixed(), o));
  // clang-format off
  // Approval 89% >= 85%: green. Quality 7.6 in [6.5, 8): yellow. Prediction ±2.5 > 2.0: red.
  EXPECT_EQ(lines[6], "│ Approval Rate       │ 78.0% → 85.0% → 89.0%         │ \x1b[32m89.0% ↑\x1b[0m   │ ≥ 85%      │");
  EXPECT_EQ(lines[7], "│ Avg Quality Score   │ 6.2 → 7.1 → 7.6               │ \x1b[33m7.6 ↑\x1b[0m     │ ≥ 8.0      │");
  EXPECT_EQ(lines[9], "│ Prediction Accuracy │ ±2.1 → ±1.4 → ±2.5            │ \x1b[31m±2.5 ↑\x1b[0m    │ ≤ ±0.5     │");
  // Feedback volume rose though lower is better: yellow. No data: no color at all.
  EXPECT_NE(lines[11].find("\x1b[33m50.0/wk ↑\x1b[0m"), std::string::npos) << lines[11];
  EXPECT_EQ(lines[12].find('\x1b'), std::string::npos) << lines[12];
  EXPECT_EQ(lines[18], "│   \x1b[33m[warning]\x1b[0m score predictions are off by ±2.5 on average (> ±2.0) →          │");
  EXPECT_EQ(lines[20], "│   \x1b[38;5;208m[notice]\x1b[0m no feedback events for 50 hours → check pipeline health           │");
  // clang-format on
}

TEST(DashboardBoxTest, WithoutColorThereIsNoEscapeCode) {
  DashboardOptions o;
  o.utf8 = true;
  EXPECT_EQ(RenderDashboardBox(Fixed(), o).find('\x1b'), std::string::npos);
}

TEST(DashboardBoxTest, EscapeCodesInAlertTextAreNeutralized) {
  DashboardData d = Fixed();
  d.alerts = {{"warning", "new-rejection-reason", "reason \"\x1b[2Jboom\x07\"", "act"}};
  DashboardOptions o;
  o.utf8 = false;
  std::string box = RenderDashboardBox(d, o);
  EXPECT_EQ(box.find('\x1b'), std::string::npos);
  EXPECT_EQ(box.find('\x07'), std::string::npos);
  EXPECT_NE(box.find("reason \"?[2Jboom?\""), std::string::npos) << box;
}

TEST(DashboardBoxTest, AsciiModeHasOnlyAsciiBytes) {
  DashboardData d = Fixed();
  d.alerts[0].message += " \xe2\x80\x9cquoted\xe2\x80\x9d \xff";
  DashboardOptions o;
  o.utf8 = false;
  for (char ch : RenderDashboardBox(d, o)) EXPECT_LT(static_cast<unsigned char>(ch), 0x80);
}

TEST(DashboardBoxTest, EmptyLogSaysNoData) {
  DashboardData d;
  for (const char* key :
       {"approvalRate", "avgQualityScore", "timeToDecisionSeconds", "predictionError",
        "autoApproveRate", "feedbackPerWeek", "ruleEffectiveness", "regressionRate"}) {
    d.kpis.push_back({key, {std::nullopt, std::nullopt, std::nullopt}, std::nullopt, "up"});
  }
  DashboardOptions o;
  o.utf8 = false;
  const std::vector<std::string> lines = Lines(RenderDashboardBox(d, o));
  // clang-format off
  EXPECT_EQ(lines[6], "| Approval Rate       | - -> - -> -                   | no data   | >= 85%     |");
  EXPECT_EQ(lines[15], "| Overall Health      no data                                                  |");
  EXPECT_EQ(lines[2], "|        no time (empty log) - 0 events - 30-day windows, oldest first         |");
  EXPECT_EQ(lines[18], "|   none                                                                       |");
  // clang-format on
}

TEST(DashboardBoxTest, ManyWindowsKeepTheNewestThatFit) {
  DashboardData d = Fixed();
  d.kpis[0].values = {0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7};
  DashboardOptions o;
  o.utf8 = false;
  const std::vector<std::string> lines = Lines(RenderDashboardBox(d, o));
  // clang-format off
  EXPECT_EQ(lines[6], "| Approval Rate       | ... 50.0% -> 60.0% -> 70.0%   | 70.0% ^   | >= 85%     |");
  // clang-format on
}

TEST(DashboardBoxTest, StandingAgainstTargets) {
  DashboardTargets t;
  auto standing = [&](const char* key, double v, std::optional<std::string> trend = {},
                      const char* better = "up") {
    return KpiStanding({key, {v}, trend, better}, t);
  };
  EXPECT_EQ(standing("approvalRate", 0.85), Standing::kGood);
  EXPECT_EQ(standing("approvalRate", 0.70), Standing::kFair);
  EXPECT_EQ(standing("approvalRate", 0.69), Standing::kPoor);
  EXPECT_EQ(standing("avgQualityScore", 8.0), Standing::kGood);
  EXPECT_EQ(standing("predictionError", 0.5), Standing::kGood);
  EXPECT_EQ(standing("predictionError", 2.0), Standing::kFair);
  EXPECT_EQ(standing("predictionError", 2.01), Standing::kPoor);
  EXPECT_EQ(standing("ruleEffectiveness", 0.3), Standing::kGood);
  EXPECT_EQ(standing("ruleEffectiveness", 0), Standing::kFair);
  EXPECT_EQ(standing("ruleEffectiveness", -0.3), Standing::kPoor);
  EXPECT_EQ(standing("regressionRate", 0), Standing::kGood);
  EXPECT_EQ(standing("regressionRate", 0.05), Standing::kFair);
  EXPECT_EQ(standing("regressionRate", 0.10), Standing::kPoor);
  EXPECT_EQ(standing("timeToDecisionSeconds", 60, "down", "down"), Standing::kGood);
  EXPECT_EQ(standing("timeToDecisionSeconds", 60, "flat", "down"), Standing::kGood);
  EXPECT_EQ(standing("timeToDecisionSeconds", 60, "up", "down"), Standing::kFair);
  EXPECT_EQ(standing("timeToDecisionSeconds", 60, std::nullopt, "down"), Standing::kNone);
  EXPECT_EQ(KpiStanding({"approvalRate", {0.9, std::nullopt}, std::nullopt, "up"}, t),
            Standing::kNone)
      << "only the newest window counts";
}

// Issue 29: Rule Effectiveness was called "good" from one day of data. Below its minimum n a
// KPI's value is shown, its verdict withheld, and the reason given.
TEST(DashboardBoxTest, BelowItsMinimumNAKpiSaysNotEnoughDataInsteadOfAVerdict) {
  DashboardTargets t;
  const DashboardKpi thin{"ruleEffectiveness", {std::nullopt, 0.4}, std::nullopt, "up", {0, 1}, 7};
  EXPECT_EQ(KpiStanding(thin, t), Standing::kInsufficient);
  EXPECT_EQ(StandingText(thin, t), "not enough data (n = 1)");
  EXPECT_STREQ(StandingName(Standing::kInsufficient), "insufficient");
  DashboardKpi enough = thin;
  enough.n = {0, 7};
  EXPECT_EQ(KpiStanding(enough, t), Standing::kGood);
  // Not counted in the Overall Health: only the approval rate (good) is judged.
  EXPECT_EQ(OverallHealth({thin, {"approvalRate", {0.9}, std::nullopt, "up"}}, t), 1.0);

  DashboardData d = Fixed();
  d.kpis[6] = thin;
  DashboardOptions o;
  o.utf8 = false;
  o.color = true;
  const std::vector<std::string> lines = Lines(RenderDashboardBox(d, o));
  // clang-format off
  EXPECT_EQ(lines[12], "| Rule Effectiveness  | - -> +0.4                     | +0.4      | > 0        |")
      << "the value uncolored: no green for a verdict not given";
  EXPECT_EQ(lines[13], "|                     | not enough data (n = 1)       |           |            |");
  // clang-format on
}

// Issue 29: "no data" stood beside real values. The words agree with the value shown.
TEST(DashboardBoxTest, StandingTextAgreesWithTheValue) {
  DashboardTargets t;
  EXPECT_EQ(StandingText({"timeToDecisionSeconds", {60}, std::nullopt, "down"}, t), "no trend yet");
  EXPECT_EQ(StandingText({"timeToDecisionSeconds", {std::nullopt}, std::nullopt, "down"}, t),
            "no data");
  EXPECT_EQ(StandingText({"approvalRate", {0.9}, std::nullopt, "up", {5}, 5}, t), "good");
}

// Issue 29: scores and score points with one decimal everywhere (seed 000 §7.1 "±2.1", "+2.1").
TEST(DashboardBoxTest, ScoresAndScorePointsHaveOneDecimal) {
  EXPECT_EQ(FormatKpiValue("avgQualityScore", 6.616733, true), "6.6");
  EXPECT_EQ(FormatKpiValue("predictionError", 1.2345, true), "±1.2");
  EXPECT_EQ(FormatKpiValue("ruleEffectiveness", 0.4567, true), "+0.5");
  EXPECT_EQ(KpiTargetText("predictionError", DashboardTargets{}, true), "≤ ±0.5");
}

}  // namespace
}  // namespace kaizen::render
