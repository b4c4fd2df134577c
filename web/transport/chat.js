// The chat and presence of a live connection (docs/webrtc.md, "The transport"): what a chat line
// and a presence may be, the data-channel envelope of a line and the turn it is filed under.
// Pure; the channel itself is transport/channel.js's.

/** The longest chat message, in characters (the box stops there; longer ones are not shown). */
export const CHAT_MAX = 300;

/**
 * chatText(value) -> the plain text of a chat message, or null when it is not one: a string of
 * 1..CHAT_MAX characters once control characters are dropped and spaces trimmed. Shown only as
 * text, never as HTML.
 */
export function chatText(value) {
  if (typeof value !== 'string') return null;
  // Control characters (line breaks included) would let a message fake the look of another.
  const text = value.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').trim();
  return text && text.length <= CHAT_MAX ? text : null;
}

/** The highest turn a chat envelope may carry (a duel never gets near it). */
export const CHAT_TURN_MAX = 100000;

/**
 * chatEnvelope(text, turn) -> the data-channel envelope of a chat message, or null when the text
 * is not one (chatText): {t: 'chat', m: text, n: turn}, where `n` is the turn the sender was in
 * when it spoke (omitted when unknown). A page that does not know `n` ignores it and files the
 * line under its own turn, as before: the field needs no new version.
 */
export function chatEnvelope(text, turn = null) {
  const clean = chatText(text);
  if (clean === null) return null;
  const n = chatTurn(turn);
  return n === null ? { t: 'chat', m: clean } : { t: 'chat', m: clean, n };
}

/** chatTurn(value) -> a turn number (a whole number 1..CHAT_TURN_MAX), or null for anything else. */
export function chatTurn(value) {
  return Number.isSafeInteger(value) && value >= 1 && value <= CHAT_TURN_MAX ? value : null;
}

/**
 * readChat(envelope) -> {text, turn} of a received chat envelope (turn null when it carries none
 * or nonsense), or null when it is not a chat message.
 */
export function readChat(m) {
  if (!m || typeof m !== 'object' || m.t !== 'chat') return null;
  const text = chatText(m.m);
  return text === null ? null : { text, turn: chatTurn(m.n) };
}

/**
 * chatLineTurn(stamped, mine) -> the turn under which a received chat line is shown: the
 * sender's turn, which may be one ahead of mine (the side that resolves a turn first has moved
 * on) or behind it; a stamp beyond that, or none, is filed under my own turn.
 */
export function chatLineTurn(stamped, mine) {
  const here = chatTurn(mine) || 1;
  const said = chatTurn(stamped);
  return said !== null && said <= here + 1 ? said : here;
}

/** What a player may tell the other about their turn; anything else is not sent nor shown. */
export const PRESENCE_STATES = Object.freeze(['choosing', 'sealed', 'waiting']);
