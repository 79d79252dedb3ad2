// Cobertura XML coverage reports (coverage.py xml, gcovr --xml, JaCoCo via converters, cobertura
// itself): a <coverage> root with line-rate and branch-rate, and usually lines-valid /
// lines-covered and branches-valid / branches-covered.
#pragma once

#include <string_view>

#include "kaizen/status.h"
#include "signals/report.h"

namespace kaizen::signals {

// The counts when the root gives them (lines-valid > 0), else the rates. InvalidArgument names
// `file`, the line, the attribute and the rule: not well-formed XML, a root other than
// <coverage>, a rate outside 0..1, a count that is not a whole number >= 0, covered above valid,
// neither counts nor rates, input over kMaxReportBytes.
Result<CoverageReport> ParseCobertura(std::string_view xml, std::string_view file);

}  // namespace kaizen::signals
