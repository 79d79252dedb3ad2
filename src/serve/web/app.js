// The shell: the hash router (#/queue, #/dashboard, #/audit), the sign-in, the reviewer's name.
import * as queue from './queue.js';
import * as dashboard from './dashboard.js';
import * as audit from './audit.js';
import {announce, clear, reviewer, setReviewer, setToken, token} from './common.js';

const PAGES = {
  queue: {module: queue, title: 'Review queue'},
  dashboard: {module: dashboard, title: 'Dashboard'},
  audit: {module: audit, title: 'Rule audit'},
};

let cleanup = null;

function parseRoute() {
  const hash = location.hash.replace(/^#\/?/, '');
  const [pathPart, query = ''] = hash.split('?');
  const path = pathPart.split('/').filter(Boolean).map(decodeURIComponent);
  const page = PAGES[path[0]] ? path[0] : 'queue';
  return {page, path: path.length ? path : [page], params: new URLSearchParams(query)};
}

async function render() {
  const route = parseRoute();
  const main = document.getElementById('main');
  if (typeof cleanup === 'function') {
    try {
      cleanup();
    } catch (e) {
      console.error(e);
    }
  }
  cleanup = null;
  clear(main);
  document.title = `${PAGES[route.page].title} · kaizen`;
  for (const link of document.querySelectorAll('nav a[data-page]')) {
    if (link.dataset.page === route.page) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  try {
    cleanup = await PAGES[route.page].module.mount(main, route);
  } catch (e) {
    console.error(e);
    announce(`The page failed to load: ${e.message}`);
  }
}

// `#token=...` signs this tab in once; the token then leaves the address bar and history.
function takeTokenFromUrl() {
  const m = location.hash.match(/^#token=([^&]+)/);
  if (!m) return;
  setToken(decodeURIComponent(m[1]));
  history.replaceState(null, '', location.pathname + location.search + '#/queue');
}

function showSignedIn() {
  const button = document.getElementById('token-button');
  button.textContent = token() ? 'Signed in' : 'Sign in';
  button.setAttribute('aria-label', token() ? 'Signed in: change the token' : 'Sign in with the token');
}

function wireIdentity() {
  const name = document.getElementById('reviewer-name');
  name.value = reviewer();
  name.addEventListener('change', () => {
    setReviewer(name.value);
    announce(`Reviewing as ${name.value || 'nobody in particular'}`);
    document.dispatchEvent(new CustomEvent('kaizen:reviewer'));
  });
  const form = document.getElementById('token-form');
  const input = document.getElementById('token-input');
  document.getElementById('token-button').addEventListener('click', () => {
    form.hidden = false;
    input.focus();
  });
  document.getElementById('token-cancel').addEventListener('click', () => {
    form.hidden = true;
  });
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    setToken(input.value.trim());
    input.value = '';
    form.hidden = true;
    announce('Signed in for this tab');
  });
  document.addEventListener('kaizen:token', showSignedIn);
  // Other pages ask for the token when a write is refused (401/403).
  document.addEventListener('kaizen:need-token', () => {
    form.hidden = false;
    input.focus();
  });
  showSignedIn();
}

takeTokenFromUrl();
wireIdentity();
window.addEventListener('hashchange', render);
render();
