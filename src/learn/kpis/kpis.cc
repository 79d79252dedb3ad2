#include "learn/kpis/kpis.h"

#include <fmt/format.h>

#include <cmath>

#include "learn/state_archive.h"
#include "model/timestamp.h"

namespace kaizen::learn {
namespace {

std::optional<double> Ratio(double num, double den) {
  if (den <= 0) return std::nullopt;
  return num / den;
}

// Rejection reasons are compared case- and space-insensitively, without trailing punctuation.
void Normalize(std::string_view text, std::string* out) {
  // Never longer than the text: written through a pointer, not a push_back per character (every
  // rejection reason and blocker passes here, on the fold's thread).
  out->resize(text.size());
  char* const begin = out->data();
  char* at = begin;
  bool space = false;
  for (char c : text) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      space = at != begin;
      continue;
    }
    if (space) *at++ = ' ';
    space = false;
    *at++ = c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
  }
  while (at != begin && (at[-1] == '.' || at[-1] == '!' || at[-1] == ';')) --at;
  out->resize(static_cast<size_t>(at - begin));
}

// The entry for `day` in a map by UTC day. Logs run in day order, so it is nearly always the
// newest entry, or a new one after it: constant time then.
template <typename Map>
typename Map::mapped_type& DayEntry(Map& by_day, int64_t day) {
  if (!by_day.empty() && by_day.rbegin()->first == day) return by_day.rbegin()->second;
  return by_day.try_emplace(by_day.end(), day)->second;
}

// A trend compares the last two windows, so both must hold the KPI's minimum n: a first week of
// reviews against an empty month before it is no trend.
std::optional<std::string> Trend(const std::vector<std::optional<double>>& v,
                                 const std::vector<uint64_t>& n, uint64_t min_n) {
  if (v.size() < 2 || !v[v.size() - 1] || !v[v.size() - 2]) return std::nullopt;
  if (n[n.size() - 1] < min_n || n[n.size() - 2] < min_n) return std::nullopt;
  double a = *v[v.size() - 2], b = *v[v.size() - 1];
  double scale = std::max(std::fabs(a), std::fabs(b));
  if (std::fabs(b - a) <= 1e-9 * std::max(1.0, scale)) return "flat";
  return b > a ? "up" : "down";
}

}  // namespace

// The n below which a window's value is shown but not judged (no standing, no trend). Where the
// seeds name a minimum sample for the same kind of number it is used; where they do not, their
// smallest, §3.4's "<5 historical data points" (too few to classify a task type).
uint64_t KpiMinN(std::string_view kpi) {
  // Rates and means of reviews: §3.4 "Escalate: Novel task type or <5 historical data points".
  if (kpi == "approvalRate" || kpi == "timeToDecisionSeconds") return 5;
  // seed 000 §3.3 "After 20+ feedback events per dimension" before a score threshold is learned:
  // the seed's own minimum for trusting a statistic of scores.
  if (kpi == "avgQualityScore") return 20;
  // As `alerts.min_predictions`: 5 predictions before their error raises an alert.
  if (kpi == "predictionError") return 5;
  // §3.4 auto-approve: "Approval rate >95% over 20+ instances": the sample the seed wants before
  // letting work through unreviewed is the sample for judging how much was let through.
  if (kpi == "autoApproveRate") return 20;
  // A count: 5 events (§3.4) before a week-over-week comparison means anything.
  if (kpi == "feedbackPerWeek") return 5;
  // Days of scored reviews after the introductions: a week, so that one day (one batch, one
  // mood) cannot call a rule good (§9 "Trend smoothing: ... not daily snapshots").
  if (kpi == "ruleEffectiveness") return 7;
  // §6.3 Regression Detection judges a level on "the next 5 reviews": 5 level checks.
  if (kpi == "regressionRate") return 5;
  return 1;
}

ConfigFields KpiConfig::Fields() {
  return {
      {"kpis.window_days", &window_days, 1, 3650, true,
       "length of one KPI window in days (seed 000 §7.2: rolling 30 days)"},
      {"kpis.windows", &windows, 1, 36, true,
       "how many consecutive windows a KPI trend shows (seed 000 §7.1: 3 months)"},
      {"alerts.approval_drop", &approval_drop, 0, 1, false,
       "critical when the approval rate drops by more than this week over week (seed 000 §7.3)"},
      {"alerts.min_weekly_decisions", &min_weekly_decisions, 1, 1e9, true,
       "decisions each week needs before the week-over-week approval alert can fire"},
      {"alerts.prediction_error", &prediction_error_alert, 0, 10, false,
       "warning when the 30-day mean |predicted - actual score| exceeds this (seed 000 §7.3)"},
      {"alerts.min_predictions", &min_predictions, 1, 1e9, true,
       "predictions the window needs before the prediction alert can fire"},
      {"alerts.new_reason_count", &new_reason_count, 1, 1e9, true,
       "warning when a new rejection reason appears this many times (seed 000 §7.3: 3+)"},
      {"alerts.new_reason_days", &new_reason_days, 1, 3650, false,
       "a rejection reason first seen within this many days is new"},
      {"alerts.silence_hours", &silence_hours, 1, 1e6, false,
       "notice when no feedback arrived for this many hours (seed 000 §7.3: 48)"},
  };
}

