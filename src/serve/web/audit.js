// `#/audit`: seed 000 §8's monthly "still accurate?" review of what kaizen learned (§9.3 "rules
// are re-validated monthly"). Lists the learned rules (GET /v1/rules) and the seed 004 correction
// patterns (GET /v1/corrections), audit-due ones first, each with its evidence; "Still accurate —
// confirm" and "Retire" post one `admin` event each:
//   POST /v1/admin {"action":"rule_audit","rule_id":ID,"verdict":"confirm"|"retire",
//                   "reviewerId":reviewer(),"note":...}
// then the lists are read again, so the status the learner derives shows:
//   - a rule (learn/rules/rule_book.cc RuleBook::Rules): its LAST audit decides; "retire" makes it
//     retired, "confirm" makes an active rule "confirmed" and restarts its monthly audit clock
//     (a retired rule confirmed again comes back as active when its confidence still allows);
//   - a correction pattern (learn/corrections/correction_patterns.cc): each person's last verdict counts once;
//     consensus = confirms / (confirms + retires) (seed 004); under 0.5 it is "rejected", enough
//     confirms promote it.
import { announce, api, el, reviewer } from './common.js';
import { formatScore } from './dashboard_kpis.js';

const isNum = (v) => typeof v === 'number' && Number.isFinite(v);
const pct = (v) => (isNum(v) ? `${(v * 100).toFixed(1)}%` : '–');
const day = (iso) => (typeof iso === 'string' ? iso.slice(0, 10) : '–');

// Where the page stands on an error from POST /v1/admin: a sentence a reviewer can act on.
function describeError(res) {
  const err = res.body && res.body.error ? res.body.error : null;
  const msg = err && err.message ? err.message : typeof res.body === 'string' ? res.body : '';
  if (res.status === 0) return `The server could not be reached: ${msg}`;
  const server = msg ? ` (the server says: ${msg})` : '';
  if (res.status === 401) {
    return `Not signed in (401): saving an audit needs the write token. Enter it in the sign-in field, then try again${server}.`;
  }
  if (res.status === 403) return `The token was refused (403): sign in again with the right token${server}.`;
  if (res.status === 422 || res.status === 400) {
    const fields = err && Array.isArray(err.errors) ? err.errors : [];
    const details = fields.map((f) => `${f.field || f.path || ''}: ${f.message || ''}`).join('; ');
    return `The audit was refused (${res.status}): ${msg}${details ? ` — ${details}` : ''}`;
  }
  return `The audit could not be saved (HTTP ${res.status}): ${msg}`;
}

function evidenceRow(term, ...def) {
  return [el('dt', {}, term), el('dd', {}, ...def)];
}

function list(items, empty) {
  return items.length ? el('ul', {}, ...items.map((t) => el('li', {}, t))) : el('span', {}, empty);
}

// One rule as its card's parts: title, status line, evidence.
function ruleView(r) {
  const audits = (r.audits || []).slice(-3).reverse();
  const status = r.status === 'active' && r.confirmed ? 'active (confirmed)' : r.status;
  return {
    id: r.id,
    kind: 'rule',
    title: r.rule,
    status,
    due: !!r.auditDue,
    evidence: [
      ...evidenceRow('Rule id', el('code', {}, r.id)),
      ...evidenceRow('Occurrences', `${r.occurrences} negative, ${r.positive ?? 0} positive reviews`),
      ...evidenceRow('Confidence', pct(r.confidence)),
      ...evidenceRow(
        'Effectiveness',
        isNum(r.effectiveness) ? `${r.effectiveness >= 0 ? '+' : ''}${formatScore(r.effectiveness)} score points since introduced` : 'not measured yet',
      ),
      ...evidenceRow('Seen', `${day(r.first_seen)} to ${day(r.last_seen)}; applies to ${(r.applies_to || []).join(', ')}`),
      ...evidenceRow('Examples', list(r.examples || [], 'none')),
      ...evidenceRow(
        'Last audits',
        list(
          audits.map((a) => `${day(a.at)} ${a.verdict} by ${a.reviewerId || 'anonymous'}${a.note ? ` — “${a.note}”` : ''}`),
          'never audited',
        ),
      ),
    ],
  };
}

