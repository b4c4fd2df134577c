// Signatures of a live melee (docs/protocol.md, "Live melee"): each player's key pair for one
// melee, its public key as a short code that rides with the invitation (the host's) or the
// acceptance (a guest's), and every message on the wire signed by its author, so a host that
// relays the others' messages can neither forge nor alter one. Order, replays and gaps are the
// log's (transport/hub-log.js). ECDSA P-256 with SHA-256 (WebCrypto in every browser and Node).
// Pure functions over WebCrypto; errors are values ({ok: false, error: {code, seat?}}).

import { base64urlDecode, base64urlEncode, bytesHex } from './codec/bytes.js';
import { fail } from './transport.js';

/** The prefix of a public key's code (WHK1. + base64url of the 65-byte uncompressed point). */
export const KEY_PREFIX = 'WHK1.';
/** The wire tag of a signed melee message (its JSON's "m"): another tag is not ours. */
export const WIRE_TAG = 'whm1';
/** The longest signed message on the wire, in characters (the data channel's limit, with room). */
export const MAX_WIRE_CHARS = 60000;

const KEY_ALGORITHM = Object.freeze({ name: 'ECDSA', namedCurve: 'P-256' });
const SIGN_ALGORITHM = Object.freeze({ name: 'ECDSA', hash: 'SHA-256' });
const RAW_KEY_BYTES = 65;
const SIGNATURE_BYTES = 64;
// The signed bytes start with this, so a signature made here means nothing anywhere else.
const DOMAIN = 'wavinghands/melee-live/v1\0';
const KEY_CODE_RE = /WHK1\.[A-Za-z0-9_-]+/g;
const GAME_RE = /^[0-9a-f]{8}$/;
const KIND_RE = /^[a-z]{1,12}$/;
const MAX_SEATS = 6;

const subtle = () => (globalThis.crypto && globalThis.crypto.subtle) || null;
const utf8 = (text) => new TextEncoder().encode(text);

/**
 * signedBytes({game, author, seq, after, kind, body}) -> the bytes a signature covers: the domain,
 * the melee's game id, the author's seat, his sequence number, what he had heard from each seat
 * (after), the kind and the body, as one JSON array (strings and whole numbers have one form).
 */
export function signedBytes({ game, author, seq, after, kind, body }) {
  return utf8(DOMAIN + JSON.stringify([game, author, seq, after, kind, body]));
}

/**
 * newKeyPair() -> {ok, keys: {privateKey, publicKey}, code} (code: the public key's WHK1. code)
 * or an error value ('no-webcrypto': the page is not in a secure context). The private key is not
 * extractable: it never leaves this page.
 */
export async function newKeyPair() {
  const s = subtle();
  if (!s) return fail('no-webcrypto');
  try {
    const keys = await s.generateKey(KEY_ALGORITHM, false, ['sign', 'verify']);
    const raw = new Uint8Array(await s.exportKey('raw', keys.publicKey));
    return { ok: true, keys, code: KEY_PREFIX + base64urlEncode(raw) };
  } catch (e) {
    return fail('no-webcrypto', (e && e.message) || String(e));
  }
}

/** keyCodeIn(text) -> the first public key's code (WHK1.) in a pasted text or link, or null. */
export function keyCodeIn(text) {
  const found = typeof text === 'string' ? text.match(KEY_CODE_RE) : null;
  return found ? found[0] : null;
}

/** readKeyCode(code) -> {ok, key (a CryptoKey that verifies), code} or an error value ('bad-key'). */
export async function readKeyCode(code) {
  const s = subtle();
  if (!s) return fail('no-webcrypto');
  if (typeof code !== 'string' || !code.startsWith(KEY_PREFIX)) return fail('bad-key');
  const raw = base64urlDecode(code.slice(KEY_PREFIX.length));
  if (!raw || raw.length !== RAW_KEY_BYTES || raw[0] !== 4) return fail('bad-key');
  try {
    const key = await s.importKey('raw', raw, KEY_ALGORITHM, true, ['verify']);
    return { ok: true, key, code };
  } catch (e) {
    return fail('bad-key'); // Not a point on the curve.
  }
}

