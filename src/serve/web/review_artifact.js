// The review modal's left half: the work under review in one of the seed 000 §3.5 presentation
// formats (tabs), a diff or the full file as numbered lines, and the scroll depth reached in each
// format (meta.scrollDepth). The methods are mixed into the modal (review.js), so `this` is the
// modal; the lines they render are what review_annotations.js annotates.
import {api, el, fmtNum} from './common.js';
import {uid} from './review_controls.js';

// seed 000 §3.5 presentation formats, with their tab shortcut keys (f / u / s).
// A summary's sections: [{name, body}] from its lines starting with #; empty when it has none (it
// is then shown whole, as one paragraph). Text before the first heading is "Overview".
const SECTION_LINES = 6;
function summarySections(text) {
  const parts = [];
  let current = null;
  for (const line of text.split('\n')) {
    const heading = /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (heading) {
      current = {name: heading[1].slice(0, 200), lines: []};
      parts.push(current);
    } else {
      if (!current) {
        if (!line.trim()) continue;
        current = {name: 'Overview', lines: []};
        parts.push(current);
      }
      current.lines.push(line);
    }
  }
  if (!parts.some((p) => p.name !== 'Overview')) return [];
  const seen = new Set();
  return parts.filter((p) => !seen.has(p.name) && seen.add(p.name))
      .map((p) => ({name: p.name, body: p.lines.join('\n').trim()}));
}

export const FORMATS = [
  {key: 'diff-summary', label: 'Diff + summary', shortcut: 'f'},
  {key: 'full-file', label: 'Full file', shortcut: 'u'},
  {key: 'summary-only', label: 'Summary only', shortcut: 's'},
];

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

export const artifactMethods = {
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
  },

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
  },

  showFormat(key) {
    this.format = key;
    this.markTabs();
    if (this.work) this.renderPane();
  },

  markTabs() {
    for (const f of FORMATS) {
      const on = f.key === this.format;
      this.tabs[f.key].setAttribute('aria-selected', on ? 'true' : 'false');
      this.tabs[f.key].tabIndex = on ? 0 : -1;
      if (on) this.pane.setAttribute('aria-labelledby', this.tabs[f.key].id);
    }
  },

  // seed 000 §3.5 detail level: a summary written in sections (lines starting with #) is shown
  // section by section, a long section cut at SECTION_LINES with "Show more"; how long each is on
  // screen and whether it was expanded go with the review (meta.sections, review_meta.js).
  summaryBlock() {
    const parts = summarySections(this.wp.summary || '');
    const box = el('div', {class: 'summary'}, el('h3', {}, 'Summary'));
    if (!parts.length) {
      box.append(el('p', {}, this.wp.summary || '(no summary)'));
      return box;
    }
    if (this.sectionObserver) this.sectionObserver.disconnect();
    this.sectionState = this.sectionState || new Map();
    this.sectionObserver = new IntersectionObserver((entries) => {
      const now = performance.now();
      for (const e of entries) {
        const s = this.sectionState.get(e.target.dataset.section);
        if (!s) continue;
        if (e.isIntersecting && s.since === null) s.since = now;
        if (!e.isIntersecting && s.since !== null) {
          s.visibleMs += now - s.since;
          s.since = null;
        }
      }
    }, {root: this.pane, threshold: 0.5});
    for (const part of parts) {
      if (!this.sectionState.has(part.name)) {
        this.sectionState.set(part.name, {visibleMs: 0, since: null, expanded: false});
      }
      const state = this.sectionState.get(part.name);
      const lines = part.body.split('\n');
      const cut = lines.length > SECTION_LINES && !state.expanded;
      const body = el('p', {class: 'section-body'},
                      cut ? lines.slice(0, SECTION_LINES).join('\n') : part.body);
      const section = el('section', {class: 'summary-section', 'data-section': part.name},
                         el('h4', {}, part.name), body);
      if (cut) {
        const more = el('button', {type: 'button', class: 'show-more'}, 'Show more');
        more.addEventListener('click', () => {
          body.textContent = part.body;
          state.expanded = true;
          more.remove();
        });
        section.append(more);
      }
      box.append(section);
      this.sectionObserver.observe(section);
    }
    return box;
  },

  // meta.sections: each section's time on screen so far, and whether it was expanded.
  sectionsRead() {
    if (!this.sectionState || !this.sectionState.size) return undefined;
    const now = performance.now();
    return [...this.sectionState].map(([name, s]) => ({
      name,
      visibleMs: Math.round(s.visibleMs + (s.since === null ? 0 : now - s.since)),
      expanded: s.expanded,
    }));
  },

  renderPane() {
    const pane = this.pane;
    pane.replaceChildren();
    pane.scrollTop = 0;
    const work = this.work;
    const summary = this.summaryBlock();
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
  },

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
        wp.bubaScorePrediction !== undefined ? fmtNum(wp.bubaScorePrediction) : null);
    add('Model', gc.modelUsed);
    add('Self-review rounds', gc.iterationCount !== undefined ? String(gc.iterationCount) : null);
    add('Why in the queue', this.item.why);
    return dl;
  },

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
  },

  measureDepth() {
    const p = this.pane;
    if (!this.work || !p.isConnected) return;
    const seen =
        p.scrollHeight <= p.clientHeight ? 1 : (p.scrollTop + p.clientHeight) / p.scrollHeight;
    const clamped = Math.min(1, Math.max(0, seen));
    this.depth[this.format] = Math.max(this.depth[this.format] || 0, clamped);
  },
};
