// The review modal's keyboard: every shortcut (a review can be done without the mouse), the
// "? Shortcuts" list that shows them, and the one key handler. Shortcuts pause while the reviewer
// types in a text field; Ctrl+Enter and Esc always work. Mixed into the modal (review.js), so
// `this` is the modal.
import {el, isTyping} from './common.js';
import {FORMATS} from './review_artifact.js';
import {DECISIONS} from './review_form.js';

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

export const keyMethods = {
  // The header's "? Shortcuts" button and the list it shows and hides.
  buildHelp() {
    this.helpButton =
        el('button', {
          type: 'button',
          class: 'secondary help-toggle',
          'aria-expanded': 'false',
          'aria-controls': 'rv-help'
        },
           '? Shortcuts');
    this.helpButton.addEventListener('click', () => this.toggleHelp());
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
  },

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
  },

  toggleHelp() {
    this.help.hidden = !this.help.hidden;
    this.helpButton.setAttribute('aria-expanded', this.help.hidden ? 'false' : 'true');
  },
};
