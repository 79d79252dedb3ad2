// The renderer of memory/reviewer-preferences.md: one section per reviewer, folded from the
// reviewer's whole history (tastes, not events), so apart from the dated files.
#include <fmt/format.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "learn/reviews/approval.h"
#include "render/memory_files.h"
#include "render/memory_files_internal.h"
#include "render/safe_text.h"

namespace kaizen::render {
namespace {

using internal::Day;
using internal::Header;
using internal::kLabelBytes;
using internal::Label;
using learn::MemoryConfig;

}  // namespace

std::string ReviewerPreferencesFile(const learn::Learner& learner, int64_t now_ms) {
  const MemoryConfig& cfg = learner.config().memory;
  const auto reviewers = learner.profiles().Reviewers();
  int64_t reviews = 0;
  for (const auto& [name, n] : reviewers) reviews += n;
  std::vector<MemoryBlock> b;
  b.push_back({Header("Reviewer Preferences (Personal Taste Models)",
                      fmt::format("Last updated: {} | {} reviewer(s), {} reviews", Day(now_ms),
                                  reviewers.size(), reviews)),
               kAlwaysKept});
  if (reviewers.empty()) b.push_back({"\nNo reviews yet.\n", kAlwaysKept});
  for (const auto& [name, n] : reviewers) {
    const std::optional<learn::ReviewerProfile> found = learner.profiles().Profile(name);
    if (!found) continue;
    const learn::ReviewerProfile& p = *found;
    b.push_back(
        {fmt::format("\n## {}\n> {} reviews: {} approved, {} rejected, {} needs work, {} "
                     "deferred\n",
                     name.empty() ? "(unnamed reviewer)" : QuoteReviewerText(name, kLabelBytes),
                     p.reviews, p.approved, p.rejected, p.needs_work, p.deferred),
         3});
    auto section = [&](std::string_view title, const std::vector<std::string>& lines) {
      if (lines.empty()) return;
      b.push_back({fmt::format("\n### {}\n", title), 2});
      for (const std::string& l : lines) b.push_back({l, 1});
    };
    std::vector<std::string> lines;
    for (const learn::TaskSpeed& t : p.approves_quickly) {
      lines.push_back(fmt::format("- Approves quickly: {} ({:.0f}s avg, {} of {} approved)\n",
                                  Label(t.task_type), t.avg_seconds, t.approved, t.decided));
    }
    for (const learn::TaskSpeed& t : p.deliberates_on) {
      lines.push_back(fmt::format("- Deliberates on: {} ({:.1f} min avg over {} reviews)\n",
                                  Label(t.task_type), t.avg_seconds / 60, t.decided));
    }
    for (const learn::TaskSpeed& t : p.always_rejects) {
      lines.push_back(
          fmt::format("- Has approved none of: {} ({} reviews)\n", Label(t.task_type), t.decided));
    }
    section("Decision Patterns", lines);

    lines.clear();
    const learn::CommunicationResult& c = p.communication;
    if (c.best_format && *c.best_format != learn::kUnspecified) {
      const learn::EngagementStats& f = c.formats.at(*c.best_format);
      lines.push_back(
          fmt::format("- Prefers: {} presentation (effectiveness {:.2f} over {} "
                      "reviews)\n",
                      Label(*c.best_format), f.score, f.n));
    }
    if (!c.best_windows.empty()) {
      std::string windows;
      for (const std::string& w : c.best_windows)
        windows += (windows.empty() ? "" : ", ") + Label(w);
      lines.push_back("- Best review times: " + windows + "\n");
    }
    if (p.worst_window) {
      lines.push_back(fmt::format("- Worst review times: {} (engagement {:.2f})\n",
                                  Label(*p.worst_window), c.windows.at(*p.worst_window).score));
    }
    section("Communication Preferences", lines);

    lines.clear();
    auto themes = [&](std::string_view verb, const std::vector<learn::ThemeLean>& v, bool pos) {
      if (v.empty()) return;
      std::string list;
      for (size_t i = 0; i < v.size() && i < 8; ++i) {
        list += fmt::format("{}{} ({}x)", i ? ", " : "", Label(v[i].theme),
                            pos ? v[i].positive : v[i].negative);
      }
      lines.push_back(fmt::format("- {}: {}\n", verb, list));
    };
    themes("Praises", p.praised, true);
    themes("Rejects", p.criticized, false);
    section("Code Style", lines);

    lines.clear();
    for (size_t i = 0; i < p.comparison_winners.size() && i < 5; ++i) {
      const learn::AttributeRecord& a = p.comparison_winners[i];
      lines.push_back(fmt::format("- In comparisons, prefers: {} (won {}, lost {})\n",
                                  Label(a.attribute), a.won, a.lost));
    }
    for (size_t i = 0; i < p.deciding_dimensions.size() && i < 3; ++i) {
      const learn::DecidingDimension& d = p.deciding_dimensions[i];
      lines.push_back(fmt::format("- Comparisons are decided on: {} ({} of {})\n",
                                  Label(d.dimension), d.agreed, d.decided));
    }
    section("Design Taste", lines);
    if (p.approves_quickly.empty() && p.deliberates_on.empty() && p.always_rejects.empty() &&
        !c.best_format && c.best_windows.empty() && p.praised.empty() && p.criticized.empty() &&
        p.comparison_winners.empty() && p.deciding_dimensions.empty()) {
      b.push_back({fmt::format("- Not enough reviews for patterns yet ({}+ per task type, "
                               "window or theme).\n",
                               cfg.min_reviews),
                   1});
    }
  }
  return FitToBudget(b, static_cast<size_t>(cfg.budget_bytes));
}

}  // namespace kaizen::render
