// SVG building for the battle scene (web/ui/scene/): elements in the SVG namespace from plain
// attributes, as dom.js's h() builds HTML ones (never markup: names stay text).

export const SVG_NS = 'http://www.w3.org/2000/svg';

/** s(tag, attrs, ...children) -> an SVG element; null/undefined attributes and children are skipped. */
export function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v !== null && v !== undefined && v !== false) el.setAttribute(k, String(v));
  }
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

/** text(x, y, words, attrs) -> an SVG <text> holding `words` as text. */
export const text = (x, y, words, attrs = {}) => s('text', { x, y, ...attrs }, String(words));

/** at(x, y, scale, ...children) -> a <g> moved to (x, y) and scaled. */
export const at = (x, y, scale, ...children) => s('g', { transform: `translate(${x.toFixed(1)} ${y.toFixed(1)})${scale !== 1 ? ` scale(${scale})` : ''}` }, children);
