// Small SVG charts for the dashboard (seed 000 §7.1 trends, §3.1 calibration, approval by server
// type), drawn with no library so the page works offline under `default-src 'self'`.
//
// Every chart is a <figure>: an <svg role="img"> named by its <title> (and aria-label), plus a
// visually-hidden <table> holding the same numbers, so a screen reader gets the data and not a
// picture of it. Colors come from CSS classes (dashboard.css), never inline style attributes.

const NS = 'http://www.w3.org/2000/svg';
let chartIds = 0;

function svgEl(tag, attrs = {}, ...children) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== undefined && v !== null) node.setAttribute(k, String(v));
  }
  for (const c of children) {
    node.append(typeof c === 'string' ? document.createTextNode(c) : c);
  }
  return node;
}

function htmlEl(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== undefined && v !== null) node.setAttribute(k, String(v));
  }
  for (const c of children) {
    if (c === null || c === undefined) continue;
    node.append(typeof c === 'string' || typeof c === 'number' ? String(c) : c);
  }
  return node;
}

// The chart's frame: <figure class="chart"> with the named <svg> and the hidden data table.
function frame(kind, title, width, height, rows, headers) {
  const id = `chart-${++chartIds}`;
  const svg = svgEl('svg', {
    class: `chart-svg chart-${kind}`,
    viewBox: `0 0 ${width} ${height}`,
    width,
    height,
    role: 'img',
    'aria-labelledby': `${id}-title`,
    'aria-label': title,
    'data-chart': kind,
  });
  svg.append(svgEl('title', { id: `${id}-title` }, title));
  // The hidden table sits in a hidden <div>: a table grows to its content whatever its width, so
  // on its own it would stretch past a phone's screen while clipped to nothing.
  const table = htmlEl(
    'table',
    {},
    htmlEl('caption', {}, title),
    htmlEl('thead', {}, htmlEl('tr', {}, ...headers.map((h) => htmlEl('th', { scope: 'col' }, h)))),
    htmlEl(
      'tbody',
      {},
      ...rows.map((r) => htmlEl('tr', {}, ...r.map((c) => htmlEl('td', {}, c)))),
    ),
  );
  const figure = htmlEl(
    'figure',
    { class: `chart chart-${kind}-figure` },
    svg,
    htmlEl('div', { class: 'visually-hidden' }, table),
  );
  return { figure, svg };
}

