// A reviewer far from the server: drives the review queue and modal of a running `kaizen serve`
// in Debian's Chromium set to another time zone, on a phone-sized screen, approves one item and
// opens the dashboard, and prints one JSON line of facts for tests/integration/test_web_dashboard.py
// (WebClockTest): the /v1/queue URL the page asked for and its answer, the FeedbackEvent timestamp
// it posted, what the dashboard said of the one review, and the console.
//   node web_clock.mjs <base-url> <token> <screenshot-dir> <time-zone id>
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';

const [base, token, shots, timezoneId] = process.argv.slice(2);
mkdirSync(shots, { recursive: true });

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const facts = { pageErrors: [], consoleErrors: [], queueRequests: [], posted: [] };
try {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, timezoneId });
  await context.addInitScript(() => localStorage.setItem('kaizen.reviewer', 'far-away'));
  const page = await context.newPage();
  page.setDefaultTimeout(10000);
  page.on('pageerror', (e) => facts.pageErrors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && facts.consoleErrors.push(m.text()));
  page.on('request', (r) => {
    if (r.url().includes('/v1/queue')) facts.queueRequests.push(r.url().slice(base.length));
    if (r.method() === 'POST' && r.url().endsWith('/v1/feedback')) facts.posted.push(JSON.parse(r.postData()));
  });
  page.on('response', async (r) => {
    if (r.url().includes('/v1/queue') && r.status() === 200 && !facts.queueAnswer) {
      const q = await r.json();
      facts.queueAnswer = { now: q.now, timeOfDay: q.timeOfDay, utcOffset: q.utcOffset };
    }
  });

  await page.goto(`${base}/#token=${encodeURIComponent(token)}`);
  await page.waitForSelector('.queue-item');
  facts.browserOffset = await page.evaluate(() => -new Date().getTimezoneOffset());
  facts.windowsLine = await page.textContent('.windows-line');

  // Approve the first item with the mouse.
  await page.click('.queue-item .queue-open');
  const modal = 'dialog.review-modal[open]';
  await page.waitForSelector(`${modal} .artifact-pane .summary`);
  await page.click(`${modal} .decision label:has-text("Approve")`);
  await page.screenshot({ path: path.join(shots, 'review-390-timezone.png') });
  await page.click(`${modal} button[type="submit"]`);
  await page.waitForSelector('dialog.review-modal', { state: 'detached' });

  // The dashboard of a home with one review: its KPIs rest on too little to judge.
  await page.click('nav a[href="#/dashboard"]');
  await page.waitForSelector('#dash-content[aria-busy="false"] #kpi-table');
  facts.approval = await page.evaluate(() => {
    const tr = document.querySelector('#kpi-table tr[data-kpi="approvalRate"]');
    return {
      now: tr.querySelector('.kpi-now').textContent.trim(),
      standing: tr.querySelector('.kpi-standing [data-standing]').dataset.standing,
      standingText: tr.querySelector('.kpi-standing').textContent.trim(),
    };
  });
  await page.screenshot({ path: path.join(shots, 'dashboard-390-one-review.png'), fullPage: true });
} catch (e) {
  facts.failure = String(e && e.stack ? e.stack : e);
} finally {
  await browser.close();
}
process.stdout.write(`${JSON.stringify(facts)}\n`);
