// The KPI panel's judgement, ported exactly from src/render/dashboard_box.{h,cc} (the terminal
// `kaizen dashboard`), so the web page shows the same values, targets, standings and Overall Health
// as the box: DashboardTargets (defaults), KpiStanding, OverallHealth, KpiLabel, FormatKpiValue,
// KpiTargetText. Change both together; tests/integration/test_web_dashboard.py compares them with
// `kaizen dashboard --json` (through dashboard.js, which re-exports this module). No DOM here.

// dashboard_box.h DashboardTargets: seed 000 §7.2 targets; where the seed names only a direction
// the KPI is judged by its trend. `kaizen dashboard` uses these defaults too (cli/dashboard.cc).
export const TARGETS = Object.freeze({
  approvalGood: 0.85,
  approvalFair: 0.7,
  qualityGood: 8.0, // §7.2 "target: 8.0+"
  qualityFair: 6.5,
  predictionGood: 0.5, // §7.2 "target: ±0.5"
  predictionFair: 2.0, // §7.3 "Prediction accuracy > ±2.0" warns
  regressionFair: 0.1, // §7.2 "target: 0"
});

const LABELS = {
  approvalRate: 'Approval Rate',
  avgQualityScore: 'Avg Quality Score',
  timeToDecisionSeconds: 'Time-to-Decision',
  predictionError: 'Prediction Accuracy',
  autoApproveRate: 'Auto-Approve Rate',
  feedbackPerWeek: 'Feedback Volume',
  ruleEffectiveness: 'Rule Effectiveness',
  regressionRate: 'Regression Rate',
};

export function kpiLabel(key) {
  return LABELS[key] || key;
}

// A finite number (the analysis JSON writes a missing value as null).
export const isNum = (v) => typeof v === 'number' && Number.isFinite(v);

// fmt's "{:.Nf}": the exact binary value rounded to N decimals, an exact tie to the even digit
// (Number#toFixed sends ties up: 0.125 -> "0.13" where fmt prints "0.12"), and the sign of a
// negative zero kept ("-0.0"). `plus`: "{:+.Nf}".
export function fixed(v, digits, plus = false) {
  const negative = v < 0 || Object.is(v, -0);
  const a = Math.abs(v);
  let text = a.toFixed(digits);
  const exact = a.toFixed(100); // every digit of a double of this size
  const point = exact.indexOf('.');
  const rest = exact.slice(point + 1 + digits);
  if (/^50*$/.test(rest)) {
    // An exact tie: keep the truncated digits when the last one is even.
    const truncated = exact.slice(0, digits === 0 ? point : point + 1 + digits);
    const last = Number(truncated[truncated.length - 1]);
    if (last % 2 === 0) text = truncated;
  }
  return (negative ? '-' : plus ? '+' : '') + text;
}

// dashboard_box.cc FormatKpiValue (UTF-8 spelling): "85.3%", "7.4", "62s", "±1.2", "3.5/wk",
// "+0.4": scores and score points with one decimal (seed 000 §7.1).
export function formatKpiValue(key, v) {
  if (RATES.has(key)) return `${fixed(v * 100, 1)}%`;
  if (key === 'avgQualityScore') return fixed(v, 1);
  if (key === 'timeToDecisionSeconds') return `${fixed(v, 0)}s`;
  if (key === 'predictionError') return `±${fixed(v, 1)}`;
  if (key === 'feedbackPerWeek') return `${fixed(v, 1)}/wk`;
  if (key === 'ruleEffectiveness') return fixed(v, 1, true);
  return fixed(v, 2);
}

// A score (1-10) or score points as every page writes them: one decimal; '–' when missing.
export function formatScore(v) {
  return isNum(v) ? fixed(v, 1) : '–';
}

const RATES = new Set(['approvalRate', 'autoApproveRate', 'regressionRate']);

// The y axis of a KPI's chart in the metric's own domain (charts.js lineChart options): a rate
// always 0-100%; a score within 1-10; a count, a time or an error never below 0; score points
// after - before within -9..9.
export function kpiDomain(key) {
  if (RATES.has(key)) return { yMin: 0, yMax: 1 };
  if (key === 'avgQualityScore') return { floor: 1, ceil: 10 };
  if (key === 'predictionError') return { floor: 0, ceil: 9 };
  if (key === 'ruleEffectiveness') return { floor: -9, ceil: 9 };
  return { floor: 0 };
}

