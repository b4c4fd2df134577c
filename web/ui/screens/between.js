// The screens between turns and around the duel: "pass the device" (hides one wizard's orders
// from the other), the resume screen shown while the engine boots after a reload, the plain-words
// failure screen, and the screen of a duel another tab plays (bug 7).

import { h, nameOf } from '../dom.js';
import { handIcon } from '../icons.js';
import { say } from '../words/index.js';

/** passScreen({name, other, kind, onReady, onHome}) -> the screen that hands the device over; `kind` is the phase kind ('hasted': a hasted turn). */
export function passScreen({ name, other, kind, onReady, onHome }) {
  const why = kind === 'time_stop'
    ? ['Time stops for ', nameOf(name), ': an extra turn that ', nameOf(other), ' will know nothing about.']
    : kind === 'hasted'
      ? [nameOf(name), ' is hastened: a hasted turn, in which only ', nameOf(name), ' writes orders.']
    : kind === 'decision'
      ? [nameOf(name), ' has a decision to make.']
      : [nameOf(name), ' writes secret orders now.'];
  return h('section', { class: 'pass', 'data-testid': 'pass-screen', 'aria-labelledby': 'pass-title' },
    handIcon('pass-sigil'),
    h('h1', { id: 'pass-title', tabindex: '-1' }, 'Pass the device to ', nameOf(name)),
    h('p', {}, why, ' ', nameOf(other), ', please look away.'),
    h('button', { type: 'button', class: 'primary', 'data-testid': 'pass-ready', 'data-autofocus': true, onclick: onReady }, 'I am ', nameOf(name), ' — show me'),
    h('button', { type: 'button', class: 'link', onclick: onHome }, 'Back to the start screen'));
}

/** resumeScreen({title, onHome}) -> the placeholder shown while a saved duel waits for the engine. */
export function resumeScreen({ title, onHome }) {
  return h('section', { class: 'pass', 'data-testid': 'resume-screen' },
    handIcon('pass-sigil'),
    h('h1', { tabindex: '-1' }, 'Resuming ', h('bdi', {}, title)),
    h('p', {}, 'The duel continues as soon as the rules engine has loaded.'),
    h('button', { type: 'button', class: 'link', onclick: onHome }, 'Back to the start screen'));
}

/** failureScreen({message, onHome}) -> a plain-words failure with a way out. */
export function failureScreen({ title = 'Something went wrong', message, onHome }) {
  return h('section', { class: 'pass', 'data-testid': 'failure-screen', role: 'alert' },
    h('h1', { tabindex: '-1' }, title),
    h('p', {}, message),
    h('div', { class: 'actions' },
      h('button', { type: 'button', class: 'primary', onclick: () => location.reload() }, 'Reload the page'),
      onHome ? h('button', { type: 'button', onclick: onHome }, 'Back to the start screen') : null));
}

/**
 * tabScreen({takenOver, title, onTakeOver, onHome}) -> the screen of a duel another tab of this
 * browser plays (bug 7): opened here while it is played there, or taken over there (takenOver).
 */
export function tabScreen({ takenOver, title, onTakeOver, onHome }) {
  const testid = takenOver ? 'tab-taken-over' : 'tab-elsewhere';
  return h('section', { class: 'pass', 'data-testid': testid, role: 'alert' },
    handIcon('pass-sigil'),
    h('h1', { tabindex: '-1' }, say('tab-elsewhere-title'), ': ', h('bdi', {}, title)),
    h('p', {}, say(takenOver ? 'tab-taken-over' : 'tab-elsewhere')),
    h('div', { class: 'actions' },
      h('button', { type: 'button', class: 'primary', 'data-testid': 'tab-take-over', onclick: onTakeOver }, say('tab-take-over')),
      h('button', { type: 'button', onclick: onHome }, 'Back to the start screen')));
}
