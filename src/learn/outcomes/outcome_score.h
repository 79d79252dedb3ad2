// Implicit feedback scoring (seed 002 "Implicit Feedback Scoring"): a task outcome becomes a
// learning signal without anyone rating it. The thresholds of all outcome learning (scoring,
// criteria, pattern maturity, anti-patterns) live in OutcomeConfig, section `outcomes`.
#pragma once

#include <cstdint>
#include <string_view>

#include "learn/config_field.h"
#include "model/inputs.h"

namespace kaizen::learn {

struct OutcomeConfig {
  // seed 002 "Half-Life Formula" / maturityConfig.halfLifeDays
  double half_life_days = 90;
  // seed 002 "What Gets Scored" / learningConfig
  double fast_ms = 300'000;           // fastCompletionThresholdMs: faster than this is helpful
  double slow_ms = 1'800'000;         // slowCompletionThresholdMs: slower than this is harmful
  double max_errors_for_helpful = 2;  // maxErrorsForHelpful: 1..this errors are neutral
  // seed 002 "Weighted Score Calculation" thresholds
  double helpful_threshold = 0.7;
  double harmful_threshold = 0.4;
  // seed 002 "When Criteria Get Deprecated" / "Criterion Weight Calculation"
  double criterion_min_feedback = 3;
  double criterion_max_harmful_ratio = 0.3;
  double weight_floor = 0.1;
  // seed 002 "Pattern Maturity States" / maturityConfig
  double maturity_min_feedback = 3;
  double proven_min_helpful = 5;
  double proven_max_harmful_ratio = 0.15;
  double deprecation_harmful_ratio = 0.3;
  // seed 002 "Inversion Threshold" / antiPatternConfig
  double anti_pattern_min_observations = 3;
  double anti_pattern_failure_ratio = 0.6;
  // seed 002 "Multipliers in Decomposition"
  double candidate_multiplier = 0.5;
  double established_multiplier = 1.0;
  double proven_multiplier = 1.5;
  double deprecated_multiplier = 0;

  ConfigFields Fields() {
    return {
        {"outcomes.half_life_days", &half_life_days, 0.001, 36500, false,
         "days after which outcome feedback counts half (seed 002 Confidence Decay: 90)"},
        {"outcomes.fast_ms", &fast_ms, 0, 1e12, true,
         "a task faster than this scores duration 1.0 (seed 002 Implicit Feedback: 5 min)"},
        {"outcomes.slow_ms", &slow_ms, 0, 1e12, true,
         "a task slower than this scores duration 0.2 (seed 002 Implicit Feedback: 30 min)"},
        {"outcomes.max_errors_for_helpful", &max_errors_for_helpful, 0, 1e6, true,
         "1 to this many errors score 0.6, more score 0.2 (seed 002 Implicit Feedback: 2)"},
        {"outcomes.helpful_threshold", &helpful_threshold, 0, 1, false,
         "a raw outcome score at least this is helpful (seed 002 Weighted Score: 0.7)"},
        {"outcomes.harmful_threshold", &harmful_threshold, 0, 1, false,
         "a raw outcome score at most this is harmful (seed 002 Weighted Score: 0.4)"},
        {"outcomes.criterion_min_feedback", &criterion_min_feedback, 0, 1e6, true,
         "helpful+harmful feedback a criterion needs before it can be deprecated (seed 002: 3)"},
        {"outcomes.criterion_max_harmful_ratio", &criterion_max_harmful_ratio, 0, 1, false,
         "a criterion whose harmful share exceeds this is deprecated (seed 002: 0.3)"},
        {"outcomes.weight_floor", &weight_floor, 0, 1, false,
         "a criterion's weight never falls below this (seed 002 Weight floor: 0.1)"},
        {"outcomes.maturity_min_feedback", &maturity_min_feedback, 0, 1e6, false,
         "decayed helpful+harmful a pattern needs to leave candidate (seed 002 Maturity: 3)"},
        {"outcomes.proven_min_helpful", &proven_min_helpful, 0, 1e6, false,
         "decayed helpful observations a proven pattern needs (seed 002 Maturity: 5)"},
        {"outcomes.proven_max_harmful_ratio", &proven_max_harmful_ratio, 0, 1, false,
         "a proven pattern's harmful ratio is below this (seed 002 Maturity: 0.15)"},
        {"outcomes.deprecation_harmful_ratio", &deprecation_harmful_ratio, 0, 1, false,
         "a pattern whose decayed harmful ratio exceeds this is deprecated (seed 002: 0.3)"},
        {"outcomes.anti_pattern_min_observations", &anti_pattern_min_observations, 0, 1e6, true,
         "successes+failures a pattern needs before it can invert (seed 002 Inversion: 3)"},
        {"outcomes.anti_pattern_failure_ratio", &anti_pattern_failure_ratio, 0, 1, false,
         "a pattern failing at least this share of the time inverts (seed 002 Inversion: 0.6)"},
        {"outcomes.candidate_multiplier", &candidate_multiplier, 0, 100, false,
         "score multiplier of a candidate pattern (seed 002 Multipliers: 0.5)"},
        {"outcomes.established_multiplier", &established_multiplier, 0, 100, false,
         "score multiplier of an established pattern (seed 002 Multipliers: 1.0)"},
        {"outcomes.proven_multiplier", &proven_multiplier, 0, 100, false,
         "score multiplier of a proven pattern (seed 002 Multipliers: 1.5)"},
        {"outcomes.deprecated_multiplier", &deprecated_multiplier, 0, 100, false,
         "score multiplier of a deprecated pattern (seed 002 Multipliers: 0, excluded)"},
    };
  }
};

enum class FeedbackType : uint8_t { kHelpful, kNeutral, kHarmful };

// "helpful" | "neutral" | "harmful"
std::string_view FeedbackTypeName(FeedbackType type);

struct OutcomeScore {
  double raw_score = 0;  // 0..1, exact to the hundredth
  FeedbackType type = FeedbackType::kNeutral;
  double duration_score = 0, error_score = 0, retry_score = 0;
  // raw_score * 100 as an integer: every component is a multiple of 0.01, so the score is too.
  // Thresholds compare against this, so floating point never flips a boundary.
  int raw_hundredths = 0;
};

// seed 002: rawScore = success * 0.4 + duration * 0.2 + errors * 0.2 + retries * 0.2;
// helpful if rawScore >= helpful_threshold, harmful if <= harmful_threshold, else neutral
// (helpful wins if a configuration makes both true). A negative error or retry count counts as 0.
OutcomeScore ScoreOutcome(const model::OutcomeView& outcome, const OutcomeConfig& config);

}  // namespace kaizen::learn
