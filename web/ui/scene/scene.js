// The battle scene (issue 27): the wizards facing each other, each hand showing its gesture of
// the turn, health, every enchantment the viewer knows of, monsters with their health in their
// master's colour, elementals. Drawn from one wizard's engine view only: what the view hides (a
// blind wizard's opponent, an invisible one's hands) is not drawn. Config in, an SVG out; the
// animation of a turn (animate.js) moves what this draws.

import { h } from '../dom.js';
import { say } from '../words/index.js';
import { at, s, text } from './svg.js';
import { badges, healthBar, monsterFigure, wizardFigure } from './figures.js';
import { handShape } from './hands.js';

export const WIDTH = 640;
const GROUND = 200; // the wizards' feet
const MAX_HEALTH = 14;
const [HAND_X, HAND_Y, HAND_SCALE] = [52, -42, 1.25]; // a hand's place from the wizard's feet, and its size

const has = (w, kind) => Boolean(w.effects && w.effects.some((e) => e.kind === kind && !e.starts_in));

// A wizard's badges: each enchantment with its countdown or ∞, the banked spell; unseen: one '?'.
function wizardBadges(w) {
  if (w.effects === null || w.effects === undefined) return [{ key: 'unseen', label: say('scene-unseen') }];
  const items = w.effects.map((e) => ({ key: e.kind, label: say('scene-effect', e) }));
  if (w.banked) items.push({ key: 'banked', label: say('scene-banked', w.banked) });
  if (!w.alive) items.unshift({ key: 'dead', label: say(w.surrendered ? 'scene-surrendered' : 'scene-dead') });
  else if (w.surrendered) items.unshift({ key: 'surrendered', label: say('scene-surrendered') });
  return items;
}

// Where each wizard stands: the viewer on the left, the others on the right (a melee: in a row).
function places(view) {
  const others = view.wizards.map((_, i) => i).filter((i) => i !== view.wizard);
  const scale = others.length > 1 ? Math.max(0.5, 1.1 / others.length) : 1;
  const span = WIDTH / 2 - 40;
  return [
    { index: view.wizard, x: 130, scale: 1 },
    ...others.map((index, k) => ({ index, x: others.length > 1 ? WIDTH / 2 + 40 + span * ((k + 0.5) / others.length) : WIDTH - 130, scale })),
  ];
}

// The two hands' gestures of the turn just made (the last row of the history; in a phase paused
// for a decision, the gestures revealed so far), '?' where hidden.
function lastGestures(view, i) {
  const w = view.wizards[i];
  const revealed = view.phase.kind === 'decision' && view.phase.revealed ? view.phase.revealed[String(i)] : null;
  if (revealed && revealed.length) {
    const [left, right] = revealed[revealed.length - 1];
    return { left, right, turn: view.phase.turn };
  }
  const row = w.history.length ? w.history[w.history.length - 1] : null;
  return row ? { left: row.left, right: row.right, turn: row.turn } : { left: '-', right: '-', turn: 0 };
}

function drawWizard(view, place) {
  const w = view.wizards[place.index];
  const own = place.index === view.wizard;
  const g = lastGestures(view, place.index);
  const name = own ? say('scene-you', { name: w.name }) : w.name;
  const hands = [['left', -1, g.left], ['right', 1, g.right]].map(([hand, side, gesture]) => at(side * HAND_X * (own ? -1 : 1), HAND_Y, HAND_SCALE,
    handShape(gesture, { mirror: side < 0, label: say('scene-hand', { hand, gesture }) })));
  const pills = badges(wizardBadges(w), 190);
  const el = at(place.x, GROUND, place.scale,
    text(0, -150, name, { class: 'scene-name', 'text-anchor': 'middle' }),
    at(-60, -140, 1, healthBar(w.health, MAX_HEALTH, 92, `scene-health-${place.index}`)),
    wizardFigure(place.index, { invisible: has(w, 'invisibility'), blind: own && view.blind, dead: !w.alive, shielded: has(w, 'shield') }),
    hands,
    at(-95, 14, 1, pills));
  el.setAttribute('data-testid', `scene-wizard-${place.index}`);
  el.setAttribute('data-wizard', String(place.index));
  el.classList.add('scene-wizard');
  return { el, height: GROUND + 14 + Number(pills.dataset.height) * place.scale };
}

