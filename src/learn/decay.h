// Confidence decay (seed 002 "Half-Life Formula"): feedback fades unless revalidated, so stale
// evidence cannot dominate. Every decayed sum in src/learn goes through this one function.
#pragma once

#include <cmath>
#include <cstdint>

#include "model/inputs.h"

namespace kaizen::learn {

// seed 002: decayed = raw * 0.5^(age_days / half_life). Returns the factor 0.5^(age_days /
// half_life_days) for evidence recorded at `at_ms`, seen at `now_ms`; age is in fractional days.
// A timestamp after `now_ms` (clock skew, a query about the past) counts as age 0, i.e. 1.0:
// evidence never weighs more than when it was fresh.
// REQUIRES: half_life_days > 0.
inline double Decay(int64_t at_ms, int64_t now_ms, double half_life_days) {
  if (at_ms >= now_ms) return 1.0;
  const double age_days =
      static_cast<double>(now_ms - at_ms) / static_cast<double>(model::kMsPerDay);
  return std::pow(0.5, age_days / half_life_days);
}

}  // namespace kaizen::learn
