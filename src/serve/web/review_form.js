// The review form (seed 000 §2 FeedbackEvent): decision, scores per quality dimension (the
// relevant few for the work's type first), free text and confidence, laid out in the modal's
// right half, and collect(), which turns what was filled in into the event body plus the
// client-side errors that stop it being sent. Mixed into the modal (review.js), so `this` is the
// modal; the annotation list and the A/B comparison are their own modules.
import {el, localTimestamp, reviewer, sessionId} from './common.js';
import {lines, radioGroup, selectField, textField, uid} from './review_controls.js';

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

export const DECISIONS = [
  {value: 'approved', label: 'Approve', shortcut: 'a'},
  {value: 'rejected', label: 'Reject', shortcut: 'r'},
  {value: 'needs-work', label: 'Needs work', shortcut: 'n'},
  {value: 'deferred', label: 'Defer', shortcut: 'd'},
];
const SEVERITIES = ['minor', 'moderate', 'major', 'critical'];
const CONFIDENCE_LEVELS = [
  {value: 'very-unsure', label: 'Very unsure'},
  {value: 'somewhat-unsure', label: 'Somewhat unsure'},
  {value: 'fairly-sure', label: 'Fairly sure'},
  {value: 'very-sure', label: 'Very sure'},
];

export const formMethods = {
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

    box.append(this.buildAnnotations());

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
  },

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
  },

  focusDim() {
    const dim = this.dims[this.dimOrder[this.dimIndex]];
    if (this.more.contains(dim.group)) this.more.open = true;
    (dim.radios.find((r) => r.checked) || dim.radios[0]).focus();
    this.markCurrentDim();
  },

  markCurrentDim() {
    this.dimOrder.forEach(
        (d, i) => this.dims[d].group.classList.toggle('current', i === this.dimIndex));
  },

  // The FeedbackEvent as filled in, plus the client-side field errors that stop it being sent.
  // fieldsModified names every field whose value differs from the empty form it opened with.
  collect() {
    const errors = [];
    const modified = [];
    const body = {
      sessionId: sessionId(),
      modalId: this.modalId,
      modalVersion: 'web-1',
      timestamp: localTimestamp(),  // the reviewer's clock and UTC offset (issue 29 item 3h)
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
  },
};
