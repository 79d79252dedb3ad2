// The review modal: one <dialog> per opening, for one queue item, collecting one seed 000 §2
// FeedbackEvent (decision, scores, free text, A/B comparison, annotations, confidence) and the
// FeedbackMeta signals measured in this tab. Nothing in `meta` is guessed: a value the page did
// not measure is left out, and timeOfDay / dayOfWeek / sessionFatigue are computed by the server
// at ingest (seed 000 §4 Stage 2), so they are never sent.
import {announce, api, el, isTyping, newId, reviewer, sessionId, setToken} from './common.js';

// seed 000 §2 QualityDimension, in the seed's order.
export const DIMENSIONS = [
  'code-quality',
  'design-aesthetics',
  'design-ux',
  'test-coverage',
  'documentation',
  'architecture',
  'error-handling',
  'performance',
  'security',
  'creativity',
  'completeness',
  'naming',
  'dx',
];

// The dimensions shown first for each WorkProductRef type; the rest wait under "More dimensions".
// The seed does not say which matter for which type: these follow its own examples (§10 scores
// code-quality, error-handling, test-coverage, completeness for an MCP server).
const RELEVANT = {
  'mcp-server': ['code-quality', 'error-handling', 'test-coverage', 'security', 'completeness'],
  'code-module': ['code-quality', 'error-handling', 'test-coverage', 'naming', 'completeness'],
  'design': ['design-aesthetics', 'design-ux', 'creativity', 'completeness'],
  'test-suite': ['test-coverage', 'completeness', 'code-quality', 'naming'],
  'documentation': ['documentation', 'completeness', 'dx', 'naming'],
  'pipeline-config': ['architecture', 'error-handling', 'performance', 'security'],
};

// seed 000 §3.5 presentation formats, with their tab shortcut keys (f / u / s).
const FORMATS = [
  {key: 'diff-summary', label: 'Diff + summary', shortcut: 'f'},
  {key: 'full-file', label: 'Full file', shortcut: 'u'},
  {key: 'summary-only', label: 'Summary only', shortcut: 's'},
];

const DECISIONS = [
  {value: 'approved', label: 'Approve', shortcut: 'a'},
  {value: 'rejected', label: 'Reject', shortcut: 'r'},
  {value: 'needs-work', label: 'Needs work', shortcut: 'n'},
  {value: 'deferred', label: 'Defer', shortcut: 'd'},
];
const SEVERITIES = ['minor', 'moderate', 'major', 'critical'];
const ANNOTATION_TYPES = ['praise', 'criticism', 'question', 'suggestion'];
const ANNOTATION_SEVERITIES = ['nit', 'minor', 'major', 'critical'];
const CONFIDENCE_LEVELS = [
  {value: 'very-unsure', label: 'Very unsure'},
  {value: 'somewhat-unsure', label: 'Somewhat unsure'},
  {value: 'fairly-sure', label: 'Fairly sure'},
  {value: 'very-sure', label: 'Very sure'},
];
const PREFERRED = [
  {value: 'A', label: 'A'},
  {value: 'B', label: 'B (this version)'},
  {value: 'neither', label: 'Neither'},
  {value: 'both-good', label: 'Both good'},
];
const STRENGTHS = ['slight', 'moderate', 'strong', 'overwhelming'];

export const SHORTCUTS = [
  ['a / r / n / d', 'approve / reject / needs work / defer'],
  ['1 … 9, 0', 'score the current dimension 1 … 9, 10'],
  ['[ / ]', 'previous / next dimension'],
  ['c', 'comment on the current dimension'],
  ['f / u / s', 'show diff + summary / full file / summary only'],
  ['click, shift+click a line', 'annotate a line or a range of lines'],
  ['Ctrl+Enter', 'submit the review'],
  ['Esc', 'close (asks first when something was filled in)'],
  ['?', 'show or hide this list'],
];

// ---- other tabs' open modals (meta.concurrentModals) -------------------------------------------
// Every tab with a modal open answers presence queries and pings while it stays open; a tab that
// has not pinged for PRESENCE_TTL_MS is taken as gone (closed without saying so).
const PRESENCE_PING_MS = 2000;
const PRESENCE_TTL_MS = 5000;
const TAB_ID = newId();
const presence = new Map();  // tab id -> Date.now() of its last ping
let modalOpenHere = false;
let onPresenceChange = null;  // the open modal's display of the other tabs' modals
let channel = null;
if (typeof BroadcastChannel !== 'undefined') {
  channel = new BroadcastChannel('kaizen-modals');
  channel.onmessage = ({data}) => {
    if (!data || data.tab === TAB_ID) return;
    if (data.type === 'open' || data.type === 'here') presence.set(data.tab, Date.now());
    if (data.type === 'closed') presence.delete(data.tab);
    if (onPresenceChange) onPresenceChange();
    if ((data.type === 'query' || data.type === 'open') && modalOpenHere) {
      channel.postMessage({type: 'here', tab: TAB_ID});
    }
  };
  channel.postMessage({type: 'query', tab: TAB_ID});
  addEventListener('pagehide', () => {
    if (modalOpenHere) channel.postMessage({type: 'closed', tab: TAB_ID});
  });
}
function otherOpenModals() {
  const fresh = Date.now() - PRESENCE_TTL_MS;
  let n = 0;
  for (const seen of presence.values()) n += seen >= fresh ? 1 : 0;
  return n;
}

// ---- small DOM helpers ----------------------------------------------------------------------
let uidCounter = 0;
const uid = (p) => `${p}-${++uidCounter}`;

