// Delegation (seed 000 §3.4 "Task Classification Model", §6.3 "Diminishing Review System"): per
// task type, how much of the agent's output still needs human review. Competence earns levels
// (fewer reviews), a bad streak loses one (§6.3 "Regression Detection"), and a stable hash of the
// artifact id decides which outputs are sampled for review at a level.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "base/json_writer.h"
#include "learn/config_field.h"
#include "learn/state_fwd.h"
#include "learn/string_hash.h"  // StringHash
#include "model/inputs.h"

namespace kaizen::learn {

struct AutonomyConfig {
  static constexpr int kMaxLevel = 4;
  // §6.3 level table. Level 0 (new task type) has no criteria.
  double l1_approvals = 10;  // "Level 1 (10+ approvals)"
  double l2_approvals = 25;  // "Level 2 (25+ approvals, >85% rate)"
  double l2_rate = 0.85;
  double l3_approvals = 50;  // "Level 3 (50+ approvals, >90% rate)"
  double l3_rate = 0.90;
  double l4_approvals = 100;  // "Level 4 (100+ approvals, >95% rate)"
  double l4_rate = 0.95;
  double l0_review_rate = 1.0;   // "Review 100% of outputs"
  double l1_review_rate = 0.8;   // "Review 80%, spot-check 20%"
  double l2_review_rate = 0.5;   // "Review 50%"
  double l3_review_rate = 0.2;   // "Review 20%"
  double l4_review_rate = 0.05;  // "Review 5%, audit-only mode"
  // §6.3 Regression Detection: "the next 5 reviews show approval rate dropping below the
  // level's threshold". Levels 2-4 use their rate; level 1 has none in the seed, so it uses the
  // floor of §3.4's "Standard review" (50%): below it the work needs deep review.
  double window = 5;
  double l1_threshold = 0.5;
  // §3.4 task classes.
  double auto_approve_rate = 0.95;  // "Approval rate >95% over 20+ instances,
  double auto_approve_min = 20;     //  avg time-to-decide <15s"
  double auto_approve_seconds = 15;
  double quick_rate = 0.80;     // "Quick review: Approval rate >80%"
  double standard_rate = 0.50;  // "Standard review: Approval rate 50-80%"
  double escalate_below = 5;    // "Escalate: Novel task type or <5 historical data points"

  ConfigFields Fields();

  // Approvals a level needs (0 for level 0).
  double Approvals(int level) const;
  // The cumulative rate a level needs, strictly exceeded (0 for levels 0 and 1).
  double Rate(int level) const;
  // The share of outputs reviewed at a level.
  double ReviewRate(int level) const;
  // The last-window approval rate below which a level regresses (0 for level 0).
  double Threshold(int level) const;
};

enum class TaskClass : uint8_t { kEscalate, kAutoApprove, kQuick, kStandard, kDeep };
std::string_view TaskClassName(TaskClass c);  // escalate | auto-approve | quick | standard | deep

// What the delegation rules counted on one UTC day, for the §7.2 Auto-Approve Rate
// (auto_approved / submitted) and Regression Rate (regressions / level_checks) KPIs.
struct DelegationDay {
  uint64_t submitted = 0, auto_approved = 0, level_checks = 0, regressions = 0;

  template <class Archive>
  void serialize(Archive& ar);
};

struct TaskAutonomy {
  std::string task_type;
  int level = 0;
  TaskClass task_class = TaskClass::kEscalate;
  int64_t approvals = 0, decided = 0;
  int64_t failed_outcomes = 0;  // of decided: reverts and rewrites found by git
  std::optional<double> rate;   // approvals / decided
  double review_rate = 1;       // of the current level
  bool regressed = false;       // lost a level and has not been promoted since
  // When regressed: the level lost, when and why (the newest regression). A level-0 task type
  // that regressed is not a new one: it has a record, and a bad recent one.
  std::optional<int> regressed_from;
  std::optional<int64_t> regressed_at_ms;
  std::string regression_reason;
  int64_t window_size = 0;            // decided reviews in the regression window (<= window)
  std::optional<double> recent_rate;  // approval rate of the window
  std::optional<double> avg_seconds;  // mean time-to-decide of decided reviews
};

struct Regression {
  std::string task_type;
  int from = 0, to = 0;
  int64_t at_ms = 0;
  double rate = 0, threshold = 0;
  bool auto_approved_failed = false;  // auto-approved work reverted or rewritten: at once
  std::string Reason() const;         // "Approval rate 0.6 < threshold 0.85" (seed 000 §6.3)
};

class AutonomyTracker {
 public:
  explicit AutonomyTracker(const AutonomyConfig& config);

