// The remote duel record's small facts, shared by the remote flows (no state, no DOM).

import { resultOf } from '../../store/record.js';

/** duelIdOf(session) -> the saved duel id of one side of a remote game ("r-<game id>-<0|1>"). */
export function duelIdOf(session) {
  return `r-${session.game_id}-${session.me}`;
}

/** seenOf(view) -> how much of a view the player has seen (log lines, history rows). */
export function seenOf(view) {
  return view ? { log: view.log.length, rows: view.wizards.map((w) => w.history.length) } : { log: 0, rows: [0, 0] };
}

/**
 * summarize(session, status) -> the saved duel's summary (the start screen's line for it), as data:
 * the names known so far ('' for one not known yet), whether the invitation still waits, the
 * result; the screens say it (web/ui/words/common.js, 'duel-title', 'duel-result').
 */
export function summarize(session, status) {
  const over = status.state === 'over';
  return {
    title: '', names: session.names.map((n) => n || ''), turn: Math.max(1, status.turn), phase: status.phase, over,
    result: over ? resultOf(status.result) : null, awaiting: status.state === 'awaiting_accept', resultText: '',
  };
}


// A remote duel keeps its drafted next turn under its player's seat (the store's record:
// drafts[me]); records written before the one record shape kept it as `draft`.

/** draftOf(duel) -> the remote player's draft of the next turn (drafts.js), or null. */
export function draftOf(duel) {
  if (duel.drafts && typeof duel.drafts === 'object') return duel.drafts[String(duel.session.me)] || null;
  return duel.draft || null;
}

/** withDraft(duel, draft) -> the duel with that draft (null: none). */
export function withDraft(duel, draft) {
  if (!duel.drafts || typeof duel.drafts !== 'object') return { ...duel, draft };
  const drafts = { ...duel.drafts };
  if (draft) drafts[String(duel.session.me)] = draft;
  else delete drafts[String(duel.session.me)];
  return { ...duel, drafts };
}

/** seenMarkOf(duel) -> how much this player has seen ({log, rows}). */
export function seenMarkOf(duel) {
  const seen = duel.seen || {};
  return ('log' in seen ? seen : seen[String(duel.session.me)]) || seenOf(null);
}

/** withSeen(duel, view) -> the duel marking all of `view` as seen by this player. */
export function withSeen(duel, view) {
  const mark = seenOf(view);
  const seen = duel.seen || {};
  if (!duel.seen || 'log' in seen) return { ...duel, seen: mark };
  return { ...duel, seen: { ...seen, [String(duel.session.me)]: mark } };
}
