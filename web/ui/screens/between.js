// The screens between turns and around the duel: "pass the device" (hides one wizard's orders
// from the other), the resume screen shown while the engine boots after a reload, the plain-words
// failure screen, and the screen of a duel another tab plays (bug 7).

import { h, named } from '../dom.js';
import { handIcon } from '../icons.js';
import { say } from '../words/index.js';

/** passScreen({name, other, kind, onReady, onHome}) -> the screen that hands the device over; `kind` is the phase kind ('hasted': a hasted turn). */
export function passScreen({ name, other, kind, onReady, onHome }) {
  const why = kind === 'time_stop'
    ? named(say('between-time-stops', { name, other }))
    : kind === 'hasted'
      ? named(say('between-hasted', { name }))
    : kind === 'decision'
      ? named(say('between-decision', { name }))
      : named(say('between-orders', { name }));
  return h('section', { class: 'pass', 'data-testid': 'pass-screen', 'aria-labelledby': 'pass-title' },
    handIcon('pass-sigil'),
    h('h1', { id: 'pass-title', tabindex: '-1' }, named(say('between-pass-to', { name }))),
    h('p', {}, why, ' ', named(say('between-look-away', { other }))),
    h('button', { type: 'button', class: 'primary', 'data-testid': 'pass-ready', 'data-autofocus': true, onclick: onReady }, named(say('between-i-am', { name }))),
    h('button', { type: 'button', class: 'link', onclick: onHome }, say('between-back-to-the-start-screen')));
}

/** resumeScreen({title, onHome}) -> the placeholder shown while a saved duel waits for the engine. */
export function resumeScreen({ title, onHome }) {
  return h('section', { class: 'pass', 'data-testid': 'resume-screen' },
    handIcon('pass-sigil'),
    h('h1', { tabindex: '-1' }, named(say('between-resuming', { title }))),
    h('p', {}, say('between-the-duel-continues-as-soon')),
    h('button', { type: 'button', class: 'link', onclick: onHome }, say('between-back-to-the-start-screen')));
}

/** failureScreen({message, onHome}) -> a plain-words failure with a way out. */
export function failureScreen({ title = say('between-something-went-wrong'), message, onHome }) {
  return h('section', { class: 'pass', 'data-testid': 'failure-screen', role: 'alert' },
    h('h1', { tabindex: '-1' }, title),
    h('p', {}, message),
    h('div', { class: 'actions' },
      h('button', { type: 'button', class: 'primary', onclick: () => location.reload() }, say('between-reload-the-page')),
      onHome ? h('button', { type: 'button', onclick: onHome }, say('between-back-to-the-start-screen')) : null));
}

/**
 * tabScreen({takenOver, title, onTakeOver, onHome}) -> the screen of a duel another tab of this
 * browser plays (bug 7): opened here while it is played there, or taken over there (takenOver).
 */
export function tabScreen({ takenOver, title, onTakeOver, onHome }) {
  const testid = takenOver ? 'tab-taken-over' : 'tab-elsewhere';
  return h('section', { class: 'pass', 'data-testid': testid, role: 'alert' },
    handIcon('pass-sigil'),
    h('h1', { tabindex: '-1' }, say('tab-elsewhere-title'), ': ', named(title)),
    h('p', {}, say(takenOver ? 'tab-taken-over' : 'tab-elsewhere')),
    h('div', { class: 'actions' },
      h('button', { type: 'button', class: 'primary', 'data-testid': 'tab-take-over', onclick: onTakeOver }, say('tab-take-over')),
      h('button', { type: 'button', onclick: onHome }, say('between-back-to-the-start-screen'))));
}