function radioGroup(name, options, legendText, cls) {
  const set = el('fieldset', {class: `radio-group ${cls || ''}`}, el('legend', {}, legendText));
  const inputs = {};
  for (const o of options) {
    const id = uid(name);
    const input = el('input', {type: 'radio', name, id, value: o.value});
    inputs[o.value] = input;
    set.append(el('label', {'for': id, class: 'choice'}, input, ` ${o.label}`));
  }
  return {set, inputs, value: () => options.map((o) => o.value).find((v) => inputs[v].checked)};
}

function textField(labelText, multiline, hint) {
  const id = uid('f');
  const control = multiline ? el('textarea', {id, rows: '2'}) : el('input', {id, type: 'text'});
  const wrap = el('div', {class: 'field'}, el('label', {'for': id}, labelText), control);
  if (hint) {
    const hid = uid('hint');
    wrap.append(el('p', {class: 'hint', id: hid}, hint));
    control.setAttribute('aria-describedby', hid);
  }
  return {wrap, control};
}

function selectField(labelText, options, emptyLabel) {
  const id = uid('s');
  const control = el('select', {id}, el('option', {value: ''}, emptyLabel));
  for (const o of options) control.append(el('option', {value: o}, o));
  return {wrap: el('div', {class: 'field'}, el('label', {'for': id}, labelText), control), control};
}

const lines = (text) => text.split('\n').map((s) => s.trim()).filter(Boolean);

// A unified diff as rows; `newNo` is the line number in the current file (null for a removed line),
// which is what an annotation names.
export function parseDiff(text) {
  const rows = [];
  let oldNo = 0, newNo = 0, oldLeft = 0, newLeft = 0;
  for (const line of text.split('\n')) {
    const hunk = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(line);
    if (hunk) {
      oldNo = +hunk[1];
      oldLeft = hunk[2] === undefined ? 1 : +hunk[2];
      newNo = +hunk[3];
      newLeft = hunk[4] === undefined ? 1 : +hunk[4];
      rows.push({kind: 'hunk', text: line});
    } else if ((oldLeft > 0 || newLeft > 0) && line[0] === '+') {
      rows.push({kind: 'add', oldNo: null, newNo: newNo++, text: line.slice(1)});
      newLeft--;
    } else if ((oldLeft > 0 || newLeft > 0) && line[0] === '-') {
      rows.push({kind: 'del', oldNo: oldNo++, newNo: null, text: line.slice(1)});
      oldLeft--;
    } else if ((oldLeft > 0 || newLeft > 0) && (line[0] === ' ' || line === '')) {
      rows.push({kind: 'ctx', oldNo: oldNo++, newNo: newNo++, text: line.slice(1)});
      oldLeft--;
      newLeft--;
    } else if (line !== '') {
      rows.push({kind: 'meta', text: line});
    }
  }
  return rows;
}

// ---- the modal ------------------------------------------------------------------------------

// Opens the modal for `item` (a /v1/queue item). `opts.bestFormat` is the queue's learned format.
// Resolves when the modal closes: {submitted, decision}.
export function openReview(item, opts = {}) {
  return new Promise((resolve) => new ReviewModal(item, opts, resolve).open());
}

class ReviewModal {
  constructor(item, opts, done) {
    this.item = item;
    this.wp = item.workProduct || {};
    this.done = done;
    this.format = FORMATS.some((f) => f.key === opts.bestFormat) ? opts.bestFormat : 'diff-summary';
    this.modalId = newId();
    this.depth = {};  // format -> deepest fraction of the artifact pane seen
    this.annotations = [];
    this.anchorLine = null;
    this.dirty = false;
    this.submitting = false;
    this.work = null;           // the /v1/work answer once loaded
    this.fieldEls = new Map();  // field path -> the element its errors are shown in
    this.dimIndex = 0;
  }

  open() {
    const key = `kaizen.modalOpens.${this.wp.id}@${this.wp.version}`;
    this.revisits = Number(sessionStorage.getItem(key) || 0);
    sessionStorage.setItem(key, String(this.revisits + 1));

    this.dialog = this.build();
    document.body.append(this.dialog);
    this.dialog.showModal();
    this.openedAt = performance.now();
    this.firstInteraction = null;
    for (const type of ['pointerdown', 'keydown', 'input']) {
      this.dialog.addEventListener(type, () => {
        if (this.firstInteraction === null) this.firstInteraction = performance.now();
      }, true);
    }
    // On the document, not the dialog: keys still work when focus falls to <body> (a focused
    // control that was hidden or removed).
    this.keyListener = (e) => this.onKey(e);
    document.addEventListener('keydown', this.keyListener);
    this.dialog.addEventListener('cancel', (e) => {
      e.preventDefault();
      this.requestClose();
    });
    this.dialog.addEventListener('input', () => this.dirty = true);
    this.dialog.addEventListener('change', () => this.dirty = true);
    this.tabs[this.format].focus();

    modalOpenHere = true;
    onPresenceChange = () => this.showConcurrent();
    this.showConcurrent();
    this.presenceTimer = setInterval(() => this.showConcurrent(), PRESENCE_PING_MS);
    if (channel) {
      channel.postMessage({type: 'open', tab: TAB_ID});
      this.pinger =
          setInterval(() => channel.postMessage({type: 'here', tab: TAB_ID}), PRESENCE_PING_MS);
    }
    this.loadWork();
  }

  close(submitted, decision) {
    modalOpenHere = false;
    onPresenceChange = null;
    document.removeEventListener('keydown', this.keyListener);
    clearInterval(this.pinger);
    clearInterval(this.presenceTimer);
    if (channel) channel.postMessage({type: 'closed', tab: TAB_ID});
    if (this.dialog.open) this.dialog.close();
    this.dialog.remove();
    this.done({submitted, decision: decision || null});
  }

