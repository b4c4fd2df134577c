// The battle scene on a duel screen: the picture (scene.js) of the player's view, and, when a
// turn has just resolved, its animation (animate.js) with Skip, Replay and the sound switch.
// Drawn from a view and the events to play; reports the sound switch through `sound.onChange`.

import { h } from '../dom.js';
import { onKeys } from '../keys.js';
import { say } from '../words/index.js';
import { animateTurn } from './animate.js';
import { battleScene } from './scene.js';
import { createSound } from './sound.js';

const reducedMotion = () => Boolean(globalThis.matchMedia && globalThis.matchMedia('(prefers-reduced-motion: reduce)').matches);

/**
 * sceneCard(view, {events, sound}) -> {element, destroy}: the scene; `events` (the log events of
 * the turn just resolved, as the view gives them) are animated once it is on the page; sound:
 * {on, onChange(on)} (the shell remembers it) or null (no switch).
 */
export function sceneCard(view, { events = [], sound = null } = {}) {
  const scene = battleScene(view);
  // The step playing, in words (drawn on the scene itself; kept here for tests, not read out: the
  // result card and the live region already say the turn).
  const caption = h('p', { class: 'scene-step visually-hidden', 'aria-hidden': 'true', 'data-testid': 'scene-step' });
  const play = createSound();
  const state = { soundOn: Boolean(sound && sound.on), run: null };
  const skip = h('button', { type: 'button', 'data-testid': 'scene-skip', hidden: true, onclick: () => state.run && state.run.skip() }, say('scene-skip'));
  const again = h('button', { type: 'button', 'data-testid': 'scene-replay', hidden: !events.length, onclick: () => start() }, say('scene-replay'));
  const soundSwitch = sound ? h('button', {
    type: 'button', 'aria-pressed': String(state.soundOn), 'data-testid': 'scene-sound',
    onclick: (event) => {
      state.soundOn = !state.soundOn;
      event.currentTarget.setAttribute('aria-pressed', String(state.soundOn));
      sound.onChange(state.soundOn);
    },
  }, say('scene-sound')) : null;
  const element = h('div', { class: 'scene-card' }, scene.element, h('div', { class: 'scene-bar' }, caption, skip, again, soundSwitch));
  const start = () => {
    if (!events.length) return;
    skip.hidden = false;
    state.run = animateTurn({
      svg: scene.svg, spots: scene.spots, events, caption, reduced: reducedMotion(),
      sound: (step) => { if (state.soundOn) play(step); },
      onDone: () => { skip.hidden = true; },
    });
  };
  // A tap on the picture, or Escape, skips what is playing; an open dialog's Escape is its own
  // (it closes the dialog, which would stay open if the scene took the key).
  scene.element.addEventListener('click', () => state.run && state.run.skip());
  onKeys(element, (event) => {
    if (event.key === 'Escape' && !document.querySelector('dialog[open]') && state.run && state.run.playing()) {
      event.preventDefault();
      state.run.skip();
    }
  });
  // Played once the card is on the page (the screen host shows it first).
  requestAnimationFrame(() => { if (element.isConnected) start(); });
  return { element, destroy: () => state.run && state.run.skip(), scene };
}
