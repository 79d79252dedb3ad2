// Seed 003 refinement-loop control: the H-module's adaptive halting (Q(HALT) vs Q(CONTINUE))
// and the infinite-loop guards, evaluated after a loop's last recorded iteration.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "learn/config_field.h"
#include "model/inputs.h"

namespace kaizen::learn {

// The most iterations of one loop kept for the windowed rules; older ones are folded into
// totals (see EarlierIterations). The windows below may not exceed it.
inline constexpr size_t kMaxKeptIterations = 64;

struct LoopConfig {
  double max_iterations = 5;           // seed 003 MAX_ITERATIONS
  double stagnation_window = 3;        // STAGNATION_WINDOW
  double stagnation_variance = 0.001;  // np.var(recent) < 0.001
  double min_quality = 0.60;           // MIN_QUALITY_THRESHOLD
  double min_quality_after = 3;        // "iteration >= 3 and quality < 0.60"
  double max_cost = 5.0;               // "Don't spend more than $5 on refinements"
  double max_seconds = 1800;           // "Max 30 minutes total"
  double good_enough_q = 0.75;         // "tests_passing and q_halt > 0.75"
  double cycle_window = 2;             // "h in feedback_hashes[-2:]"
  // compute_halt_q_value's weights.
  double weight_test_coverage = 0.25;
  double weight_tests_passing = 0.30;
  double weight_security_score = 0.20;
  double weight_code_quality = 0.15;
  double weight_documentation = 0.05;
  double weight_type_safety = 0.05;

