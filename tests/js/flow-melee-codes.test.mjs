// Unit tests of the melee by codes (web/flows/melee-codes.js) under Node: three players' flows,
// each with a store of its own, play through a stand-in engine that keeps the protocol's shape
// (invitations, acceptances, a commitment then a reveal per player per round; docs/protocol.md,
// "Melee"); the group's chat is an array and every paste is the whole chat. Checked: how the
// table fills and when the game starts, the outbox saved before it shows, one paste carrying
// many codes, a bad or foreign code's keyed error that changes nothing (the picks included), a
// player who does not act sealing his bare dice share by himself, the saved record read back,
// and the transport interface (send/onReceive/close) a live transport plugs into.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { MemoryStorage } from './memory-storage.mjs';

globalThis.localStorage = new MemoryStorage();
const storage = await import('../../web/store/storage.js');
const { createStore } = await import('../../web/store/store.js');
const { migrate } = await import('../../web/store/record.js');
const { createMeleeCodesFlow } = await import('../../web/flows/melee-codes.js');

const CODE = /WH1\.[A-Za-z0-9_~-]+/g;
const LAST_ROUND = 2; // the stand-in's melee ends after two rounds
// Round 1 is a decision only wizard 0 acts in (the others give a bare dice share).
const actorsOf = (round, seats) => (round === 1 ? [0] : [...Array(seats).keys()]);

/** A stand-in engine: sessions are plain data; codes are "WH1.<kind>~<game>~<round>~<seat>~<text>". */
function fakeApi() {
  const code = (kind, s, seat, text = '') => `WH1.${kind}~${s.game_id}~${s.round}~${seat}~${text}`;
  const read = (c) => {
    const [kind, game, round, seat, text] = c.slice(4).split('~');
    return { code: c, kind, game, round: Number(round), seat: Number(seat), text };
  };
  const started = (s) => s.names.every(Boolean);
  const status = (s) => {
    const over = s.round >= LAST_ROUND;
    const actors = actorsOf(s.round, s.seats);
    const have = Object.keys(s.commits).map(Number);
    const shown = Object.keys(s.reveals).map(Number);
    const all = [...Array(s.seats).keys()];
    const waiting = !started(s) || over ? [] : have.length < s.seats ? all.filter((i) => !have.includes(i)) : all.filter((i) => !shown.includes(i));
    const phase = started(s) ? { kind: over ? 'over' : s.round === 1 ? 'decision' : 'orders', turn: s.round + 1, actors } : null;
    return {
      me: s.me, seats: s.seats, names: s.names, started: started(s), round: s.round, phase, waiting_for: waiting,
      to_act: Boolean(phase) && !over && actors.includes(s.me) && !(s.me in s.commits), sealed: s.me in s.commits, over,
      result: over ? { winner: 0, how: 'the others surrendered' } : null,
      view: started(s) ? { wizard: s.me, names: s.names, phase, ruleset: { name: 'standard' }, result: over ? { winner: 0, how: 'x' } : null } : null,
    };
  };
  const advance = (s, out) => {
    if (Object.keys(s.commits).length === s.seats && s.mine && !(s.me in s.reveals)) {
      s.reveals[s.me] = s.mine;
      out.push(code('rev', s, s.me, s.mine));
    }
    if (Object.keys(s.reveals).length === s.seats) {
      Object.assign(s, { round: s.round + 1, commits: {}, reveals: {}, mine: null, game: `{"round":${s.round + 1}}` });
    }
  };
  const answer = (s, codes) => ({ ok: true, session: s, codes, status: status(s), events: [] });
  const copy = (s) => JSON.parse(JSON.stringify(s));
  const api = {
    sealed: [],
    remoteMeleeInvite: async ({ name, seats }) => {
      const s = { game_id: 'g1', me: 0, seats, names: [name, ...Array(seats - 1).fill('')], round: 0, commits: {}, reveals: {}, mine: null, game: '' };
      return answer(s, [...Array(seats - 1).keys()].map((i) => code('inv', s, i + 1, name)));
    },
    remoteMeleeDescribe: async (text) => {
      const found = String(text).match(CODE);
      if (!found) return { ok: false, error: { code: 'corrupted', message: 'there is no code here' } };
      return { ok: true, codes: found.map(read).map((c) => ({ ...c, kind: { inv: 'invite', acc: 'accept', com: 'commit', rev: 'reveal' }[c.kind], sender: c.kind === 'inv' ? 0 : c.seat })) };
    },
    remoteMeleeAccept: async (text, name) => {
      const inv = read(text.match(CODE)[0]);
      const s = { game_id: inv.game, me: inv.seat, seats: 3, names: [inv.text, '', ''], round: 0, commits: {}, reveals: {}, mine: null, game: '' };
      s.names[inv.seat] = name;
      return { ...answer(s, []), code: code('acc', s, inv.seat, name) };
    },
    remoteMeleeStatus: async (s) => ({ ok: true, status: status(s), log: [] }),
    remoteMeleeSeal: async (session, input) => {
      const s = copy(session);
      api.sealed.push([s.me, s.round, input]);
      s.mine = JSON.stringify(input).replace(/[^A-Za-z0-9]/g, '') || 'none';
      s.commits[s.me] = 'c';
      const out = [code('com', s, s.me)];
      advance(s, out);
      if (!s.game) s.game = '{"round":0}';
      return answer(s, out);
    },
    remoteMeleeReceive: async (session, text) => {
      const s = copy(session);
      const out = [];
      for (const c of (String(text).match(CODE) || []).map(read)) {
        if (c.kind === 'bad') return { ok: false, error: { code: 'corrupted', message: `the code ${c.code} is damaged` } };
        if (c.game !== s.game_id) return { ok: false, error: { code: 'not-this-game', message: 'another melee' } };
        if (c.seat === s.me || c.kind === 'inv') continue;
        if (c.kind === 'acc') s.names[c.seat] = c.text;
        else if (c.round === s.round && c.kind === 'com') s.commits[c.seat] = 'c';
        else if (c.round === s.round && c.kind === 'rev') s.reveals[c.seat] = c.text;
        if (started(s) && !s.game) s.game = '{"round":0}';
        advance(s, out);
      }
      return answer(s, out);
    },
    meleeTable: async (game, w) => {
      const { round } = game;
      const phase = { kind: round === 1 ? 'decision' : 'orders', turn: round + 1, actors: actorsOf(round, 3) };
      return { ok: true, view: { wizard: w, names: ['Ann', 'Bob', 'Cat'], phase, log: [], wizards: [{ history: [] }, { history: [] }, { history: [] }] }, rows: [{ index: w, you: true }], unruly: [] };
    },
    validate: async (game, w, input) => ({ ok: true, problems: input.bad ? [{ code: 'bad', field: 'gestures', message: 'no' }] : [] }),
  };
  return api;
}

