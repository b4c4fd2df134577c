// remote: the sentences of remote play's screens, keyed by what the flows return (outcome and
// error codes); the engine's own sentences (status.message, error messages) are shown as they are.

import { gestureLabel } from '../gesturepad.js';

/** The duel's mode as its tag says it. */
export const MODE_TAGS = { codes: 'by codes', live: 'live' };

/** gesturesText(sets) -> "left F, right P; then left …": sealed orders in words. */
export function gesturesText(sets) {
  return sets.map(([l, r]) => `left ${gestureLabel(l)}, right ${gestureLabel(r)}`).join('; then ');
}

const AGAIN = {
  begin: 'begin again (the saved duels are listed on this screen)',
  accept: 'accept again (the saved duels are listed on the start screen)',
  seal: 'seal again',
  'seal-again': 'seal your orders again',
  'seal-early': 'seal early again',
  apply: 'apply the code again',
  'carry-on': 'carry on',
};

/** unsavedWords(again, refusal) -> why a step was not stored, and what to do once there is room. */
export function unsavedWords(again, refusal) {
  const why = refusal === 'unavailable'
    ? 'This browser refused to store the duel (its storage is switched off for this page)'
    : 'Your browser’s storage for this page is full';
  return `${why}, so this step was not saved and no code was shown or sent: delete or export old duels, then ${AGAIN[again] || again}`;
}

/** unsavedChatWords(count, refusal) -> why chat lines were not stored and what to do. */
export function unsavedChatWords(count, refusal) {
  const why = refusal === 'unavailable'
    ? 'This browser refused to store the duel (its storage is switched off for this page)'
    : 'Your browser’s storage for this page is full';
  const lines = count === 1 ? 'the last chat line was' : `the last ${count} chat lines were`;
  return `${why}, so ${lines} not saved: they stay on this screen, but a reload would lose them. Delete or export old duels, then save now.`;
}

/** notSealedWords(again) -> the orders form's problem for a step that could not be stored. */
export function notSealedWords(again) {
  return `Not sealed: this step could not be saved (see above). Make room, then ${AGAIN[again] || again}.`;
}

/** The sentences keyed by code; functions take what they need. */
export const REMOTE_WORDS = {
  gone: 'This duel is no longer saved here.',
  'moved-on': 'The turn has moved on: write your orders on the form now shown.',
  'moved-on-preview': 'the turn has moved on',
  queued: (opp) => `Sealed: your orders go as soon as ${opp}’s code arrives`,
  'early-sealed': (turn, opp) => `Sealed early: your orders for turn ${turn} go by themselves as soon as ${opp}’s code arrives, if its result leaves them as they are`,
  noted: ({ gestures, next, other }) => `${gestures ? 'Your orders are noted' : 'Your answer is noted'}. There is no code to send yet: it goes to ${other} in one code with ${next ? 'your orders for the next turn (below)' : 'your next answer (below)'}`,
  applied: (opp) => `${opp}’s code is applied`,
  'applied-early': (turn, opp) => `Applied. Your orders sealed early for turn ${turn} were left as they were by the result, so they are sealed: send ${opp} your next code`,
  'applied-reply': (opp) => `Applied. Your page made the next code by itself (the exchange needs it): send it to ${opp}`,
  accepted: (host, connect) => `You accepted ${host}'s challenge. Write your orders for turn 1: your code for them is your answer${connect ? ', and it connects you live' : ''}`,
  'invite-accepted-here': 'You already accepted this invitation: here is that duel',
  'invite-own-accepted': 'This is your own invitation, and it has been accepted already: here is that duel',
  'own-invitation': 'this is your own invitation: send it to your friend, and paste here the code they send back',
  'not-saved': (turn) => `This code (turn ${turn}) belongs to a duel that is not saved in this browser. Open it in the browser where you accepted the invitation or started the duel (a chat app may have opened that link in its own browser), or paste the invitation here first.`,
  empty: 'Paste a code or a link first.',
  'empty-here': 'paste the code or the link first',
  declined: (opp) => `${opp} chose to play by codes only: the duel goes on by codes`,
  'live-gone': 'a code came over the live connection, but the duel it carries is no longer saved here; it was ignored',
  'moved-elsewhere': (opp, title) => `${opp} moved in ${title}.`,
  'invite-ignored': (host) => `${host} sent another invitation over the live connection; it was ignored while a dialog is open.`,
  'preparing-code': 'Preparing a connection code (finding this device’s network addresses)…',
  answering: 'Answering the connection code…',
  'draft-note': (opp, turn) => `While ${opp}’s code for turn ${turn - 1} is on its way, draft turn ${turn}. The draft is saved; when the code comes it is put on the real form, and whatever turn ${turn - 1}’s result changes in it is shown there. Sealed early, it goes by itself with your next code if nothing changed.`,
  'write-now': (turn, opp) => `Turn ${turn}: write your orders now. ${opp} seals first this turn; yours go by themselves once ${opp}’s arrive.`,
  'live-waiting': (turn, opp) => `Waiting for ${opp} (turn ${turn}): the code comes by itself over the live connection, nothing to paste.`,
  'early-line': (turn, sets, opp) => `Sealed early for turn ${turn}: ${gesturesText(sets)}. They go by themselves with your next code as soon as ${opp}’s code arrives, if its result leaves them as they are; otherwise they wait on the form.`,
  'sealed-line': (turn, sets) => `Your sealed orders for turn ${turn}: ${gesturesText(sets)}.`,
  'rules-standard': 'Rules: the standard rules.',
};

/** rulesText(rules) -> the rules an invitation's duel is under, in words (remote_describe's `rules`). */
export function rulesText(rules) {
  if (!rules) return REMOTE_WORDS['rules-standard'];
  const on = rules.options.map((o) => o.label);
  return `Rules: ${rules.title}${on.length ? `, and ${on.join('; ')}` : ''}. ${rules.description}`;
}

/** draftLead(draft) -> what the resolved turn did to the draft, as the changes box's lead. */
export function draftLead(draft) {
  if (draft.over) return `Your draft for turn ${draft.turn} is not needed:`;
  if (draft.changes.length) return `Your draft for turn ${draft.turn} is on the form, but the last turn's result changed it${draft.wasSealed ? ', so it was not sealed by itself' : ''}:`;
  return `Your draft for turn ${draft.turn} is on the form as you left it${draft.wasSealed ? ' (complete it, then seal)' : ''}.`;
}