// A line chart of one series over time: `points` = [{label, value}] oldest first, value null for
// "no data". Gaps stay gaps: a missing week breaks the line and draws nothing (a zero would read
// as a real measurement). Each measured point is a <circle class="pt">.
//   opts: {title, points, format(v) -> text, width, height, yMin, yMax, floor, ceil}
// yMin/yMax fix the axis (a rate: 0 and 1); floor/ceil bound an axis fitted to the data to the
// metric's domain, so padding around one value never reaches a number the metric cannot take
// (a time below 0, a score above 10).
export function lineChart(opts) {
  const { title, points } = opts;
  const format = opts.format || ((v) => String(v));
  const width = opts.width || 260;
  const height = opts.height || 90;
  const pad = { left: 44, right: 8, top: 8, bottom: 18 };
  const values = points.map((p) => p.value).filter((v) => v !== null && v !== undefined);
  const rows = points.map((p) => [
    p.label,
    p.value === null || p.value === undefined ? 'no data' : format(p.value),
  ]);
  const { figure, svg } = frame('line', title, width, height, rows, ['window ending', 'value']);
  const plotW = width - pad.left - pad.right;
  const plotH = height - pad.top - pad.bottom;
  let lo = values.length ? Math.min(...values) : 0;
  let hi = values.length ? Math.max(...values) : 1;
  if (opts.yMin !== undefined) lo = opts.yMin;
  if (opts.yMax !== undefined) hi = opts.yMax;
  if (!(hi > lo)) {
    // One distinct value: center it.
    const d = Math.abs(hi) > 0 ? Math.abs(hi) * 0.1 : 1;
    lo -= d;
    hi += d;
  }
  if (opts.floor !== undefined) lo = Math.max(opts.floor, lo);
  if (opts.ceil !== undefined) hi = Math.min(opts.ceil, hi);
  if (!(hi > lo)) hi = lo + 1;
  svg.setAttribute('data-y-min', String(lo));
  svg.setAttribute('data-y-max', String(hi));
  const x = (i) => pad.left + (points.length > 1 ? (i * plotW) / (points.length - 1) : plotW / 2);
  const y = (v) => pad.top + plotH - ((v - lo) * plotH) / (hi - lo);

  // Axes with their extreme labels.
  svg.append(
    svgEl('line', { class: 'axis', x1: pad.left, y1: pad.top, x2: pad.left, y2: pad.top + plotH }),
    svgEl('line', {
      class: 'axis',
      x1: pad.left,
      y1: pad.top + plotH,
      x2: pad.left + plotW,
      y2: pad.top + plotH,
    }),
    svgEl('text', { class: 'tick', x: pad.left - 4, y: pad.top + 8, 'text-anchor': 'end' }, format(hi)),
    svgEl('text', { class: 'tick', x: pad.left - 4, y: pad.top + plotH, 'text-anchor': 'end' }, format(lo)),
  );
  if (points.length > 0) {
    svg.append(
      svgEl('text', { class: 'tick', x: pad.left, y: height - 4, 'text-anchor': 'start' }, points[0].label),
      svgEl(
        'text',
        { class: 'tick', x: pad.left + plotW, y: height - 4, 'text-anchor': 'end' },
        points[points.length - 1].label,
      ),
    );
  }
  if (values.length === 0) {
    svg.append(
      svgEl('text', { class: 'tick', x: pad.left + plotW / 2, y: pad.top + plotH / 2, 'text-anchor': 'middle' }, 'no data'),
    );
    return figure;
  }

  // The line, one <path> per run of consecutive measured weeks.
  let run = [];
  const flush = () => {
    if (run.length > 1) {
      const d = run.map(([px, py], k) => `${k === 0 ? 'M' : 'L'}${px.toFixed(1)},${py.toFixed(1)}`).join(' ');
      svg.append(svgEl('path', { class: 'series', d }));
    }
    run = [];
  };
  points.forEach((p, i) => {
    if (p.value === null || p.value === undefined) {
      flush();
      return;
    }
    run.push([x(i), y(p.value)]);
  });
  flush();
  points.forEach((p, i) => {
    if (p.value === null || p.value === undefined) return;
    svg.append(
      svgEl('circle', { class: 'pt', cx: x(i).toFixed(1), cy: y(p.value).toFixed(1), r: 2.5 },
        svgEl('title', {}, `${p.label}: ${format(p.value)}`)),
    );
  });
  return figure;
}

