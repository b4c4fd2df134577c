// The log of a live melee's signed messages on one page (docs/protocol.md, "Live melee"): what
// this page has taken from each seat, in each author's own order and after what the author had
// heard, whatever order a relaying host delivers them in. A message comes out of take() only once
// its signature is its author's (sign.js), it is the author's next one, and every message it was
// written after has come out; a replay is refused; a message held back too long names the seat
// whose message is missing (overdue). Plain data, pure functions: every call returns a new log.

import { open } from './sign.js';

/** The most messages held waiting for earlier ones (a host flooding the page is refused past it). */
export const MAX_HELD = 256;

/**
 * newLog({game, seats, me, now}) -> the empty log of seat `me` in melee `game` (8 hex digits):
 * {game, seats, me, taken (per seat: the number of its messages taken, mine: sent), held
 * ([{message, wire, since}] waiting for earlier ones), heard (per seat: when its last one was taken)}.
 */
export function newLog({ game, seats, me, now = 0 }) {
  return { game, seats, me, taken: Array(seats).fill(0), held: [], heard: Array(seats).fill(now) };
}

/**
 * stamp(log, kind, body) -> {log, message}: my next message, numbered and stamped with what I have
 * taken from every seat (after), ready for sign(); the log counts it as sent.
 */
export function stamp(log, kind, body) {
  const seq = log.taken[log.me] + 1;
  const message = { game: log.game, author: log.me, seq, after: [...log.taken], kind, body };
  const taken = log.taken.map((n, seat) => (seat === log.me ? seq : n));
  return { log: { ...log, taken }, message };
}

const failWith = (log, code, seat) => ({ ok: false, error: seat === undefined ? { code } : { code, seat }, log });

/**
 * take(log, keys, wire, now) -> {ok, log, delivered: [messages (each with its wire), in an order
 * every author's own order and what he had heard respect]} or {ok: false, error: {code, seat?}, log (unchanged)}:
 * codes are open()'s ('bad-message', 'other-game', 'unknown-author', 'forged') and 'replayed' (a
 * message already taken or held, or my own sent back), 'too-far-ahead' (more than MAX_HELD waiting).
 * keys: each seat's CryptoKey (null where none is known yet).
 */
export async function take(log, keys, wire, now) {
  const opened = await open(keys, log.game, wire);
  if (!opened.ok) return { ...opened, log };
  const m = opened.message;
  if (m.after.length !== log.seats || m.author >= log.seats || m.after[m.author] !== m.seq - 1) {
    return failWith(log, 'bad-message', m.author);
  }
  const again = m.author === log.me || m.seq <= log.taken[m.author]
    || log.held.some((h) => h.message.author === m.author && h.message.seq === m.seq);
  if (again) return failWith(log, 'replayed', m.author);
  if (log.held.length >= MAX_HELD) return failWith(log, 'too-far-ahead', m.author);
  return { ok: true, ...drain({ ...log, held: [...log.held, { message: m, wire, since: now }] }, now) };
}

// Whether a held message may come out now: it is its author's next, and everything its author had
// heard when he wrote it has come out here.
const ready = (log, m) => m.seq === log.taken[m.author] + 1
  && m.after.every((n, seat) => seat === m.author || seat === log.me || n <= log.taken[seat]);

function drain(log, now) {
  const delivered = [];
  let held = log.held;
  let taken = log.taken;
  let heard = log.heard;
  for (;;) {
    const view = { ...log, taken };
    const next = held.find((h) => ready(view, h.message));
    if (!next) break;
    const m = next.message;
    held = held.filter((h) => h !== next);
    taken = taken.map((n, seat) => (seat === m.author ? m.seq : n));
    heard = heard.map((t, seat) => (seat === m.author ? now : t));
    delivered.push({ ...m, wire: next.wire });
  }
  return { log: { ...log, held, taken, heard }, delivered };
}

/**
 * waitingOn(log) -> [{seat, since}]: the seats whose missing message holds others back (the
 * oldest held message's author's earlier one, or one it was written after), with when the
 * wait began; [] when nothing is held.
 */
export function waitingOn(log) {
  const found = new Map();
  for (const { message: m, since } of log.held) {
    const missing = m.seq > log.taken[m.author] + 1 ? [m.author]
      : m.after.map((n, seat) => (seat !== m.author && seat !== log.me && n > log.taken[seat] ? seat : -1)).filter((s) => s >= 0);
    for (const seat of missing) if (!found.has(seat) || found.get(seat) > since) found.set(seat, since);
  }
  return [...found].map(([seat, since]) => ({ seat, since })).sort((a, b) => a.seat - b.seat);
}

/**
 * overdue(log, now, {gapMs, quietMs, seats}) -> [{seat, why}]: among `seats` (those still
 * expected to speak), each whose message is missing while later ones wait for it longer than gapMs
 * (why 'withheld'), or from whom nothing has been taken for longer than quietMs (why 'silent':
 * every page says 'alive' every few seconds).
 */
export function overdue(log, now, { gapMs, quietMs, seats }) {
  const out = [];
  const gaps = waitingOn(log);
  for (const seat of seats) {
    if (seat === log.me) continue;
    const gap = gaps.find((g) => g.seat === seat);
    if (gap && now - gap.since > gapMs) out.push({ seat, why: 'withheld' });
    else if (now - log.heard[seat] > quietMs) out.push({ seat, why: 'silent' });
  }
  return out;
}
