#include "learn/reviews/theme_evidence.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace kaizen::learn {
namespace {

constexpr int64_t kNow = 1752226200000;  // 2025-07-11T09:30:00Z
constexpr int64_t kDay = model::kMsPerDay;

model::ReviewView Review(int64_t at, model::Decision d, std::vector<std::string_view> themes,
                         std::string_view server = "", std::string_view stage = "") {
  model::ReviewView r;
  r.at_ms = at;
  r.decision = d;
  r.themes = std::move(themes);
  r.server_type = server;
  r.stage = stage;
  return r;
}

model::ReviewView Scores(int64_t at, std::vector<model::ScoreView> scores) {
  model::ReviewView r;
  r.at_ms = at;
  r.scores = std::move(scores);
  return r;
}

template <typename T>
std::string Json(const T& value) {
  rapidjson::StringBuffer buffer;
  base::JsonWriter w(buffer);
  WriteJson(w, value);
  return buffer.GetString();
}

class ThemeEvidenceTest : public ::testing::Test {
 protected:
  void Repeat(int n, const model::ReviewView& r) {
    for (int i = 0; i < n; ++i) evidence_.Add(r);
  }
  const ThemeStance* Stance(std::string_view theme, int64_t now = kNow) {
    stances_ = evidence_.Contradictions(now);
    for (const auto& s : stances_) {
      if (s.theme == theme) return &s;
    }
    return nullptr;
  }

  EvidenceConfig config_;
  SignalWeightConfig weights_;
  ThemeEvidence evidence_{config_, weights_};
  std::vector<ThemeStance> stances_;
};

TEST_F(ThemeEvidenceTest, EmptyHasNoCandidatesNoStancesNoDays) {
  EXPECT_TRUE(evidence_.Candidates(kNow).empty());
  EXPECT_TRUE(evidence_.Contradictions(kNow).empty());
  EXPECT_TRUE(evidence_.ScoreDays().empty());
  EXPECT_EQ(evidence_.total_reviews(), 0);
  EXPECT_EQ(Json(evidence_.Candidates(kNow)), "[]");
  EXPECT_EQ(Json(evidence_.Contradictions(kNow)), "[]");
}

// ---- Rule candidates (§9.3 guards) ------------------------------------------------------------

TEST_F(ThemeEvidenceTest, FivePointsOnTwoDaysIsNoRule) {
  Repeat(3, Review(kNow - 2 * kDay, model::Decision::kRejected, {"retries"}));
  Repeat(3, Review(kNow - 1 * kDay, model::Decision::kRejected, {"retries"}));
  EXPECT_TRUE(evidence_.Candidates(kNow).empty());
  // A third day makes it one, introduced by that signal.
  evidence_.Add(Review(kNow, model::Decision::kNeedsWork, {"retries"}));
  auto c = evidence_.Candidates(kNow);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].theme, "retries");
  EXPECT_EQ(c[0].points, 7);
  EXPECT_EQ(c[0].days, 3);
  EXPECT_EQ(c[0].introduced_at_ms, kNow);
}

TEST_F(ThemeEvidenceTest, FourPointsOnThreeDaysIsNoRuleUntilTheFifth) {
  evidence_.Add(Review(kNow - 3 * kDay, model::Decision::kRejected, {"retries"}));
  evidence_.Add(Review(kNow - 2 * kDay, model::Decision::kRejected, {"retries"}));
  evidence_.Add(Review(kNow - 1 * kDay, model::Decision::kRejected, {"retries"}));
  evidence_.Add(Review(kNow - 1 * kDay + 1000, model::Decision::kRejected, {"retries"}));
  EXPECT_TRUE(evidence_.Candidates(kNow).empty());
  evidence_.Add(Review(kNow - 1 * kDay + 2000, model::Decision::kRejected, {"retries"}));
  auto c = evidence_.Candidates(kNow);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].introduced_at_ms, kNow - 1 * kDay + 2000);
  // Later points raise the count but do not move the introduction.
  evidence_.Add(Review(kNow, model::Decision::kRejected, {"retries"}));
  c = evidence_.Candidates(kNow);
  EXPECT_EQ(c[0].points, 6);
  EXPECT_EQ(c[0].introduced_at_ms, kNow - 1 * kDay + 2000);
}

TEST_F(ThemeEvidenceTest, OnlyNegativeSignalsArePoints) {
  for (int d = 0; d < 5; ++d) {
    evidence_.Add(Review(kNow - d * kDay, model::Decision::kApproved, {"cards"}));
    evidence_.Add(Review(kNow - d * kDay, model::Decision::kDeferred, {"cards"}));
    evidence_.Add(Review(kNow - d * kDay, model::Decision::kNone, {"cards"}));
  }
  EXPECT_TRUE(evidence_.Candidates(kNow).empty());
}

