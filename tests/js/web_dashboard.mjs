// Drives the dashboard (#/dashboard) and the rule audit (#/audit) of a running `kaizen serve` in
// Debian's Chromium, as a person would, and prints what it saw as one JSON object on stdout (the
// Python side, tests/integration/test_web_dashboard.py, asserts on it and on the log).
//   node web_dashboard.mjs <base-url> <token> <screenshot-dir> <plan.json>
// plan.json: {"reviewer": name, "feedback": a FeedbackEvent to POST, "ruleId": a rule to confirm
// with the mouse, "patternId": a correction pattern to retire with the keyboard, "otherRuleId": a
// rule whose audit is tried without the token (must show the 401)}.
// Then every page (dashboard, audit, queue, the review modal) at 390 px and 1280 px wide: what is
// wider than the screen, the console, screenshots; and /favicon.ico.
import { readFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { auditA11y } from './a11y.mjs';

const [base, token, shots, planPath] = process.argv.slice(2);
const plan = JSON.parse(readFileSync(planPath, 'utf8'));
mkdirSync(shots, { recursive: true });

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  headless: true,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
const facts = { pageErrors: [], consoleErrors: [], expectedErrors: [], timings: {} };
const t0 = Date.now();
const mark = (what) => {
  facts.timings[what] = Date.now() - t0; // ms since start, to see where a slow run spends its time
};
let expecting401 = false; // the one refused request the test provokes on purpose
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.setDefaultTimeout(10000);
  page.on('pageerror', (e) => facts.pageErrors.push(e.message));
  page.on('console', (m) => {
    if (m.type() !== 'error') return;
    (expecting401 && /401/.test(m.text()) ? facts.expectedErrors : facts.consoleErrors).push(
      `${m.text()} (${m.location().url || '?'})`,
    );
  });
  await page.addInitScript((name) => localStorage.setItem('kaizen.reviewer', name), plan.reviewer);

  // Sign in through the address bar once, then open the dashboard from the nav, as a person would.
  await page.goto(`${base}/#token=${encodeURIComponent(token)}`);
  await page.click('nav a[href="#/dashboard"]');
  await page.waitForSelector('#dash-content[aria-busy="false"] #kpi-table');

  const readDashboard = () =>
    page.evaluate(() => {
      const text = (e) => (e ? e.textContent.trim().replace(/\s+/g, ' ') : null);
      const kpis = [...document.querySelectorAll('#kpi-table tbody tr[data-kpi]')].map((tr) => ({
        key: tr.dataset.kpi,
        now: text(tr.querySelector('.kpi-now')),
        target: text(tr.querySelector('.kpi-target')),
        standing: tr.querySelector('.kpi-standing [data-standing]').dataset.standing,
        standingText: text(tr.querySelector('.kpi-standing')),
        trend: tr.querySelector('.kpi-trend').dataset.trend,
        points: tr.querySelectorAll('.kpi-chart svg circle.pt').length,
        segments: tr.querySelectorAll('.kpi-chart svg path.series').length,
        svgName: tr.querySelector('.kpi-chart svg')?.getAttribute('aria-label') || null,
        yMin: Number(tr.querySelector('.kpi-chart svg')?.getAttribute('data-y-min')),
        yMax: Number(tr.querySelector('.kpi-chart svg')?.getAttribute('data-y-max')),
        ticks: [...tr.querySelectorAll('.kpi-chart svg text.tick')].map((t) => t.textContent),
        nText: text(tr.querySelector('.kpi-n')),
        tableRows: [...tr.querySelectorAll('.kpi-chart table tbody tr')].map((r) =>
          [...r.cells].map((c) => c.textContent),
        ),
      }));
      const health = document.querySelector('#overall-health');
      return {
        updated: document.querySelector('#dash-updated').dataset.updated,
        health: text(health.querySelector('.health-text')),
        healthStanding: health.querySelector('[data-standing]').dataset.standing,
        kpis,
        alerts: [...document.querySelectorAll('#dash-alerts li.alert')].map((li) => ({
          level: li.dataset.level,
          message: text(li.querySelector('.alert-message')),
          action: text(li.querySelector('.alert-action')),
        })),
        noAlerts: !!document.querySelector('#dash-alerts .no-alerts'),
        calibrationPoints: document.querySelectorAll('#dash-calibration svg circle.pt').length,
        calibrationText: text(document.querySelector('#dash-calibration p')),
        diagonal: document.querySelectorAll('#dash-calibration svg line.diagonal').length,
        bars: [...document.querySelectorAll('#dash-approval svg text.label')]
          .map((t) => t.textContent)
          .filter((_, i) => i % 2 === 0),
        barRects: document.querySelectorAll('#dash-approval svg rect.bar').length,
        approved: Number(document.querySelector('#approval-overall').dataset.approved),
        decided: Number(document.querySelector('#approval-overall').dataset.decided),
        autonomy: [...document.querySelectorAll('#dash-autonomy tr[data-task-type]')].map((tr) => ({
          taskType: tr.dataset.taskType,
          level: tr.cells[1].textContent,
          regressed: tr.cells[7].textContent,
        })),
        kpiWindow: text(document.querySelector('#kpi-window')),
        ruleEffectiveness: [...document.querySelectorAll('#dash-rules tr[data-rule]')].map((tr) => tr.cells[2].textContent),
        rules: [...document.querySelectorAll('#dash-rules tr[data-rule]')].map((tr) => tr.dataset.rule),
        signals: [...document.querySelectorAll('#dash-signals tr[data-signal]')].map((tr) => ({
          key: tr.dataset.signal,
          value: tr.querySelector('.signal-value').textContent,
          cells: tr.cells.length,
        })),
        maturity: Object.fromEntries(
          [...document.querySelectorAll('#dash-patterns .maturity li')].map((li) => [li.dataset.state, li.textContent]),
        ),
        antiPatterns: document.querySelectorAll('#dash-patterns .anti-patterns li').length,
        reviewers: [...document.querySelectorAll('#dash-reviewers tr[data-reviewer]')].map((tr) => tr.dataset.reviewer),
        agreement: [...document.querySelectorAll('#agreement-table tbody tr[data-agreement]')].map((tr) => [
          tr.dataset.agreement,
          tr.dataset.alpha,
          tr.querySelector('.alpha').textContent,
        ]),
        errors: [...document.querySelectorAll('#dash-content .dash-error')].map((e) => e.textContent),
      };
    });

  facts.before = await readDashboard();
  // The page's port of dashboard_box.cc, run in the page on the cases of dashboard_box_test.cc
  // StandingAgainstTargets (the Python side holds the C++ test's expectations).
  facts.port = await page.evaluate(async (cases) => {
    const m = await import('/assets/dashboard.js');
    return {
      standings: cases.map(([key, v, trend, better]) => m.kpiStanding({ key, values: [v], trend, better })),
      onlyNewest: m.kpiStanding({ key: 'approvalRate', values: [0.9, null], trend: null, better: 'up' }),
      health: m.overallHealth([
        { key: 'approvalRate', values: [0.9] },
        { key: 'avgQualityScore', values: [7.0] },
        { key: 'regressionRate', values: [0.5] },
        { key: 'feedbackPerWeek', values: [3], trend: null, better: 'down' },
      ]),
      formats: [
        m.formatKpiValue('approvalRate', 0.89),
        m.formatKpiValue('avgQualityScore', 7.6),
        m.formatKpiValue('predictionError', 2.5),
        m.formatKpiValue('feedbackPerWeek', 50),
        m.formatKpiValue('timeToDecisionSeconds', 62.4),
        m.formatKpiValue('ruleEffectiveness', 0.4),
        m.formatKpiValue('ruleEffectiveness', -0.4),
        // exact ties round to even and a negative zero keeps its sign, as fmt prints them
        m.formatKpiValue('timeToDecisionSeconds', 2.5),
        m.formatKpiValue('predictionError', 0.25),
        m.formatKpiValue('ruleEffectiveness', -0),
        // a predicted score as the agent wrote it
        m.formatScore(6.616733),
        m.formatKpiValue('avgQualityScore', 6.616733),
      ],
      // dashboard_box_test.cc BelowItsMinimumNAKpiSaysNotEnoughDataInsteadOfAVerdict
      thin: (() => {
        const thin = { key: 'ruleEffectiveness', values: [null, 0.4], trend: null, better: 'up', n: [0, 1], minN: 7 };
        return {
          standing: m.kpiStanding(thin),
          text: m.standingText(thin),
          enough: m.kpiStanding({ ...thin, n: [0, 7] }),
          noTrend: m.standingText({ key: 'timeToDecisionSeconds', values: [60], trend: null, better: 'down' }),
          noData: m.standingText({ key: 'timeToDecisionSeconds', values: [null], trend: null, better: 'down' }),
        };
      })(),
      // A rate that is 0 every week: the axis stays 0-100% (it ran -100% to 100%).
      zeroRateAxis: await (async () => {
        const charts = await import('/assets/charts.js');
        const fig = charts.lineChart({
          title: 'zero rate',
          points: [{ label: 'a', value: 0 }, { label: 'b', value: 0 }],
          format: (v) => m.formatKpiValue('autoApproveRate', v),
          ...m.kpiDomain('autoApproveRate'),
        });
        const svg = fig.querySelector('svg');
        return {
          yMin: Number(svg.getAttribute('data-y-min')),
          yMax: Number(svg.getAttribute('data-y-max')),
          ticks: [...svg.querySelectorAll('text.tick')].map((t) => t.textContent),
        };
      })(),
      // One time-to-decision value: padded around it, never below 0 s.
      oneTimeAxisMin: await (async () => {
        const charts = await import('/assets/charts.js');
        const fig = charts.lineChart({
          title: 'one time',
          points: [{ label: 'a', value: 0 }],
          format: (v) => m.formatKpiValue('timeToDecisionSeconds', v),
          ...m.kpiDomain('timeToDecisionSeconds'),
        });
        return Number(fig.querySelector('svg').getAttribute('data-y-min'));
      })(),
      autonomy: await (async () => {
        const l = await import('/assets/dashboard_learned.js');
        return [
          l.autonomyLabel({ level: 0, regressed: true, regressedFrom: 1, class: 'standard' }),
          l.autonomyLabel({ level: 0, regressed: false, regressedFrom: null, class: 'escalate' }),
          l.autonomyLabel({ level: 0, regressed: false, regressedFrom: null, class: 'deep' }),
          l.autonomyLabel({ level: 2, regressed: true, regressedFrom: 3, class: 'quick' }),
          l.autonomyLabel({ level: 3, regressed: false, regressedFrom: null, class: 'quick' }),
        ];
      })(),
    };
  }, plan.standingCases);
  mark('dashboard');
  await page.screenshot({ path: path.join(shots, 'dashboard.png'), fullPage: true });
  facts.dashboardA11y = await auditA11y(page);
  mark('dashboardA11y');

  // A new review arrives through the API; the Refresh button shows it.
  const posted = await fetch(`${base}/v1/feedback`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: JSON.stringify(plan.feedback),
  });
  facts.feedbackStatus = posted.status;
  facts.feedbackBody = await posted.json();
  const volume = (f) => f.kpis.find((k) => k.key === 'feedbackPerWeek').now;
  await page.click('#dash-refresh');
  await page.waitForFunction(
    (old) => {
      const tr = document.querySelector('#kpi-table tr[data-kpi="feedbackPerWeek"] .kpi-now');
      return document.querySelector('#dash-content[aria-busy="false"]') && tr && tr.textContent.trim() !== old;
    },
    volume(facts.before),
  );
  facts.after = await readDashboard();
  mark('refreshed');
  facts.statusAfterRefresh = await page.textContent('#status');

  // The rule audit, from the nav.
  await page.click('nav a[href="#/audit"]');
  const card = (kind, id) => `#audit-content article[data-kind="${kind}"][data-id="${id}"]`;
  await page.waitForSelector(card('rule', plan.ruleId));
  facts.auditOrder = await page.evaluate(() =>
    [...document.querySelectorAll('#audit-rules article')].map((a) => ({
      id: a.dataset.id,
      due: a.classList.contains('due'),
      status: a.dataset.status,
    })),
  );
  facts.ruleStatusBefore = await page.getAttribute(card('rule', plan.ruleId), 'data-status');

  // Confirm one rule with the mouse.
  await page.click(`${card('rule', plan.ruleId)} textarea`);
  await page.keyboard.type('still accurate: seen again this month');
  await page.click(`${card('rule', plan.ruleId)} button.audit-confirm`);
  await page.waitForSelector(`${card('rule', plan.ruleId)}[data-status="active (confirmed)"]`);
  facts.ruleStatusAfter = await page.getAttribute(card('rule', plan.ruleId), 'data-status');
  mark('confirmed');
  facts.ruleLastAudits = await page.textContent(card('rule', plan.ruleId) + ' dl');
  facts.focusAfterConfirm = await page.evaluate(() => document.activeElement?.tagName || null);

  // Retire one correction pattern with the keyboard: in its note field, type, Tab, Tab, Enter.
  facts.patternStatusBefore = await page.getAttribute(card('correction', plan.patternId), 'data-status');
  await page.focus(`${card('correction', plan.patternId)} textarea`);
  await page.keyboard.type('no longer what reviewers want');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  facts.keyboardOn = await page.evaluate(() => document.activeElement?.textContent || null);
  await page.keyboard.press('Enter');
  await page.waitForSelector(`${card('correction', plan.patternId)}[data-status="rejected"]`);
  facts.patternStatusAfter = await page.getAttribute(card('correction', plan.patternId), 'data-status');
  await page.waitForFunction(() => /retired/.test(document.querySelector('#status')?.textContent || ''));
  facts.statusAfterRetire = await page.textContent('#status');
  mark('retired');

  // Without the token the audit is refused (401) and the page says so next to the buttons.
  await page.evaluate(() => sessionStorage.removeItem('kaizen.token'));
  expecting401 = true;
  await page.click(`${card('rule', plan.otherRuleId)} button.audit-confirm`);
  await page.waitForFunction(
    (sel) => (document.querySelector(sel)?.textContent || '').length > 0,
    `${card('rule', plan.otherRuleId)} .audit-error`,
  );
  facts.unauthorizedError = await page.textContent(`${card('rule', plan.otherRuleId)} .audit-error`);
  facts.otherRuleStatus = await page.getAttribute(card('rule', plan.otherRuleId), 'data-status');
  expecting401 = false;
  await page.evaluate((t) => sessionStorage.setItem('kaizen.token', t), token);
  // The sign-in form the 401 opened is part of the page now; close it for the audit and shots.
  await page.evaluate(() => {
    const form = document.getElementById('token-form');
    if (form) form.hidden = true;
  });

  await page.screenshot({ path: path.join(shots, 'audit.png'), fullPage: false });
  facts.auditA11y = await auditA11y(page, { maxTabs: 60 });
  mark('auditA11y');

  // The checker itself finds what it should: a page with one fault of each kind.
  const bad = await browser.newPage();
  await bad.setContent(`<!doctype html><html lang="en"><body>
    <a href="#top">First</a>
    <button type="button"></button>
    <input id="q" type="text">
    <div tabindex="2">jumps the queue</div>
    <p style="color:#aaaaaa;background:#ffffff">pale text</p>
    <svg role="img" width="10" height="10"><rect width="10" height="10"/></svg>
  </body></html>`);
  facts.a11ySelfTest = await auditA11y(bad);
  await bad.close();
  mark('a11ySelfTest');

  // /favicon.ico and the icon the page links (it was a 404 on every page).
  const icon = await fetch(`${base}/favicon.ico`);
  facts.favicon = { status: icon.status, type: icon.headers.get('content-type'), body: (await icon.text()).slice(0, 200) };
  facts.iconLink = await page.getAttribute('link[rel="icon"]', 'href');
  facts.iconLinkStatus = (await fetch(`${base}${facts.iconLink}`)).status;

  // Every page at a phone's width and a desktop's: nothing wider than the screen, no sideways
  // scroll of the page (a wide table scrolls inside its own region), and no console error.
  facts.layout = {};
  for (const width of [390, 1280]) {
    const ctx = await browser.newContext({ viewport: { width, height: 844 } });
    await ctx.addInitScript((name) => localStorage.setItem('kaizen.reviewer', name), plan.reviewer);
    const p = await ctx.newPage();
    p.setDefaultTimeout(10000);
    p.on('pageerror', (e) => facts.pageErrors.push(`${width}px: ${e.message}`));
    p.on('console', (m) => {
      if (m.type() === 'error') facts.consoleErrors.push(`${width}px: ${m.text()} (${m.location().url || '?'})`);
    });
    const measure = () =>
      p.evaluate(() => {
        const vw = document.documentElement.clientWidth;
        // Inside a scrolling region (a wide table) an element may be wider than the screen.
        const scrolls = (e) => {
          for (let a = e.parentElement; a; a = a.parentElement) {
            const o = getComputedStyle(a).overflowX;
            if (o === 'auto' || o === 'scroll' || o === 'hidden' || o === 'clip') return true;
          }
          return false;
        };
        const wide = [];
        for (const e of document.querySelectorAll('body *')) {
          const r = e.getBoundingClientRect();
          if (r.width === 0 && r.height === 0) continue;
          if ((r.width > vw + 0.5 || r.right > vw + 0.5) && !scrolls(e)) {
            wide.push(`${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''}${e.className && typeof e.className === 'string' ? `.${e.className.trim().split(/\s+/).join('.')}` : ''} ${Math.round(r.left)}..${Math.round(r.right)}`);
          }
        }
        return { viewport: vw, scrollWidth: document.scrollingElement.scrollWidth, wide: wide.slice(0, 20) };
      });
    const pages = {};
    await p.goto(`${base}/#token=${encodeURIComponent(token)}`);
    await p.waitForSelector('.queue-item');
    pages.queue = await measure();
    await p.screenshot({ path: path.join(shots, `queue-${width}.png`), fullPage: true });
    await p.click('.queue-item .queue-open');
    await p.waitForSelector('dialog.review-modal[open] .artifact-pane .summary');
    pages.review = await measure();
    await p.screenshot({ path: path.join(shots, `review-${width}.png`), fullPage: false });
    await p.keyboard.press('Escape');
    await p.waitForSelector('dialog.review-modal', { state: 'detached' });
    await p.click('nav a[href="#/dashboard"]');
    await p.waitForSelector('#dash-content[aria-busy="false"] #kpi-table');
    pages.dashboard = await measure();
    await p.screenshot({ path: path.join(shots, `dashboard-${width}.png`), fullPage: true });
    await p.click('nav a[href="#/audit"]');
    await p.waitForSelector('#audit-content article');
    pages.audit = await measure();
    await p.screenshot({ path: path.join(shots, `audit-${width}.png`), fullPage: true });
    facts.layout[width] = pages;
    await ctx.close();
    mark(`layout${width}`);
  }
} catch (e) {
  facts.failure = String(e && e.stack ? e.stack : e);
} finally {
  await browser.close();
}
process.stdout.write(`${JSON.stringify(facts)}\n`);
