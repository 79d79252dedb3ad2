// The review queue page (#/queue): the pending work in the server's order, the reviewer's best
// review windows, the review modal for one item, and the break suggestion after a run of reviews.
import {announce, api, el, errorMessage, fmtNum, fmtPct, isTyping, reviewer} from './common.js';
import {openReview} from './review.js';

// "In a row" (issue 6: a break suggestion after 5 reviews in a row): submissions with no gap over
// ten minutes between them. A longer gap is a break already taken, so the run starts again.
const RUN_GAP_MS = 10 * 60 * 1000;
const RUN_KEY = 'kaizen.reviewRun';  // sessionStorage: {times:[Date.now()...], shownAt:N}
const BREAK_KEY = 'kaizen.onBreak';  // sessionStorage: '1' while the reviewer takes a break

function loadRun() {
  try {
    const run = JSON.parse(sessionStorage.getItem(RUN_KEY) || 'null');
    if (run && Array.isArray(run.times)) return run;
  } catch (_) { /* a damaged value starts a new run */
  }
  return {times: [], dismissedAt: 0};
}
const saveRun = (run) => sessionStorage.setItem(RUN_KEY, JSON.stringify(run));

// Counts one submitted review into the current run (a new run after a gap over RUN_GAP_MS).
function countReview() {
  const run = loadRun();
  const now = Date.now();
  const last = run.times[run.times.length - 1];
  if (last !== undefined && now - last > RUN_GAP_MS) {
    run.times = [];
    run.dismissedAt = 0;
  }
  run.times.push(now);
  saveRun(run);
  return run;
}

// How long an item has waited, as a reviewer says it.
export function fmtAge(seconds) {
  if (typeof seconds !== 'number' || seconds < 0) return null;
  if (seconds < 120) return `${seconds} s`;
  if (seconds < 2 * 3600) return `${Math.floor(seconds / 60)} min`;
  if (seconds < 2 * 86400) return `${Math.floor(seconds / 3600)} h`;
  return `${Math.floor(seconds / 86400)} days`;
}

function priorityBadge(p) {
  return el('span', {class: `badge priority priority-${p || 'normal'}`}, p || 'normal');
}

