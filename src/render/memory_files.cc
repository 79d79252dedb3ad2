#include "render/memory_files.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <tuple>

#include "learn/reviews/approval.h"
#include "model/schema.h"
#include "model/timestamp.h"
#include "render/candidates.h"
#include "render/safe_text.h"

namespace kaizen::render {
namespace {

using learn::DayDigest;
using learn::LearnedRule;
using learn::MemoryConfig;
using learn::ThemeTally;

constexpr size_t kLabelBytes = 64;  // a theme, server type or stage named in a file
constexpr size_t kMaxCandidateLines = 10;

// Themes, server types and stages come from the log (annotation categories are reviewer-written):
// sanitized, never trusted as markdown.
std::string Label(std::string_view s) { return SanitizeReviewerText(s, kLabelBytes); }
std::string Pct(double x) { return fmt::format("{:.0f}%", x * 100); }
std::string Signed(double x) { return fmt::format("{:+.1f}", x); }

// What the digests of days [first, last] add up to.
struct Window {
  int64_t reviews = 0, approved = 0, rejected = 0, needs_work = 0, deferred = 0;
  double review_mean_sum = 0;
  int64_t scored_reviews = 0;
  std::array<learn::DimensionTally, 13> dimensions{};
  std::map<std::string, ThemeTally, std::less<>> themes;
};

Window Sum(const std::map<int64_t, DayDigest>& days, int64_t first, int64_t last) {
  Window w;
  for (auto it = days.lower_bound(first); it != days.end() && it->first <= last; ++it) {
    const DayDigest& d = it->second;
    w.reviews += d.reviews;
    w.approved += d.approved;
    w.rejected += d.rejected;
    w.needs_work += d.needs_work;
    w.deferred += d.deferred;
    w.review_mean_sum += d.review_mean_sum;
    w.scored_reviews += d.scored_reviews;
    for (size_t i = 0; i < w.dimensions.size(); ++i) {
      for (int b = 0; b < learn::DimensionTally::kBuckets; ++b) {
        w.dimensions[i].n[b] += d.dimensions[i].n[b];
        w.dimensions[i].sum[b] += d.dimensions[i].sum[b];
      }
    }
    for (const auto& [theme, t] : d.themes) {
      ThemeTally& s = w.themes[theme];
      s.positive += t.positive;
      s.negative += t.negative;
      s.positive_score_sum += t.positive_score_sum;
      s.positive_scored += t.positive_scored;
    }
  }
  return w;
}

std::string Header(std::string_view title, std::string_view line) {
  return fmt::format("# {}\n> {}\n", title, line);
}

std::string Day(int64_t ms) { return model::FormatDay(ms); }

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

std::string IsoWeek(int64_t day) {
  // 1970-01-01 was a Thursday; ISO weeks start on Monday and belong to their Thursday's year.
  const int64_t weekday = ((day + 3) % 7 + 7) % 7;  // 0 = Monday
  const int64_t thursday = day - weekday + 3;
  const int year = model::ToCivil(thursday * model::kMsPerDay).year;
  const int64_t week = (thursday - model::DaysFromCivil(year, 1, 1)) / 7 + 1;
  return fmt::format("{}-W{:02}", year, week);
}

std::string FitToBudget(const std::vector<MemoryBlock>& blocks, size_t budget_bytes) {
  size_t total = 0;
  for (const MemoryBlock& b : blocks) total += b.text.size();
  std::vector<bool> left_out(blocks.size(), false);
  std::vector<size_t> order;
  for (size_t i = 0; i < blocks.size(); ++i) {
    if (blocks[i].priority < kAlwaysKept) order.push_back(i);
  }
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return std::make_tuple(blocks[a].priority, -static_cast<int64_t>(a)) <
           std::make_tuple(blocks[b].priority, -static_cast<int64_t>(b));
  });
  auto note = [&](size_t lines) {
    return fmt::format(
        "\n> {} line(s) left out to stay within the {}-byte budget (memory.budget_bytes).\n", lines,
        budget_bytes);
  };
  size_t lines = 0;
  for (size_t i : order) {
    if (total + (lines ? note(lines).size() : 0) <= budget_bytes) break;
    left_out[i] = true;
    total -= blocks[i].text.size();
    lines += static_cast<size_t>(std::count(blocks[i].text.begin(), blocks[i].text.end(), '\n'));
  }
  std::string out;
  out.reserve(total + 128);
  for (size_t i = 0; i < blocks.size(); ++i) {
    if (!left_out[i]) out += blocks[i].text;
  }
  if (lines > 0) out += note(lines);
  return out;
}

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

