#include "learn/outcomes/loop_tracker.h"

#include "learn/state_archive.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <limits>

namespace kaizen::learn {

LoopTracker::LoopTracker(const LoopConfig& config)
    : config_(config),
      expected_iterations_(static_cast<size_t>(
          std::clamp(config.max_iterations, 1.0, static_cast<double>(kMaxKeptIterations)))) {}

void LoopTracker::Add(const model::LoopView& e) {
  auto found = index_.find(e.loop_id);
  if (found == index_.end()) {
    found = index_.emplace(std::string(e.loop_id), static_cast<uint32_t>(loops_.size())).first;
    loops_.push_back(Loop{.id = &found->first,
                          .updated_ms = std::numeric_limits<int64_t>::min(),
                          .updated_seq = 0,
                          .earlier = {},
                          .unmeasured = {},
                          .unmeasured_numbers = {},
                          .kept = {}});
    // Most loops stop by max_iterations: one allocation holds them.
    loops_.back().kept.reserve(expected_iterations_);
  }
  Loop& loop = loops_[found->second];
  loop.updated_ms = std::max(loop.updated_ms, e.at_ms);
  loop.updated_seq = ++seq_;

  const IterationSummary s = Summarize(e, config_);
  if (s.measured == 0) {
    ++loop.unmeasured.count;
    loop.unmeasured.cost += s.cost;
    loop.unmeasured.seconds += s.elapsed_seconds;
    if (loop.unmeasured_numbers.size() < kMaxNamedUnmeasured)
      loop.unmeasured_numbers.push_back(s.iteration);
    return;
  }
  std::vector<IterationSummary>& kept = loop.kept;
  auto pos =
      std::lower_bound(kept.begin(), kept.end(), s.iteration,
                       [](const IterationSummary& it, int64_t n) { return it.iteration < n; });
  if (pos != kept.end() && pos->iteration == s.iteration) {
    *pos = s;  // recorded twice: the later record wins
    return;
  }
  auto fold = [&loop](const IterationSummary& it) {
    ++loop.earlier.count;
    loop.earlier.cost += it.cost;
    loop.earlier.seconds += it.elapsed_seconds;
  };
  if (pos == kept.begin() && loop.earlier.count > 0) {
    // Older than every kept iteration of a loop that already folded some: whether it repeats a
    // folded one is no longer known, so it counts as one more.
    fold(s);
    return;
  }
  kept.insert(pos, s);
  if (kept.size() > kMaxKeptIterations) {
    fold(kept.front());
    kept.erase(kept.begin());
  }
}

EarlierIterations LoopTracker::Uncounted(const Loop& loop) {
  return {.count = loop.earlier.count + loop.unmeasured.count,
          .cost = loop.earlier.cost + loop.unmeasured.cost,
          .seconds = loop.earlier.seconds + loop.unmeasured.seconds};
}

LoopReport LoopTracker::MakeReport(const Loop& loop) const {
  LoopEvaluation e = Evaluate(loop.kept, config_, Uncounted(loop));
  LoopReport r{.loop_id = *loop.id,
               .updated_ms = loop.updated_ms,
               .decision = e.decision,
               .metrics = Metrics(loop.kept, e),
               .unmeasured = loop.unmeasured.count};
  return r;
}

LoopsResult LoopTracker::Result() const {
  LoopsResult r;
  r.total = static_cast<int64_t>(loops_.size());
  std::array<int64_t, kLoopRuleCount> by_rule{};
  double iterations = 0, final_quality = 0;
  int64_t with_quality = 0;
  for (const Loop& loop : loops_) {
    LoopEvaluation e = Evaluate(loop.kept, config_, Uncounted(loop));
    switch (e.decision.action) {
      case LoopAction::kHalt:
        ++r.halted;
        break;
      case LoopAction::kContinue:
        ++r.continuing;
        break;
      case LoopAction::kAbort:
        ++r.aborted;
        break;
    }
    if (e.decided_by) ++by_rule[static_cast<size_t>(*e.decided_by)];
    iterations += static_cast<double>(e.iterations);
    if (!loop.kept.empty()) {
      final_quality += e.decision.q_halt;
      ++with_quality;
    }
  }
  for (size_t i = 0; i < kLoopRuleCount; ++i) {
    // HALT and ABORT max_iterations share a name, so they share a count.
    if (by_rule[i] > 0) r.by_reason[std::string(RuleName(static_cast<LoopRule>(i)))] += by_rule[i];
  }
  if (r.total > 0) {
    r.avg_iterations = iterations / static_cast<double>(r.total);
  }
  if (with_quality > 0) r.avg_final_quality = final_quality / static_cast<double>(with_quality);

  std::vector<uint32_t> order(loops_.size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  const size_t n = std::min(kRecentLoops, order.size());
  std::partial_sort(order.begin(), order.begin() + static_cast<ptrdiff_t>(n), order.end(),
                    [this](uint32_t a, uint32_t b) {
                      const Loop& x = loops_[a];
                      const Loop& y = loops_[b];
                      if (x.updated_ms != y.updated_ms) return x.updated_ms > y.updated_ms;
                      return x.updated_seq > y.updated_seq;
                    });
  r.recent.reserve(n);
  for (size_t i = 0; i < n; ++i) r.recent.push_back(MakeReport(loops_[order[i]]));
  return r;
}

std::optional<LoopReport> LoopTracker::Report(std::string_view loop_id) const {
  auto found = index_.find(loop_id);
  if (found == index_.end()) return std::nullopt;
  return MakeReport(loops_[found->second]);
}

bool LoopTracker::ExplainLoop(std::string_view loop_id, std::string* text) const {
  auto found = index_.find(loop_id);
  if (found == index_.end()) return false;
  const Loop& loop = loops_[found->second];
  const LoopConfig& c = config_;
  const LoopEvaluation e = Evaluate(loop.kept, c, Uncounted(loop));
  const LoopDecision& d = e.decision;
  auto out = std::back_inserter(*text);

  fmt::format_to(out, "loop {}: {} iterations, cost ${:.2f}, {:.1f} s\n", loop_id, e.iterations,
                 e.total_cost, e.total_seconds);
  if (loop.earlier.count > 0) {
    fmt::format_to(out, "  ({} earlier iterations counted in the totals, not kept)\n",
                   loop.earlier.count);
  }
  if (loop.unmeasured.count > 0) {
    std::string numbers;
    for (int64_t n : loop.unmeasured_numbers)
      numbers += fmt::format("{}{}", numbers.empty() ? "" : ", ", n);
    if (loop.unmeasured.count > static_cast<int64_t>(loop.unmeasured_numbers.size()))
      numbers += ", ...";
    fmt::format_to(out,
                   "  ({} iterations measured none of the Q(HALT) metrics: counted in the totals, "
                   "left out of the rules, not read as quality 0; iteration {})\n",
                   loop.unmeasured.count, numbers);
  }
  for (const IterationSummary& it : loop.kept) {
    const MeasuredMetrics missing = kAllHaltMetrics & ~it.measured;
    fmt::format_to(out, "  iteration {}: q_halt {:.6f} over {}{}{}{}\n", it.iteration, it.q,
                   missing == 0 ? "all six metrics" : MetricNames(it.measured),
                   missing == 0 ? "" : "; missing ", MetricNames(missing),
                   it.tests_passing ? "; tests passing" : "");
  }
  const std::string_view verdict = ActionName(d.action);
  if (d.reason.empty()) {
    fmt::format_to(out, "decision: {}\n", verdict);
  } else {
    fmt::format_to(out, "decision: {} ({})\n", verdict, d.reason);
  }
  if (loop.kept.empty()) {
    fmt::format_to(out, "no iteration measured a Q(HALT) metric ({}): the loop has no quality\n",
                   MetricNames(kAllHaltMetrics));
    return true;
  }

  const IterationSummary& last = loop.kept.back();
  const double q = last.q;
  double measured_weight = 0, all_weight = 0;
  for (size_t i = 0; i < kHaltMetricCount; ++i) {
    const double w = Weight(c, static_cast<HaltMetric>(i));
    all_weight += w;
    if (Has(last.measured, static_cast<HaltMetric>(i))) measured_weight += w;
  }
  if (last.measured == kAllHaltMetrics) {
    fmt::format_to(out, "Q(HALT) weights of iteration {} (seed 003; all six measured):\n",
                   last.iteration);
  } else {
    fmt::format_to(out,
                   "Q(HALT) weights of iteration {} (seed 003, renormalized over the measured "
                   "ones: {:g} of {:g}):\n",
                   last.iteration, measured_weight, all_weight);
  }
  for (size_t i = 0; i < kHaltMetricCount; ++i) {
    const auto which = static_cast<HaltMetric>(i);
    const double w = Weight(c, which);
    if (!Has(last.measured, which)) {
      fmt::format_to(out, "  {} {:g}: missing\n", HaltMetricName(which), w);
    } else if (last.measured == kAllHaltMetrics) {
      fmt::format_to(out, "  {} {:g}\n", HaltMetricName(which), w);
    } else {
      fmt::format_to(out, "  {} {:g} -> {:.6f}\n", HaltMetricName(which), w, w / measured_weight);
    }
  }
  auto rule = [&](LoopRule r, std::string_view why) {
    fmt::format_to(out, "  [{}] {}: {}\n", e.fired[static_cast<size_t>(r)] ? 'x' : ' ', RuleName(r),
                   why);
  };
  const std::string_view evidence =
      HasTestEvidence(last.measured) ? "" : " (not measured: tests_passing or test_coverage)";
  text->append("halt rules (seed 003 should_halt):\n");
  rule(LoopRule::kQualitySufficient,
       fmt::format("q_halt {:.6f} > q_continue {:.6f}{}", q, d.q_continue, evidence));
  rule(LoopRule::kMaxIterationsHalt,
       fmt::format("iteration {} >= {}", last.iteration, c.max_iterations));
  rule(LoopRule::kGoodEnough,
       fmt::format("tests passing ({}) and q_halt {:.6f} > {}{}", last.tests_passing ? "yes" : "no",
                   q, c.good_enough_q, evidence));
  text->append("guards (seed 003 should_abort):\n");
  rule(LoopRule::kMaxIterationsAbort,
       fmt::format("iteration {} >= {}", last.iteration, c.max_iterations));
  const std::string window = fmt::format("last {} q", StagnationWindow(c));
  if (e.window_full) {
    rule(LoopRule::kStagnation,
         fmt::format("variance of the {} {:.6f} < {}", window, e.variance, c.stagnation_variance));
    rule(LoopRule::kDeclining, fmt::format("the {} never increase", window));
  } else {
    rule(LoopRule::kStagnation, fmt::format("needs the {}", window));
    rule(LoopRule::kDeclining, fmt::format("needs the {}", window));
  }
  rule(LoopRule::kQualityTooLow,
       fmt::format("iteration {} >= {} and q_halt {:.6f} < {}", last.iteration, c.min_quality_after,
                   q, c.min_quality));
  rule(LoopRule::kCostLimit, fmt::format("total cost {:.2f} > {}", e.total_cost, c.max_cost));
  rule(LoopRule::kTimeLimit,
       fmt::format("total seconds {:.1f} > {}", e.total_seconds, c.max_seconds));
  rule(LoopRule::kCycling,
       last.has_feedback ? fmt::format("feedback repeats one of the previous {}", CycleWindow(c))
                         : std::string("no feedback text, which never cycles"));
  return true;
}

void WriteJson(base::JsonWriter& w, const LoopsResult& r) {
  w.StartObject();
  base::Key(w, "total");
  w.Int64(r.total);
  base::Key(w, "byAction");
  w.StartObject();
  base::Key(w, "ABORT");
  w.Int64(r.aborted);
  base::Key(w, "CONTINUE");
  w.Int64(r.continuing);
  base::Key(w, "HALT");
  w.Int64(r.halted);
  w.EndObject();
  base::Key(w, "byReason");
  w.StartObject();
  for (const auto& [reason, n] : r.by_reason) {
    base::Key(w, reason);
    w.Int64(n);
  }
  w.EndObject();
  base::Key(w, "avgIterations");
  base::Num(w, r.avg_iterations);
  base::Key(w, "avgFinalQuality");
  base::Num(w, r.avg_final_quality);
  base::Key(w, "recent");
  w.StartArray();
  for (const LoopReport& loop : r.recent) {
    w.StartObject();
    base::Key(w, "loopId");
    base::Str(w, loop.loop_id);
    base::Key(w, "iterations");
    w.Int64(loop.metrics.iterations);
    base::Key(w, "action");
    base::Str(w, ActionName(loop.decision.action));
    base::Key(w, "reason");
    base::Str(w, loop.decision.reason);
    base::Key(w, "qHalt");
    base::Num(w, loop.metrics.quality_progression.empty() ? std::nullopt
                                                          : std::optional(loop.decision.q_halt));
    base::Key(w, "unmeasuredIterations");
    w.Int64(loop.unmeasured);
    base::Key(w, "qualityProgression");
    w.StartArray();
    for (double q : loop.metrics.quality_progression) base::Num(w, q);
    w.EndArray();
    base::Key(w, "cost");
    base::Num(w, loop.metrics.cost);
    base::Key(w, "totalSeconds");
    base::Num(w, loop.metrics.total_time);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
}

// ---- State (Learner::SaveState) -------------------------------------------------------------

template <class Archive>
void serialize(Archive& ar, EarlierIterations& e) {
  ar(e.count, e.cost, e.seconds);
}

template <class Archive>
void serialize(Archive& ar, IterationSummary& s) {
  ar(s.iteration, s.q, s.cost, s.elapsed_seconds, s.feedback_hash, s.has_feedback, s.tests_passing,
     s.measured);
}

template <class Archive>
void LoopTracker::Loop::serialize(Archive& ar) {
  ar(updated_ms, updated_seq, earlier, unmeasured, unmeasured_numbers, kept);
}

template <class Archive>
void LoopTracker::serialize(Archive& ar) {
  ar(seq_);
  std::vector<std::string> ids;
  if constexpr (!state::kLoading<Archive>) {
    for (const Loop& loop : loops_) ids.push_back(*loop.id);
  }
  ar(ids, loops_);
  if constexpr (state::kLoading<Archive>) {
    state::Require(ids.size() == loops_.size(), "loops without their ids");
    index_.clear();
    for (size_t i = 0; i < loops_.size(); ++i) {
      auto [it, added] = index_.emplace(std::move(ids[i]), static_cast<uint32_t>(i));
      state::Require(added, "a loop saved twice");
      loops_[i].id = &it->first;
    }
  }
}

KZ_STATE_INSTANTIATE(LoopTracker);

}  // namespace kaizen::learn
