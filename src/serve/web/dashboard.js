// `#/dashboard`: seed 000 §7's dashboard in the browser. The §7.1 KPI panel (eight KPIs: value
// now, target, standing, trend, a three-month weekly chart each, Overall Health), the §7.3 alerts,
// the §3.1 calibration plot and approval by server type, §6.3 autonomy per task type, §8 rules,
// seed 002 pattern maturity with the anti-patterns, and per-reviewer preferences.
//
// Reads GET /v1/analysis, /v1/kpis?windowDays=7&windows=13, /v1/rules and /v1/reviewers; refreshes
// on the button and every 30 s, so a review submitted elsewhere shows up.
import { api, announce, el } from './common.js';
import { barChart, calibrationPlot, lineChart } from './charts.js';

const REFRESH_MS = 30000;

// ---- the KPI panel's judgement ------------------------------------------------------------------
// Ported exactly from src/render/dashboard_box.{h,cc} (the terminal `kaizen dashboard`), so the web
// page shows the same values, targets, standings and Overall Health as the box: DashboardTargets
// (defaults), KpiStanding, OverallHealth, KpiLabel, FormatKpiValue, KpiTargetText. Change both
// together; tests/integration/test_web_dashboard.py compares them with `kaizen dashboard --json`.

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

const isNum = (v) => typeof v === 'number' && Number.isFinite(v);

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

// dashboard_box.cc FormatKpiValue (UTF-8 spelling): "85.3%", "7.4", "62s", "±1.20", "3.5/wk",
// "+0.40".
export function formatKpiValue(key, v) {
  if (key === 'approvalRate' || key === 'autoApproveRate' || key === 'regressionRate') {
    return `${fixed(v * 100, 1)}%`;
  }
  if (key === 'avgQualityScore') return fixed(v, 1);
  if (key === 'timeToDecisionSeconds') return `${fixed(v, 0)}s`;
  if (key === 'predictionError') return `±${fixed(v, 2)}`;
  if (key === 'feedbackPerWeek') return `${fixed(v, 1)}/wk`;
  if (key === 'ruleEffectiveness') return fixed(v, 2, true);
  return fixed(v, 2);
}

// dashboard_box.cc KpiTargetText (UTF-8 spelling).
export function kpiTargetText(key, t = TARGETS) {
  if (key === 'approvalRate') return `≥ ${(t.approvalGood * 100).toFixed(0)}%`;
  if (key === 'avgQualityScore') return `≥ ${t.qualityGood.toFixed(1)}`;
  if (key === 'predictionError') return `≤ ±${t.predictionGood.toFixed(2)}`;
  if (key === 'ruleEffectiveness') return '> 0';
  if (key === 'regressionRate') return '= 0';
  if (key === 'timeToDecisionSeconds' || key === 'feedbackPerWeek') return '↓ falling';
  if (key === 'autoApproveRate') return '↑ rising';
  return '';
}

// dashboard_box.cc KpiStanding: 'good' | 'fair' | 'poor' | 'none'. `kpi` = {key, values, trend,
// better} as the analysis JSON gives it.
export function kpiStanding(kpi, t = TARGETS) {
  const values = kpi.values || [];
  if (values.length === 0 || !isNum(values[values.length - 1])) return 'none';
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

// dashboard_box.cc OverallHealth: the share of KPIs with a standing that are good, a fair one
// counting half; null when no KPI has one. Returns {health, n}.
export function overallHealth(kpis, t = TARGETS) {
  let sum = 0;
  let n = 0;
  for (const k of kpis) {
    const s = kpiStanding(k, t);
    if (s === 'none') continue;
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
    });
  }
  return rows;
}

// ---- page helpers -------------------------------------------------------------------------------

const STANDING_TEXT = { good: 'good', fair: 'fair', poor: 'poor', none: 'no data' };
const TREND = {
  up: { arrow: '↑', text: 'rising' },
  down: { arrow: '↓', text: 'falling' },
  flat: { arrow: '→', text: 'flat' },
};
// §7.3 levels, most severe first.
const ALERT_RANK = { critical: 0, warning: 1, notice: 2 };
// seed 000 §6.3 "Diminishing Review System": each level's name and what it means.
const AUTONOMY_LEVELS = [
  'Level 0 — new task type: review 100%',
  'Level 1 — review 80%, spot-check 20%',
  'Level 2 — review 50%, auto-approve simple ones',
  'Level 3 — review 20%, auto-approve standard patterns',
  'Level 4 — review 5%, audit-only mode',
];
// seed 002 "Pattern Maturity": the states in their order and the multipliers the seed gives;
// the learner's own multiplier is shown when a pattern in that state carries one.
const MATURITY = [
  { state: 'candidate', multiplier: 0.5 },
  { state: 'established', multiplier: 1.0 },
  { state: 'proven', multiplier: 1.5 },
  { state: 'deprecated', multiplier: 0 },
];