// dashboard_box.cc KpiTargetText (UTF-8 spelling).
export function kpiTargetText(key, t = TARGETS) {
  if (key === 'approvalRate') return `≥ ${(t.approvalGood * 100).toFixed(0)}%`;
  if (key === 'avgQualityScore') return `≥ ${t.qualityGood.toFixed(1)}`;
  if (key === 'predictionError') return `≤ ±${t.predictionGood.toFixed(1)}`;
  if (key === 'ruleEffectiveness') return '> 0';
  if (key === 'regressionRate') return '= 0';
  if (key === 'timeToDecisionSeconds' || key === 'feedbackPerWeek') return '↓ falling';
  if (key === 'autoApproveRate') return '↑ rising';
  return '';
}

// dashboard_box.cc KpiStanding: 'good' | 'fair' | 'poor' | 'none' | 'insufficient'. `kpi` =
// {key, values, trend, better, n, minN} as the analysis JSON gives it.
export function kpiStanding(kpi, t = TARGETS) {
  const values = kpi.values || [];
  if (values.length === 0 || !isNum(values[values.length - 1])) return 'none';
  const n = kpi.n || [];
  if (n.length === values.length && n[n.length - 1] < (kpi.minN || 0)) return 'insufficient';
  const v = values[values.length - 1];
  const atLeast = (good, fair) => (v >= good ? 'good' : v >= fair ? 'fair' : 'poor');
  const atMost = (good, fair) => (v <= good ? 'good' : v <= fair ? 'fair' : 'poor');
  const eps = 1e-9;
  if (kpi.key === 'approvalRate') return atLeast(t.approvalGood, t.approvalFair);
  if (kpi.key === 'avgQualityScore') return atLeast(t.qualityGood, t.qualityFair);
  if (kpi.key === 'predictionError') return atMost(t.predictionGood, t.predictionFair);
  // §7.2 "rules actually help": a positive delta is good, none is fair, a negative one is poor.
  if (kpi.key === 'ruleEffectiveness') return atLeast(eps, -eps);
  if (kpi.key === 'regressionRate') {
    return v <= eps ? 'good' : v < t.regressionFair ? 'fair' : 'poor';
  }
  if (!kpi.trend) return 'none';
  return kpi.trend === 'flat' || kpi.trend === kpi.better ? 'good' : 'fair';
}

// dashboard_box.cc StandingText: the standing in words, agreeing with the value beside it.
export function standingText(kpi, t = TARGETS) {
  const s = kpiStanding(kpi, t);
  if (s === 'insufficient') return `not enough data (n = ${kpi.n[kpi.n.length - 1]})`;
  if (s !== 'none') return s;
  const values = kpi.values || [];
  return values.length && isNum(values[values.length - 1]) ? 'no trend yet' : 'no data';
}

// dashboard_box.cc OverallHealth: the share of KPIs with a standing that are good, a fair one
// counting half; null when no KPI has one. Returns {health, n}.
export function overallHealth(kpis, t = TARGETS) {
  let sum = 0;
  let n = 0;
  for (const k of kpis) {
    const s = kpiStanding(k, t);
    if (s === 'none' || s === 'insufficient') continue;
    sum += s === 'good' ? 1 : s === 'fair' ? 0.5 : 0;
    n += 1;
  }
  return { health: n === 0 ? null : sum / n, n };
}

// dashboard_box.cc RenderDashboardBox: the health bar's own color.
export function healthStanding(health) {
  if (health === null) return 'none';
  return health >= 0.75 ? 'good' : health >= 0.5 ? 'fair' : 'poor';
}

// The KPI rows from the analysis `kpis` object, as cli/dashboard.cc ReadDashboard reads them: an
// empty log (events.total == 0) shows every KPI as "no data" (a feedback volume of 0/wk "on
// target" would read as a healthy system).
export function kpiRows(kpisObject, eventsTotal) {
  const rows = [];
  for (const [key, value] of Object.entries(kpisObject || {})) {
    if (key === 'windows' || !value || typeof value !== 'object') continue;
    const empty = eventsTotal === 0;
    rows.push({
      key,
      values: empty ? (value.values || []).map(() => null) : (value.values || []).map((v) => (isNum(v) ? v : null)),
      trend: empty ? null : value.trend || null,
      better: value.better || '',
      unit: value.unit || '',
      n: empty ? [] : value.n || [],
      minN: value.minN || 0,
      nUnit: value.nUnit || '',
    });
  }
  return rows;
}