// The §3.1 calibration plot: predicted confidence (x) against the actual approval rate (y) per
// bucket, with the diagonal of perfect calibration. Buckets with no reviews are not drawn.
//   opts: {title, buckets: [{lower, upper, avgPredicted, actualRate, n}], format(v)}
export function calibrationPlot(opts) {
  const { title, buckets } = opts;
  const pct = opts.format || ((v) => `${(v * 100).toFixed(0)}%`);
  const size = opts.size || 220;
  const pad = { left: 40, right: 10, top: 10, bottom: 34 };
  const plot = size - pad.left - pad.right;
  const height = pad.top + plot + pad.bottom;
  const rows = buckets.map((b) => [
    `${pct(b.lower)}–${pct(b.upper)}`,
    b.avgPredicted === null ? 'no data' : pct(b.avgPredicted),
    b.actualRate === null ? 'no data' : pct(b.actualRate),
    String(b.n),
  ]);
  const { figure, svg } = frame('calibration', title, size, height, rows, [
    'confidence bucket',
    'average predicted',
    'actual approval',
    'n',
  ]);
  const x = (v) => pad.left + v * plot;
  const y = (v) => pad.top + plot - v * plot;
  svg.append(
    svgEl('line', { class: 'axis', x1: x(0), y1: y(0), x2: x(1), y2: y(0) }),
    svgEl('line', { class: 'axis', x1: x(0), y1: y(0), x2: x(0), y2: y(1) }),
    svgEl('line', { class: 'diagonal', x1: x(0), y1: y(0), x2: x(1), y2: y(1) }),
    svgEl('text', { class: 'tick', x: x(0) - 4, y: y(0), 'text-anchor': 'end' }, '0%'),
    svgEl('text', { class: 'tick', x: x(0) - 4, y: y(1) + 8, 'text-anchor': 'end' }, '100%'),
    svgEl('text', { class: 'tick', x: x(0), y: y(0) + 12, 'text-anchor': 'middle' }, '0%'),
    svgEl('text', { class: 'tick', x: x(1), y: y(0) + 12, 'text-anchor': 'end' }, '100%'),
    svgEl('text', { class: 'tick', x: x(0.5), y: y(0) + 28, 'text-anchor': 'middle' }, 'predicted confidence'),
    svgEl('text', { class: 'tick', x: 10, y: y(0.5), transform: `rotate(-90 10 ${y(0.5)})`, 'text-anchor': 'middle' }, 'actual approval'),
  );
  const measured = buckets.filter((b) => b.n > 0 && b.avgPredicted !== null && b.actualRate !== null);
  if (measured.length > 1) {
    const d = measured.map((b, k) => `${k === 0 ? 'M' : 'L'}${x(b.avgPredicted).toFixed(1)},${y(b.actualRate).toFixed(1)}`).join(' ');
    svg.append(svgEl('path', { class: 'series', d }));
  }
  const maxN = Math.max(1, ...measured.map((b) => b.n));
  for (const b of measured) {
    // Area grows with n, so a bucket of 2 reviews does not look as certain as one of 2000.
    const r = 2 + 4 * Math.sqrt(b.n / maxN);
    svg.append(
      svgEl('circle', { class: 'pt', cx: x(b.avgPredicted).toFixed(1), cy: y(b.actualRate).toFixed(1), r: r.toFixed(1) },
        svgEl('title', {}, `predicted ${pct(b.avgPredicted)}, approved ${pct(b.actualRate)}, n = ${b.n}`)),
    );
  }
  return figure;
}

// Horizontal bars, one per label: `bars` = [{label, value (0..1), detail}] (detail: e.g. "n = 40").
//   opts: {title, bars, format(v)}
export function barChart(opts) {
  const { title, bars } = opts;
  const format = opts.format || ((v) => `${(v * 100).toFixed(1)}%`);
  const width = opts.width || 420;
  const rowH = 22;
  const labelW = 90;
  const valueW = 150;
  const height = Math.max(1, bars.length) * rowH + 6;
  const rows = bars.map((b) => [b.label, b.value === null ? 'no data' : format(b.value), b.detail || '']);
  const { figure, svg } = frame('bar', title, width, height, rows, ['', 'value', 'n']);
  const plotW = width - labelW - valueW;
  bars.forEach((b, i) => {
    const top = 3 + i * rowH;
    svg.append(svgEl('text', { class: 'label', x: labelW - 6, y: top + 14, 'text-anchor': 'end' }, b.label));
    svg.append(svgEl('rect', { class: 'track', x: labelW, y: top + 3, width: plotW, height: rowH - 8 }));
    if (b.value !== null && b.value !== undefined) {
      svg.append(
        svgEl('rect', { class: 'bar', x: labelW, y: top + 3, width: Math.max(0, Math.min(1, b.value)) * plotW, height: rowH - 8 },
          svgEl('title', {}, `${b.label}: ${format(b.value)} ${b.detail || ''}`.trim())),
      );
    }
    svg.append(
      svgEl('text', { class: 'label', x: labelW + plotW + 6, y: top + 14, 'text-anchor': 'start' },
        `${b.value === null || b.value === undefined ? 'no data' : format(b.value)}${b.detail ? ` (${b.detail})` : ''}`),
    );
  });
  return figure;
}