function player(api, transportFor = () => null) {
  const store = createStore({ storage });
  return { store, flow: createMeleeCodesFlow({ api, store, transportFor }) };
}

const post = (chat, o) => { if (o.outbox.length) chat.push(o.outbox.map((c) => c.code).join('\n')); };

test('three players fill the table by pasting the chat, play every round by two codes each, and the picks survive every code', async () => {
  const api = fakeApi();
  const [ann, bob, cat] = [player(api), player(api), player(api)];
  const chat = [];
  let a = await ann.flow.host({ name: 'Ann', seats: 3, ruleset: { name: 'standard' } });
  assert.deepEqual(a.outbox.map((c) => [c.kind, c.seat]), [['invite', 1], ['invite', 2]]);
  assert.equal(a.table, null, 'no table before every seat is taken');
  const stored = JSON.parse(localStorage.getItem(`wavinghands:v1:game:${ann.store.getState().duel.id}`));
  assert.equal(stored.outbox.length, 2, 'the invitations are saved before they show');
  post(chat, a);

  const many = await bob.flow.join({ text: chat[0], name: 'Bob' });
  assert.deepEqual([many.error.code, many.error.seats], ['melee-one-invitation', [2, 3]]);
  assert.equal(bob.store.getState().duel, null, 'nothing started');
  const invitations = chat[0].split('\n');
  let b = await bob.flow.join({ text: invitations[0], name: 'Bob' });
  let c = await cat.flow.join({ text: invitations[1], name: 'Cat' });
  assert.deepEqual(b.outbox.map((x) => x.kind), ['accept']);
  assert.equal(b.status.started, false);
  post(chat, b);
  post(chat, c);

  // One paste of the whole chat: every acceptance at once; the melee starts on every page.
  [a, b, c] = await Promise.all([ann, bob, cat].map((p) => p.flow.receive(chat.join('\n'))));
  assert.deepEqual([a, b, c].map((o) => [o.status.started, o.status.to_act]), [[true, true], [true, true], [true, true]]);
  assert.equal(a.done, 'melee-done-started');

  // Bob's picks are kept; a damaged code and another melee's code change nothing.
  const view = b.table.view;
  bob.flow.keepDraft(view, { gestures: [['>', '-']] });
  const before = bob.store.getState().duel.session;
  b = await bob.flow.receive('WH1.bad~g1~0~0~x');
  assert.equal(b.error.code, 'corrupted');
  b = await bob.flow.receive('WH1.com~g2~0~0~');
  assert.equal(b.error.code, 'not-this-game');
  assert.deepEqual(bob.store.getState().duel.session, before);
  assert.deepEqual(b.saved, { gestures: [['>', '-']] }, 'the picks are as they were');

  // Ann seals; her commitment arriving on Bob's page keeps his picks too.
  const sealedA = await ann.flow.seal({ gestures: [['W', 'P']] }, a.table.view);
  assert.deepEqual(sealedA.next.outbox.map((x) => x.kind), ['commit']);
  post(chat, sealedA.next);
  b = await bob.flow.receive(chat.join('\n'));
  assert.deepEqual(b.saved, { gestures: [['>', '-']] });
  const refused = await bob.flow.seal({ bad: true }, view);
  assert.equal(refused.problems[0].field, 'gestures', 'illegal orders go back to the form');
  b = (await bob.flow.seal({ gestures: [['>', '-']] }, view)).next;
  assert.equal(b.saved, null, 'a sealed draft is let go');
  post(chat, b);
  c = await cat.flow.receive(chat.join('\n'));
  c = (await cat.flow.seal({ gestures: [['-', 'W']] }, c.table.view)).next;
  post(chat, c);
  // Cat sealed last, holding Ann's and Bob's commitments: her reveal comes with her commitment.
  assert.deepEqual(c.outbox.map((x) => x.kind), ['commit', 'reveal']);

  // The commitments pasted: each page writes its reveal by itself; then the reveals resolve the round.
  [a, b] = await Promise.all([ann, bob].map((p) => p.flow.receive(chat.join('\n'))));
  assert.deepEqual([a.done, a.outbox.map((x) => x.kind)], ['melee-done-reveal', ['reveal']]);
  post(chat, a);
  post(chat, b);
  [a, b, c] = await Promise.all([ann, bob, cat].map((p) => p.flow.receive(chat.join('\n'))));
  assert.equal(a.status.round, 1);
  assert.equal(a.done, 'melee-done-resolved');

  // Round 2 is a decision only Ann makes: Bob's and Cat's pages gave their bare dice share.
  assert.equal(a.status.to_act, true);
  assert.deepEqual([b.outbox.map((x) => x.kind), c.outbox.map((x) => x.kind)], [['commit'], ['commit']]);
  assert.deepEqual(api.sealed.filter(([, round]) => round === 1), [[1, 1, {}], [2, 1, {}]]);
  post(chat, b);
  post(chat, c);
  a = (await ann.flow.seal({ decisions: { x: 'y' } }, a.table.view)).next;
  post(chat, a);
  [b, c] = await Promise.all([bob, cat].map((p) => p.flow.receive(chat.join('\n'))));
  post(chat, b);
  post(chat, c);
  a = await ann.flow.receive(chat.join('\n'));
  assert.equal(a.status.over, true, "Ann's page wrote her reveal and held every other one");
  post(chat, a);
  [b, c] = await Promise.all([bob, cat].map((p) => p.flow.receive(chat.join('\n'))));
  assert.deepEqual([a, b, c].map((o) => o.status.over), [true, true, true]);
  assert.equal(cat.store.getState().duel.summary.over, true);

  // The record reads back: seat 2's melee by codes, its session and outbox.
  const read = migrate(JSON.parse(localStorage.getItem(`wavinghands:v1:game:${cat.store.getState().duel.id}`)));
  assert.ok(read.ok, JSON.stringify(read.error));
  assert.deepEqual([read.duel.mode, read.duel.me, read.duel.seats], ['melee-codes', 2, ['remote', 'remote', 'human']]);
  assert.equal(read.duel.session.me, 2);
});