  showConcurrent() {
    const n = otherOpenModals();
    this.concurrent.textContent = n ? `${n} other review${n === 1 ? '' : 's'} open in ` +
            `another tab.` :
                                      '';
  }

  // ---- building the dialog ----

  build() {
    const wp = this.wp;
    const titleId = uid('rv-title');
    const dialog = el('dialog', {class: 'review-modal', 'aria-labelledby': titleId});
    const facts = [
      wp.type,
      this.item.mcpServerType,
      this.item.pipelineStage,
      `${wp.id} @ ${wp.version}`,
    ].filter(Boolean).join(' · ');

    this.helpButton =
        el('button', {
          type: 'button',
          class: 'secondary help-toggle',
          'aria-expanded': 'false',
          'aria-controls': 'rv-help'
        },
           '? Shortcuts');
    this.helpButton.addEventListener('click', () => this.toggleHelp());
    const closeButton = el('button', {type: 'button', class: 'secondary close'}, 'Close');
    closeButton.addEventListener('click', () => this.requestClose());
    this.help =
        el('section', {id: 'rv-help', class: 'shortcut-help', 'aria-label': 'Keyboard shortcuts'});
    const dl = el('dl');
    for (const [keys, what] of SHORTCUTS) dl.append(el('dt', {}, keys), el('dd', {}, what));
    this.help.append(
        el('h3', {}, 'Keyboard shortcuts'), dl,
        el('p', {class: 'hint'},
           'Shortcuts pause while you type in a text field ' +
               '(Ctrl+Enter and Esc still work).'));
    this.help.hidden = true;

    this.concurrent = el('p', {class: 'hint concurrent'});
    const header =
        el('header', {class: 'rv-header'},
           el('div', {}, el('h2', {id: titleId}, wp.summary || wp.id),
              el('p', {class: 'muted'}, facts), this.concurrent),
           el('div', {class: 'rv-header-actions'}, this.helpButton, closeButton));

    this.form = el('form', {class: 'rv-form', novalidate: ''});
    this.form.addEventListener('submit', (e) => {
      e.preventDefault();
      this.submit();
    });
    const body = el('div', {class: 'rv-body'}, this.buildArtifact(), this.buildFields());
    this.statusBox = el('div', {class: 'rv-status', role: 'alert'});
    this.confirmBar = this.buildConfirm();
    const submit = el('button', {type: 'submit', class: 'primary'}, 'Submit review');
    const cancel = el('button', {type: 'button', class: 'secondary'}, 'Cancel');
    cancel.addEventListener('click', () => this.requestClose());
    this.submitButton = submit;
    const footer =
        el('footer', {class: 'rv-footer'}, this.statusBox, this.confirmBar,
           el('div', {class: 'rv-actions'}, el('span', {class: 'hint'}, 'Ctrl+Enter submits'),
              cancel, submit));
    this.form.append(header, this.help, body, footer);
    dialog.append(this.form);
    return dialog;
  }

  buildArtifact() {
    const tablist =
        el('div', {role: 'tablist', 'aria-label': 'Presentation format', class: 'format-tabs'});
    this.tabs = {};
    this.pane =
        el('div', {class: 'artifact-pane', role: 'tabpanel', tabindex: '0'},
           el('p', {class: 'muted'}, 'Loading the work…'));
    this.pane.id = uid('pane');
    for (const f of FORMATS) {
      const tab =
          el('button',
             {type: 'button', role: 'tab', 'aria-controls': this.pane.id, 'data-format': f.key},
             `${f.label} (${f.shortcut})`);
      tab.id = uid('tab');
      tab.addEventListener('click', () => this.showFormat(f.key));
      this.tabs[f.key] = tab;
      tablist.append(tab);
    }
    tablist.addEventListener('keydown', (e) => {
      if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
      const i = FORMATS.findIndex((f) => f.key === this.format);
      const next =
          FORMATS[(i + (e.key === 'ArrowRight' ? 1 : FORMATS.length - 1)) % FORMATS.length];
      this.showFormat(next.key);
      this.tabs[next.key].focus();
    });
    this.markTabs();
    this.pane.addEventListener('scroll', () => this.measureDepth(), {passive: true});
    this.pane.addEventListener('click', (e) => this.onLineClick(e));
    return el(
        'section', {class: 'rv-artifact', 'aria-label': 'The work under review'}, tablist,
        this.pane);
  }

