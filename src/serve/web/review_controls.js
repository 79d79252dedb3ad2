// The form controls the review modal is made of (a radio group, a labelled text or select field)
// and the ids that tie each label and hint to its control. Shared by the form, the A/B comparison,
// the annotation form and the modal itself; one id counter for the page, so ids never repeat
// however many modals open.
import {el} from './common.js';

let uidCounter = 0;
export const uid = (p) => `${p}-${++uidCounter}`;

export function radioGroup(name, options, legendText, cls) {
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

export function textField(labelText, multiline, hint) {
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

export function selectField(labelText, options, emptyLabel) {
  const id = uid('s');
  const control = el('select', {id}, el('option', {value: ''}, emptyLabel));
  for (const o of options) control.append(el('option', {value: o}, o));
  return {wrap: el('div', {class: 'field'}, el('label', {'for': id}, labelText), control), control};
}

// A multi-line field's lines, trimmed, blank ones dropped (blockers, suggestions).
export const lines = (text) => text.split('\n').map((s) => s.trim()).filter(Boolean);