test('a live transport plugs in by the transport interface: codes go out by send, arrive by onReceive', async () => {
  const api = fakeApi();
  const sent = [];
  const closed = [];
  let deliver = null;
  const transportFor = (duel) => ({
    kind: 'test', duelId: duel.id, send: (code) => { sent.push(code); return { ok: true, via: 'test' }; },
    onReceive: (cb) => { deliver = cb; return () => { deliver = null; }; }, status: () => ({ kind: 'test', state: 'connected' }),
    close: () => closed.push(duel.id),
  });
  const arrived = [];
  const store = createStore({ storage });
  const flow = createMeleeCodesFlow({ api, store, transportFor, onArrive: (o) => arrived.push(o) });
  const o = await flow.host({ name: 'Ann', seats: 3, ruleset: {} });
  assert.deepEqual(sent, o.outbox.map((c) => c.code), 'every code of the outbox is sent');
  deliver('WH1.acc~g1~0~1~Bob WH1.acc~g1~0~2~Cat');
  await new Promise((resolve) => { setTimeout(resolve, 0); });
  await new Promise((resolve) => { setTimeout(resolve, 0); });
  assert.equal(arrived.length, 1);
  assert.equal(arrived[0].status.started, true);
  flow.close();
  assert.deepEqual(closed, [store.getState().duel.id]);
  assert.equal(deliver, null);
});
