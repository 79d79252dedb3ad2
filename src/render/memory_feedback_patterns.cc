// The renderer of memory/feedback-patterns.md, the one memory file that applies the whole
// compression schedule (seed 000 §5.2): the largest, in a file of its own.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "model/timestamp.h"
#include "render/candidates.h"
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
using internal::Sum;
using internal::Window;
using learn::LearnedRule;
using learn::MemoryConfig;
using learn::ThemeTally;

constexpr size_t kMaxCandidateLines = 10;

std::string Signed(double x) { return fmt::format("{:+.1f}", x); }

// A kept review, one line: date, decision, what and who, then the reviewer's words, quoted.
std::string QuotedReview(const learn::KeptReview& r) {
  std::string what;
  for (const std::string_view* part : {&r.server_type, &r.work_type}) {
    if (part->empty()) continue;
    if (!what.empty()) what += "/";
    what += Label(*part);
  }
  std::string line = fmt::format("- {} **{}**", Day(r.at_ms), learn::DecisionWord(r.decision));
  if (!what.empty()) line += " " + what;
  if (!r.stage.empty()) line += " at " + Label(r.stage);
  if (!r.reviewer.empty()) line += " by " + QuoteReviewerText(r.reviewer, kLabelBytes);
  if (!r.reason.empty()) line += ": " + QuoteReviewerText(r.reason);
  auto list = [&](std::string_view name, const std::vector<std::string_view>& items) {
    if (items.empty()) return;
    line += fmt::format(" — {}: ", name);
    for (size_t i = 0; i < items.size(); ++i) {
      line += (i ? "; " : "") + QuoteReviewerText(items[i], 120);
    }
  };
  list("blockers", r.blockers);
  list("suggestions", r.suggestions);
  list("criticisms", r.criticisms);
  return line + "\n";
}

struct RankedTheme {
  std::string theme;
  ThemeTally tally;
};

std::vector<RankedTheme> ByMentions(const Window& w) {
  std::vector<RankedTheme> out;
  for (const auto& [theme, t] : w.themes) out.push_back({theme, t});
  std::stable_sort(out.begin(), out.end(), [](const RankedTheme& a, const RankedTheme& b) {
    return a.tally.positive + a.tally.negative > b.tally.positive + b.tally.negative;
  });
  return out;
}

double RejectionRate(int64_t negative, int64_t positive) {
  return negative + positive == 0
             ? 0
             : static_cast<double>(negative) / static_cast<double>(negative + positive);
}

}  // namespace

