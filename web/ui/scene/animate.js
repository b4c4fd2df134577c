// The turn's resolution animated on the battle scene, step by step in the order the engine
// resolved it: each log event of the turn (its type and structured fields, engine/wavinghands/
// events.py) becomes a step: gestures revealed, a spell flying to its target, a shield or a
// counter-spell stopping it, a mirror turning it back, clashes, damage numbers, deaths, summons;
// every step shows its sentence. A wizard whose gestures the turn reveals holds hidden hands
// until his reveal step, where they turn round to show the gestures.
// At most 4 s for the turn; skippable (the Skip button, Escape, a tap on the scene); replayable;
// under prefers-reduced-motion the same steps are shown one by one, still.

import { placeInOrder } from '../dom.js';
import { s } from './svg.js';
import { handShape } from './hands.js';

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
  return {
    kind, type: event.type, from: caster, to: kind === 'appear' ? pos(spots, d.monster) : to, amount: d.amount, wizard: d.wizard, text: event.text,
    via: d.reflected_by ? pos(spots, d.reflected_by) : null, gestures: kind === 'reveal' ? { L: d.left, R: d.right } : null,
  };
}

// One step's picture at progress p (0..1; reduced: 1) as parts, each {key, tag, attrs, words?,
// inner?}: the flying spell, the burst, the hands still hidden (`veils`: wizard -> the gestures
// each hand shows, '?' before its reveal) and the ones turning round, the step's sentence.
function stepParts(step, p, spots, veils, width) {
  const parts = [];
  const { from, to } = step;
  if (step.kind === 'flight' && to) {
    // Turned back by a mirror: to the mirror's bearer, then back to its new subject.
    const legs = step.via ? [[from || to, step.via], [step.via, to]] : [[from || to, to]];
    const leg = Math.min(legs.length - 1, Math.floor(p * legs.length));
    const q = p * legs.length - leg;
    const [a, b] = legs[leg];
    const x = a.x + (b.x - a.x) * q;
    const y = a.y + (b.y - a.y) * q - Math.sin(Math.PI * q) * 40;
    if (step.via) parts.push({ key: 'mirror', tag: 'path', attrs: { d: `M${step.via.x - 30} ${step.via.y - 36} q-10 36 0 72`, class: 'mirror' } });
    parts.push({ key: 'flight', tag: 'circle', attrs: { cx: x.toFixed(1), cy: y.toFixed(1), r: 7, class: 'flight' } });
  } else if (step.kind === 'hit' && to) {
    parts.push({ key: 'burst', tag: 'circle', attrs: { cx: to.x, cy: to.y, r: (10 + 24 * p).toFixed(1), class: 'burst', opacity: (1 - p * 0.7).toFixed(2) } });
    parts.push({ key: 'number', tag: 'text', attrs: { x: to.x + 18, y: to.y - 20 - 16 * p, class: 'number' }, words: `−${step.amount}` });
  } else if (step.kind === 'stop' && to) {
    parts.push({ key: 'stop', tag: 'circle', attrs: { cx: to.x, cy: to.y, r: 34, class: 'stop', opacity: (1 - p * 0.5).toFixed(2) } });
  } else if (step.kind === 'death' && to) {
    parts.push({ key: 'death', tag: 'path', attrs: { d: `M${to.x - 22} ${to.y - 22} L${to.x + 22} ${to.y + 22} M${to.x + 22} ${to.y - 22} L${to.x - 22} ${to.y + 22}`, class: 'burst' } });
  } else if (step.kind === 'appear' && to) {
    parts.push({ key: 'appear', tag: 'circle', attrs: { cx: to.x, cy: to.y, r: (40 * (1 - p) + 8).toFixed(1), class: 'stop' } });
  } else if (step.kind === 'clash') {
    // Two sparks meeting where the spells cancel (the subject, else mid-field).
    const at = to || { x: width / 2, y: 110 };
    const d = 26 * (1 - p) + 6;
    parts.push({ key: 'clash', tag: 'path', attrs: { d: `M${at.x - d - 14} ${at.y - 14} l14 14 l-14 14 M${at.x + d + 14} ${at.y - 14} l-14 14 l14 14`, class: 'burst' } });
  }
  // The hands still hidden, and the ones turning round at their reveal step.
  for (const [wizard, shown] of veils) {
    const turning = step.kind === 'reveal' && step.wizard !== undefined && String(step.wizard) === wizard;
    for (const hand of ['L', 'R']) {
      const spot = spots.get(`W${wizard}.${hand}`);
      if (!spot) continue;
      // Half a turn: the back narrows to nothing, then the gesture widens from nothing.
      const flip = turning ? Math.abs(Math.cos(Math.PI * p)) : 1;
      const face = turning ? (p < 0.5 ? shown[hand] : step.gestures[hand]) : shown[hand];
      const side = hand === 'L' && face !== '?' ? -1 : 1;
      parts.push({ key: `veil ${wizard}${hand} ${face}`, tag: 'g', attrs: { transform: `translate(${spot.x} ${spot.y}) scale(${(side * spot.scale * Math.max(0.02, flip)).toFixed(3)} ${spot.scale})` }, inner: () => handShape(face) });
    }
  }
  // The step's sentence on the scene itself, above the figures.
  parts.push({ key: 'caption', tag: 'text', attrs: { x: width / 2, y: 22, class: 'caption', 'text-anchor': 'middle' }, words: step.text.length > 70 ? `${step.text.slice(0, 68)}…` : step.text });
  return parts;
}

