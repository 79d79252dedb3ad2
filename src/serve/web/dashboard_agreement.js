// The dashboard's "Reviewer agreement" card (issue 30): Krippendorff's alpha for decisions and per
// quality dimension over the items two or more reviewers judged (analysis key `agreement`), each
// reviewer's agreement with the others, and the split decisions waiting for clarification.
import { el } from './common.js';
import { isNum } from './dashboard_kpis.js';
import { pct, scrollTable, section } from './dashboard_cards.js';

// An alpha as a reviewer reads it: the value, or why there is none.
function alphaText(a, minItems) {
  if (isNum(a.alpha)) return a.alpha.toFixed(2);
  if ((a.items ?? 0) < minItems) return `not enough data (n = ${a.items ?? 0} items)`;
  return 'no variation to measure';
}

function alphaRow(label, metric, a, minItems) {
  return el(
    'tr',
    { 'data-agreement': label, 'data-alpha': isNum(a.alpha) ? String(a.alpha) : '' },
    el('th', { scope: 'row' }, label),
    el('td', {}, metric),
    el('td', { class: 'alpha' }, alphaText(a, minItems)),
    el('td', {}, String(a.items ?? 0)),
    el('td', {}, String(a.reviewers ?? 0)),
  );
}

export function agreementSection(analysis) {
  const g = analysis.agreement;
  if (!g) return section('agreement', 'Reviewer agreement', el('p', {}, 'Not in this analysis.'));
  const minItems = g.minItems ?? 10;
  const decisions = g.decisions || {};
  if (!(decisions.items > 0) && Object.keys(g.dimensions || {}).length === 0) {
    return section(
      'agreement',
      'Reviewer agreement',
      el(
        'p',
        { class: 'muted' },
        'No item has been judged by two reviewers yet: agreement is measured once several people review the same work.',
      ),
    );
  }
  const rows = [alphaRow('Decisions', 'nominal', decisions, minItems)];
  for (const [dim, a] of Object.entries(g.dimensions || {})) rows.push(alphaRow(dim, 'interval', a, minItems));
  const people = Object.entries(g.reviewers || {}).map(([name, r]) =>
    el(
      'tr',
      { 'data-reviewer': name },
      el('th', { scope: 'row' }, name),
      el('td', {}, pct(r.decisionAgreement)),
      el('td', {}, String(r.items ?? 0)),
    ),
  );
  const splits = (g.clarifications || []).map((c) =>
    el(
      'li',
      { 'data-id': c.workProduct.id },
      `${c.workProduct.id} ${c.workProduct.version}: `,
      Object.entries(c.decisions)
        .map(([who, d]) => `${who} ${d}`)
        .join(', '),
    ),
  );
  return section(
    'agreement',
    'Reviewer agreement',
    el(
      'p',
      { class: 'muted small' },
      `Krippendorff's alpha over the items two or more reviewers judged (1 = full agreement, 0 = chance); computed from ${minItems} such items.`,
    ),
    scrollTable('Agreement by judgement', ['Judgement', 'Metric', 'Alpha', 'Items', 'Reviewers'], rows, {
      id: 'agreement-table',
    }),
    people.length
      ? scrollTable('Each reviewer against the others', ['Reviewer', 'Same decision', 'Shared items'], people)
      : '',
    splits.length
      ? el('div', {}, el('h3', {}, 'Split decisions to clarify'), el('ul', { class: 'clarifications' }, ...splits))
      : '',
  );
}
