// What every page shares: the API client, who is reviewing, and safe DOM building.
// Data from the log is only ever put into the page as text (el() never parses HTML).

const TOKEN_KEY = 'kaizen.token';
const REVIEWER_KEY = 'kaizen.reviewer';
const SESSION_KEY = 'kaizen.session';

export class ApiError extends Error {}

export function token() {
  return sessionStorage.getItem(TOKEN_KEY) || '';
}

export function setToken(value) {
  if (value) sessionStorage.setItem(TOKEN_KEY, value);
  else sessionStorage.removeItem(TOKEN_KEY);
  document.dispatchEvent(new CustomEvent('kaizen:token'));
}

export function reviewer() {
  return (localStorage.getItem(REVIEWER_KEY) || '').trim();
}

export function setReviewer(value) {
  localStorage.setItem(REVIEWER_KEY, value.trim());
}

export function newId() {
  return crypto.randomUUID();
}

// One review session per browser tab: the server counts fatigue per session (seed 000 §3.4).
export function sessionId() {
  let id = sessionStorage.getItem(SESSION_KEY);
  if (!id) {
    id = 'web-' + newId();
    sessionStorage.setItem(SESSION_KEY, id);
  }
  return id;
}

async function request(method, path, body) {
  const headers = {Accept: 'application/json'};
  const init = {method, headers};
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  if (method !== 'GET' && token()) headers.Authorization = 'Bearer ' + token();
  let res;
  try {
    res = await fetch(path, init);
  } catch (e) {
    throw new ApiError(`kaizen serve is not reachable (${e.message})`);
  }
  const text = await res.text();
  let parsed = text;
  if ((res.headers.get('Content-Type') || '').includes('json')) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
  }
  noteServerClock(parsed);
  return {status: res.status, body: parsed};
}

export const api = {
  get: (path) => request('GET', path),
  post: (path, body) => request('POST', path, body),
};

// The message of a kaizen error body ({"error":{"message",...}}), else a generic one.
export function errorMessage(response) {
  const e = response && response.body && response.body.error;
  if (e && e.message) return e.message;
  return `the server answered ${response ? response.status : 'nothing'}`;
}

export function announce(text) {
  const status = document.getElementById('status');
  if (!status) return;
  status.textContent = '';
  // A new text node each time: screen readers announce a repeated message again.
  requestAnimationFrame(() => {
    status.textContent = text;
  });
}

// el('button', {type: 'button', class: 'x', onclick: fn, 'aria-label': 'y'}, 'text', child, ...)
// Attributes go through setAttribute; `on*` functions become listeners; `hidden`, `checked`,
// `disabled`, `value` and `selected` are set as properties. Children: nodes, strings (as text),
// arrays, null/undefined/false (skipped).
export function el(tag, attrs, ...children) {
  const node = tag === 'svg' || attrs?.xmlns
      ? document.createElementNS('http://www.w3.org/2000/svg', tag)
      : document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') {
      node.addEventListener(key.slice(2), value);
    } else if (['hidden', 'checked', 'disabled', 'value', 'selected'].includes(key)) {
      node[key] = value;
    } else if (key !== 'xmlns') {
      node.setAttribute(key, value === true ? '' : String(value));
    }
  }
  append(node, children);
  return node;
}

function append(node, children) {
  for (const child of children) {
    if (child === undefined || child === null || child === false) continue;
    if (Array.isArray(child)) append(node, child);
    else if (child instanceof Node) node.appendChild(child);
    else node.appendChild(document.createTextNode(String(child)));
  }
}

export function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
}

export function fmtPct(x, digits = 1) {
  return x === null || x === undefined || Number.isNaN(x) ? '–' : (x * 100).toFixed(digits) + '%';
}

export function fmtNum(x, digits = 1) {
  return x === null || x === undefined || Number.isNaN(x) ? '–' : Number(x).toFixed(digits);
}

// True while the user types: single-key shortcuts must not fire then.
export function isTyping(event) {
  const t = event.target;
  if (!(t instanceof HTMLElement)) return false;
  if (t.isContentEditable) return true;
  if (t instanceof HTMLTextAreaElement || t instanceof HTMLSelectElement) return true;
  if (t instanceof HTMLInputElement) {
    return !['checkbox', 'radio', 'button', 'submit', 'range'].includes(t.type);
  }
  return false;
}

// How far the server's clock is from this browser's (ms): answers that carry the server's `now`
// (the queue, the analysis) set it. `kaizen serve --now` runs on a given clock (a replayed or
// demo history); a review stamped with the browser's own instant would land outside it (the
// ingest refuses a timestamp over 24 h ahead of its now), so a review takes the server's instant
// and the reviewer's offset.
let serverSkewMs = 0;

function noteServerClock(body) {
  if (!body || typeof body !== 'object' || typeof body.now !== 'string') return;
  const at = Date.parse(body.now);
  if (Number.isFinite(at)) serverSkewMs = at - Date.now();
}

// The reviewer's offset from UTC in minutes, east positive (UTC-5 is -300): what the server's
// `utcOffset` query parameter and an ISO timestamp's "-05:00" say. getTimezoneOffset() has the
// opposite sign.
export function utcOffsetMinutes(at = new Date()) {
  return -at.getTimezoneOffset();
}

// `at` (by default now on the server's clock) as an ISO 8601 timestamp in the reviewer's own
// offset ("2025-07-10T08:30:00.000-04:00"): the same instant as toISOString(), and the ingest
// reads the reviewer's time of day from it (seed 000 §3.4 review windows), not the server's.
export function localTimestamp(at = new Date(Date.now() + serverSkewMs)) {
  const two = (n) => String(n).padStart(2, '0');
  const offset = utcOffsetMinutes(at);
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  return `${at.getFullYear()}-${two(at.getMonth() + 1)}-${two(at.getDate())}T${two(at.getHours())}:` +
      `${two(at.getMinutes())}:${two(at.getSeconds())}.${String(at.getMilliseconds()).padStart(3, '0')}` +
      `${sign}${two(Math.floor(abs / 60))}:${two(abs % 60)}`;
}
