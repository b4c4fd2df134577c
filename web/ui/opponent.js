// The computer opponent's pieces of the page: the level and coach choices shown with the
// "Against the computer" mode on the start screen, the screen shown while the opponent thinks,
// and the coach panel on the orders screen ("what would the strong opponent do in my place?").
// The engine does the thinking (wavinghands.ai, in the engine's Web Worker); this module only
// asks and shows. The coach is off unless the player switches it on, and only local duels
// against the computer offer it (never remote play).

import { h, named, replace } from './dom.js';
import { gestureLabel } from './gesturepad.js';
import { handIcon } from './icons.js';
import { say } from './words/index.js';

/** LEVELS: the engine's opponent levels (ai_input's `level`), with words for the start screen. */
export const LEVELS = Object.freeze([
  { id: 'novice', label: say('opponent-level-novice'), hint: say('opponent-level-novice-hint') },
  { id: 'fair', label: say('opponent-level-fair'), hint: say('opponent-level-fair-hint') },
  { id: 'strong', label: say('opponent-level-strong'), hint: say('opponent-level-strong-hint') },
]);
export const DEFAULT_LEVEL = 'fair';

const known = (level) => LEVELS.some((l) => l.id === level);

/**
 * opponentOptions({level, coach}) -> {element, level(), coach()}: the level picker and the coach
 * switch, for the start screen's "Against the computer" mode.
 */
export function opponentOptions({ level, coach }) {
  const select = h('select', { id: 'opponent-level', 'data-testid': 'opponent-level' },
    LEVELS.map((l) => h('option', { value: l.id, selected: l.id === (known(level) ? level : DEFAULT_LEVEL) }, l.label)));
  const hint = h('small', { class: 'muted', 'data-testid': 'opponent-level-hint' });
  const showHint = () => { hint.textContent = (LEVELS.find((l) => l.id === select.value) || LEVELS[1]).hint; };
  select.addEventListener('change', showHint);
  showHint();
  const box = h('input', { type: 'checkbox', id: 'opponent-coach', 'data-testid': 'opponent-coach', checked: Boolean(coach) });
  const element = h('div', { class: 'opponent-options', 'data-testid': 'opponent-options' },
    h('div', { class: 'field' }, h('label', { for: 'opponent-level' }, say('opponent-level-label')), select, hint),
    h('label', { class: 'choice' }, box,
      h('span', {}, say('opponent-coach'), h('small', { class: 'muted' }, say('opponent-on-the-orders-screen-ask')))));
  return { element, level: () => select.value, coach: () => box.checked };
}

/** thinkingScreen({name, level}) -> the screen shown while the computer's wizard decides. */
export function thinkingScreen({ name, level }) {
  const words = (LEVELS.find((l) => l.id === level) || { label: '' }).label;
  return h('section', { class: 'pass thinking', 'data-testid': 'thinking', 'aria-busy': 'true' },
    handIcon('pass-sigil thinking-sigil'),
    h('h1', { tabindex: '-1' }, named(say('opponent-thinking', { name }))),
    h('p', { role: 'status' }, words ? say('opponent-weighs', { level: words.toLowerCase() }) : say('opponent-the-opponent-weighs-its-moves')));
}

/** levelTag({name, level}) -> the orders screen's line saying which wizard the computer plays and at what level. */
export function levelTag({ name, level }) {
  const words = (LEVELS.find((l) => l.id === level) || LEVELS.find((l) => l.id === DEFAULT_LEVEL)).label.toLowerCase();
  return h('p', { class: 'card level-tag', 'data-testid': 'computer-level' }, named(say('opponent-level-tag', { name, level: words })));
}

/**
 * offlineSign(win) -> a "Works offline" mark for the masthead, hidden until the service worker
 * holds everything this page needs (sw-register.js's window.__offlineReady, which a later module
 * sets: looked for once the page has loaded).
 */
export function offlineSign(win) {
  // On a phone only the mark shows (the words stay for screen readers): the masthead keeps one row.
  const sign = h('span', { class: 'offline-sign', 'data-testid': 'offline-ready', hidden: true, title: say('offline-ready-more') },
    h('span', { class: 'offline-mark', 'aria-hidden': 'true' }, '✓'), ' ', h('span', { class: 'offline-words' }, say('offline-ready')));
  const watch = () => (win.__offlineReady ? win.__offlineReady.then(() => { sign.hidden = false; }, () => {}) : null);
  // Modules run before 'load' (and sw-register.js after this one): by then it is set.
  if (win.document.readyState === 'complete') watch();
  else win.addEventListener('load', watch, { once: true });
  return sign;
}

const HAND = [say('opponent-hand-left'), say('opponent-hand-right')];

function describe(gestures) {
  return gestures.map((pair, set) => {
    const hands = pair.map((g, i) => `${HAND[i]}: ${gestureLabel(g)}`).join(', ');
    return gestures.length > 1 ? say('opponent-set', { n: set + 1, hands }) : hands;
  }).join('; ');
}

/**
 * coachPanel({ask, onUse}) -> the coach's button and answer; ask() -> Promise<{ok, gestures, why} | {ok:false, error}>;
 * onUse(gestures, advice), when given, is offered as "Use these gestures" under the answer (advice: the whole answer, its
 * `charm` the gesture for a hand the player controls by charm person).
 */
export function coachPanel({ ask, onUse = null }) {
  const answer = h('p', { class: 'coach-answer', 'data-testid': 'coach-answer', 'aria-live': 'polite', hidden: true });
  const button = h('button', {
    type: 'button', class: 'tool', 'data-testid': 'coach-ask',
    onclick: async () => {
      button.disabled = true;
      answer.hidden = false;
      answer.textContent = say('opponent-the-coach-is-thinking');
      const out = await ask();
      button.disabled = false;
      if (!out.ok) {
        answer.textContent = say('opponent-coach-failed', { message: out.error.message });
        return;
      }
      // Finding the coach's two gestures on the pads by hand is where a slip happens: one tap does it.
      const use = onUse ? h('button', {
        type: 'button', class: 'tool coach-use', 'data-testid': 'coach-use', onclick: () => onUse(out.gestures, out),
      }, say('opponent-use-these-gestures')) : null;
      // The plan (the engine's coach: what it casts, builds and answers), where it gives one.
      const plan = out.plan && out.plan.lines.length
        ? h('ul', { class: 'coach-plan', 'data-testid': 'coach-plan' }, out.plan.lines.map((line) => h('li', {}, line))) : null;
      replace(answer,
        h('strong', { 'data-testid': 'coach-gestures' }, describe(out.gestures)),
        h('span', { class: 'muted', 'data-testid': 'coach-why' }, ` — ${out.why}`),
        use ? ' ' : null, use, plan);
    },
  }, say('opponent-coach-what-would-the-strong'));
  return h('div', { class: 'coach card', 'data-testid': 'coach' }, button, answer);
}