std::string QualityStandardsFile(const learn::Learner& learner, int64_t now_ms) {
  const MemoryConfig& cfg = learner.config().memory;
  const int64_t now_day = model::DayOf(now_ms);
  // The gates' own window (§9.3 "30-day rolling averages"), so averages match "Based On".
  const auto window_days = static_cast<int64_t>(learner.config().gates.window_days);
  const Window w = Sum(learner.recent().days(), now_day - window_days + 1, now_day);
  const auto& names = model::QualityDimensions();
  int64_t points = 0;
  for (const learn::DimensionTally& d : w.dimensions) {
    for (int64_t n : d.n) points += n;
  }
  // seed 000 §5.1 "Confidence: High (100+ data points)"; Medium from 30 (§3.3's fit minimum).
  const std::string_view confidence = points >= 100 ? "High" : points >= 30 ? "Medium" : "Low";

  std::vector<MemoryBlock> b;
  b.push_back({Header("Quality Standards (Learned Thresholds)",
                      fmt::format("Last calibrated: {} | Confidence: {} ({} data points in {} "
                                  "days)",
                                  Day(now_ms), confidence, points, window_days)),
               kAlwaysKept});

  auto mean_of = [&](size_t dim) -> std::optional<double> {
    int64_t n = 0;
    double sum = 0;
    for (int b = 0; b < learn::DimensionTally::kBuckets; ++b) {
      n += w.dimensions[dim].n[b];
      sum += w.dimensions[dim].sum[b];
    }
    if (n == 0) return std::nullopt;
    return sum / static_cast<double>(n);
  };

  b.push_back({"\n## Minimum Acceptable Scores (Hard and Soft Gates)\n", kAlwaysKept});
  const std::vector<learn::ScoreGate> gates = learner.gates().Gates(now_ms);
  if (gates.empty()) {
    b.push_back({fmt::format("- No gate yet: a dimension needs {}+ scores in {} days and a "
                             "threshold below which reviewers (nearly) always reject.\n",
                             learner.config().gates.min_scores, window_days),
                 9});
  } else {
    b.push_back(
        {"| Dimension | Minimum Score | Gate | Rejection Rate Below | Based On | "
         "Reviewer Avg |\n|-----------|---------------|------|----------------------|"
         "----------|--------------|\n",
         9});
  }
  for (const learn::ScoreGate& g : gates) {
    const int dim = learn::QualityDimensionIndex(g.dimension);
    const std::optional<double> avg = dim < 0 ? std::nullopt : mean_of(static_cast<size_t>(dim));
    b.push_back({fmt::format("| {} | {} | {} | {} | {} reviews | {} |\n", Label(g.dimension),
                             g.threshold, learn::GateKindName(g.kind), Pct(g.rejection_rate),
                             g.scores, avg ? fmt::format("{:.1f}", *avg) : "-"),
                 g.kind == learn::GateKind::kHard ? 9 : 8});
  }

  // Targets: the score at the top quartile's edge, and the top quartile's mean.
  b.push_back({"\n## Target Scores (What \"Great\" Looks Like)\n", kAlwaysKept});
  std::vector<std::string> rows;
  for (size_t dim = 0; dim < names.size(); ++dim) {
    const learn::DimensionTally& d = w.dimensions[dim];
    int64_t n = 0;
    for (int64_t c : d.n) n += c;
    if (n == 0 || static_cast<double>(n) < cfg.min_reviews) continue;
    int64_t want = (n + 3) / 4, taken = 0;
    double sum = 0;
    int edge = learn::DimensionTally::kBuckets;
    for (int bucket = learn::DimensionTally::kBuckets - 1; bucket >= 0 && taken < want; --bucket) {
      if (d.n[bucket] == 0) continue;
      const int64_t take = std::min(want - taken, d.n[bucket]);
      sum += static_cast<double>(take) * d.sum[bucket] / static_cast<double>(d.n[bucket]);
      taken += take;
      edge = bucket + 1;
    }
    rows.push_back(fmt::format("| {} | {}+ | {:.1f} | {} scores |\n", names[dim], edge,
                               sum / static_cast<double>(taken), n));
  }
  if (rows.empty()) {
    b.push_back({fmt::format("- Not enough scores yet ({}+ per dimension in {} days).\n",
                             cfg.min_reviews, window_days),
                 7});
  } else {
    b.push_back(
        {"| Dimension | Target | Top Quartile | Based On |\n|-----------|--------|--------------|"
         "----------|\n",
         7});
  }
  for (std::string& r : rows) b.push_back({std::move(r), 7});

  // §3.1 calibration: what the agent's raw confidence turned out to mean.
  b.push_back({"\n## Confidence Calibration\n", kAlwaysKept});
  const learn::CalibrationResult cal = learner.calibration().Result();
  const double min_bucket = learner.config().calibration.min_bucket;
  bool any = false;
  for (auto it = cal.buckets.rbegin(); it != cal.buckets.rend(); ++it) {
    if (static_cast<double>(it->n) < min_bucket || !it->actual_rate || !it->error) continue;
    if (!any) b.push_back({"The agent's raw confidence maps to an actual approval rate:\n", 8});
    any = true;
    // kaizen's choice: within 5 points counts as calibrated (the seed's "~calibrated" rows).
    const std::string action = std::fabs(*it->error) < 0.05
                                   ? "~calibrated"
                                   : fmt::format("apply {:+.0f}% correction", -*it->error * 100);
    b.push_back({fmt::format("- {:.0f}-{:.0f}% raw → {} actual ({}, n={})\n", it->lower * 100,
                             it->upper * 100 - (it->upper < 1 ? 1 : 0), Pct(*it->actual_rate),
                             action, it->n),
                 8});
  }
  if (!any) {
    b.push_back(
        {fmt::format("- Not enough reviews yet ({}+ per confidence bucket).\n", min_bucket), 8});
  }
  const learn::ScorePrediction& sp = cal.score_prediction;
  if (sp.n > 0 && sp.mean_abs_error && sp.mean_delta) {
    b.push_back({fmt::format("- Score predictions: off by {:.1f} on average over {} reviews "
                             "(reviewers score {:.1f} {} than predicted)\n",
                             *sp.mean_abs_error, sp.n, std::fabs(*sp.mean_delta),
                             *sp.mean_delta >= 0 ? "higher" : "lower"),
                 8});
  }
  return FitToBudget(b, static_cast<size_t>(cfg.budget_bytes));
}

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

std::vector<RenderedFile> MemoryFiles(const learn::Learner& learner, int64_t now_ms) {
  return {
      {"memory/feedback-patterns.md", FeedbackPatternsFile(learner, now_ms)},
      {"memory/quality-standards.md", QualityStandardsFile(learner, now_ms)},
      {"memory/reviewer-preferences.md", ReviewerPreferencesFile(learner, now_ms)},
      {"memory/improvement-log.md", ImprovementLogFile(learner, now_ms)},
  };
}

}  // namespace kaizen::render
