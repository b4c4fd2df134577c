// remote: the few sentences of remote play put together from web/ui/words/ (its remote.js
// "remote") with what the screens know: sealed gestures in words, what a refused save asks for.

import { gestureLabel } from '../gesturepad.js';
import { say } from '../words/index.js';

/** opponentOf(session) -> the opponent's name, or "your opponent" before it is known. */
export function opponentOf(session) {
  return session.names[1 - session.me] || say('remote-your-opponent');
}

/** meOf(session) -> the player's own name in their duel, or "You" before it is known. */
export function meOf(session) {
  return session.names[session.me] || say('remote-you');
}

/** gesturesText(sets) -> "left F, right P; then left …": sealed orders in words. */
export function gesturesText(sets) {
  return sets.map(([l, r]) => say('remote-sealed-hands', { left: gestureLabel(l), right: gestureLabel(r) })).join(say('remote-sealed-then'));
}

/** unsavedWords(again, refusal) -> why a step was not stored, and what to do once there is room ('seal', 'apply', ...). */
export function unsavedWords(again, refusal) {
  return say('unsaved-remote', { refusal, again: say('remote-again', { again }) });
}

/** notSealedWords(again) -> the orders form's problem for a step that could not be stored. */
export function notSealedWords(again) {
  return say('remote-not-sealed', { again: say('remote-again', { again }) });
}
