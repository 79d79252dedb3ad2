#include "learn/outcomes/outcome_score.h"

namespace kaizen::learn {
namespace {

// seed 002 "What Gets Scored", in hundredths so that sums are exact.
constexpr int kFastDuration = 100, kMediumDuration = 60, kSlowDuration = 20;
constexpr int kNoErrors = 100, kFewErrors = 60, kManyErrors = 20;
constexpr int kNoRetries = 100, kOneRetry = 70, kManyRetries = 30;
// seed 002 "Weighted Score Calculation": success 40%, each other signal 20%.
constexpr int kSuccessWeightPct = 40, kSignalWeightPct = 20;

// Thresholds are decimal fractions (0.7) that doubles hold only approximately; a score within
// this many hundredths of a threshold is on it.
constexpr double kBoundaryTolerance = 1e-6;

int DurationHundredths(double duration_ms, const OutcomeConfig& c) {
  // seed 002: fast (<5 min), medium (5-30 min), slow (>30 min): both ends of medium included.
  if (duration_ms < c.fast_ms) return kFastDuration;
  if (duration_ms > c.slow_ms) return kSlowDuration;
  return kMediumDuration;
}

int ErrorHundredths(int64_t errors, const OutcomeConfig& c) {
  if (errors <= 0) return kNoErrors;
  return static_cast<double>(errors) <= c.max_errors_for_helpful ? kFewErrors : kManyErrors;
}

int RetryHundredths(int64_t retries) {
  if (retries <= 0) return kNoRetries;
  return retries == 1 ? kOneRetry : kManyRetries;
}

}  // namespace

std::string_view FeedbackTypeName(FeedbackType type) {
  switch (type) {
    case FeedbackType::kHelpful:
      return "helpful";
    case FeedbackType::kHarmful:
      return "harmful";
    case FeedbackType::kNeutral:
      break;
  }
  return "neutral";
}

OutcomeScore ScoreOutcome(const model::OutcomeView& outcome, const OutcomeConfig& config) {
  const int d = DurationHundredths(outcome.duration_ms, config);
  const int e = ErrorHundredths(outcome.error_count, config);
  const int r = RetryHundredths(outcome.retry_count);
  // Each signal is a multiple of 10 hundredths, so (d + e + r) * 20 / 100 is a whole number.
  const int raw = (outcome.success ? kSuccessWeightPct : 0) + (d + e + r) * kSignalWeightPct / 100;

  OutcomeScore s;
  s.raw_hundredths = raw;
  s.raw_score = raw / 100.0;
  s.duration_score = d / 100.0;
  s.error_score = e / 100.0;
  s.retry_score = r / 100.0;
  if (raw >= config.helpful_threshold * 100 - kBoundaryTolerance) {
    s.type = FeedbackType::kHelpful;
  } else if (raw <= config.harmful_threshold * 100 + kBoundaryTolerance) {
    s.type = FeedbackType::kHarmful;
  } else {
    s.type = FeedbackType::kNeutral;
  }
  return s;
}

}  // namespace kaizen::learn
