#include "learn/reviews/preferences.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

namespace kaizen::learn {
namespace {

constexpr int64_t kNow = 1752226200000;  // 2025-07-11T09:30:00Z
constexpr int64_t kDay = model::kMsPerDay;

model::WorkView Option(std::string_view type, std::string_view model,
                       std::string_view server = "") {
  model::WorkView w;
  w.type = type;
  w.model = model;
  w.server_type = server;
  return w;
}

model::ReviewView Comparison(int64_t at, model::WorkView a, model::WorkView b,
                             std::string_view preferred, std::string_view strength = "moderate") {
  model::ReviewView r;
  r.at_ms = at;
  r.comparison = model::ComparisonView{a, b, preferred, strength, {}};
  return r;
}

const AttributePreference* Find(const PreferenceResult& r, std::string_view attribute) {
  for (const auto& p : r.vector) {
    if (p.attribute == attribute) return &p;
  }
  return nullptr;
}

double Weight(const DimensionWeights& w, std::string_view dimension) {
  for (const auto& [d, v] : w.by_dimension) {
    if (d == dimension) return v;
  }
  return NAN;
}

std::string Json(const PreferenceResult& r) {
  rapidjson::StringBuffer buffer;
  base::JsonWriter w(buffer);
  WriteJson(w, r);
  return buffer.GetString();
}

class PreferenceLearnerTest : public ::testing::Test {
 protected:
  PreferenceConfig config_;
  SignalWeightConfig weights_;
  PreferenceLearner learner_{config_, weights_};
};

// ---- Preference vector ------------------------------------------------------------------------

TEST_F(PreferenceLearnerTest, EmptyHasNoVectorAndEqualNothing) {
  PreferenceResult r = learner_.Result(kNow);
  EXPECT_EQ(r.comparisons, 0);
  EXPECT_FALSE(r.stable);
  EXPECT_TRUE(r.vector.empty());
  EXPECT_TRUE(r.dimension_winners.empty());
  EXPECT_FALSE(r.weights.fitted);
  EXPECT_EQ(r.weights.n, 0);
  EXPECT_TRUE(r.weights.by_dimension.empty());
  EXPECT_EQ(Json(r), R"({"comparisons":0,"stable":false,"vector":{},"dimensionWinners":{},)"
                     R"("weights":{"fitted":false,"n":0,"byDimension":{}}})");
}

TEST_F(PreferenceLearnerTest, PreferredAttributeGainsHalfOfKFromEvenStart) {
  // Shared type:design gets no update; E_A = 0.5, so delta = 32 x 1 x 1 x (1 - 0.5) = 16.
  learner_.Add(Comparison(kNow, Option("design", "opus"), Option("design", "sonnet"), "A"));
  PreferenceResult r = learner_.Result(kNow);
  EXPECT_EQ(r.comparisons, 1);
  ASSERT_EQ(r.vector.size(), 2u);
  EXPECT_EQ(r.vector[0].attribute, "model:opus");  // sorted; type:design never appears
  EXPECT_EQ(r.vector[1].attribute, "model:sonnet");
  EXPECT_DOUBLE_EQ(r.vector[0].rating, 1516);
  EXPECT_DOUBLE_EQ(r.vector[1].rating, 1484);
  EXPECT_NEAR(r.vector[0].preference, 0.5230095872975623, 1e-12);
  EXPECT_NEAR(r.vector[1].preference, 0.4769904127024377, 1e-12);
  EXPECT_EQ(r.vector[0].comparisons, 1);
  EXPECT_EQ(r.vector[0].last_updated_ms, kNow);
}

TEST_F(PreferenceLearnerTest, SecondComparisonUsesCurrentRatings) {
  learner_.Add(Comparison(kNow, Option("design", "opus"), Option("design", "sonnet"), "A"));
  // Now sonnet wins against opus: E_A = 1/(1+10^(-32/400)) = 0.54592..., delta = -17.4695...
  learner_.Add(Comparison(kNow, Option("design", "opus"), Option("design", "sonnet"), "B"));
  PreferenceResult r = learner_.Result(kNow);
  EXPECT_EQ(r.comparisons, 2);
  EXPECT_NEAR(Find(r, "model:opus")->rating, 1498.5304984710244, 1e-9);
  EXPECT_NEAR(Find(r, "model:sonnet")->rating, 1501.4695015289756, 1e-9);
  EXPECT_EQ(Find(r, "model:opus")->comparisons, 2);
}

TEST_F(PreferenceLearnerTest, SideRatingIsMeanOfItsUnsharedAttributesDecayedToTheComparison) {
  // First: shopify 1516, stripe 1484. Thirty days later they have decayed to 1515.2 and 1484.8;
  // R_A = mean(type:design 1500, server:shopify 1515.2) = 1507.6, R_B = 1492.4.
  learner_.Add(Comparison(kNow - 30 * kDay, Option("design", "opus", "shopify"),
                          Option("design", "opus", "stripe"), "A"));
  learner_.Add(Comparison(kNow, Option("design", "opus", "shopify"),
                          Option("code-module", "opus", "stripe"), "A"));
  PreferenceResult r = learner_.Result(kNow);
  const double delta = 15.300460377624578;  // 32 x (1 - 1/(1+10^(-15.2/400)))
  EXPECT_NEAR(Find(r, "type:design")->rating, 1500 + delta, 1e-9);
  EXPECT_NEAR(Find(r, "server:shopify")->rating, 1515.2 + delta, 1e-9);
  EXPECT_NEAR(Find(r, "type:code-module")->rating, 1500 - delta, 1e-9);
  EXPECT_NEAR(Find(r, "server:stripe")->rating, 1484.8 - delta, 1e-9);
  EXPECT_EQ(Find(r, "model:opus"), nullptr);  // always shared
  EXPECT_EQ(Find(r, "server:shopify")->comparisons, 2);
  EXPECT_EQ(Find(r, "type:design")->comparisons, 1);
}

TEST_F(PreferenceLearnerTest, SideWithoutDistinguishingAttributesIsRatedInitial) {
  // B has no model: A's model:opus is the only unshared attribute, and B counts as 1500.
  learner_.Add(Comparison(kNow, Option("design", "opus"), Option("design", ""), "B"));
  PreferenceResult r = learner_.Result(kNow);
  ASSERT_EQ(r.vector.size(), 1u);
  EXPECT_DOUBLE_EQ(Find(r, "model:opus")->rating, 1484);
}

TEST_F(PreferenceLearnerTest, StrengthAndReviewWeightMultiplyTheUpdate) {
  // 32 x overwhelming 2 x very-unsure 0.4 x strong override 2 x (1 - 0.5) = 25.6.
  model::ReviewView r =
      Comparison(kNow, Option("design", "opus"), Option("design", "sonnet"), "A", "overwhelming");
  r.confidence = model::ConfidenceLevel::kVeryUnsure;
  r.override_weight = model::Override::kStrong;
  learner_.Add(r);
  EXPECT_NEAR(Find(learner_.Result(kNow), "model:opus")->rating, 1525.6, 1e-9);
}

TEST_F(PreferenceLearnerTest, SlightPreferenceMovesAQuarterOfK) {
  learner_.Add(
      Comparison(kNow, Option("design", "opus"), Option("design", "sonnet"), "A", "slight"));
  EXPECT_DOUBLE_EQ(Find(learner_.Result(kNow), "model:opus")->rating, 1508);
}

TEST_F(PreferenceLearnerTest, BothGoodBetweenEqualsCountsButMovesNothing) {
  learner_.Add(Comparison(kNow, Option("design", "opus"), Option("design", "sonnet"), "both-good"));
  PreferenceResult r = learner_.Result(kNow);
  EXPECT_EQ(r.comparisons, 1);
  EXPECT_DOUBLE_EQ(Find(r, "model:opus")->rating, 1500);
  EXPECT_EQ(Find(r, "model:opus")->comparisons, 1);
}

TEST_F(PreferenceLearnerTest, BothGoodPullsRatingsTogether) {
  learner_.Add(Comparison(kNow, Option("design", "opus"), Option("design", "sonnet"), "A"));
  learner_.Add(Comparison(kNow, Option("design", "opus"), Option("design", "sonnet"), "both-good"));
  // delta = 32 x (0.5 - 0.5459219227804837) = -1.4695...
  EXPECT_NEAR(Find(learner_.Result(kNow), "model:opus")->rating, 1516 - 1.4695015289756784, 1e-9);
}

TEST_F(PreferenceLearnerTest, NeitherLeavesTheVectorAlone) {
  learner_.Add(Comparison(kNow, Option("design", "opus"), Option("design", "sonnet"), "neither"));
  PreferenceResult r = learner_.Result(kNow);
  EXPECT_EQ(r.comparisons, 0);
  EXPECT_TRUE(r.vector.empty());
}

TEST_F(PreferenceLearnerTest, DeviationDecaysFivePercentPerMonthAtQueryTime) {
  learner_.Add(Comparison(kNow, Option("design", "opus"), Option("design", "sonnet"), "A"));
  EXPECT_NEAR(Find(learner_.Result(kNow + 30 * kDay), "model:opus")->rating, 1515.2, 1e-9);
  EXPECT_NEAR(Find(learner_.Result(kNow + 60 * kDay), "model:opus")->rating, 1514.44, 1e-9);
  EXPECT_NEAR(Find(learner_.Result(kNow + 15 * kDay), "model:sonnet")->rating,
              1500 - 16 * std::sqrt(0.95), 1e-9);
  // A query before the last update does not inflate the rating.
  EXPECT_DOUBLE_EQ(Find(learner_.Result(kNow - 10 * kDay), "model:opus")->rating, 1516);
}

TEST_F(PreferenceLearnerTest, StableFromFiftyComparisons) {
  for (int i = 0; i < 49; ++i) {
    learner_.Add(Comparison(kNow, Option("design", "opus"), Option("design", "sonnet"), "A"));
  }
  EXPECT_FALSE(learner_.Result(kNow).stable);
  learner_.Add(Comparison(kNow, Option("design", "opus"), Option("design", "sonnet"), "neither"));
  EXPECT_FALSE(learner_.Result(kNow).stable);  // "neither" is not a comparison that counts
  learner_.Add(Comparison(kNow, Option("design", "opus"), Option("design", "sonnet"), "B"));
  EXPECT_TRUE(learner_.Result(kNow).stable);
  EXPECT_EQ(learner_.Result(kNow).comparisons, 50);
}

// ---- Dimension winners ------------------------------------------------------------------------

TEST_F(PreferenceLearnerTest, DimensionWinnersCountAndAgreeWithDecisiveChoices) {
  model::ReviewView r1 =
      Comparison(kNow, Option("design", "opus"), Option("design", "sonnet"), "A");
  r1.comparison->dimensions = {{"design-aesthetics", 'A'}, {"design-ux", 'B'}, {"naming", 'T'}};
  model::ReviewView r2 =
      Comparison(kNow, Option("design", "opus"), Option("design", "sonnet"), "B");
  r2.comparison->dimensions = {{"design-aesthetics", 'B'}, {"design-ux", 'A'}};
  // both-good and neither count winners but say nothing about agreement.
  model::ReviewView r3 =
      Comparison(kNow, Option("design", "opus"), Option("design", "sonnet"), "both-good");
  r3.comparison->dimensions = {{"design-aesthetics", 'A'}, {"design-ux", 'A'}};
  model::ReviewView r4 =
      Comparison(kNow, Option("design", "opus"), Option("design", "sonnet"), "A");
  r4.comparison->dimensions = {{"design-ux", 'A'}};
  for (const auto& r : {r1, r2, r3, r4}) learner_.Add(r);

  PreferenceResult r = learner_.Result(kNow);
  ASSERT_EQ(r.dimension_winners.size(), 3u);
  const DimensionWinner& aesthetics = r.dimension_winners[0];
  EXPECT_EQ(aesthetics.dimension, "design-aesthetics");
  EXPECT_EQ(aesthetics.a, 2);
  EXPECT_EQ(aesthetics.b, 1);
  EXPECT_EQ(aesthetics.tie, 0);
  EXPECT_EQ(aesthetics.agrees_with_preferred, 1.0);  // r1 and r2 agree
  const DimensionWinner& ux = r.dimension_winners[1];
  EXPECT_EQ(ux.dimension, "design-ux");
  EXPECT_EQ(ux.a, 3);
  EXPECT_EQ(ux.b, 1);
  EXPECT_NEAR(*ux.agrees_with_preferred, 1.0 / 3.0, 1e-12);  // r4 agrees; r1, r2 do not
  const DimensionWinner& naming = r.dimension_winners[2];
  EXPECT_EQ(naming.tie, 1);
  EXPECT_FALSE(naming.agrees_with_preferred.has_value());  // only a tie
}

// ---- Dimension weights and the score predictor ------------------------------------------------

model::ReviewView Scored(model::Decision d, std::vector<model::ScoreView> scores) {
  model::ReviewView r;
  r.at_ms = kNow;
  r.decision = d;
  r.scores = std::move(scores);
  return r;
}

TEST_F(PreferenceLearnerTest, EqualWeightsOverDimensionsSeenBeforeThirtyReviews) {
  for (int i = 0; i < 29; ++i) {
    learner_.Add(Scored(i % 2 ? model::Decision::kApproved : model::Decision::kRejected,
                        {{"code-quality", i % 2 ? 9.0 : 2.0}, {"naming", 5}}));
  }
  learner_.Add(Scored(model::Decision::kDeferred, {{"dx", 7}}));  // seen, but no target
  DimensionWeights w = learner_.Weights();
  EXPECT_FALSE(w.fitted);
  EXPECT_EQ(w.n, 29);
  ASSERT_EQ(w.by_dimension.size(), 3u);
  EXPECT_EQ(w.by_dimension[0].first, "code-quality");
  EXPECT_EQ(w.by_dimension[1].first, "dx");
  EXPECT_EQ(w.by_dimension[2].first, "naming");
  for (const auto& [d, v] : w.by_dimension) EXPECT_DOUBLE_EQ(v, 1.0 / 3.0) << d;
  // Unfitted prediction is the plain mean.
  EXPECT_DOUBLE_EQ(learner_.PredictScore({{"code-quality", 8}, {"naming", 4}}), 6);
}

TEST_F(PreferenceLearnerTest, FittedWeightsFavorTheDimensionThatPredictsTheDecision) {
  // approved: 9a + 5b = 10, rejected: 2a + 5b = 1 -> a = 9/7, b = -11/35, clipped to 0.
  for (int i = 0; i < 30; ++i) {
    learner_.Add(Scored(i % 2 ? model::Decision::kApproved : model::Decision::kNeedsWork,
                        {{"code-quality", i % 2 ? 9.0 : 2.0}, {"naming", 5}}));
  }
  DimensionWeights w = learner_.Weights();
  EXPECT_TRUE(w.fitted);
  EXPECT_EQ(w.n, 30);
  EXPECT_DOUBLE_EQ(Weight(w, "code-quality"), 1);
  EXPECT_DOUBLE_EQ(Weight(w, "naming"), 0);
  EXPECT_DOUBLE_EQ(learner_.PredictScore({{"code-quality", 7}, {"naming", 3}}), 7);
  // Renormalized over the dimensions given; all of weight 0 falls back to their mean.
  EXPECT_DOUBLE_EQ(learner_.PredictScore({{"naming", 3}}), 3);
  EXPECT_DOUBLE_EQ(learner_.PredictScore({{"naming", 3}, {"vibes", 5}}), 4);
  EXPECT_DOUBLE_EQ(learner_.PredictScore({}), 0);
}

TEST_F(PreferenceLearnerTest, UnscoredDimensionIsImputedWithTheReviewMean) {
  // Approved reviews score only naming 9 (code-quality imputed 9); rejected score cq 2, naming 5.
  // 9a + 9b = 10, 2a + 5b = 1 -> b = -11/27 < 0: code-quality takes all the weight. (Imputing 0
  // instead would give naming all of it.)
  for (int i = 0; i < 30; ++i) {
    if (i % 2) {
      learner_.Add(Scored(model::Decision::kApproved, {{"naming", 9}}));
    } else {
      learner_.Add(Scored(model::Decision::kRejected, {{"code-quality", 2}, {"naming", 5}}));
    }
  }
  DimensionWeights w = learner_.Weights();
  EXPECT_TRUE(w.fitted);
  EXPECT_DOUBLE_EQ(Weight(w, "code-quality"), 1);
  EXPECT_DOUBLE_EQ(Weight(w, "naming"), 0);
}

TEST_F(PreferenceLearnerTest, ReviewsWithoutDecisionOrSeedDimensionsAreNotFitted) {
  learner_.Add(Scored(model::Decision::kNone, {{"naming", 5}}));
  learner_.Add(Scored(model::Decision::kDeferred, {{"naming", 5}}));
  learner_.Add(Scored(model::Decision::kApproved, {{"vibes", 5}}));
  learner_.Add(Scored(model::Decision::kApproved, {}));
  DimensionWeights w = learner_.Weights();
  EXPECT_EQ(w.n, 0);
  ASSERT_EQ(w.by_dimension.size(), 1u);
  EXPECT_EQ(w.by_dimension[0].first, "naming");
  EXPECT_DOUBLE_EQ(w.by_dimension[0].second, 1);
}

TEST_F(PreferenceLearnerTest, FittedWeightsAreNormalizedToSumOne) {
  // Mirror-image evidence: the raw least-squares weights are equal (about 0.6 each, not 0.5).
  for (int i = 0; i < 10; ++i) {
    learner_.Add(Scored(model::Decision::kApproved, {{"security", 10}, {"performance", 8}}));
    learner_.Add(Scored(model::Decision::kApproved, {{"security", 8}, {"performance", 10}}));
    learner_.Add(Scored(model::Decision::kRejected, {{"security", 2}, {"performance", 3}}));
    learner_.Add(Scored(model::Decision::kRejected, {{"security", 3}, {"performance", 2}}));
  }
  DimensionWeights w = learner_.Weights();
  EXPECT_TRUE(w.fitted);
  EXPECT_EQ(w.n, 40);
  EXPECT_NEAR(Weight(w, "security"), 0.5, 1e-9);
  EXPECT_NEAR(Weight(w, "performance"), 0.5, 1e-9);
  EXPECT_NEAR(learner_.PredictScore({{"security", 9}, {"performance", 5}}), 7, 1e-8);
}

TEST_F(PreferenceLearnerTest, AllNegativeFitFallsBackToEqualWeights) {
  // Scores in 1..10 cannot do this (zero weights would fit better than all-negative ones), but
  // hand-built views can: approved -2a + 5b = 10, rejected -a + 5b = 1 -> a = -9, b = -1.6.
  for (int i = 0; i < 30; ++i) {
    learner_.Add(Scored(i % 2 ? model::Decision::kApproved : model::Decision::kRejected,
                        {{"creativity", i % 2 ? -2.0 : -1.0}, {"dx", 5}}));
  }
  DimensionWeights w = learner_.Weights();
  EXPECT_EQ(w.n, 30);
  EXPECT_FALSE(w.fitted);
  EXPECT_DOUBLE_EQ(Weight(w, "creativity"), 0.5);
  EXPECT_DOUBLE_EQ(Weight(w, "dx"), 0.5);
}

TEST_F(PreferenceLearnerTest, JsonShape) {
  learner_.Add(Comparison(kNow, Option("design", "opus"), Option("design", "sonnet"), "A"));
  model::ReviewView r = Comparison(kNow, Option("design", "opus"), Option("design", "opus"), "B");
  r.comparison->dimensions = {{"design-ux", 'B'}};
  r.decision = model::Decision::kApproved;
  r.scores = {{"naming", 8}, {"dx", 6}};
  learner_.Add(r);
  EXPECT_EQ(Json(learner_.Result(kNow)),
            R"({"comparisons":2,"stable":false,"vector":{)"
            R"("model:opus":{"rating":1516.0,"preference":0.52301,"comparisons":1,)"
            R"("lastUpdated":"2025-07-11T09:30:00.000Z"},)"
            R"("model:sonnet":{"rating":1484.0,"preference":0.47699,"comparisons":1,)"
            R"("lastUpdated":"2025-07-11T09:30:00.000Z"}},)"
            R"("dimensionWinners":{"design-ux":{"A":0,"B":1,"tie":0,"agreesWithPreferred":1.0}},)"
            R"("weights":{"fitted":false,"n":1,"byDimension":{"dx":0.5,"naming":0.5}}})");
}

}  // namespace
}  // namespace kaizen::learn
