// The by-hand transport (docs/architecture.md, "Transports"): the player is the wire. A code sent
// is shown to be copied (as text, a link or a QR code) and a code received is one the player
// pasted or opened as a link. A connection code that must reach the opponent rides inside the
// turn code ("WH1.… WHC1.…", or a link "…#c=…&rtc=…"), so that one code goes each way
// (docs/webrtc.md, "The exchange").

import { STATUS, fail, listeners } from './transport.js';

// Where a code starts: a turn code (WH1.) or a connection code (WHC1. offer, WHA1. answer). No
// code's body holds a dot, so a prefix can never occur inside another code.
const CODE_START = /(?=WH1\.|WHC1\.|WHA1\.)/;

/**
 * splitCodes(text) -> {turn, rtc}: the turn code and the live connection code of a bundle, each
 * null when absent. A bundle is "WH1.… WHC1.…" (in any order, wrapped by a chat as it likes) or a
 * link "…#c=WH1.…&rtc=WHC1.…": an invitation (or any turn code) that also carries the connection
 * offer, or a turn code that carries the answer (docs/webrtc.md, "The exchange").
 */
export function splitCodes(text) {
  const s = String(text || '');
  const found = { turn: null, rtc: null };
  const hash = s.indexOf('#');
  if (hash >= 0) {
    for (const part of s.slice(hash + 1).replace(/\s+/g, '').split('&')) {
      const [key, value = ''] = part.split('=');
      if (key === 'c' && value) found.turn = decodeURIComponent(value);
      if (key === 'rtc' && value) found.rtc = decodeURIComponent(value);
    }
    return found;
  }
  for (const piece of s.replace(/\s+/g, '').split(CODE_START)) {
    if (piece.startsWith('WH1.')) found.turn = piece;
    else if (piece.startsWith('WHC1.') || piece.startsWith('WHA1.')) found.rtc = piece;
  }
  return found;
}

/** bundleOf(turnCode, turnLink, rtcCode) -> {code, link}: one text and one link carrying both. */
export function bundleOf(turnCode, turnLink, rtcCode) {
  return { code: `${turnCode} ${rtcCode}`, link: turnLink ? `${turnLink}&rtc=${rtcCode}` : null };
}

/**
 * qrMatrix(text, base) -> {ok, matrix: {size, data}} or {ok: false, error: {code: 'qr', detail}}:
 * the QR code of a code or link, made by the vendored generator (vendor/uqr.mjs next to the page
 * at `base`, put into the site by the build; the browser loads it once, on first use).
 */
export async function qrMatrix(text, base) {
  try {
    const { encode } = await import(new URL('vendor/uqr.mjs', base).href);
    // Low error correction keeps a link of ~200 characters at a size a phone reads easily; a
    // border of 4 modules is the quiet zone the standard asks for.
    const { size, data } = encode(text, { ecc: 'L', border: 4 });
    return { ok: true, matrix: { size, data } };
  } catch (err) {
    return fail('qr', String((err && err.message) || err));
  }
}

/**
 * createByHand(duelId, deps) -> the by-hand transport of one duel: the transport interface
 * (transport.js) plus paste(text) (what the player pasted: its turn code goes to onReceive's
 * callbacks; returns splitCodes' parts), outgoing(turnCode, turnLink, rider) (the text and link
 * to copy, with the connection code `rider` {code, carries} inside) and qr(text).
 * deps: {baseUrl() -> the page's address}.
 */
export function createByHand(duelId, deps = {}) {
  const received = listeners();
  const changes = listeners();
  const baseUrl = deps.baseUrl || (() => (typeof location === 'object' ? location.href.split('#')[0] : ''));
  let state = STATUS.CONNECTED; // the player is always there to carry a code
  let last = null; // the last code handed to the player to send

  const snapshot = () => ({ kind: 'hand', state, reason: state === STATUS.CLOSED ? 'closed-by-you' : 'by-hand', duelId, last });

  return {
    kind: 'hand',
    duelId,
    /** send(code) -> {ok, via: 'hand'}: the code is now the one to show the player for copying. */
    send(code) {
      if (typeof code !== 'string' || !code) return fail('bad-message');
      if (state === STATUS.CLOSED) return fail('not-open');
      last = code;
      changes.emit(snapshot());
      return { ok: true, via: 'hand' };
    },
    /** onReceive(cb) -> unsubscribe: cb(turnCode) for each turn code the player pastes here. */
    onReceive: (cb) => received.add(cb),
    /** paste(text) -> {turn, rtc}: hands the pasted text's turn code to onReceive's callbacks. */
    paste(text) {
      const parts = splitCodes(text);
      if (parts.turn && state !== STATUS.CLOSED) received.emit(parts.turn);
      return parts;
    },
    /** status() -> {kind: 'hand', state, reason: 'by-hand', duelId, last}. */
    status: snapshot,
    /** onStatus(cb) -> unsubscribe: cb(status()) now and on each change. */
    onStatus(cb) {
      const off = changes.add(cb);
      cb(snapshot());
      return off;
    },
    /** close(): this duel's codes no longer go by hand (final). */
    close() {
      if (state === STATUS.CLOSED) return;
      state = STATUS.CLOSED;
      changes.emit(snapshot());
    },
    /** outgoing(turnCode, turnLink, rider) -> {code, link, carries}: what the player copies. */
    outgoing(turnCode, turnLink = null, rider = null) {
      if (!rider) return { code: turnCode, link: turnLink, carries: null };
      return { ...bundleOf(turnCode, turnLink, rider.code), carries: rider.carries };
    },
    /** qr(text) -> Promise of qrMatrix's answer for this page. */
    qr: (text) => qrMatrix(text, baseUrl()),
  };
}
