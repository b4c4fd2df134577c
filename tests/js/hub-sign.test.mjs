// The live melee's signatures and log (web/transport/sign.js, hub-log.js, hub-absence.js) under
// Node's WebCrypto: one test per row of docs/protocol.md's "Threat model (live melee)", each
// through a simulated relaying host that holds every wire and may change, drop, repeat or reorder
// it. Run: node --test tests/js/hub-sign.test.mjs

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { fingerprint, keyCodeIn, newKeyPair, open, readKeyCode, sign } from '../../web/transport/sign.js';
import { MAX_HELD, newLog, overdue, stamp, take } from '../../web/transport/hub-log.js';
import { concedeBody, droppedBody, newAbsence, note } from '../../web/transport/hub-absence.js';

const GAME = '0a1b2c3d';
const SEATS = 3;

// Three players: the host (seat 0) and two guests; each page's keys of every seat, as the
// invitation and acceptances carried them.
async function players() {
  const pairs = [];
  for (let seat = 0; seat < SEATS; seat++) {
    const made = await newKeyPair();
    assert.ok(made.ok);
    pairs.push(made);
  }
  const keys = [];
  for (const p of pairs) keys.push((await readKeyCode(p.code)).key);
  return { pairs, keys, codes: pairs.map((p) => p.code) };
}

// A player's page: its log, and a way to write its next signed message.
function page(me, pairs) {
  const self = {
    log: newLog({ game: GAME, seats: SEATS, me }),
    async write(kind, body) {
      const made = stamp(self.log, kind, body);
      self.log = made.log;
      const signed = await sign(pairs[me].keys.privateKey, made.message);
      assert.ok(signed.ok);
      return signed.wire;
    },
  };
  return self;
}

// What the relaying host hands to a page: take() each wire in turn, keeping the log on success.
async function hand(to, keys, wires, now = 0) {
  const out = { delivered: [], errors: [] };
  for (const wire of wires) {
    const r = await take(to.log, keys, wire, now);
    if (r.ok) {
      to.log = r.log;
      out.delivered.push(...r.delivered.map((m) => `${m.author}:${m.seq}:${m.body}`));
    } else {
      assert.equal(r.log, to.log, 'a refused message leaves the log as it was');
      out.errors.push(`${r.error.code}@${r.error.seat}`);
    }
  }
  return out;
}

const edit = (wire, change) => JSON.stringify(change(JSON.parse(wire)));

test('a key pair signs, its code carries the public key, and the message opens with it', async () => {
  const { pairs, keys } = await players();
  assert.match(pairs[1].code, /^WHK1\.[A-Za-z0-9_-]{87}$/);
  assert.equal(keyCodeIn(`WH1.abc ${pairs[1].code} WHC1.xyz`), pairs[1].code);
  const b = page(1, pairs);
  const wire = await b.write('code', 'WH1.commit');
  const r = await open(keys, GAME, wire);
  assert.ok(r.ok);
  assert.deepEqual(r.message, { game: GAME, author: 1, seq: 1, after: [0, 0, 0], kind: 'code', body: 'WH1.commit' });
  assert.deepEqual((await readKeyCode('WHK1.AAAA')).error, { code: 'bad-key' });
  const offCurve = `${pairs[1].code.slice(0, 40)}${pairs[1].code[40] === 'A' ? 'B' : 'A'}${pairs[1].code.slice(41)}`;
  assert.deepEqual((await readKeyCode(offCurve)).error, { code: 'bad-key' }, 'a point off the curve');
});

test('threat: forged: the host signs a message as a guest, with its own key or none', async () => {
  const { pairs, keys } = await players();
  const c = page(2, pairs);
  const host = page(0, pairs);
  // The host writes "guest 1's" commitment and signs it with its own key.
  const made = stamp(newLog({ game: GAME, seats: SEATS, me: 1 }), 'code', 'WH1.forged');
  const forged = await sign(pairs[0].keys.privateKey, made.message);
  const bare = edit(forged.wire, (w) => ({ ...w, s: 'A'.repeat(86) }));
  const got = await hand(c, keys, [forged.wire, bare, await host.write('code', 'WH1.host')]);
  assert.deepEqual(got.errors, ['forged@1', 'forged@1']);
  assert.deepEqual(got.delivered, ['0:1:WH1.host']);
});

