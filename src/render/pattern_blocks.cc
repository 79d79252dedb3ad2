#include "render/pattern_blocks.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "learn/outcomes/pattern_extraction.h"
#include "render/prompt_files.h"
#include "render/safe_text.h"

namespace kaizen::render {
namespace {

// The seed's strategies are kaizen's own words; any other name came from an outcome event.
std::string PatternName(std::string_view name) {
  for (std::string_view known : learn::kDetectedStrategies) {
    if (known == name) return std::string(name);
  }
  return QuoteReviewerText(name);
}

int64_t Percent(int64_t part, int64_t whole) {
  return whole == 0 ? 0 : std::llround(100.0 * static_cast<double>(part) / whole);
}

}  // namespace

std::string AntiPatternBlock(const std::vector<learn::AntiPattern>& anti_patterns) {
  std::vector<const learn::AntiPattern*> sorted;
  for (const learn::AntiPattern& a : anti_patterns) sorted.push_back(&a);
  std::sort(sorted.begin(), sorted.end(),
            [](const learn::AntiPattern* a, const learn::AntiPattern* b) {
              if (a->failure_count != b->failure_count) return a->failure_count > b->failure_count;
              return a->pattern < b->pattern;
            });
  std::string lines;
  for (const learn::AntiPattern* a : sorted) {
    const std::string name = PatternName(a->pattern);
    if (name.empty()) continue;
    // seed 002 antiPatternPrefix "AVOID: "; the reason is kaizen's "Failed F/T times (P% ...)".
    fmt::format_to(std::back_inserter(lines), "- AVOID: {}. {}\n", name, a->reason);
  }
  if (lines.empty()) return "";
  return "## Anti-Patterns to Avoid\n\nBased on past failures, avoid these decomposition "
         "strategies:\n\n" +
         lines;
}

std::string SuccessfulPatternBlock(const std::vector<learn::PatternResult>& patterns) {
  std::vector<const learn::PatternResult*> kept;
  for (const learn::PatternResult& p : patterns) {
    if (p.state == learn::MaturityState::kProven || p.state == learn::MaturityState::kEstablished) {
      kept.push_back(&p);
    }
  }
  std::sort(kept.begin(), kept.end(),
            [](const learn::PatternResult* a, const learn::PatternResult* b) {
              const bool a_proven = a->state == learn::MaturityState::kProven;
              const bool b_proven = b->state == learn::MaturityState::kProven;
              if (a_proven != b_proven) return a_proven;
              if (a->success_count != b->success_count) return a->success_count > b->success_count;
              return a->content < b->content;
            });
  std::string lines;
  for (const learn::PatternResult* p : kept) {
    const std::string name = PatternName(p->content);
    if (name.empty()) continue;
    const int64_t total = p->success_count + p->failure_count;
    fmt::format_to(std::back_inserter(lines),
                   "- PREFER: {}. Succeeded {}/{} times ({}% success rate; {}, weight x{:.1f})\n",
                   name, p->success_count, total, Percent(p->success_count, total),
                   learn::MaturityStateName(p->state), p->multiplier);
  }
  if (lines.empty()) return "";
  return "## Proven Patterns to Follow\n\nBased on past successes, prefer these decomposition "
         "strategies:\n\n" +
         lines;
}

std::vector<RenderedFile> ErrorContextFiles(const learn::ErrorAccumulator& errors) {
  // Bead ids are free-form: two that slug alike share a file, in report order.
  std::map<std::string, std::string> by_slug;
  for (const learn::BeadErrors& bead : errors.Report().beads_with_unresolved) {
    const std::string slug = FileSlug(bead.bead_id);
    if (slug.empty()) continue;
    const std::string context = errors.ErrorContext(bead.bead_id, /*include_resolved=*/false);
    if (context.empty()) continue;
    std::string& content = by_slug[slug];
    content += fmt::format("# Retry context for bead {}\n\n", QuoteReviewerText(bead.bead_id));
    content += context;
    if (content.back() != '\n') content += '\n';
  }
  std::vector<RenderedFile> files;
  for (auto& [slug, content] : by_slug) {
    files.push_back({fmt::format("prompts/errors/{}.md", slug), std::move(content)});
  }
  return files;
}

}  // namespace kaizen::render
