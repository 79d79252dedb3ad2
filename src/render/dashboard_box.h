// `kaizen dashboard`: the KPI panel of seed 000 §7.1 as a box of text for a terminal, with the
// §7.3 alerts. Pure: the KPI rows, alerts and options in, text out (no I/O, no clock, no locale
// lookups: the caller decides color and UTF-8).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "learn/config_field.h"

namespace kaizen::render {

// Where each KPI should stand (seed 000 §7.2 "Target" column). Where the seed names a number it is
// used; where it names only a direction, the KPI is judged by its trend (see KpiStanding).
struct DashboardTargets {
  // §7.2 says only "↑ (asymptote at ~95%)": 85% and up is on target, 70% and up is fair
  // (our choice: most reviews approved, with room below the asymptote).
  double approval_good = 0.85;
  double approval_fair = 0.70;
  double quality_good = 8.0;      // §7.2 "target: 8.0+"
  double quality_fair = 6.5;      // our choice: between the §7.1 example's 6.2 start and 7.1
  double prediction_good = 0.5;   // §7.2 "target: ±0.5"
  double prediction_fair = 2.0;   // §7.3 warning "Prediction accuracy > ±2.0"
  double regression_fair = 0.10;  // §7.2 "target: 0"; under 10% of level checks is fair (ours)

  learn::ConfigFields Fields();
};

// One KPI as learn::KpiValue gives it (learn/kpis/kpis.h), keyed by its JSON name (approvalRate,
// ...).
struct DashboardKpi {
  std::string key;
  std::vector<std::optional<double>> values;  // oldest window first; nullopt: no data
  std::optional<std::string> trend;           // up | down | flat
  std::string better;                         // up | down
  std::vector<uint64_t> n;  // per window, what the value rests on; empty: not known
  uint64_t min_n = 0;       // below it the newest value is not judged (learn::KpiMinN)
};

struct DashboardAlert {
  std::string level;  // critical | warning | notice
  std::string condition;
  std::string message;
  std::string action;
};

struct DashboardData {
  std::string now;           // as shown, e.g. "2025-06-30T12:00:00.000Z"; "": no time known
  int64_t window_days = 30;  // the length of one KPI window
  uint64_t events = 0;       // events in the log
  std::vector<DashboardKpi> kpis;
  // seed 001's success metrics (the `signals` section), by calendar month, oldest first: keys
  // signalCoverage, revertRate, humanEditAfterAgentRate, ciPassRate, timeToCompletion,
  // meanRating. Shown below the KPIs; not part of the Overall Health.
  std::vector<DashboardKpi> signals;
  std::vector<DashboardAlert> alerts;
};

struct DashboardOptions {
  bool color = false;  // ANSI SGR colors
  bool utf8 = true;    // Unicode box drawing and arrows; else plain ASCII
  DashboardTargets targets;
};

// kInsufficient: a newest value below the KPI's minimum n, shown but not judged.
enum class Standing { kNone, kGood, kFair, kPoor, kInsufficient };
const char* StandingName(Standing s);  // "none" | "good" | "fair" | "poor" | "insufficient"

// How the KPI's newest value stands against its target: good (green), fair (yellow), poor (red).
// KPIs with no numeric target in the seed (time to decision, auto-approve rate, feedback volume)
// are good when the trend goes the better way or is flat, fair when it goes the other way.
// kInsufficient when the newest window's n is below min_n; kNone without a newest value (or,
// for trend-judged KPIs, without a trend).
Standing KpiStanding(const DashboardKpi& k, const DashboardTargets& t);
// The standing in words, agreeing with the value beside it: "good", "fair", "poor", "no data"
// (no value), "no trend yet" (a value, judged by a trend there is not yet), "not enough data
// (n = 3)".
std::string StandingText(const DashboardKpi& k, const DashboardTargets& t);

// §7.1's "Overall Health" (the seed gives no formula; ours): the share of KPIs with a standing
// that are good, a fair one counting half. nullopt when no KPI has a standing.
std::optional<double> OverallHealth(const std::vector<DashboardKpi>& kpis,
                                    const DashboardTargets& t);

std::string KpiLabel(std::string_view key);  // "Approval Rate"; unknown keys as given
// A value as the box prints it ("85.3%", "7.4", "62s", "±1.2", "3.5/wk", "+0.4"): scores and
// score points with one decimal, as seed 000 §7.1 writes them.
std::string FormatKpiValue(std::string_view key, double v, bool utf8);
std::string KpiTargetText(std::string_view key, const DashboardTargets& t, bool utf8);

// The box, 80 columns wide, every line ending in '\n'.
std::string RenderDashboardBox(const DashboardData& data, const DashboardOptions& options);

}  // namespace kaizen::render