  buildFields() {
    const box = el('div', {class: 'rv-fields'});

    // Decision (seed 000 §2 DecisionFeedback).
    this.decision = radioGroup(
        'decision', DECISIONS.map((d) => ({value: d.value, label: `${d.label} (${d.shortcut})`})),
        'Decision', 'decision');
    this.severity = selectField('Severity (for a rejection or needs work)', SEVERITIES, '—');
    this.reason = textField('Reason', false);
    this.blockers = textField('Blockers', true, 'One per line.');
    this.suggestions = textField('Suggestions', true, 'One per line.');
    this.fieldEls.set('decision', this.decision.set);
    this.fieldEls.set('decision.decision', this.decision.set);
    this.fieldEls.set('decision.severity', this.severity.wrap);
    this.fieldEls.set('decision.reason', this.reason.wrap);
    this.fieldEls.set('decision.blockers', this.blockers.wrap);
    this.fieldEls.set('decision.suggestions', this.suggestions.wrap);
    box.append(
        el('section', {class: 'rv-section', 'aria-label': 'Decision'}, this.decision.set,
           this.severity.wrap, this.reason.wrap, this.blockers.wrap, this.suggestions.wrap));

    // Scores, the relevant few first (seed 000 §2 DimensionScore).
    const first = RELEVANT[this.wp.type] || RELEVANT['code-module'];
    this.dimOrder = [...first, ...DIMENSIONS.filter((d) => !first.includes(d))];
    this.dims = {};
    const shown = el('div', {class: 'dims'});
    this.more =
        el('details', {class: 'more-dims'},
           el('summary', {}, `More dimensions (${this.dimOrder.length - first.length})`));
    const moreBox = el('div', {class: 'dims'});
    this.more.append(moreBox);
    this.dimOrder.forEach((dim, i) => {
      const row = this.buildDimension(dim, i);
      (first.includes(dim) ? shown : moreBox).append(row);
    });
    box.append(
        el('section', {class: 'rv-section', 'aria-label': 'Scores'},
           el('h3', {}, 'Scores (1-10, optional)'), shown, this.more));
    this.markCurrentDim();

    // Free text (seed 000 §2 FreeTextFeedback).
    this.liked = textField('Liked', true);
    this.disliked = textField('Disliked', true);
    this.notes = textField('General notes', true);
    this.fieldEls.set('freeText.liked', this.liked.wrap);
    this.fieldEls.set('freeText.disliked', this.disliked.wrap);
    this.fieldEls.set('freeText.generalNotes', this.notes.wrap);
    box.append(
        el('section', {class: 'rv-section', 'aria-label': 'Notes'}, el('h3', {}, 'Notes'),
           this.liked.wrap, this.disliked.wrap, this.notes.wrap));

    // Annotations: made by clicking lines in the artifact pane.
    this.annList = el('ul', {class: 'annotations'});
    this.annSection = el(
        'section', {class: 'rv-section', 'aria-label': 'Annotations'}, el('h3', {}, 'Annotations'),
        el('p', {class: 'hint'}, 'Click a line number in the work (shift+click for a range).'),
        this.annList);
    this.fieldEls.set('annotations', this.annSection);
    box.append(this.annSection);
    this.renderAnnotations();

    // Confidence (seed 000 §2 ConfidenceFeedback).
    this.confidence = radioGroup('confidence', CONFIDENCE_LEVELS, 'Your confidence', 'confidence');
    this.delegate = el('input', {type: 'checkbox', id: uid('cb')});
    this.expert = el('input', {type: 'checkbox', id: uid('cb')});
    this.confidence.set.append(
        el('div', {class: 'checks'},
           el('label', {'for': this.delegate.id, class: 'choice'}, this.delegate,
              ' The agent could have made this call'),
           el('label', {'for': this.expert.id, class: 'choice'}, this.expert,
              ' Someone else should also look')));
    this.fieldEls.set('confidence', this.confidence.set);
    box.append(
        el('section', {class: 'rv-section', 'aria-label': 'Confidence'}, this.confidence.set));

    box.append(this.buildComparison());
    return box;
  }

  buildDimension(dim, index) {
    const group = el('fieldset', {class: 'dim', 'data-dim': dim});
    group.append(el('legend', {}, dim));
    const radios = [];
    const scale = el('div', {class: 'scale'});
    for (let s = 1; s <= 10; s++) {
      const id = uid('sc');
      const r = el('input', {type: 'radio', name: `score-${dim}`, id, value: String(s)});
      radios.push(r);
      scale.append(el('label', {'for': id, class: 'score-choice'}, r, el('span', {}, String(s))));
    }
    const clear = el(
        'button', {type: 'button', class: 'link', 'aria-label': `Clear the ${dim} score`}, 'clear');
    clear.addEventListener('click', () => {
      for (const r of radios) r.checked = false;
      this.dirty = true;
    });
    const comment = textField(`${dim} comment`, false);
    comment.wrap.classList.add('dim-comment');
    group.append(scale, clear, comment.wrap);
    group.addEventListener('focusin', () => {
      this.dimIndex = index;
      this.markCurrentDim();
    });
    this.dims[dim] = {
      group,
      radios,
      comment: comment.control,
      score: () => {
        const r = radios.find((x) => x.checked);
        return r ? Number(r.value) : null;
      }
    };
    this.fieldEls.set(`scores.${dim}`, group);
    return group;
  }

  buildComparison() {
    const versions = (this.item.versions || []).filter((v) => v !== this.wp.version);
    const details =
        el('details', {class: 'rv-section comparison'},
           el('summary', {}, 'A/B comparison (optional)'));
    this.comparisonBox = details;
    this.fieldEls.set('comparison', details);
    if (!versions.length) {
      details.append(
          el('p', {class: 'muted'}, 'No other recorded version of this work to compare with.'));
      this.cmp = null;
      return details;
    }
    // Option A defaults to the version just before this one ("the older one"); else the first
    // other.
    const all = this.item.versions || [];
    const mine = all.indexOf(this.wp.version);
    const older = mine > 0 ? all[mine - 1] : versions[0];
    const optionA = selectField('Option A (another version)', versions, 'none');
    optionA.control.value = older;
    const preferred = radioGroup('preferred', PREFERRED, 'Which is better?', 'preferred');
    const strength = radioGroup(
        'strength', STRENGTHS.map((s) => ({value: s, label: s})), 'How strongly?', 'strength');
    const reason = textField('Why', false);
    const winners = el('div', {class: 'winners'});
    const winnerSelects = {};
    for (const dim of this.dimOrder) {
      const s = selectField(dim, ['A', 'B', 'tie'], '—');
      winnerSelects[dim] = s.control;
      winners.append(s.wrap);
    }
    details.append(
        el('p', {class: 'hint'}, `Option B is this version (${this.wp.version}).`), optionA.wrap,
        preferred.set, strength.set, reason.wrap,
        el('details', {class: 'winners-box'}, el('summary', {}, 'Winner per dimension'), winners));
    this.cmp =
        {optionA: optionA.control, preferred, strength, reason: reason.control, winnerSelects};
    this.fieldEls.set('comparison.optionA', optionA.wrap);
    this.fieldEls.set('comparison.preferred', preferred.set);
    this.fieldEls.set('comparison.preferenceStrength', strength.set);
    this.fieldEls.set('comparison.reason', reason.wrap);
    this.fieldEls.set('comparison.dimensions', details.querySelector('.winners-box'));
    return details;
  }

