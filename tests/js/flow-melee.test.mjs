// Unit tests of the melee on one device (web/flows/melee.js) under Node: the device handed round
// the players' seats, the computers deciding once every player has written (each at its own
// level), the game stepped with every actor's input, the saved record read back with its seats
// and levels, and the end. The engine is a scripted stand-in; the store is the real one over an
// in-memory localStorage.

import assert from 'node:assert/strict';
import { beforeEach, test } from 'node:test';

import { MemoryStorage } from './memory-storage.mjs';

globalThis.localStorage = new MemoryStorage();
const storage = await import('../../web/store/storage.js');
const { createStore } = await import('../../web/store/store.js');
const { migrate } = await import('../../web/store/record.js');
const { createMeleeFlow, meleeSummary } = await import('../../web/flows/melee.js');
const words = await import('../../web/ui/words/index.js');
const said = (code, summary) => words.say(code, summary).replace(/[\u2068\u2069]/g, '');

const NAMES = ['Ann', 'Bob', 'Cat', 'Dan'];

/** A scripted engine: a game is {turn, last, n}; each step moves one turn on; past `last` it is over. */
function fakeApi() {
  const calls = [];
  const phaseOf = (g) => (g.turn > g.last ? { kind: 'over', turn: g.turn, actors: [] }
    : { kind: 'orders', turn: g.turn, actors: [...Array(g.n).keys()] });
  const api = {
    calls,
    freshNonce: () => 'cd'.repeat(16),
    meleeNew: async ({ names }) => {
      calls.push(['new', names.length]);
      return names.length >= 3 ? { ok: true, game: { turn: 1, last: 2, n: names.length, names }, seats: names.length }
        : { ok: false, error: { code: 'bad-names', message: 'three to six' } };
    },
    meleeTable: async (game, w) => {
      const view = {
        wizard: w, names: NAMES.slice(0, game.n), ruleset: { name: 'standard' }, phase: phaseOf(game), turn: game.turn,
        result: game.turn > game.last ? { winner: 2, how: 'the last standing' } : null,
        log: [], wizards: NAMES.slice(0, game.n).map(() => ({ history: [] })),
      };
      const rows = [w, ...[...Array(game.n).keys()].filter((i) => i !== w)].map((i) => ({ index: i, you: i === w }));
      return { ok: true, view, rows, unruly: [], targets: [] };
    },
    aiInput: async (game, w, level) => {
      calls.push(['ai', w, level]);
      return { ok: true, input: { gestures: [['W', 'W']], level } };
    },
    validate: async () => ({ ok: true, problems: [] }),
    step: async (game, inputs) => {
      calls.push(['step', Object.keys(inputs).sort()]);
      return { ok: true, game: { ...game, turn: game.turn + 1 } };
    },
  };
  return api;
}

let store;
let api;
let flow;
let ids = 0;

beforeEach(() => {
  globalThis.localStorage = new MemoryStorage();
  store = createStore({ storage });
  api = fakeApi();
  flow = createMeleeFlow({ api, store, engine: Promise.resolve(), deadlineMs: 1000, newId: () => `melee-${++ids}` });
});

const SEATS = [{ human: true }, { human: false, level: 'novice' }, { human: true }, { human: false, level: 'strong' }];
const ORDERS = { gestures: [['P', 'P']] };

