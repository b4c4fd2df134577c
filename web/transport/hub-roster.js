// The keys of a live melee (docs/protocol.md, "Live melee", "Keys: one code each way per guest"):
// the texts a host and a guest trade (the engine's invitation or acceptance, the author's key code,
// the WebRTC offer or answer, one text each way), and the roster, the host's first signed
// message: every seat's key code and every acceptance. Pure; errors are values.

import { fingerprint, keyCodeIn, readKeyCode } from './sign.js';
import { fail } from './transport.js';

/** liveText(parts) -> the one text a player sends: the engine's code, his key code, the connection code, a line each. */
export const liveText = (...parts) => parts.filter(Boolean).join('\n');

// Where a code starts (no code's body holds a dot, so one prefix never occurs inside another).
const CODE_START = /(?=WH1\.|WHK1\.|WHC1\.|WHA1\.)/;

/**
 * liveParts(text) -> {engine: [WH1. codes], key (WHK1.) or null, rtc (WHC1. offer or WHA1.
 * answer) or null}: the parts of a pasted live text, however a chat wrapped or joined its lines.
 */
export function liveParts(text) {
  const found = { engine: [], key: null, rtc: null };
  for (const piece of String(text || '').replace(/\s+/g, '').split(CODE_START)) {
    if (piece.startsWith('WH1.')) found.engine.push(piece);
    else if (piece.startsWith('WHK1.')) found.key = found.key || piece;
    else if (piece.startsWith('WHC1.') || piece.startsWith('WHA1.')) found.rtc = found.rtc || piece;
  }
  return found;
}

/** rosterBody(keyCodes, accepts) -> the body of the host's roster: every seat's key code (seat order) and every acceptance code. */
export const rosterBody = (keyCodes, accepts) => JSON.stringify({ keys: keyCodes, accepts });

/**
 * readRoster(body, {seats, me, myCode, hostCode}) -> {ok, keyCodes, keys (CryptoKeys), accepts,
 * fingerprint} or an error value: 'roster-bad' (not a roster of this many seats, a key unreadable),
 * 'roster-not-mine' (my seat holds another key than mine, or the host's another than the one my
 * invitation carried: the host put its own in its place).
 */
export async function readRoster(body, { seats, me, myCode, hostCode }) {
  let v;
  try {
    v = JSON.parse(body);
  } catch (e) {
    return fail('roster-bad');
  }
  const shaped = v && Array.isArray(v.keys) && v.keys.length === seats && v.keys.every((k) => keyCodeIn(k) === k)
    && Array.isArray(v.accepts) && v.accepts.every((a) => typeof a === 'string');
  if (!shaped) return fail('roster-bad');
  if (v.keys[me] !== myCode || v.keys[0] !== hostCode) return fail('roster-not-mine');
  const keys = [];
  for (const code of v.keys) {
    const read = await readKeyCode(code);
    if (!read.ok) return fail('roster-bad');
    keys.push(read.key);
  }
  return { ok: true, keyCodes: v.keys, keys, accepts: v.accepts, fingerprint: await fingerprint(v.keys) };
}