  buildConfirm() {
    const discard = el('button', {type: 'button', class: 'danger'}, 'Discard');
    const keep = el('button', {type: 'button', class: 'secondary'}, 'Keep reviewing');
    discard.addEventListener('click', () => this.close(false));
    keep.addEventListener('click', () => this.hideConfirm());
    this.keepButton = keep;
    const bar =
        el('div', {class: 'confirm-bar', role: 'alertdialog', 'aria-label': 'Discard this review?'},
           el('span', {}, 'Discard what you filled in?'), discard, keep);
    bar.hidden = true;
    return bar;
  }

  // ---- the artifact pane ----

  async loadWork() {
    const path =
        `/v1/work/${encodeURIComponent(this.wp.id)}?version=` + encodeURIComponent(this.wp.version);
    try {
      const {status, body} = await api.get(path);
      if (status !== 200) {
        const msg = body && body.error ? body.error.message : `HTTP ${status}`;
        this.work = {workProduct: this.wp, file: null, diff: null, unavailable: msg};
      } else {
        this.work = body;
      }
    } catch (err) {
      this.work = {
        workProduct: this.wp,
        file: null,
        diff: null,
        unavailable: `network error: ${err.message}`
      };
    }
    if (this.dialog.isConnected) this.renderPane();
  }

  showFormat(key) {
    this.format = key;
    this.markTabs();
    if (this.work) this.renderPane();
  }

  markTabs() {
    for (const f of FORMATS) {
      const on = f.key === this.format;
      this.tabs[f.key].setAttribute('aria-selected', on ? 'true' : 'false');
      this.tabs[f.key].tabIndex = on ? 0 : -1;
      if (on) this.pane.setAttribute('aria-labelledby', this.tabs[f.key].id);
    }
  }

  renderPane() {
    const pane = this.pane;
    pane.replaceChildren();
    pane.scrollTop = 0;
    const work = this.work;
    const summary =
        el('div', {class: 'summary'}, el('h3', {}, 'Summary'),
           el('p', {}, this.wp.summary || '(no summary)'));
    if (this.format === 'summary-only') {
      pane.append(summary, this.factsList());
    } else if (this.format === 'diff-summary') {
      pane.append(summary);
      if (work.diff && work.diff.text) {
        if (work.diff.source) pane.append(el('p', {class: 'muted'}, `Diff: ${work.diff.source}`));
        pane.append(this.codeBlock(parseDiff(work.diff.text), true));
      } else {
        pane.append(el('p', {class: 'muted'}, `No diff: ${work.unavailable || 'no changes'}`));
      }
    } else if (work.file) {
      const rows = work.file.text.split('\n');
      if (rows.length && rows[rows.length - 1] === '') rows.pop();
      pane.append(
          el('p', {class: 'muted'}, work.file.path + (work.file.truncated ? ' (truncated)' : '')),
          this.codeBlock(rows.map((text, i) => ({kind: 'ctx', newNo: i + 1, text})), false));
    } else {
      pane.append(el('p', {class: 'muted'}, `No file: ${work.unavailable || 'none recorded'}`));
    }
    this.markSelectedLines();
    requestAnimationFrame(() => this.measureDepth());
  }

  factsList() {
    const wp = this.wp;
    const gc = wp.generationContext || {};
    const dl = el('dl', {class: 'facts'});
    const add = (k, v) => {
      if (v !== undefined && v !== null && v !== '') dl.append(el('dt', {}, k), el('dd', {}, v));
    };
    add('Type', wp.type);
    add('Path', wp.path);
    add('Version', wp.version);
    add('Agent confidence',
        wp.bubaConfidence !== undefined ? `${Math.round(wp.bubaConfidence * 100)}%` : null);
    add('Predicted score',
        wp.bubaScorePrediction !== undefined ? String(wp.bubaScorePrediction) : null);
    add('Model', gc.modelUsed);
    add('Self-review rounds', gc.iterationCount !== undefined ? String(gc.iterationCount) : null);
    add('Why in the queue', this.item.why);
    return dl;
  }

  // Rows of {kind, oldNo, newNo, text}; a row with a newNo is a line of the current file and can
  // be annotated. Removed lines (diff '-') no longer exist in the file, so they cannot.
  codeBlock(rows, isDiff) {
    const block = el('div', {class: `code ${isDiff ? 'diff' : 'file'}`});
    for (const row of rows) {
      if (row.kind === 'meta' || row.kind === 'hunk') {
        block.append(
            el('div', {class: `code-line ${row.kind}`}, el('span', {class: 'ln'}),
               el('code', {}, row.text)));
        continue;
      }
      const line = el('div', {class: `code-line ${row.kind}`});
      if (isDiff) {
        line.append(
            el('span', {class: 'ln old', 'aria-hidden': 'true'},
               row.oldNo === null ? '' : String(row.oldNo)));
      }
      if (row.newNo !== null) {
        line.dataset.line = String(row.newNo);
        line.append(
            el('button', {type: 'button', class: 'ln', 'aria-label': `Annotate line ${row.newNo}`},
               String(row.newNo)));
      } else {
        line.append(el('span', {class: 'ln'}));
      }
      const sign = {add: '+', del: '-', ctx: ' '}[row.kind];
      if (isDiff) line.append(el('span', {class: 'sign', 'aria-hidden': 'true'}, sign));
      line.append(el('code', {}, row.text));
      block.append(line);
    }
    return block;
  }

