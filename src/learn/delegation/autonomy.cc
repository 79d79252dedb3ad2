#include "learn/delegation/autonomy.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>

#include "learn/reviews/approval.h"
#include "learn/state_archive.h"
#include "model/timestamp.h"

namespace kaizen::learn {
namespace {

// Rates compared with a threshold: 0.95 computed as 19/20 must count as 0.95.
constexpr double kEpsilon = 1e-9;

int ClampLevel(int level) { return std::clamp(level, 0, AutonomyConfig::kMaxLevel); }

// FNV-1a 64 spreads the id's bytes; the splitmix64 finalizer mixes the high bits, which become
// the sample, so ids that differ only in their last character still land far apart.
uint64_t StableHash(std::string_view s) {
  uint64_t h = 14695981039346656037ull;
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ull;
  h = (h ^ (h >> 27)) * 0x94d049bb133111ebull;
  return h ^ (h >> 31);
}

std::string Pct(double rate) { return fmt::format("{}%", base::Round6(rate * 100)); }

}  // namespace

ConfigFields AutonomyConfig::Fields() {
  return {
      {"autonomy.l1_approvals", &l1_approvals, 0, 1e9, true,
       "approvals a task type needs for level 1 (seed 000 §6.3: 10+)"},
      {"autonomy.l2_approvals", &l2_approvals, 0, 1e9, true,
       "approvals a task type needs for level 2 (seed 000 §6.3: 25+)"},
      {"autonomy.l2_rate", &l2_rate, 0, 1, false,
       "approval rate level 2 must exceed, and below which its last window regresses (seed 000 "
       "§6.3: 85%)"},
      {"autonomy.l3_approvals", &l3_approvals, 0, 1e9, true,
       "approvals a task type needs for level 3 (seed 000 §6.3: 50+)"},
      {"autonomy.l3_rate", &l3_rate, 0, 1, false,
       "approval rate level 3 must exceed, and below which its last window regresses (seed 000 "
       "§6.3: 90%)"},
      {"autonomy.l4_approvals", &l4_approvals, 0, 1e9, true,
       "approvals a task type needs for level 4 (seed 000 §6.3: 100+)"},
      {"autonomy.l4_rate", &l4_rate, 0, 1, false,
       "approval rate level 4 must exceed, and below which its last window regresses (seed 000 "
       "§6.3: 95%)"},
      {"autonomy.l0_review_rate", &l0_review_rate, 0, 1, false,
       "share of outputs reviewed at level 0 (seed 000 §6.3: 100%)"},
      {"autonomy.l1_review_rate", &l1_review_rate, 0, 1, false,
       "share of outputs reviewed at level 1 (seed 000 §6.3: 80%)"},
      {"autonomy.l2_review_rate", &l2_review_rate, 0, 1, false,
       "share of outputs reviewed at level 2 (seed 000 §6.3: 50%)"},
      {"autonomy.l3_review_rate", &l3_review_rate, 0, 1, false,
       "share of outputs reviewed at level 3 (seed 000 §6.3: 20%)"},
      {"autonomy.l4_review_rate", &l4_review_rate, 0, 1, false,
       "share of outputs reviewed at level 4 (seed 000 §6.3: 5%)"},
      {"autonomy.window", &window, 1, 64, true,
       "decided reviews in the regression window (seed 000 §6.3: the next 5 reviews)"},
      {"autonomy.l1_threshold", &l1_threshold, 0, 1, false,
       "window approval rate below which level 1 regresses (the seed gives none; §3.4's "
       "standard-review floor, 50%)"},
      {"autonomy.auto_approve_rate", &auto_approve_rate, 0, 1, false,
       "approval rate an auto-approve task class must exceed (seed 000 §3.4: 95%)"},
      {"autonomy.auto_approve_min", &auto_approve_min, 0, 1e9, true,
       "decided reviews an auto-approve task class needs (seed 000 §3.4: 20+)"},
      {"autonomy.auto_approve_seconds", &auto_approve_seconds, 0, 1e9, false,
       "mean time-to-decide an auto-approve task class must stay under (seed 000 §3.4: 15 s)"},
      {"autonomy.quick_rate", &quick_rate, 0, 1, false,
       "approval rate a quick-review task class must exceed (seed 000 §3.4: 80%)"},
      {"autonomy.standard_rate", &standard_rate, 0, 1, false,
       "approval rate a standard-review task class needs; below it, deep review (seed 000 §3.4: "
       "50%)"},
      {"autonomy.escalate_below", &escalate_below, 0, 1e9, true,
       "a task type with fewer decided reviews is escalated (seed 000 §3.4: < 5 data points)"},
  };
}

double AutonomyConfig::Approvals(int level) const {
  switch (ClampLevel(level)) {
    case 1:
      return l1_approvals;
    case 2:
      return l2_approvals;
    case 3:
      return l3_approvals;
    case 4:
      return l4_approvals;
  }
  return 0;
}

double AutonomyConfig::Rate(int level) const {
  switch (ClampLevel(level)) {
    case 2:
      return l2_rate;
    case 3:
      return l3_rate;
    case 4:
      return l4_rate;
  }
  return 0;
}

double AutonomyConfig::ReviewRate(int level) const {
  switch (ClampLevel(level)) {
    case 1:
      return l1_review_rate;
    case 2:
      return l2_review_rate;
    case 3:
      return l3_review_rate;
    case 4:
      return l4_review_rate;
  }
  return l0_review_rate;
}

double AutonomyConfig::Threshold(int level) const {
  return ClampLevel(level) == 1 ? l1_threshold : Rate(level);
}

std::string_view TaskClassName(TaskClass c) {
  switch (c) {
    case TaskClass::kEscalate:
      return "escalate";
    case TaskClass::kAutoApprove:
      return "auto-approve";
    case TaskClass::kQuick:
      return "quick";
    case TaskClass::kStandard:
      return "standard";
    case TaskClass::kDeep:
      return "deep";
  }
  return "escalate";
}

std::string Regression::Reason() const {
  if (auto_approved_failed) {
    return "Auto-approved work failed after it shipped (reverted or rewritten by a person)";
  }
  return fmt::format("Approval rate {} < threshold {}", base::Round6(rate),
                     base::Round6(threshold));
}

AutonomyTracker::AutonomyTracker(const AutonomyConfig& config)
    : config_(config), window_(std::clamp(static_cast<int>(config.window), 1, 64)) {}

uint32_t AutonomyTracker::TaskIndex(std::string_view name) {
  auto it = index_.find(name);
  if (it != index_.end()) return it->second;
  const auto index = static_cast<uint32_t>(tasks_.size());
  tasks_.push_back(Task{.name = std::string(name)});
  index_.emplace(std::string(name), index);
  return index;
}

DelegationDay& AutonomyTracker::Day(int64_t at_ms) {
  const int64_t day = model::DayOf(at_ms);
  if (last_ == nullptr || day != last_day_) {
    last_ = &days_[day];  // map nodes are stable
    last_day_ = day;
  }
  return *last_;
}

double AutonomyTracker::WindowRate(const Task& t) const {
  if (t.window_size == 0) return 0;
  return static_cast<double>(std::popcount(t.window_bits)) / t.window_size;
}

bool AutonomyTracker::PromotionHolds(const Task& t, int level, bool after_regression) const {
  if (static_cast<double>(t.approvals) < config_.Approvals(level)) return false;
  if (level >= 2) {
    const double rate = static_cast<double>(t.approvals) / static_cast<double>(t.decided);
    if (!(rate > config_.Rate(level) + kEpsilon)) return false;
  }
  // After a regression the window must show the level's threshold again, so the next good
  // review does not undo the regression on cumulative numbers alone.
  if (after_regression) {
    return t.window_size == window_ && WindowRate(t) >= config_.Threshold(level) - kEpsilon;
  }
  return true;
}

void AutonomyTracker::Add(const model::ReviewView& review) {
  Task& t = tasks_[TaskIndex(OrUnspecified(review.task_type))];
  if (!IsDecided(review.decision)) return;
  if (review.decision_untimed) {
    ++t.untimed;
  } else {
    t.decide_ms_sum += review.time_to_decision_ms;
  }
  Decide(t, review.decision == model::Decision::kApproved, review.at_ms);
}

void AutonomyTracker::AddFailedOutcome(std::string_view task_type, int64_t at_ms,
                                       bool auto_approved) {
  Task& t = tasks_[TaskIndex(OrUnspecified(task_type))];
  ++t.failed_outcomes;
  // seed 000 §6.3: auto-approval is the level's promise that review was not needed; work it let
  // through that a person then had to undo breaks it at once, whatever the window says.
  if (auto_approved && t.level >= 1) {
    DelegationDay& day = Day(at_ms);
    ++day.level_checks;
    ++day.regressions;
    regressions_.push_back({static_cast<uint32_t>(&t - tasks_.data()),
                            static_cast<uint8_t>(t.level), static_cast<uint8_t>(t.level - 1), at_ms,
                            t.window_size > 0 ? WindowRate(t) : 0, true});
    --t.level;
    t.regressed = true;
    t.window_bits = 0;
    t.window_size = 0;
  }
  Decide(t, false, at_ms);
}

void AutonomyTracker::Decide(Task& t, bool approved, int64_t at_ms) {
  ++t.decided;
  t.approvals += approved ? 1 : 0;
  const uint64_t mask = window_ == 64 ? ~0ull : (1ull << window_) - 1;
  t.window_bits = ((t.window_bits << 1) | (approved ? 1 : 0)) & mask;
  t.window_size = std::min(t.window_size + 1, window_);

  // seed 000 §6.3 checkForRegression: the last `window` reviews against the level's threshold.
  if (t.level >= 1 && t.window_size == window_) {
    DelegationDay& day = Day(at_ms);
    ++day.level_checks;
    const double rate = WindowRate(t);
    if (rate < config_.Threshold(t.level) - kEpsilon) {
      ++day.regressions;
      regressions_.push_back({static_cast<uint32_t>(&t - tasks_.data()),
                              static_cast<uint8_t>(t.level), static_cast<uint8_t>(t.level - 1),
                              at_ms, rate, false});
      --t.level;
      t.regressed = true;
      t.window_bits = 0;  // the next check needs `window` new reviews
      t.window_size = 0;
    }
  }
  const bool after_regression = t.regressed;
  while (t.level < AutonomyConfig::kMaxLevel && PromotionHolds(t, t.level + 1, after_regression)) {
    ++t.level;
    t.regressed = false;
  }
}

bool AutonomyTracker::AddWork(const model::WorkView& work) {
  std::string_view task_type = !work.server_type.empty() ? work.server_type : work.type;
  DelegationDay& day = Day(work.at_ms);
  ++day.submitted;
  if (ShouldReview(work.artifact_id, Level(OrUnspecified(task_type)))) return false;
  ++day.auto_approved;
  return true;
}

bool AutonomyTracker::ShouldReview(std::string_view artifact_id, int level) const {
  // The top 53 bits as a double in [0, 1).
  const double u = static_cast<double>(StableHash(artifact_id) >> 11) * 0x1.0p-53;
  return u < config_.ReviewRate(level);
}

int AutonomyTracker::Level(std::string_view task_type) const {
  auto it = index_.find(task_type);
  return it == index_.end() ? 0 : tasks_[it->second].level;
}

TaskClass AutonomyTracker::Classify(const Task& t) const {
  // seed 000 §3.4, checked in the table's order of precedence: too little data first.
  const auto decided = static_cast<double>(t.decided);
  if (decided < config_.escalate_below || t.decided == 0) return TaskClass::kEscalate;
  const double rate = static_cast<double>(t.approvals) / decided;
  // Failed outcomes (reverts, rewrites) have no decision time: the mean is over reviews.
  const double seconds = t.decide_ms_sum / std::max<double>(1, t.Timed()) / 1000;
  if (decided >= config_.auto_approve_min && rate > config_.auto_approve_rate + kEpsilon &&
      seconds < config_.auto_approve_seconds) {
    return TaskClass::kAutoApprove;
  }
  if (rate > config_.quick_rate + kEpsilon) return TaskClass::kQuick;
  if (rate >= config_.standard_rate - kEpsilon) return TaskClass::kStandard;
  return TaskClass::kDeep;
}

TaskAutonomy AutonomyTracker::Summary(const Task& t) const {
  TaskAutonomy a;
  a.task_type = t.name;
  a.level = t.level;
  a.task_class = Classify(t);
  a.approvals = t.approvals;
  a.decided = t.decided;
  a.failed_outcomes = t.failed_outcomes;
  if (t.decided > 0) a.rate = static_cast<double>(t.approvals) / static_cast<double>(t.decided);
  if (t.Timed() > 0) a.avg_seconds = t.decide_ms_sum / static_cast<double>(t.Timed()) / 1000;
  a.review_rate = config_.ReviewRate(t.level);
  a.regressed = t.regressed;
  if (t.regressed) {
    const auto index = static_cast<uint32_t>(&t - tasks_.data());
    for (auto it = regressions_.rbegin(); it != regressions_.rend(); ++it) {
      if (it->task != index) continue;
      a.regressed_from = it->from;
      a.regressed_at_ms = it->at_ms;
      a.regression_reason = Regression{t.name,
                                       it->from,
                                       it->to,
                                       it->at_ms,
                                       it->rate,
                                       config_.Threshold(it->from),
                                       it->auto_approved_failed}
                                .Reason();
      break;
    }
  }
  a.window_size = t.window_size;
  if (t.window_size > 0) a.recent_rate = WindowRate(t);
  return a;
}

std::vector<TaskAutonomy> AutonomyTracker::Result() const {
  std::vector<TaskAutonomy> out;
  out.reserve(tasks_.size());
  for (const Task& t : tasks_) out.push_back(Summary(t));
  std::sort(out.begin(), out.end(),
            [](const TaskAutonomy& a, const TaskAutonomy& b) { return a.task_type < b.task_type; });
  return out;
}

std::vector<Regression> AutonomyTracker::Regressions() const {
  std::vector<Regression> out;
  out.reserve(regressions_.size());
  for (const RegressionEntry& e : regressions_) {
    out.push_back({tasks_[e.task].name, e.from, e.to, e.at_ms, e.rate, config_.Threshold(e.from),
                   e.auto_approved_failed});
  }
  return out;
}

bool AutonomyTracker::ExplainAutonomy(std::string_view task_type, std::string* text) const {
  auto it = index_.find(task_type);
  if (it == index_.end()) return false;
  const Task& t = tasks_[it->second];
  const TaskAutonomy a = Summary(t);
  std::string out = fmt::format("Autonomy for {}\n", t.name);
  out += fmt::format(
      "decided reviews: {}, approvals: {}, approval rate: {}, mean time-to-decide: {}\n", t.decided,
      t.approvals, a.rate ? fmt::format("{:.3f}", *a.rate) : "-",
      a.avg_seconds ? fmt::format("{:.1f} s", *a.avg_seconds) : "-");
  if (t.failed_outcomes > 0) {
    out += fmt::format(
        "of the decided, {} are failed outcomes from git (reverts, human rewrites of the agent's "
        "lines), counted as not approved\n",
        t.failed_outcomes);
  }
  // Every line below must agree with this one: a regressed task type says from which level, and
  // no later line may call its level one that "never regresses" or its criteria met.
  std::string regressed;
  if (a.regressed_from) {
    regressed =
        fmt::format("; regressed from L{} at {} ({}), not promoted since", *a.regressed_from,
                    model::FormatUtc(*a.regressed_at_ms), a.regression_reason);
  }
  out +=
      fmt::format("level: {} (review {} of outputs){}\n", t.level, Pct(a.review_rate), regressed);
  out += fmt::format(
      "class: {} (escalate: < {} decided; auto-approve: rate > {} over {}+ and mean < {} s; "
      "quick: rate > {}; standard: rate >= {}; else deep)\n",
      TaskClassName(a.task_class), config_.escalate_below, config_.auto_approve_rate,
      config_.auto_approve_min, config_.auto_approve_seconds, config_.quick_rate,
      config_.standard_rate);
  out += "level criteria (seed 000 §6.3):\n";
  for (int level = 1; level <= AutonomyConfig::kMaxLevel; ++level) {
    std::string criteria = fmt::format("{}+ approvals", config_.Approvals(level));
    if (level >= 2) criteria += fmt::format(" and rate > {}", config_.Rate(level));
    const bool counts_hold = PromotionHolds(t, level, false);
    std::string verdict;
    if (level <= t.level) {
      // A level once reached is lost only by a regression, not by its criteria lapsing.
      verdict = counts_hold ? "reached, holds"
                            : "reached; counts no longer hold (kept until a regression)";
    } else if (PromotionHolds(t, level, t.regressed)) {
      verdict = "holds";
    } else if (counts_hold) {
      verdict = "counts hold; after the regression it also needs a full window";
    } else {
      verdict = "does not hold";
    }
    out += fmt::format("  L{}: {:<32} review {:<6} regress below {:<6} {}\n", level, criteria,
                       Pct(config_.ReviewRate(level)), config_.Threshold(level), verdict);
  }
  std::string bits;
  for (int i = t.window_size - 1; i >= 0; --i) bits += (t.window_bits >> i) & 1 ? 'A' : 'R';
  out += fmt::format("regression window (oldest first, A approved, R not): [{}] {} of {}", bits,
                     t.window_size, window_);
  if (t.window_size > 0) out += fmt::format(", rate {:.3f}", WindowRate(t));
  if (t.level == 0) {
    // Said without "never regresses": a task type can regress to level 0, only not below it.
    out += "; no regression check at level 0, the lowest level\n";
  } else if (t.window_size < window_) {
    out += fmt::format("; no check until it holds {} reviews\n", window_);
  } else {
    out += fmt::format("; level {} regresses below {}\n", t.level, config_.Threshold(t.level));
  }
  if (t.regressed && t.level < AutonomyConfig::kMaxLevel) {
    out += fmt::format(
        "promotion to L{} also needs a full window with rate >= {} (after a regression)\n",
        t.level + 1, config_.Threshold(t.level + 1));
  }
  *text = std::move(out);
  return true;
}

void WriteJson(base::JsonWriter& w, const std::vector<TaskAutonomy>& tasks) {
  w.StartObject();
  for (const TaskAutonomy& a : tasks) {
    base::Key(w, a.task_type);
    w.StartObject();
    base::Key(w, "level");
    w.Int(a.level);
    base::Key(w, "class");
    base::Str(w, TaskClassName(a.task_class));
    base::Key(w, "approvals");
    w.Int64(a.approvals);
    base::Key(w, "total");
    w.Int64(a.decided);
    base::Key(w, "rate");
    base::Num(w, a.rate);
    base::Key(w, "reviewRate");
    base::Num(w, a.review_rate);
    base::Key(w, "regressed");
    w.Bool(a.regressed);
    base::Key(w, "regressedFrom");
    if (a.regressed_from) {
      w.Int(*a.regressed_from);
    } else {
      w.Null();
    }
    base::Key(w, "regressedAt");
    if (a.regressed_at_ms) {
      base::Str(w, model::FormatUtc(*a.regressed_at_ms));
    } else {
      w.Null();
    }
    base::Key(w, "regressionReason");
    if (a.regressed_from) {
      base::Str(w, a.regression_reason);
    } else {
      w.Null();
    }
    base::Key(w, "recentRate");
    base::Num(w, a.recent_rate);
    base::Key(w, "avgSeconds");
    base::Num(w, a.avg_seconds);
    base::Key(w, "failedOutcomes");
    w.Int64(a.failed_outcomes);
    w.EndObject();
  }
  w.EndObject();
}

void WriteJson(base::JsonWriter& w, const std::vector<Regression>& regressions) {
  w.StartArray();
  for (const Regression& r : regressions) {
    w.StartObject();
    base::Key(w, "taskType");
    base::Str(w, r.task_type);
    base::Key(w, "from");
    w.Int(r.from);
    base::Key(w, "to");
    w.Int(r.to);
    base::Key(w, "at");
    base::Str(w, model::FormatUtc(r.at_ms));
    base::Key(w, "reason");
    base::Str(w, r.Reason());
    w.EndObject();
  }
  w.EndArray();
}

// ---- State (Learner::SaveState) -------------------------------------------------------------

template <class Archive>
void DelegationDay::serialize(Archive& ar) {
  ar(submitted, auto_approved, level_checks, regressions);
}

template <class Archive>
void AutonomyTracker::Task::serialize(Archive& ar) {
  ar(name, level, regressed, approvals, decided, failed_outcomes, untimed, decide_ms_sum,
     window_bits, window_size);
}

template <class Archive>
void AutonomyTracker::RegressionEntry::serialize(Archive& ar) {
  ar(task, from, to, at_ms, rate, auto_approved_failed);
}

template <class Archive>
void AutonomyTracker::serialize(Archive& ar) {
  ar(tasks_, regressions_, days_);
  if constexpr (state::kLoading<Archive>) {
    index_.clear();
    for (size_t i = 0; i < tasks_.size(); ++i) {
      state::Require(index_.emplace(tasks_[i].name, static_cast<uint32_t>(i)).second,
                     "an autonomy task type saved twice");
      state::Require(tasks_[i].window_size >= 0 && tasks_[i].window_size <= 64,
                     "an autonomy window out of range");
    }
    for (const RegressionEntry& e : regressions_) {
      state::Require(e.task < tasks_.size(), "a regression of an unknown task type");
    }
    last_ = nullptr;
  }
}

KZ_STATE_INSTANTIATE(DelegationDay);
KZ_STATE_INSTANTIATE(AutonomyTracker);

}  // namespace kaizen::learn