export function mount(main, route) {
  let data = null;
  let selected = -1;
  let modalOpen = false;
  let alive = true;

  const heading = el('h1', {id: 'queue-title'}, 'Review queue');
  const windowsLine = el('p', {class: 'windows-line'});
  const banner = el('section', {class: 'break-banner', 'aria-label': 'Break suggestion'});
  banner.hidden = true;
  const content = el('div', {class: 'queue-content'});
  const page =
      el('section', {class: 'queue-page', 'aria-labelledby': 'queue-title'}, heading, windowsLine,
         banner, content);
  main.replaceChildren(page);

  async function load() {
    const who = reviewer();
    const path = `/v1/queue?utcOffset=${-new Date().getTimezoneOffset()}` + (who ? `&reviewer=${encodeURIComponent(who)}` : '');
    let answer;
    try {
      answer = await api.get(path);
    } catch (err) {
      content.replaceChildren(el(
          'p', {class: 'error', role: 'alert'}, `Network error loading the queue: ${err.message}`));
      return;
    }
    if (!alive) return;
    if (answer.status !== 200) {
      const msg = answer.body && answer.body.error ? answer.body.error.message : answer.body;
      content.replaceChildren(
          el('p', {class: 'error', role: 'alert'},
             `The queue could not be loaded (${answer.status}): ${msg}`));
      return;
    }
    data = answer.body;
    render();
  }

  function render() {
    const best = (data.bestWindows || []).join(', ') || 'not learned yet';
    windowsLine.textContent = `Your best review windows: ${best}; now: ${data.timeOfDay}` +
        (data.inBestWindow ? ' (a best window)' : '') + '.';
    renderBanner();
    if (sessionStorage.getItem(BREAK_KEY) === '1') {
      const resume = el('button', {type: 'button', class: 'primary'}, 'Resume reviewing');
      resume.addEventListener('click', () => {
        sessionStorage.removeItem(BREAK_KEY);
        saveRun({times: [], dismissedAt: 0});
        render();
        announce('Welcome back.');
      });
      content.replaceChildren(
          el('div', {class: 'card on-break'},
             el('p', {},
                `On a break. ${data.total} item` +
                    `${data.total === 1 ? '' : 's'} waiting.`),
             resume));
      resume.focus();
      return;
    }
    const items = data.items || [];
    if (!items.length) {
      selected = -1;
      content.replaceChildren(
          el('p', {class: 'empty card'}, 'Nothing to review: the queue is empty.'));
      return;
    }
    if (selected >= items.length) selected = items.length - 1;
    const list = el('ol', {class: 'queue-list', 'aria-label': `${data.total} items to review`});
    items.forEach((item, i) => list.append(renderItem(item, i)));
    content.replaceChildren(
        el('p', {class: 'hint'}, `${data.total} waiting. j / k move, Enter opens.`), list);
    markSelected(false);
  }

  function renderItem(item, i) {
    const wp = item.workProduct || {};
    const open = el('button', {type: 'button', class: 'queue-open'}, wp.summary || wp.id);
    open.addEventListener('click', () => openItem(i));
    open.addEventListener('focus', () => {
      selected = i;
      markSelected(false);
    });
    const facts = el('dl', {class: 'queue-facts'});
    const fact = (k, v) => {
      if (v !== null && v !== undefined && v !== '') {
        facts.append(el('div', {}, el('dt', {}, k), el('dd', {}, v)));
      }
    };
    fact('Type', wp.type);
    fact('Task type', item.mcpServerType);
    fact('Stage', item.pipelineStage);
    const a = item.autonomy;
    fact(
        'Autonomy', a ? `level ${a.level} · ${a.class} · review ${fmtPct(a.reviewRate, 0)}` : null);
    fact(
        'Agent confidence',
        typeof wp.bubaConfidence === 'number' ? fmtPct(wp.bubaConfidence, 0) : null);
    fact(
        'Predicted score',
        typeof wp.bubaScorePrediction === 'number' ? fmtNum(wp.bubaScorePrediction) : null);
    fact('Version', wp.version);
    fact('Waiting', fmtAge(item.ageSeconds));
    fact('Change', item.diffRecorded ? 'recorded with the version' : wp.commit || null);
    const marks = el('span', {class: 'marks'}, priorityBadge(item.priority));
    if (item.experimental) marks.append(el('span', {class: 'badge experimental'}, 'experimental'));
    if (item.deferrals) {
      marks.append(el('span', {class: 'badge deferred'}, `deferred ${item.deferrals}×`));
    }
    return el(
        'li', {class: 'queue-item card', 'data-id': wp.id, 'data-version': wp.version},
        el('div', {class: 'queue-head'}, open, marks), facts,
        el('p', {class: 'why'}, item.why || ''), dismissControl(wp));
  }

  // Dismiss: out of the queue undecided (stale, duplicate), an admin event that no approval,
  // autonomy or KPI figure counts. Two steps, so a stray click records nothing.
  function dismissControl(wp) {
    const ask = el('button', {type: 'button', class: 'secondary queue-dismiss'}, 'Dismiss…');
    const noteId = `dismiss-note-${wp.id}-${wp.version}`.replace(/[^A-Za-z0-9_-]/g, '_');
    const note = el('input', {id: noteId, type: 'text', maxlength: '500'});
    const go = el('button', {type: 'button', class: 'primary queue-dismiss-go'}, 'Dismiss undecided');
    const cancel = el('button', {type: 'button', class: 'secondary'}, 'Cancel');
    const status = el('p', {class: 'error', role: 'status'});
    const form = el(
        'div', {class: 'dismiss-form'}, el('label', {for: noteId}, 'Why (optional)'), note, go,
        cancel, status);
    form.hidden = true;
    ask.addEventListener('click', () => {
      form.hidden = false;
      ask.hidden = true;
      note.focus();
    });
    cancel.addEventListener('click', () => {
      form.hidden = true;
      ask.hidden = false;
      ask.focus();
    });
    go.addEventListener('click', async () => {
      go.disabled = true;
      const body = {action: 'dismiss', work_id: wp.id, work_version: wp.version};
      const who = reviewer();
      if (who) body.reviewerId = who;
      if (note.value.trim()) body.note = note.value.trim();
      let res;
      try {
        res = await api.post('/v1/admin', body);
      } catch (e) {
        res = {status: 0, body: String(e)};
      }
      go.disabled = false;
      if (res.status === 201) {
        announce(`Dismissed ${wp.summary || wp.id}; no decision was recorded.`);
        await load();
        markSelected(true);
        return;
      }
      status.textContent = `Not dismissed (${res.status}): ${errorMessage(res)}`;
      if (res.status === 401 || res.status === 403) {
        document.dispatchEvent(new CustomEvent('kaizen:need-token'));
      }
    });
    return el('div', {class: 'queue-actions'}, ask, form);
  }

  function markSelected(focus) {
    const rows = content.querySelectorAll('.queue-item');
    rows.forEach((row, i) => {
      row.classList.toggle('selected', i === selected);
      if (i === selected)
        row.setAttribute('aria-current', 'true');
      else
        row.removeAttribute('aria-current');
    });
    if (focus && rows[selected]) {
      rows[selected].querySelector('.queue-open').focus();
      rows[selected].scrollIntoView({block: 'nearest'});
    }
  }

  function renderBanner() {
    const run = loadRun();
    const every = data.breakAfter || 5;
    const n = run.times.length;
    const due = n >= every && n - (run.dismissedAt || 0) >= every;
    if (!due || sessionStorage.getItem(BREAK_KEY) === '1') {
      banner.hidden = true;
      return;
    }
    const take = el('button', {type: 'button', class: 'primary'}, 'Take a break');
    const keep = el('button', {type: 'button', class: 'secondary'}, 'Keep going');
    take.addEventListener('click', () => {
      sessionStorage.setItem(BREAK_KEY, '1');
      banner.hidden = true;
      render();
    });
    keep.addEventListener('click', () => {
      const r = loadRun();
      r.dismissedAt = r.times.length;
      saveRun(r);
      banner.hidden = true;
      markSelected(true);
    });
    banner.replaceChildren(
        el('p', {}, data.breakSuggestion || `You have reviewed ${n} items in a row.`),
        el('p', {class: 'hint'}, `${n} reviews in a row this session.`), take, keep);
    banner.hidden = false;
    announce(data.breakSuggestion || 'Time for a break?');
  }

  async function openItem(i) {
    if (modalOpen || !data || !data.items[i]) return;
    modalOpen = true;
    selected = i;
    const result = await openReview(data.items[i], {bestFormat: data.bestFormat});
    modalOpen = false;
    if (!alive) return;
    if (result.submitted) {
      countReview();
      await load();
    }
    markSelected(true);
  }

  function onKey(e) {
    if (modalOpen || e.ctrlKey || e.metaKey || e.altKey || !data) return;
    if (isTyping(e)) return;
    const t = e.target;
    const n = (data.items || []).length;
    if (!n || sessionStorage.getItem(BREAK_KEY) === '1') return;
    if (e.key === 'j' || e.key === 'k') {
      selected = e.key === 'j' ? Math.min(n - 1, selected + 1) : Math.max(0, selected - 1);
      markSelected(true);
      e.preventDefault();
    } else if (e.key === 'Enter' && selected >= 0 && !t.closest('button, a')) {
      // On a focused item the button itself opens it; here Enter opens the selection.
      openItem(selected);
      e.preventDefault();
    }
  }

  // A new reviewer name has its own best windows and format.
  const onReviewer = () => load();
  document.addEventListener('keydown', onKey);
  document.addEventListener('kaizen:reviewer', onReviewer);
  load();
  return () => {
    alive = false;
    document.removeEventListener('keydown', onKey);
    document.removeEventListener('kaizen:reviewer', onReviewer);
  };
}