TEST_F(ThemeEvidenceTest, AnnotationCriticismsArePointsAndPraiseIsNot) {
  for (int d = 0; d < 5; ++d) {
    model::ReviewView r;
    r.at_ms = kNow - d * kDay;
    r.annotations = {{"criticism", "nit", "naming", "x"},
                     {"praise", "", "naming", "y"},
                     {"question", "", "naming", "z"},
                     {"criticism", "major", "", "no category"}};
    evidence_.Add(r);
  }
  auto c = evidence_.Candidates(kNow);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].theme, "naming");
  EXPECT_EQ(c[0].points, 5);
  EXPECT_EQ(c[0].days, 5);
  EXPECT_DOUBLE_EQ(c[0].weight, 5 * 0.5 / 5);  // nits
  const ThemeStance* s = Stance("naming");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->positive_count, 5);
  EXPECT_EQ(s->negative_count, 5);
}

TEST_F(ThemeEvidenceTest, RuleWeightIsSeveritySumOverAllReviews) {
  // §3.2: (occurrences x avg severity) / total reviews. Decision severities: critical 4, major 3,
  // moderate 2, minor 1, none 1; plus one annotation: critical 4. 10 reviews in all.
  const model::Severity severities[] = {model::Severity::kCritical, model::Severity::kMajor,
                                        model::Severity::kModerate, model::Severity::kMinor,
                                        model::Severity::kNone};
  for (int i = 0; i < 5; ++i) {
    model::ReviewView r = Review(kNow - i * kDay, model::Decision::kRejected, {"validation"});
    r.severity = severities[i];
    evidence_.Add(r);
  }
  model::ReviewView annotated;
  annotated.at_ms = kNow;
  annotated.annotations = {{"criticism", "critical", "validation", ""}};
  evidence_.Add(annotated);
  Repeat(4, Review(kNow, model::Decision::kApproved, {}));
  auto c = evidence_.Candidates(kNow);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].points, 6);
  EXPECT_EQ(evidence_.total_reviews(), 10);
  EXPECT_DOUBLE_EQ(c[0].weight, (4 + 3 + 2 + 1 + 1 + 4) / 10.0);
}

TEST_F(ThemeEvidenceTest, CandidatesSortByWeightThenTheme) {
  for (int d = 0; d < 5; ++d) {
    evidence_.Add(Review(kNow - d * kDay, model::Decision::kRejected, {"b-theme", "a-theme"}));
    evidence_.Add(Review(kNow - d * kDay, model::Decision::kRejected, {"c-theme"}));
    evidence_.Add(Review(kNow - d * kDay, model::Decision::kRejected, {"c-theme"}));
  }
  auto c = evidence_.Candidates(kNow);
  ASSERT_EQ(c.size(), 3u);
  EXPECT_EQ(c[0].theme, "c-theme");
  EXPECT_EQ(c[1].theme, "a-theme");
  EXPECT_EQ(c[2].theme, "b-theme");
}

// ---- Effectiveness (§7.2) ---------------------------------------------------------------------

TEST_F(ThemeEvidenceTest, EffectivenessComparesThirtyDaysAfterWithThirtyDaysBefore) {
  const int64_t intro = kNow - 40 * kDay;                               // day D
  evidence_.Add(Scores(intro - 30 * kDay, {{"naming", 1}}));            // D-30: outside
  evidence_.Add(Scores(intro - 29 * kDay, {{"naming", 4}}));            // D-29: inside
  evidence_.Add(Scores(intro - 1 * kDay, {{"naming", 6}, {"dx", 6}}));  // D-1
  for (int i = 4; i >= 0; --i) {
    evidence_.Add(Review(intro - i * kDay, model::Decision::kRejected, {"retries"}));
  }
  evidence_.Add(Scores(intro + 1000, {{"naming", 4}}));       // D: before
  evidence_.Add(Scores(intro + 1 * kDay, {{"naming", 8}}));   // D+1: after
  evidence_.Add(Scores(intro + 30 * kDay, {{"naming", 9}}));  // D+30: after
  evidence_.Add(Scores(intro + 31 * kDay, {{"naming", 1}}));  // D+31: outside
  auto c = evidence_.Candidates(kNow);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].introduced_at_ms, intro);
  // before (4 + 6 + 6 + 4) / 4 = 5, after (8 + 9) / 2 = 8.5
  ASSERT_TRUE(c[0].effectiveness.has_value());
  EXPECT_DOUBLE_EQ(*c[0].effectiveness, 3.5);
  // Only days up to now count: on day D+1, after = 8.
  EXPECT_DOUBLE_EQ(*evidence_.Candidates(intro + 1 * kDay)[0].effectiveness, 3);
  // On day D the after window is empty.
  EXPECT_FALSE(evidence_.Candidates(intro).at(0).effectiveness.has_value());

  auto days = evidence_.ScoreDays();
  ASSERT_EQ(days.size(), 7u);
  EXPECT_EQ(days[0].day, (intro - 30 * kDay) / kDay);
  EXPECT_EQ(days[2].n, 2);
  EXPECT_DOUBLE_EQ(days[2].sum, 12);
}