function correctionView(p) {
  const confirmed = p.approved_by || [];
  const retired = p.rejected_by || [];
  return {
    id: p.pattern_id,
    kind: 'correction',
    title: p.rule || p.pattern_id,
    status: p.status,
    // seed 004 patterns have no audit interval: one that nobody has audited yet, and that is not
    // already rejected, is the one waiting for a "still accurate?" verdict (our choice).
    due: confirmed.length + retired.length === 0 && p.status !== 'rejected',
    evidence: [
      ...evidenceRow('Pattern id', el('code', {}, p.pattern_id)),
      ...evidenceRow('Occurrences', `${p.occurrences} corrections (${p.against ?? 0} going the other way)`),
      ...evidenceRow('Confidence', `${pct(p.confidence)} (consistency ${pct(p.consistency)})`),
      ...evidenceRow('Seen', `${day(p.first_seen)} to ${day(p.last_seen)}; by ${(p.users || []).join(', ') || '–'}`),
      ...evidenceRow(
        'Examples',
        list(
          (p.examples || []).map((e) => `“${e.original}” → “${e.corrected}” (${e.user_id || '?'}, ${day(e.timestamp)})`),
          'none',
        ),
      ),
      ...evidenceRow(
        'Audits',
        `${confirmed.length ? `confirmed by ${confirmed.join(', ')}` : 'no confirmation'}; ${
          retired.length ? `retired by ${retired.join(', ')}` : 'no retirement'
        }${isNum(p.consensus_score) ? `; consensus ${pct(p.consensus_score)}` : ''}`,
      ),
    ],
  };
}

// Audit-due ones first, then the server's order (rules: active, candidate, retired by weight;
// patterns: by confidence).
function dueFirst(views) {
  return views
    .map((v, i) => ({ v, i }))
    .sort((a, b) => Number(b.v.due) - Number(a.v.due) || a.i - b.i)
    .map(({ v }) => v);
}

