// Every visible text of the page whose colour on its background is below WCAG AA's contrast (4.5:1, 3:1 for
// large text), as "element "text" ratio (colours)"; text over a picture (a card back) and disabled controls
// are left out.  Evaluated by tests/web/test_web_table_browser.py.
(() => {
  const parse = (s) => {
    let m = s.match(/rgba?\(([^)]+)\)/);
    if (m) { const p = m[1].split(/[ ,\/]+/).filter(Boolean).map(Number); return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1]; }
    m = s.match(/color\(srgb ([^)]+)\)/);
    if (m) { const p = m[1].split(/[ \/]+/).filter(Boolean).map(Number); return [p[0] * 255, p[1] * 255, p[2] * 255, p.length > 3 ? p[3] : 1]; }
    return null;
  };
  const lum = ([r, g, b]) => { const f = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; }; return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  const bad = [];
  for (const e of document.querySelectorAll("body *")) {
    if (!e.offsetParent && getComputedStyle(e).position !== "fixed") continue;
    const own = [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own || e.closest(":disabled, [hidden], .card-detail[hidden]")) continue;
    let bg = null, node = e, image = false;
    while (node && node.nodeType === 1) {
      const cs = getComputedStyle(node);
      if (cs.backgroundImage !== "none") { image = true; break; }
      const c = parse(cs.backgroundColor);
      if (c && c[3] > 0.5) { bg = c; break; }
      node = node.parentElement;
    }
    if (image) continue;
    bg = bg || [255, 255, 255, 1];
    const cs = getComputedStyle(e);
    const fg = parse(cs.color);
    const size = parseFloat(cs.fontSize), bold = Number(cs.fontWeight) >= 700;
    const need = size >= 24 || (bold && size >= 18.66) ? 3 : 4.5;
    const r = ratio(fg, bg);
    if (r < need) bad.push(`${e.tagName.toLowerCase()}.${[...e.classList].join(".")} "${e.textContent.trim().slice(0, 30)}" ${r.toFixed(2)} (${cs.color} on ${bg.map(Math.round).join(",")})`);
  }
  return [...new Set(bad)];
})()
