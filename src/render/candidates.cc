#include "render/candidates.h"

#include <fmt/format.h>

#include "learn/rules/session_prompts.h"
#include "render/safe_text.h"

namespace kaizen::render {

std::string CandidateLine(const learn::LearnedRule& r) {
  // Most of the evidence from people correcting their agent in its sessions: say so.
  const bool prompts = r.source == learn::kSourceSessionPrompt;
  std::string evidence = fmt::format(
      "{} {}{}{} on {} day{}", r.occurrences, prompts ? "correction" : "rejection",
      r.occurrences == 1 ? "" : "s", prompts ? " in sessions" : "", r.days, r.days == 1 ? "" : "s");
  if (r.positive > 0) evidence += fmt::format(", {} approving", r.positive);
  if (!r.examples.empty()) evidence += ", e.g. " + QuoteReviewerText(r.examples.front(), 120);
  if (!r.to_confirm.empty()) evidence += "; a rule after " + r.to_confirm;
  return fmt::format("Candidate, not a rule yet: {} ({})", SanitizeReviewerText(r.rule), evidence);
}

std::vector<const learn::LearnedRule*> Candidates(const std::vector<learn::LearnedRule>& rules,
                                                  size_t limit) {
  std::vector<const learn::LearnedRule*> out;
  for (const learn::LearnedRule& r : rules) {
    if (out.size() >= limit) break;
    if (r.status == learn::RuleStatus::kCandidate || r.status == learn::RuleStatus::kEmerging) {
      out.push_back(&r);
    }
  }
  return out;
}

}  // namespace kaizen::render