/**
 * fingerprint(keyCodes) -> the roster's fingerprint, 16 hex digits in four groups: SHA-256 of
 * every seat's key code in seat order. Every page shows it; players who read the same one aloud
 * (or in their group chat) hold the same keys, so the host put no key of his own in anyone's place.
 */
export async function fingerprint(keyCodes) {
  const digest = new Uint8Array(await subtle().digest('SHA-256', utf8(`wavinghands/melee-roster/v1\0${keyCodes.join('\n')}`)));
  return bytesHex(digest.slice(0, 8)).match(/.{4}/g).join(' ');
}

/**
 * sign(privateKey, message) -> {ok, wire} (the JSON text to send) or an error value: message is
 * {game (8 hex digits), author (seat), seq (the author's next number, from 1), after (per seat,
 * the highest number of that seat's messages the author had taken: hub-log.js), kind, body (a string)}.
 */
export async function sign(privateKey, message) {
  const shaped = shapeOf(message);
  if (!shaped.ok) return shaped;
  try {
    const sig = new Uint8Array(await subtle().sign(SIGN_ALGORITHM, privateKey, signedBytes(message)));
    const { game, author, seq, after, kind, body } = message;
    const fields = { m: WIRE_TAG, g: game, a: author, n: seq, f: after, k: kind, b: body, s: base64urlEncode(sig) };
    return { ok: true, wire: JSON.stringify(fields) };
  } catch (e) {
    return fail('no-webcrypto', (e && e.message) || String(e));
  }
}

/**
 * open(keys, game, wire) -> {ok, message: {game, author, seq, after, kind, body}} or an error value:
 * 'bad-message' (not a signed melee message: garbled, wrong shape, too long), 'other-game' (signed
 * for another melee), 'unknown-author' (a seat with no key here), 'forged' (its signature is not
 * its author's key's over these bytes: made by someone else, or altered on the way; error.seat: the
 * seat it claims). keys: the CryptoKey of each seat (null where none is known yet).
 */
export async function open(keys, game, wire) {
  if (typeof wire !== 'string' || wire.length > MAX_WIRE_CHARS) return fail('bad-message');
  let w;
  try {
    w = JSON.parse(wire);
  } catch (e) {
    return fail('bad-message');
  }
  if (!w || w.m !== WIRE_TAG || typeof w.s !== 'string') return fail('bad-message');
  const message = { game: w.g, author: w.a, seq: w.n, after: w.f, kind: w.k, body: w.b };
  const shaped = shapeOf(message);
  if (!shaped.ok) return shaped;
  if (message.game !== game) return fail('other-game');
  const key = keys[message.author];
  if (!key) return { ok: false, error: { code: 'unknown-author', seat: message.author } };
  const sig = base64urlDecode(w.s);
  let good = false;
  if (sig && sig.length === SIGNATURE_BYTES) {
    try {
      good = await subtle().verify(SIGN_ALGORITHM, key, sig, signedBytes(message));
    } catch (e) {
      good = false;
    }
  }
  return good ? { ok: true, message } : { ok: false, error: { code: 'forged', seat: message.author } };
}

const count = (n) => Number.isSafeInteger(n) && n >= 0;

function shapeOf({ game, author, seq, after, kind, body }) {
  const ok = typeof game === 'string' && GAME_RE.test(game)
    && count(author) && author < MAX_SEATS
    && count(seq) && seq >= 1
    && Array.isArray(after) && after.length <= MAX_SEATS && after.every(count)
    && typeof kind === 'string' && KIND_RE.test(kind)
    && typeof body === 'string' && body.length <= MAX_WIRE_CHARS - 400;
  return ok ? { ok: true } : fail('bad-message');
}
