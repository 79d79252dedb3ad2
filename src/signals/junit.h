// JUnit XML test reports (the format of surefire, pytest --junitxml, jest-junit, go-junit-report,
// ctest --output-junit): <testsuites> or <testsuite> at the root, <testcase> elements anywhere
// below, each with an optional <failure>, <error> or <skipped> child.
#pragma once

#include <string_view>

#include "kaizen/status.h"
#include "signals/report.h"

namespace kaizen::signals {

// InvalidArgument names `file`, the line or element and the rule: not well-formed XML, another
// root element, a suite total that is not a whole number >= 0, input over kMaxReportBytes.
Result<TestReport> ParseJUnit(std::string_view xml, std::string_view file);

}  // namespace kaizen::signals
