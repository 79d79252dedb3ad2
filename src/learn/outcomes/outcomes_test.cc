#include "learn/outcomes/outcomes.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace kaizen::learn {
namespace {

constexpr int64_t kNow = 1733961600000;  // 2024-12-12T00:00:00Z
constexpr int64_t kDay = model::kMsPerDay;
constexpr double kMinute = 60'000;

// Outcomes with known implicit scores (seed 002 "Weighted Score Calculation").
enum class Kind {
  kHelpful,         // success, 1 min, no errors, no retries: 1.0
  kHarmful,         // failure, 10 min, no errors, 2 retries: 0.2 + 0.12 + 0.06 = 0.38
  kNeutralFailure,  // failure, 1 min, no errors, no retries: 0.6
  kNeutralSuccess,  // success, 31 min, 3 errors, 2 retries: 0.4 + 0.04 + 0.04 + 0.06 = 0.54
};

model::OutcomeView Make(Kind kind, int64_t at_ms, std::string_view bead = "bd-1") {
  model::OutcomeView o;
  o.at_ms = at_ms;
  o.bead_id = bead;
  switch (kind) {
    case Kind::kHelpful:
      o.success = true;
      o.duration_ms = 1 * kMinute;
      break;
    case Kind::kHarmful:
      o.duration_ms = 10 * kMinute;
      o.retry_count = 2;
      break;
    case Kind::kNeutralFailure:
      o.duration_ms = 1 * kMinute;
      break;
    case Kind::kNeutralSuccess:
      o.success = true;
      o.duration_ms = 31 * kMinute;
      o.error_count = 3;
      o.retry_count = 2;
      break;
  }
  return o;
}

void AddCriterion(OutcomeLearner& l, std::string_view criterion, Kind kind, int64_t at_ms,
                  int times = 1) {
  for (int i = 0; i < times; ++i) {
    model::OutcomeView o = Make(kind, at_ms);
    o.criteria = {criterion};
    l.Add(o);
  }
}

void AddPattern(OutcomeLearner& l, std::string_view pattern, Kind kind, int64_t at_ms,
                int times = 1) {
  for (int i = 0; i < times; ++i) {
    model::OutcomeView o = Make(kind, at_ms);
    o.patterns = {pattern};
    l.Add(o);
  }
}

template <typename T>
std::string Json(const T& value) {
  rapidjson::StringBuffer buffer;
  base::JsonWriter w(buffer);
  WriteJson(w, value);
  return buffer.GetString();
}

PatternResult OnlyPattern(const OutcomeLearner& l, int64_t now_ms = kNow) {
  auto patterns = l.Patterns(now_ms);
  EXPECT_EQ(patterns.size(), 1u);
  return patterns.empty() ? PatternResult{} : patterns[0];
}

CriterionResult OnlyCriterion(const OutcomeLearner& l, int64_t now_ms = kNow) {
  auto criteria = l.Criteria(now_ms);
  EXPECT_EQ(criteria.size(), 1u);
  return criteria.empty() ? CriterionResult{} : criteria[0];
}

TEST(OutcomeLearner, NoOutcomesNoResults) {
  OutcomeLearner l{OutcomeConfig{}};
  EXPECT_TRUE(l.Criteria(kNow).empty());
  EXPECT_TRUE(l.Patterns(kNow).empty());
  EXPECT_TRUE(l.AntiPatterns().empty());
  EXPECT_TRUE(l.Strategies().empty());
  EXPECT_EQ(Json(l.Criteria(kNow)), "[]");
  EXPECT_EQ(Json(l.Patterns(kNow)), "[]");
  EXPECT_EQ(Json(l.AntiPatterns()), "[]");
  EXPECT_EQ(Json(l.Strategies()), "[]");
  std::string text = "untouched";
  EXPECT_FALSE(l.ExplainPattern("Split by feature", kNow, &text));
  EXPECT_FALSE(l.ExplainCriterion("type_safe", kNow, &text));
  EXPECT_EQ(text, "untouched");
}

// ---- Criteria (seed 002 "Confidence Decay") --------------------------------------------------

// helpful 1.0 today; harmful 0.38 ninety days ago counts 0.19: weight = 1 / 1.19.
TEST(OutcomeLearner, CriterionWeightIsDecayedHelpfulShareOfRawScores) {
  OutcomeLearner l{OutcomeConfig{}};
  AddCriterion(l, "type_safe", Kind::kHarmful, kNow - 90 * kDay);
  AddCriterion(l, "type_safe", Kind::kHelpful, kNow);
  const CriterionResult c = OnlyCriterion(l);
  EXPECT_EQ(c.criterion, "type_safe");
  EXPECT_DOUBLE_EQ(c.decayed_helpful, 1.0);
  EXPECT_DOUBLE_EQ(c.decayed_harmful, 0.19);
  EXPECT_DOUBLE_EQ(c.weight, 1.0 / 1.19);
  EXPECT_EQ(c.helpful_count, 1);
  EXPECT_EQ(c.harmful_count, 1);
  EXPECT_FALSE(c.deprecated);
  EXPECT_EQ(c.last_validated_ms, kNow);
  EXPECT_EQ(Json(l.Criteria(kNow)),
            R"([{"criterion":"type_safe","weight":0.840336,"helpfulCount":1,"harmfulCount":1,)"
            R"("deprecated":false,"decayedHelpful":1.0,"decayedHarmful":0.19,)"
            R"("lastValidated":"2024-12-12T00:00:00.000Z"}])");
}

TEST(OutcomeLearner, CriterionWeightHasAFloorOfPointOne) {
  OutcomeLearner l{OutcomeConfig{}};
  AddCriterion(l, "c", Kind::kHarmful, kNow);
  EXPECT_DOUBLE_EQ(OnlyCriterion(l).weight, 0.1);
  const OutcomeConfig config;
  EXPECT_DOUBLE_EQ(CriterionWeight(0.05, 0.95, config), 0.1);
  EXPECT_DOUBLE_EQ(CriterionWeight(0.2, 0.8, config), 0.2);
  EXPECT_DOUBLE_EQ(CriterionWeight(0, 0, config), 1.0);
}

TEST(OutcomeLearner, NeutralOnlyCriterionWeighsOne) {
  OutcomeLearner l{OutcomeConfig{}};
  AddCriterion(l, "c", Kind::kNeutralSuccess, kNow - 3 * kDay);
  const CriterionResult c = OnlyCriterion(l);
  EXPECT_DOUBLE_EQ(c.weight, 1.0);
  EXPECT_EQ(c.helpful_count, 0);
  EXPECT_EQ(c.harmful_count, 0);
  EXPECT_EQ(c.neutral_count, 1);
  EXPECT_FALSE(c.deprecated);
  EXPECT_EQ(c.last_validated_ms, kNow - 3 * kDay);
}

TEST(OutcomeLearner, CriterionWithExactlyThirtyPercentHarmfulIsNotDeprecated) {
  OutcomeLearner l{OutcomeConfig{}};
  AddCriterion(l, "c", Kind::kHelpful, kNow, 7);
  AddCriterion(l, "c", Kind::kHarmful, kNow, 3);
  EXPECT_FALSE(OnlyCriterion(l).deprecated);
  AddCriterion(l, "c", Kind::kHarmful, kNow);  // 4 of 11
  EXPECT_TRUE(OnlyCriterion(l).deprecated);
}

TEST(OutcomeLearner, CriterionNeedsThreeHelpfulOrHarmfulToBeDeprecated) {
  OutcomeLearner l{OutcomeConfig{}};
  AddCriterion(l, "c", Kind::kHelpful, kNow);
  AddCriterion(l, "c", Kind::kHarmful, kNow);
  AddCriterion(l, "c", Kind::kNeutralFailure, kNow, 5);  // neutral counts nowhere
  EXPECT_FALSE(OnlyCriterion(l).deprecated);             // 1 of 2 harmful
  AddCriterion(l, "c", Kind::kHelpful, kNow);            // 1 of 3
  const CriterionResult c = OnlyCriterion(l);
  EXPECT_TRUE(c.deprecated);
  EXPECT_EQ(c.helpful_count, 2);
  EXPECT_EQ(c.harmful_count, 1);
  EXPECT_EQ(c.neutral_count, 5);
  EXPECT_DOUBLE_EQ(c.decayed_helpful, 2.0);
  EXPECT_DOUBLE_EQ(c.decayed_harmful, 0.38);
}

TEST(OutcomeLearner, CriterionDeprecationUsesRawCountsNotDecayedSums) {
  OutcomeLearner l{OutcomeConfig{}};
  AddCriterion(l, "c", Kind::kHarmful, kNow - 900 * kDay, 2);  // decayed to almost nothing
  AddCriterion(l, "c", Kind::kHelpful, kNow, 2);
  EXPECT_TRUE(OnlyCriterion(l).deprecated);  // 2 of 4 harmful
}

TEST(OutcomeLearner, CriterionNamedTwiceInOneOutcomeGetsOneEvent) {
  OutcomeLearner l{OutcomeConfig{}};
  model::OutcomeView o = Make(Kind::kHelpful, kNow);
  o.criteria = {"c", "c", ""};
  l.Add(o);
  EXPECT_EQ(OnlyCriterion(l).helpful_count, 1);
}

TEST(OutcomeLearner, LastValidatedIsTheNewestEventNotTheLastAdded) {
  OutcomeLearner l{OutcomeConfig{}};
  AddCriterion(l, "c", Kind::kHelpful, kNow - kDay);
  AddCriterion(l, "c", Kind::kHelpful, kNow - 10 * kDay);
  EXPECT_EQ(OnlyCriterion(l).last_validated_ms, kNow - kDay);
}

TEST(OutcomeLearner, CriteriaAreSortedByName) {
  OutcomeLearner l{OutcomeConfig{}};
  model::OutcomeView o = Make(Kind::kHelpful, kNow);
  o.criteria = {"type_safe", "no_any", "Tests"};
  l.Add(o);
  const auto criteria = l.Criteria(kNow);
  ASSERT_EQ(criteria.size(), 3u);
  EXPECT_EQ(criteria[0].criterion, "Tests");
  EXPECT_EQ(criteria[1].criterion, "no_any");
  EXPECT_EQ(criteria[2].criterion, "type_safe");
}

// ---- Pattern maturity (seed 002 "Pattern Maturity States") -----------------------------------

TEST(OutcomeLearner, FewerThanThreeDecayedObservationsIsCandidate) {
  OutcomeLearner l{OutcomeConfig{}};
  AddPattern(l, "P", Kind::kHelpful, kNow, 2);
  const PatternResult p = OnlyPattern(l);
  EXPECT_EQ(p.state, MaturityState::kCandidate);
  EXPECT_EQ(p.multiplier, 0.5);
  EXPECT_DOUBLE_EQ(p.decayed_helpful, 2.0);
}

TEST(OutcomeLearner, ThreeHelpfulIsEstablishedFiveIsProven) {
  OutcomeLearner l{OutcomeConfig{}};
  AddPattern(l, "P", Kind::kHelpful, kNow, 3);
  EXPECT_EQ(OnlyPattern(l).state, MaturityState::kEstablished);
  EXPECT_EQ(OnlyPattern(l).multiplier, 1.0);
  AddPattern(l, "P", Kind::kHelpful, kNow, 1);
  EXPECT_EQ(OnlyPattern(l).state, MaturityState::kEstablished);
  AddPattern(l, "P", Kind::kHelpful, kNow, 1);
  EXPECT_EQ(OnlyPattern(l).state, MaturityState::kProven);
  EXPECT_EQ(OnlyPattern(l).multiplier, 1.5);
}

// seed 002 "Decay Applied to State Calculation": eight helpful observations 90 days old are
// four decayed ones: established, not proven; 180 days old they are two: candidate again.
TEST(OutcomeLearner, MaturityUsesDecayedCounts) {
  OutcomeLearner l{OutcomeConfig{}};
  AddPattern(l, "P", Kind::kHelpful, kNow - 90 * kDay, 8);
  EXPECT_EQ(OnlyPattern(l, kNow - 90 * kDay).state, MaturityState::kProven);
  const PatternResult p = OnlyPattern(l, kNow);
  EXPECT_EQ(p.state, MaturityState::kEstablished);
  EXPECT_DOUBLE_EQ(p.decayed_helpful, 4.0);
  EXPECT_EQ(OnlyPattern(l, kNow + 90 * kDay).state, MaturityState::kCandidate);
}

TEST(OutcomeLearner, ProvenNeedsHarmfulRatioBelowFifteenPercent) {
  OutcomeLearner l{OutcomeConfig{}};
  AddPattern(l, "P", Kind::kHelpful, kNow, 17);
  AddPattern(l, "P", Kind::kHarmful, kNow, 3);  // exactly 0.15
  EXPECT_EQ(OnlyPattern(l).state, MaturityState::kEstablished);
  AddPattern(l, "P", Kind::kHelpful, kNow);  // 3 of 21
  EXPECT_EQ(OnlyPattern(l).state, MaturityState::kProven);
}

TEST(OutcomeLearner, HarmfulRatioAboveThirtyPercentIsDeprecated) {
  OutcomeLearner l{OutcomeConfig{}};
  AddPattern(l, "P", Kind::kHelpful, kNow, 7);
  AddPattern(l, "P", Kind::kHarmful, kNow, 3);  // exactly 0.3
  EXPECT_EQ(OnlyPattern(l).state, MaturityState::kEstablished);
  AddPattern(l, "P", Kind::kHarmful, kNow);  // 4 of 11
  const PatternResult p = OnlyPattern(l);
  EXPECT_EQ(p.state, MaturityState::kDeprecated);
  EXPECT_EQ(p.multiplier, 0.0);
}

TEST(OutcomeLearner, DeprecationNeedsThreeDecayedObservations) {
  OutcomeLearner l{OutcomeConfig{}};
  AddPattern(l, "P", Kind::kHelpful, kNow - 90 * kDay, 2);
  AddPattern(l, "P", Kind::kHarmful, kNow - 90 * kDay, 2);  // decayed total 2
  EXPECT_EQ(OnlyPattern(l).state, MaturityState::kCandidate);
  EXPECT_EQ(OnlyPattern(l, kNow - 90 * kDay).state, MaturityState::kDeprecated);
}

TEST(OutcomeLearner, NeutralObservationsDoNotCountTowardMaturity) {
  OutcomeLearner l{OutcomeConfig{}};
  AddPattern(l, "P", Kind::kHelpful, kNow, 2);
  AddPattern(l, "P", Kind::kNeutralSuccess, kNow, 10);
  const PatternResult p = OnlyPattern(l);
  EXPECT_EQ(p.state, MaturityState::kCandidate);
  EXPECT_EQ(p.observations, 12);
  EXPECT_DOUBLE_EQ(p.decayed_helpful, 2.0);
  EXPECT_DOUBLE_EQ(p.decayed_harmful, 0.0);
}

TEST(OutcomeLearner, PatternMaturityRulesInSeedOrder) {
  const OutcomeConfig c;
  EXPECT_EQ(PatternMaturity(0, 0, c), MaturityState::kCandidate);
  EXPECT_EQ(PatternMaturity(2.9, 0, c), MaturityState::kCandidate);
  EXPECT_EQ(PatternMaturity(3, 0, c), MaturityState::kEstablished);
  EXPECT_EQ(PatternMaturity(4.99, 0, c), MaturityState::kEstablished);
  EXPECT_EQ(PatternMaturity(5, 0, c), MaturityState::kProven);
  EXPECT_EQ(PatternMaturity(2, 1, c), MaturityState::kDeprecated);
  EXPECT_EQ(PatternMaturity(1, 1, c), MaturityState::kCandidate);
  EXPECT_EQ(MaturityStateName(MaturityState::kCandidate), "candidate");
  EXPECT_EQ(MaturityStateName(MaturityState::kEstablished), "established");
  EXPECT_EQ(MaturityStateName(MaturityState::kProven), "proven");
  EXPECT_EQ(MaturityStateName(MaturityState::kDeprecated), "deprecated");
}

TEST(OutcomeLearner, SuccessCountsFollowTheSuccessFieldNotTheScore) {
  OutcomeLearner l{OutcomeConfig{}};
  AddPattern(l, "P", Kind::kNeutralFailure, kNow, 2);
  AddPattern(l, "P", Kind::kNeutralSuccess, kNow, 1);
  const PatternResult p = OnlyPattern(l);
  EXPECT_EQ(p.success_count, 1);
  EXPECT_EQ(p.failure_count, 2);
  EXPECT_EQ(p.decayed_helpful + p.decayed_harmful, 0.0);
}

TEST(OutcomeLearner, PatternsAreTheFieldUnionTheDescription) {
  OutcomeLearner l{OutcomeConfig{}};
  model::OutcomeView o = Make(Kind::kHelpful, kNow);
  o.patterns = {"Split by file type", "custom", ""};
  o.description = "We'll split by file type, one file per subtask";
  l.Add(o);
  const auto patterns = l.Patterns(kNow);
  ASSERT_EQ(patterns.size(), 3u);
  EXPECT_EQ(patterns[0].content, "One file per subtask");
  EXPECT_EQ(patterns[1].content, "Split by file type");
  EXPECT_EQ(patterns[1].observations, 1);
  EXPECT_EQ(patterns[2].content, "custom");
  EXPECT_EQ(Json(patterns),
            R"([{"content":"One file per subtask","state":"candidate","multiplier":0.5,)"
            R"("successCount":1,"failureCount":0,"decayedHelpful":1.0,"decayedHarmful":0.0,)"
            R"("observations":1},)"
            R"({"content":"Split by file type","state":"candidate","multiplier":0.5,)"
            R"("successCount":1,"failureCount":0,"decayedHelpful":1.0,"decayedHarmful":0.0,)"
            R"("observations":1},)"
            R"({"content":"custom","state":"candidate","multiplier":0.5,)"
            R"("successCount":1,"failureCount":0,"decayedHelpful":1.0,"decayedHarmful":0.0,)"
            R"("observations":1}])");
}

TEST(OutcomeLearner, ConfiguredMultipliersAreUsed) {
  OutcomeConfig c;
  c.established_multiplier = 0.8;
  OutcomeLearner l{c};
  AddPattern(l, "P", Kind::kHelpful, kNow, 3);
  EXPECT_EQ(OnlyPattern(l).multiplier, 0.8);
}

// ---- Anti-patterns (seed 002 "Anti-Pattern Inversion") ---------------------------------------

TEST(OutcomeLearner, ExactlySixtyPercentFailuresInverts) {
  OutcomeLearner l{OutcomeConfig{}};
  AddPattern(l, "P", Kind::kHelpful, kNow, 2);
  AddPattern(l, "P", Kind::kHarmful, kNow, 3);
  const auto anti = l.AntiPatterns();
  ASSERT_EQ(anti.size(), 1u);
  EXPECT_EQ(anti[0].content, "AVOID: P. Failed 3/5 times (60% failure rate)");
  EXPECT_EQ(anti[0].reason, "Failed 3/5 times (60% failure rate)");
  EXPECT_EQ(anti[0].pattern, "P");
  EXPECT_DOUBLE_EQ(anti[0].failure_rate, 0.6);
}

TEST(OutcomeLearner, JustBelowSixtyPercentDoesNotInvert) {
  OutcomeLearner l{OutcomeConfig{}};
  AddPattern(l, "P", Kind::kHelpful, kNow, 5);
  AddPattern(l, "P", Kind::kHarmful, kNow, 7);  // 58.3%
  EXPECT_TRUE(l.AntiPatterns().empty());
}

TEST(OutcomeLearner, FewerThanThreeObservationsNeverInvert) {
  OutcomeLearner l{OutcomeConfig{}};
  AddPattern(l, "P", Kind::kHarmful, kNow, 2);
  EXPECT_TRUE(l.AntiPatterns().empty());
  AddPattern(l, "P", Kind::kHarmful, kNow);
  ASSERT_EQ(l.AntiPatterns().size(), 1u);
  EXPECT_EQ(l.AntiPatterns()[0].reason, "Failed 3/3 times (100% failure rate)");
}

// seed 002 "Inversion Process": success 2, failure 5.
TEST(OutcomeLearner, SeedInversionExample) {
  OutcomeLearner l{OutcomeConfig{}};
  AddPattern(l, "Split by file type", Kind::kHelpful, kNow, 2);
  AddPattern(l, "Split by file type", Kind::kNeutralFailure, kNow, 5);
  EXPECT_EQ(Json(l.AntiPatterns()),
            R"j([{"content":"AVOID: Split by file type. Failed 5/7 times (71% failure rate)",)j"
            R"j("reason":"Failed 5/7 times (71% failure rate)","pattern":"Split by file type",)j"
            R"j("successCount":2,"failureCount":5,"failureRate":0.714286}])j");
}

TEST(OutcomeLearner, FailurePercentRoundsHalfUp) {
  OutcomeLearner l{OutcomeConfig{}};
  AddPattern(l, "A", Kind::kHelpful, kNow, 1);
  AddPattern(l, "A", Kind::kHarmful, kNow, 7);  // 87.5%
  AddPattern(l, "B", Kind::kHelpful, kNow, 3);
  AddPattern(l, "B", Kind::kHarmful, kNow, 5);  // 62.5%
  const auto anti = l.AntiPatterns();
  ASSERT_EQ(anti.size(), 2u);
  EXPECT_EQ(anti[0].reason, "Failed 7/8 times (88% failure rate)");
  EXPECT_EQ(anti[1].reason, "Failed 5/8 times (63% failure rate)");
}

TEST(OutcomeLearner, DeprecatedAndAntiPatternAreIndependentVerdicts) {
  OutcomeLearner l{OutcomeConfig{}};
  // Fails every time but never harmfully: an anti-pattern, yet a candidate.
  AddPattern(l, "fails", Kind::kNeutralFailure, kNow, 3);
  // One harmful failure in three: deprecated, yet fails only a third of the time.
  AddPattern(l, "harms", Kind::kHelpful, kNow, 2);
  AddPattern(l, "harms", Kind::kHarmful, kNow, 1);
  const auto patterns = l.Patterns(kNow);
  ASSERT_EQ(patterns.size(), 2u);
  EXPECT_EQ(patterns[0].content, "fails");
  EXPECT_EQ(patterns[0].state, MaturityState::kCandidate);
  EXPECT_EQ(patterns[1].state, MaturityState::kDeprecated);
  const auto anti = l.AntiPatterns();
  ASSERT_EQ(anti.size(), 1u);
  EXPECT_EQ(anti[0].pattern, "fails");
}

TEST(OutcomeLearner, InversionThresholdsAreConfigurable) {
  OutcomeConfig c;
  c.anti_pattern_min_observations = 5;
  c.anti_pattern_failure_ratio = 0.5;
  EXPECT_FALSE(InvertsToAntiPattern(0, 4, c));
  EXPECT_TRUE(InvertsToAntiPattern(3, 3, c));
  EXPECT_FALSE(InvertsToAntiPattern(4, 3, c));
}

// ---- Strategies ------------------------------------------------------------------------------

TEST(OutcomeLearner, StrategyStatsCountOutcomesSuccessesAndScores) {
  OutcomeLearner l{OutcomeConfig{}};
  const std::pair<std::string_view, Kind> outcomes[] = {
      {"file-based", Kind::kHelpful},
      {"file-based", Kind::kHarmful},
      {"file-based", Kind::kNeutralSuccess},
      {"feature-based", Kind::kNeutralFailure},
      {"", Kind::kHelpful},
  };
  for (const auto& [strategy, kind] : outcomes) {
    model::OutcomeView o = Make(kind, kNow);
    o.strategy = strategy;
    l.Add(o);
  }
  EXPECT_EQ(l.outcome_count(), 5);
  EXPECT_EQ(Json(l.Strategies()),
            R"([{"strategy":"feature-based","outcomes":1,"successes":0,"helpful":0,"harmful":0},)"
            R"({"strategy":"file-based","outcomes":3,"successes":2,"helpful":1,"harmful":1}])");
}

// ---- Explanations (seed 002 "Debugging Pattern Issues") --------------------------------------

TEST(OutcomeLearner, ExplainPatternShowsCountsThresholdsAndNewest) {
  OutcomeLearner l{OutcomeConfig{}};
  AddPattern(l, "P", Kind::kHelpful, kNow - 90 * kDay, 3);
  model::OutcomeView o = Make(Kind::kHarmful, kNow, "bd-9");
  o.patterns = {"P"};
  l.Add(o);
  std::string text;
  ASSERT_TRUE(l.ExplainPattern("P", kNow, &text));
  EXPECT_EQ(text,
            "pattern \"P\" at 2024-12-12T00:00:00.000Z: candidate (multiplier 0.5)\n"
            "observations: 4 (3 helpful, 0 neutral, 1 harmful); outcomes: 3 succeeded, 1 failed\n"
            "decayed (half-life 90 days, neutral not counted): helpful 1.5, harmful 1, total "
            "2.5; harmful ratio 0.4\n"
            "maturity, first rule that holds:\n"
            "  deprecated if harmful ratio > 0.3 and decayed total >= 3: no, decayed total 2.5 "
            "< 3\n"
            "  candidate if decayed total < 3: yes\n"
            "anti-pattern if successCount+failureCount >= 3 and failure ratio >= 0.6 (by the "
            "outcomes' success): no, failure ratio 0.25 (1/4) < 0.6\n"
            "newest observations (4 of 4):\n"
            "  2024-12-12T00:00:00.000Z bead bd-9 failure harmful raw 0.38 decay 1\n"
            "  2024-09-13T00:00:00.000Z bead bd-1 success helpful raw 1 decay 0.5\n"
            "  2024-09-13T00:00:00.000Z bead bd-1 success helpful raw 1 decay 0.5\n"
            "  2024-09-13T00:00:00.000Z bead bd-1 success helpful raw 1 decay 0.5\n");
}

TEST(OutcomeLearner, ExplainPatternSaysWhyNotProven) {
  OutcomeLearner l{OutcomeConfig{}};
  AddPattern(l, "P", Kind::kHelpful, kNow - 90 * kDay, 8);
  std::string text;
  ASSERT_TRUE(l.ExplainPattern("P", kNow, &text));
  EXPECT_NE(text.find(": established (multiplier 1)\n"), std::string::npos) << text;
  EXPECT_NE(text.find("proven if decayedHelpful >= 5 and harmful ratio < 0.15: no, "
                      "decayedHelpful 4 < 5\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  otherwise established: yes\n"), std::string::npos) << text;
}

TEST(OutcomeLearner, ExplainPatternListsEveryFailedConditionAndStopsAtTheDecidingRule) {
  OutcomeLearner l{OutcomeConfig{}};
  AddPattern(l, "established", Kind::kHelpful, kNow, 4);
  AddPattern(l, "established", Kind::kHarmful, kNow, 1);
  AddPattern(l, "deprecated", Kind::kHelpful, kNow, 2);
  AddPattern(l, "deprecated", Kind::kHarmful, kNow, 1);
  std::string text;
  ASSERT_TRUE(l.ExplainPattern("established", kNow, &text));
  EXPECT_NE(text.find(": no, decayedHelpful 4 < 5, harmful ratio 0.2 >= 0.15\n"), std::string::npos)
      << text;
  ASSERT_TRUE(l.ExplainPattern("deprecated", kNow, &text));
  EXPECT_NE(text.find(": deprecated (multiplier 0)\n"), std::string::npos) << text;
  EXPECT_NE(text.find("decayed total >= 3: yes\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("candidate if"), std::string::npos) << text;
  EXPECT_NE(text.find("(by the outcomes' success): no, failure ratio 0.333333 (1/3) < 0.6\n"),
            std::string::npos)
      << text;
}

TEST(OutcomeLearner, ExplainShowsAtMostTheTenNewestObservations) {
  OutcomeLearner l{OutcomeConfig{}};
  // Added newest first: the ten kept are the newest by time, not the last added.
  for (int i = 0; i < 12; ++i) {
    model::OutcomeView o = Make(Kind::kHelpful, kNow - i * kDay, i == 0 ? "newest" : "older");
    o.patterns = {"P"};
    l.Add(o);
  }
  std::string text;
  ASSERT_TRUE(l.ExplainPattern("P", kNow, &text));
  EXPECT_NE(text.find("newest observations (10 of 12):\n"
                      "  2024-12-12T00:00:00.000Z bead newest success helpful raw 1 decay 1\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("2024-12-01"), std::string::npos) << text;  // 11 days old: not shown
  EXPECT_NE(text.find("2024-12-03"), std::string::npos) << text;  // 9 days old: shown
}

TEST(OutcomeLearner, ExplainCriterionShowsTheWeightComputation) {
  OutcomeLearner l{OutcomeConfig{}};
  AddCriterion(l, "type_safe", Kind::kHarmful, kNow - 90 * kDay);
  AddCriterion(l, "type_safe", Kind::kHelpful, kNow);
  AddCriterion(l, "type_safe", Kind::kNeutralFailure, kNow - kDay);
  std::string text;
  ASSERT_TRUE(l.ExplainCriterion("type_safe", kNow, &text));
  EXPECT_EQ(text,
            "criterion \"type_safe\" at 2024-12-12T00:00:00.000Z: weight 0.840336\n"
            "feedback: 3 events (1 helpful, 1 harmful, 1 neutral; neutral counts nowhere); last "
            "validated 2024-12-12T00:00:00.000Z\n"
            "decayed sums of raw score x decay (half-life 90 days): helpful 1, harmful 0.19\n"
            "weight = max(0.1, helpful / (helpful + harmful)) = max(0.1, 0.840336) = 0.840336\n"
            "deprecated if helpful+harmful >= 3 and harmful ratio > 0.3: no, helpful+harmful 2 "
            "< 3\n"
            "newest observations (3 of 3):\n"
            "  2024-12-12T00:00:00.000Z bead bd-1 success helpful raw 1 decay 1 -> helpful 1\n"
            "  2024-12-11T00:00:00.000Z bead bd-1 failure neutral raw 0.6 decay 0.992328\n"
            "  2024-09-13T00:00:00.000Z bead bd-1 failure harmful raw 0.38 decay 0.5 -> harmful "
            "0.19\n");
}

TEST(OutcomeLearner, ExplainCriterionSaysWhenDeprecatedAndFloored) {
  OutcomeLearner l{OutcomeConfig{}};
  AddCriterion(l, "c", Kind::kHarmful, kNow, 3);
  std::string text;
  ASSERT_TRUE(l.ExplainCriterion("c", kNow, &text));
  EXPECT_NE(text.find(": weight 0.1, deprecated\n"), std::string::npos) << text;
  EXPECT_NE(text.find("= max(0.1, 0) = 0.1 (the floor decided)\n"), std::string::npos) << text;
  EXPECT_NE(text.find(": yes, harmful ratio 1 (3/3) > 0.3\n"), std::string::npos) << text;
}

TEST(OutcomeLearner, SameLogGivesSameBytes) {
  const auto run = [] {
    OutcomeLearner l{OutcomeConfig{}};
    for (int i = 0; i < 50; ++i) {
      model::OutcomeView o = Make(static_cast<Kind>(i % 4), kNow - i * 7 * kDay);
      o.criteria = {i % 3 == 0 ? "a" : "b"};
      o.patterns = {i % 2 == 0 ? "x" : "y"};
      l.Add(o);
    }
    return Json(l.Criteria(kNow)) + Json(l.Patterns(kNow));
  };
  EXPECT_EQ(run(), run());
}

}  // namespace
}  // namespace kaizen::learn
