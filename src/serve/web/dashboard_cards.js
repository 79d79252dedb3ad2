// The dashboard's building blocks shared by its sections: a titled card, a scrolling table the
// keyboard can reach, a badge, the notice for an endpoint that could not be loaded, and the
// percent / number spellings of a value that may be missing ('–').
import { el } from './common.js';
import { isNum } from './dashboard_kpis.js';

export const pct = (v, d = 1) => (isNum(v) ? `${(v * 100).toFixed(d)}%` : '–');
export const num = (v, d = 2) => (isNum(v) ? v.toFixed(d) : '–');

export function badge(kind, text, extraClass = '') {
  return el('span', { class: `badge ${kind} ${extraClass}`.trim() }, text);
}

export function section(id, title, ...children) {
  return el(
    'section',
    { class: 'card dash-section', id: `dash-${id}`, 'aria-labelledby': `dash-${id}-h` },
    el('h2', { id: `dash-${id}-h` }, title),
    ...children,
  );
}

export function unavailable(what, res) {
  const why =
    res && res.body && res.body.error
      ? `${res.status}: ${res.body.error.message}`
      : res
        ? `HTTP ${res.status}`
        : 'no answer';
  return el('p', { class: 'dash-error', role: 'alert' }, `${what} could not be loaded (${why}).`);
}

// A wide table in a scrolling region the keyboard can reach (a focusable, named region).
export function scrollTable(label, headers, rows, attrs = {}) {
  return el(
    'div',
    { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': label },
    el(
      'table',
      { class: 'dash-table', ...attrs },
      el('thead', {}, el('tr', {}, ...headers.map((h) => el('th', { scope: 'col' }, h)))),
      el('tbody', {}, ...rows),
    ),
  );
}
