// The live melee's hub (web/transport/hub.js) under Node: a host and two guests over fake
// connections shaped like webrtc.js's transports, with a clock the test moves. Every engine code
// reaches every other player once, in order; a guest whose connection closes is reported to the
// others, who concede him together; a silent seat is named. Run: node --test tests/js/hub-relay.test.mjs

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { createHub } from '../../web/transport/hub.js';
import { newKeyPair, readKeyCode } from '../../web/transport/sign.js';
import { STATUS } from '../../web/transport/transport.js';
import { fakeClock, wirePair } from './hub-fakes.mjs';

const GAME = '00c0ffee';

const ACCEPTS = ['WH1.accept-1', 'WH1.accept-2'];

// A host and its guests over fake connections; `rosterCodes` is what the host's roster says
// (a lying host's), every seat's real key code by default.
async function melee(seats = 3, { rosterCodes = null } = {}) {
  const pairs = [];
  for (let s = 0; s < seats; s++) pairs.push(await newKeyPair());
  const keys = [];
  for (const p of pairs) keys.push((await readKeyCode(p.code)).key);
  const codesOf = pairs.map((p) => p.code);
  const clocks = pairs.map(() => fakeClock());
  const hostPeers = new Map();
  const hubs = [];
  const guestEnds = [];
  for (let s = 1; s < seats; s++) {
    const [hostEnd, guestEnd] = wirePair();
    hostPeers.set(s, hostEnd);
    guestEnds[s] = guestEnd;
  }
  // The host knows every key (from the acceptances); a guest his own and the host's (from his invitation).
  const make = (me, peers) => createHub({
    game: GAME, seats, me, privateKey: pairs[me].keys.privateKey, peers, clock: clocks[me], accepts: ACCEPTS.slice(0, seats - 1),
    keyCodes: me === 0 ? rosterCodes || codesOf : codesOf.map((c, s) => (s === 0 || s === me ? c : null)),
    keys: keys.map((k, s) => (me === 0 || s === 0 || s === me ? k : null)),
  });
  hubs.push(make(0, hostPeers));
  for (let s = 1; s < seats; s++) hubs.push(make(s, new Map([[0, guestEnds[s]]])));
  const heard = hubs.map((hub) => {
    const got = { codes: [], events: [], chat: [] };
    hub.onReceive((code, seat) => got.codes.push(`${seat}:${code}`));
    hub.onChat((text, seat) => got.chat.push(`${seat}:${text}`));
    hub.onAbsence((e) => got.events.push(`${e.code}:${e.seat}${e.why ? `:${e.why}` : ''}`));
    return got;
  });
  const settle = async () => {
    for (let i = 0; i < 6; i++) {
      await Promise.all(hubs.map((h) => h.settled()));
      await new Promise((r) => setTimeout(r, 0));
    }
  };
  await settle();
  return { hubs, heard, settle, clocks, guestEnds, hostPeers, codesOf };
}

test('the host\'s roster gives every guest every key and the acceptances; every page shows one fingerprint', async () => {
  const { hubs, heard } = await melee(3);
  for (const hub of hubs) assert.equal(hub.status().state, STATUS.CONNECTED);
  const prints = hubs.map((h) => h.status().fingerprint);
  assert.match(prints[0], /^[0-9a-f]{4}( [0-9a-f]{4}){3}$/);
  assert.deepEqual(prints, [prints[0], prints[0], prints[0]]);
  assert.deepEqual(heard[1].codes, ['0:WH1.accept-1\nWH1.accept-2']);
  assert.deepEqual(heard[0].codes, [], 'the host has the acceptances already');
});

test('a roster that puts another key at a guest\'s seat is refused there, and that guest sends nothing', async () => {
  const fake = (await newKeyPair()).code;
  const probe = await melee(3);
  const { hubs, heard } = await melee(3, { rosterCodes: [probe.codesOf[0], probe.codesOf[1], fake] });
  // (Keys differ per melee(): the host's roster here names keys of another melee at every seat.)
  assert.equal(hubs[2].status().state, STATUS.CONNECTING);
  assert.ok(heard[2].events.includes('refused:0:roster-not-mine'), heard[2].events.join(' '));
  assert.deepEqual(await hubs[2].send('WH1.c1'), { ok: false, error: { code: 'not-connected' } });
});

test('every engine code reaches every other player once, in its author\'s order, through the host', async () => {
  const { hubs, heard, settle } = await melee(3);
  assert.deepEqual(await hubs[1].send('WH1.b1'), { ok: true, via: 'hub' });
  await hubs[1].send('WH1.b2');
  await hubs[2].send('WH1.c1');
  await hubs[0].send('WH1.a1');
  await hubs[2].sendChat('hello all');
  await settle();
  assert.deepEqual(heard[0].codes, ['1:WH1.b1', '1:WH1.b2', '2:WH1.c1'], 'nobody hears his own codes back');
  assert.deepEqual(heard[1].codes.slice(1), ['2:WH1.c1', '0:WH1.a1']);
  assert.deepEqual(heard[2].codes.slice(1), ['1:WH1.b1', '1:WH1.b2', '0:WH1.a1']);
  assert.deepEqual(heard[1].chat, ['2:hello all']);
  for (const got of heard) assert.deepEqual(got.events.filter((e) => e.startsWith('refused')), []);
  assert.deepEqual(hubs[2].taken(), [2, 2, 2], 'the roster and a code from the host, two each from the guests');
});

test('a guest who drops is reported to the others, who concede him together; a page says who is silent', async () => {
  const { hubs, heard, settle, guestEnds, clocks } = await melee(3);
  await hubs[2].send('WH1.c1');
  await settle();
  guestEnds[2].close(); // guest 2's connection ends
  await settle();
  assert.ok(heard[0].events.includes('dropped:2'));
  assert.ok(heard[1].events.includes('dropped:2'));
  assert.deepEqual(hubs[1].absence().dropped, { 2: 1 });
  assert.ok(heard[2].events.includes('host-gone:0'));
  await hubs[0].concede(2);
  await settle();
  assert.deepEqual(hubs[1].absence().conceded, [], 'the host alone concedes nobody');
  await hubs[1].concede(2);
  await settle();
  assert.deepEqual(hubs[0].absence().conceded, [2]);
  assert.deepEqual(hubs[1].absence().conceded, [2]);
  // Guest 1 hears the host's beats; the host stops hearing guest 1 once its clock stops (a frozen
  // tab): after the quiet time the host names it.
  clocks[0].advance(16000);
  await settle();
  assert.ok(heard[0].events.includes('overdue:1:silent'), heard[0].events.join(' '));
  assert.ok(!heard[0].events.some((e) => e.startsWith('overdue:2')), 'a conceded seat is not waited for');
});

test('a closed hub sends nothing more', async () => {
  const { hubs } = await melee(3);
  hubs[1].close();
  assert.equal(hubs[1].status().state, STATUS.CLOSED);
  assert.deepEqual(await hubs[1].send('WH1.late'), { ok: false, error: { code: 'not-connected' } });
});
