// A live melee's transport (docs/protocol.md, "Live melee"; interface: transport.js): the host is
// the hub, one WebRTC connection per guest (webrtc.js's transports), and passes every guest's
// signed message to every other; a guest has one connection, to the host. Every message is signed
// by its author (sign.js) and taken in its author's order (hub-log.js), so the relaying host can
// neither forge, alter, replay nor reorder another player's; a connection that closes is reported
// by the host, and the others may wait or concede the seat (hub-absence.js). Each page says
// 'alive' every few seconds: a seat not heard from, or whose message holds others back, is overdue.

import { droppedBody, concedeBody, newAbsence, note, HOST_SEAT } from './hub-absence.js';
import { newLog, overdue, stamp, take } from './hub-log.js';
import { readRoster, rosterBody } from './hub-roster.js';
import { fingerprint, sign } from './sign.js';
import { STATUS, fail, listeners } from './transport.js';

/** Clocks of a live melee (ms): the 'alive' beat, and when a seat's silence or gap is reported. */
export const HUB_TIMES = Object.freeze({ aliveMs: 4000, quietMs: 15000, gapMs: 8000, checkMs: 1000 });

const systemClock = Object.freeze({
  now: () => Date.now(),
  every(ms, fn) {
    const id = setInterval(fn, ms);
    return () => clearInterval(id);
  },
});

/**
 * createHub({game, seats, me, privateKey, keyCodes, keys, accepts, peers, inFight, clock, times})
 * -> the transport of one live melee: the interface of transport.js (kind 'hub', duelId: the game
 * id; send(code): an engine code to every player; onReceive(cb(code, seat)): the acceptances of
 * the roster (from seat 0), then every engine code) plus sendChat(text), onChat(cb(text, seat)),
 * concede(seat), onAbsence(cb(event)) (hub-absence.js's events, 'overdue' {seat, why}, 'refused'
 * {seat, why}: a message that failed its checks, 'host-gone'), absence(), taken(), settled().
 * status() adds me and fingerprint (the roster's, once known). peers: seat -> the raw live
 * transport to it (webrtc.js's: send, onMessage, onStatus, close); a guest has one, the host's
 * (seat 0), the host one per guest. keyCodes: every seat's key code (the host; a guest: his own
 * and the host's, the rest null until the roster); keys: their CryptoKeys (sign.js readKeyCode);
 * accepts: the host's, every guest's acceptance code. A guest sends nothing until the host's
 * roster is in (status 'connecting'). inFight() -> the seats still fighting (the engine's
 * participants; all seats by default).
 */
