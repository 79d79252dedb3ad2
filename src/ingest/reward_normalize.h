// seed 001 "Normalization Rules": a reward's raw_value mapped onto 0..1.
#pragma once

#include <simdjson.h>

#include <optional>
#include <string_view>

#include "kaizen/status.h"

namespace kaizen::ingest {

// True when seed 001's table (or its tier-2 ratings) defines a normalization for this type.
bool HasNormalization(std::string_view signal_type);

// REQUIRES: HasNormalization(signal_type).
// ci_result        pass/fail (also passed/failed, success/failure, true/false) -> 1.0 / 0.0
// coverage_delta   -100..+100 percentage points -> 0.0..1.0, 0.5 = no change
// merge_outcome    merged/closed/reverted -> 1.0 / 0.5 / 0.0
// satisfaction, session_productivity, handoff_clarity   1..5 -> 0.0 / 0.25 / 0.5 / 0.75 / 1.0
// approach_correctness   yes/no (y/n, true/false) -> 1.0 / 0.0
// iteration_count  N >= 1 -> 1 / N
// time_efficiency  seconds -> min(1, baseline_seconds / seconds); needs baseline_seconds
// The error message states the rule the raw value broke.
Result<double> NormalizeReward(std::string_view signal_type, simdjson::dom::element raw_value,
                               std::optional<double> baseline_seconds);

}  // namespace kaizen::ingest