TEST_F(ThemeEvidenceTest, EffectivenessIsNullWithoutScoresBefore) {
  for (int i = 0; i < 5; ++i) {
    evidence_.Add(Review(kNow - 10 * kDay + i * kDay, model::Decision::kRejected, {"retries"}));
  }
  evidence_.Add(Scores(kNow, {{"naming", 8}}));
  EXPECT_FALSE(evidence_.Candidates(kNow).at(0).effectiveness.has_value());
}

// ---- Contradictions (§9.2) --------------------------------------------------------------------

TEST_F(ThemeEvidenceTest, BelowVolumeThresholdHasNoStance) {
  Repeat(2, Review(kNow, model::Decision::kApproved, {"cards"}));
  Repeat(2, Review(kNow, model::Decision::kRejected, {"cards"}));
  EXPECT_EQ(Stance("cards"), nullptr);
  evidence_.Add(Review(kNow, model::Decision::kApproved, {"cards"}));
  ASSERT_NE(Stance("cards"), nullptr);
  EXPECT_EQ(Stance("cards")->status, "prefer");  // 3 vs 2: only one side has volume
}

TEST_F(ThemeEvidenceTest, OneSidedThemeIsPreferOrAvoid) {
  Repeat(3, Review(kNow, model::Decision::kApproved, {"cards"}));
  Repeat(3, Review(kNow, model::Decision::kRejected, {"spinners"}));
  const ThemeStance* cards = Stance("cards");
  ASSERT_NE(cards, nullptr);
  EXPECT_EQ(cards->status, "prefer");
  EXPECT_DOUBLE_EQ(cards->positive, 6);  // 3 recent signals x 2
  EXPECT_DOUBLE_EQ(cards->negative, 0);
  EXPECT_EQ(Stance("spinners")->status, "avoid");
}

TEST_F(ThemeEvidenceTest, EquallyStrongConflictWithoutContextAsksForAllWork) {
  Repeat(3, Review(kNow, model::Decision::kApproved, {"dense tables"}));
  Repeat(3, Review(kNow, model::Decision::kRejected, {"dense tables"}));
  const ThemeStance* s = Stance("dense tables");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->status, "clarify");
  ASSERT_TRUE(s->question.has_value());
  EXPECT_EQ(*s->question,
            "You've previously both approved and rejected dense tables. Which do you prefer for "
            "all work?");
  EXPECT_FALSE(s->contexts.has_value());
}

TEST_F(ThemeEvidenceTest, StrengthRatioOfExactlyPointEightConflicts) {
  Repeat(4, Review(kNow, model::Decision::kApproved, {"cards"}));  // P = 8
  Repeat(5, Review(kNow, model::Decision::kRejected, {"cards"}));  // N = 10
  EXPECT_EQ(Stance("cards")->status, "clarify");
  evidence_.Add(Review(kNow, model::Decision::kRejected, {"cards"}));  // N = 12: 0.667
  EXPECT_EQ(Stance("cards")->status, "avoid");
}

TEST_F(ThemeEvidenceTest, RecentSignalsOutweighOldOnes) {
  Repeat(3, Review(kNow - 31 * kDay, model::Decision::kApproved, {"cards"}));  // 1 each
  Repeat(3,
         Review(kNow - 30 * kDay, model::Decision::kRejected, {"cards"}));  // 30 days: still recent
  const ThemeStance* s = Stance("cards");
  EXPECT_DOUBLE_EQ(s->positive, 3);
  EXPECT_DOUBLE_EQ(s->negative, 6);
  EXPECT_EQ(s->status, "avoid");
  // Seen from 31 days earlier, both sides are recent and equally strong.
  EXPECT_EQ(Stance("cards", kNow - 31 * kDay)->status, "clarify");
}

