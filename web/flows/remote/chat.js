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
 * routes({link, duelId, mode, busy, status, declineCode, sentLive}) -> how this duel's codes go
 * now, for the panel: {carried (the link when it carries this duel), connected, liveFirst (the
 * connection is, or is being made, the way: codes by hand step back), rtcCode (a connection code
 * still to deliver inside this side's turn code), bundled (it goes with the code owed now),
 * decline (a decline to send inside the next code), sentLive (the code owed went live)}.
 * link: {duelId, status, answered, code, detail: {reason}} as the live connection reports it.
 */
export function routes({ link, duelId, mode, busy = '', status, declineCode = null, sentLive = false }) {
  const carried = link && link.duelId === duelId ? link : null;
  const connected = Boolean(carried && carried.status === 'connected');
  const liveFirst = Boolean(carried && !CLOSED.has(carried.status)) || Boolean(busy && mode === 'live');
  const reason = carried && carried.detail ? carried.detail.reason : '';
  const rtcCode = carried && carried.status === 'connecting' && !carried.answered && ['waiting-answer', 'waiting-host'].includes(reason)
    ? carried.code : null;
  return {
    carried, connected, liveFirst, rtcCode,
    bundled: Boolean(rtcCode && status.code_owed),
    decline: !rtcCode && !connected ? declineCode : null,
    sentLive: Boolean(connected && sentLive),
  };
}

/** bundleOf(turnCode, turnLink, rtcCode) -> {code, link}: one text and one link carrying a turn code and a connection code. */
export function bundleOf(turnCode, turnLink, rtcCode) {
  return { code: `${turnCode} ${rtcCode}`, link: turnLink ? `${turnLink}&rtc=${rtcCode}` : null };
}
