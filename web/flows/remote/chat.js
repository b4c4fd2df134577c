// Chat (live only) and the live connection's policy for a remote duel, as plain functions: which
// lines a duel shows and keeps, what to tell the opponent of this side's state, and how the codes
// of a duel travel now (by the connection, bundled with a connection code, or by hand). No DOM, no
// storage, no transport: the link's state comes in as plain values.

/** The chat lines a duel keeps (the newest). */
export const CHAT_KEEP = 200;

/** chatLine(from, text, turn, at) -> one chat line as a duel keeps it ('me' or 'them'). */
export function chatLine(from, text, turn, at) {
  return { from, text, turn, at };
}

/** withChat(duel, waiting) -> the duel holding its chat lines and then those still waiting to be stored (the newest CHAT_KEEP). */
export function withChat(duel, waiting = []) {
  if (!waiting.length) return duel;
  return { ...duel, chat: [...(duel.chat || []), ...waiting].slice(-CHAT_KEEP) };
}

/** chatLines(duel, waiting) -> the lines the screen shows: the stored ones, then those waiting to be stored. */
export function chatLines(duel, waiting = []) {
  return [...(duel.chat || []), ...waiting].slice(-CHAT_KEEP);
}

/**
 * presenceFor(status, queued) -> what to tell the opponent: 'sealed' only while my input to the
 * phase under way is committed (or sealed ahead: `queued`) and theirs is still to come, so it
 * never refers to a turn they are past; 'choosing' while I write; else 'waiting'.
 */
export function presenceFor(status, queued = false) {
  if (queued) return 'sealed';
  if (status.state === 'your_input') return 'choosing';
  if (status.state === 'waiting' && status.sealed) return 'sealed';
  if (status.state === 'waiting' && status.ahead) return 'choosing';
  return 'waiting';
}

const CLOSED = new Set(['disconnected', 'closed']);

/**
 * routes({carried, connected, mode, busy, outgoing, sentLive}) -> how this duel's codes go now,
 * for the panel: {carried, connected, liveFirst (the connection is, or is being made, the way:
 * codes by hand step back), rtcCode (a connection code still to deliver inside this side's turn
 * code), bundled (it goes with the code owed now), outgoing (the text to send by hand, with what
 * rides in it: the switchboard's outgoing), sentLive (the code owed went live)}. carried: the
 * live transport's status() when it carries this duel, else null.
 */
export function routes({ carried = null, connected = false, mode, busy = '', outgoing = null, sentLive = false }) {
  const liveFirst = Boolean(carried && !CLOSED.has(carried.state)) || Boolean(busy && mode === 'live');
  const rtcCode = carried && carried.pending ? carried.pending.code : null;
  return {
    carried, connected, liveFirst, rtcCode, outgoing,
    bundled: Boolean(outgoing && (outgoing.carries === 'offer' || outgoing.carries === 'answer')),
    sentLive: Boolean(connected && sentLive),
  };
}
