#include "learn/outcomes/loop_control.h"

#include <algorithm>

namespace kaizen::learn {

ConfigFields LoopConfig::Fields() {
  constexpr double kMaxWindow = static_cast<double>(kMaxKeptIterations);
  return {
      {"loop.max_iterations", &max_iterations, 1, 1000, true,
       "an iteration numbered at least this halts the loop (seed 003 MAX_ITERATIONS: 5)"},
      {"loop.stagnation_window", &stagnation_window, 2, kMaxWindow, true,
       "how many latest quality values the stagnation and decline checks read (seed 003: 3)"},
      {"loop.stagnation_variance", &stagnation_variance, 0, 1, false,
       "quality variance below which a loop stagnates (seed 003: 0.001)"},
      {"loop.min_quality", &min_quality, 0, 1, false,
       "quality a loop must reach by loop.min_quality_after (seed 003: 0.60)"},
      {"loop.min_quality_after", &min_quality_after, 0, 1000, true,
       "iteration from which loop.min_quality applies (seed 003: 3)"},
      {"loop.max_cost", &max_cost, 0, 1e9, false,
       "dollars a loop may spend before it aborts (seed 003: 5.0)"},
      {"loop.max_seconds", &max_seconds, 0, 1e9, false,
       "seconds a loop may run before it aborts (seed 003: 1800)"},
      {"loop.good_enough_q", &good_enough_q, 0, 1, false,
       "with tests passing, a quality above this halts (seed 003: 0.75)"},
      {"loop.cycle_window", &cycle_window, 0, kMaxWindow - 1, true,
       "previous feedback texts a repeat is looked for in; 0 disables (seed 003: 2)"},
      {"loop.weight_test_coverage", &weight_test_coverage, 0, 1, false,
       "Q(HALT) weight of test_coverage (seed 003: 0.25)"},
      {"loop.weight_tests_passing", &weight_tests_passing, 0, 1, false,
       "Q(HALT) weight of tests_passing (seed 003: 0.30)"},
      {"loop.weight_security_score", &weight_security_score, 0, 1, false,
       "Q(HALT) weight of security_score (seed 003: 0.20)"},
      {"loop.weight_code_quality", &weight_code_quality, 0, 1, false,
       "Q(HALT) weight of code_quality_score (seed 003: 0.15)"},
      {"loop.weight_documentation", &weight_documentation, 0, 1, false,
       "Q(HALT) weight of doc_coverage (seed 003: 0.05)"},
      {"loop.weight_type_safety", &weight_type_safety, 0, 1, false,
       "Q(HALT) weight of type_coverage (seed 003: 0.05)"},
  };
}

std::string_view HaltMetricName(HaltMetric m) {
  switch (m) {
    case HaltMetric::kTestCoverage:
      return "test_coverage";
    case HaltMetric::kTestsPassing:
      return "tests_passing";
    case HaltMetric::kSecurityScore:
      return "security_score";
    case HaltMetric::kCodeQuality:
      return "code_quality_score";
    case HaltMetric::kDocumentation:
      return "doc_coverage";
    case HaltMetric::kTypeSafety:
      return "type_coverage";
  }
  return "";
}

double Weight(const LoopConfig& c, HaltMetric m) {
  switch (m) {
    case HaltMetric::kTestCoverage:
      return c.weight_test_coverage;
    case HaltMetric::kTestsPassing:
      return c.weight_tests_passing;
    case HaltMetric::kSecurityScore:
      return c.weight_security_score;
    case HaltMetric::kCodeQuality:
      return c.weight_code_quality;
    case HaltMetric::kDocumentation:
      return c.weight_documentation;
    case HaltMetric::kTypeSafety:
      return c.weight_type_safety;
  }
  return 0;
}

std::optional<double> MetricValue(const model::LoopMetricsView& m, HaltMetric which) {
  switch (which) {
    case HaltMetric::kTestCoverage:
      return m.test_coverage;
    case HaltMetric::kTestsPassing:
      if (!m.tests_passing) return std::nullopt;
      return *m.tests_passing ? 1.0 : 0.0;
    case HaltMetric::kSecurityScore:
      return m.security_score;
    case HaltMetric::kCodeQuality:
      return m.code_quality_score;
    case HaltMetric::kDocumentation:
      return m.doc_coverage;
    case HaltMetric::kTypeSafety:
      return m.type_coverage;
  }
  return std::nullopt;
}

MeasuredMetrics Measured(const model::LoopMetricsView& m, const LoopConfig& c) {
  MeasuredMetrics set = 0;
  for (size_t i = 0; i < kHaltMetricCount; ++i) {
    const auto which = static_cast<HaltMetric>(i);
    if (MetricValue(m, which) && Weight(c, which) > 0) set |= static_cast<MeasuredMetrics>(1u << i);
  }
  return set;
}

std::string MetricNames(MeasuredMetrics set) {
  std::string out;
  for (size_t i = 0; i < kHaltMetricCount; ++i) {
    const auto which = static_cast<HaltMetric>(i);
    if (!Has(set, which)) continue;
    if (!out.empty()) out += ", ";
    out += HaltMetricName(which);
  }
  return out;
}

double HaltQ(const model::LoopMetricsView& m, const LoopConfig& c) {
  // seed 003: q_halt = sum(metrics[k] * weights[k]), in the seed's key order, over the measured k,
  // divided by their weights' sum: its "weighted average of metrics".
  double q = 0, measured_weight = 0;
  for (size_t i = 0; i < kHaltMetricCount; ++i) {
    const auto which = static_cast<HaltMetric>(i);
    const std::optional<double> v = MetricValue(m, which);
    if (!v) continue;
    q += *v * Weight(c, which);
    measured_weight += Weight(c, which);
  }
  return measured_weight > 0 ? q / measured_weight : 0;
}

uint64_t FeedbackHash(std::string_view text) {
  uint64_t h = 14695981039346656037ull;  // FNV-1a 64 offset basis
  for (unsigned char ch : text) {
    h ^= ch;
    h *= 1099511628211ull;  // FNV-1a 64 prime
  }
  return h;
}

IterationSummary Summarize(const model::LoopView& e, const LoopConfig& config) {
  return {.iteration = e.iteration,
          .q = HaltQ(e.metrics, config),
          .cost = e.cost,
          .elapsed_seconds = e.elapsed_seconds,
          .feedback_hash = FeedbackHash(e.feedback),
          .has_feedback = !e.feedback.empty(),
          .tests_passing = e.metrics.tests_passing.value_or(false),
          .measured = Measured(e.metrics, config)};
}

IterationSummary Summarize(const LoopIteration& it, const LoopConfig& config) {
  model::LoopView e;
  e.iteration = it.iteration;
  e.metrics = it.metrics;
  e.cost = it.cost;
  e.elapsed_seconds = it.elapsed_seconds;
  e.feedback = it.feedback;
  return Summarize(e, config);
}

std::string_view ActionName(LoopAction a) {
  switch (a) {
    case LoopAction::kHalt:
      return "HALT";
    case LoopAction::kContinue:
      return "CONTINUE";
    case LoopAction::kAbort:
      return "ABORT";
  }
  return "CONTINUE";
}

std::string_view RuleName(LoopRule r) {
  switch (r) {
    case LoopRule::kQualitySufficient:
      return "quality_sufficient";
    case LoopRule::kMaxIterationsHalt:
      return "max_iterations";
    case LoopRule::kGoodEnough:
      return "good_enough";
    case LoopRule::kMaxIterationsAbort:
      return "max_iterations";
    case LoopRule::kStagnation:
      return "stagnation";
    case LoopRule::kDeclining:
      return "declining";
    case LoopRule::kQualityTooLow:
      return "quality_too_low";
    case LoopRule::kCostLimit:
      return "cost_limit";
    case LoopRule::kTimeLimit:
      return "time_limit";
    case LoopRule::kCycling:
      return "cycling";
  }
  return "";
}

LoopAction RuleAction(LoopRule r) {
  return static_cast<size_t>(r) <= static_cast<size_t>(LoopRule::kGoodEnough) ? LoopAction::kHalt
                                                                              : LoopAction::kAbort;
}

namespace {

// A configured window as a count, at least `floor` and at most kMaxKeptIterations.
size_t WindowSize(double configured, size_t floor) {
  double w =
      std::clamp(configured, static_cast<double>(floor), static_cast<double>(kMaxKeptIterations));
  return static_cast<size_t>(w);
}

}  // namespace

size_t StagnationWindow(const LoopConfig& config) {
  return WindowSize(config.stagnation_window, 1);
}
size_t CycleWindow(const LoopConfig& config) { return WindowSize(config.cycle_window, 0); }

LoopEvaluation Evaluate(std::span<const IterationSummary> history, const LoopConfig& c,
                        const EarlierIterations& earlier) {
  LoopEvaluation e;
  e.iterations = earlier.count + static_cast<int64_t>(history.size());
  e.total_cost = earlier.cost;
  e.total_seconds = earlier.seconds;
  for (const IterationSummary& it : history) {
    e.total_cost += it.cost;
    e.total_seconds += it.elapsed_seconds;
  }
  if (history.empty()) return e;

  const IterationSummary& last = history.back();
  const double q = last.q;
  const double iteration = static_cast<double>(last.iteration);
  auto fire = [&e](LoopRule r, bool fired) { e.fired[static_cast<size_t>(r)] = fired; };

  // seed 003 QualityEvaluator.should_halt. Its narrative example ("Q(HALT) = 0.65,
  // Q(CONTINUE) = 0.35 -> CONTINUE", and 0.78 -> CONTINUE) contradicts its own code: with
  // q_continue = 1 - q_halt, `q_halt > q_continue` halts every loop whose q_halt exceeds 0.5.
  // We implement the code, so good_enough (q_halt > 0.75) only decides when loop.good_enough_q
  // is configured at or below 0.5. kaizen: a quality halt needs what the tests say (see
  // HasTestEvidence); q renormalized over, say, a security score alone says nothing of them.
  const bool evidence = HasTestEvidence(last.measured);
  fire(LoopRule::kQualitySufficient, evidence && q > 1.0 - q);
  fire(LoopRule::kMaxIterationsHalt, iteration >= c.max_iterations);
  fire(LoopRule::kGoodEnough, evidence && last.tests_passing && q > c.good_enough_q);

  // seed 003 InfiniteLoopPrevention.should_abort; its quality_history holds every iteration's
  // q, so the window is the last iterations' q. is_stagnating needs a full window.
  fire(LoopRule::kMaxIterationsAbort, iteration >= c.max_iterations);
  const size_t window = StagnationWindow(c);
  e.window_full = history.size() >= window;
  if (e.window_full) {
    std::span<const IterationSummary> recent = history.last(window);
    double mean = 0;
    for (const IterationSummary& it : recent) mean += it.q;
    mean /= static_cast<double>(window);
    for (const IterationSummary& it : recent) e.variance += (it.q - mean) * (it.q - mean);
    e.variance /= static_cast<double>(window);  // population variance, as np.var
    fire(LoopRule::kStagnation, e.variance < c.stagnation_variance);
    bool declining = true;
    for (size_t i = 0; i + 1 < recent.size(); ++i) declining &= recent[i].q >= recent[i + 1].q;
    fire(LoopRule::kDeclining, declining);
  }
  fire(LoopRule::kQualityTooLow, iteration >= c.min_quality_after && q < c.min_quality);
  fire(LoopRule::kCostLimit, e.total_cost > c.max_cost);
  fire(LoopRule::kTimeLimit, e.total_seconds > c.max_seconds);
  // seed 003 is_cycling: `h in feedback_hashes[-2:]`, the feedback of the iterations before.
  bool cycling = false;
  if (last.has_feedback) {
    const size_t cycle_window = std::min(CycleWindow(c), history.size() - 1);
    for (size_t k = 1; k <= cycle_window; ++k) {
      const IterationSummary& before = history[history.size() - 1 - k];
      cycling |= before.has_feedback && before.feedback_hash == last.feedback_hash;
    }
  }
  fire(LoopRule::kCycling, cycling);

  LoopDecision& d = e.decision;
  d.q_halt = q;
  d.q_continue = 1.0 - q;
  d.stagnation_detected = e.fired[static_cast<size_t>(LoopRule::kStagnation)] ||
                          e.fired[static_cast<size_t>(LoopRule::kDeclining)];
  for (size_t i = 0; i < kLoopRuleCount; ++i) {
    if (!e.fired[i]) continue;
    e.decided_by = static_cast<LoopRule>(i);
    d.action = RuleAction(*e.decided_by);
    d.reason = RuleName(*e.decided_by);
    break;
  }
  return e;
}

LoopDecision Decide(const std::vector<LoopIteration>& history, const LoopConfig& config) {
  std::vector<IterationSummary> summaries;
  summaries.reserve(history.size());
  for (const LoopIteration& it : history) summaries.push_back(Summarize(it, config));
  return Evaluate(summaries, config).decision;
}

LoopMetrics Metrics(std::span<const IterationSummary> history, const LoopEvaluation& e) {
  LoopMetrics m;
  m.iterations = e.iterations;
  m.total_time = e.total_seconds;
  m.quality_progression.reserve(history.size());
  for (const IterationSummary& it : history) m.quality_progression.push_back(it.q);
  m.stagnation_detected = e.decision.stagnation_detected;
  m.halt_reason = e.decision.reason;
  m.cost = e.total_cost;
  return m;
}

}  // namespace kaizen::learn
