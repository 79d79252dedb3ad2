// Reviews taken in the terminal, then seen in the browser (issue 29): the dashboard of a running
// `kaizen serve` reads the approval rate and the feedback volume the CLI's reviews made; the queue
// page dismisses an item undecided (two steps), and the dashboard's approval rate does not move.
// Prints one JSON line of facts for tests/integration/test_review_in_browser.py.
//   node web_terminal_review.mjs <base-url> <token> <screenshot-dir> <plan.json>
// plan.json: {"reviewer": name, "dismiss": {"id", "version"}, "note": why it is dismissed}
import { readFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';

const [base, token, shots, planPath] = process.argv.slice(2);
const plan = JSON.parse(readFileSync(planPath, 'utf8'));
mkdirSync(shots, { recursive: true });
const step = (what) => console.error(`web_terminal_review: ${what}`);

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
});
const facts = { pageErrors: [], consoleErrors: [] };
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.setDefaultTimeout(10000);
  page.on('pageerror', (e) => facts.pageErrors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') facts.consoleErrors.push(`${m.text()} (${m.location().url || ''})`);
  });
  await page.addInitScript((name) => localStorage.setItem('kaizen.reviewer', name), plan.reviewer);
  await page.goto(`${base}/#token=${encodeURIComponent(token)}`);

  const readKpis = async () => {
    await page.goto(`${base}/#/dashboard`);
    await page.waitForSelector('#kpi-table tbody tr[data-kpi="approvalRate"] .kpi-now');
    return page.evaluate(() => {
      const now = (key) =>
        document.querySelector(`#kpi-table tbody tr[data-kpi="${key}"] .kpi-now`)?.textContent.trim();
      return { approvalRate: now('approvalRate'), feedbackPerWeek: now('feedbackPerWeek') };
    });
  };

  step('the dashboard after the terminal reviews');
  facts.before = await readKpis();
  await page.screenshot({ path: path.join(shots, 'dashboard-after-terminal-reviews.png'), fullPage: true });

  step('the queue');
  await page.goto(`${base}/#/queue`);
  await page.waitForSelector('.queue-item');
  const rows = () =>
    page.$$eval('.queue-item', (items) => items.map((li) => `${li.dataset.id}@${li.dataset.version}`));
  facts.queueBefore = await rows();
  const row = `.queue-item[data-id="${plan.dismiss.id}"][data-version="${plan.dismiss.version}"]`;
  facts.waitingShown = await page.textContent(`${row} .queue-facts`);

  step('dismiss, in two steps');
  await page.click(`${row} .queue-dismiss`);
  await page.fill(`${row} .dismiss-form input`, plan.note);
  await page.screenshot({ path: path.join(shots, 'queue-dismiss.png'), fullPage: true });
  await page.click(`${row} .queue-dismiss-go`);
  await page.waitForSelector(row, { state: 'detached' });
  facts.queueAfter = await rows();

  step('the dashboard after the dismissal');
  facts.after = await readKpis();
} catch (e) {
  facts.failure = `${e.name}: ${e.message}`;
} finally {
  await browser.close();
}
console.log(JSON.stringify(facts));
