// The feedback text a refinement iteration gets (seed 003 FeedbackOrchestrator._generate_feedback,
// which the seed leaves unwritten): what is missing for the loop to halt, most heavily weighted
// first. Pure: the same metrics give the same text, so the seed's cycle detection (the same
// feedback twice in a row) sees a loop that is not moving.
#pragma once

#include <string>

#include "learn/outcomes/loop_control.h"
#include "model/inputs.h"
#include "signals/report.h"

namespace kaizen::render {

// The most feedback text handed to a refine command (it also travels in an environment variable).
inline constexpr size_t kMaxFeedbackBytes = 16 << 10;

// One line per item, in Q(HALT) weight order: failing tests (naming up to 10 from the JUnit
// report), coverage below the good-enough bar (line and branch), security, code quality,
// documentation and type coverage below it, vulnerabilities, type errors. A metric that was not
// reported is named once at the end, since Q(HALT) leaves it out. `tests` and `coverage`
// may be null (metrics from the evaluate command's JSON).
std::string FeedbackText(const model::LoopMetricsView& metrics, const signals::TestReport* tests,
                         const signals::CoverageReport* coverage, const learn::LoopConfig& config);

}  // namespace kaizen::render
