#include "render/loop_feedback.h"

#include <cmath>

#include <fmt/format.h>

namespace kaizen::render {
namespace {

std::string Percent(double rate) { return fmt::format("{:.1f}%", rate * 100); }

void Line(std::string* out, std::string_view text) {
  if (out->size() + text.size() + 1 > kMaxFeedbackBytes) return;
  *out += text;
  *out += '\n';
}

}  // namespace

std::string FeedbackText(const model::LoopMetricsView& m, const signals::TestReport* tests,
                         const signals::CoverageReport* coverage, const learn::LoopConfig& config) {
  std::string out;
  const double q = learn::HaltQ(m, config);
  // The bar each 0..1 metric is held to: the seed's "good enough" quality (0.75 by default).
  const double bar = config.good_enough_q;
  // seed 003 should_halt: q_halt > q_continue = 1 - q_halt, i.e. above one half.
  Line(&out, fmt::format("Quality Q(HALT) is {:.3f}; the loop halts above 0.500{}.", q,
                         learn::HasTestEvidence(learn::Measured(m, config))
                             ? ""
                             : " once tests_passing or test_coverage is measured"));
  std::vector<std::string> missing;

  if (tests && tests->executed() == 0) {
    Line(&out, "No test ran: add tests, or make the evaluate command run them.");
  } else if (tests && !tests->passing()) {
    Line(&out, fmt::format("{} of {} tests fail ({} failures, {} errors); make them pass:",
                           tests->failures + tests->errors, tests->executed(), tests->failures,
                           tests->errors));
    size_t shown = 0;
    for (const signals::FailedCase& f : tests->failed) {
      if (shown++ == 10) break;
      std::string name = f.classname.empty() ? f.name : f.classname + "." + f.name;
      Line(&out, fmt::format("- {}{}{}", name, f.message.empty() ? "" : ": ", f.message));
    }
    if (tests->failures + tests->errors > 10)
      Line(&out, fmt::format("- and {} more", tests->failures + tests->errors - 10));
  } else if (m.tests_passing && !*m.tests_passing) {
    Line(&out, "Tests fail: make them pass.");
  } else if (!m.tests_passing) {
    missing.emplace_back("tests_passing");
  }

  if (m.test_coverage) {
    if (*m.test_coverage < bar) {
      Line(&out, fmt::format("Test coverage is {}, below {}: add tests for uncovered code.",
                             Percent(*m.test_coverage), Percent(bar)));
    }
  } else {
    missing.emplace_back("test_coverage");
  }
  if (coverage) {
    if (auto br = coverage->BranchRate(); br && *br < bar) {
      Line(&out, fmt::format("Branch coverage is {} ({} of {} branches): test the other sides "
                             "of conditions.",
                             Percent(*br), coverage->branches_hit, coverage->branches_found));
    }
  }

  struct Scored {
    const std::optional<double>& value;
    std::string_view name, what;
  };
  const Scored scored[] = {
      {m.security_score, "security_score", "Security score"},
      {m.code_quality_score, "code_quality_score", "Code quality score"},
      {m.doc_coverage, "doc_coverage", "Documentation coverage"},
      {m.type_coverage, "type_coverage", "Type coverage"},
  };
  for (const Scored& s : scored) {
    if (!s.value) {
      missing.emplace_back(s.name);
    } else if (*s.value < bar) {
      Line(&out, fmt::format("{} is {}, below {}.", s.what, Percent(*s.value), Percent(bar)));
    }
  }
  if (m.vulnerabilities && *m.vulnerabilities > 0)
    Line(&out, fmt::format("{} vulnerabilities reported: fix them.", *m.vulnerabilities));
  if (m.type_errors && *m.type_errors > 0)
    Line(&out, fmt::format("{} type errors: fix them.", *m.type_errors));

  if (!missing.empty()) {
    std::string names;
    for (const std::string& n : missing) names += (names.empty() ? "" : ", ") + n;
    Line(&out, fmt::format("Not measured (left out of Q(HALT), whose weights are renormalized "
                           "over the measured metrics): {}.",
                           names));
  }
  return out;
}

}  // namespace kaizen::render