TEST_F(ThemeEvidenceTest, ConfidenceAndFatigueWeighTheSides) {
  model::ReviewView unsure = Review(kNow, model::Decision::kApproved, {"cards"});
  unsure.confidence = model::ConfidenceLevel::kSomewhatUnsure;  // 0.6
  model::ReviewView tired = Review(kNow, model::Decision::kRejected, {"cards"});
  tired.session_fatigue = 5;  // 0.7
  Repeat(3, unsure);
  Repeat(3, tired);
  const ThemeStance* s = Stance("cards");
  EXPECT_NEAR(s->positive, 3 * 0.6 * 2, 1e-12);
  EXPECT_NEAR(s->negative, 3 * 0.7 * 2, 1e-12);
  EXPECT_EQ(s->status, "clarify");  // 3.6 / 4.2 = 0.857
}

// Signals keep a weight class, not the weight: each of the 30 classes must weigh exactly what
// StaticWeight gives a review of it, under a config where every factor differs.
TEST(ThemeEvidence, EveryConfidenceFatigueAndOverrideWeighsExactlyAsStaticWeight) {
  SignalWeightConfig weights;
  weights.very_sure = 0.9;
  weights.fairly_sure = 0.7;
  weights.somewhat_unsure = 0.55;
  weights.very_unsure = 0.3;
  weights.fatigue_after = 4;
  weights.fatigue_weight = 0.65;
  weights.strong_override = 3;
  weights.weak_override = 0.25;
  for (int confidence = 0; confidence < 5; ++confidence) {
    for (int64_t fatigue : {0, 4}) {
      for (int override_weight = 0; override_weight < 3; ++override_weight) {
        ThemeEvidence evidence(EvidenceConfig{}, weights);
        model::ReviewView r = Review(kNow, model::Decision::kApproved, {"cards"});
        r.confidence = static_cast<model::ConfidenceLevel>(confidence);
        r.session_fatigue = fatigue;
        r.override_weight = static_cast<model::Override>(override_weight);
        double expected = 0;
        for (int i = 0; i < 3; ++i) {
          evidence.Add(r);
          expected += StaticWeight(weights, r) * RecencyWeight(weights, kNow, kNow);
        }
        const std::vector<ThemeStance> stances = evidence.Contradictions(kNow);
        ASSERT_EQ(stances.size(), 1u);
        EXPECT_EQ(stances[0].positive, expected)
            << confidence << " " << fatigue << " " << override_weight;
      }
    }
  }
}

TEST_F(ThemeEvidenceTest, ContextDependentConflictIsContextual) {
  Repeat(3, Review(kNow, model::Decision::kApproved, {"verbose logs"}, "internal", "build"));
  Repeat(3, Review(kNow, model::Decision::kRejected, {"verbose logs"}, "stripe", "build"));
  const ThemeStance* s = Stance("verbose logs");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->status, "contextual");
  EXPECT_FALSE(s->question.has_value());
  ASSERT_TRUE(s->contexts.has_value());
  EXPECT_EQ(s->contexts->by, "serverType");
  EXPECT_EQ(s->contexts->prefer, std::vector<std::string>{"internal"});
  EXPECT_EQ(s->contexts->avoid, std::vector<std::string>{"stripe"});
}

TEST_F(ThemeEvidenceTest, StageSplitsWhenNoServerTypeIsKnown) {
  Repeat(3, Review(kNow, model::Decision::kApproved, {"mocks"}, "", "prototype"));
  Repeat(3, Review(kNow, model::Decision::kRejected, {"mocks"}, "", "release"));
  const ThemeStance* s = Stance("mocks");
  EXPECT_EQ(s->status, "contextual");
  EXPECT_EQ(s->contexts->by, "stage");
  EXPECT_EQ(s->contexts->prefer, std::vector<std::string>{"prototype"});
  EXPECT_EQ(s->contexts->avoid, std::vector<std::string>{"release"});
}

TEST_F(ThemeEvidenceTest, EightyPercentContextIsOneSided) {
  // shopify 4+ 1- (80%: prefers), stripe 4- : P 8, N 10 -> conflict, explained by context.
  Repeat(4, Review(kNow, model::Decision::kApproved, {"cards"}, "shopify"));
  evidence_.Add(Review(kNow, model::Decision::kRejected, {"cards"}, "shopify"));
  Repeat(4, Review(kNow, model::Decision::kRejected, {"cards"}, "stripe"));
  EXPECT_EQ(Stance("cards")->status, "contextual");
}