  // Folds a review of its task_type ("unspecified" when empty) in log order: a decided one
  // updates the counts, then checks for regression, then for promotion. O(1); allocates only
  // for a new task type or a regression.
  void Add(const model::ReviewView& review);

  // seed 001 tier 1 into §6.3: work of `task_type` that failed after review (reverted, or its
  // lines rewritten by a person) counts as a decided, not approved, outcome: it enters the rate
  // and the regression window (but not the mean decision time). When the work had been
  // auto-approved (AddWork returned true for it), the level regresses at once. O(1).
  void AddFailedOutcome(std::string_view task_type, int64_t at_ms, bool auto_approved);

  // Counts a submitted work product on its UTC day, and whether the sample at its task type's
  // current level (server_type, else type) lets it skip review; returns that it did
  // (auto-approved). O(1).
  bool AddWork(const model::WorkView& work);

  // Sampling for review (§6.3): a stable hash of the artifact id mapped to [0, 1) is below the
  // level's review rate. Nested: an artifact reviewed at a level is reviewed at every lower
  // one, as long as the review rates do not grow with the level.
  bool ShouldReview(std::string_view artifact_id, int level) const;

  // The current level of a task type; 0 for one never reviewed.
  int Level(std::string_view task_type) const;

  std::vector<TaskAutonomy> Result() const;     // sorted by task type
  std::vector<Regression> Regressions() const;  // in log order, newest last
  const std::map<int64_t, DelegationDay>& Days() const { return days_; }  // by UTC day number

  // Counts, the level criteria table and which hold, the regression window. False when the
  // task type was never reviewed.
  bool ExplainAutonomy(std::string_view task_type, std::string* text) const;

 private:
  struct Task {
    std::string name;
    int level = 0;
    bool regressed = false;
    int64_t approvals = 0, decided = 0;
    int64_t failed_outcomes = 0;  // of `decided`: failed outcomes from git, not reviews
    int64_t untimed = 0;          // of the reviews: decisions nobody timed
    int64_t Reviewed() const { return decided - failed_outcomes; }
    int64_t Timed() const { return Reviewed() - untimed; }
    double decide_ms_sum = 0;  // timed decided reviews, in log order
    uint64_t window_bits = 0;  // bit i: the i-th newest review in the window was approved
    int window_size = 0;
    template <class Archive>
    void serialize(Archive& ar);
  };
  struct RegressionEntry {
    uint32_t task = 0;  // index into tasks_
    uint8_t from = 0, to = 0;
    int64_t at_ms = 0;
    double rate = 0;
    bool auto_approved_failed = false;
    template <class Archive>
    void serialize(Archive& ar);
  };
  uint32_t TaskIndex(std::string_view name);
  // A decided outcome: counts, the regression check, then promotion.
  void Decide(Task& t, bool approved, int64_t at_ms);
  DelegationDay& Day(int64_t at_ms);
  double WindowRate(const Task& t) const;
  bool PromotionHolds(const Task& t, int level, bool after_regression) const;
  TaskClass Classify(const Task& t) const;
  TaskAutonomy Summary(const Task& t) const;
  // Saves tasks_ (index_ is rebuilt from their names), regressions_ and days_; last_day_ and
  // last_ are a cache of days_[last_day_], and null finds the same node.
  friend class cereal::access;
  template <class Archive>
  void serialize(Archive& ar);

  AutonomyConfig config_;
  int window_ = 5;
  std::vector<Task> tasks_;
  std::unordered_map<std::string, uint32_t, StringHash, std::equal_to<>> index_;
  std::vector<RegressionEntry> regressions_;
  std::map<int64_t, DelegationDay> days_;
  int64_t last_day_ = 0;
  DelegationDay* last_ = nullptr;  // the day touched last: logs run in day order
};

// Key `autonomy`: {taskType: {level, class, approvals, total, rate, reviewRate, regressed,
// regressedFrom, regressedAt, regressionReason, recentRate, avgSeconds, failedOutcomes}}.
void WriteJson(base::JsonWriter& w, const std::vector<TaskAutonomy>& tasks);
// Key `regressions`: [{taskType, from, to, at, reason}], newest last.
void WriteJson(base::JsonWriter& w, const std::vector<Regression>& regressions);

}  // namespace kaizen::learn