export function createHub({ game, seats, me, privateKey, keyCodes, keys, accepts = [], peers, inFight = null, clock = systemClock, times = HUB_TIMES }) {
  const isHost = me === HOST_SEAT;
  const codes = listeners();
  const chats = listeners();
  const absences = listeners();
  const changes = listeners();
  let log = newLog({ game, seats, me, now: clock.now() });
  let absence = newAbsence();
  let state = isHost ? STATUS.CONNECTED : STATUS.CONNECTING;
  let print = null; // the roster's fingerprint, once known
  const known = [...keys]; // each seat's CryptoKey (a guest learns the others' from the roster)
  let queue = Promise.resolve(); // signing and taking, one at a time, in order
  const fighting = () => (inFight ? inFight() : [...Array(seats).keys()]).filter((s) => !absence.conceded.includes(s));
  const serial = (job) => (queue = queue.then(job, job));
  const reasons = { [STATUS.CONNECTED]: 'open', [STATUS.CONNECTING]: 'waiting-roster', [STATUS.CLOSED]: 'closed-by-you' };
  const snapshot = () => ({ kind: 'hub', state, reason: reasons[state], duelId: game, me, fingerprint: print, absence });

  function tell(events) {
    for (const e of events) absences.emit(e);
    if (events.length) changes.emit(snapshot());
  }

  // A guest's roster: every seat's key, checked against his own and the host's, then the acceptances.
  async function takeRoster(m) {
    if (isHost || m.author !== HOST_SEAT || state !== STATUS.CONNECTING) return;
    const r = await readRoster(m.body, { seats, me, myCode: keyCodes[me], hostCode: keyCodes[HOST_SEAT] });
    if (!r.ok) {
      tell([{ code: 'refused', seat: HOST_SEAT, why: r.error.code }]);
      return;
    }
    r.keys.forEach((key, seat) => { known[seat] = key; });
    print = r.fingerprint;
    state = STATUS.CONNECTED;
    changes.emit(snapshot());
    if (r.accepts.length) codes.emit(r.accepts.join('\n'), HOST_SEAT);
  }

  async function deliver(m) {
    if (m.kind === 'roster') return takeRoster(m);
    const noted = note(absence, m, { me, seats, inFight: fighting(), taken: log.taken });
    absence = noted.absence;
    const theirs = m.author !== me; // my own are noted (votes), never handed back to me
    if (theirs && m.kind === 'code') codes.emit(m.body, m.author);
    else if (theirs && m.kind === 'chat') chats.emit(m.body, m.author);
    tell(noted.events);
  }

  // A message goes to every connected seat but those that have it already.
  function relay(wire, skip) {
    for (const [seat, peer] of peers) if (!skip.includes(seat)) peer.send(wire);
  }

  function heard(wire, from) {
    return serial(async () => {
      const r = await take(log, known, wire, clock.now());
      if (!r.ok) {
        tell([{ code: 'refused', seat: r.error.seat ?? from, why: r.error.code }]);
        return;
      }
      log = r.log;
      for (const m of r.delivered) {
        // Authorship is the signature's, not the connection's: the host passes on each message as
        // its author signed it, to everyone but the author and the one it came by.
        if (isHost) relay(m.wire, [from, m.author]);
        await deliver(m);
      }
    });
  }

  function post(kind, body) {
    return serial(async () => {
      if (state !== STATUS.CONNECTED) return fail('not-connected');
      const made = stamp(log, kind, body);
      const signed = await sign(privateKey, made.message);
      if (!signed.ok) return signed;
      log = made.log;
      relay(signed.wire, [me]);
      await deliver(made.message);
      return { ok: true, via: 'hub' };
    });
  }

  if (isHost) {
    // The roster first: every guest has every key before any other message reaches him.
    post('roster', rosterBody(keyCodes, accepts));
    serial(async () => {
      print = await fingerprint(keyCodes);
      changes.emit(snapshot());
    });
  }
  const offs = [];
  for (const [seat, peer] of peers) {
    offs.push(peer.onMessage((wire) => heard(wire, seat)));
    offs.push(peer.onStatus((s) => {
      if (s !== STATUS.DISCONNECTED && s !== STATUS.CLOSED) return;
      if (isHost && state === STATUS.CONNECTED) post('dropped', droppedBody(seat, log.taken[seat]));
      else if (!isHost) tell([{ code: 'host-gone', seat: HOST_SEAT }]);
    }));
  }
  offs.push(clock.every(times.aliveMs, () => post('alive', '')));
  let late = new Map(); // seat -> why, as last said: each is said once, until it changes
  offs.push(clock.every(times.checkMs, () => {
    const waited = fighting().filter((s) => !(s in absence.dropped));
    const now = new Map(overdue(log, clock.now(), { gapMs: times.gapMs, quietMs: times.quietMs, seats: waited }).map((o) => [o.seat, o.why]));
    const news = [...now].filter(([seat, why]) => late.get(seat) !== why);
    late = now;
    tell(news.map(([seat, why]) => ({ code: 'overdue', seat, why })));
  }));

  return {
    kind: 'hub',
    duelId: game,
    me,
    /** send(code) -> Promise of {ok, via: 'hub'} or an error value: one engine code to every player. */
    send: (code) => post('code', code),
    /** onReceive(cb) -> unsubscribe: cb(code, seat) per engine code, in its author's order. */
    onReceive: (cb) => codes.add(cb),
    /** sendChat(text) -> Promise of {ok} or an error value: a line to the group. */
    sendChat: (text) => post('chat', text),
    /** onChat(cb) -> unsubscribe: cb(text, seat) per line (plain text; the page shows it as text). */
    onChat: (cb) => chats.add(cb),
    /** concede(seat) -> Promise of {ok}: this player's signed agreement that `seat` is conceded. */
    concede: (seat) => post('concede', concedeBody(seat)),
    /** onAbsence(cb) -> unsubscribe: cb(event) per drop, lie, vote, concession, overdue seat or refused message. */
    onAbsence: (cb) => absences.add(cb),
    /** absence() -> {dropped, votes, conceded}: hub-absence.js's record now. */
    absence: () => absence,
    /** taken() -> per seat, how many of its messages this page has taken (mine: sent). */
    taken: () => [...log.taken],
    status: snapshot,
    /** onStatus(cb) -> unsubscribe: cb(status()) now and on every change. */
    onStatus(cb) {
      const off = changes.add(cb);
      cb(snapshot());
      return off;
    },
    /** settled() -> Promise resolved once every message sent or heard so far is handled. */
    settled: () => serial(() => undefined),
    /** close(): the connections end; the others hear this seat dropped. */
    close() {
      if (state === STATUS.CLOSED) return;
      state = STATUS.CLOSED;
      while (offs.length) offs.pop()();
      for (const [, peer] of peers) peer.close();
      changes.emit(snapshot());
    },
  };
}