export function mount(main, _route) {
  const content = el('div', { id: 'audit-content', 'aria-busy': 'true' }, el('p', {}, 'Loading…'));
  main.replaceChildren(
    el(
      'div',
      { class: 'audit' },
      el('h1', {}, 'Rule audit'),
      el(
        'p',
        { class: 'lede' },
        'The monthly “still accurate?” review: confirm what still holds, retire what no longer does. ',
        'Each verdict is stored as an admin event and the learner applies it at once.',
      ),
      content,
    ),
  );
  let stopped = false;
  let seq = 0;

  function card(v, focusKey) {
    const n = ++seq;
    const headingId = `audit-h-${n}`;
    const noteId = `audit-note-${n}`;
    const errorEl = el('p', { class: 'audit-error', role: 'alert' });
    const note = el('textarea', { id: noteId, rows: '2', class: 'audit-note' });
    const confirm = el('button', { type: 'button', class: 'audit-confirm', 'aria-describedby': headingId }, 'Still accurate — confirm');
    const retire = el('button', { type: 'button', class: 'audit-retire secondary', 'aria-describedby': headingId }, 'Retire');
    const heading = el('h3', { id: headingId, tabindex: '-1' }, v.title);
    const article = el(
      'article',
      {
        class: `card audit-item${v.due ? ' due' : ''}`,
        'data-kind': v.kind,
        'data-id': v.id,
        'data-status': v.status,
        'aria-labelledby': headingId,
      },
      heading,
      el(
        'p',
        { class: 'audit-status' },
        el('span', { class: `badge rule-status status-${v.status.split(' ')[0]}` }, v.status),
        v.due ? el('span', { class: 'badge due' }, v.kind === 'rule' ? 'audit due' : 'awaiting audit') : '',
      ),
      el('dl', { class: 'evidence' }, ...v.evidence),
      el('label', { for: noteId }, 'Note (optional)'),
      note,
      el('div', { class: 'audit-actions' }, confirm, retire),
      errorEl,
    );
    const submit = async (verdict) => {
      errorEl.textContent = '';
      confirm.disabled = true;
      retire.disabled = true;
      const body = { action: 'rule_audit', rule_id: v.id, verdict };
      const who = reviewer();
      if (who) body.reviewerId = who; // the schema wants a non-empty reviewerId or none
      if (note.value.trim()) body.note = note.value.trim();
      let res;
      try {
        res = await api.post('/v1/admin', body);
      } catch (e) {
        res = { status: 0, body: String(e) };
      }
      if (res.status === 201) {
        const what = v.kind === 'rule' ? 'Rule' : 'Correction pattern';
        await load(`${v.kind}:${v.id}`);
        const now = content.querySelector(`article[data-kind="${v.kind}"][data-id="${CSS.escape(v.id)}"]`);
        const status = now ? now.getAttribute('data-status') : 'gone';
        announce(`${what} ${verdict === 'confirm' ? 'confirmed' : 'retired'}; status now ${status}.`);
        return;
      }
      confirm.disabled = false;
      retire.disabled = false;
      errorEl.textContent = describeError(res);
      announce(errorEl.textContent);
      // The shell (app.js) opens its sign-in form on this.
      if (res.status === 401 || res.status === 403) document.dispatchEvent(new CustomEvent('kaizen:need-token'));
    };
    confirm.addEventListener('click', () => submit('confirm'));
    retire.addEventListener('click', () => submit('retire'));
    if (focusKey === `${v.kind}:${v.id}`) queueMicrotask(() => heading.focus());
    return article;
  }

  async function load(focusKey) {
    content.setAttribute('aria-busy', 'true');
    const get = (path) => api.get(path).catch((e) => ({ status: 0, body: { error: { message: String(e) } } }));
    const [rules, corrections] = await Promise.all([get('/v1/rules'), get('/v1/corrections')]);
    if (stopped) return;
    const parts = [];
    const failed = (what, res) =>
      el('p', { class: 'audit-error', role: 'alert' }, `${what} could not be loaded (${describeError(res)}).`);
    if (rules.status === 200) {
      const views = dueFirst((rules.body.rules || []).map(ruleView));
      const due = views.filter((v) => v.due).length;
      parts.push(
        el(
          'section',
          { class: 'audit-list', 'aria-labelledby': 'audit-rules-h', id: 'audit-rules' },
          el('h2', { id: 'audit-rules-h' }, `Learned rules (${views.length}, ${due} due)`),
          ...(views.length ? views.map((v) => card(v, focusKey)) : [el('p', {}, 'No rule learned yet.')]),
        ),
      );
    } else {
      parts.push(failed('The rules', rules));
    }
    if (corrections.status === 200) {
      const views = dueFirst((corrections.body.patterns || []).map(correctionView));
      const due = views.filter((v) => v.due).length;
      parts.push(
        el(
          'section',
          { class: 'audit-list', 'aria-labelledby': 'audit-corrections-h', id: 'audit-corrections' },
          el('h2', { id: 'audit-corrections-h' }, `Correction patterns (${views.length}, ${due} awaiting audit)`),
          ...(views.length ? views.map((v) => card(v, focusKey)) : [el('p', {}, 'No correction pattern yet.')]),
        ),
      );
    } else {
      parts.push(failed('The correction patterns', corrections));
    }
    if (!reviewer()) {
      parts.unshift(
        el('p', { class: 'audit-hint' }, 'Tip: enter your reviewer name in the header, so each audit records who made it.'),
      );
    }
    content.replaceChildren(...parts);
    content.setAttribute('aria-busy', 'false');
  }

  load();
  return () => {
    stopped = true;
  };
}
