#include "learn/rules/self_check.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace kaizen::learn {
namespace {

LearnedRule Rule(const std::string& theme, const std::string& severity,
                 RuleStatus status = RuleStatus::kActive, const std::string& domain = "") {
  LearnedRule r;
  r.id = "rule-" + theme;
  r.theme = theme;
  r.rule = "rule about " + theme;
  r.severity = severity;
  r.status = status;
  r.domain = domain;
  r.fix_suggestion = "fix " + theme;
  return r;
}

RuleCheck Passed(const std::string& id) { return {id, true, {}, ""}; }
RuleCheck Failed(const std::string& id) { return {id, true, {{"a.ts:3", "bad"}}, ""}; }

model::ReviewView Review(std::string_view task_type, model::Decision d,
                         std::vector<std::string_view> themes,
                         std::vector<model::ScoreView> scores) {
  model::ReviewView r;
  r.task_type = task_type;
  r.decision = d;
  r.themes = std::move(themes);
  r.scores = std::move(scores);
  return r;
}

// Everything a self-check reads, defaulted: no history, no gates, identity calibration.
struct Fixture {
  std::vector<LearnedRule> rules;
  std::vector<RuleCheck> checks;
  ReviewHistory history;
  std::vector<ScoreGate> gates;
  PreferenceConfig pref_config;
  SignalWeightConfig weights;
  PreferenceLearner preferences{pref_config, weights};
  CalibrationConfig cal_config;
  CalibrationCurve calibration{cal_config};
  SelfCheckConfig config;
  bool checked_before = false;

