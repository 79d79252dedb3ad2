// An accessibility audit of the page as it is now, for the web tests (playwright-core page):
//   - every input/select/textarea/button/[role=button]/a has an accessible name (aria-labelledby,
//     aria-label, label[for], a wrapping label, or its text; title as a last resort);
//   - every svg[role=img] has a name (aria-label, aria-labelledby or <title>);
//   - no positive tabindex (it breaks the reading order);
//   - the Tab key visits the focusable elements in DOM order (pressed N times, document.activeElement
//     collected each time);
//   - text contrast >= 4.5:1, or >= 3:1 for large text (24px, or 18.66px bold), from the computed
//     color (SVG text: fill) against the effective background (the first non-transparent
//     background up the ancestors, semi-transparent ones blended, white at the root).
// Usage: const {problems} = await auditA11y(page, {maxTabs: 80}); problems is [] when all is well.

const FOCUSABLE =
  'a[href], button, input:not([type=hidden]), select, textarea, [tabindex], [contenteditable="true"], summary';

// Runs in the page: names, tabindex, contrast; marks the expected tab order with data-a11y-tab.
function inPage() {
  const problems = [];
  const describe = (e) => {
    const id = e.id ? `#${e.id}` : '';
    const cls = typeof e.className === 'string' && e.className ? `.${e.className.trim().split(/\s+/).join('.')}` : '';
    const text = (e.textContent || '').trim().replace(/\s+/g, ' ').slice(0, 40);
    return `<${e.tagName.toLowerCase()}${id}${cls}>${text ? ` "${text}"` : ''}`;
  };
  const visible = (e) => {
    if (!e.isConnected) return false;
    const s = getComputedStyle(e);
    if (s.visibility === 'hidden' || s.display === 'none') return false;
    const r = e.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  };
  // Clipped to nothing (.visually-hidden): read by screen readers, not seen.
  const clippedAway = (e) => {
    for (let a = e; a && a.nodeType === 1; a = a.parentElement) {
      const s = getComputedStyle(a);
      if (s.clip === 'rect(0px, 0px, 0px, 0px)' || s.clipPath === 'inset(50%)') return true;
      if (a.getAttribute('aria-hidden') === 'true' && a !== e) return false;
    }
    return false;
  };
  const textOf = (e) => (e.innerText || e.textContent || '').trim();
  const nameOf = (e) => {
    const by = e.getAttribute('aria-labelledby');
    if (by) {
      const t = by
        .split(/\s+/)
        .map((id) => document.getElementById(id))
        .filter(Boolean)
        .map((n) => (n.textContent || '').trim())
        .join(' ')
        .trim();
      if (t) return t;
    }
    const al = (e.getAttribute('aria-label') || '').trim();
    if (al) return al;
    const tag = e.tagName.toLowerCase();
    if (tag === 'input' || tag === 'select' || tag === 'textarea') {
      if (e.id) {
        const l = document.querySelector(`label[for="${CSS.escape(e.id)}"]`);
        if (l && textOf(l)) return textOf(l);
      }
      const wrap = e.closest('label');
      if (wrap && textOf(wrap)) return textOf(wrap);
      if (tag === 'input' && ['button', 'submit', 'reset'].includes(e.type) && e.value) return e.value;
    } else {
      const t = textOf(e);
      if (t) return t;
      const img = e.querySelector('img[alt]');
      if (img && img.alt.trim()) return img.alt.trim();
    }
    return (e.getAttribute('title') || '').trim();
  };

  // 1. names
  for (const e of document.querySelectorAll('input:not([type=hidden]), select, textarea, button, [role=button], a')) {
    if (e.tagName === 'A' && !e.hasAttribute('href') && !e.hasAttribute('role')) continue; // an anchor target
    if (!nameOf(e)) problems.push(`no accessible name: ${describe(e)}`);
  }
  for (const e of document.querySelectorAll('svg[role=img]')) {
    const title = e.querySelector(':scope > title');
    if (!nameOf(e) && !(title && title.textContent.trim())) problems.push(`chart without a name: ${describe(e)}`);
  }

  // 2. positive tabindex
  for (const e of document.querySelectorAll('[tabindex]')) {
    if (e.tabIndex > 0) problems.push(`positive tabindex ${e.tabIndex}: ${describe(e)}`);
  }

  // 3. contrast
  const parse = (c) => {
    const m = /rgba?\(([^)]+)\)/.exec(c || '');
    if (!m) return null;
    const p = m[1].split(/[\s,/]+/).filter(Boolean).map(Number);
    return { r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1 };
  };
  const blend = (top, under) => ({
    r: top.r * top.a + under.r * (1 - top.a),
    g: top.g * top.a + under.g * (1 - top.a),
    b: top.b * top.a + under.b * (1 - top.a),
    a: 1,
  });
  const background = (e) => {
    const layers = [];
    for (let a = e; a && a.nodeType === 1; a = a.parentElement) {
      const bg = parse(getComputedStyle(a).backgroundColor);
      if (bg && bg.a > 0) {
        layers.push(bg);
        if (bg.a >= 1) break;
      }
    }
    let c = { r: 255, g: 255, b: 255, a: 1 };
    for (let i = layers.length - 1; i >= 0; --i) c = blend(layers[i], c);
    return c;
  };
  const lum = (c) => {
    const ch = (v) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * ch(c.r) + 0.7152 * ch(c.g) + 0.0722 * ch(c.b);
  };
  const ratio = (a, b) => {
    const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
    return (x + 0.05) / (y + 0.05);
  };
  const seen = new Set();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const e = n.parentElement;
    if (!e || seen.has(e) || !n.textContent.trim()) continue;
    seen.add(e);
    if (['SCRIPT', 'STYLE', 'TITLE', 'NOSCRIPT'].includes(e.tagName) || e.closest('title')) continue;
    if (!visible(e) || clippedAway(e)) continue;
    if (e.closest(':disabled')) continue; // WCAG 1.4.3: inactive controls are exempt
    const s = getComputedStyle(e);
    const inSvg = e instanceof SVGElement;
    let fg = parse(inSvg ? s.fill : s.color);
    if (!fg) continue; // a gradient or pattern fill: not measurable here
    const bg = background(e);
    if (fg.a < 1) fg = blend(fg, bg);
    const size = parseFloat(s.fontSize);
    const bold = Number(s.fontWeight) >= 700;
    const large = size >= 24 || (size >= 18.66 && bold);
    const need = large ? 3 : 4.5;
    const r = ratio(fg, bg);
    if (r < need) problems.push(`contrast ${r.toFixed(2)}:1 < ${need}:1: ${describe(e)}`);
  }

  // 4. the expected tab order: focusable, visible, not disabled, tabindex >= 0, in DOM order.
  const order = [];
  document.querySelectorAll('[data-a11y-tab]').forEach((e) => e.removeAttribute('data-a11y-tab'));
  // An open modal dialog makes the rest of the page inert: the tab order is the dialog's.
  const scope = document.querySelector('dialog:modal') || document;
  // The content of a closed <details> cannot take focus; its <summary> can.
  const inClosedDetails = (e) => {
    for (let d = e.closest('details:not([open])'); d; d = d.parentElement?.closest('details:not([open])')) {
      const summary = d.querySelector(':scope > summary');
      if (!summary || !summary.contains(e)) return true;
    }
    return false;
  };
  // A radio group is one Tab stop: its checked radio, else its first one.
  const radioStop = new Map();
  for (const r of scope.querySelectorAll('input[type=radio][name]')) {
    if (r.disabled || !visible(r)) continue;
    const key = (r.form ? 'form:' : '') + r.name;
    if (!radioStop.has(key) || (r.checked && !radioStop.get(key).checked)) radioStop.set(key, r);
  }
  for (const e of scope.querySelectorAll(FOCUSABLE_SELECTOR)) {
    if (e.tabIndex < 0 || e.disabled || !visible(e) || e.closest('[inert]')) continue;
    if (inClosedDetails(e)) continue;
    if (e.type === 'radio' && e.name && radioStop.get((e.form ? 'form:' : '') + e.name) !== e) {
      continue;
    }
    e.setAttribute('data-a11y-tab', String(order.length));
    order.push(describe(e));
  }
  return { problems, order };
}

