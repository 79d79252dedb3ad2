// The dashboard's sections on what the learner has learned: seed 000 §6.3 autonomy per task type,
// seed 001's signals after review (reverts, rewrites, CI, ratings), the §8 active rules (with the
// way to their audit), seed 002 pattern maturity with the anti-patterns, and the per-reviewer
// preferences.
import { el } from './common.js';
import { badge, num, pct, scrollTable, section, unavailable } from './dashboard_cards.js';
import { formatScore, isNum } from './dashboard_kpis.js';

// seed 000 §6.3 "Diminishing Review System": what each level means.
const AUTONOMY_LEVELS = [
  'review 100%',
  'review 80%, spot-check 20%',
  'review 50%, auto-approve simple ones',
  'review 20%, auto-approve standard patterns',
  'review 5%, audit-only mode',
];

// A task type's level with the real reason it is there (issue 29: a task type with 26 reviews
// was called "new"): lost by a regression (regressedFrom, learn/delegation/autonomy.h), new (§3.4 escalate:
// fewer than 5 decided reviews), or not yet promoted.
export function autonomyLabel(a) {
  const what = AUTONOMY_LEVELS[a.level] || '';
  let why = '';
  if (a.regressed && isNum(a.regressedFrom)) why = `regressed from level ${a.regressedFrom}`;
  else if (a.regressed) why = 'regressed';
  else if (a.level === 0) why = a.class === 'escalate' ? 'new task type' : 'not yet promoted';
  return `Level ${a.level} — ${why ? `${why}: ` : ''}${what}`;
}
// seed 002 "Pattern Maturity": the states in their order and the multipliers the seed gives;
// the learner's own multiplier is shown when a pattern in that state carries one.
const MATURITY = [
  { state: 'candidate', multiplier: 0.5 },
  { state: 'established', multiplier: 1.0 },
  { state: 'proven', multiplier: 1.5 },
  { state: 'deprecated', multiplier: 0 },
];

export function autonomySection(analysis) {
  const rows = Object.entries(analysis.autonomy || {}).map(([type, a]) =>
    el(
      'tr',
      { 'data-task-type': type },
      el('th', { scope: 'row' }, type),
      el('td', { class: 'autonomy-level', title: a.regressionReason || '' }, autonomyLabel(a)),
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

// seed 001 "Success Metrics" from the analysis `signals` section: each metric's value over the
// whole log, its n, and its calendar months (oldest first); then the latest failed outcomes.
const SIGNAL_METRICS = [
  ['coverage', 'Signal coverage (agent commits with 3+ signals)', (v) => pct(v), '≥ 80%'],
  ['revertRate', 'Revert rate', (v) => pct(v), '↓ falling'],
  ['humanEditAfterAgentRate', 'Edit-after-agent rate', (v) => pct(v), '↓ falling'],
  ['ciPassRate', 'CI pass rate', (v) => pct(v), '↑ rising'],
  ['timeToCompletion', 'Time to completion (median)', (v) => (isNum(v) ? `${Math.round(v / 60)} min` : '–'), '↓ falling'],
  ['ratings', 'Rating (1-5)', (v) => (isNum(v) ? `${v.toFixed(1)}/5` : '–'), '↑ rising'],
  ['responseRate', 'Feedback response rate (ratings given vs. skipped)', (v) => pct(v), '> 50%'],
];

export function signalsSection(analysis) {
  const s = analysis.signals;
  if (!s) return section('signals', 'After review: git, CI and ratings', el('p', {}, 'Not in this analysis.'));
  const months = (s.coverage && s.coverage.trend ? s.coverage.trend : []).map((m) => m.month);
  const rows = SIGNAL_METRICS.map(([key, name, format, target]) => {
    const m = s[key] || { n: 0, value: null, trend: [] };
    return el(
      'tr',
      { 'data-signal': key },
      el('th', { scope: 'row' }, name),
      el('td', { class: 'signal-value' }, format(m.value)),
      el('td', {}, String(m.n)),
      ...(m.trend || []).map((t) => el('td', {}, t.n > 0 ? format(t.value) : '–')),
      el('td', {}, target),
    );
  });
  const failures = (s.recentFailures || []).map((f) =>
    el('li', { 'data-work': f.work }, `${f.at.slice(0, 10)} ${f.work.slice(0, 12)} (${f.taskType}): ${f.what}`),
  );
  return section(
    'signals',
    'After review: git, CI and ratings',
    s.rewards > 0
      ? scrollTable('Signals after review', ['Metric', 'Now', 'n', ...months, 'Target'], rows)
      : el('p', {}, 'No signal recorded yet: `kaizen git scan`, `kaizen reward ci`, `kaizen rate`.'),
    failures.length ? el('h3', {}, 'Latest failed outcomes') : null,
    failures.length ? el('ul', { class: 'signal-failures' }, ...failures) : null,
  );
}

export function rulesSection(rules) {
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
      el('td', {}, isNum(r.effectiveness) ? `${r.effectiveness >= 0 ? '+' : ''}${formatScore(r.effectiveness)}` : '–'),
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

export function patternsSection(analysis) {
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

// Per-reviewer preferences (GET /v1/reviewers, learn/reviews/reviewer_profiles_json.cc).
export function reviewersSection(reviewers) {
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