void KpiTracker::AddReason(std::string_view text, int64_t at_ms) {
  Normalize(text, &scratch_);
  if (scratch_.empty()) return;
  auto it = reasons_.find(scratch_);
  if (it == reasons_.end()) {
    it = reasons_.emplace(scratch_, Reason{std::string(text), {}}).first;
    reason_order_.push_back(&it->second);
  }
  ++DayEntry(it->second.by_day, model::DayOf(at_ms));
}

void KpiTracker::Add(const model::ReviewView& r) {
  Day& d = DayEntry(days_, model::DayOf(r.at_ms));
  ++d.feedback;
  if (!last_feedback_ms_ || r.at_ms > *last_feedback_ms_) last_feedback_ms_ = r.at_ms;
  const bool decided = r.decision == model::Decision::kApproved ||
                       r.decision == model::Decision::kRejected ||
                       r.decision == model::Decision::kNeedsWork;
  if (decided) {
    ++d.decided;
    if (r.decision == model::Decision::kApproved) {
      ++d.approved;
    } else {
      if (!r.reason.empty()) AddReason(r.reason, r.at_ms);
      for (std::string_view b : r.blockers) AddReason(b, r.at_ms);
    }
  }
  for (const model::ScoreView& s : r.scores) {
    ++d.scores;
    d.score_sum += s.score;
  }
  if (!r.decision_untimed) {
    ++d.decisions_timed;
    d.decision_ms_sum += r.time_to_decision_ms;
  }
  if (r.prediction_delta) {
    ++d.predictions;
    d.prediction_error_sum += std::fabs(*r.prediction_delta);
  }
}

KpiResult KpiTracker::Result(int64_t now_ms,
                             const std::map<int64_t, DelegationDayCounts>& delegation,
                             const std::vector<RuleIntroduction>& rules) const {
  const auto len = static_cast<int64_t>(config_.window_days);
  return Result(now_ms, delegation, rules, len, static_cast<int>(config_.windows), len);
}

