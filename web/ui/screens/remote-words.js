// remote: the few sentences of remote play put together from web/ui/words/ (its remote.js
// "remote") with what the screens know: sealed gestures in words, what a refused save asks for.

import { gestureLabel } from '../gesturepad.js';
import { say } from '../words/index.js';

/** gesturesText(sets) -> "left F, right P; then left …": sealed orders in words. */
export function gesturesText(sets) {
  return sets.map(([l, r]) => `left ${gestureLabel(l)}, right ${gestureLabel(r)}`).join('; then ');
}

/** unsavedWords(again, refusal) -> why a step was not stored, and what to do once there is room ('seal', 'apply', ...). */
export function unsavedWords(again, refusal) {
  return say('unsaved-remote', { refusal, again: say('remote-again', { again }) });
}

/** notSealedWords(again) -> the orders form's problem for a step that could not be stored. */
export function notSealedWords(again) {
  return say('remote-not-sealed', { again: say('remote-again', { again }) });
}
