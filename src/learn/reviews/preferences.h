// Design taste (seed 000 §3.3): an ELO-like preference vector learned from side-by-side
// comparisons, which quality dimensions decide those comparisons, and the dimension weights of
// the design-quality score predictor. Preference decay is seed 000 §9.3.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "base/json_writer.h"
#include "learn/config_field.h"
#include "learn/least_squares.h"
#include "learn/signal_weight.h"
#include "learn/state_fwd.h"
#include "learn/string_hash.h"  // StringHash
#include "model/inputs.h"

namespace kaizen::learn {

struct PreferenceConfig {
  double elo_k = 32;          // §3.3 "ELO-like": the classic K factor
  double elo_initial = 1500;  // rating of an attribute never compared
  double slight = 0.5;        // §3.3 "preference strength multiplies the update magnitude"
  double moderate = 1;
  double strong = 1.5;
  double overwhelming = 2;
  double stable_after = 50;         // §3.3 "After 50+ comparisons, the vector stabilizes"
  double min_reviews_for_fit = 30;  // §3.3 "after 30+ data points, fit a weighted model"
  double decay_per_month = 0.05;    // §9.3 "Old preferences decay at 5% per month"
  double month_days = 30;

  ConfigFields Fields();
};

// One attribute of compared work (`type:<type>`, `model:<model>`, `server:<server type>`).
struct AttributePreference {
  std::string attribute;
  double rating = 0;      // decayed to `now`
  double preference = 0;  // 0..1: the expected score against an unrated attribute
  int64_t comparisons = 0;
  int64_t last_updated_ms = 0;
};

struct DimensionWinner {
  std::string dimension;
  int64_t a = 0, b = 0, tie = 0;
  // Over comparisons with A or B preferred where this dimension had a winner: how often the
  // dimension's winner was the preferred option. nullopt when there were none.
  std::optional<double> agrees_with_preferred;
};

struct DimensionWeights {
  bool fitted = false;  // least squares (true) or equal weights (false)
  int64_t n = 0;        // reviews with scores and an approve/reject/needs-work decision
  std::vector<std::pair<std::string, double>> by_dimension;  // sorted by dimension; sum 1
};

struct PreferenceResult {
  int64_t comparisons = 0;  // comparisons that updated the vector (A, B or both-good)
  bool stable = false;
  std::vector<AttributePreference> vector;         // sorted by attribute
  std::vector<DimensionWinner> dimension_winners;  // sorted by dimension
  DimensionWeights weights;
};

class PreferenceLearner {
 public:
  PreferenceLearner(const PreferenceConfig& config, const SignalWeightConfig& weights);

  // Folds one review: its comparison (if any) into the vector and the dimension winners, its
  // scores and decision (if both) into the predictor's regression. Reviews must come in log
  // order (decay between updates assumes time moves forward; an earlier timestamp decays 0).
  void Add(const model::ReviewView& review);

  PreferenceResult Result(int64_t now_ms) const;

  // The dimension weights as they stand: equal over the dimensions seen until
  // min_reviews_for_fit reviews can be fitted, least squares after.
  DimensionWeights Weights() const;

  // §3.3: predicted_score = sum(w_i x s_i), the weights renormalized over the dimensions given.
  // Equal weights (the plain mean) before the fit, or when the given dimensions all have weight
  // 0. Returns 0 for an empty input. A dimension given twice counts twice.
  double PredictScore(const std::vector<model::ScoreView>& self_assessed) const;

 private:
  static constexpr size_t kDimensions = 13;  // seed 000 QualityDimension

  struct Rating {
    double rating = 0;
    int64_t last_updated_ms = 0;
    int64_t comparisons = 0;
    template <class Archive>
    void serialize(Archive& ar);
  };
  struct Winner {
    int64_t a = 0, b = 0, tie = 0, decided = 0, agreed = 0;
    template <class Archive>
    void serialize(Archive& ar);
  };

  void AddComparison(const model::ReviewView& review, const model::ComparisonView& c);
  void AddScores(const model::ReviewView& review);
  double RatingAt(const Rating& r, int64_t now_ms) const;
  Rating& FindRating(std::string_view attribute);
  static void AttributesOf(const model::WorkView& w, std::vector<std::string>* out);
  double StrengthMultiplier(std::string_view strength) const;
  // scratch_ and attributes_a_/_b_ are scratch space of one Add: not saved.
  friend class cereal::access;
  template <class Archive>
  void serialize(Archive& ar);

  PreferenceConfig config_;
  SignalWeightConfig weights_;
  int64_t comparisons_ = 0;
  std::unordered_map<std::string, Rating, StringHash, std::equal_to<>> ratings_;
  std::unordered_map<std::string, Winner, StringHash, std::equal_to<>> winners_;
  NormalEquations fit_{kDimensions};
  std::array<bool, kDimensions> seen_{};                  // scored in any review
  std::array<bool, kDimensions> fitted_{};                // scored in a review the regression holds
  std::string scratch_;                                   // attribute key being built
  std::vector<std::string> attributes_a_, attributes_b_;  // reused across comparisons
};

void WriteJson(base::JsonWriter& w, const PreferenceResult& result);  // key `preferences`

}  // namespace kaizen::learn