  measureDepth() {
    const p = this.pane;
    if (!this.work || !p.isConnected) return;
    const seen =
        p.scrollHeight <= p.clientHeight ? 1 : (p.scrollTop + p.clientHeight) / p.scrollHeight;
    const clamped = Math.min(1, Math.max(0, seen));
    this.depth[this.format] = Math.max(this.depth[this.format] || 0, clamped);
  }

  // ---- annotations ----

  onLineClick(e) {
    const row = e.target.closest('.code-line[data-line]');
    if (!row || e.target.closest('.ann-form')) return;
    const n = Number(row.dataset.line);
    if (e.shiftKey && this.anchorLine !== null) {
      this.selection = [Math.min(this.anchorLine, n), Math.max(this.anchorLine, n)];
    } else {
      this.anchorLine = n;
      this.selection = [n, n];
    }
    this.openAnnotationForm();
  }

  markSelectedLines() {
    const [a, b] = this.selection || [0, -1];
    for (const row of this.pane.querySelectorAll('.code-line[data-line]')) {
      const n = Number(row.dataset.line);
      row.classList.toggle('selected', n >= a && n <= b);
    }
    const ann = new Set();
    for (const x of this.annotations) {
      for (let n = x.target.lineStart; n <= x.target.lineEnd; n++) ann.add(n);
    }
    for (const row of this.pane.querySelectorAll('.code-line[data-line]')) {
      row.classList.toggle('annotated', ann.has(Number(row.dataset.line)));
    }
  }

  openAnnotationForm() {
    this.closeAnnotationForm();
    this.markSelectedLines();
    const [a, b] = this.selection;
    const where = a === b ? `line ${a}` : `lines ${a}-${b}`;
    const type = radioGroup(
        'ann-type', ANNOTATION_TYPES.map((t) => ({value: t, label: t})), 'Kind', 'ann-type');
    const severity = selectField('Severity', ANNOTATION_SEVERITIES, '—');
    const text = textField('Annotation', true);
    const add = el('button', {type: 'button', class: 'primary'}, 'Add annotation');
    const cancel = el('button', {type: 'button', class: 'secondary'}, 'Cancel');
    const error = el('p', {class: 'field-error', role: 'alert'});
    error.hidden = true;
    const form =
        el('div', {class: 'ann-form', role: 'group', 'aria-label': `Annotate ${where}`},
           el('p', {class: 'ann-where'}, `Annotate ${where} of ${this.filePath()}`), type.set,
           severity.wrap, text.wrap, error, el('div', {}, add, cancel));
    add.addEventListener('click', () => {
      const t = type.value();
      const body = text.control.value.trim();
      if (!t || !body) {
        error.textContent = !t ? 'Choose the kind of annotation.' : 'Write the annotation text.';
        error.hidden = false;
        (!t ? type.inputs[ANNOTATION_TYPES[0]] : text.control).focus();
        return;
      }
      const annotation = {
        type: t,
        target: {file: this.filePath(), lineStart: a, lineEnd: b},
        text: body
      };
      if (severity.control.value) annotation.severity = severity.control.value;
      this.annotations.push(annotation);
      this.dirty = true;
      this.selection = null;
      this.closeAnnotationForm();
      this.renderAnnotations();
      this.markSelectedLines();
      announce(`Annotation added on ${where}.`);
    });
    cancel.addEventListener('click', () => {
      this.selection = null;
      this.closeAnnotationForm();
      this.markSelectedLines();
    });
    const rows = this.pane.querySelectorAll(`.code-line[data-line="${b}"]`);
    const after = rows[rows.length - 1];
    if (after)
      after.after(form);
    else
      this.pane.prepend(form);
    this.annForm = form;
    type.inputs[ANNOTATION_TYPES[0]].focus();
  }

  closeAnnotationForm() {
    if (this.annForm) this.annForm.remove();
    this.annForm = null;
  }

  filePath() {
    return (this.work && this.work.file && this.work.file.path) || this.wp.path || this.wp.id;
  }

  renderAnnotations() {
    this.annList.replaceChildren();
    if (!this.annotations.length) {
      this.annList.append(el('li', {class: 'muted'}, 'None yet.'));
      return;
    }
    this.annotations.forEach((x, i) => {
      const {lineStart: a, lineEnd: b} = x.target;
      const where = a === b ? `L${a}` : `L${a}-${b}`;
      const remove =
          el('button',
             {type: 'button', class: 'link', 'aria-label': `Remove the annotation on ${where}`},
             'remove');
      remove.addEventListener('click', () => {
        this.annotations.splice(i, 1);
        this.dirty = true;
        this.renderAnnotations();
        this.markSelectedLines();
      });
      this.annList.append(
          el('li', {'data-index': String(i)}, el('span', {class: 'badge'}, x.type),
             ` ${where}${x.severity ? ` · ${x.severity}` : ''}: ${x.text} `, remove));
    });
  }

  // ---- keyboard ----