  ConfigFields Fields();
};

// The configured windows as counts, clamped to 1..kMaxKeptIterations and 0..kMaxKeptIterations.
size_t StagnationWindow(const LoopConfig& config);
size_t CycleWindow(const LoopConfig& config);

// The six metrics seed 003 compute_halt_q_value weighs, in its weights' order.
enum class HaltMetric : uint8_t {
  kTestCoverage,   // test_coverage, weight_test_coverage
  kTestsPassing,   // tests_passing (true = 1), weight_tests_passing
  kSecurityScore,  // security_score, weight_security_score
  kCodeQuality,    // code_quality_score, weight_code_quality
  kDocumentation,  // doc_coverage, weight_documentation
  kTypeSafety,     // type_coverage, weight_type_safety
};
inline constexpr size_t kHaltMetricCount = 6;
// The QualityMetrics field: "test_coverage", "tests_passing", ... "type_coverage".
std::string_view HaltMetricName(HaltMetric m);
double Weight(const LoopConfig& config, HaltMetric m);
// The metric as a number in 0..1 (tests_passing: 1 or 0); nullopt when not reported.
std::optional<double> MetricValue(const model::LoopMetricsView& metrics, HaltMetric m);

// Which of the six an iteration measured: bit i = HaltMetric i reported with a weight above 0
// (a metric weighted 0 counts for nothing either way).
using MeasuredMetrics = uint8_t;
inline constexpr MeasuredMetrics kAllHaltMetrics = (1u << kHaltMetricCount) - 1;
MeasuredMetrics Measured(const model::LoopMetricsView& metrics, const LoopConfig& config);
inline bool Has(MeasuredMetrics set, HaltMetric m) {
  return (set >> static_cast<unsigned>(m)) & 1u;
}
// The quality rules (quality_sufficient, good_enough) need what the tests say: tests_passing
// or test_coverage measured. Security or documentation scores alone never halt a loop.
inline bool HasTestEvidence(MeasuredMetrics set) {
  return Has(set, HaltMetric::kTestsPassing) || Has(set, HaltMetric::kTestCoverage);
}
// "test_coverage, tests_passing": the names in the set, in weight order; "" for none.
std::string MetricNames(MeasuredMetrics set);

// seed 003 compute_halt_q_value ("weighted average of metrics") over the metrics actually
// measured:
//   q = sum(w_i m_i, measured i) / sum(w_i, measured i)
// i.e. the seed's weights renormalized over the measured ones. The seed's six weights sum to
// exactly 1.0 (in double arithmetic too), so with all six measured q is exactly the seed's
// sum(m_i w_i); configured weights are relative. A metric the evaluator did not report is
// unknown, not 0: counting it as 0 put a passing suite with 80% coverage at 0.500, below the halt
// bar, whatever else was true. 0 when nothing was measured (callers check Measured() first: such
// an iteration has no quality).
double HaltQ(const model::LoopMetricsView& metrics, const LoopConfig& config);

// 64-bit FNV-1a of the feedback text: the seed's md5 only serves equality, any stable hash does.
uint64_t FeedbackHash(std::string_view text);

// One refinement iteration as recorded by a `loop` event.
struct LoopIteration {
  int64_t iteration = 0;  // the event's number; the seed counts from 1
  model::LoopMetricsView metrics;
  double cost = 0, elapsed_seconds = 0;  // of this iteration alone
  std::string feedback;                  // handed to the next refinement
};

// What the rules need of one iteration: a compact form for trackers holding many loops.
struct IterationSummary {
  int64_t iteration = 0;
  double q = 0;  // HaltQ
  double cost = 0, elapsed_seconds = 0;
  uint64_t feedback_hash = 0;
  bool has_feedback = false;  // empty feedback never cycles
  bool tests_passing = false;
  MeasuredMetrics measured = 0;  // what q rests on; 0: no quality (see Evaluate)
};

IterationSummary Summarize(const LoopIteration& it, const LoopConfig& config);
IterationSummary Summarize(const model::LoopView& event, const LoopConfig& config);

enum class LoopAction : uint8_t { kHalt, kContinue, kAbort };
std::string_view ActionName(LoopAction a);  // "HALT" | "CONTINUE" | "ABORT"

struct LoopDecision {
  LoopAction action = LoopAction::kContinue;
  std::string reason;  // the rule that fired (RuleName); empty for CONTINUE
  double q_halt = 0, q_continue = 1;
  // The seed's is_stagnating() on the last window: low variance or a non-increasing run,
  // whether or not a halt rule decided first.
  bool stagnation_detected = false;
};

// Every rule, in the seed orchestrator's order: should_halt's three, then should_abort's.
enum class LoopRule : uint8_t {
  kQualitySufficient,   // HALT: q_halt > q_continue = 1 - q_halt, with test evidence
  kMaxIterationsHalt,   // HALT: iteration >= max_iterations
  kGoodEnough,          // HALT: tests_passing and q_halt > good_enough_q
  kMaxIterationsAbort,  // ABORT: iteration >= max_iterations (unreachable after the HALT one)
  kStagnation,          // ABORT: var(last window q) < stagnation_variance
  kDeclining,           // ABORT: last window q[i] >= q[i+1]
  kQualityTooLow,       // ABORT: iteration >= min_quality_after and q < min_quality
  kCostLimit,           // ABORT: total cost > max_cost
  kTimeLimit,           // ABORT: total elapsed > max_seconds
  kCycling,             // ABORT: feedback hash among the previous cycle_window ones
};
inline constexpr size_t kLoopRuleCount = 10;
std::string_view RuleName(LoopRule r);  // the reason string, e.g. "quality_sufficient"
LoopAction RuleAction(LoopRule r);

// Iterations folded out of a long loop's kept window; they still count in the totals.
struct EarlierIterations {
  int64_t count = 0;
  double cost = 0, seconds = 0;
};

// Every rule evaluated (not just the first that fires), for explanations.
struct LoopEvaluation {
  LoopDecision decision;
  std::optional<LoopRule> decided_by;        // the first rule that fired; none for CONTINUE
  std::array<bool, kLoopRuleCount> fired{};  // indexed by LoopRule
  bool window_full = false;                  // at least stagnation_window q values
  double variance = 0;                       // of the last window's q; 0 unless window_full
  double total_cost = 0, total_seconds = 0;
  int64_t iterations = 0;  // earlier.count + history.size()
};

// Decides after history.back(). REQUIRES: history in the order the iterations ran, each with
// measured != 0 (an iteration that measured nothing has no quality: LoopTracker leaves it out,
// `kaizen loop` and loop_decide refuse it). An empty history is CONTINUE with q_halt 0.
LoopEvaluation Evaluate(std::span<const IterationSummary> history, const LoopConfig& config,
                        const EarlierIterations& earlier = {});
LoopDecision Decide(const std::vector<LoopIteration>& history, const LoopConfig& config);

// seed 003 LoopMetrics dataclass.
struct LoopMetrics {
  int64_t iterations = 0;                   // iterations recorded
  double total_time = 0;                    // seconds, summed over iterations
  std::vector<double> quality_progression;  // q of each kept iteration, in order
  bool stagnation_detected = false;
  std::string halt_reason;  // the decision's reason (HALT or ABORT); empty while continuing
  double cost = 0;          // dollars, summed over iterations
};

LoopMetrics Metrics(std::span<const IterationSummary> history, const LoopEvaluation& e);

}  // namespace kaizen::learn