export async function auditA11y(page, { maxTabs = 80 } = {}) {
  const { problems, order } = await page.evaluate(
    `(${inPage.toString().replace('FOCUSABLE_SELECTOR', JSON.stringify(FOCUSABLE))})()`,
  );
  // Tab from the top of the document (of the open modal dialog, when there is one): the first
  // Tab lands on the first focusable element.
  // (A focused tabindex=-1 marker at the start of <body> is the starting point; a blur() alone
  // would leave Chromium's sequential-navigation starting point where the old focus was.)
  await page.evaluate(() => {
    const start = document.createElement('span');
    start.id = 'a11y-tab-start';
    start.tabIndex = -1;
    (document.querySelector('dialog:modal') || document.body).prepend(start);
    start.focus();
  });
  const steps = Math.min(order.length, maxTabs);
  const visited = [];
  for (let i = 0; i < steps; ++i) {
    await page.keyboard.press('Tab');
    visited.push(
      await page.evaluate(() => {
        const a = document.activeElement;
        if (!a || a === document.body) return 'body';
        const idx = a.getAttribute('data-a11y-tab');
        return idx === null ? `unexpected <${a.tagName.toLowerCase()}${a.id ? `#${a.id}` : ''}>` : Number(idx);
      }),
    );
  }
  for (let i = 0; i < visited.length; ++i) {
    if (visited[i] !== i) {
      problems.push(
        `Tab #${i + 1} focused ${typeof visited[i] === 'number' ? order[visited[i]] : visited[i]}; DOM order expects ${order[i]}`,
      );
      break; // one out-of-order step shifts all the rest
    }
  }
  await page.evaluate(() => {
    document.getElementById('a11y-tab-start')?.remove();
    document.activeElement?.blur();
  });
  return { problems, tabbed: visited.length, focusable: order.length };
}
