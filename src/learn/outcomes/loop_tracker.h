// Folds `loop` events into refinement loops (seed 003) and reports each loop's decision after
// its last recorded iteration, plus the `loops` section of `kaizen analyze --json`.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "base/json_writer.h"
#include "learn/outcomes/loop_control.h"
#include "learn/state_fwd.h"
#include "learn/string_hash.h"
#include "model/inputs.h"

namespace kaizen::learn {

inline constexpr size_t kRecentLoops = 20;

struct LoopReport {
  std::string loop_id;
  int64_t updated_ms = 0;  // latest timestamp among its events
  LoopDecision decision;
  LoopMetrics metrics;
  int64_t unmeasured = 0;  // iterations with no Q(HALT) metric: counted, never given a quality
};

struct LoopsResult {
  int64_t total = 0;
  int64_t halted = 0, continuing = 0, aborted = 0;
  std::map<std::string, int64_t> by_reason;  // HALT and ABORT reasons only
  std::optional<double> avg_iterations;      // nullopt without loops
  std::optional<double> avg_final_quality;   // mean q_halt of each loop's last measured iteration
                                             // (loops with none are left out)
  std::vector<LoopReport> recent;            // up to kRecentLoops, most recently updated first
};

class LoopTracker {
 public:
  explicit LoopTracker(const LoopConfig& config);

  // Events in log order. An iteration number the loop already has replaces that iteration;
  // iterations are kept in iteration-number order, whatever order they arrive in. An iteration
  // that measured none of the six Q(HALT) metrics is not given a quality of 0: it is left out of
  // the rules and only counted (iterations, cost, seconds), and ExplainLoop names it.
  void Add(const model::LoopView& event);

  LoopsResult Result() const;
  std::optional<LoopReport> Report(std::string_view loop_id) const;

  // Every kept iteration's q with the metrics it rests on and those missing, the weights used,
  // then each rule with its inputs and whether it fired. False (and *text untouched) for an
  // unknown loop.
  bool ExplainLoop(std::string_view loop_id, std::string* text) const;

 private:
  struct Loop {
    const std::string* id;  // the key in index_; node keys don't move
    int64_t updated_ms = 0;
    uint64_t updated_seq = 0;      // position of its latest event in the log
    EarlierIterations earlier;     // folded out of `kept` once it holds kMaxKeptIterations
    EarlierIterations unmeasured;  // no Q(HALT) metric: counted, not kept
    std::vector<int64_t> unmeasured_numbers;  // the first kMaxNamedUnmeasured, for explain
    std::vector<IterationSummary> kept;       // ascending iteration numbers
    // Saves all but `id`, which the tracker's serialize saves as a string.
    template <class Archive>
    void serialize(Archive& ar);
  };
  static constexpr size_t kMaxNamedUnmeasured = 8;

  // What Evaluate counts beside `kept`: the folded and the unmeasured iterations.
  static EarlierIterations Uncounted(const Loop& loop);

  LoopReport MakeReport(const Loop& loop) const;
  // Each loop with its id; index_ is rebuilt, and Loop::id points at its key again.
  friend class cereal::access;
  template <class Archive>
  void serialize(Archive& ar);

  LoopConfig config_;
  size_t expected_iterations_;  // capacity reserved for a new loop
  uint64_t seq_ = 0;
  std::vector<Loop> loops_;  // in order of first appearance: sums fold in log order
  std::unordered_map<std::string, uint32_t, StringHash, std::equal_to<>> index_;
};

// The `loops` object: {total, byAction, byReason, avgIterations, avgFinalQuality, recent}.
void WriteJson(base::JsonWriter& w, const LoopsResult& r);

}  // namespace kaizen::learn