test('threat: altered: a guest\'s message changed on the way (body, number, heard, kind) is refused', async () => {
  const { pairs, keys } = await players();
  const b = page(1, pairs);
  const c = page(2, pairs);
  const wire = await b.write('code', 'WH1.reveal-orders-ABC');
  const altered = [
    edit(wire, (w) => ({ ...w, b: 'WH1.reveal-orders-ABD' })),
    edit(wire, (w) => ({ ...w, k: 'chat' })),
    edit(wire, (w) => ({ ...w, n: 2, f: [0, 1, 0] })),
    edit(wire, (w) => ({ ...w, a: 0, f: [0, 0, 0] })),
  ];
  const got = await hand(c, keys, [...altered, wire]);
  assert.deepEqual(got.errors, ['forged@1', 'forged@1', 'forged@1', 'forged@0']);
  assert.deepEqual(got.delivered, ['1:1:WH1.reveal-orders-ABC'], 'the genuine message still comes through');
  assert.deepEqual((await hand(c, keys, ['not json', '{"m":"whm1"}'])).errors, ['bad-message@undefined', 'bad-message@undefined']);
});

test('threat: replayed: a message handed twice, sent back to its author, or from another melee', async () => {
  const { pairs, keys } = await players();
  const b = page(1, pairs);
  const c = page(2, pairs);
  const one = await b.write('code', 'WH1.commit-r0');
  const got = await hand(c, keys, [one, one]);
  assert.deepEqual(got.delivered, ['1:1:WH1.commit-r0']);
  assert.deepEqual(got.errors, ['replayed@1']);
  // Sent back to its author.
  assert.deepEqual((await hand(b, keys, [one])).errors, ['replayed@1']);
  // A message of the same guest in another melee (same keys, other game id).
  const other = page(1, pairs);
  other.log = newLog({ game: 'ffffffff', seats: SEATS, me: 1 });
  const elsewhere = await other.write('code', 'WH1.commit-r0');
  assert.deepEqual((await hand(c, keys, [elsewhere])).errors, ['other-game@undefined']);
  // A held message handed again before its turn is a replay too.
  const two = await b.write('code', 'two');
  const three = await b.write('code', 'three');
  assert.deepEqual((await hand(c, keys, [three, three])).errors, ['replayed@1']);
  assert.deepEqual((await hand(c, keys, [two])).delivered, ['1:2:two', '1:3:three']);
});

test('threat: reordered: the host swaps a guest\'s messages, or hands a reply before what it answers', async () => {
  const { pairs, keys } = await players();
  const a = page(0, pairs);
  const b = page(1, pairs);
  const c = page(2, pairs);
  const w1 = await b.write('code', 'first');
  const w2 = await b.write('code', 'second');
  const w3 = await b.write('code', 'third');
  const got = await hand(c, keys, [w3, w1, w2]);
  assert.deepEqual(got.delivered, ['1:1:first', '1:2:second', '1:3:third'], 'taken in the author\'s order');
  // Across authors: the host's reveal, written after it heard guest 1's commitment, cannot reach
  // guest 2 before that commitment, whatever order the host hands them in.
  const commit = await b.write('code', 'b-commit');
  await hand(a, keys, [w1, w2, w3, commit]);
  const reveal = await a.write('code', 'a-reveal');
  const got2 = await hand(c, keys, [reveal, commit]);
  assert.deepEqual(got2.delivered, ['1:4:b-commit', '0:1:a-reveal']);
});

