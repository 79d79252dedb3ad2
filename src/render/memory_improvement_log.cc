// The renderer of memory/improvement-log.md: what changed and why (rules, audits, autonomy,
// calibration), newest day first.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "model/timestamp.h"
#include "render/memory_files.h"
#include "render/memory_files_internal.h"
#include "render/safe_text.h"

namespace kaizen::render {
namespace {

using internal::Day;
using internal::Header;
using internal::kLabelBytes;
using internal::Label;
using internal::Pct;
using learn::LearnedRule;
using learn::MemoryConfig;

}  // namespace

std::string ImprovementLogFile(const learn::Learner& learner, int64_t now_ms) {
  const MemoryConfig& cfg = learner.config().memory;
  const int64_t now_day = model::DayOf(now_ms);
  struct Entry {
    int64_t at_ms;
    int kind;  // order within an instant: rules, audits, autonomy, calibration
    std::string text;
    bool durable;  // kept past pattern_days (§5.2 "only durable rules")
  };
  std::vector<Entry> entries;
  for (const LearnedRule& r : learner.Rules(now_ms)) {
    if (r.promoted_at_ms && *r.promoted_at_ms <= now_ms) {
      std::string text = fmt::format(
          "- **Rule promoted:** {} ({})\n  - Source: {}, {} reviews over {} days\n"
          "  - Confidence: {}\n",
          QuoteReviewerText(r.prompt_instruction), Label(r.id), Label(r.source), r.occurrences,
          r.days, Pct(r.confidence));
      // A project's own rule (issue 30 item 5): the journal says where it holds.
      if (!r.holds_in.empty()) {
        std::string where;
        for (const std::string& p : r.holds_in) where += (where.empty() ? "" : ", ") + Label(p);
        text += "  - Holds in: " + where + " only\n";
      }
      entries.push_back({*r.promoted_at_ms, 0, std::move(text), true});
    }
    for (const learn::RuleAudit& a : r.audits) {
      if (a.at_ms > now_ms) continue;
      const bool retire = a.verdict == "retire";
      std::string text =
          fmt::format("- **Rule {}:** {} (audit", retire ? "retired" : "confirmed", Label(r.id));
      if (!a.reviewer.empty()) text += " by " + QuoteReviewerText(a.reviewer, kLabelBytes);
      text += ")";
      if (!a.note.empty()) text += ": " + QuoteReviewerText(a.note);
      entries.push_back({a.at_ms, 1, text + "\n", retire});
    }
  }
  const learn::AutonomyConfig& ac = learner.config().autonomy;
  for (const learn::LevelChange& c : learner.recent().level_changes()) {
    if (c.to <= c.from || c.at_ms > now_ms) continue;  // regressions come with their reason below
    entries.push_back(
        {c.at_ms, 2,
         fmt::format("- **Autonomy raised:** {} level {}→{} (review {} → {} of outputs)\n",
                     Label(c.task_type), c.from, c.to, Pct(ac.ReviewRate(c.from)),
                     Pct(ac.ReviewRate(c.to))),
         false});
  }
  for (const learn::Regression& r : learner.autonomy().Regressions()) {
    if (r.at_ms > now_ms) continue;
    entries.push_back({r.at_ms, 2,
                       fmt::format("- **Regression:** {} level {}→{} — {}\n", Label(r.task_type),
                                   r.from, r.to, r.Reason()),
                       false});
  }
  // The calibration has no history: the corrections in effect are logged on now's day.
  const learn::CalibrationResult cal = learner.calibration().Result();
  for (auto it = cal.buckets.rbegin(); it != cal.buckets.rend(); ++it) {
    if (static_cast<double>(it->n) < learner.config().calibration.min_bucket || !it->error ||
        std::fabs(*it->error) < 0.05) {
      continue;
    }
    entries.push_back(
        {now_ms, 3,
         fmt::format("- **Calibration in effect:** {} by {} in the {:.0f}-{:.0f}% range (n={})\n"
                     "  - Action: apply {:+.0f}% to raw confidence\n",
                     *it->error > 0 ? "overconfident" : "underconfident",
                     Pct(std::fabs(*it->error)), it->lower * 100, it->upper * 100, it->n,
                     -*it->error * 100),
         false});
  }
  std::stable_sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    const int64_t da = model::DayOf(a.at_ms), db = model::DayOf(b.at_ms);
    return std::tie(db, a.kind, b.at_ms, a.text) < std::tie(da, b.kind, a.at_ms, b.text);
  });

  std::vector<MemoryBlock> b;
  b.push_back({Header("Improvement Log — What Changed and Why",
                      "Tracks every behavioral change derived from feedback"),
               kAlwaysKept});
  int64_t day = INT64_MIN;
  size_t written = 0;
  for (const Entry& e : entries) {
    const int64_t age = now_day - model::DayOf(e.at_ms);
    if (age > static_cast<int64_t>(cfg.pattern_days) && !e.durable) continue;
    // Older entries are left out first.
    const int priority = age <= static_cast<int64_t>(cfg.recent_days)    ? 6
                         : age <= static_cast<int64_t>(cfg.weekly_days)  ? 5
                         : age <= static_cast<int64_t>(cfg.pattern_days) ? 4
                                                                         : 3;
    if (model::DayOf(e.at_ms) != day) {
      day = model::DayOf(e.at_ms);
      b.push_back({fmt::format("\n## {}\n", Day(e.at_ms)), priority});
    }
    b.push_back({e.text, priority});
    ++written;
  }
  if (written == 0) b.push_back({"\nNo changes yet.\n", kAlwaysKept});
  return FitToBudget(b, static_cast<size_t>(cfg.budget_bytes));
}

}  // namespace kaizen::render
