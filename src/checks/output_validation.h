// seed 004 WARDEN: an agent's output checked against the learned correction patterns that are
// confident (or approved) enough to enforce, with the hints a retry prompt should carry. Shared by
// `kaizen validate` (cli/corrections.cc) and the `validate_output` agent tool (serve/).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "base/json_writer.h"
#include "learn/corrections/correction_patterns.h"
#include "learn/learner.h"

namespace kaizen::checks {

// A text to validate is an agent's output, not a corpus: past this, refuse instead of working
// through it.
inline constexpr size_t kMaxValidatedBytes = 8 << 20;

struct OutputValidation {
  std::vector<learn::CorrectionPattern> enforced;
  std::vector<learn::PatternViolation> violations;
  std::vector<std::string> hints;  // one per violated pattern, in order of first violation
};

// `file` names the text (a path; empty when it has none): a code file is checked by the code
// patterns only (learn::FindViolations).
OutputValidation ValidateOutput(const learn::Learner& learner, std::string_view text,
                                double min_confidence, std::string_view file = {});

// {min_confidence, patterns_checked, violations: [{line, column, pattern_id, what, hint}],
// hints} as the members of an open object.
void WriteJsonMembers(base::JsonWriter& w, double min_confidence, const OutputValidation& v);

// For a person: one `name:line:column: pattern: what` line per violation with its hint, then a
// verdict line and the retry hints. `learned` is how many patterns exist, enforced or not.
std::string OutputValidationText(std::string_view name, double min_confidence, size_t learned,
                                 const OutputValidation& v);

}  // namespace kaizen::checks