  onKey(e) {
    if (e.key === 'Escape') {
      e.preventDefault();
      if (!this.help.hidden)
        this.toggleHelp();
      else if (this.annForm) {
        this.selection = null;
        this.closeAnnotationForm();
        this.markSelectedLines();
      } else if (!this.confirmBar.hidden)
        this.hideConfirm();
      else
        this.requestClose();
      return;
    }
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      this.submit();
      return;
    }
    if (e.ctrlKey || e.metaKey || e.altKey || isTyping(e)) return;
    const decision = DECISIONS.find((d) => d.shortcut === e.key);
    const format = FORMATS.find((f) => f.shortcut === e.key);
    if (decision) {
      this.decision.inputs[decision.value].checked = true;
      this.dirty = true;
    } else if (format) {
      this.showFormat(format.key);
    } else if (/^[0-9]$/.test(e.key)) {
      const dim = this.dims[this.dimOrder[this.dimIndex]];
      const score = e.key === '0' ? 10 : Number(e.key);
      dim.radios[score - 1].checked = true;
      this.dirty = true;
    } else if (e.key === '[' || e.key === ']') {
      const n = this.dimOrder.length;
      this.dimIndex = (this.dimIndex + (e.key === ']' ? 1 : n - 1)) % n;
      this.focusDim();
    } else if (e.key === 'c') {
      this.focusDim();
      this.dims[this.dimOrder[this.dimIndex]].comment.focus();
    } else if (e.key === '?') {
      this.toggleHelp();
    } else {
      return;
    }
    e.preventDefault();
  }

  focusDim() {
    const dim = this.dims[this.dimOrder[this.dimIndex]];
    if (this.more.contains(dim.group)) this.more.open = true;
    (dim.radios.find((r) => r.checked) || dim.radios[0]).focus();
    this.markCurrentDim();
  }

  markCurrentDim() {
    this.dimOrder.forEach(
        (d, i) => this.dims[d].group.classList.toggle('current', i === this.dimIndex));
  }

  toggleHelp() {
    this.help.hidden = !this.help.hidden;
    this.helpButton.setAttribute('aria-expanded', this.help.hidden ? 'false' : 'true');
  }

  requestClose() {
    if (!this.dirty) {
      this.close(false);
      return;
    }
    this.focusBeforeConfirm = document.activeElement;
    this.confirmBar.hidden = false;
    this.keepButton.focus();
  }

  hideConfirm() {
    this.confirmBar.hidden = true;
    const back = this.focusBeforeConfirm;
    if (back && back.isConnected && this.dialog.contains(back))
      back.focus();
    else
      this.submitButton.focus();
  }

  // ---- the event ----

  // The FeedbackEvent as filled in, plus the client-side field errors that stop it being sent.
  // fieldsModified names every field whose value differs from the empty form it opened with.
  collect() {
    const errors = [];
    const modified = [];
    const body = {
      sessionId: sessionId(),
      modalId: this.modalId,
      modalVersion: 'web-1',
      workProduct: {id: this.wp.id, version: this.wp.version},
      pipelineStage: this.item.pipelineStage || 'review',
    };
    if (this.item.mcpServerType) body.mcpServerType = this.item.mcpServerType;
    const who = reviewer();
    if (who) body.reviewerId = who;

    const decision = this.decision.value();
    const severity = this.severity.control.value;
    const reason = this.reason.control.value.trim();
    const blockers = lines(this.blockers.control.value);
    const suggestions = lines(this.suggestions.control.value);
    if (decision) {
      body.decision = {decision};
      modified.push('decision');
      if (severity) {
        body.decision.severity = severity;
        modified.push('decision.severity');
      }
      if (reason) {
        body.decision.reason = reason;
        modified.push('decision.reason');
      }
      if (blockers.length) {
        body.decision.blockers = blockers;
        modified.push('decision.blockers');
      }
      if (suggestions.length) {
        body.decision.suggestions = suggestions;
        modified.push('decision.suggestions');
      }
    } else {
      // A review in the queue ends in a decision; defer when it cannot be made yet.
      errors.push({
        path: 'decision',
        message: 'Choose a decision (approve, reject, needs work ' +
            'or defer).'
      });
    }

    const scores = [];
    for (const dim of this.dimOrder) {
      const d = this.dims[dim];
      const score = d.score();
      const comment = d.comment.value.trim();
      if (score === null) {
        if (comment)
          errors.push({
            path: `scores.${dim}`,
            message: 'Score this dimension to ' +
                'keep its comment.'
          });
        continue;
      }
      const s = {dimension: dim, score};
      modified.push(`scores.${dim}`);
      if (comment) {
        s.comment = comment;
        modified.push(`scores.${dim}.comment`);
      }
      scores.push(s);
    }
    if (scores.length) body.scores = scores;

    const freeText = {};
    for (const [key, f] of [
             ['liked', this.liked], ['disliked', this.disliked], ['generalNotes', this.notes]]) {
      const v = f.control.value.trim();
      if (v) {
        freeText[key] = v;
        modified.push(`freeText.${key}`);
      }
    }
    if (Object.keys(freeText).length) body.freeText = freeText;

    const comparison = this.collectComparison(errors);
    if (comparison) {
      body.comparison = comparison;
      modified.push('comparison');
    }

    if (this.annotations.length) {
      body.annotations = this.annotations.map((x) => structuredClone(x));
      modified.push('annotations');
    }

    const level = this.confidence.value();
    if (level) {
      body.confidence = {
        level,
        wouldDelegateToAI: this.delegate.checked,
        needsExpertReview: this.expert.checked
      };
      modified.push('confidence');
    } else if (this.delegate.checked || this.expert.checked) {
      errors.push({path: 'confidence', message: 'Choose how sure you are, or clear the boxes.'});
    }

    body.meta = this.measure(modified);
    return {body, errors};
  }

  collectComparison(errors) {
    if (!this.cmp) return null;
    const c = this.cmp;
    const preferred = c.preferred.value();
    const strength = c.strength.value();
    const reason = c.reason.value.trim();
    const winners = Object.entries(c.winnerSelects).filter(([, s]) => s.value);
    const touched = preferred || strength || reason || winners.length;
    if (!touched) return null;
    if (!c.optionA.value) {
      errors.push({path: 'comparison.optionA', message: 'Choose the version to compare with.'});
      return null;
    }
    const out = {
      optionA: {id: this.wp.id, version: c.optionA.value},
      optionB: {id: this.wp.id, version: this.wp.version}
    };
    if (preferred)
      out.preferred = preferred;
    else
      errors.push({path: 'comparison.preferred', message: 'Choose which version is better.'});
    if (strength)
      out.preferenceStrength = strength;
    else
      errors.push({path: 'comparison.preferenceStrength', message: 'Choose how strongly.'});
    if (reason) out.reason = reason;
    if (winners.length)
      out.dimensions = winners.map(([dimension, s]) => ({dimension, winner: s.value}));
    return out;
  }

  // FeedbackMeta from what this tab measured (seed 000 §2).
  measure(modified) {
    const now = performance.now();
    const meta = {
      timeToDecisionMs: Math.round(now - this.openedAt),
      timeToFirstInteractionMs: Math.round((this.firstInteraction ?? now) - this.openedAt),
      revisits: this.revisits,
      deviceType: matchMedia('(pointer: coarse)').matches || innerWidth < 768 ? 'mobile' :
                                                                                'desktop',
      concurrentModals: otherOpenModals(),
      presentationFormat: this.format,
    };
    if (modified.length) meta.fieldsModified = modified;
    // The pane's depth for the format on screen at submit; absent when the work never loaded.
    if (this.depth[this.format] !== undefined) {
      meta.scrollDepth = Math.round(this.depth[this.format] * 1000) / 1000;
    }
    return meta;
  }

  async submit() {
    if (this.submitting) return;
    this.clearErrors();
    this.measureDepth();
    const {body, errors} = this.collect();
    if (errors.length) {
      this.showErrors(errors, body, 'Not sent: fix the marked fields.');
      return;
    }
    this.submitting = true;
    this.submitButton.disabled = true;
    this.statusBox.textContent = 'Sending…';
    let answer;
    try {
      answer = await api.post('/v1/feedback', body);
    } catch (err) {
      this.statusBox.textContent = `Network error: ${err.message}. Your review is kept; ` +
          'submit again when the server is back.';
      this.submitting = false;
      this.submitButton.disabled = false;
      return;
    }
    this.submitting = false;
    this.submitButton.disabled = false;
    const {status, body: reply} = answer;
    if (status === 201 || status === 200) {
      announce(`Review stored: ${body.decision.decision} for ${this.wp.summary || this.wp.id}.`);
      this.close(true, body.decision.decision);
      return;
    }
    const err = (reply && reply.error) || {};
    if (status === 401 || status === 403) {
      this.askForToken(status, err);
      return;
    }
    if (status === 422 || status === 400 || status === 409) {
      const list =
          (err.errors || []).map((x) => ({path: x.path || x.field || '', message: x.message}));
      this.showErrors(list, body, `Refused (${status}): ${err.message || 'invalid review'}`);
      return;
    }
    this.statusBox.textContent = `The server answered ${status}: ${err.message || reply}. ` +
        'Your review is kept.';
  }

  // The header's sign-in is behind the modal, so the modal asks for the token itself; the review
  // stays filled in.
  askForToken(status, err) {
    const id = uid('token');
    const input = el('input', {id, type: 'password', autocomplete: 'off'});
    const retry = el('button', {type: 'button'}, 'Sign in and submit');
    retry.addEventListener('click', () => {
      if (!input.value.trim()) return input.focus();
      setToken(input.value.trim());
      this.submit();
    });
    input.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && !e.ctrlKey && !e.metaKey) {
        e.preventDefault();
        retry.click();
      }
    });
    this.statusBox.replaceChildren(
        el('p', {},
           `The server refused the token (${status} ${err.code || ''}): ` +
               `${err.message || 'sign-in needed'}`),
        el('div', {class: 'token-ask'}, el('label', {'for': id}, 'API token'), input, retry),
        el('p', {class: 'hint'}, 'Your review is kept.'));
    announce('Sign-in needed: the server refused the token.');
    input.focus();
  }

  clearErrors() {
    for (const p of this.dialog.querySelectorAll('.field-error.server')) p.remove();
    for (const x of this.dialog.querySelectorAll('[aria-invalid]')) {
      x.removeAttribute('aria-invalid');
    }
    this.statusBox.replaceChildren();
  }

  // Shows each error next to its field (by JSON path, scores[i] mapped to its dimension) and all
  // of them in the status region.
  showErrors(errors, body, headline) {
    const items = el('ul');
    for (const e of errors) {
      const path = this.localPath(e.path, body);
      const host = this.hostFor(path);
      items.append(el('li', {}, e.path ? `${e.path}: ${e.message}` : e.message));
      if (!host) continue;
      const p = el('p', {class: 'field-error server', id: uid('err')}, e.message);
      host.append(p);
      const control = host.matches('input, select, textarea') ?
          host :
          host.querySelector('input, select, textarea');
      if (control) {
        control.setAttribute('aria-invalid', 'true');
        const by = control.getAttribute('aria-describedby');
        control.setAttribute('aria-describedby', by ? `${by} ${p.id}` : p.id);
      }
      if (host.tagName === 'DETAILS') host.open = true;
      if (host.closest('details')) host.closest('details').open = true;
    }
    this.statusBox.replaceChildren(el('p', {}, headline), items);
  }

  localPath(path, body) {
    const m = /^scores\[(\d+)\]/.exec(path || '');
    if (m && body.scores && body.scores[+m[1]]) {
      return `scores.${body.scores[+m[1]].dimension}`;
    }
    return (path || '').replace(/\[\d+\]/g, '');
  }

  hostFor(path) {
    const parts = path.split('.');
    while (parts.length) {
      const host = this.fieldEls.get(parts.join('.'));
      if (host) return host;
      parts.pop();
    }
    return null;
  }
}
