// The figures of the battle scene, drawn for this project: a wizard (robe, hat, staff-less
// hands shown apart by hands.js), a monster by kind (goblin, ogre, troll, giant; fire and ice
// elementals), a health bar, and the enchantment badges that stand on a wizard or a monster.

import { s, text } from './svg.js';

/** wizardFigure(seat, {invisible, blind, dead}) -> a wizard about 110 high, feet at (0, 0). */
export function wizardFigure(seat, { invisible = false, blind = false, dead = false, shielded = false } = {}) {
  const cls = `wizard-figure wiz-${seat}${invisible ? ' invisible' : ''}${dead ? ' dead' : ''}`;
  return s('g', { class: cls, transform: dead ? 'rotate(80) translate(-10 -20)' : null },
    shielded ? s('ellipse', { cx: 0, cy: -55, rx: 48, ry: 64, class: 'shield-dome', 'data-testid': 'scene-shield' }) : null,
    s('path', { d: 'M-30 0 L-14 -62 Q0 -70 14 -62 L30 0 Z', class: 'robe' }),
    s('circle', { cx: 0, cy: -74, r: 12, class: 'face' }),
    s('path', { d: 'M-17 -80 L0 -112 L17 -80 Z', class: 'hat' }),
    s('path', { d: 'M-20 -80 L20 -80', class: 'hat-brim' }),
    blind ? s('rect', { x: -13, y: -79, width: 26, height: 6, rx: 2, class: 'blindfold', 'data-testid': 'scene-blindfold' }) : null);
}

const BODY = {
  goblin: { r: 11, horns: false }, ogre: { r: 15, horns: false }, troll: { r: 18, horns: true }, giant: { r: 22, horns: false },
};

/** monsterFigure(kind, seat) -> a monster of that kind in its master's colour, feet at (0, 0). */
export function monsterFigure(kind, seat) {
  const cls = `monster-figure wiz-${seat}`;
  if (kind === 'fire_elemental') {
    return s('g', { class: `${cls} fire` }, s('path', { d: 'M0 -44 C12 -30 20 -20 14 -6 C10 2 -10 2 -14 -6 C-20 -20 -8 -26 0 -44 Z', class: 'flame' }),
      s('circle', { cx: -4, cy: -14, r: 2, class: 'eye' }), s('circle', { cx: 4, cy: -14, r: 2, class: 'eye' }));
  }
  if (kind === 'ice_elemental') {
    return s('g', { class: `${cls} ice` }, s('path', { d: 'M0 -44 L14 -22 L8 0 L-8 0 L-14 -22 Z', class: 'crystal' }),
      s('circle', { cx: -4, cy: -20, r: 2, class: 'eye' }), s('circle', { cx: 4, cy: -20, r: 2, class: 'eye' }));
  }
  const { r, horns } = BODY[kind] || BODY.goblin;
  return s('g', { class: cls },
    s('ellipse', { cx: 0, cy: -r, rx: r, ry: r, class: 'monster-body' }),
    s('circle', { cx: 0, cy: -2 * r - r * 0.45, r: r * 0.55, class: 'monster-head' }),
    horns ? s('path', { d: `M${-r * 0.5} ${-2.7 * r} l-4 -7 M${r * 0.5} ${-2.7 * r} l4 -7`, class: 'hand-mark' }) : null,
    s('circle', { cx: -r * 0.2, cy: -2.5 * r, r: 1.8, class: 'eye' }), s('circle', { cx: r * 0.2, cy: -2.5 * r, r: 1.8, class: 'eye' }));
}

/** healthBar(health, max, width) -> a bar with the number (health null: unseen, a '?'). */
export function healthBar(health, max, width, testid = null) {
  const known = health !== null && health !== undefined;
  const fill = known ? Math.max(0, Math.min(1, health / max)) : 0;
  return s('g', { class: 'health-bar', 'data-testid': testid, 'data-health': known ? String(health) : '?' },
    s('rect', { x: 0, y: 0, width, height: 8, rx: 4, class: 'bar-back' }),
    known ? s('rect', { x: 0, y: 0, width: (width * fill).toFixed(1), height: 8, rx: 4, class: fill > 0.5 ? 'bar-fill' : fill > 0.25 ? 'bar-fill low' : 'bar-fill lower' }) : null,
    text(width + 5, 10, known ? `${health}/${max}` : '?', { class: 'bar-number' }));
}

const CHAR = 8.6; // a badge's letter, wide enough for the scene's 15px sans

/**
 * badges(items, width) -> a <g> of enchantment pills ({key, label}) wrapped into rows of `width`,
 * from (0, 0) down; its height is on `dataset.height`.
 */
export function badges(items, width) {
  let x = 0;
  let y = 0;
  const pills = items.map(({ key, label }) => {
    const w = Math.ceil(label.length * CHAR + 14);
    if (x && x + w > width) { x = 0; y += 24; }
    const pill = s('g', { class: `badge badge-${key}`, transform: `translate(${x} ${y})`, 'data-effect': key },
      s('rect', { x: 0, y: 0, width: w, height: 20, rx: 10 }), text(7, 15, label));
    x += w + 4;
    return pill;
  });
  const g = s('g', { class: 'badges' }, pills);
  g.dataset.height = String(items.length ? y + 24 : 0);
  return g;
}
