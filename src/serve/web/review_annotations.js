// Line annotations (seed 000 §2 Annotation): a click on a line number of the work (shift+click for
// a range) opens a small form under the line; the annotations made are listed in the form's
// Annotations section and marked in the pane. Mixed into the modal (review.js), so `this` is the
// modal; the pane's lines come from review_artifact.js.
import {announce, el} from './common.js';
import {radioGroup, selectField, textField} from './review_controls.js';

const ANNOTATION_TYPES = ['praise', 'criticism', 'question', 'suggestion'];
const ANNOTATION_SEVERITIES = ['nit', 'minor', 'major', 'critical'];

export const annotationMethods = {
  // The form's Annotations section: the list of annotations made by clicking lines in the
  // artifact pane.
  buildAnnotations() {
    this.annList = el('ul', {class: 'annotations'});
    this.annSection = el(
        'section', {class: 'rv-section', 'aria-label': 'Annotations'}, el('h3', {}, 'Annotations'),
        el('p', {class: 'hint'}, 'Click a line number in the work (shift+click for a range).'),
        this.annList);
    this.fieldEls.set('annotations', this.annSection);
    this.renderAnnotations();
    return this.annSection;
  },

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
  },

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
  },

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
  },

  closeAnnotationForm() {
    if (this.annForm) this.annForm.remove();
    this.annForm = null;
  },

  filePath() {
    return (this.work && this.work.file && this.work.file.path) || this.wp.path || this.wp.id;
  },

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
  },
};