function drawMonsters(view, spots) {
  const mine = (m) => m.controller === view.wizard;
  const alive = view.monsters.filter((m) => m.alive);
  const columns = [alive.filter(mine), alive.filter((m) => !mine(m))];
  return columns.flatMap((list, side) => list.map((m, k) => {
    const x = side === 0 ? 255 : WIDTH - 255;
    const y = 80 + k * Math.min(62, 150 / Math.max(1, list.length - 1 || 1));
    const health = m.toughness - m.damage;
    const fx = m.effects.map((e) => ({ key: e.kind, label: say('scene-effect', e) }));
    const el = at(x, y, list.length > 3 ? 0.75 : 1,
      monsterFigure(m.kind, m.controller),
      at(-22, 6, 1, healthBar(health, m.toughness, 30, null)),
      text(0, 34, say('scene-monster', { id: m.id, name: m.name }), { class: 'scene-monster-name', 'text-anchor': 'middle' }),
      fx.length ? at(-50, 40, 1, badges(fx, 110)) : null);
    el.setAttribute('data-testid', `scene-monster-${m.id}`);
    el.setAttribute('data-kind', m.kind);
    el.setAttribute('data-controller', String(m.controller));
    el.classList.add('scene-monster');
    spots.set(m.id, { x, y: y - 20 });
    return el;
  }));
}

/** sceneLabel(view) -> the scene in words, for a screen reader (what the picture shows). */
export function sceneLabel(view) {
  return view.wizards.map((w, i) => {
    const g = lastGestures(view, i);
    return say('scene-label-wizard', {
      name: i === view.wizard ? say('scene-you', { name: w.name }) : w.name, health: w.health, left: g.left, right: g.right,
      effects: (w.effects || []).map((e) => e.name), alive: w.alive,
    });
  }).concat(view.monsters.filter((m) => m.alive).map((m) => say('scene-label-monster', { master: view.names[m.controller], name: m.name, health: m.toughness - m.damage }))).join(' ');
}

/**
 * battleScene(view) -> {element, spots}: the scene of that wizard's view as an SVG in a figure;
 * spots maps a being's id (W0, M1, ...) to where it stands, for the animation.
 */
export function battleScene(view) {
  const began = performance.now();
  const spots = new Map();
  const drawn = places(view).map((p) => {
    spots.set(`W${p.index}`, { x: p.x, y: GROUND - 70 * p.scale });
    // Where each hand is drawn (drawWizard's), for the reveal step that turns it round.
    const own = p.index === view.wizard ? -1 : 1;
    for (const [hand, side] of [['L', -1], ['R', 1]]) spots.set(`W${p.index}.${hand}`, { x: p.x + side * HAND_X * own * p.scale, y: GROUND + HAND_Y * p.scale, scale: HAND_SCALE * p.scale });
    return drawWizard(view, p);
  });
  const monsters = drawMonsters(view, spots);
  const height = Math.ceil(Math.max(250, ...drawn.map((d) => d.height + 6)));
  const svg = s('svg', { viewBox: `0 0 ${WIDTH} ${height}`, class: 'scene-svg', role: 'img', 'aria-label': sceneLabel(view), 'data-testid': 'scene-svg' },
    s('rect', { x: 0, y: 0, width: WIDTH, height, class: 'scene-sky' }),
    s('path', { d: `M0 ${GROUND + 4} H${WIDTH}`, class: 'scene-ground' }),
    drawn.map((d) => d.el), monsters,
    s('g', { class: 'scene-fx', 'data-testid': 'scene-fx' }));
  // Its cost, for bench/scene_bench.py (a User Timing measure: nothing else reads it).
  performance.measure('scene-draw', { start: began });
  const element = h('figure', { class: 'battle-scene', 'data-testid': 'battle-scene', 'data-wizard': String(view.wizard), 'data-blind': view.blind ? 'true' : 'false' }, svg);
  return { element, svg, spots };
}