  void Add(const model::ReviewView& review) { history.Add(review, text::ThemeTaxonomy::Default()); }
  SelfCheckResult Run(const std::string& task_type = "api-client") {
    SelfCheckInput in;
    in.task_type = task_type;
    in.rules = &rules;
    in.checks = &checks;
    in.history = &history;
    in.gates = &gates;
    in.preferences = &preferences;
    in.calibration = &calibration;
    in.checked_before = checked_before;
    return RunSelfCheck(in, config);
  }
};

TEST(SelfCheck, NewTaskTypeWithCleanChecksUsesThePriorsAndIsReady) {
  Fixture f;
  f.rules = {Rule("retries", "major")};
  f.checks = {Passed("rule-retries")};
  SelfCheckResult r = f.Run();
  EXPECT_TRUE(r.passed);
  EXPECT_TRUE(r.ready_for_review);
  EXPECT_DOUBLE_EQ(r.score, 7.0);           // prior_score
  EXPECT_DOUBLE_EQ(r.raw_confidence, 0.7);  // (0 + 2 x 0.7) / (0 + 2)
  EXPECT_DOUBLE_EQ(r.confidence, 0.7);      // an empty curve calibrates to raw
  EXPECT_EQ(r.rules_checked, std::vector<std::string>{"rule-retries"});
  EXPECT_TRUE(r.violations.empty());
}

TEST(SelfCheck, MajorViolationFailsAndCostsScoreAndConfidence) {
  Fixture f;
  f.rules = {Rule("retries", "major")};
  f.checks = {Failed("rule-retries")};
  SelfCheckResult r = f.Run();
  EXPECT_FALSE(r.passed);
  EXPECT_FALSE(r.ready_for_review);
  ASSERT_EQ(r.violations.size(), 1u);
  EXPECT_EQ(r.violations[0].rule, "rule-retries");
  EXPECT_EQ(r.violations[0].severity, "major");
  EXPECT_EQ(r.violations[0].suggestion, "fix retries");
  ASSERT_EQ(r.violations[0].findings.size(), 1u);
  EXPECT_EQ(r.violations[0].findings[0].location, "a.ts:3");
  EXPECT_DOUBLE_EQ(r.score, 7.0 - 1.5);
  EXPECT_DOUBLE_EQ(r.raw_confidence, 0.7 * (1 - 0.35));
  EXPECT_EQ(r.reasons.front(), "a major or critical rule is violated");
}

TEST(SelfCheck, MinorViolationPassesButLowersThePrediction) {
  Fixture f;
  f.rules = {Rule("logging", "minor")};
  f.checks = {Failed("rule-logging")};
  SelfCheckResult r = f.Run();
  EXPECT_TRUE(r.passed);
  EXPECT_DOUBLE_EQ(r.score, 6.75);
  EXPECT_DOUBLE_EQ(r.raw_confidence, 0.7 * 0.95);
  EXPECT_TRUE(r.ready_for_review);  // 0.665 >= 0.60 and 6.75 >= 6.5
  EXPECT_EQ(r.decided_by, "ready");
  EXPECT_TRUE(r.triggers.empty());
}

TEST(SelfCheck, DefaultConfidenceThresholdIsSeedSectionThreeOnesSixtyPercent) {
  // §3.1 "If calibrated confidence < 60%, auto-trigger a second self-review pass"; the 65% of
  // §6.4 is the A/B comparison trigger, another rule.
  EXPECT_EQ(SelfCheckConfig{}.confidence_threshold, 0.60);
  Fixture f;
  f.rules = {Rule("logging", "moderate")};
  f.checks = {Failed("rule-logging")};
  SelfCheckResult r = f.Run();
  EXPECT_DOUBLE_EQ(r.confidence, 0.7 * 0.85);  // 0.595
  EXPECT_EQ(r.decided_by, "second_pass_due");
  f.rules = {Rule("logging", "minor")};
  EXPECT_EQ(f.Run().decided_by, "ready");  // 0.665: under 0.65, not under 0.60
}

// 3 approvals and 7 rejections with no theme a check could address: (3 + 1.4) / (10 + 2).
void LowApprovalHistory(Fixture* f) {
  for (int i = 0; i < 3; ++i) f->Add(Review("api-client", model::Decision::kApproved, {}, {}));
  for (int i = 0; i < 7; ++i) f->Add(Review("api-client", model::Decision::kRejected, {}, {}));
}

TEST(SelfCheck, CleanWorkWithLowConfidenceGetsOneSecondPassNotAGateNothingClears) {
  Fixture f;
  f.rules = {Rule("retries", "major")};
  f.checks = {Passed("rule-retries")};
  LowApprovalHistory(&f);
  SelfCheckResult first = f.Run();
  EXPECT_TRUE(first.passed);
  EXPECT_NEAR(first.confidence, 4.4 / 12, 1e-12);
  EXPECT_FALSE(first.ready_for_review);
  EXPECT_EQ(first.decided_by, "second_pass_due");
  EXPECT_EQ(first.reasons,
            std::vector<std::string>{"second self-review pass due (calibrated confidence 0.37 < "
                                     "0.60)"});
  // The same version checked again: the agent did its pass and changed nothing.
  f.checked_before = true;
  SelfCheckResult second = f.Run();
  EXPECT_TRUE(second.ready_for_review);
  EXPECT_EQ(second.decided_by, "second_pass_done");
  EXPECT_TRUE(second.checked_before);
  EXPECT_TRUE(second.reasons.empty());
  EXPECT_EQ(second.triggers, std::vector<std::string>{"calibrated confidence 0.37 < 0.60"});
  EXPECT_EQ(second.confidence, first.confidence);  // the prediction is unchanged, and recorded
}

TEST(SelfCheck, AViolationDecidesEvenOnAVersionCheckedBefore) {
  Fixture f;
  f.rules = {Rule("retries", "major")};
  f.checks = {Failed("rule-retries")};
  f.checked_before = true;
  SelfCheckResult r = f.Run();
  EXPECT_FALSE(r.ready_for_review);
  EXPECT_EQ(r.decided_by, "violation");
  EXPECT_EQ(r.reasons, std::vector<std::string>{"a major or critical rule is violated"});
}

TEST(SelfCheck, OnlyActiveRulesAreEnforced) {
  Fixture f;
  f.rules = {Rule("retries", "critical", RuleStatus::kCandidate),
             Rule("types", "critical", RuleStatus::kRetired)};
  f.checks = {Failed("rule-retries"), Failed("rule-types")};
  SelfCheckResult r = f.Run();
  EXPECT_TRUE(r.violations.empty());
  EXPECT_TRUE(r.rules_checked.empty());
  EXPECT_TRUE(r.ready_for_review);
}

TEST(SelfCheck, ActiveRuleWithoutAnAppliedCheckIsListedUnchecked) {
  Fixture f;
  f.rules = {Rule("naming", "major"), Rule("types", "major")};
  f.checks = {RuleCheck{"rule-types", false, {}, ""}};  // its glob matched no file
  SelfCheckResult r = f.Run();
  EXPECT_EQ(r.rules_unchecked, (std::vector<std::string>{"rule-naming", "rule-types"}));
  EXPECT_TRUE(r.violations.empty());
}

TEST(SelfCheck, CheckFixOverridesTheRuleSuggestionAndRecommendationsAreAutoFixableOnly) {
  Fixture f;
  f.rules = {Rule("types", "moderate"), Rule("logging", "minor")};
  f.rules[0].auto_fixable = true;
  f.checks = {Failed("rule-types"), Failed("rule-logging")};
  f.checks[0].fix = "use unknown";
  SelfCheckResult r = f.Run();
  ASSERT_EQ(r.violations.size(), 2u);
  EXPECT_EQ(r.violations[0].suggestion, "use unknown");
  EXPECT_EQ(r.recommendations, std::vector<std::string>{"use unknown"});  // §6.1 autoFixable
}

TEST(SelfCheck, HistoryShrinksScoresTowardThePrior) {
  Fixture f;
  // 5 approved reviews of 9 on one dimension: (5 x 9 + 5 x 7) / 10 = 8.
  for (int i = 0; i < 5; ++i) {
    f.Add(Review("api-client", model::Decision::kApproved, {}, {{"security", 9}}));
  }
  SelfCheckResult r = f.Run();
  EXPECT_DOUBLE_EQ(r.score, 8.0);
  EXPECT_DOUBLE_EQ(r.raw_confidence, (5 + 1.4) / 7);
  EXPECT_EQ(r.history_reviews, 5);
  // Another task type's history does not count.
  SelfCheckResult other = f.Run("web-ui");
  EXPECT_DOUBLE_EQ(other.score, 7.0);
  EXPECT_EQ(other.history_reviews, 0);
}

TEST(SelfCheck, RejectionsAddressedByPassingChecksAreLeftOut) {
  Fixture f;
  f.rules = {Rule("retries", "major")};
  for (int i = 0; i < 6; ++i) {
    f.Add(Review("api-client", model::Decision::kRejected, {"retries"}, {{"error-handling", 3}}));
  }
  f.Add(Review("api-client", model::Decision::kApproved, {}, {{"error-handling", 8}}));

  f.checks = {Failed("rule-retries")};
  SelfCheckResult failing = f.Run();
  EXPECT_EQ(failing.history_reviews, 7);
  EXPECT_EQ(failing.addressed_reviews, 0);
  EXPECT_FALSE(failing.ready_for_review);

  f.checks = {Passed("rule-retries")};
  SelfCheckResult fixed = f.Run();
  EXPECT_EQ(fixed.history_reviews, 1);
  EXPECT_EQ(fixed.addressed_reviews, 6);
  EXPECT_DOUBLE_EQ(fixed.score, (8 + 5 * 7.0) / 6);
  EXPECT_DOUBLE_EQ(fixed.raw_confidence, (1 + 1.4) / 3);
  EXPECT_TRUE(fixed.ready_for_review);
}

TEST(SelfCheck, RejectionWithAnUncheckedRuleThemeIsNotAddressed) {
  Fixture f;
  f.rules = {Rule("retries", "major"), Rule("naming", "moderate")};  // naming has no check
  f.checks = {Passed("rule-retries")};
  f.Add(Review("api-client", model::Decision::kRejected, {"naming", "retries"}, {}));
  f.Add(Review("api-client", model::Decision::kNeedsWork, {}, {}));  // no theme: never addressed
  SelfCheckResult r = f.Run();
  EXPECT_EQ(r.addressed_reviews, 0);
  EXPECT_EQ(r.history_reviews, 2);
  EXPECT_DOUBLE_EQ(r.raw_confidence, 1.4 / 4);
  EXPECT_FALSE(r.ready_for_review);
  EXPECT_NE(r.reasons.front().find("confidence 0.35 < 0.60"), std::string::npos);
}

TEST(SelfCheck, NegativeThemesThatAreNoActiveRuleDoNotBlockAddressing) {
  Fixture f;
  f.rules = {Rule("retries", "major"), Rule("logging", "minor", RuleStatus::kCandidate)};
  f.checks = {Passed("rule-retries")};
  f.Add(Review("api-client", model::Decision::kRejected, {"logging", "retries"}, {}));
  // The reason is themed through the taxonomy too: "retry" is a retries keyword.
  model::ReviewView by_reason = Review("api-client", model::Decision::kRejected, {}, {});
  by_reason.reason = "no retry on the fetch";
  f.Add(by_reason);
  SelfCheckResult r = f.Run();
  EXPECT_EQ(r.addressed_reviews, 2);
  EXPECT_EQ(r.history_reviews, 0);
}

TEST(SelfCheck, PraisedThemesAreNotComplaints) {
  Fixture f;
  f.rules = {Rule("retries", "major")};
  f.checks = {Passed("rule-retries")};
  f.Add(Review("api-client", model::Decision::kApproved, {"retries"}, {}));
  SelfCheckResult r = f.Run();
  EXPECT_EQ(r.addressed_reviews, 0);
  EXPECT_EQ(r.history_reviews, 1);
}

TEST(SelfCheck, LowPredictedScoreTriggersSelfReview) {
  Fixture f;
  for (int i = 0; i < 20; ++i) {
    f.Add(Review("api-client", model::Decision::kApproved, {}, {{"dx", 5}}));
  }
  SelfCheckResult r = f.Run();
  EXPECT_DOUBLE_EQ(r.score, (20 * 5 + 5 * 7.0) / 25);  // 5.4
  EXPECT_TRUE(r.passed);
  EXPECT_FALSE(r.ready_for_review);
  // §8.2 "must be >= 6.5 or self-review is triggered": a trigger, like low confidence.
  EXPECT_EQ(r.decided_by, "second_pass_due");
  EXPECT_EQ(r.reasons,
            std::vector<std::string>{"second self-review pass due (predicted score 5.4 < 6.5)"});
  f.checked_before = true;
  r = f.Run();
  EXPECT_TRUE(r.ready_for_review);
  EXPECT_EQ(r.decided_by, "second_pass_done");
}

TEST(SelfCheck, AGateTheHistoryAloneFailsIsNotFixableAndDoesNotDecide) {
  Fixture f;
  for (int i = 0; i < 20; ++i) {
    f.Add(Review("api-client", model::Decision::kApproved, {}, {{"error-handling", 4}}));
  }
  ScoreGate gate;
  gate.dimension = "error-handling";
  gate.threshold = 5;
  gate.kind = GateKind::kHard;
  gate.rejection_rate = 0.95;
  f.gates = {gate};
  SelfCheckResult r = f.Run();  // d = (20 x 4 + 5 x 7) / 25 = 4.6 < 5, with no violation here
  ASSERT_EQ(r.violations.size(), 1u);
  EXPECT_EQ(r.violations[0].rule, "gate-error-handling");
  EXPECT_EQ(r.violations[0].severity, "major");
  EXPECT_FALSE(r.violations[0].fixable);
  EXPECT_TRUE(r.passed);  // nothing the agent can fix
  EXPECT_NE(r.decided_by, "violation");
  f.checked_before = true;
  EXPECT_TRUE(f.Run().ready_for_review);
}

TEST(SelfCheck, PredictedDimensionUnderAHardGateIsAMajorViolation) {
  Fixture f;
  f.rules = {Rule("error-handling", "moderate", RuleStatus::kActive, "error-handling")};
  f.checks = {Failed("rule-error-handling")};
  for (int i = 0; i < 5; ++i) {
    f.Add(Review("api-client", model::Decision::kApproved, {}, {{"error-handling", 7}}));
  }
  ScoreGate gate;
  gate.dimension = "error-handling";
  gate.threshold = 7;
  gate.kind = GateKind::kHard;
  gate.rejection_rate = 0.96;
  f.gates = {gate};
  SelfCheckResult r = f.Run();
  // d = 7 - 0.5 (the moderate violation in its domain) = 6.5 < 7.
  ASSERT_EQ(r.violations.size(), 2u);
  EXPECT_EQ(r.violations[1].rule, "gate-error-handling");
  EXPECT_EQ(r.violations[1].severity, "major");
  EXPECT_TRUE(r.violations[1].fixable);  // the work's own violation pushes it under
  EXPECT_FALSE(r.passed);
  EXPECT_EQ(r.decided_by, "violation");
  EXPECT_DOUBLE_EQ(r.score, 7 - 0.5 - 1.5);  // the dimension's penalty is paid once

  f.checks = {Passed("rule-error-handling")};
  EXPECT_TRUE(f.Run().violations.empty());  // 7 is not below 7
}

TEST(SelfCheck, ScoreIsClampedToTheScale) {
  Fixture f;
  for (const char* t : {"a", "b", "c", "d"}) {
    f.rules.push_back(Rule(t, "critical"));
    f.checks.push_back(Failed(std::string("rule-") + t));
  }
  SelfCheckResult r = f.Run();
  EXPECT_DOUBLE_EQ(r.score, 1.0);
  EXPECT_GE(r.raw_confidence, 0.0);
}

TEST(SelfCheck, ConfigFieldsAreNamedUnderCheck) {
  SelfCheckConfig c;
  ConfigFields fields = c.Fields();
  ASSERT_FALSE(fields.empty());
  for (const ConfigField& field : fields) {
    EXPECT_EQ(field.name.substr(0, 6), "check.") << field.name;
    EXPECT_GE(*field.value, field.min) << field.name;
    EXPECT_LE(*field.value, field.max) << field.name;
  }
}

TEST(SelfCheck, JsonHasTheSeedMembers) {
  Fixture f;
  f.rules = {Rule("retries", "major")};
  f.checks = {Failed("rule-retries")};
  SelfCheckResult r = f.Run();
  rapidjson::StringBuffer b;
  base::JsonWriter w(b);
  w.StartObject();
  WriteJsonMembers(w, r);
  w.EndObject();
  const std::string json = b.GetString();
  for (const char* key : {"\"passed\":false", "\"score\":5.5", "\"confidence\":0.455",
                          "\"violations\":[{\"rule\":\"rule-retries\"", "\"recommendations\":[]",
                          "\"readyForReview\":false", "\"decidedBy\":\"violation\"",
                          "\"fixable\":true", "\"checkedBefore\":false"}) {
    EXPECT_NE(json.find(key), std::string::npos) << key << " in " << json;
  }
}

}  // namespace
}  // namespace kaizen::learn