std::string FeedbackPatternsFile(const learn::Learner& learner, int64_t now_ms) {
  const MemoryConfig& cfg = learner.config().memory;
  const auto& days = learner.recent().days();
  const int64_t now_day = model::DayOf(now_ms);
  const auto recent_days = static_cast<int64_t>(cfg.recent_days);
  const auto weekly_days = static_cast<int64_t>(cfg.weekly_days);
  const auto pattern_days = static_cast<int64_t>(cfg.pattern_days);
  int64_t reviews = 0;  // every review up to now's day, whatever its age
  for (auto it = days.begin(); it != days.end() && it->first <= now_day; ++it) {
    reviews += it->second.reviews;
  }
  const Window patterns = Sum(days, now_day - pattern_days, now_day);
  const std::vector<LearnedRule> rules = learner.Rules(now_ms);
  std::map<std::string, const LearnedRule*, std::less<>> rule_of_theme;
  for (const LearnedRule& r : rules) {
    if (r.status != learn::RuleStatus::kRetired) rule_of_theme.emplace(r.theme, &r);
  }

  std::vector<MemoryBlock> b;
  b.push_back(
      {Header("Feedback Patterns (Auto-Updated)",
              fmt::format("Last updated: {} | Based on {} feedback events", Day(now_ms), reviews)),
       kAlwaysKept});
  b.push_back(
      {fmt::format("> Memory (seed 000 §5.2): reviews of the last {} days quoted, {}-{} "
                   "days by ISO week, {}-{} days as patterns, older only as rules.\n",
                   recent_days, recent_days + 1, weekly_days, weekly_days + 1, pattern_days),
       kAlwaysKept});

  // Recurring themes: the top themes of the pattern window by signals on either side.
  const auto top = static_cast<size_t>(cfg.top_themes);
  b.push_back({fmt::format("\n## Recurring Themes (Top {}, last {} days)\n", top, pattern_days),
               kAlwaysKept});
  const std::vector<RankedTheme> ranked = ByMentions(patterns);
  for (size_t i = 0; i < ranked.size() && i < top; ++i) {
    const RankedTheme& t = ranked[i];
    std::string line =
        fmt::format("{}. **{}** (mentioned {}x) — rejected {}x, praised {}x", i + 1, Label(t.theme),
                    t.tally.positive + t.tally.negative, t.tally.negative, t.tally.positive);
    if (auto r = rule_of_theme.find(t.theme); r != rule_of_theme.end()) {
      line +=
          r->second->status == learn::RuleStatus::kActive
              ? "; rule: " + SanitizeReviewerText(r->second->prompt_instruction)
              : fmt::format("; {} rule, not enforced", learn::RuleStatusName(r->second->status));
    }
    b.push_back({line + "\n", i < 3 ? 9 : 6});
  }
  if (ranked.empty()) b.push_back({"- No themes in this window yet.\n", 9});

  // What reviews repeat that is not a rule yet, marked as such, with what would confirm it.
  b.push_back({"\n## Candidate Rules (repeated in reviews, not rules yet)\n", kAlwaysKept});
  const std::vector<const LearnedRule*> candidates = Candidates(rules, kMaxCandidateLines);
  for (const LearnedRule* r : candidates) b.push_back({"- " + CandidateLine(*r) + "\n", 8});
  if (candidates.empty()) b.push_back({"- None.\n", 8});

  // Anti-patterns: durable rules first (any age, §5.2), then the window's consistent rejections.
  b.push_back({"\n## Anti-Patterns (Things Reviewers Consistently Reject)\n", kAlwaysKept});
  struct Anti {
    std::string label;
    double rate;
    int64_t n;
    std::string note;
  };
  std::vector<Anti> anti;
  for (const LearnedRule& r : rules) {
    if (r.status == learn::RuleStatus::kRetired) continue;
    const double rate = RejectionRate(r.occurrences, r.positive);
    if (rate + 1e-9 < cfg.consistent_share) continue;
    anti.push_back({SanitizeReviewerText(r.rule), rate, r.occurrences + r.positive,
                    fmt::format("; {} rule", learn::RuleStatusName(r.status))});
  }
  for (const auto& [theme, t] : patterns.themes) {
    if (rule_of_theme.count(theme) != 0) continue;
    const double rate = RejectionRate(t.negative, t.positive);
    if (static_cast<double>(t.negative) < cfg.min_signals || rate + 1e-9 < cfg.consistent_share) {
      continue;
    }
    anti.push_back({"**" + Label(theme) + "**", rate, t.negative + t.positive, ""});
  }
  std::stable_sort(anti.begin(), anti.end(), [](const Anti& a, const Anti& b) {
    return std::tie(b.rate, b.n, a.label) < std::tie(a.rate, a.n, b.label);
  });
  for (const Anti& a : anti) {
    b.push_back({fmt::format("- {} (rejection rate: {}, {} reviews{})\n", a.label, Pct(a.rate), a.n,
                             a.note),
                 8});
  }
  if (anti.empty()) b.push_back({"- None consistent enough yet.\n", 8});

  // Positive patterns: consistently praised themes, and how far their reviews score above the
  // window's mean review score.
  b.push_back({"\n## Positive Patterns (Things Reviewers Consistently Praise)\n", kAlwaysKept});
  struct Praise {
    std::string theme;
    std::optional<double> bonus;
    int64_t n;
  };
  std::vector<Praise> praise;
  const std::optional<double> mean =
      patterns.scored_reviews > 0
          ? std::optional<double>(patterns.review_mean_sum /
                                  static_cast<double>(patterns.scored_reviews))
          : std::nullopt;
  for (const auto& [theme, t] : patterns.themes) {
    if (static_cast<double>(t.positive) < cfg.min_signals ||
        1 - RejectionRate(t.negative, t.positive) + 1e-9 < cfg.consistent_share) {
      continue;
    }
    std::optional<double> bonus;
    if (mean && t.positive_scored > 0) {
      bonus = t.positive_score_sum / static_cast<double>(t.positive_scored) - *mean;
    }
    praise.push_back({theme, bonus, t.positive});
  }
  std::stable_sort(praise.begin(), praise.end(), [](const Praise& a, const Praise& b) {
    const double x = a.bonus.value_or(-1e300), y = b.bonus.value_or(-1e300);
    return std::tie(y, b.n) < std::tie(x, a.n);
  });
  for (const Praise& p : praise) {
    b.push_back({fmt::format("- **{}** ({}praised {}x)\n", Label(p.theme),
                             p.bonus ? Signed(*p.bonus) + " avg score bonus, " : "", p.n),
                 7});
  }
  if (praise.empty()) b.push_back({"- None consistent enough yet.\n", 7});

  // 0..recent_days: quoted, newest first.
  b.push_back({fmt::format("\n## Recent Reviews (last {} days)\n", recent_days), kAlwaysKept});
  size_t quoted = 0;
  for (auto it = days.upper_bound(now_day); it != days.begin();) {
    --it;
    if (it->first < now_day - recent_days) break;
    for (auto k = it->second.kept.rbegin(); k != it->second.kept.rend(); ++k) {
      if ((*k)->at_ms > now_ms) continue;
      b.push_back({QuotedReview(**k), 4});
      ++quoted;
    }
  }
  if (quoted == 0) b.push_back({"- None.\n", 4});

  // recent_days+1..weekly_days: one row per ISO week, newest first.
  b.push_back({fmt::format("\n## Weekly Summary ({}-{} days ago)\n", recent_days + 1, weekly_days),
               kAlwaysKept});
  const int64_t first = now_day - weekly_days, last = now_day - recent_days - 1;
  std::vector<std::pair<std::string, std::pair<int64_t, int64_t>>> weeks;  // week -> days
  for (auto it = days.lower_bound(first); it != days.end() && it->first <= last; ++it) {
    std::string week = IsoWeek(it->first);
    if (weeks.empty() || weeks.back().first != week) {
      weeks.push_back({week, {it->first, it->first}});
    } else {
      weeks.back().second.second = it->first;
    }
  }
  if (weeks.empty()) {
    b.push_back({"- None.\n", 5});
  } else {
    b.push_back(
        {"| Week | Days | Reviews | Approved | Rejected | Needs Work | Avg Score | Top "
         "Themes |\n|------|------|---------|----------|----------|------------|----------"
         "-|------------|\n",
         5});
  }
  for (auto w = weeks.rbegin(); w != weeks.rend(); ++w) {
    const Window s = Sum(days, w->second.first, w->second.second);
    std::string themes;
    const std::vector<RankedTheme> top_week = ByMentions(s);
    for (size_t i = 0; i < top_week.size() && i < 3; ++i) {
      themes += fmt::format("{}{} ({})", i ? ", " : "", Label(top_week[i].theme),
                            top_week[i].tally.positive + top_week[i].tally.negative);
    }
    b.push_back({fmt::format("| {} | {}..{} | {} | {} | {} | {} | {} | {} |\n", w->first,
                             Day(w->second.first * model::kMsPerDay).substr(5),
                             Day(w->second.second * model::kMsPerDay).substr(5), s.reviews,
                             s.approved, s.rejected, s.needs_work,
                             s.scored_reviews > 0
                                 ? fmt::format("{:.1f}", s.review_mean_sum /
                                                             static_cast<double>(s.scored_reviews))
                                 : "-",
                             themes.empty() ? "-" : themes),
                 5});
  }
  return FitToBudget(b, static_cast<size_t>(cfg.budget_bytes));
}

}  // namespace kaizen::render
