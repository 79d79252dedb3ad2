#include "learn/delegation/calibration.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>

#include "learn/reviews/approval.h"
#include "learn/state_archive.h"

namespace kaizen::learn {

ConfigFields CalibrationConfig::Fields() {
  return {
      {"calibration.min_bucket", &min_bucket, 1, 1e9, true,
       "pairs a confidence bucket needs before Calibrate() uses its actual approval rate "
       "(seed 000 §9.3: 5 data points)"},
  };
}

CalibrationCurve::CalibrationCurve(const CalibrationConfig& config) : config_(config) {}

int CalibrationCurve::BucketOf(double confidence) {
  if (!(confidence > 0)) return 0;  // also NaN
  // seed 000 §6.2: floor(confidence * 10). The 1e-9 keeps a boundary such as 0.3 (which is
  // 0.29999... in binary) in its own bucket.
  double b = std::floor(confidence * 10 + 1e-9);
  return b >= CalibrationResult::kBuckets - 1 ? CalibrationResult::kBuckets - 1
                                              : static_cast<int>(b);
}

void CalibrationCurve::Add(const model::ReviewView& review) {
  if (review.prediction_delta && std::isfinite(*review.prediction_delta)) {
    ++predictions_;
    delta_sum_ += *review.prediction_delta;
    abs_delta_sum_ += std::fabs(*review.prediction_delta);
  }
  if (!review.work_known || !IsDecided(review.decision)) return;
  AddPair(review.work.confidence, review.decision == model::Decision::kApproved);
}

void CalibrationCurve::AddPair(double confidence, bool approved) {
  if (!std::isfinite(confidence)) return;
  Bucket& b = buckets_[BucketOf(confidence)];
  ++b.n;
  b.approved += approved ? 1 : 0;
  b.predicted_sum += confidence;
}

CalibrationResult CalibrationCurve::Result() const {
  CalibrationResult r;
  for (int i = 0; i < CalibrationResult::kBuckets; ++i) r.n += buckets_[i].n;
  double ece = 0;
  for (int i = 0; i < CalibrationResult::kBuckets; ++i) {
    const Bucket& b = buckets_[i];
    CalibrationBucket& out = r.buckets[i];
    out.lower = i / 10.0;
    out.upper = (i + 1) / 10.0;
    out.n = b.n;
    if (b.n == 0) continue;
    const double n = static_cast<double>(b.n);
    out.avg_predicted = b.predicted_sum / n;
    out.actual_rate = static_cast<double>(b.approved) / n;
    out.error = *out.avg_predicted - *out.actual_rate;
    ece += n / static_cast<double>(r.n) * std::fabs(*out.error);
  }
  if (r.n > 0) r.ece = ece;
  r.score_prediction.n = predictions_;
  if (predictions_ > 0) {
    r.score_prediction.mean_abs_error = abs_delta_sum_ / static_cast<double>(predictions_);
    r.score_prediction.mean_delta = delta_sum_ / static_cast<double>(predictions_);
  }
  return r;
}

double CalibrationCurve::Calibrate(double raw) const {
  const Bucket& b = buckets_[BucketOf(raw)];
  if (b.n == 0 || static_cast<double>(b.n) < config_.min_bucket) return raw;
  return static_cast<double>(b.approved) / static_cast<double>(b.n);
}

namespace {

std::string Opt(const std::optional<double>& x) {
  return x ? fmt::format("{:.3f}", *x) : std::string("-");
}

// "0.7" -> 7; "all" -> -1; anything else -> nullopt.
std::optional<int> ParseBucket(std::string_view name) {
  if (name == "all") return -1;
  double v = 0;
  auto [end, ec] = std::from_chars(name.data(), name.data() + name.size(), v);
  if (ec != std::errc() || end != name.data() + name.size()) return std::nullopt;
  // from_chars reads "nan" and "inf"; NaN fails every comparison below and would reach the cast.
  if (!std::isfinite(v)) return std::nullopt;
  double tenths = std::round(v * 10);
  if (std::fabs(v * 10 - tenths) > 1e-6 || tenths < 0 || tenths >= CalibrationResult::kBuckets) {
    return std::nullopt;
  }
  return static_cast<int>(tenths);
}

}  // namespace

bool CalibrationCurve::ExplainCalibration(std::string_view bucket, std::string* text) const {
  const std::optional<int> which = ParseBucket(bucket);
  if (!which) return false;
  const CalibrationResult r = Result();
  std::string out = fmt::format(
      "Confidence calibration: (bubaConfidence, approved?) of decided reviews with a known "
      "work product\n"
      "error = avgPredicted - actualRate (positive: overconfident); Calibrate() uses actualRate "
      "once a bucket has {}+ pairs\n"
      "bucket      n      avgPredicted  actualRate  error   calibrated\n",
      config_.min_bucket);
  for (int i = 0; i < CalibrationResult::kBuckets; ++i) {
    if (*which != -1 && *which != i) continue;
    const CalibrationBucket& b = r.buckets[i];
    const bool used = b.n > 0 && static_cast<double>(b.n) >= config_.min_bucket;
    out += fmt::format("[{:.1f}, {:.1f}{} {:<6} {:<13} {:<11} {:<7} {}\n", b.lower, b.upper,
                       i == CalibrationResult::kBuckets - 1 ? "]" : ")", b.n, Opt(b.avg_predicted),
                       Opt(b.actual_rate), Opt(b.error),
                       used ? fmt::format("{:.3f}", *b.actual_rate)
                            : fmt::format("raw (n {} < {})", b.n, config_.min_bucket));
  }
  if (*which == -1) {
    out += fmt::format("pairs: {}; expected calibration error: {}\n", r.n, Opt(r.ece));
    out += fmt::format("score prediction: {} reviews; mean |delta| {}; mean delta {}\n",
                       r.score_prediction.n, Opt(r.score_prediction.mean_abs_error),
                       Opt(r.score_prediction.mean_delta));
  }
  *text = std::move(out);
  return true;
}

void WriteJson(base::JsonWriter& w, const CalibrationResult& r) {
  w.StartObject();
  base::Key(w, "buckets");
  w.StartArray();
  for (const CalibrationBucket& b : r.buckets) {
    w.StartObject();
    base::Key(w, "lower");
    base::Num(w, b.lower);
    base::Key(w, "upper");
    base::Num(w, b.upper);
    base::Key(w, "avgPredicted");
    base::Num(w, b.avg_predicted);
    base::Key(w, "actualRate");
    base::Num(w, b.actual_rate);
    base::Key(w, "error");
    base::Num(w, b.error);
    base::Key(w, "n");
    w.Int64(b.n);
    w.EndObject();
  }
  w.EndArray();
  base::Key(w, "ece");
  base::Num(w, r.ece);
  base::Key(w, "n");
  w.Int64(r.n);
  base::Key(w, "scorePrediction");
  w.StartObject();
  base::Key(w, "n");
  w.Int64(r.score_prediction.n);
  base::Key(w, "meanAbsError");
  base::Num(w, r.score_prediction.mean_abs_error);
  base::Key(w, "meanDelta");
  base::Num(w, r.score_prediction.mean_delta);
  w.EndObject();
  w.EndObject();
}

// ---- State (Learner::SaveState) -------------------------------------------------------------

template <class Archive>
void CalibrationCurve::Bucket::serialize(Archive& ar) {
  ar(n, approved, predicted_sum);
}

template <class Archive>
void CalibrationCurve::serialize(Archive& ar) {
  ar(buckets_, predictions_, delta_sum_, abs_delta_sum_);
}

KZ_STATE_INSTANTIATE(CalibrationCurve);

}  // namespace kaizen::learn
