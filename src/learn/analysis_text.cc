// `kaizen analyze` without --json: the analysis as a person reads it, most actionable first.
#include <fmt/format.h>

#include "learn/learner.h"
#include "model/timestamp.h"

namespace kaizen::learn {
namespace {

std::string Pct(std::optional<double> v) {
  return v ? fmt::format("{:.1f}%", *v * 100) : std::string("n/a");
}

std::string Counts(const ApprovalCounts& c) {
  return fmt::format("{:>6} approved {:>5} rejected {:>5} needs-work {:>5} deferred  rate {}",
                     c.approved, c.rejected, c.needs_work, c.deferred, Pct(c.rate()));
}

std::string Value(std::optional<double> v, int decimals) {
  return v ? fmt::format("{:.{}f}", *v, decimals) : std::string("–");
}

}  // namespace

std::string Learner::AnalysisText(int64_t now_ms, Sections sections) const {
  std::string out;
  auto line = [&](std::string s) {
    out += s;
    out += '\n';
  };
  line(fmt::format("kaizen analysis at {} of {} events", model::FormatUtc(now_ms), events_));
  std::string kinds;
  for (int k = 0; k < model::kEventKindCount; ++k) {
    if (by_kind_[k] == 0) continue;
    kinds += fmt::format("{}{} {}", kinds.empty() ? "" : ", ", by_kind_[k],
                         model::KindName(static_cast<model::EventKind>(k)));
  }
  if (!kinds.empty()) line("  " + kinds);

  KpiResult kpis;
  if (sections.Has(Section::kAlerts) || sections.Has(Section::kKpis)) {
    kpis = Kpis(now_ms);
  }
  if (sections.Has(Section::kAlerts)) {
    line("");
    line("Alerts");
    if (kpis.alerts.empty()) line("  none");
    for (const Alert& a : kpis.alerts) {
      line(fmt::format("  [{}] {} -> {}", a.level, a.message, a.action));
    }
  }

  if (sections.Has(Section::kKpis)) {
    line("");
    line(fmt::format("KPIs (30-day windows, oldest first, ending {})", model::FormatDay(now_ms)));
    for (const KpiValue& k : kpis.kpis) {
      std::string values;
      for (const auto& v : k.values) values += (values.empty() ? "" : " -> ") + Value(v, 2);
      line(fmt::format("  {:<24} {}  (trend {}, better {})", k.name, values,
                       k.trend.value_or("n/a"), k.better));
    }
  }

  if (sections.Has(Section::kApproval)) {
    ApprovalResult approval = approval_.Result();
    line("");
    line("Approval");
    line(fmt::format("  {:<18} {}", "overall", Counts(approval.overall)));
    for (const auto& [name, c] : approval.by_server_type) {
      line(fmt::format("  {:<18} {}", name, Counts(c)));
    }
  }

  if (sections.Has(Section::kGates)) {
    line("");
    line("Learned gates (score must be >= threshold)");
    std::vector<ScoreGate> gates = gates_.Gates(now_ms);
    if (gates.empty()) {
      line(fmt::format("  none yet (a dimension needs {}+ scores in the last {} days)",
                       config_.gates.min_scores, config_.gates.window_days));
    }
    for (const ScoreGate& g : gates) {
      line(fmt::format("  {:<18} >= {:<2} {} gate: {:.0f}% of {} scores below were not approved",
                       g.dimension, g.threshold, GateKindName(g.kind), g.rejection_rate * 100,
                       g.n_below));
    }
  }

  if (sections.Has(Section::kCalibration)) {
    CalibrationResult cal = calibration_.Result();
    line("");
    line(fmt::format("Calibration (bubaConfidence vs approval, {} reviews, ECE {})", cal.n,
                     Pct(cal.ece)));
    for (const CalibrationBucket& b : cal.buckets) {
      if (b.n == 0) continue;
      line(fmt::format("  {:.1f}-{:.1f}  predicted {:>6}  actual {:>6}  error {:>+7.1f}%  n {}",
                       b.lower, b.upper, Pct(b.avg_predicted), Pct(b.actual_rate),
                       b.error.value_or(0) * 100, b.n));
    }
  }

  if (sections.Has(Section::kAutonomy)) {
    line("");
    line("Autonomy by task type");
    for (const TaskAutonomy& t : autonomy_.Result()) {
      line(fmt::format("  {:<18} level {}  {:<12} review {:>5.1f}%  {} of {} approved ({}){}",
                       t.task_type, t.level, TaskClassName(t.task_class), t.review_rate * 100,
                       t.approvals, t.decided, Pct(t.rate), t.regressed ? "  REGRESSED" : ""));
    }
  }

  if (sections.Has(Section::kSignals)) {
    const SignalsResult r = signals_.Result(now_ms);
    line("");
    line(fmt::format("After review: git, CI and ratings ({} reward events)", r.rewards));
    auto metric = [&](std::string_view name, const SignalMetric& m, std::string value) {
      line(fmt::format("  {:<28} {}  (n = {})", name, m.value ? value : "-", m.n));
    };
    metric("agent commits reverted", r.revert_rate, Pct(r.revert_rate.value));
    metric("agent commits people rewrote", r.human_edit_rate, Pct(r.human_edit_rate.value));
    metric("CI pass rate", r.ci_pass_rate, Pct(r.ci_pass_rate.value));
    metric("commits with 3+ signals", r.coverage, Pct(r.coverage.value));
    metric("time to completion (median)", r.time_to_completion,
           r.time_to_completion.value ? fmt::format("{:.0f} s", *r.time_to_completion.value) : "");
    metric("mean rating", r.ratings,
           r.ratings.value ? fmt::format("{:.1f}/5", *r.ratings.value) : "");
    for (const SignalFailure& f : r.recent_failures) {
      line(fmt::format("  {} {} ({}): {}", model::FormatDay(f.at_ms), f.commit.substr(0, 12),
                       f.task_type, f.what));
    }
  }

  if (sections.Has(Section::kAntiPatterns)) {
    std::vector<AntiPattern> anti = outcomes_.AntiPatterns();
    line("");
    line("Anti-patterns");
    if (anti.empty()) line("  none");
    for (const AntiPattern& a : anti) line("  " + a.content);
  }

  if (sections.Has(Section::kPatterns)) {
    std::vector<PatternResult> patterns = outcomes_.Patterns(now_ms);
    line("");
    line("Patterns");
    for (const PatternResult& p : patterns) {
      line(fmt::format("  {:<36} {:<11} x{:.1f}  {} ok / {} failed", p.content,
                       MaturityStateName(p.state), p.multiplier, p.success_count, p.failure_count));
    }
  }

  std::vector<ThemeStance> stances;
  if (sections.Has(Section::kContradictions)) stances = evidence_.Contradictions(now_ms);
  bool any_clarify = false;
  for (const ThemeStance& s : stances) any_clarify |= s.status == "clarify";
  if (any_clarify) {
    line("");
    line("Needs clarification");
    for (const ThemeStance& s : stances) {
      if (s.status == "clarify" && s.question) line("  " + *s.question);
    }
  }
  // The sections asked for that the summary above leaves to the JSON.
  std::string json_only;
  for (Section s :
       {Section::kDecisionSpeed, Section::kPreferences, Section::kCommunication, Section::kCriteria,
        Section::kErrors, Section::kLoops, Section::kRegressions, Section::kStrategies,
        Section::kRuleCandidates, Section::kBiasWatch, Section::kAgreement}) {
    if (sections.Has(s))
      json_only += fmt::format("{}{}", json_only.empty() ? "" : ", ", SectionName(s));
  }
  line("");
  if (sections == Sections::All()) {
    line("`kaizen analyze --json` has every section; `kaizen explain` shows why.");
  } else if (!json_only.empty()) {
    line(fmt::format("Not summarized here: {} (`kaizen analyze --json --only ...` prints them).",
                     json_only));
  } else {
    line(
        "`kaizen analyze --json --only ...` prints these sections whole; `kaizen explain` shows "
        "why.");
  }
  return out;
}

}  // namespace kaizen::learn
