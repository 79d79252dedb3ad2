// What the test and coverage report parsers (JUnit XML, lcov, Cobertura) produce, and the limits
// they share. The parsers are pure: text in, a report or a Status out; reading the file is the
// caller's. `file` is only used to name the input in error messages.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kaizen/status.h"

namespace pugi {
class xml_document;
}

namespace kaizen::signals {

// A report larger than this is refused before it is parsed (a 64 MiB lcov file already covers
// millions of lines): the parsers hold the whole document in memory.
inline constexpr size_t kMaxReportBytes = 64u << 20;
// Failed test cases kept by name (for the loop's feedback text); the counts cover all of them.
inline constexpr size_t kMaxFailedCasesKept = 50;
// Characters of a failure message kept per failed case.
inline constexpr size_t kMaxFailureMessage = 300;

struct FailedCase {
  std::string suite, classname, name;
  std::string message;  // the failure/error `message` attribute, else the start of its text
  bool error = false;   // <error> (the test could not run) rather than <failure>
};

// JUnit XML totals, counted from the <testcase> elements (the suites' own attributes are only
// read when a report lists no test case at all).
struct TestReport {
  int64_t tests = 0;     // every test case, skipped ones included
  int64_t failures = 0;  // with a <failure> child
  int64_t errors = 0;    // with an <error> child (and no <failure>)
  int64_t skipped = 0;   // with a <skipped> child (and neither of the above)
  int64_t suites = 0;
  double time_seconds = 0;
  std::vector<FailedCase> failed;  // the first kMaxFailedCasesKept, in document order

  int64_t executed() const { return tests - skipped; }
  int64_t passed() const { return tests - skipped - failures - errors; }
  // The run passed: at least one test case ran, and none failed or errored. An empty run does not
  // count as passing: a test command that ran nothing has shown nothing.
  bool passing() const { return executed() > 0 && failures == 0 && errors == 0; }
};

// Line and branch coverage totals, from lcov or Cobertura.
struct CoverageReport {
  enum class Format : uint8_t { kLcov, kCobertura };
  Format format = Format::kLcov;
  int64_t files = 0;  // source files (lcov SF records, Cobertura <class> filenames); 0 if unknown
  int64_t lines_found = 0, lines_hit = 0;
  int64_t branches_found = 0, branches_hit = 0;
  // Cobertura may give only the rates; lcov never does. When set they win over the counts.
  std::optional<double> line_rate_given, branch_rate_given;

  // hit / found in 0..1; nullopt when nothing was measured.
  std::optional<double> LineRate() const;
  std::optional<double> BranchRate() const;
};

std::string_view FormatName(CoverageReport::Format f);  // "lcov" | "cobertura"

// Refuses input over kMaxReportBytes; the message names the file, its size and the cap.
Status CheckReportSize(std::string_view text, std::string_view file);

// CheckReportSize, then parses `xml` into *doc; a malformed document is InvalidArgument naming
// the file, the line and pugixml's reason. Shared by the JUnit and Cobertura parsers.
Status LoadReportXml(std::string_view xml, std::string_view file, pugi::xml_document* doc);

// The 1-based line of byte `offset` in `text`, for error messages.
int64_t LineOf(std::string_view text, size_t offset);

}  // namespace kaizen::signals
