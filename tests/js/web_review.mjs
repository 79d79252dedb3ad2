// Drives the review queue and the review modal of a running `kaizen serve` in Debian's headless
// Chromium, as a reviewer would, and prints one JSON line of facts that
// tests/integration/test_web_review.py checks (together with the log).
//
//   node tests/js/web_review.mjs URL TOKEN SCREENSHOT_DIR
//
// The work items the Python test records (artifact ids): "webhook" (urgent), "retry" v1 and v2
// (v2 supersedes v1 in the queue; v1 stays recorded for the comparison), "schema" (experimental),
// "cache", "guide" (low) and "config".
import {existsSync, mkdirSync} from 'node:fs';
import {dirname, join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {chromium} from 'playwright-core';

const [url, token, shots] = process.argv.slice(2);
if (!url || !token || !shots) {
  console.error('usage: node web_review.mjs URL TOKEN SCREENSHOT_DIR');
  process.exit(2);
}
mkdirSync(shots, {recursive: true});
const step = (what) => console.error(`web_review: ${what}`);

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  headless: true,
  args: [
    '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'
  ],
});
const facts = {
  consoleErrors: [],
  pageErrors: []
};
try {
  const context = await browser.newContext({viewport: {width: 1280, height: 860}});
  // The reviewer's name, as the header field stores it.
  await context.addInitScript(() => localStorage.setItem('kaizen.reviewer', 'jake'));
  const page = await context.newPage();
  page.setDefaultTimeout(8000);
  page.on('console', (m) => m.type() === 'error' && facts.consoleErrors.push(m.text()));
  page.on('pageerror', (e) => facts.pageErrors.push(String(e)));

  const queueIds = () =>
      page.$$eval('.queue-item', (rows) => rows.map((r) => `${r.dataset.id}@${r.dataset.version}`));
  const itemRow = (id, version) => `.queue-item[data-id="${id}"][data-version="${version}"]`;
  const modal = 'dialog.review-modal[open]';
  const waitLoaded = () => page.waitForSelector(`${modal} .artifact-pane .summary`);
  const waitClosed = () => page.waitForSelector('dialog.review-modal', {state: 'detached'});
  // The queue reloads after a submission: wait until the item has left it (or shows a deferral).
  const waitGone = (id, version) => page.waitForSelector(itemRow(id, version), {state: 'detached'});

  step('open the queue');
  await page.goto(`${url}/#token=${encodeURIComponent(token)}`);
  await page.waitForSelector('.queue-item');
  facts.reviewerField = await page.inputValue('#reviewer-name');
  facts.queueBefore = await queueIds();
  facts.windowsLine = await page.textContent('.windows-line');
  facts.firstItem =
      await page.$eval('.queue-item', (r) => ({
                                        text: r.innerText,
                                        priority: r.querySelector('.priority').textContent,
                                      }));
  facts.experimentalMarked = await page.$$eval(
      '.queue-item',
      (rows) => rows.filter((r) => r.querySelector('.experimental')).map((r) => r.dataset.id));
  facts.listTag = await page.$eval('.queue-list', (l) => l.tagName);
  await page.screenshot({path: join(shots, 'queue.png'), fullPage: true});

  // ---- 1. the keyboard only: j, Enter, a, digits, ], u, Ctrl+Enter ----
  step('keyboard review');
  await page.focus('body');
  await page.keyboard.press('j');
  facts.keyboardFocused =
      await page.evaluate(() => document.activeElement.closest('.queue-item')?.dataset.id ?? null);
  const [kId, kVersion] = facts.queueBefore[0].split('@');
  await page.keyboard.press('Enter');
  await page.waitForSelector(modal);
  await waitLoaded();
  facts.keyboardModalTitle = await page.textContent(`${modal} h2`);
  facts.keyboardDefaultTab =
      await page.getAttribute(`${modal} [role="tab"][aria-selected="true"]`, 'data-format');
  await page.keyboard.press('?');
  facts.helpShown = await page.isVisible(`${modal} .shortcut-help`);
  facts.helpText = await page.textContent(`${modal} .shortcut-help`);
  await page.keyboard.press('?');
  await page.keyboard.press('a');
  await page.keyboard.press('8');
  await page.keyboard.press(']');
  await page.keyboard.press('7');
  await page.keyboard.press('u');  // show the full file
  await page.waitForSelector(`${modal} .code.file`);
  facts.keyboardChecked =
      await page.$$eval(`${modal} input:checked`, (xs) => xs.map((x) => `${x.name}=${x.value}`));
  await page.keyboard.press('Control+Enter');
  await waitClosed();
  await waitGone(kId, kVersion);
  facts.keyboardReviewed = `${kId}@${kVersion}`;

  // ---- 2. the mouse: reject, severity, blocker, annotate a diff range, two scores, confidence
  // ----
  step('mouse review');
  await page.click(`${itemRow('retry', 'v2')} .queue-open`);
  await page.waitForSelector(`${modal} .code.diff .code-line.add button.ln`);
  facts.mouseDefaultTab =
      await page.getAttribute(`${modal} [role="tab"][aria-selected="true"]`, 'data-format');
  // seed 000 §3.5 detail level: the long section of the summary, opened for more.
  await page.click(`${modal} .summary-section[data-section="Test Coverage"] .show-more`);
  await page.click(`${modal} .decision label:has-text("Reject")`);
  await page.selectOption(`${modal} .rv-section[aria-label="Decision"] select`, 'major');
  await page.click(
      `${modal} .rv-section[aria-label="Decision"] .field:has-text("Blockers") textarea`);
  await page.keyboard.type('no backoff on HTTP 429');
  const added = await page.$$(`${modal} .code.diff .code-line.add[data-line]`);
  const lineA = Number(await added[0].getAttribute('data-line'));
  const lineB = Number(await added[1].getAttribute('data-line'));
  await added[0].click();
  await added[1].click({modifiers: ['Shift']});
  await page.waitForSelector(`${modal} .ann-form`);
  facts.annotationWhere = await page.textContent(`${modal} .ann-form .ann-where`);
  await page.click(`${modal} .ann-form label:has-text("criticism")`);
  await page.selectOption(`${modal} .ann-form select`, 'major');
  await page.click(`${modal} .ann-form textarea`);
  await page.keyboard.type('retries forever without a cap');
  await page.click(`${modal} .ann-form button:has-text("Add annotation")`);
  await page.waitForSelector(`${modal} .annotations li[data-index="0"]`);
  facts.annotationLines = [Math.min(lineA, lineB), Math.max(lineA, lineB)];
  facts.annotationListed = await page.textContent(`${modal} .annotations li[data-index="0"]`);
  await page.click(`${modal} fieldset.dim[data-dim="code-quality"] label:has-text("4")`);
  await page.click(`${modal} fieldset.dim[data-dim="error-handling"] label:has-text("3")`);
  await page.click(`${modal} .confidence label:has-text("Fairly sure")`);
  await page.click(`${modal} .confidence label:has-text("Someone else should also look")`);
  // retry@v2 was made as the alternative to v1 (compareWith): the comparison opens by itself.
  facts.comparisonOpen = await page.$eval(`${modal} .comparison`, (d) => d.open);
  facts.comparisonTitle = await page.textContent(`${modal} .comparison > summary`);
  if (!facts.comparisonOpen) await page.click(`${modal} .comparison > summary`);
  facts.optionADefault = await page.inputValue(`${modal} .comparison select`);
  await page.click(`${modal} .preferred label:has-text("B (this version)")`);
  await page.click(`${modal} .strength label:has-text("strong")`);
  await page.click(`${modal} .winners-box > summary`);
  await page.selectOption(`${modal} .winners .field:has-text("error-handling") select`, 'B');
  await page.hover(`${modal} .artifact-pane`);
  await page.mouse.wheel(0, 200);
  await page.screenshot({path: join(shots, 'review-modal.png')});
  await page.click(`${modal} button:has-text("Submit review")`);
  await waitClosed();
  await waitGone('retry', 'v2');
  facts.mouseReviewed = 'retry@v2';

  // ---- 3. defer: opened, closed untouched (Esc), reopened (a revisit) and deferred ----
  step('defer');
  await page.click(`${itemRow('guide', 'v1')} .queue-open`);
  await waitLoaded();
  await page.keyboard.press('Escape');  // nothing touched: closes without asking
  await waitClosed();
  await page.click(`${itemRow('guide', 'v1')} .queue-open`);
  await waitLoaded();
  // A second kaizen tab with a review open: this modal counts it (meta.concurrentModals).
  const other = await context.newPage();
  await other.goto(url);
  await other.click(`${itemRow('config', 'v1')} .queue-open`);
  await other.waitForSelector(`${modal} .artifact-pane .summary`);
  await page.waitForSelector(`${modal} .concurrent:has-text("1 other review open")`);
  facts.concurrentText = await page.textContent(`${modal} .concurrent`);
  await page.click(`${modal} .decision label:has-text("Defer")`);
  await page.click(`${modal} button:has-text("Submit review")`);
  await waitClosed();
  await other.close();
  await page.waitForSelector(`${itemRow('guide', 'v1')} .badge.deferred`);
  facts.deferredBadge = await page.textContent(`${itemRow('guide', 'v1')} .badge.deferred`);

  // ---- 4. errors: no decision (client side), a 422 from the server, a cleared token (401) ----
  step('errors');
  await page.click(`${itemRow('schema', 'v1')} .queue-open`);
  await waitLoaded();
  await page.click(`${modal} button:has-text("Submit review")`);
  facts.noDecisionError = await page.textContent(`${modal} .decision .field-error`);
  // A 422 as the server words it, to see its field path land next to its field.
  await page.route('**/v1/feedback', (route) => route.fulfill({
    status: 422,
    contentType: 'application/json',
    body: JSON.stringify({
      error: {
        code: 'invalid_event',
        message: 'the event is invalid',
        errors: [{path: 'scores[0].score', message: '11 is out of range 1..10'}]
      }
    }),
  }));
  await page.click(`${modal} .decision label:has-text("Needs work")`);
  await page.click(`${modal} .more-dims > summary`);  // security waits under "More dimensions"
  await page.click(`${modal} fieldset.dim[data-dim="security"] label:has-text("5")`);
  await page.click(`${modal} button:has-text("Submit review")`);
  await page.waitForSelector(`${modal} fieldset.dim[data-dim="security"] .field-error`);
  facts.serverFieldError =
      await page.textContent(`${modal} fieldset.dim[data-dim="security"] .field-error`);
  facts.serverErrorStatus = await page.textContent(`${modal} .rv-status`);
  await page.unroute('**/v1/feedback');
  await page.evaluate(() => sessionStorage.removeItem('kaizen.token'));
  await page.keyboard.press('Control+Enter');
  await page.waitForSelector(`${modal} .token-ask input`);
  facts.unauthorizedText = await page.textContent(`${modal} .rv-status`);
  facts.modalKeptAfter401 = await page.isVisible(modal);
  await page.fill(`${modal} .token-ask input`, token);
  await page.click(`${modal} .token-ask button`);
  await waitClosed();
  await waitGone('schema', 'v1');

  // ---- 5. the fifth review: Esc asks before discarding, then submit; the break banner ----
  step('fifth review and the break');
  await page.click(`${itemRow('cache', 'v1')} .queue-open`);
  await waitLoaded();
  await page.keyboard.press('a');
  await page.keyboard.press('Escape');
  facts.confirmShown = await page.isVisible(`${modal} .confirm-bar`);
  await page.keyboard.press('Escape');  // keep reviewing
  facts.confirmHidden = !(await page.isVisible(`${modal} .confirm-bar`));
  await page.click(`${modal} .format-tabs [data-format="summary-only"]`);
  await page.keyboard.press('Control+Enter');
  await waitClosed();
  await page.waitForSelector('.break-banner:not([hidden])');
  facts.breakBanner = await page.textContent('.break-banner');
  facts.queueAfter = await queueIds();
  await page.click('.break-banner button:has-text("Take a break")');
  await page.waitForSelector('button:has-text("Resume reviewing")');
  facts.pausedListHidden = (await page.$$('.queue-item')).length === 0;
  await page.click('button:has-text("Resume reviewing")');
  await page.waitForSelector('.queue-item');

  // ---- accessibility ----
  const a11yPath = join(dirname(fileURLToPath(import.meta.url)), 'a11y.mjs');
  if (existsSync(a11yPath)) {
    step('accessibility');
    const {auditA11y} = await import(a11yPath);
    facts.a11yQueue = (await auditA11y(page)).problems;
    await page.click(`${itemRow('config', 'v1')} .queue-open`);
    await waitLoaded();
    facts.a11yModal = (await auditA11y(page)).problems;
    await page.keyboard.press('Escape');
    await waitClosed();
  } else {
    facts.a11y = 'tests/js/a11y.mjs is missing';
  }
  // ---- a phone: the modal in one column, meta.deviceType mobile ----
  step('mobile review');
  const phone = await browser.newContext(
      {viewport: {width: 390, height: 800}, isMobile: true, hasTouch: true});
  const mobile = await phone.newPage();
  mobile.setDefaultTimeout(8000);
  mobile.on('pageerror', (e) => facts.pageErrors.push(String(e)));
  await mobile.goto(`${url}/#token=${encodeURIComponent(token)}`);
  await mobile.tap(`${itemRow('config', 'v1')} .queue-open`);
  await mobile.waitForSelector(`${modal} .artifact-pane .summary`);
  await mobile.tap(`${modal} .decision label:has-text("Approve")`);
  await mobile.screenshot({path: join(shots, 'review-modal-mobile.png')});
  await mobile.tap(`${modal} button:has-text("Submit review")`);
  await mobile.waitForSelector('dialog.review-modal', {state: 'detached'});
  await mobile.waitForSelector(itemRow('config', 'v1'), {state: 'detached'});
  await phone.close();

  facts.positiveTabindex = await page.$$eval(
      '[tabindex]', (xs) => xs.filter((x) => Number(x.getAttribute('tabindex')) > 0).length);
} finally {
  await browser.close();
}
console.log(JSON.stringify(facts));
