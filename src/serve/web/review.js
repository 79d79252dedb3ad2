// The review modal: one <dialog> per opening, for one queue item, collecting one seed 000 §2
// FeedbackEvent (decision, scores, free text, A/B comparison, annotations, confidence) and the
// FeedbackMeta signals measured in this tab. Nothing in `meta` is guessed: a value the page did
// not measure is left out, and timeOfDay / dayOfWeek / sessionFatigue are computed by the server
// at ingest (seed 000 §4 Stage 2), so they are never sent.
//
// This file is the modal's life: open, close (asking first when something was filled in),
// submit, and the server's answer shown next to the fields it names. The rest of ReviewModal is
// mixed in from one module per part, each working on the same `this`:
//   review_artifact.js    the work in its presentation formats, scroll depth
//   review_annotations.js line annotations
//   review_form.js        decision, scores, free text, confidence; collect() builds the event
//   review_comparison.js  the A/B comparison
//   review_meta.js        FeedbackMeta: timings, revisits, device, concurrent modals
//   review_keys.js        keyboard shortcuts and their help list
// A mixin, not a class per part, because the parts share the modal's state (the dialog, the
// format on screen, the field-error hosts) and call each other (a key shows a format, a submit
// measures the depth).
import {announce, api, el, newId, reviewer, setToken, token} from './common.js';
import {annotationMethods} from './review_annotations.js';
import {artifactMethods, FORMATS} from './review_artifact.js';
import {comparisonMethods} from './review_comparison.js';
import {uid} from './review_controls.js';
import {formMethods} from './review_form.js';
import {keyMethods} from './review_keys.js';
import {metaMethods} from './review_meta.js';

// What this module exported before it was split, still importable from here.
export {parseDiff} from './review_artifact.js';
export {DIMENSIONS} from './review_form.js';
export {SHORTCUTS} from './review_keys.js';

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
    this.countRevisit();

    this.dialog = this.build();
    document.body.append(this.dialog);
    this.dialog.showModal();
    this.startTimings();
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

    this.startPresence();
    this.reserving = this.reserve('reserve');
    this.loadWork();
  }

  // Holds the item for this reviewer while the modal is open, so other reviewers' queues leave
  // it out (an admin reserve event; released when closed without a review, and by the review
  // itself). Advisory: a refusal (no token, another's name) only means it is not held.
  // Resolves once the server answered (or failed).
  reserve(action) {
    const who = reviewer();
    if (!who || !token() || !this.item.workProduct) return Promise.resolve();
    const body = {action, work_id: this.wp.id, work_version: this.wp.version, reviewerId: who};
    return api.post('/v1/admin', body).catch(() => {});
  }

  close(submitted, decision) {
    this.stopPresence();
    document.removeEventListener('keydown', this.keyListener);
    if (this.dialog.open) this.dialog.close();
    this.dialog.remove();
    // The queue is read again once the modal is done: after the release, so it is not shown as
    // still held here.
    const released =
        submitted ? Promise.resolve() : this.reserving.then(() => this.reserve('release'));
    released.finally(() => this.done({submitted, decision: decision || null}));
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
    this.buildHelp();
    const closeButton = el('button', {type: 'button', class: 'secondary close'}, 'Close');
    closeButton.addEventListener('click', () => this.requestClose());

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

// Each part's methods on the one prototype; no two parts define the same name.
Object.assign(ReviewModal.prototype, artifactMethods, annotationMethods, formMethods,
              comparisonMethods, metaMethods, keyMethods);
