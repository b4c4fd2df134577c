// The hand shapes of the battle scene, drawn for this project: one per gesture of the game
// (F fingers wiggled, P proffered palm, S snap, W wave, D digit pointing, C clap, a stab, nothing)
// and a hidden one. Each is drawn in a 40 x 44 box centred on (0, 0), fingers up; `mirror` flips
// it for a left hand.

import { s } from './svg.js';

const SKIN = 'hand-skin';
const palm = () => s('rect', { x: -11, y: -2, width: 22, height: 20, rx: 7, class: SKIN });
const thumb = (up = false) => (up
  ? s('rect', { x: 9, y: -6, width: 6, height: 13, rx: 3, class: SKIN, transform: 'rotate(25 12 0)' })
  : s('rect', { x: 8, y: 4, width: 6, height: 11, rx: 3, class: SKIN, transform: 'rotate(50 11 9)' }));
const finger = (x, height, angle = 0) => s('rect', {
  x: x - 2.6, y: -2 - height, width: 5.2, height: height + 4, rx: 2.6, class: SKIN,
  transform: angle ? `rotate(${angle} ${x} -2)` : null,
});
const knuckles = () => [-7.5, -2.5, 2.5, 7.5].map((x) => s('circle', { cx: x, cy: -2, r: 3, class: SKIN }));
const mark = (d) => s('path', { d, class: 'hand-mark' });

const SHAPES = {
  // P: the palm proffered, fingers together, straight up.
  P: () => [palm(), finger(-7.5, 13), finger(-2.5, 16), finger(2.5, 16), finger(7.5, 13), thumb(true)],
  // F: the fingers spread and wiggling.
  F: () => [palm(), finger(-8, 12, -22), finger(-3, 15, -8), finger(3, 15, 8), finger(8, 12, 22), thumb(true),
    mark('M-19 -14 q3 -3 0 -6 M19 -14 q-3 -3 0 -6')],
  // S: thumb and middle finger snapping, with the snap's spark.
  S: () => [palm(), ...knuckles(), s('circle', { cx: 4, cy: -6, r: 4, class: SKIN }), thumb(true),
    mark('M10 -16 l4 -5 M14 -12 l6 -2 M6 -18 l0 -6')],
  // W: the open hand waving, with its motion arcs.
  W: () => [s('g', { transform: 'rotate(-18)' }, palm(), finger(-7.5, 12), finger(-2.5, 15), finger(2.5, 15), finger(7.5, 12), thumb(true)),
    mark('M-20 -6 q-4 -8 0 -16 M-15 -4 q-3 -7 0 -13')],
  // D: a fist with the index finger pointing.
  D: () => [palm(), ...knuckles().slice(1), finger(-7.5, 17), thumb(false)],
  // C: the two palms meeting in a clap.
  C: () => [s('g', { transform: 'translate(-5 0) rotate(-10)' }, palm(), finger(-2.5, 13), finger(2.5, 13)),
    s('g', { transform: 'translate(5 0) rotate(10)' }, palm(), finger(-2.5, 13), finger(2.5, 13)),
    mark('M-16 -18 l-4 -4 M16 -18 l4 -4 M0 -22 l0 -5')],
  // A stab: a fist holding a dagger.
  '>': () => [s('path', { d: 'M-2 -4 L0 -26 L2 -4 Z', class: 'hand-blade' }),
    s('rect', { x: -7, y: -6, width: 14, height: 3, rx: 1.5, class: 'hand-hilt' }), palm(), ...knuckles(), thumb(false)],
  // Nothing: a relaxed fist.
  '-': () => [palm(), ...knuckles(), thumb(false)],
};

/**
 * handShape(gesture, {mirror, label}) -> a <g> drawing that gesture as a hand (hidden: '?'), with
 * `label` (the hand and gesture in words) as its accessible name.
 */
export function handShape(gesture, { mirror = false, label = '' } = {}) {
  const draw = SHAPES[gesture];
  const body = draw ? draw() : [
    s('rect', { x: -12, y: -20, width: 24, height: 38, rx: 8, class: 'hand-hidden' }),
    s('text', { x: 0, y: 6, 'text-anchor': 'middle', class: 'hand-hidden-mark' }, '?'),
  ];
  // (a hidden hand is not mirrored: its '?' reads the right way round)
  // (no label: a picture only, as the animation's hands turning round, which the caption says)
  return s('g', { class: label ? 'hand' : 'hand-drawn', 'data-gesture': label ? gesture : null, transform: mirror && draw ? 'scale(-1 1)' : null, role: label ? 'img' : null, 'aria-label': label || null }, body);
}
