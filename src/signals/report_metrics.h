// From what an evaluate command produced to seed 003 QualityMetrics: its JSON on standard output,
// or the test and coverage reports it wrote. Pure: text in, metrics or a Status out.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "kaizen/status.h"
#include "model/inputs.h"
#include "signals/report.h"

namespace kaizen::signals {

// lcov or Cobertura, told apart by content: XML (its first non-blank byte is `<`, after an
// optional UTF-8 byte order mark) is Cobertura, anything else is read as an lcov tracefile.
CoverageReport::Format DetectCoverageFormat(std::string_view text);
// ParseLcov or ParseCobertura, as DetectCoverageFormat decides.
Result<CoverageReport> ParseCoverage(std::string_view text, std::string_view file);

// The reports as seed 003 QualityMetrics:
//   tests_passing = at least one test case ran and none failed or errored (TestReport::passing)
//   test_count    = the test cases in the report, skipped ones included
//   test_coverage = line coverage, lines hit / lines found (branch coverage has no QualityMetrics
//                   field; the loop's feedback text mentions it)
// Either report may be absent; a metric neither report measures stays absent (it then earns no
// credit in Q(HALT): learn/outcomes/loop_control.h HaltQ).
model::LoopMetricsView MetricsFromReports(const TestReport* tests, const CoverageReport* coverage);

// What an evaluate command printed: the QualityMetrics object itself, or
// {"metrics": {...QualityMetrics...}, "cost": dollars} when it also reports what the iteration
// cost. The whole output (trimmed) must be that object; when it is not JSON, its last non-blank
// line is tried (test runners print before the metrics).
struct EvaluatedMetrics {
  model::LoopMetricsView metrics;
  std::optional<double> cost;  // >= 0
};

// InvalidArgument names the field path, the value and the rule (the `loop` event schema's:
// rates in 0..1, counts whole and >= 0, tests_passing a boolean, no unknown field, at least one
// field), or says the output holds no JSON object.
Result<EvaluatedMetrics> ParseEvaluateOutput(std::string_view output);

// The metrics as a JSON object in seed 003 field order, present fields only (rates in the
// shortest form that reads back unchanged).
std::string QualityMetricsJson(const model::LoopMetricsView& m);

// True when no field is present.
bool Empty(const model::LoopMetricsView& m);

}  // namespace kaizen::signals