KpiResult KpiTracker::Result(int64_t now_ms,
                             const std::map<int64_t, DelegationDayCounts>& delegation,
                             const std::vector<RuleIntroduction>& rules, int64_t len, int n,
                             int64_t step) const {
  KpiResult out;
  const int64_t now_day = model::DayOf(now_ms);
  for (int k = n; k >= 1; --k) {
    int64_t to = now_day - (k - 1) * step;
    out.windows.push_back({to - len + 1, to});
  }

  auto sum_days = [&](int64_t from, int64_t to) {
    Day t;
    for (auto it = days_.lower_bound(from); it != days_.end() && it->first <= to; ++it) {
      const Day& d = it->second;
      t.feedback += d.feedback;
      t.decided += d.decided;
      t.approved += d.approved;
      t.scores += d.scores;
      t.score_sum += d.score_sum;
      t.decisions_timed += d.decisions_timed;
      t.decision_ms_sum += d.decision_ms_sum;
      t.predictions += d.predictions;
      t.prediction_error_sum += d.prediction_error_sum;
    }
    return t;
  };
  auto sum_delegation = [&](int64_t from, int64_t to) {
    DelegationDayCounts t;
    for (auto it = delegation.lower_bound(from); it != delegation.end() && it->first <= to; ++it) {
      t.submitted += it->second.submitted;
      t.auto_approved += it->second.auto_approved;
      t.level_checks += it->second.level_checks;
      t.regressions += it->second.regressions;
    }
    return t;
  };

  auto kpi = [](const char* name, const char* unit, const char* better, const char* n_unit) {
    KpiValue k{name, unit, {}, better, {}, {}, KpiMinN(name), n_unit};
    return k;
  };
  KpiValue approval = kpi("approvalRate", "fraction", "up", "decided reviews");
  KpiValue quality = kpi("avgQualityScore", "score 1-10", "up", "dimension scores");
  KpiValue speed = kpi("timeToDecisionSeconds", "seconds", "down", "reviews");
  KpiValue prediction =
      kpi("predictionError", "score points (mean |predicted - actual|)", "down", "predictions");
  KpiValue auto_approve =
      kpi("autoApproveRate", "fraction of submitted work", "up", "submitted work products");
  KpiValue volume = kpi("feedbackPerWeek", "feedback events per week", "down", "feedback events");
  KpiValue effectiveness = kpi("ruleEffectiveness", "score points after - before", "up",
                               "days of scores after the rules' introduction");
  KpiValue regression =
      kpi("regressionRate", "regressions per level check", "down", "level checks");
  for (auto [from, to] : out.windows) {
    Day t = sum_days(from, to);
    DelegationDayCounts g = sum_delegation(from, to);
    approval.values.push_back(Ratio(t.approved, t.decided));
    approval.n.push_back(t.decided);
    quality.values.push_back(Ratio(t.score_sum, t.scores));
    quality.n.push_back(t.scores);
    speed.values.push_back(Ratio(t.decision_ms_sum / 1000.0, t.decisions_timed));
    speed.n.push_back(t.decisions_timed);
    prediction.values.push_back(Ratio(t.prediction_error_sum, t.predictions));
    prediction.n.push_back(t.predictions);
    auto_approve.values.push_back(Ratio(g.auto_approved, g.submitted));
    auto_approve.n.push_back(g.submitted);
    volume.values.push_back(static_cast<double>(t.feedback) * 7.0 / static_cast<double>(len));
    volume.n.push_back(t.feedback);
    double eff_sum = 0;
    int eff_n = 0;
    uint64_t eff_days = 0;
    for (const RuleIntroduction& r : rules) {
      int64_t day = model::DayOf(r.at_ms);
      if (day >= from && day <= to && r.effectiveness) {
        eff_sum += *r.effectiveness;
        ++eff_n;
        eff_days += static_cast<uint64_t>(std::max<int64_t>(0, r.after_days));
      }
    }
    effectiveness.values.push_back(Ratio(eff_sum, eff_n));
    effectiveness.n.push_back(eff_days);
    regression.values.push_back(Ratio(g.regressions, g.level_checks));
    regression.n.push_back(g.level_checks);
  }
  for (KpiValue* k : {&approval, &quality, &speed, &prediction, &auto_approve, &volume,
                      &effectiveness, &regression}) {
    k->trend = Trend(k->values, k->n, k->min_n);
    out.kpis.push_back(std::move(*k));
  }

  // §7.3 alerts, most severe first.
  Day this_week = sum_days(now_day - 6, now_day);
  Day last_week = sum_days(now_day - 13, now_day - 7);
  if (this_week.decided >= config_.min_weekly_decisions &&
      last_week.decided >= config_.min_weekly_decisions) {
    double now_rate = static_cast<double>(this_week.approved) / this_week.decided;
    double then_rate = static_cast<double>(last_week.approved) / last_week.decided;
    if (then_rate - now_rate > config_.approval_drop + 1e-12) {
      out.alerts.push_back(
          {"critical", "approval-drop",
           fmt::format("approval rate dropped from {:.0f}% to {:.0f}% week over week",
                       then_rate * 100, now_rate * 100),
           "pause auto-approvals, full HITL"});
    }
  }
  const KpiValue& pred = out.kpis[3];
  Day recent = sum_days(out.windows.back().first, out.windows.back().second);
  if (pred.values.back() && recent.predictions >= config_.min_predictions &&
      *pred.values.back() > config_.prediction_error_alert) {
    out.alerts.push_back({"warning", "prediction-accuracy",
                          fmt::format("score predictions are off by ±{:.1f} on average (> ±{:.1f})",
                                      *pred.values.back(), config_.prediction_error_alert),
                          "recalibrate immediately"});
  }
  // Only what was seen by now counts: a reason is new when its first day up to now lies within
  // new_reason_days of now.
  const int64_t new_since = now_day - static_cast<int64_t>(config_.new_reason_days);
  for (const Reason* r : reason_order_) {
    if (r->by_day.empty() || r->by_day.begin()->first > now_day) continue;
    const int64_t first_day = r->by_day.begin()->first;
    uint64_t count = 0;
    for (auto it = r->by_day.begin(); it != r->by_day.end() && it->first <= now_day; ++it) {
      count += it->second;
    }
    if (first_day >= new_since && static_cast<double>(count) >= config_.new_reason_count) {
      out.alerts.push_back(
          {"warning", "new-rejection-reason",
           fmt::format("new rejection reason seen {} times since {}: \"{}\"", count,
                       model::FormatDay(first_day * model::kMsPerDay), r->text),
           "extract a rule, add it to the checklist"});
    }
  }
  const KpiValue& ttd = out.kpis[2];
  bool increasing = ttd.values.size() >= 2;
  for (size_t i = 0; i < ttd.values.size(); ++i) {
    if (!ttd.values[i] || (i > 0 && *ttd.values[i] <= *ttd.values[i - 1])) increasing = false;
  }
  if (increasing) {
    out.alerts.push_back({"notice", "time-to-decision-increasing",
                          fmt::format("time to decision rose to {:.0f} s over {} windows",
                                      *ttd.values.back(), ttd.values.size()),
                          "review the presentation format"});
  }
  const double silence_ms = config_.silence_hours * 3'600'000.0;
  if (!last_feedback_ms_) {
    out.alerts.push_back(
        {"notice", "no-feedback", "no feedback events recorded yet", "check pipeline health"});
  } else if (static_cast<double>(now_ms - *last_feedback_ms_) >= silence_ms) {
    out.alerts.push_back(
        {"notice", "no-feedback",
         fmt::format("no feedback events for {:.0f} hours (last {})",
                     static_cast<double>(now_ms - *last_feedback_ms_) / 3'600'000.0,
                     model::FormatUtc(*last_feedback_ms_)),
         "check pipeline health"});
  }
  return out;
}

