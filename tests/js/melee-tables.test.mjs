// How often web/flows/melee.js asks the engine for the melee's tables (api.meleeTable, one per
// seat): not again when the computers decide on the state the thinking screen was drawn from (a melee whose players have surrendered is all thinking screens: every
// table asked twice doubled that fight's table work). The engine is a scripted stand-in; the
// store is the real one over an in-memory localStorage. `node --test tests/js/`.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { MemoryStorage } from './memory-storage.mjs';

globalThis.localStorage = new MemoryStorage();
const storage = await import('../../web/store/storage.js');
const { createStore } = await import('../../web/store/store.js');
const { createMeleeFlow } = await import('../../web/flows/melee.js');

const NAMES = ['Ann', 'Bob', 'Cat'];

/** A scripted engine: a game is {turn, last}; each step makes a new game one turn on. */
function countingApi() {
  const tables = [];
  const phaseOf = (g) => (g.turn > g.last ? { kind: 'over', turn: g.turn, actors: [] } : { kind: 'orders', turn: g.turn, actors: [0, 1, 2] });
  return {
    tables,
    freshNonce: () => 'ab'.repeat(16),
    meleeNew: async () => ({ ok: true, game: { turn: 1, last: 3 }, seats: 3 }),
    meleeTable: async (game, w) => {
      tables.push([game.turn, w]);
      return {
        ok: true, rows: [], unruly: [], targets: [],
        view: { wizard: w, names: NAMES, ruleset: { name: 'standard' }, phase: phaseOf(game), result: null, log: [], wizards: [] },
      };
    },
    aiInput: async () => ({ ok: true, input: { gestures: [['-', '-']] } }),
    validate: async () => ({ ok: true, problems: [] }),
    step: async (game) => ({ ok: true, game: { ...game, turn: game.turn + 1 } }),
  };
}

test('the computers decide on the tables the thinking screen was drawn from, not on the tables asked again', async () => {
  globalThis.localStorage = new MemoryStorage();
  const api = countingApi();
  const flow = createMeleeFlow({ api, store: createStore({ storage }), engine: Promise.resolve(), deadlineMs: 1000, newId: () => 'melee-1' });
  let o = await flow.begin({ names: NAMES, ruleset: { name: 'standard' }, seats: [{ human: true }, { human: false, level: 'novice' }, { human: false, level: 'strong' }] });
  assert.equal(o.screen, 'orders');
  o = (await flow.submit(0, { gestures: [['P', 'P']] }, o.view)).next;
  const thinking = [];
  while (o.screen === 'thinking') {
    thinking.push(o.wizard);
    o = await flow.think();
    if (o.screen === 'orders') o = (await flow.submit(0, { gestures: [['P', 'P']] }, o.view)).next;
  }
  assert.equal(o.screen, 'over');
  assert.ok(thinking.length >= 3, 'each turn had its thinking screen');
  const perTurn = {};
  for (const [turn] of api.tables) perTurn[turn] = (perTurn[turn] || 0) + 1;
  // Each turn: the read that drew the player's orders screen, the read once he had sealed (the
  // game is the same, his orders pending: the thinking screen's), and none for the computers'
  // decisions; the end: one read. Three tables a read.
  assert.deepEqual(perTurn, { 1: 6, 2: 6, 3: 6, 4: 3 });
});
