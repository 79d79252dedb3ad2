// Confidence calibration (seed 000 §3.1 "Confidence Calibration Table", §6.2 "Prediction
// Scoring Loop"): how often work the agent was X% sure of got approved, and how far its score
// predictions land from the reviewer's scores.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "base/json_writer.h"
#include "learn/config_field.h"
#include "learn/state_fwd.h"
#include "model/inputs.h"

namespace kaizen::learn {

struct CalibrationConfig {
  double min_bucket = 5;  // §9.3 "no rule is formed from fewer than 5 data points"

  ConfigFields Fields();
};

// One 0.1-wide confidence bucket [lower, upper); the last one includes 1.0.
struct CalibrationBucket {
  double lower = 0, upper = 0;
  int64_t n = 0;
  std::optional<double> avg_predicted;  // mean bubaConfidence; nullopt when n = 0
  std::optional<double> actual_rate;    // approved / n
  std::optional<double> error;          // avg_predicted - actual_rate: > 0 is overconfident
};

// §6.2 / §7.2 "Prediction Accuracy": bubaScorePrediction against the mean score given.
struct ScorePrediction {
  int64_t n = 0;
  std::optional<double> mean_abs_error;  // mean |_predictionDelta|
  std::optional<double> mean_delta;      // mean _predictionDelta: > 0 means pessimistic
};

struct CalibrationResult {
  static constexpr int kBuckets = 10;
  std::array<CalibrationBucket, kBuckets> buckets;
  std::optional<double> ece;  // expected calibration error: sum n_b / N x |error_b|
  int64_t n = 0;
  ScorePrediction score_prediction;
};

class CalibrationCurve {
 public:
  explicit CalibrationCurve(const CalibrationConfig& config);

  // A decided review whose work product is known adds (bubaConfidence, approved?); any review
  // with a _predictionDelta adds to the score prediction. O(1), never allocates.
  void Add(const model::ReviewView& review);
  // One (confidence, outcome) pair that no review decided: work whose recorded prediction an
  // automatic signal judged (seed 001: reverted or rewritten work is not approved). O(1).
  void AddPair(double confidence, bool approved);

  CalibrationResult Result() const;

  // The calibrated confidence for a raw one (§3.1 "Buba applies a calibration curve to raw
  // confidence"): the actual approval rate of raw's bucket once it holds min_bucket pairs, else
  // raw itself.
  double Calibrate(double raw) const;

  // `bucket` is a bucket's lower bound as written in the table ("0.7") or "all". Writes the
  // bucket's pairs, rates, error and what Calibrate() returns for it; false when the name is
  // not a bucket.
  bool ExplainCalibration(std::string_view bucket, std::string* text) const;

  // The bucket of a confidence: floor(conf x 10), 1.0 (and above) in the last, below 0 in the
  // first.
  static int BucketOf(double confidence);

 private:
  struct Bucket {
    int64_t n = 0, approved = 0;
    double predicted_sum = 0;  // in log order
    template <class Archive>
    void serialize(Archive& ar);
  };
  friend class cereal::access;
  template <class Archive>
  void serialize(Archive& ar);
  CalibrationConfig config_;
  std::array<Bucket, CalibrationResult::kBuckets> buckets_{};
  int64_t predictions_ = 0;
  double delta_sum_ = 0, abs_delta_sum_ = 0;
};

// Key `calibration`: {buckets: [{lower, upper, avgPredicted, actualRate, error, n}], ece, n,
// scorePrediction: {n, meanAbsError, meanDelta}}.
void WriteJson(base::JsonWriter& w, const CalibrationResult& result);

}  // namespace kaizen::learn
