// Unit tests of the picks entry (web/store/store.js draft, web/store/storage.js saveDrafts and
// its read-back) where the stored record is not the one in memory: after a refused whole save,
// and for a remote duel saved before the one record shape (`draft`, not `drafts`).  Either way a
// reload must bring back every pick and every sealed order (the guide: nothing a player picked
// is ever thrown away).  `node --test tests/js/`; localStorage an in-memory stand-in.

import assert from 'node:assert/strict';
import { beforeEach, test } from 'node:test';

import { MemoryStorage, QuotaStorage } from './memory-storage.mjs';

globalThis.localStorage = new MemoryStorage();
const storage = await import('../../web/store/storage.js');
const { newRecord } = await import('../../web/store/record.js');
const { createStore } = await import('../../web/store/store.js');
const { draftOf } = await import('../../web/flows/remote/record.js');
const { keepDraft } = await import('../../web/flows/remote/drafts.js');

const game = { turn: 5, log: Array.from({ length: 50 }, (_, i) => ({ text: `row ${i}: Ann casts Shield; Bob waves.` })) };
const pick = (left, right) => ({ kind: 'orders', turn: 5, draft: { left, right } });

beforeEach(() => { globalThis.localStorage = new MemoryStorage(); });

test('a wizard\'s sealed orders whose save was refused are not lost by the next pick and a reload', () => {
  globalThis.localStorage = new QuotaStorage(1e9);
  const store = createStore({ storage });
  store.start({ duel: newRecord({ id: 'h1', mode: 'hotseat', game, names: ['Ann', 'Bob'] }) });
  assert.equal(store.draft({ wizard: 0, draft: pick('P', 'W') }), true);
  // The storage nearly full: the whole duel no longer fits, a small entry would.
  localStorage.quota = localStorage.used() + 300;
  // Ann seals (web/flows/phase.js: her orders pending, her picks dropped): refused.
  const drafts = { ...store.getState().duel.drafts };
  delete drafts['0'];
  assert.equal(store.keep({ changes: { pending: { 0: { gestures: [['P', 'W']], note: 'x'.repeat(400) } }, drafts } }), false);
  assert.equal(store.getState().saved, false);
  // Bob picks: with the stored record behind, the pick is not written alone (it would pair
  // Ann's old record, no orders pending, with picks that no longer hold hers).
  assert.equal(store.draft({ wizard: 1, draft: pick('S', null) }), false);
  assert.equal(store.getState().saved, false, 'still not saved, and said so');
  const reread = createStore({ storage }).readSaved('h1').duel;
  assert.deepEqual(reread.drafts, { 0: pick('P', 'W') }, 'Ann\'s picks as last stored');
  // Room made: the next pick stores the whole duel, Ann's sealed orders and Bob's picks.
  localStorage.quota = 1e9;
  assert.equal(store.draft({ wizard: 1, draft: pick('S', 'D') }), true);
  assert.equal(store.getState().saved, true);
  const after = createStore({ storage }).readSaved('h1').duel;
  assert.deepEqual(after.pending[0].gestures, [['P', 'W']]);
  assert.deepEqual(after.drafts, { 1: pick('S', 'D') });
});

test('a pick on a remote duel saved before the one record shape survives a reload', () => {
  const old = {
    id: 'r1', mode: 'codes', session: { me: 1, names: ['Ann', 'Bob'], game: { turn: 3 } },
    seen: { log: 0, rows: 0 }, sealed: null, queued: null,
    draft: { turn: 4, form: { left: 'P' }, orders: { gestures: [['P', null]] }, sealed: false },
    chat: [], summary: { title: '', names: ['Ann', 'Bob'], turn: 3 },
  };
  localStorage.setItem('wavinghands:v1:game:r1', JSON.stringify(old));
  localStorage.setItem('wavinghands:v1:index', JSON.stringify([{ id: 'r1', mode: 'codes', names: ['Ann', 'Bob'], updatedAt: 1 }]));
  const store = createStore({ storage });
  assert.equal(store.open({ id: 'r1' }).ok, true);
  const next = keepDraft(store.getState().duel, 4, { left: 'D' }, { gestures: [['D', null]] });
  assert.equal(store.draft({ wizard: 1, draft: draftOf(next), quiet: true }), true);
  const again = createStore({ storage });
  assert.equal(again.open({ id: 'r1' }).ok, true);
  assert.deepEqual(draftOf(again.getState().duel).form, { left: 'D' }, 'the new pick, not the old draft');
});
