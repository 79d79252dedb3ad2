// The optional A/B comparison (seed 000 §2 ComparisonFeedback): this version is option B, another
// recorded version of the same work is option A; which is better, how strongly, why, and a winner
// per dimension. Only sent when something in it was filled in. Mixed into the modal (review.js),
// so `this` is the modal.
import {el} from './common.js';
import {radioGroup, selectField, textField} from './review_controls.js';

const PREFERRED = [
  {value: 'A', label: 'A'},
  {value: 'B', label: 'B (this version)'},
  {value: 'neither', label: 'Neither'},
  {value: 'both-good', label: 'Both good'},
];
const STRENGTHS = ['slight', 'moderate', 'strong', 'overwhelming'];

export const comparisonMethods = {
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
    // Option A is the version the agent made this one as an alternative to (compareWith, seed
    // 000 §6.4: then the comparison is what the review is for, and opens at once); else the
    // version just before this one ("the older one"); else the first other.
    const all = this.item.versions || [];
    const mine = all.indexOf(this.wp.version);
    const alternative = this.item.compareWith && versions.includes(this.item.compareWith);
    const older = alternative ? this.item.compareWith : mine > 0 ? all[mine - 1] : versions[0];
    const optionA = selectField('Option A (another version)', versions, 'none');
    optionA.control.value = older;
    if (alternative) {
      details.open = true;
      details.querySelector('summary').textContent =
          `A/B comparison: the agent made this version as an alternative to ${older}`;
    }
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
  },

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
  },
};
