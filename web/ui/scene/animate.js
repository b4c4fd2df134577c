// The turn's resolution animated on the battle scene, step by step in the order the engine
// resolved it: each log event of the turn (its type and structured fields, engine/wavinghands/
// events.py) becomes a step: gestures revealed, a spell flying to its target, a shield or a
// counter-spell stopping it, damage numbers, deaths, summons; every step shows its sentence.
// At most 4 s for the turn; skippable (the Skip button, Escape, a tap on the scene); replayable;
// under prefers-reduced-motion the same steps are shown one by one, still.

import { s, text } from './svg.js';

export const TURN_MS = 3600; // an ordinary turn's whole animation (the limit: 4 s)
const STEP_MS = 700; // one step at most

const pos = (spots, id) => spots.get(id) || null;
const being = (d) => d.subject || d.target || (d.wizard !== undefined ? `W${d.wizard}` : '') || d.monster || '';

/**
 * stepOf(event, spots) -> what to draw for one log event: {kind, from, to, amount, text} (from /
 * to: points on the scene, or null).
 */
export function stepOf(event, spots) {
  const d = event.data || {};
  const to = pos(spots, being(d));
  const caster = d.caster !== undefined ? pos(spots, `W${d.caster}`) : d.monster ? pos(spots, d.monster) : null;
  const kind = {
    cast: 'flight', damage: 'hit', blocked: 'stop', miss: 'stop', resisted: 'stop', death: 'death', monster_death: 'death',
    summon: 'appear', gestures: 'reveal', fizzle: 'stop', clash: 'clash', elementals_clash: 'clash', storms_cancel: 'clash',
    storm_elemental: 'clash', cancel: 'clash',
  }[event.type] || 'note';
  return { kind, type: event.type, from: caster, to: kind === 'appear' ? pos(spots, d.monster) : to, amount: d.amount, wizard: d.wizard, text: event.text };
}

// Draws one step's picture at progress p (0..1) into the effects layer; reduced: p is 1.
function drawStep(layer, step, p) {
  const parts = [];
  const width = Number(layer.ownerSVGElement.viewBox.baseVal.width) || 640;
  const { from, to } = step;
  if (step.kind === 'flight' && to) {
    const a = from || to;
    const x = a.x + (to.x - a.x) * p;
    const y = a.y + (to.y - a.y) * p - Math.sin(Math.PI * p) * 40;
    parts.push(s('circle', { cx: x.toFixed(1), cy: y.toFixed(1), r: 7, class: 'flight' }));
  } else if (step.kind === 'hit' && to) {
    parts.push(s('circle', { cx: to.x, cy: to.y, r: (10 + 24 * p).toFixed(1), class: 'burst', opacity: (1 - p * 0.7).toFixed(2) }));
    parts.push(text(to.x + 18, to.y - 20 - 16 * p, `−${step.amount}`, { class: 'number' }));
  } else if (step.kind === 'stop' && to) {
    parts.push(s('circle', { cx: to.x, cy: to.y, r: 34, class: 'stop', opacity: (1 - p * 0.5).toFixed(2) }));
  } else if (step.kind === 'death' && to) {
    parts.push(s('path', { d: `M${to.x - 22} ${to.y - 22} L${to.x + 22} ${to.y + 22} M${to.x + 22} ${to.y - 22} L${to.x - 22} ${to.y + 22}`, class: 'burst' }));
  } else if (step.kind === 'appear' && to) {
    parts.push(s('circle', { cx: to.x, cy: to.y, r: (40 * (1 - p) + 8).toFixed(1), class: 'stop' }));
  } else if (step.kind === 'clash') {
    // Two sparks meeting where the spells cancel (the subject, else mid-field).
    const at = to || { x: width / 2, y: 110 };
    const d = 26 * (1 - p) + 6;
    parts.push(s('path', { d: `M${at.x - d - 14} ${at.y - 14} l14 14 l-14 14 M${at.x + d + 14} ${at.y - 14} l-14 14 l14 14`, class: 'burst' }));
  }
  // The step's sentence on the scene itself, above the figures.
  parts.push(text(width / 2, 22, step.text.length > 90 ? `${step.text.slice(0, 88)}…` : step.text, { class: 'caption', 'text-anchor': 'middle' }));
  layer.replaceChildren(...parts);
}

/**
 * animateTurn({svg, spots, events, caption, reduced, sound, onDone}) -> {skip(), replay(), playing()}:
 * plays `events` (the turn's log events as the view gives them) on the scene's effects layer,
 * saying each step's sentence in `caption`; sound(step) is called as each step starts.
 */
export function animateTurn({ svg, spots, events, caption, reduced = false, sound = () => {}, onDone = () => {} }) {
  const layer = svg.querySelector('.scene-fx');
  const steps = events.map((e) => stepOf(e, spots));
  const each = steps.length ? Math.min(STEP_MS, TURN_MS / steps.length) : 0;
  let frame = 0;
  let start = 0;
  let shown = -1;
  let running = false;
  const finish = () => {
    cancelAnimationFrame(frame);
    running = false;
    layer.replaceChildren();
    caption.textContent = '';
    svg.closest('.battle-scene')?.setAttribute('data-animating', 'false');
    onDone();
  };
  const tick = (now) => {
    if (!start) start = now;
    let t = now - start;
    let index = Math.floor(t / each);
    if (index > shown + 1) {
      // A slow frame never skips a step: each is shown, from its start (the clock waits).
      index = shown + 1;
      start = now - index * each;
      t = index * each;
    }
    if (index >= steps.length) return finish();
    if (index !== shown) {
      shown = index;
      caption.textContent = steps[index].text;
      svg.closest('.battle-scene')?.setAttribute('data-step', String(index));
      sound(steps[index]);
    }
    drawStep(layer, steps[index], reduced ? 1 : (t - index * each) / each);
    frame = requestAnimationFrame(tick);
    return undefined;
  };
  const play = () => {
    cancelAnimationFrame(frame);
    if (!steps.length) return;
    start = 0;
    shown = -1;
    running = true;
    svg.closest('.battle-scene')?.setAttribute('data-animating', 'true');
    frame = requestAnimationFrame(tick);
  };
  play();
  return { skip: () => { if (running) finish(); }, replay: play, playing: () => running, steps: steps.length, stepMs: each };
}
