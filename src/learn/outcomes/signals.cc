#include "learn/outcomes/signals.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "learn/state_archive.h"
#include "model/timestamp.h"

namespace kaizen::learn {
namespace {

constexpr double kTolerance = 1e-9;

// year * 12 + (month - 1) of an instant, from its UTC day.
int64_t MonthIndex(int64_t at_ms) {
  const std::string day = model::FormatDay(at_ms);  // YYYY-MM-DD (years past 9999 are longer)
  const size_t dash = day.find('-', 1);
  const int64_t year = std::stoll(day.substr(0, dash));
  const int64_t month = std::stoll(day.substr(dash + 1, 2));
  return year * 12 + month - 1;
}

std::string MonthName(int64_t index) {
  const int64_t year = index >= 0 ? index / 12 : (index - 11) / 12;
  return fmt::format("{:04d}-{:02d}", year, index - year * 12 + 1);
}

std::optional<double> Share(int64_t part, int64_t whole) {
  if (whole <= 0) return std::nullopt;
  return static_cast<double>(part) / static_cast<double>(whole);
}

std::optional<double> Median(std::vector<double> v) {
  if (v.empty()) return std::nullopt;
  std::sort(v.begin(), v.end());
  const size_t mid = v.size() / 2;
  return v.size() % 2 == 1 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
}

bool IsRating(std::string_view t) {
  return t == "satisfaction" || t == "session_productivity" || t == "handoff_clarity";
}

}  // namespace

ConfigFields SignalConfig::Fields() {
  return {
      {"signals.rewrite_failure_share", &rewrite_failure_share, 0, 1, false,
       "a person rewriting this share of an agent commit's lines makes it a failed outcome "
       "(kaizen; seed 001 tier 1 'human edit after agent edit')"},
      {"signals.coverage_min_signals", &coverage_min_signals, 1, 100, true,
       "signals an agent commit needs to count as covered (seed 001: commits with 3+ signals)"},
      {"signals.trend_months", &trend_months, 1, 36, true,
       "calendar months in each signal metric's trend, ending with now's month"},
      {"signals.alert_min_commits", &alert_min_commits, 1, 1e9, true,
       "agent commits each week needs before a week-over-week revert or rewrite alert can fire"},
      {"signals.recent_failures", &recent_failures, 0, 1000, true,
       "failed outcomes (reverts, rewrites) kept for the agent's context and hints"},
  };
}

SignalKind KindOf(const model::RewardView& r) {
  const std::string_view t = r.signal_type;
  if (t == "ci_result") return SignalKind::kCi;
  if (t == "coverage_delta") return SignalKind::kCoverage;
  if (t == "merge_outcome") {
    // seed 001: merged / closed / reverted normalize to 1.0 / 0.5 / 0.0.
    if (r.signal_value <= kTolerance) return SignalKind::kReverted;
    if (r.signal_value < 1 - kTolerance) return SignalKind::kClosed;
    return SignalKind::kMerged;
  }
  if (t == "human_edit_after_agent") return SignalKind::kHumanEdit;
  if (t == "iteration_count") return SignalKind::kIterations;
  if (t == "time_efficiency") return SignalKind::kTime;
  if (IsRating(t)) return SignalKind::kRating;
  if (t == "approach_correctness") return SignalKind::kApproach;
  return SignalKind::kOther;
}

SignalTracker::Month& SignalTracker::MonthOf(int64_t at_ms) { return months_[MonthIndex(at_ms)]; }

TaskSignals& SignalTracker::Task(std::string_view task_type) {
  auto it = tasks_.find(task_type);
  if (it == tasks_.end()) {
    it = tasks_.emplace(std::string(task_type), TaskSignals{}).first;
    it->second.task_type = it->first;
  }
  return it->second;
}

void SignalTracker::AddFailure(const model::RewardView& r, std::string_view task_type,
                               std::string_view key, std::string what) {
  failures_.push_back({r.at_ms, std::string(task_type), std::string(key), std::move(what)});
}

SignalVerdict SignalTracker::Add(const model::RewardView& r, std::string_view task_type,
                                 bool agent_work) {
  ++rewards_;
  const SignalKind kind = KindOf(r);
  TaskSignals& task = Task(task_type);
  ++task.signals;
  // The work a signal is about: the agent's commit (git scan names it first in context.commits),
  // else the commit or the task the reward names.
  std::string_view key = !r.agent_commit.empty()  ? r.agent_commit
                         : !r.commit_hash.empty() ? r.commit_hash
                                                  : r.task_id;
  Commit* commit = nullptr;
  if (!key.empty()) {
    auto it = commits_.find(key);
    const int64_t made_ms = r.at_ms - std::max<int64_t>(0, r.delay_days) * model::kMsPerDay;
    if (it == commits_.end()) {
      it = commits_.emplace(std::string(key), Commit{}).first;
      it->second.first_ms = made_ms;
    }
    commit = &it->second;
    totals_.Add(TallyOf(*commit), -1);  // added back below, as this signal leaves it
    commit->first_ms = std::min(commit->first_ms, made_ms);
    ++commit->signals;
    commit->agent = commit->agent || agent_work;
  }

  SignalVerdict verdict;
  auto fail = [&](std::string what) {
    if (commit != nullptr && commit->failed) return;
    if (commit != nullptr) commit->failed = true;
    verdict.failed_outcome = true;
    ++task.failed_outcomes;
    AddFailure(r, task_type, key, std::move(what));
  };
  switch (kind) {
    case SignalKind::kCi: {
      Month& m = MonthOf(r.at_ms);
      ++m.ci_runs;
      ++task.ci_runs;
      const bool pass = r.signal_value >= 0.5;
      m.ci_passes += pass ? 1 : 0;
      task.ci_passes += pass ? 1 : 0;
      break;
    }
    case SignalKind::kMerged:
      ++task.merges;
      break;
    case SignalKind::kReverted:
      ++task.reverts;
      if (commit != nullptr) commit->reverted = true;
      fail("reverted");
      break;
    case SignalKind::kHumanEdit: {
      // signal_value = 1 - the share of the agent's added lines the person rewrote.
      const double share = std::clamp(1 - r.signal_value, 0.0, 1.0);
      if (commit != nullptr) commit->edit_measured = true;
      if (share <= kTolerance) break;
      ++task.rewrites;
      if (commit != nullptr) commit->edited = true;
      if (share >= config_.rewrite_failure_share - kTolerance) {
        fail(fmt::format("a person rewrote {:.0f}% of its lines", share * 100));
      }
      break;
    }
    case SignalKind::kTime:
      if (r.raw_number && std::isfinite(*r.raw_number) && *r.raw_number >= 0) {
        MonthOf(r.at_ms).seconds.push_back(*r.raw_number);
      }
      break;
    case SignalKind::kRating: {
      // seed 001: 1-5 normalize to 0.0 .. 1.0 in steps of 0.25.
      const double rating = 1 + 4 * std::clamp(r.signal_value, 0.0, 1.0);
      Month& m = MonthOf(r.at_ms);
      ++m.ratings;
      m.rating_sum += rating;
      ++task.ratings;
      task.rating_sum += rating;
      break;
    }
    default:
      break;
  }
  if (commit != nullptr) totals_.Add(TallyOf(*commit), +1);
  return verdict;
}

void SignalTracker::CommitTally::Add(const CommitTally& t, int64_t sign) {
  known += sign * t.known;
  covered += sign * t.covered;
  reverted += sign * t.reverted;
  measured += sign * t.measured;
  edited += sign * t.edited;
}

SignalTracker::CommitTally SignalTracker::TallyOf(const Commit& c) const {
  CommitTally t;
  if (!c.agent) return t;
  t.known = 1;
  t.covered = c.signals >= config_.coverage_min_signals - kTolerance ? 1 : 0;
  t.reverted = c.reverted ? 1 : 0;
  t.measured = c.edit_measured ? 1 : 0;
  t.edited = c.edit_measured && c.edited ? 1 : 0;
  return t;
}

void SignalTracker::AddSkip(const model::AdminView& skip) { ++MonthOf(skip.at_ms).skips; }

namespace {

// Ratings given out of the times a person was asked.
SignalMetric ResponseRate(int64_t ratings, int64_t skips) {
  return {ratings + skips, Share(ratings, ratings + skips), {}};
}

}  // namespace

SignalsResult SignalTracker::Headline() const {
  SignalsResult out;
  out.rewards = rewards_;
  const CommitTally& all = totals_;
  out.coverage = {all.known, Share(all.covered, all.known), {}};
  out.revert_rate = {all.known, Share(all.reverted, all.known), {}};
  out.human_edit_rate = {all.measured, Share(all.edited, all.measured), {}};
  int64_t ci_runs = 0, ci_passes = 0, ratings = 0, skips = 0;
  double rating_sum = 0;
  for (const auto& [index, m] : months_) {
    ci_runs += m.ci_runs;
    ci_passes += m.ci_passes;
    ratings += m.ratings;
    skips += m.skips;
    rating_sum += m.rating_sum;
  }
  out.response_rate = ResponseRate(ratings, skips);
  out.ci_pass_rate = {ci_runs, Share(ci_passes, ci_runs), {}};
  out.ratings = {
      ratings, ratings > 0 ? std::optional<double>(rating_sum / ratings) : std::nullopt, {}};
  // The newest `keep`, newest first, ties in log order: what a stable sort of them all by time,
  // newest first, keeps.
  const auto keep =
      std::min(failures_.size(), static_cast<size_t>(std::max(0.0, config_.recent_failures)));
  std::vector<size_t> order(failures_.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(keep), order.end(),
                    [&](size_t a, size_t b) {
                      if (failures_[a].at_ms != failures_[b].at_ms) {
                        return failures_[a].at_ms > failures_[b].at_ms;
                      }
                      return a < b;
                    });
  for (size_t i = 0; i < keep; ++i) out.recent_failures.push_back(failures_[order[i]]);
  return out;
}

void SignalTracker::AddOutcome(const model::OutcomeView& outcome) {
  if (!outcome.success || !std::isfinite(outcome.duration_ms) || outcome.duration_ms < 0) return;
  MonthOf(outcome.at_ms).seconds.push_back(outcome.duration_ms / 1000);
}

SignalsResult SignalTracker::Result(int64_t now_ms) const {
  SignalsResult out = Headline();
  const int64_t months = std::max<int64_t>(1, static_cast<int64_t>(config_.trend_months));
  const int64_t last_month = MonthIndex(now_ms);
  const int64_t first_month = last_month - months + 1;

  // Per-commit metrics by the month of the agent's commit.
  std::map<int64_t, CommitTally> by_month;
  // Week over week, by the agent's commit time: [now - 6 days, now] against the 7 days before.
  const int64_t now_day = model::DayOf(now_ms);
  CommitTally this_week, last_week;
  for (const auto& entry : commits_) {
    const Commit& c = entry.second;
    if (!c.agent) continue;
    const CommitTally t = TallyOf(c);
    const int64_t month = MonthIndex(c.first_ms);
    if (month >= first_month && month <= last_month) by_month[month].Add(t, +1);
    const int64_t age = now_day - model::DayOf(c.first_ms);
    if (age >= 0 && age < 7) this_week.Add(t, +1);
    if (age >= 7 && age < 14) last_week.Add(t, +1);
  }
  std::vector<double> seconds;
  for (const auto& [index, m] : months_) {
    seconds.insert(seconds.end(), m.seconds.begin(), m.seconds.end());
  }
  out.time_to_completion = {static_cast<int64_t>(seconds.size()), Median(seconds), {}};

  for (int64_t month = first_month; month <= last_month; ++month) {
    const std::string name = MonthName(month);
    auto c = by_month.find(month);
    const CommitTally t = c == by_month.end() ? CommitTally{} : c->second;
    out.coverage.trend.push_back({name, t.known, Share(t.covered, t.known)});
    out.revert_rate.trend.push_back({name, t.known, Share(t.reverted, t.known)});
    out.human_edit_rate.trend.push_back({name, t.measured, Share(t.edited, t.measured)});
    auto m = months_.find(month);
    const Month empty;
    const Month& mm = m == months_.end() ? empty : m->second;
    out.ci_pass_rate.trend.push_back({name, mm.ci_runs, Share(mm.ci_passes, mm.ci_runs)});
    out.time_to_completion.trend.push_back(
        {name, static_cast<int64_t>(mm.seconds.size()), Median(mm.seconds)});
    out.ratings.trend.push_back(
        {name, mm.ratings,
         mm.ratings > 0 ? std::optional<double>(mm.rating_sum / mm.ratings) : std::nullopt});
    const SignalMetric month_rate = ResponseRate(mm.ratings, mm.skips);
    out.response_rate.trend.push_back({name, month_rate.n, month_rate.value});
  }

  for (const auto& [name, t] : tasks_) out.by_task_type.push_back(t);

  // seed 001 success metrics "Revert rate: decreasing", "Human edit-after-agent rate: decreasing":
  // a rise week over week is worth a look.
  const double min_commits = config_.alert_min_commits - kTolerance;
  auto rising = [&](int64_t now_part, int64_t now_whole, int64_t then_part, int64_t then_whole,
                    std::string_view condition, std::string_view what) {
    if (now_whole < min_commits || then_whole < min_commits) return;
    const double now_rate = static_cast<double>(now_part) / now_whole;
    const double then_rate = static_cast<double>(then_part) / then_whole;
    if (now_rate <= then_rate + kTolerance) return;
    out.alerts.push_back(
        {"warning", std::string(condition),
         fmt::format("{} rose from {:.0f}% to {:.0f}% of agent commits week over week", what,
                     then_rate * 100, now_rate * 100),
         "read the reverted and rewritten work in `kaizen analyze`; tighten the checklist"});
  };
  rising(this_week.reverted, this_week.known, last_week.reverted, last_week.known,
         "revert-rate-rising", "the revert rate");
  rising(this_week.edited, this_week.measured, last_week.edited, last_week.measured,
         "human-edit-rate-rising", "the share of agent work people rewrote");
  return out;
}

namespace {

void WriteMetric(base::JsonWriter& w, const SignalMetric& m) {
  w.StartObject();
  base::Key(w, "n");
  w.Int64(m.n);
  base::Key(w, "value");
  base::Num(w, m.value);
  base::Key(w, "trend");
  w.StartArray();
  for (const MonthValue& v : m.trend) {
    w.StartObject();
    base::Key(w, "month");
    base::Str(w, v.month);
    base::Key(w, "n");
    w.Int64(v.n);
    base::Key(w, "value");
    base::Num(w, v.value);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
}

}  // namespace

void WriteJson(base::JsonWriter& w, const SignalsResult& r) {
  w.StartObject();
  base::Key(w, "rewards");
  w.Int64(r.rewards);
  base::Key(w, "coverage");
  WriteMetric(w, r.coverage);
  base::Key(w, "revertRate");
  WriteMetric(w, r.revert_rate);
  base::Key(w, "humanEditAfterAgentRate");
  WriteMetric(w, r.human_edit_rate);
  base::Key(w, "ciPassRate");
  WriteMetric(w, r.ci_pass_rate);
  base::Key(w, "timeToCompletion");
  WriteMetric(w, r.time_to_completion);
  base::Key(w, "ratings");
  WriteMetric(w, r.ratings);
  base::Key(w, "responseRate");
  WriteMetric(w, r.response_rate);
  base::Key(w, "byTaskType");
  w.StartObject();
  for (const TaskSignals& t : r.by_task_type) {
    base::Key(w, t.task_type);
    w.StartObject();
    base::Key(w, "signals");
    w.Int64(t.signals);
    base::Key(w, "failedOutcomes");
    w.Int64(t.failed_outcomes);
    base::Key(w, "reverts");
    w.Int64(t.reverts);
    base::Key(w, "rewrites");
    w.Int64(t.rewrites);
    base::Key(w, "merges");
    w.Int64(t.merges);
    base::Key(w, "ciRuns");
    w.Int64(t.ci_runs);
    base::Key(w, "ciPassRate");
    base::Num(w, Share(t.ci_passes, t.ci_runs));
    base::Key(w, "ratings");
    w.Int64(t.ratings);
    base::Key(w, "meanRating");
    base::Num(w, t.ratings > 0 ? std::optional<double>(t.rating_sum / t.ratings) : std::nullopt);
    w.EndObject();
  }
  w.EndObject();
  base::Key(w, "recentFailures");
  w.StartArray();
  for (const SignalFailure& f : r.recent_failures) {
    w.StartObject();
    base::Key(w, "at");
    base::Str(w, model::FormatUtc(f.at_ms));
    base::Key(w, "taskType");
    base::Str(w, f.task_type);
    base::Key(w, "work");
    base::Str(w, f.commit);
    base::Key(w, "what");
    base::Str(w, f.what);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
}

// ---- State (Learner::SaveState) -------------------------------------------------------------

template <class Archive>
void TaskSignals::serialize(Archive& ar) {
  ar(task_type, signals, failed_outcomes, reverts, rewrites, ci_runs, ci_passes, merges, ratings,
     rating_sum);
}

template <class Archive>
void SignalFailure::serialize(Archive& ar) {
  ar(at_ms, task_type, commit, what);
}

template <class Archive>
void SignalTracker::Commit::serialize(Archive& ar) {
  ar(first_ms, signals, agent, edit_measured, edited, reverted, failed);
}

template <class Archive>
void SignalTracker::Month::serialize(Archive& ar) {
  ar(ci_runs, ci_passes, ratings, rating_sum, seconds, skips);
}

template <class Archive>
void SignalTracker::serialize(Archive& ar) {
  ar(rewards_, state::SortedMap(commits_), months_, tasks_, failures_);
  // Derived from commits_: summed again on load instead of stored.
  if constexpr (Archive::is_loading::value) {
    totals_ = CommitTally{};
    for (const auto& [key, commit] : commits_) totals_.Add(TallyOf(commit), +1);
  }
}

KZ_STATE_INSTANTIATE(SignalTracker);

}  // namespace kaizen::learn
