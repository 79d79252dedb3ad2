// `kaizen rules [--project P] [--json] [--now T|end]`: the learned rules with their evidence
// (seed 000 §8.1) and where each holds (issue 30 item 5), and the rejection-pattern registry
// behind the pre-review checklist (§3.2).
#include <fmt/format.h>

#include <memory>
#include <string>
#include <vector>

#include "base/json_writer.h"
#include "cli/verbs.h"
#include "home/learned_state.h"
#include "model/timestamp.h"
#include "render/safe_text.h"

namespace kaizen::cli {
namespace {

std::string Day(int64_t ms) { return model::FormatUtc(ms).substr(0, 10); }

std::string Joined(const std::vector<std::string>& v) {
  std::string out;
  for (const std::string& s : v) out += (out.empty() ? "" : ", ") + s;
  return out;
}

std::string RulesJson(const std::vector<learn::LearnedRule>& rules,
                      const std::vector<learn::RejectionPattern>& registry) {
  rapidjson::StringBuffer b;
  base::JsonWriter w(b);
  w.StartObject();
  base::Key(w, "rules");
  w.StartArray();
  for (const learn::LearnedRule& r : rules) learn::WriteJson(w, r);
  w.EndArray();
  base::Key(w, "rejectionPatterns");
  learn::WriteJson(w, registry);
  w.EndObject();
  return std::string(b.GetString()) + "\n";
}

// Where the rule holds, and the projects whose reviews cited it; empty for a log naming no
// project.
std::string WhereText(const learn::LearnedRule& r) {
  if (r.projects.empty()) return {};
  std::vector<std::string> confirmed, seen;
  for (const learn::RuleProject& p : r.projects) {
    const std::string name = render::SanitizeReviewerText(p.name, 64);
    if (p.confirmed) confirmed.push_back(name);
    seen.push_back(fmt::format("{} {}x on {} day{}{}", name, p.occurrences, p.days,
                               p.days == 1 ? "" : "s", p.confirmed ? ", confirmed" : ""));
  }
  std::string out;
  if (!r.holds_in.empty()) {
    std::vector<std::string> names;
    for (const std::string& n : r.holds_in) names.push_back(render::SanitizeReviewerText(n, 64));
    out = "  holds in " + Joined(names) + " only";
  } else if (r.promoted_global) {
    out = "  holds in every project (promoted: confirmed in " + Joined(confirmed) + ")";
  } else {
    out = "  holds in every project";
  }
  return out + "; cited in " + Joined(seen) + "\n";
}

std::string RulesText(const std::vector<learn::LearnedRule>& rules,
                      const std::vector<learn::RejectionPattern>& registry, int64_t now_ms) {
  std::string out = fmt::format("Learned rules as of {} ({})\n", Day(now_ms), rules.size());
  if (rules.empty()) {
    out += "  none yet: a theme becomes a candidate after 5+ rejections on 3+ days\n";
  }
  for (const learn::LearnedRule& r : rules) {
    out += fmt::format("\n{} [{}{}{}] {}\n", r.id, learn::RuleStatusName(r.status),
                       r.confirmed ? ", confirmed" : "", r.audit_due ? ", audit due" : "", r.rule);
    out +=
        fmt::format("  confidence {:.2f}, {} rejections and {} approvals on {} days, weight {:.3f}",
                    r.confidence, r.occurrences, r.positive, r.days, r.weight);
    if (r.effectiveness) out += fmt::format(", effectiveness {:+.2f}", *r.effectiveness);
    out += fmt::format("\n  source {}, domain {}, applies to {}, severity {}\n", r.source, r.domain,
                       Joined(r.applies_to), r.severity);
    out += fmt::format("  seen {} .. {}, candidate since {}", Day(r.first_seen_ms),
                       Day(r.last_seen_ms), Day(r.introduced_at_ms));
    if (r.promoted_at_ms) out += fmt::format(", active since {}", Day(*r.promoted_at_ms));
    out += "\n" + WhereText(r);
    for (const std::string& e : r.examples) {
      out += fmt::format("  reviewer: {}\n", render::QuoteReviewerText(e));
    }
    for (const learn::RuleAudit& a : r.audits) {
      out += fmt::format(
          "  audit {}: {}{}{}\n", Day(a.at_ms), a.verdict,
          a.reviewer.empty() ? "" : " by " + render::SanitizeReviewerText(a.reviewer, 64),
          a.note.empty() ? "" : " " + render::QuoteReviewerText(a.note));
    }
  }
  out += "\nTop rejection reasons\n";
  if (registry.empty()) out += "  none yet\n";
  for (size_t i = 0; i < registry.size(); ++i) {
    const learn::RejectionPattern& p = registry[i];
    out += fmt::format("  {}. {} ({}x, avg severity {:.1f}, last {}{}{})\n", i + 1, p.pattern,
                       p.occurrences, p.avg_severity, Day(p.last_seen_ms),
                       p.server_types.empty() ? "" : ", " + Joined(p.server_types),
                       p.auto_fixable ? ", auto-fixable" : "");
  }
  return out;
}

}  // namespace

Verb AddRulesVerb(CLI::App& app, Common& c) {
  auto* sub = app.add_subcommand(
      "rules",
      "the learned rules with their evidence, audits and where each holds, and the top "
      "rejection reasons");
  auto project = std::make_shared<std::string>();
  sub->add_option("--project", *project,
                  "only the rules an agent working in this project is told (a name or a "
                  "directory): the global ones and the project's own");
  AddCommonOptions(sub, c, true, true);
  return {sub, [&c, project] {
            home::LearnedState state;
            // The rule book and the theme evidence its candidates come from.
            if (Status s = home::LoadLearnedState(c, &state, nullptr,
                                                  {learn::Part::kRules, learn::Part::kEvidence});
                !s.ok()) {
              return home::FailVerb("rules", s);
            }
            home::WarnUnreadable(state.scan);
            auto rules = state.learner->Rules(state.now_ms);
            if (!project->empty()) learn::KeepRulesOf(*project, &rules);
            const auto registry = state.learner->RejectionPatterns(true);
            fmt::print("{}", c.json ? RulesJson(rules, registry)
                                    : RulesText(rules, registry, state.now_ms));
            return kExitOk;
          }};
}

}  // namespace kaizen::cli