// Draws one step's picture into the effects layer. What it drew for the frame before stays where
// it still fits (the same part, the same words): a frame only moves attributes, and the browser
// restyles, lays out and repaints the parts that moved, not new ones every frame.
function drawStep(layer, step, p, spots, veils) {
  const width = Number(layer.ownerSVGElement.viewBox.baseVal.width) || 640;
  const parts = stepParts(step, p, spots, veils, width);
  const kept = new Map([...layer.children].map((el) => [el.dataset.part, el]));
  placeInOrder(layer, parts.map((part) => {
    const key = `${part.tag} ${part.key} ${part.words ?? ''}`;
    let el = kept.get(key);
    if (el) kept.delete(key);
    else {
      el = s(part.tag, { 'data-part': key }, part.words ?? null, part.inner ? part.inner() : null);
    }
    for (const [name, value] of Object.entries(part.attrs)) {
      if (el.getAttribute(name) !== String(value)) el.setAttribute(name, String(value));
    }
    return el;
  }));
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
  // Each wizard whose gestures a step reveals, and his last such step.
  const lastReveal = new Map(steps.map((st, i) => [st, i]).filter(([st]) => st.kind === 'reveal' && st.wizard !== undefined).map(([st, i]) => [String(st.wizard), i]));
  const veils = new Map();
  const veil = (wizard, on) => svg.querySelector(`.scene-wizard[data-wizard="${wizard}"]`)?.classList.toggle('veiled', on);
  let frame = 0;
  let timer = 0;
  let start = 0;
  let shown = -1;
  let running = false;
  // A step done: a reveal's gestures stay shown; after a wizard's last one, his own hands.
  const done = (index) => {
    const step = steps[index];
    if (!step || step.kind !== 'reveal' || step.wizard === undefined) return;
    const wizard = String(step.wizard);
    if (lastReveal.get(wizard) === index) {
      veils.delete(wizard);
      veil(wizard, false);
    } else veils.set(wizard, { ...step.gestures });
  };
  const stop = () => {
    cancelAnimationFrame(frame);
    clearTimeout(timer);
  };
  // The next frame: at once while moving; still, only when the next step is due (a still
  // picture drawn 60 times a second costs a phone's battery and shows nothing new).
  const next = (t, index) => {
    if (reduced) timer = setTimeout(() => { frame = requestAnimationFrame(tick); }, (index + 1) * each - t);
    else frame = requestAnimationFrame(tick);
  };
  const finish = () => {
    stop();
    running = false;
    layer.replaceChildren();
    for (const wizard of lastReveal.keys()) veil(wizard, false);
    veils.clear();
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
      for (let i = Math.max(0, shown); i < index; i += 1) done(i);
      shown = index;
      caption.textContent = steps[index].text;
      svg.closest('.battle-scene')?.setAttribute('data-step', String(index));
      sound(steps[index]);
      if (reduced) drawStep(layer, steps[index], 1, spots, veils);
    }
    if (!reduced) drawStep(layer, steps[index], (t - index * each) / each, spots, veils);
    next(t, index);
    return undefined;
  };
  const play = () => {
    stop();
    if (!steps.length) return;
    start = 0;
    shown = -1;
    running = true;
    veils.clear();
    for (const wizard of lastReveal.keys()) {
      veils.set(wizard, { L: '?', R: '?' });
      veil(wizard, true);
    }
    svg.closest('.battle-scene')?.setAttribute('data-animating', 'true');
    frame = requestAnimationFrame(tick);
  };
  play();
  return { skip: () => { if (running) finish(); }, replay: play, playing: () => running, steps: steps.length, stepMs: each };
}
