#include "learn/delegation/gates.h"

#include <gtest/gtest.h>

#include <string>

#include "learn/reviews/quality_index.h"
#include "model/timestamp.h"

namespace kaizen::learn {
namespace {

// 2025-07-11T12:00:00Z; the 30-day window is 2025-06-12 .. 2025-07-11.
const int64_t kNow = model::DaysFromCivil(2025, 7, 11) * model::kMsPerDay + 12 * 3'600'000;
const int64_t kWindowStart = model::DaysFromCivil(2025, 6, 12) * model::kMsPerDay;

class GatesTest : public ::testing::Test {
 protected:
  GateLearner learner_{GatesConfig{}, SignalWeightConfig{}};

  void Add(int n, double score, model::Decision d, int64_t at = kNow - 3'600'000,
           model::ConfidenceLevel conf = model::ConfidenceLevel::kNone,
           std::string_view dim = "error-handling") {
    for (int i = 0; i < n; ++i) {
      model::ReviewView r;
      r.at_ms = at;
      r.decision = d;
      r.confidence = conf;
      r.scores = {{dim, score}};
      learner_.Add(r);
    }
  }
};

std::string Json(const std::vector<ScoreGate>& gates) {
  rapidjson::StringBuffer buf;
  base::JsonWriter w(buf);
  WriteJson(w, gates);
  return buf.GetString();
}

TEST_F(GatesTest, EmptyHasNoGates) {
  EXPECT_TRUE(learner_.Gates(kNow).empty());
  EXPECT_EQ(Json(learner_.Gates(kNow)), "[]");
  std::string text = "untouched";
  EXPECT_FALSE(learner_.ExplainGate("error-handling", kNow, &text));
  EXPECT_EQ(text, "untouched");
}

TEST_F(GatesTest, ExactlyNinetyFivePercentBelowFiveIsAHardGateAndEightyFourASoftOneAbove) {
  Add(19, 4, model::Decision::kRejected);
  Add(1, 4, model::Decision::kApproved);   // t=5: 19/20 = 0.95 -> hard
  Add(2, 5, model::Decision::kNeedsWork);  // t=6: 21/25 = 0.84 -> soft
  Add(3, 5, model::Decision::kApproved);
  Add(10, 6, model::Decision::kApproved);  // t=7: 21/35 = 0.6 -> nothing
  std::vector<ScoreGate> gates = learner_.Gates(kNow);
  ASSERT_EQ(gates.size(), 2u);
  EXPECT_EQ(gates[0].kind, GateKind::kHard);
  EXPECT_EQ(gates[0].threshold, 5);
  EXPECT_DOUBLE_EQ(gates[0].rejection_rate, 0.95);
  EXPECT_EQ(gates[0].n_below, 20);
  EXPECT_EQ(gates[0].scores, 35);
  EXPECT_EQ(gates[1].kind, GateKind::kSoft);
  EXPECT_EQ(gates[1].threshold, 6);
  EXPECT_DOUBLE_EQ(gates[1].rejection_rate, 0.84);
  EXPECT_EQ(gates[1].n_below, 25);
  EXPECT_EQ(Json(gates),
            R"([{"dimension":"error-handling","threshold":5,"rejectionRate":0.95,"n":20,)"
            R"("kind":"hard","scores":35},)"
            R"({"dimension":"error-handling","threshold":6,"rejectionRate":0.84,"n":25,)"
            R"("kind":"soft","scores":35}])");
}

TEST_F(GatesTest, JustUnderNinetyFivePercentIsOnlySoft) {
  Add(18, 4, model::Decision::kRejected);
  Add(1, 4, model::Decision::kApproved);  // 18/19 = 0.947
  Add(10, 8, model::Decision::kApproved);
  std::vector<ScoreGate> gates = learner_.Gates(kNow);
  ASSERT_EQ(gates.size(), 1u);
  EXPECT_EQ(gates[0].kind, GateKind::kSoft);
  // t = 5..8 all have the same 19 scores below (no 5, 6, 7): the largest t wins.
  EXPECT_EQ(gates[0].threshold, 8);
  EXPECT_NEAR(gates[0].rejection_rate, 18.0 / 19, 1e-12);
}

TEST_F(GatesTest, NineteenScoresAreTooFewAndTwentyEnough) {
  Add(5, 2, model::Decision::kRejected);
  Add(14, 9, model::Decision::kApproved);
  EXPECT_TRUE(learner_.Gates(kNow).empty());
  Add(1, 9, model::Decision::kApproved);
  std::vector<ScoreGate> gates = learner_.Gates(kNow);
  ASSERT_EQ(gates.size(), 1u);
  EXPECT_EQ(gates[0].kind, GateKind::kHard);
  EXPECT_EQ(gates[0].threshold, 9);  // scores < 9 are the five 2s, all rejected
  EXPECT_EQ(gates[0].n_below, 5);
  EXPECT_EQ(gates[0].scores, 20);
}

TEST_F(GatesTest, FewerThanFiveScoresBelowMakeNoGate) {
  Add(4, 2, model::Decision::kRejected);
  Add(20, 9, model::Decision::kApproved);
  EXPECT_TRUE(learner_.Gates(kNow).empty());
}

TEST_F(GatesTest, SoftGateAtTheHardGatesThresholdIsNotReported) {
  Add(20, 3, model::Decision::kRejected);
  Add(10, 8, model::Decision::kApproved);
  std::vector<ScoreGate> gates = learner_.Gates(kNow);
  ASSERT_EQ(gates.size(), 1u);
  EXPECT_EQ(gates[0].kind, GateKind::kHard);
  EXPECT_EQ(gates[0].threshold, 8);
  EXPECT_DOUBLE_EQ(gates[0].rejection_rate, 1.0);
}

TEST_F(GatesTest, RejectionRateIsWeightedByTheReviewsConfidence) {
  // Unweighted 5/6 = 0.83 would be a soft gate; weighted 5 x 0.4 / (5 x 0.4 + 1 x 1.0) = 0.667.
  Add(5, 3, model::Decision::kRejected, kNow, model::ConfidenceLevel::kVeryUnsure);
  Add(1, 3, model::Decision::kApproved, kNow, model::ConfidenceLevel::kVerySure);
  Add(20, 9, model::Decision::kApproved);
  EXPECT_TRUE(learner_.Gates(kNow).empty());
  std::string text;
  ASSERT_TRUE(learner_.ExplainGate("error-handling", kNow, &text));
  EXPECT_NE(text.find("4   6      0.667"), std::string::npos) << text;
}

TEST_F(GatesTest, ScoresOutsideTheThirtyDayWindowDoNotCount) {
  Add(5, 2, model::Decision::kRejected, kWindowStart - 1);  // 2025-06-11T23:59:59.999Z: out
  Add(20, 9, model::Decision::kApproved, kWindowStart);     // 2025-06-12T00:00:00Z: in
  EXPECT_TRUE(learner_.Gates(kNow).empty());
  Add(5, 2, model::Decision::kRejected, kWindowStart);
  std::vector<ScoreGate> gates = learner_.Gates(kNow);
  ASSERT_EQ(gates.size(), 1u);
  EXPECT_EQ(gates[0].scores, 25);
  // A day later the first in-window scores have aged out too.
  EXPECT_TRUE(learner_.Gates(kNow + model::kMsPerDay).empty());
  // Scores after now's UTC day are not in the window either: on 2025-06-11 only its own 5.
  std::string text;
  ASSERT_TRUE(learner_.ExplainGate("error-handling", kWindowStart - 1, &text));
  EXPECT_NE(text.find("scores in window: 5 "), std::string::npos) << text;
}

TEST_F(GatesTest, DeferredScoresAreIgnored) {
  Add(5, 2, model::Decision::kDeferred);
  Add(20, 9, model::Decision::kApproved);
  EXPECT_TRUE(learner_.Gates(kNow).empty());
}

TEST_F(GatesTest, FractionalScoresRoundToTheNearestBucket) {
  Add(5, 4.5, model::Decision::kRejected);   // bucket 5: below 6, not below 5
  Add(5, 4.49, model::Decision::kRejected);  // bucket 4
  Add(20, 9, model::Decision::kApproved);
  std::vector<ScoreGate> gates = learner_.Gates(kNow);
  ASSERT_EQ(gates.size(), 1u);
  EXPECT_EQ(gates[0].threshold, 9);
  EXPECT_EQ(gates[0].n_below, 10);
  std::string text;
  ASSERT_TRUE(learner_.ExplainGate("error-handling", kNow, &text));
  EXPECT_NE(text.find("5   5      1.000"), std::string::npos) << text;
  EXPECT_NE(text.find("6   10     1.000"), std::string::npos) << text;
}

TEST_F(GatesTest, GatesAreSortedByDimension) {
  Add(5, 2, model::Decision::kRejected, kNow, model::ConfidenceLevel::kNone, "test-coverage");
  Add(20, 9, model::Decision::kApproved, kNow, model::ConfidenceLevel::kNone, "test-coverage");
  Add(5, 3, model::Decision::kRejected, kNow, model::ConfidenceLevel::kNone, "code-quality");
  Add(20, 9, model::Decision::kApproved, kNow, model::ConfidenceLevel::kNone, "code-quality");
  std::vector<ScoreGate> gates = learner_.Gates(kNow);
  ASSERT_EQ(gates.size(), 2u);
  EXPECT_EQ(gates[0].dimension, "code-quality");
  EXPECT_EQ(gates[1].dimension, "test-coverage");
}

TEST_F(GatesTest, ExplainSaysWhyThereIsNoGate) {
  std::string text;
  Add(5, 2, model::Decision::kRejected);
  Add(10, 9, model::Decision::kApproved);
  ASSERT_TRUE(learner_.ExplainGate("error-handling", kNow, &text));
  EXPECT_NE(text.find("no gate: 15 scores in the window < 20"), std::string::npos) << text;
  EXPECT_NE(text.find("window: 2025-06-12 .. 2025-07-11 (30 UTC days)"), std::string::npos) << text;
  Add(10, 9, model::Decision::kApproved);
  ASSERT_TRUE(learner_.ExplainGate("error-handling", kNow, &text));
  EXPECT_NE(text.find("hard gate: score must be >= 9 (rejection 1.000 >= 0.95, 5 below)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("no soft gate: no t above 9"), std::string::npos) << text;
}

TEST(GatesConfigTest, FieldsNameTheSeedDefaults) {
  GatesConfig c;
  ConfigFields f = c.Fields();
  ASSERT_EQ(f.size(), 5u);
  EXPECT_EQ(f[0].name, "gates.min_scores");
  EXPECT_EQ(*f[0].value, 20);
  EXPECT_EQ(f[1].name, "gates.window_days");
  EXPECT_EQ(*f[1].value, 30);
  EXPECT_EQ(*f[2].value, 0.95);
  EXPECT_EQ(*f[3].value, 0.80);
  EXPECT_EQ(f[4].name, "gates.min_below");
  EXPECT_EQ(*f[4].value, 5);
}

TEST(GateLearnerIndex, ScoresWithAndWithoutTheReadersDimensionIndexFoldAlike) {
  GateLearner by_name{GatesConfig{}, SignalWeightConfig{}};
  GateLearner mixed{GatesConfig{}, SignalWeightConfig{}};
  const int index = QualityDimensionIndex("error-handling");
  ASSERT_GE(index, 0);
  for (int i = 0; i < 40; ++i) {
    model::ReviewView r;
    r.at_ms = kNow - 3'600'000;
    r.decision = i < 19 || i == 25 ? model::Decision::kRejected : model::Decision::kApproved;
    const double score = i < 20 ? 3 : 8;
    r.scores = {{"error-handling", score}, {"house-style", score}};
    by_name.Add(r);
    // As EventReader reads them, except every third review, as a hand-made one.
    if (i % 3 != 0) {
      r.scores[0].quality_index = static_cast<int8_t>(index);
      r.scores[1].quality_index = -1;
    }
    mixed.Add(r);
  }
  EXPECT_EQ(Json(mixed.Gates(kNow)), Json(by_name.Gates(kNow)));
  ASSERT_EQ(by_name.Gates(kNow).size(), 2u);  // both dimensions gated
}

}  // namespace
}  // namespace kaizen::learn