test('threat: withheld: a missing message names its author once later ones wait; a silent seat is named too', async () => {
  const { pairs, keys } = await players();
  const b = page(1, pairs);
  const c = page(2, pairs);
  const w1 = await b.write('alive', '');
  const w2 = await b.write('code', 'withheld');
  const w3 = await b.write('code', 'later');
  await hand(c, keys, [w1, w3], 1000);
  const times = { gapMs: 8000, quietMs: 15000, seats: [0, 1, 2] };
  assert.deepEqual(overdue(c.log, 5000, times), [], 'within the wait nobody is named');
  assert.deepEqual(overdue(c.log, 9500, times), [{ seat: 1, why: 'withheld' }]);
  assert.deepEqual(overdue(c.log, 16001, times), [{ seat: 0, why: 'silent' }, { seat: 1, why: 'withheld' }]);
  assert.deepEqual((await hand(c, keys, [w2], 17000)).delivered, ['1:2:withheld', '1:3:later']);
  assert.deepEqual(overdue(c.log, 18000, times), [{ seat: 0, why: 'silent' }]);
  // A host flooding a page with messages it cannot take yet is stopped.
  const flood = page(1, pairs);
  const flooded = page(2, pairs);
  await flood.write('code', 'never-sent');
  let refused = null;
  for (let i = 0; i <= MAX_HELD && !refused; i++) {
    const r = await take(flooded.log, keys, await flood.write('code', `f${i}`), 0);
    if (r.ok) flooded.log = r.log;
    else refused = r.error.code;
  }
  assert.equal(refused, 'too-far-ahead');
});

// Each page's record of who is gone, fed the messages its log lets out.
function watcher(me) {
  const w = {
    absence: newAbsence(),
    events: [],
    see(m, inFight = [0, 1, 2], taken = [9, 9, 9]) {
      const r = note(w.absence, m, { me, seats: SEATS, inFight, taken });
      w.absence = r.absence;
      w.events.push(...r.events.map((e) => `${e.code}:${e.seat}`));
    },
  };
  return w;
}
const msg = (author, seq, kind, body) => ({ author, seq, kind, body });

test('threat: a host drops a guest: reported to all; the seat is conceded only when every other wizard signs', async () => {
  const b = watcher(1);
  b.see(msg(0, 5, 'dropped', droppedBody(2, 7)), [0, 1, 2], [5, 3, 7]);
  assert.deepEqual(b.events, ['dropped:2']);
  // The host's vote alone concedes nothing; the guest's own vote completes the agreement.
  b.see(msg(0, 6, 'concede', concedeBody(2)));
  assert.deepEqual(b.absence.conceded, []);
  b.see(msg(1, 4, 'concede', concedeBody(2)));
  assert.deepEqual(b.absence.conceded, [2]);
  assert.deepEqual(b.events.slice(1), ['vote:2', 'vote:2', 'conceded:2']);
  // A report from a guest, or of the host, means nothing.
  const c = watcher(2);
  c.see(msg(1, 1, 'dropped', droppedBody(0, 0)));
  c.see(msg(0, 1, 'dropped', droppedBody(0, 0)));
  assert.deepEqual(c.events, []);
});

test('threat: a host lies about who dropped: the seat speaks later, or the report or concession names the reader', async () => {
  // Guest 1 hears "guest 2 dropped after its 3rd message", then guest 2's 4th.
  const b = watcher(1);
  b.see(msg(0, 5, 'dropped', droppedBody(2, 3)), [0, 1, 2], [5, 3, 3]);
  b.see(msg(2, 4, 'alive', ''));
  assert.deepEqual(b.events, ['dropped:2', 'host-lied:2']);
  assert.deepEqual(b.absence.dropped, {});
  // A report naming a message older than one this page already holds from that seat.
  const b2 = watcher(1);
  b2.see(msg(0, 5, 'dropped', droppedBody(2, 3)), [0, 1, 2], [5, 3, 6]);
  assert.deepEqual(b2.events, ['host-lied:2']);
  // Guest 2 itself is told it dropped, or sees a vote to concede it: it is here, so it says so.
  const c = watcher(2);
  c.see(msg(0, 5, 'dropped', droppedBody(2, 3)));
  c.see(msg(0, 6, 'concede', concedeBody(2)));
  assert.deepEqual(c.events, ['host-lied:2', 'host-lied:2', 'vote:2']);
  assert.deepEqual(c.absence.conceded, [], 'a page never concedes its own seat');
});

test('threat: a host puts its own key in a guest\'s place: the roster fingerprints differ', async () => {
  const { codes } = await players();
  const fake = (await newKeyPair()).code;
  const honest = await fingerprint(codes);
  assert.match(honest, /^[0-9a-f]{4}( [0-9a-f]{4}){3}$/);
  assert.equal(await fingerprint([...codes]), honest);
  assert.notEqual(await fingerprint([codes[0], codes[1], fake]), honest);
});