void WriteWindowsJson(base::JsonWriter& w, const KpiResult& r) {
  w.StartArray();
  for (auto [from, to] : r.windows) {
    w.StartObject();
    base::Key(w, "from");
    base::Str(w, model::FormatDay(from * model::kMsPerDay));
    base::Key(w, "to");
    base::Str(w, model::FormatDay(to * model::kMsPerDay));
    w.EndObject();
  }
  w.EndArray();
}

void WriteJson(base::JsonWriter& w, const KpiResult& r) {
  w.StartObject();
  base::Key(w, "windows");
  WriteWindowsJson(w, r);
  for (const KpiValue& k : r.kpis) {
    base::Key(w, k.name);
    w.StartObject();
    base::Key(w, "values");
    w.StartArray();
    for (const auto& v : k.values) base::Num(w, v);
    w.EndArray();
    base::Key(w, "current");
    base::Num(w, k.values.empty() ? std::nullopt : k.values.back());
    base::Key(w, "trend");
    if (k.trend) {
      base::Str(w, *k.trend);
    } else {
      w.Null();
    }
    base::Key(w, "better");
    base::Str(w, k.better);
    base::Key(w, "unit");
    base::Str(w, k.unit);
    base::Key(w, "n");
    w.StartArray();
    for (uint64_t n : k.n) w.Uint64(n);
    w.EndArray();
    base::Key(w, "minN");
    w.Uint64(k.min_n);
    base::Key(w, "nUnit");
    base::Str(w, k.n_unit);
    w.EndObject();
  }
  w.EndObject();
}

void WriteAlertsJson(base::JsonWriter& w, const KpiResult& r) {
  w.StartArray();
  for (const Alert& a : r.alerts) {
    w.StartObject();
    base::Key(w, "level");
    base::Str(w, a.level);
    base::Key(w, "condition");
    base::Str(w, a.condition);
    base::Key(w, "message");
    base::Str(w, a.message);
    base::Key(w, "action");
    base::Str(w, a.action);
    w.EndObject();
  }
  w.EndArray();
}

// ---- State (Learner::SaveState) -------------------------------------------------------------

template <class Archive>
void KpiTracker::Day::serialize(Archive& ar) {
  ar(feedback, decided, approved, scores, decisions_timed, predictions, score_sum, decision_ms_sum,
     prediction_error_sum);
}

template <class Archive>
void KpiTracker::Reason::serialize(Archive& ar) {
  ar(text, by_day);
}

template <class Archive>
void KpiTracker::serialize(Archive& ar) {
  ar(days_, last_feedback_ms_);
  std::vector<std::string> keys;
  if constexpr (!state::kLoading<Archive>) {
    std::unordered_map<const Reason*, const std::string*> key_of;
    for (const auto& [key, reason] : reasons_) key_of.emplace(&reason, &key);
    for (const Reason* r : reason_order_) keys.push_back(*key_of.at(r));
  }
  ar(keys);
  for (size_t i = 0; i < keys.size(); ++i) {
    if constexpr (state::kLoading<Archive>) {
      auto [it, added] = reasons_.emplace(std::move(keys[i]), Reason{});
      state::Require(added, "a rejection reason saved twice");
      ar(it->second);
      reason_order_.push_back(&it->second);
    } else {
      ar(*reason_order_[i]);
    }
  }
}

KZ_STATE_INSTANTIATE(KpiTracker);

}  // namespace kaizen::learn