test('a four-seat melee hands the device to each player, then lets each computer decide at its level, to the end', async () => {
  let o = await flow.begin({ names: NAMES, ruleset: { name: 'standard' }, seats: SEATS });
  const seen = [];
  while (o.screen !== 'over') {
    if (o.screen === 'pass') {
      assert.deepEqual(o.others, [NAMES[2 - o.wizard]], 'only the other player at the device is asked to look away');
      seen.push(`pass ${o.wizard}`);
      o = await flow.ready(o.wizard);
    } else if (o.screen === 'orders') {
      assert.equal(o.rows[0].index, o.wizard, "the player's own row comes first");
      seen.push(`orders ${o.wizard}`);
      o = (await flow.submit(o.wizard, ORDERS, o.view)).next;
    } else {
      assert.equal(o.screen, 'thinking');
      seen.push(`thinking ${o.wizard} ${o.level}`);
      o = await flow.think();
    }
  }
  // (the player who wrote last keeps the device for the next turn: one hand-over per turn)
  assert.deepEqual(seen, ['pass 0', 'orders 0', 'pass 2', 'orders 2', 'thinking 1 novice',
    'orders 2', 'pass 0', 'orders 0', 'thinking 1 novice']);
  assert.equal(o.screen, 'over');
  assert.deepEqual(o.perspectives, [0, 2]);
  assert.deepEqual(api.calls.filter((c) => c[0] === 'ai'), [['ai', 1, 'novice'], ['ai', 3, 'strong'], ['ai', 1, 'novice'], ['ai', 3, 'strong']]);
  assert.deepEqual(api.calls.filter((c) => c[0] === 'step'), [['step', ['0', '1', '2', '3']], ['step', ['0', '1', '2', '3']]]);
  const duel = store.getState().duel;
  assert.equal(duel.summary.title, '', 'the screens say the title');
  assert.equal(said('duel-title', duel.summary), 'Ann, Bob, Cat and Dan');
  assert.equal(duel.summary.over, true);
});

test('the saved melee reads back with every seat, level and mark, and resumes where it stood', async () => {
  let o = await flow.begin({ names: NAMES, ruleset: { name: 'standard' }, seats: SEATS });
  o = await flow.ready(0);
  await flow.submit(0, ORDERS, o.view);
  const id = store.getState().duel.id;
  const read = migrate(JSON.parse(localStorage.getItem(`wavinghands:v1:game:${id}`)));
  assert.ok(read.ok);
  assert.equal(read.duel.mode, 'melee');
  assert.deepEqual(read.duel.seats, ['human', 'computer', 'human', 'computer']);
  assert.deepEqual(read.duel.levels, [null, 'novice', null, 'strong']);
  assert.deepEqual(Object.keys(read.duel.seen).sort(), ['0', '1', '2', '3']);
  assert.deepEqual(Object.keys(read.duel.pending), ['0']);
  store.leave();
  const again = createMeleeFlow({ api, store, engine: Promise.resolve(), deadlineMs: 1000, newId: () => 'x' });
  o = await again.resume(id);
  assert.deepEqual([o.screen, o.wizard], ['pass', 2], 'the first player has written: the second is next');
  assert.equal(o.others[0], 'Ann');
});

test('a melee of two or of seven is refused before the engine is asked', async () => {
  for (const n of [2, 7]) {
    const names = Array.from({ length: n }, (_, i) => `W${i}`);
    const o = await flow.begin({ names, ruleset: {}, seats: names.map(() => ({ human: true })) });
    assert.equal(o.error.code, 'melee-size');
  }
  assert.deepEqual(api.calls, []);
});

test('one player with computers needs no hand-over, and a failing engine is said', async () => {
  let o = await flow.begin({ names: NAMES.slice(0, 3), ruleset: {}, seats: [{ human: true }, { human: false, level: 'fair' }, { human: false, level: 'fair' }] });
  assert.deepEqual([o.screen, o.wizard], ['orders', 0]);
  api.aiInput = async () => ({ ok: false, error: { code: 'bad-level', message: 'no such level' } });
  o = (await flow.submit(0, ORDERS, o.view)).next;
  assert.equal(o.screen, 'thinking');
  o = await flow.think();
  assert.deepEqual([o.screen, o.code], ['fail', 'computer-failed']);
  assert.equal(said('duel-title', meleeSummary({ names: ['A', 'B', 'C'], result: null }, { kind: 'orders', turn: 3 })), 'A, B and C');
  assert.equal(said('duel-title', { title: '', names: ['A', '', ''] }), 'A, seat 2 and seat 3');
});
