// `#/dashboard`: seed 000 §7's dashboard in the browser. The §7.1 KPI panel (eight KPIs: value
// now, target, standing, trend, a three-month weekly chart each, Overall Health), the §7.3 alerts,
// the §3.1 calibration plot and approval by server type, §6.3 autonomy per task type, §8 rules,
// seed 002 pattern maturity with the anti-patterns, per-reviewer preferences, and seed 001's
// signals after review.
//
// Reads GET /v1/analysis, then /v1/kpis?windowDays=<its KPI window>&windows=13&stepDays=7 (the
// charts: each KPI's own window rolled back week by week), /v1/rules and /v1/reviewers; refreshes
// on the button and every 30 s, so a review submitted elsewhere shows up.
//
// The page is this file: the toolbar, loading the four endpoints, the refresh. Its parts:
// dashboard_kpis.js (the port of render/dashboard_box, re-exported here: the browser test imports
// it from /assets/dashboard.js), dashboard_sections.js (KPIs, alerts, calibration, approval),
// dashboard_learned.js (autonomy, rules, patterns, reviewers), dashboard_agreement.js (reviewer
// agreement), dashboard_cards.js (their cards).
import { api, announce, el } from './common.js';
import { agreementSection } from './dashboard_agreement.js';
import { unavailable } from './dashboard_cards.js';
import {
  autonomySection,
  patternsSection,
  reviewersSection,
  rulesSection,
  signalsSection,
} from './dashboard_learned.js';
import { alertsSection, approvalSection, calibrationSection, kpiPanel } from './dashboard_sections.js';

export {
  fixed,
  formatKpiValue,
  formatScore,
  kpiDomain,
  standingText,
  healthStanding,
  kpiLabel,
  kpiRows,
  kpiStanding,
  kpiTargetText,
  overallHealth,
  TARGETS,
} from './dashboard_kpis.js';

const REFRESH_MS = 30000;

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
      // The charts need the analysis's KPI window (the home's kpis.window_days) to use the same.
      const analysisThenSeries = get('/v1/analysis').then(async (a) => {
        const w = a.status === 200 && a.body.kpis && a.body.kpis.windows;
        const last = w && w[w.length - 1];
        const days = last ? Math.round((Date.parse(last.to) - Date.parse(last.from)) / 86400000) + 1 : 30;
        return [a, await get(`/v1/kpis?windowDays=${days}&windows=13&stepDays=7`)];
      });
      const [[analysis, weekly], rules, reviewers] = await Promise.all([
        analysisThenSeries,
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
          signalsSection(a),
          rulesSection(rules),
          patternsSection(a),
          reviewersSection(reviewers),
          agreementSection(a),
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
