// The live melee's connection flow (web/flows/melee-live.js) under Node: a host and two guests
// trade one text each way, the host's hub starts once both are connected, every page gets every
// key and acceptance, codes go through the hub to the melee-codes flows, and a guest who drops is
// reported and conceded. The melee-codes flow and the engine are stand-ins (their own tests cover
// them); the connections are fakes. Run: node --test tests/js/hub-flow.test.mjs

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { createMeleeLiveFlow } from '../../web/flows/melee-live.js';
import { STATUS } from '../../web/transport/transport.js';
import { fakeClock, fakeRtc } from './hub-fakes.mjs';

const GAME = '0a1b2c3d';

// The engine's describe for the stand-in codes: WH1.inv-<seat>, WH1.acc-<seat>, WH1.x-<seat>-<n>.
const api = {
  async remoteMeleeDescribe(text) {
    const codes = text.split('\n').filter(Boolean).map((code) => {
      const [, kind, seat] = code.match(/^WH1\.(\w+)-(\d)/) || [];
      if (!kind) return null;
      const k = { inv: 'invite', acc: 'accept' }[kind] || 'commit';
      return { code, kind: k, sender: k === 'invite' ? 0 : Number(seat), seat: Number(seat), seats: 3, game_id: GAME, round: 0 };
    });
    return codes.includes(null) ? { ok: false, error: { code: 'corrupted', message: '' } } : { ok: true, codes };
  },
};

// A stand-in of flows/melee-codes.js: what the live flow calls, and what reaches it.
function codesFlow(seat, transportFor) {
  const duel = { id: `melee-${GAME}-${seat}`, session: { game_id: GAME } };
  const flow = {
    received: [],
    transport: null,
    attach() {
      if (flow.transport) return;
      flow.transport = transportFor(duel);
      if (flow.transport) flow.transport.onReceive((text) => flow.received.push(text));
    },
    async host() {
      flow.attach();
      return { duel, outbox: [1, 2].map((s) => ({ code: `WH1.inv-${s}`, kind: 'invite', seat: s })) };
    },
    async join() {
      flow.attach();
      return { duel, outbox: [{ code: `WH1.acc-${seat}`, kind: 'accept', seat }] };
    },
    async receive(text) {
      flow.received.push(text);
      return {};
    },
    async resume() {
      flow.attach();
      return {};
    },
  };
  return flow;
}

function page(seat, rtc) {
  const clock = fakeClock();
  const holder = {};
  const codes = codesFlow(seat, (duel) => holder.live.transportFor(duel));
  holder.live = createMeleeLiveFlow({ api, codes, rtc, hubOptions: { clock } });
  return { live: holder.live, codes, clock };
}

// Waits until cond() holds (signing runs on Node's thread pool, so no fixed number of turns is
// enough on a loaded machine); fails after 10 s, saying what it waited for.
async function until(cond, what) {
  const end = Date.now() + 10_000;
  while (!cond()) {
    if (Date.now() > end) assert.fail(`waited 10 s for ${what}`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

test('a host and two guests trade one text each way; every page then holds every key and plays through the hub', async () => {
  const rtc = fakeRtc();
  const [host, b, c] = [page(0, rtc), page(1, rtc), page(2, rtc)];
  const made = await host.live.host({ name: 'Ann', seats: 3 });
  const invitations = made.live.invitations;
  assert.deepEqual(invitations.map((i) => i.seat), [1, 2]);
  assert.match(invitations[0].text, /^WH1\.inv-1\nWHK1\.[\w-]+\nWHC1\.offer1$/);
  for (const [guest, inv] of [[b, invitations[0]], [c, invitations[1]]]) {
    const joined = await guest.live.join({ text: inv.text, name: 'Guest' });
    assert.equal(joined.live.role, 'guest');
    assert.equal(joined.live.state, STATUS.CONNECTING);
    const back = await host.live.reply(joined.live.reply);
    assert.ok(!back.error, JSON.stringify(back.error));
  }
  await until(() => [host, b, c].every((p) => p.live.state().state === STATUS.CONNECTED && p.live.state().fingerprint), 'every page connected');
  await until(() => b.codes.received.length && c.codes.received.length, 'the roster\'s acceptances');
  const prints = [host, b, c].map((p) => p.live.state().fingerprint);
  assert.ok(prints[0]);
  assert.deepEqual(prints, [prints[0], prints[0], prints[0]]);
  for (const p of [host, b, c]) assert.equal(p.live.state().state, STATUS.CONNECTED);
  assert.deepEqual(host.codes.received, ['WH1.acc-1', 'WH1.acc-2'], 'the host took each acceptance from its reply');
  assert.deepEqual(b.codes.received, ['WH1.acc-1\nWH1.acc-2'], 'a guest gets them from the roster');
  // A guest's code reaches the others' melee-codes flows through the hub.
  await b.codes.transport.send('WH1.x-1-commit');
  await until(() => host.codes.received.length === 3 && c.codes.received.length === 2, 'the code at the host and guest 2');
  assert.deepEqual(host.codes.received.slice(2), ['WH1.x-1-commit']);
  assert.deepEqual(c.codes.received.slice(1), ['WH1.x-1-commit']);
  // The group's chat: a guest's line reaches every page, signed and relayed by the host; a line
  // that is not plain text of 1..300 characters is refused and sends nothing.
  assert.deepEqual(b.live.sendChat('Good luck,\nall'), { ok: true });
  assert.equal(b.live.sendChat('   ').error.code, 'bad-chat');
  assert.equal(b.live.sendChat('x'.repeat(301)).error.code, 'bad-chat');
  const lines = (p) => p.live.state().chat.lines;
  await until(() => lines(host).length === 1 && lines(c).length === 1, 'the chat line at the host and guest 2');
  for (const p of [host, b, c]) assert.deepEqual(lines(p), [{ seat: 1, text: 'Good luck, all' }]);
  assert.deepEqual(host.live.sendChat('Thanks'), { ok: true });
  await until(() => lines(c).length === 2, 'the host\'s line at guest 2');
  assert.deepEqual(lines(c)[1], { seat: 0, text: 'Thanks' });
  // Guest 2 leaves: the host and guest 1 hear it, and both concede him.
  c.live.close();
  const said = (p) => p.live.state().events.map((e) => `${e.code}:${e.seat}`);
  await until(() => said(b).includes('dropped:2'), 'guest 1 told guest 2 dropped');
  await b.live.concede(2);
  await host.live.concede(2);
  await until(() => b.live.state().absence.conceded.length && host.live.state().absence.conceded.length, 'the concession on both pages');
  assert.deepEqual(b.live.state().absence.conceded, [2]);
  assert.deepEqual(host.live.state().absence.conceded, [2]);
});

test('the host refuses a reply that is not one, and a guest a text that is not a live invitation', async () => {
  const rtc = fakeRtc();
  const [host, b] = [page(0, rtc), page(1, rtc)];
  await host.live.host({ name: 'Ann', seats: 3 });
  assert.equal((await host.live.reply('WH1.acc-1')).error.code, 'melee-live-reply-incomplete');
  assert.equal((await host.live.reply('WH1.inv-1 WHK1.AAAA WHA1.answer-offer1')).error.code, 'melee-live-not-reply');
  assert.equal((await b.live.join({ text: 'WH1.inv-1', name: 'B' })).error.code, 'melee-live-not-invitation');
  assert.equal((await b.live.reply('x')).error.code, 'melee-live-not-hosting');
});
