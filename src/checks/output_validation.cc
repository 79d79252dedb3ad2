#include "checks/output_validation.h"

#include <fmt/format.h>

#include <set>

#include "render/correction_patterns.h"

namespace kaizen::checks {
namespace {

const learn::CorrectionPattern* Find(const OutputValidation& v, std::string_view id) {
  for (const learn::CorrectionPattern& p : v.enforced) {
    if (p.id == id) return &p;
  }
  return nullptr;
}

}  // namespace

OutputValidation ValidateOutput(const learn::Learner& learner, std::string_view text,
                                double min_confidence, std::string_view file) {
  OutputValidation v;
  for (learn::CorrectionPattern& p : learner.corrections().Patterns()) {
    if (p.Enforced(min_confidence)) v.enforced.push_back(std::move(p));
  }
  v.violations = learn::FindViolations(v.enforced, text, min_confidence, file);
  std::set<std::string> seen;
  for (const learn::PatternViolation& violation : v.violations) {
    if (!seen.insert(violation.pattern_id).second) continue;
    for (const learn::CorrectionPattern& p : v.enforced) {
      if (p.id == violation.pattern_id) v.hints.push_back(render::CorrectionHint(p));
    }
  }
  return v;
}

void WriteJsonMembers(base::JsonWriter& w, double min_confidence, const OutputValidation& v) {
  base::Key(w, "min_confidence");
  base::Num(w, min_confidence);
  base::Key(w, "patterns_checked");
  w.StartArray();
  for (const learn::CorrectionPattern& p : v.enforced) base::Str(w, p.id);
  w.EndArray();
  base::Key(w, "violations");
  w.StartArray();
  for (const learn::PatternViolation& violation : v.violations) {
    w.StartObject();
    base::Key(w, "line");
    w.Uint64(violation.line);
    base::Key(w, "column");
    w.Uint64(violation.column);
    base::Key(w, "pattern_id");
    base::Str(w, violation.pattern_id);
    base::Key(w, "what");
    base::Str(w, violation.what);
    base::Key(w, "hint");
    base::Str(w, render::CorrectionHint(*Find(v, violation.pattern_id)));
    w.EndObject();
  }
  w.EndArray();
  base::Key(w, "hints");
  w.StartArray();
  for (const std::string& h : v.hints) base::Str(w, "IMPORTANT: " + h);
  w.EndArray();
}

std::string OutputValidationText(std::string_view name, double min_confidence, size_t learned,
                                 const OutputValidation& v) {
  std::string out;
  for (const learn::PatternViolation& violation : v.violations) {
    out += fmt::format("{}:{}:{}: {}: {}\n  hint: {}\n", name, violation.line, violation.column,
                       violation.pattern_id, violation.what,
                       render::CorrectionHint(*Find(v, violation.pattern_id)));
  }
  if (v.enforced.empty()) {
    return fmt::format(
        "{}: clean (no pattern enforced yet: {} learned, none at confidence >= "
        "{:.2f} or promoted)\n",
        name, learned, min_confidence);
  }
  if (v.violations.empty()) {
    return fmt::format(
        "{}: clean ({} enforced pattern(s) checked: confidence >= {:.2f} or "
        "promoted)\n",
        name, v.enforced.size(), min_confidence);
  }
  out += fmt::format(
      "{}: {} violation(s) of {} pattern(s) ({} enforced: confidence >= {:.2f} or "
      "promoted)\n",
      name, v.violations.size(), v.hints.size(), v.enforced.size(), min_confidence);
  out += "\nhints for a retry prompt:\n";
  for (const std::string& h : v.hints) out += "IMPORTANT: " + h + "\n";
  return out;
}

}  // namespace kaizen::checks
