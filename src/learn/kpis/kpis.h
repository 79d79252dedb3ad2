// The dashboard's numbers (seed 000 §7): the eight KPIs of §7.2 over three consecutive 30-day
// windows ending at `now` (the "3-month trend"), and the alert conditions of §7.3.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "base/json_writer.h"
#include "learn/config_field.h"
#include "learn/delegation/autonomy.h"
#include "learn/state_fwd.h"
#include "learn/string_hash.h"
#include "model/inputs.h"

namespace kaizen::learn {

struct KpiConfig {
  double window_days = 30;              // §7.2 "per rolling 30 days"
  double windows = 3;                   // §7.1 "3-month trend"
  double approval_drop = 0.10;          // §7.3 "drops >10% week-over-week" (percentage points)
  double min_weekly_decisions = 5;      // a week with fewer decisions raises no approval alert
  double prediction_error_alert = 2.0;  // §7.3 "Prediction accuracy > ±2.0"
  double min_predictions = 5;
  double new_reason_count = 3;  // §7.3 "New rejection reason appearing 3+ times"
  double new_reason_days = 30;  // "new": first seen this many days before now, or later
  double silence_hours = 48;    // §7.3 "No feedback events for 48+ hours"

  ConfigFields Fields();
};

// What the delegation rules counted on one UTC day (for the auto-approve and regression KPIs).
using DelegationDayCounts = DelegationDay;
// A rule candidate's introduction and its measured quality delta (for Rule Effectiveness).
struct RuleIntroduction {
  int64_t at_ms = 0;
  std::optional<double> effectiveness;
  int64_t after_days = 0;  // UTC days with scores after the introduction that the delta rests on
};

struct KpiValue {
  std::string name;
  std::string unit;
  std::vector<std::optional<double>> values;  // oldest window first
  std::string better;                         // "up" or "down": the direction that is good
  // up | down | flat, last window vs the one before; nullopt unless both hold min_n.
  std::optional<std::string> trend;
  std::vector<uint64_t> n;  // per window, what the value rests on (see KpiMinN)
  uint64_t min_n = 1;       // below it a window's value is shown but judged by nobody
  std::string n_unit;       // what n counts ("decided reviews", ...)
};

// The n a KPI's window needs before its value is judged (standing, trend), by KPI name; 1 for a
// name that is not a KPI.
uint64_t KpiMinN(std::string_view kpi);

struct Alert {
  std::string level;      // critical | warning | notice
  std::string condition;  // which §7.3 row
  std::string message;
  std::string action;
};

struct KpiResult {
  std::vector<std::pair<int64_t, int64_t>> windows;  // [from, to] day numbers, oldest first
  std::vector<KpiValue> kpis;
  std::vector<Alert> alerts;
};

class KpiTracker {
 public:
  explicit KpiTracker(const KpiConfig& config) : config_(config) {}
  void Add(const model::ReviewView& review);
  // `delegation` and `rules` come from the autonomy and theme-evidence rules.
  KpiResult Result(int64_t now_ms, const std::map<int64_t, DelegationDayCounts>& delegation,
                   const std::vector<RuleIntroduction>& rules) const;
  // The same over `windows` windows of `window_days` days, the newest ending on now's day and
  // each ending `step_days` before the next (the dashboard's charts: the KPI's own 30-day window,
  // rolled back a week at a time). step_days == window_days: consecutive windows.
  // REQUIRES: window_days >= 1, windows >= 1, step_days >= 1.
  KpiResult Result(int64_t now_ms, const std::map<int64_t, DelegationDayCounts>& delegation,
                   const std::vector<RuleIntroduction>& rules, int64_t window_days, int windows,
                   int64_t step_days) const;

 private:
  struct Day {
    uint64_t feedback = 0, decided = 0, approved = 0, scores = 0, decisions_timed = 0,
             predictions = 0;
    double score_sum = 0, decision_ms_sum = 0, prediction_error_sum = 0;
    template <class Archive>
    void serialize(Archive& ar);
  };
  struct Reason {
    std::string text;                    // as first written
    std::map<int64_t, uint64_t> by_day;  // occurrences per UTC day: "new" is relative to now
    template <class Archive>
    void serialize(Archive& ar);
  };
  void AddReason(std::string_view text, int64_t at_ms);
  // reasons_ in reason_order_, each with its key; reason_order_ then points into the new map.
  // scratch_ is scratch space of one Add.
  friend class cereal::access;
  template <class Archive>
  void serialize(Archive& ar);

  KpiConfig config_;
  std::map<int64_t, Day> days_;
  std::unordered_map<std::string, Reason, StringHash, std::equal_to<>> reasons_;
  std::vector<const Reason*> reason_order_;  // first-seen order, for stable output
  std::optional<int64_t> last_feedback_ms_;
  std::string scratch_;
};

void WriteJson(base::JsonWriter& w, const KpiResult& result);  // key `kpis`
// The windows as `kpis.windows` holds them: [{"from":"YYYY-MM-DD","to":...}], oldest first.
void WriteWindowsJson(base::JsonWriter& w, const KpiResult& result);
void WriteAlertsJson(base::JsonWriter& w, const KpiResult& result);  // key `alerts`

}  // namespace kaizen::learn
