// Drives the dashboard (#/dashboard) and the rule audit (#/audit) of a running `kaizen serve` in
// Debian's Chromium, as a person would, and prints what it saw as one JSON object on stdout (the
// Python side, tests/integration/test_web_dashboard.py, asserts on it and on the log).
//   node web_dashboard.mjs <base-url> <token> <screenshot-dir> <plan.json>
// plan.json: {"reviewer": name, "feedback": a FeedbackEvent to POST, "ruleId": a rule to confirm
// with the mouse, "patternId": a correction pattern to retire with the keyboard, "otherRuleId": a
// rule whose audit is tried without the token (must show the 401)}.
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
    if (m.type() !== 'error' || /favicon/.test(m.location().url || '')) return;
    (expecting401 && /401/.test(m.text()) ? facts.expectedErrors : facts.consoleErrors).push(m.text());
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
        m.formatKpiValue('predictionError', 0.125),
        m.formatKpiValue('ruleEffectiveness', -0),
      ],
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
} catch (e) {
  facts.failure = String(e && e.stack ? e.stack : e);
} finally {
  await browser.close();
}
process.stdout.write(`${JSON.stringify(facts)}\n`);