TEST_F(ThemeEvidenceTest, MixedContextAsksAboutTheMostConflictedServerType) {
  Repeat(2, Review(kNow, model::Decision::kApproved, {"cards"}, "shopify"));
  Repeat(2, Review(kNow, model::Decision::kRejected, {"cards"}, "shopify"));
  evidence_.Add(Review(kNow, model::Decision::kApproved, {"cards"}, "ghl"));
  evidence_.Add(Review(kNow, model::Decision::kRejected, {"cards"}, "ghl"));
  const ThemeStance* s = Stance("cards");
  ASSERT_EQ(s->status, "clarify");
  EXPECT_EQ(*s->question,
            "You've previously both approved and rejected cards. Which do you prefer for shopify?");
}

TEST_F(ThemeEvidenceTest, SingleSignalContextsDoNotExplainAConflict) {
  Repeat(3, Review(kNow, model::Decision::kApproved, {"cards"}, "shopify"));
  evidence_.Add(Review(kNow, model::Decision::kRejected, {"cards"}, "stripe"));
  evidence_.Add(Review(kNow, model::Decision::kRejected, {"cards"}, "ghl"));
  evidence_.Add(Review(kNow, model::Decision::kRejected, {"cards"}, "notion"));
  const ThemeStance* s = Stance("cards");
  EXPECT_EQ(s->status, "clarify");
  EXPECT_EQ(*s->question,
            "You've previously both approved and rejected cards. Which do you prefer for "
            "all work?");
}

TEST_F(ThemeEvidenceTest, MixedUnspecifiedContextIsNotExplained) {
  Repeat(3, Review(kNow, model::Decision::kApproved, {"cards"}, "shopify"));
  Repeat(3, Review(kNow, model::Decision::kRejected, {"cards"}, "stripe"));
  evidence_.Add(Review(kNow, model::Decision::kApproved, {"cards"}));
  evidence_.Add(Review(kNow, model::Decision::kRejected, {"cards"}));
  EXPECT_EQ(Stance("cards")->status, "clarify");
}

TEST_F(ThemeEvidenceTest, ContradictionsJsonShape) {
  Repeat(3, Review(kNow, model::Decision::kApproved, {"verbose logs"}, "internal"));
  Repeat(3, Review(kNow - 40 * kDay, model::Decision::kRejected, {"verbose logs"}, "stripe"));
  Repeat(3, Review(kNow, model::Decision::kApproved, {"cards"}));
  model::ReviewView r = Review(kNow, model::Decision::kRejected, {"cards"});
  r.confidence = model::ConfidenceLevel::kFairlySure;
  Repeat(3, r);
  Repeat(2, Review(kNow, model::Decision::kApproved, {"rare"}));
  EXPECT_EQ(Json(evidence_.Contradictions(kNow + 1)),
            R"([{"theme":"cards","positive":6.0,"negative":4.8,"positiveCount":3,)"
            R"("negativeCount":3,"status":"clarify","question":"You've previously both )"
            R"(approved and rejected cards. Which do you prefer for all work?"},)"
            R"({"theme":"verbose logs","positive":6.0,"negative":3.0,"positiveCount":3,)"
            R"("negativeCount":3,"status":"prefer"}])");
  // Seen 40 days earlier, the stripe rejections were recent too: an explained conflict.
  EXPECT_EQ(Json(std::vector<ThemeStance>{*Stance("verbose logs", kNow - 40 * kDay)}),
            R"([{"theme":"verbose logs","positive":6.0,"negative":6.0,"positiveCount":3,)"
            R"("negativeCount":3,"status":"contextual","contexts":{"by":"serverType",)"
            R"("prefer":["internal"],"avoid":["stripe"]}}])");
}

TEST_F(ThemeEvidenceTest, CandidatesJsonShape) {
  for (int i = 4; i >= 0; --i) {
    model::ReviewView r = Review(kNow - i * kDay, model::Decision::kRejected, {"retries"});
    r.severity = model::Severity::kMajor;
    evidence_.Add(r);
  }
  evidence_.Add(Scores(kNow - 1 * kDay, {{"naming", 6}}));
  evidence_.Add(Scores(kNow + 1 * kDay, {{"naming", 7}}));
  EXPECT_EQ(Json(evidence_.Candidates(kNow + 2 * kDay)),
            R"([{"theme":"retries","points":5,"days":5,)"
            R"("introducedAt":"2025-07-11T09:30:00.000Z","weight":2.142857,)"
            R"("effectiveness":1.0}])");
}

}  // namespace
}  // namespace kaizen::learn
