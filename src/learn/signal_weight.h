// How much one review counts (seed 000 §9.2-9.3): confidence, fatigue and explicit overrides are
// properties of the review itself; recency depends on `now`, so it is applied at analysis time.
#pragma once

#include <cstdint>

#include "learn/config_field.h"
#include "model/inputs.h"

namespace kaizen::learn {

struct SignalWeightConfig {
  double recent_days = 30;  // §9.2 "recent feedback counts 2x older feedback"
  double recency_multiplier = 2;
  double very_sure = 1.0;  // §9.2 "very sure outweighs somewhat unsure"
  double fairly_sure = 0.8;
  double somewhat_unsure = 0.6;
  double very_unsure = 0.4;
  double fatigue_after = 5;  // §3.4/§9.3: the 5th review in a row and later
  double fatigue_weight = 0.7;
  double strong_override = 2;  // §9.3 "strong preference" (2x)
  double weak_override = 0.5;  // §9.3 "weak/unsure" (0.5x)

  ConfigFields Fields() {
    return {
        {"weights.recent_days", &recent_days, 0, 3650, false,
         "feedback this many days old or newer is recent (seed 000 §9.2)"},
        {"weights.recency_multiplier", &recency_multiplier, 0, 100, false,
         "weight of recent feedback relative to older (seed 000 §9.2: 2x)"},
        {"weights.very_sure", &very_sure, 0, 10, false, "weight of a very-sure review"},
        {"weights.fairly_sure", &fairly_sure, 0, 10, false, "weight of a fairly-sure review"},
        {"weights.somewhat_unsure", &somewhat_unsure, 0, 10, false,
         "weight of a somewhat-unsure review"},
        {"weights.very_unsure", &very_unsure, 0, 10, false, "weight of a very-unsure review"},
        {"weights.fatigue_after", &fatigue_after, 1, 1000, true,
         "a review whose sessionFatigue is at least this is fatigued (seed 000 §9.3: 5+)"},
        {"weights.fatigue_weight", &fatigue_weight, 0, 10, false,
         "weight of a fatigued review (seed 000 §9.3: 0.7x)"},
        {"weights.strong_override", &strong_override, 0, 100, false,
         "weight of feedback marked override: strong (seed 000 §9.3: 2x)"},
        {"weights.weak_override", &weak_override, 0, 100, false,
         "weight of feedback marked override: weak (seed 000 §9.3: 0.5x)"},
    };
  }
};

inline bool IsFatigued(const SignalWeightConfig& c, int64_t session_fatigue) {
  return static_cast<double>(session_fatigue) >= c.fatigue_after;
}

// confidence x fatigue x override; 1 for a review that states none of them.
inline double StaticWeight(const SignalWeightConfig& c, const model::ReviewView& r) {
  double w = 1;
  switch (r.confidence) {
    case model::ConfidenceLevel::kVerySure:
      w = c.very_sure;
      break;
    case model::ConfidenceLevel::kFairlySure:
      w = c.fairly_sure;
      break;
    case model::ConfidenceLevel::kSomewhatUnsure:
      w = c.somewhat_unsure;
      break;
    case model::ConfidenceLevel::kVeryUnsure:
      w = c.very_unsure;
      break;
    case model::ConfidenceLevel::kNone:
      break;
  }
  if (IsFatigued(c, r.session_fatigue)) w *= c.fatigue_weight;
  if (r.override_weight == model::Override::kStrong) w *= c.strong_override;
  if (r.override_weight == model::Override::kWeak) w *= c.weak_override;
  return w;
}

// The recency factor at `now`: recency_multiplier for feedback at most recent_days old (future
// timestamps included), 1 otherwise.
inline double RecencyWeight(const SignalWeightConfig& c, int64_t at_ms, int64_t now_ms) {
  double age_days = static_cast<double>(now_ms - at_ms) / static_cast<double>(model::kMsPerDay);
  return age_days <= c.recent_days ? c.recency_multiplier : 1.0;
}

}  // namespace kaizen::learn
