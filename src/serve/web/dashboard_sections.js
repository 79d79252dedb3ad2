// The dashboard's measured sections: the seed 000 §7.1 KPI panel (value now, target, standing,
// trend and a weekly chart per KPI, Overall Health), the §7.3 alerts, the §3.1 calibration plot
// and the approval rate by server type. The judgement of a KPI is dashboard_kpis.js's.
import { el } from './common.js';
import { barChart, calibrationPlot, lineChart } from './charts.js';
import { badge, num, pct, scrollTable, section, unavailable } from './dashboard_cards.js';
import {
  formatKpiValue,
  healthStanding,
  isNum,
  kpiLabel,
  kpiRows,
  kpiStanding,
  kpiTargetText,
  overallHealth,
} from './dashboard_kpis.js';

const STANDING_TEXT = { good: 'good', fair: 'fair', poor: 'poor', none: 'no data' };
const TREND = {
  up: { arrow: '↑', text: 'rising' },
  down: { arrow: '↓', text: 'falling' },
  flat: { arrow: '→', text: 'flat' },
};
// §7.3 levels, most severe first.
const ALERT_RANK = { critical: 0, warning: 1, notice: 2 };

function standingBadge(standing) {
  return el(
    'span',
    { class: `badge standing standing-${standing}`, 'data-standing': standing },
    STANDING_TEXT[standing],
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

export function kpiPanel(analysis, weekly) {
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

export function alertsSection(analysis) {
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

export function calibrationSection(analysis) {
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

export function approvalSection(analysis) {
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
