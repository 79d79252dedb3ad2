// libFuzzer target for the report parsers (src/signals): the bytes are one report, fed to the
// JUnit, lcov and Cobertura parsers and to the evaluate-output (QualityMetrics JSON) reader.
// Nothing may crash, leak or hang, and:
//   - a refused input says why, with the file name first;
//   - an accepted report's totals are consistent (hit <= found, failures + errors + skipped <=
//     tests, rates in 0..1);
//   - accepted metrics print as JSON that reads back to the same metrics.
//
//   make fuzz   (or see the Makefile's fuzz target for the full command line)
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "signals/cobertura.h"
#include "signals/junit.h"
#include "signals/lcov.h"
#include "signals/report_metrics.h"

namespace {

using namespace kaizen;
using namespace kaizen::signals;

constexpr std::string_view kFile = "fuzz-report";

void CheckRefusal(const Status& s) {
  if (s.code() != StatusCode::kInvalidArgument) std::abort();
  if (s.message().substr(0, kFile.size()) != kFile) std::abort();
}

void CheckCoverage(const Result<CoverageReport>& r) {
  if (!r.ok()) return CheckRefusal(r.status());
  const CoverageReport& c = r.value();
  if (c.lines_hit < 0 || c.lines_hit > c.lines_found) std::abort();
  if (c.branches_hit < 0 || c.branches_hit > c.branches_found) std::abort();
  for (auto rate : {c.LineRate(), c.BranchRate()}) {
    if (rate && !(*rate >= 0 && *rate <= 1)) std::abort();
  }
  model::LoopMetricsView m = MetricsFromReports(nullptr, &c);
  if (m.test_coverage && !(*m.test_coverage >= 0 && *m.test_coverage <= 1)) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);

  Result<TestReport> junit = ParseJUnit(text, kFile);
  if (junit.ok()) {
    const TestReport& t = junit.value();
    if (t.failures < 0 || t.errors < 0 || t.skipped < 0) std::abort();
    if (t.failures + t.errors + t.skipped > t.tests) std::abort();
    if (t.failed.size() > kMaxFailedCasesKept) std::abort();
    (void)MetricsFromReports(&t, nullptr);
  } else {
    CheckRefusal(junit.status());
  }
  CheckCoverage(ParseLcov(text, kFile));
  CheckCoverage(ParseCobertura(text, kFile));
  CheckCoverage(ParseCoverage(text, kFile));

  Result<EvaluatedMetrics> metrics = ParseEvaluateOutput(text);
  if (metrics.ok()) {
    if (Empty(metrics->metrics)) std::abort();
    const std::string json = QualityMetricsJson(metrics->metrics);
    Result<EvaluatedMetrics> again = ParseEvaluateOutput(json);
    if (!again.ok() || QualityMetricsJson(again->metrics) != json) std::abort();
  } else if (metrics.status().code() != StatusCode::kInvalidArgument) {
    std::abort();
  }
  return 0;
}
