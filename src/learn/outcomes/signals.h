// Seed 001's automatic and low-friction signals (tiers 1 and 2) as learning input, and its
// success metrics. `reward` events come from `kaizen git scan` (merges, reverts, human rewrites of
// an agent's lines, iterations, time to completion), `kaizen reward ci|coverage` and `kaizen rate`
// (1-5 ratings). The Learner resolves which task type a signal judges and hands each reward here;
// SignalTracker says whether it is a failed outcome of that work (so autonomy and calibration
// count it) and keeps the per-commit and per-month tallies behind the `signals` section of
// `kaizen analyze --json` and its week-over-week alerts.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "base/json_writer.h"
#include "learn/config_field.h"
#include "learn/kpis/kpis.h"  // Alert
#include "learn/state_fwd.h"
#include "learn/string_hash.h"
#include "model/inputs.h"

namespace kaizen::learn {

struct SignalConfig {
  // kaizen: a human rewrite of at least this share of the lines an agent commit added is a
  // failed outcome of that work (seed 001 only says the rewrite "indicates incomplete or
  // incorrect agent work"); a one-line touch-up of a large commit is not.
  double rewrite_failure_share = 0.1;
  double coverage_min_signals = 3;  // seed 001 "Reward signal coverage: Commits with 3+ signals"
  double trend_months = 3;          // calendar months in each metric's trend, ending at now's
  // A week with fewer agent commits measured raises no week-over-week alert.
  double alert_min_commits = 3;
  double recent_failures = 5;  // failed outcomes kept for context and hints, newest first

  ConfigFields Fields();
};

// What one reward says, by its signal_type and normalized value.
enum class SignalKind : uint8_t {
  kCi,          // ci_result: 1 pass, 0 fail
  kCoverage,    // coverage_delta: 0.5 no change
  kMerged,      // merge_outcome 1.0
  kClosed,      // merge_outcome 0.5: closed without merging
  kReverted,    // merge_outcome 0.0
  kHumanEdit,   // human_edit_after_agent: 1 - share of the agent's lines a person rewrote
  kIterations,  // iteration_count
  kTime,        // time_efficiency: raw_value seconds
  kRating,      // satisfaction, session_productivity, handoff_clarity: 1-5
  kApproach,    // approach_correctness: yes / no
  kOther,
};
SignalKind KindOf(const model::RewardView& reward);

// What the fold does with a reward besides counting it.
struct SignalVerdict {
  // A revert, or a rewrite of rewrite_failure_share+ of the agent's lines, and the first such
  // verdict for its work (its agent commit, else commit_hash, else task_id): autonomy and
  // calibration count it once however many signals repeat it.
  bool failed_outcome = false;
};

struct MonthValue {
  std::string month;  // YYYY-MM
  int64_t n = 0;
  std::optional<double> value;
};

struct SignalMetric {
  int64_t n = 0;  // what the value is over (commits, CI runs, tasks, ratings)
  std::optional<double> value;
  std::vector<MonthValue> trend;  // oldest month first, trend_months of them
};

// One task type's signals: what the agent's work of that type met after review.
struct TaskSignals {
  std::string task_type;
  int64_t signals = 0, failed_outcomes = 0, reverts = 0, rewrites = 0;
  int64_t ci_runs = 0, ci_passes = 0, merges = 0;
  int64_t ratings = 0;
  double rating_sum = 0;  // 1-5

  template <class Archive>
  void serialize(Archive& ar);
};

// A failed outcome, for the agent to be told.
struct SignalFailure {
  int64_t at_ms = 0;
  std::string task_type;
  std::string commit;  // the agent's commit, else the reward's commit_hash or task_id
  std::string what;    // "reverted" | "a person rewrote 40% of its lines"

  template <class Archive>
  void serialize(Archive& ar);
};

struct SignalsResult {
  int64_t rewards = 0;
  SignalMetric coverage;            // share of agent commits with coverage_min_signals+ signals
  SignalMetric revert_rate;         // agent commits reverted / agent commits known
  SignalMetric human_edit_rate;     // agent commits a person rewrote / those measured
  SignalMetric ci_pass_rate;        // passes / CI results
  SignalMetric time_to_completion;  // median seconds: time_efficiency rewards, successful tasks
  SignalMetric ratings;             // mean 1-5 rating
  // seed 001 "Feedback response rate: filled vs. skipped": ratings given / (given + skipped),
  // n the times a person was asked (a rating, or an `admin` skip).
  SignalMetric response_rate;
  std::vector<TaskSignals> by_task_type;       // sorted by task type
  std::vector<SignalFailure> recent_failures;  // newest first
  std::vector<Alert> alerts;
};

class SignalTracker {
 public:
  explicit SignalTracker(const SignalConfig& config) : config_(config) {}

  // Folds one reward that judges work of `task_type`; `agent_work` says the commit it names is
  // known to be an agent's (a git scan found it, the reward names the agent, or a recorded work
  // product has it as its version). REQUIRES: log order.
  SignalVerdict Add(const model::RewardView& reward, std::string_view task_type, bool agent_work);
  // seed 001 "Time-to-completion: compute from created -> completed": a successful task's
  // duration is one more completion time.
  void AddOutcome(const model::OutcomeView& outcome);

  // A rating a person was asked for and did not give (`admin` action skip).
  void AddSkip(const model::AdminView& skip);

  SignalsResult Result(int64_t now_ms) const;
  // What the agent's context and hints say of the signals (render/signal_lines.h): `rewards`, the
  // all-time `value` and `n` of coverage, revert, human edit, CI and rating metrics, and the
  // recent failures, as Result gives them; no trends, no completion times, no alerts, no task
  // types. Costs O(months + failures), not O(commits): a hook asks it on every session start.
  SignalsResult Headline() const;

 private:
  struct Commit {
    int64_t first_ms = 0;  // the agent's commit time, as the earliest signal tells it
    uint32_t signals = 0;
    bool agent = false, edit_measured = false, edited = false, reverted = false, failed = false;
    template <class Archive>
    void serialize(Archive& ar);
  };
  struct Month {
    int64_t ci_runs = 0, ci_passes = 0, ratings = 0, skips = 0;
    double rating_sum = 0;
    std::vector<double> seconds;  // completion times
    template <class Archive>
    void serialize(Archive& ar);
  };
  // A commit's share of the all-time per-commit metrics.
  struct CommitTally {
    int64_t known = 0, covered = 0, reverted = 0, measured = 0, edited = 0;
    void Add(const CommitTally& t, int64_t sign);
  };
  CommitTally TallyOf(const Commit& c) const;
  Month& MonthOf(int64_t at_ms);
  TaskSignals& Task(std::string_view task_type);
  void AddFailure(const model::RewardView& reward, std::string_view task_type, std::string_view key,
                  std::string what);
  friend class cereal::access;
  template <class Archive>
  void serialize(Archive& ar);

  SignalConfig config_;
  int64_t rewards_ = 0;
  std::unordered_map<std::string, Commit, StringHash, std::equal_to<>> commits_;
  std::map<int64_t, Month> months_;  // by month index (year * 12 + month - 1)
  std::map<std::string, TaskSignals, std::less<>> tasks_;
  std::vector<SignalFailure> failures_;  // log order; the newest recent_failures kept
  CommitTally totals_;                   // TallyOf summed over commits_, kept as they change
};

// Key `signals` of `kaizen analyze --json` (docs/analysis.md).
void WriteJson(base::JsonWriter& w, const SignalsResult& result);

}  // namespace kaizen::learn
