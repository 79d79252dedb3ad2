// The dashboard's measured sections: the seed 000 §7.1 KPI panel (value now, target, standing,
// trend and a weekly chart per KPI, Overall Health), the §7.3 alerts, the §3.1 calibration plot
// and the approval rate by server type. The judgement of a KPI is dashboard_kpis.js's.
import { el } from './common.js';
import { barChart, calibrationPlot, lineChart } from './charts.js';
import { badge, pct, scrollTable, section, unavailable } from './dashboard_cards.js';
import {
  formatKpiValue,
  formatScore,
  healthStanding,
  isNum,
  kpiDomain,
  kpiLabel,
  kpiRows,
  kpiStanding,
  kpiTargetText,
  overallHealth,
  standingText,
} from './dashboard_kpis.js';

const STANDING_TEXT = { good: 'good', fair: 'fair', poor: 'poor', none: 'no data' };
const TREND = {
  up: { arrow: '↑', text: 'rising' },
  down: { arrow: '↓', text: 'falling' },
  flat: { arrow: '→', text: 'flat' },
};
// §7.3 levels, most severe first.
const ALERT_RANK = { critical: 0, warning: 1, notice: 2 };

// `text`: the words for a KPI's standing (standingText), so the badge never says "no data" beside
// a value; the health line's badge has only the standing.
function standingBadge(standing, text = STANDING_TEXT[standing]) {
  return el('span', { class: `badge standing standing-${standing}`, 'data-standing': standing }, text);
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

  // GET /v1/kpis?windowDays=<days>&stepDays=7 answers {now, windowDays, stepDays, kpis}: the same
  // KPI over the card's own window, rolled back a week at a time, so the chart's last point is
  // the value in the card (one window for both).
  const series = weekly && weekly.status === 200 && weekly.body ? weekly.body.kpis : null;
  const seriesWindows = series && Array.isArray(series.windows) ? series.windows : [];
  const sameWindow = series && days !== null && weekly.body.windowDays === days;
  const trs = rows.map((k) => {
    const cur = k.values.length ? k.values[k.values.length - 1] : null;
    const standing = kpiStanding(k);
    const tr = k.trend && TREND[k.trend] ? TREND[k.trend] : null;
    const history = k.values.map((v) => (v === null ? '–' : formatKpiValue(k.key, v))).join(' → ');
    const n = k.n.length ? k.n[k.n.length - 1] : null;
    let chart;
    if (sameWindow && series[k.key]) {
      // An empty log: "no data" every week, as for the values now (see kpiRows).
      const empty = !analysis.events || analysis.events.total === 0;
      const wv = (series[k.key].values || []).map((v) => (empty ? null : v));
      chart = lineChart({
        title: `${kpiLabel(k.key)}, ${days}-day window, week by week, last ${wv.length} weeks`,
        points: wv.map((v, i) => ({ label: windowLabel(seriesWindows[i]), value: isNum(v) ? v : null })),
        format: (v) => formatKpiValue(k.key, v),
        ...kpiDomain(k.key),
      });
    } else {
      chart = el('span', { class: 'muted' }, 'weekly series unavailable');
    }
    return el(
      'tr',
      { 'data-kpi': k.key, class: `kpi-row standing-${standing}` },
      el(
        'th',
        { scope: 'row' },
        kpiLabel(k.key),
        el('div', { class: 'muted small' }, k.unit),
        n === null ? '' : el('div', { class: 'muted small kpi-n' }, `n = ${n} ${k.nUnit}`.trim()),
      ),
      el('td', { class: 'kpi-now' }, cur === null ? 'no data' : formatKpiValue(k.key, cur)),
      el('td', { class: 'kpi-target' }, kpiTargetText(k.key)),
      el('td', { class: 'kpi-standing' }, standingBadge(standing, standingText(k))),
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
  const last = analysis.kpis && analysis.kpis.windows ? analysis.kpis.windows[analysis.kpis.windows.length - 1] : null;
  return section(
    'kpis',
    'Key performance indicators',
    healthLine,
    days
      ? el(
          'p',
          { class: 'muted kpi-window', id: 'kpi-window', 'data-window-days': String(days) },
          `Each value covers the last ${days} days (${last.from} to ${last.to}); each chart point is the same `,
          `${days}-day window ending on that week's last day, so a chart ends on its value. `,
          'The trend compares the last two windows; a value resting on fewer reviews than its minimum is shown but not judged.',
        )
      : '',
    scrollTable(
      'Key performance indicators',
      [
        'KPI',
        days ? `Now (last ${days} days)` : 'Now',
        'Target',
        'Standing',
        'Trend',
        days ? `${days}-day window, week by week` : 'Week by week',
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
      `Score prediction: mean |predicted − actual| ${formatScore(sp.meanAbsError)} score points over ${sp.n ?? 0}.`,
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