const pct = (v, d = 1) => (isNum(v) ? `${(v * 100).toFixed(d)}%` : '–');
const num = (v, d = 2) => (isNum(v) ? v.toFixed(d) : '–');

function badge(kind, text, extraClass = '') {
  return el('span', { class: `badge ${kind} ${extraClass}`.trim() }, text);
}

function standingBadge(standing) {
  return el(
    'span',
    { class: `badge standing standing-${standing}`, 'data-standing': standing },
    STANDING_TEXT[standing],
  );
}

function section(id, title, ...children) {
  return el(
    'section',
    { class: 'card dash-section', id: `dash-${id}`, 'aria-labelledby': `dash-${id}-h` },
    el('h2', { id: `dash-${id}-h` }, title),
    ...children,
  );
}

function unavailable(what, res) {
  const why =
    res && res.body && res.body.error
      ? `${res.status}: ${res.body.error.message}`
      : res
        ? `HTTP ${res.status}`
        : 'no answer';
  return el('p', { class: 'dash-error', role: 'alert' }, `${what} could not be loaded (${why}).`);
}

// A wide table in a scrolling region the keyboard can reach (a focusable, named region).
function scrollTable(label, headers, rows, attrs = {}) {
  return el(
    'div',
    { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': label },
    el(
      'table',
      { class: 'dash-table', ...attrs },
      el('thead', {}, el('tr', {}, ...headers.map((h) => el('th', { scope: 'col' }, h)))),
      el('tbody', {}, ...rows),
    ),
  );
}

function windowLabel(w) {
  return w && w.to ? w.to : '';
}

function windowDays(windows) {
  const w = windows && windows[windows.length - 1];
  if (!w || !w.from || !w.to) return null;
  return Math.round((Date.parse(`${w.to}T00:00:00Z`) - Date.parse(`${w.from}T00:00:00Z`)) / 86400000) + 1;
}

// ---- sections -----------------------------------------------------------------------------------

function kpiPanel(analysis, weekly) {
  const rows = kpiRows(analysis.kpis, analysis.events ? analysis.events.total : 0);
  const days = windowDays(analysis.kpis && analysis.kpis.windows);
  const { health, n } = overallHealth(rows);
  const hs = healthStanding(health);
  const meter = el('span', { class: `health-bar standing-${hs}`, 'aria-hidden': 'true' });
  const fill = el('span', { class: 'health-fill' });
  if (health !== null) fill.style.width = `${(health * 100).toFixed(0)}%`;
  meter.append(fill);
  const healthLine = el(
    'p',
    { class: 'health', id: 'overall-health', 'data-health': health === null ? '' : String(health) },
    el('strong', {}, 'Overall Health '),
    meter,
    ' ',
    el(
      'span',
      { class: 'health-text' },
      health === null ? 'no data' : `${(health * 100).toFixed(0)}% on target (${n} KPIs with data)`,
    ),
    ' ',
    standingBadge(hs),
  );

  // GET /v1/kpis answers {now, windowDays, kpis: <the analysis `kpis` shape>}.
  const weeklyKpis = weekly && weekly.status === 200 && weekly.body ? weekly.body.kpis : null;
  const weeks = weeklyKpis && Array.isArray(weeklyKpis.windows) ? weeklyKpis.windows : [];
  const trs = rows.map((k) => {
    const cur = k.values.length ? k.values[k.values.length - 1] : null;
    const standing = kpiStanding(k);
    const tr = k.trend && TREND[k.trend] ? TREND[k.trend] : null;
    const history = k.values.map((v) => (v === null ? '–' : formatKpiValue(k.key, v))).join(' → ');
    let chart;
    if (weeklyKpis && weeklyKpis[k.key]) {
      // An empty log: "no data" every week, as for the values now (see kpiRows).
      const empty = !analysis.events || analysis.events.total === 0;
      const wv = (weeklyKpis[k.key].values || []).map((v) => (empty ? null : v));
      chart = lineChart({
        title: `${kpiLabel(k.key)}, weekly, last ${wv.length} weeks`,
        points: wv.map((v, i) => ({ label: windowLabel(weeks[i]), value: isNum(v) ? v : null })),
        format: (v) => formatKpiValue(k.key, v),
      });
    } else {
      chart = el('span', { class: 'muted' }, 'weekly series unavailable');
    }
    return el(
      'tr',
      { 'data-kpi': k.key, class: `kpi-row standing-${standing}` },
      el('th', { scope: 'row' }, kpiLabel(k.key), el('div', { class: 'muted small' }, k.unit)),
      el('td', { class: 'kpi-now' }, cur === null ? 'no data' : formatKpiValue(k.key, cur)),
      el('td', { class: 'kpi-target' }, kpiTargetText(k.key)),
      el('td', { class: 'kpi-standing' }, standingBadge(standing)),
      el(
        'td',
        { class: 'kpi-trend', 'data-trend': k.trend || '' },
        tr ? el('span', { 'aria-hidden': 'true', class: 'arrow' }, tr.arrow) : '',
        tr ? ` ${tr.text}` : 'no trend',
        el('div', { class: 'muted small' }, history),
      ),
      el('td', { class: 'kpi-chart' }, chart),
    );
  });
  return section(
    'kpis',
    'Key performance indicators',
    healthLine,
    scrollTable(
      'Key performance indicators',
      [
        'KPI',
        days ? `Now (last ${days} days)` : 'Now',
        'Target',
        'Standing',
        'Trend',
        `Weekly, last ${weeks.length || 13} weeks`,
      ],
      trs,
      { id: 'kpi-table' },
    ),
    weekly && weekly.status !== 200 ? unavailable('The weekly KPI series', weekly) : '',
  );
}

function alertsSection(analysis) {
  const alerts = [...(analysis.alerts || [])]
    .map((a, i) => ({ a, i }))
    .sort((x, y) => (ALERT_RANK[x.a.level] ?? 3) - (ALERT_RANK[y.a.level] ?? 3) || x.i - y.i)
    .map(({ a }) => a);
  const body =
    alerts.length === 0
      ? el('p', { class: 'no-alerts' }, 'No alerts.')
      : el(
          'ul',
          { class: 'alerts' },
          ...alerts.map((a) =>
            el(
              'li',
              { class: `alert alert-${a.level}`, 'data-level': a.level, 'data-condition': a.condition || '' },
              badge(`level-${a.level}`, a.level),
              ' ',
              el('span', { class: 'alert-message' }, a.message || ''),
              el('div', { class: 'alert-action' }, `Action: ${a.action || ''}`),
            ),
          ),
        );
  return section('alerts', 'Alerts', body);
}

function calibrationSection(analysis) {
  const c = analysis.calibration || {};
  const buckets = c.buckets || [];
  const sp = c.scorePrediction || {};
  return section(
    'calibration',
    'Confidence calibration',
    el(
      'p',
      {},
      `Expected calibration error (ECE): ${pct(c.ece)} over ${c.n ?? 0} decided reviews. `,
      `Score prediction: mean |predicted − actual| ${num(sp.meanAbsError)} over ${sp.n ?? 0}.`,
    ),
    calibrationPlot({ title: 'Predicted confidence against actual approval, per bucket', buckets }),
    el('p', { class: 'muted small' }, 'Points on the diagonal are perfectly calibrated; below it, the agent was overconfident.'),
  );
}

function approvalSection(analysis) {
  const ap = analysis.approval || {};
  const decided = (s) => (s ? s.total - (s.deferred || 0) : 0);
  const o = ap.overall || {};
  const bars = Object.entries(ap.byServerType || {}).map(([type, s]) => ({
    label: type,
    value: isNum(s.rate) ? s.rate : null,
    detail: `n = ${decided(s)}`,
  }));
  return section(
    'approval',
    'Approval by server type',
    el(
      'p',
      { id: 'approval-overall', 'data-approved': String(o.approved ?? 0), 'data-decided': String(decided(o)) },
      `Overall: ${pct(o.rate)} approved — ${o.approved ?? 0} of ${decided(o)} decided reviews `,
      `(${o.rejected ?? 0} rejected, ${o.needsWork ?? 0} needs work, ${o.deferred ?? 0} deferred).`,
    ),
    bars.length ? barChart({ title: 'Approval rate by server type', bars }) : el('p', {}, 'No decided reviews yet.'),
  );
}

function autonomySection(analysis) {
  const rows = Object.entries(analysis.autonomy || {}).map(([type, a]) =>
    el(
      'tr',
      { 'data-task-type': type },
      el('th', { scope: 'row' }, type),
      el('td', {}, AUTONOMY_LEVELS[a.level] || `Level ${a.level}`),
      el('td', {}, pct(a.reviewRate, 0)),
      el('td', {}, a.class || ''),
      el('td', {}, `${a.approvals} of ${a.total}`),
      el('td', {}, pct(a.rate)),
      el('td', {}, pct(a.recentRate, 0)),
      el('td', {}, a.regressed ? badge('regressed', 'regressed') : 'no'),
    ),
  );
  return section(
    'autonomy',
    'Autonomy per task type',
    rows.length
      ? scrollTable(
          'Autonomy per task type',
          ['Task type', 'Level', 'Review rate', 'Class', 'Approvals', 'Approval rate', 'Last 5', 'Regressed'],
          rows,
        )
      : el('p', {}, 'No task type reviewed yet.'),
  );
}

function rulesSection(rules) {
  if (!rules || rules.status !== 200) return section('rules', 'Learned rules', unavailable('The rules', rules));
  const all = rules.body.rules || [];
  const active = all.filter((r) => r.status === 'active');
  const due = active.filter((r) => r.auditDue).length;
  const rows = active.map((r) =>
    el(
      'tr',
      { 'data-rule': r.id },
      el('th', { scope: 'row' }, r.rule),
      el('td', {}, pct(r.confidence)),
      el('td', {}, isNum(r.effectiveness) ? `${r.effectiveness >= 0 ? '+' : ''}${r.effectiveness.toFixed(2)}` : '–'),
      el('td', {}, r.status, r.confirmed ? ' (confirmed)' : ''),
      el('td', {}, r.auditDue ? badge('due', 'audit due') : 'not due'),
    ),
  );
  const counts = {};
  for (const r of all) counts[r.status] = (counts[r.status] || 0) + 1;
  return section(
    'rules',
    'Active rules',
    el(
      'p',
      {},
      `${active.length} active (${due} due for the monthly “still accurate?” audit), `,
      `${counts.candidate || 0} candidates, ${counts.retired || 0} retired. `,
      el('a', { href: '#/audit' }, 'Open the rule audit'),
    ),
    rows.length
      ? scrollTable('Active rules', ['Rule', 'Confidence', 'Effectiveness (score points)', 'Status', 'Audit'], rows)
      : el('p', {}, 'No active rule yet.'),
  );
}

function patternsSection(analysis) {
  const patterns = analysis.patterns || [];
  const anti = analysis.antiPatterns || [];
  const summary = MATURITY.map(({ state, multiplier }) => {
    const of = patterns.filter((p) => p.state === state);
    const m = of.length && isNum(of[0].multiplier) ? of[0].multiplier : multiplier;
    return el('li', { 'data-state': state }, el('strong', {}, state), `: ${of.length} (×${m.toFixed(1)})`);
  });
  const rows = patterns.map((p) =>
    el(
      'tr',
      {},
      el('th', { scope: 'row' }, p.content),
      el('td', {}, p.state),
      el('td', {}, `×${num(p.multiplier, 1)}`),
      el('td', {}, String(p.successCount ?? 0)),
      el('td', {}, String(p.failureCount ?? 0)),
    ),
  );
  return section(
    'patterns',
    'Pattern maturity',
    el('ul', { class: 'maturity' }, ...summary),
    rows.length
      ? scrollTable('Patterns', ['Pattern', 'State', 'Multiplier', 'Successes', 'Failures'], rows)
      : el('p', {}, 'No pattern observed yet.'),
    el('h3', {}, 'Anti-patterns'),
    anti.length
      ? el(
          'ul',
          { class: 'anti-patterns' },
          ...anti.map((a) =>
            el('li', {}, el('strong', {}, a.pattern || a.content), ` — failed ${a.failureCount} of ${(a.failureCount || 0) + (a.successCount || 0)} (${pct(a.failureRate, 0)})`),
          ),
        )
      : el('p', {}, 'No anti-pattern.'),
  );
}

// Per-reviewer preferences (GET /v1/reviewers, learn/reviewer_profiles_json.cc).
function reviewersSection(reviewers) {
  if (!reviewers || reviewers.status !== 200) {
    return section('reviewers', 'Reviewer preferences', unavailable('The reviewer preferences', reviewers));
  }
  const list = reviewers.body.reviewers || [];
  const themes = (v) => (Array.isArray(v) && v.length ? v.slice(0, 3).map((t) => t.theme).join(', ') : '–');
  const tasks = (v) => (Array.isArray(v) && v.length ? v.map((t) => t.taskType).join(', ') : '–');
  const rows = list.map((r) =>
    el(
      'tr',
      { 'data-reviewer': r.reviewerId },
      el('th', { scope: 'row' }, r.reviewerId),
      el('td', {}, String(r.reviews ?? 0)),
      el('td', {}, pct(r.approvalRate)),
      el('td', {}, r.bestFormat || '–'),
      el(
        'td',
        {},
        Array.isArray(r.bestWindows) && r.bestWindows.length ? r.bestWindows.join(', ') : '–',
        r.worstWindow ? ` (worst: ${r.worstWindow})` : '',
      ),
      el('td', {}, themes(r.praised)),
      el('td', {}, themes(r.criticized)),
      el('td', {}, tasks(r.approvesQuickly)),
      el('td', {}, tasks(r.alwaysRejects)),
    ),
  );
  return section(
    'reviewers',
    'Reviewer preferences',
    rows.length
      ? scrollTable(
          'Reviewer preferences',
          [
            'Reviewer',
            'Reviews',
            'Approval rate',
            'Best format',
            'Best windows',
            'Praises most',
            'Criticizes most',
            'Approves quickly',
            'Always rejects',
          ],
          rows,
        )
      : el('p', {}, 'No reviewer yet.'),
  );
}

// ---- the page -----------------------------------------------------------------------------------

export function mount(main, _route) {
  const updated = el('span', { id: 'dash-updated', class: 'muted' }, 'loading…');
  const refresh = el('button', { type: 'button', id: 'dash-refresh' }, 'Refresh');
  const auto = el('input', { type: 'checkbox', id: 'dash-auto' });
  auto.checked = true;
  const content = el('div', { id: 'dash-content', 'aria-busy': 'true' });
  main.replaceChildren(
    el(
      'div',
      { class: 'dashboard' },
      el(
        'div',
        { class: 'dash-toolbar' },
        el('h1', {}, 'Dashboard'),
        refresh,
        el('label', { for: 'dash-auto', class: 'auto-label' }, auto, ' Auto-refresh every 30 s'),
        updated,
      ),
      content,
    ),
  );

  let loading = null;
  let stopped = false;
  async function load(manual) {
    if (loading) return loading;
    content.setAttribute('aria-busy', 'true');
    loading = (async () => {
      const get = (path) => api.get(path).catch((e) => ({ status: 0, body: { error: { message: String(e) } } }));
      const [analysis, weekly, rules, reviewers] = await Promise.all([
        get('/v1/analysis'),
        get('/v1/kpis?windowDays=7&windows=13'),
        get('/v1/rules'),
        get('/v1/reviewers'),
      ]);
      if (stopped) return;
      // Keep the keyboard where it was: a refresh rebuilds the sections, so find the focused
      // region or link again by its name.
      const focused = content.contains(document.activeElement) ? document.activeElement : null;
      const focusKey = focused && (focused.getAttribute('aria-label') || focused.getAttribute('href'));
      if (analysis.status !== 200) {
        content.replaceChildren(unavailable('The analysis', analysis));
      } else {
        const a = analysis.body;
        content.replaceChildren(
          kpiPanel(a, weekly),
          alertsSection(a),
          el('div', { class: 'dash-grid' }, calibrationSection(a), approvalSection(a)),
          autonomySection(a),
          rulesSection(rules),
          patternsSection(a),
          reviewersSection(reviewers),
        );
      }
      if (focusKey) {
        const again = [...content.querySelectorAll('[aria-label], a[href]')].find(
          (e) => e.getAttribute('aria-label') === focusKey || e.getAttribute('href') === focusKey,
        );
        if (again) again.focus({ preventScroll: true });
      }
      const at = new Date();
      updated.textContent = `Updated at ${at.toLocaleTimeString()}${
        analysis.status !== 200
          ? ''
          : analysis.body.events && analysis.body.events.total > 0
            ? ` · data as of ${analysis.body.now}`
            : ' · no events yet'
      }`;
      updated.setAttribute('data-updated', at.toISOString());
      content.setAttribute('aria-busy', 'false');
      if (manual) announce('Dashboard updated');
    })().finally(() => {
      loading = null;
    });
    return loading;
  }

  refresh.addEventListener('click', () => load(true));
  const timer = setInterval(() => {
    if (auto.checked && !document.hidden) load(false);
  }, REFRESH_MS);
  load(false);
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}
