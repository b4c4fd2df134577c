// Unit tests of how a duel's unsealed picks are saved (web/store/store.js's draft action and
// web/store/storage.js's saveDrafts): a pick writes only the picks, under their own small entry,
// never the whole duel or the list; a reload right after a pick keeps it; the duel's next save
// takes the picks in; a full storage says so and loses nothing; a second tab writes nothing.
// `node --test tests/js/`. localStorage is an in-memory stand-in; navigator.locks a fake.

import assert from 'node:assert/strict';
import { beforeEach, test } from 'node:test';

import { fakeLocks } from './fake-locks.mjs';
import { MemoryStorage, QuotaStorage } from './memory-storage.mjs';

globalThis.localStorage = new MemoryStorage();
const storage = await import('../../web/store/storage.js');
const { newRecord } = await import('../../web/store/record.js');
const { createStore } = await import('../../web/store/store.js');

const GAME_KEY = (id) => `wavinghands:v1:game:${id}`;
const DRAFTS_KEY = (id) => `wavinghands:v1:drafts:${id}`;
const INDEX_KEY = 'wavinghands:v1:index';
const CURRENT_KEY = 'wavinghands:v1:current';

/** A duel's game as long as a late turn's: `rows` history rows of made-up text. */
const longGame = (rows) => ({ turn: rows, log: Array.from({ length: rows }, (_, i) => ({ turn: i + 1, text: `Row ${i}: Ann casts Shield on herself; Bob waves.` })) });
const pick = (turn, left) => ({ kind: 'orders', turn, draft: { left, right: 'W' } });

/** Counts what each write to `store` (a Storage) puts where: {key: characters written}. */
function countWrites(store) {
  const written = {};
  const setItem = store.setItem.bind(store);
  store.setItem = (key, value) => {
    written[key] = (written[key] || 0) + String(value).length;
    return setItem(key, value);
  };
  return written;
}

function started(id = 'p1', game = longGame(40)) {
  const store = createStore({ storage });
  assert.equal(store.start({ duel: newRecord({ id, mode: 'hotseat', game, names: ['Ann', 'Bob'] }) }), true);
  return store;
}

beforeEach(() => { globalThis.localStorage = new MemoryStorage(); });

test('a pick writes only the picks: not the duel, not the list, the same few characters late in a long duel', () => {
  const store = started('p1', longGame(400));
  const before = { game: localStorage.getItem(GAME_KEY('p1')), index: localStorage.getItem(INDEX_KEY), current: localStorage.getItem(CURRENT_KEY) };
  assert.ok(before.game.length > 20_000, before.game.length);
  const written = countWrites(localStorage);
  assert.equal(store.draft({ wizard: 0, draft: pick(400, 'P') }), true);
  assert.equal(store.draft({ wizard: 0, draft: pick(400, 'D') }), true);
  assert.deepEqual(Object.keys(written), [DRAFTS_KEY('p1')]);
  assert.ok(written[DRAFTS_KEY('p1')] < 200, written);
  assert.equal(localStorage.getItem(GAME_KEY('p1')), before.game, 'the duel as saved is not rewritten');
  assert.equal(localStorage.getItem(INDEX_KEY), before.index, 'the list is not rewritten');
  assert.equal(localStorage.getItem(CURRENT_KEY), before.current);
  assert.deepEqual(store.getState().duel.drafts, { 0: pick(400, 'D') });
  assert.equal(store.getState().saved, true);
});

test('a reload right after a pick keeps it: the duel opens, resumes and lists with the picks', () => {
  const first = started();
  first.draft({ wizard: 0, draft: pick(40, 'P') });
  first.draft({ wizard: 1, draft: pick(40, 'S') });
  first.draft({ wizard: 0, draft: pick(40, 'D') });
  // A new page: nothing of the first store's memory, only what storage kept.
  const reloaded = createStore({ storage });
  assert.equal(reloaded.resumable(), 'p1');
  const opened = reloaded.open({ id: 'p1' });
  assert.ok(opened.ok, JSON.stringify(opened.error));
  assert.deepEqual(opened.duel.drafts, { 0: pick(40, 'D'), 1: pick(40, 'S') });
  assert.deepEqual(reloaded.getState().duel.drafts, { 0: pick(40, 'D'), 1: pick(40, 'S') });
  assert.deepEqual(reloaded.duelOf({ id: 'p1' }).drafts, { 0: pick(40, 'D'), 1: pick(40, 'S') });
  assert.deepEqual(storage.loadGame('p1').drafts, { 0: pick(40, 'D'), 1: pick(40, 'S') });
  assert.equal(reloaded.savedDuels().games[0].damaged, null);
  // A pick taken back (null) is gone after a reload too.
  reloaded.draft({ wizard: 1, draft: null });
  assert.deepEqual(createStore({ storage }).open({ id: 'p1' }).duel.drafts, { 0: pick(40, 'D') });
});

test("the duel's next save takes the picks in and drops their entry", () => {
  const store = started();
  store.draft({ wizard: 0, draft: pick(40, 'P') });
  assert.notEqual(localStorage.getItem(DRAFTS_KEY('p1')), null);
  assert.equal(store.keep({ changes: { pending: { 1: { gestures: [['P', 'W']] } } } }), true);
  assert.equal(localStorage.getItem(DRAFTS_KEY('p1')), null);
  const saved = JSON.parse(localStorage.getItem(GAME_KEY('p1')));
  assert.deepEqual(saved.drafts, { 0: pick(40, 'P') });
  assert.deepEqual(saved.pending, { 1: { gestures: [['P', 'W']] } });
  // The picks sealed (the flows drop them from drafts) stay gone after a reload.
  store.keep({ changes: { drafts: {}, pending: {} } });
  assert.deepEqual(createStore({ storage }).open({ id: 'p1' }).duel.drafts, {});
});

test('a full storage refuses a pick: the page says so, the picks saved before stay, and nothing is lost once there is room', () => {
  const store = started();
  store.draft({ wizard: 0, draft: pick(40, 'P') });
  localStorage.full = true;
  assert.equal(store.draft({ wizard: 0, draft: pick(40, 'D') }), false);
  assert.equal(store.getState().saved, false, 'the unsaved note shows (web/app.js drawUnsaved)');
  assert.equal(store.getState().refusal, 'unavailable');
  assert.deepEqual(store.getState().duel.drafts, { 0: pick(40, 'D') }, 'the pick holds in memory');
  assert.deepEqual(createStore({ storage }).open({ id: 'p1' }).duel.drafts, { 0: pick(40, 'P') }, 'the pick saved before is still saved');
  localStorage.full = false;
  assert.equal(store.saveAgain(), true);
  assert.equal(store.getState().saved, true);
  assert.deepEqual(createStore({ storage }).open({ id: 'p1' }).duel.drafts, { 0: pick(40, 'D') });
});

test("a quota's refusal says 'full'; a refused save of the duel keeps the picks saved apart", () => {
  globalThis.localStorage = new QuotaStorage(40_000);
  const store = started('q1', longGame(40));
  assert.equal(store.draft({ wizard: 0, draft: pick(40, 'P') }), true);
  // Another page of the site leaves 30 characters: a longer pick does not fit.
  localStorage.setItem('someone-else', 'x'.repeat(40_000 - localStorage.used() - 'someone-else'.length - 30));
  assert.equal(store.draft({ wizard: 0, draft: { ...pick(40, 'D'), note: 'x'.repeat(100) } }), false);
  assert.equal(store.getState().refusal, 'full');
  // The duel's whole save is refused too (it is far larger): the record stays as saved, and the
  // picks saved apart stay with it, so a reload still has the last pick that was stored.
  assert.equal(store.keep({ changes: { game: longGame(60) } }), false);
  const reloaded = createStore({ storage }).open({ id: 'q1' });
  assert.deepEqual(reloaded.duel.game, longGame(40));
  assert.deepEqual(reloaded.duel.drafts, { 0: pick(40, 'P') });
  localStorage.removeItem('someone-else');
  assert.equal(store.saveAgain(), true);
  assert.equal(localStorage.getItem(DRAFTS_KEY('q1')), null);
  const saved = createStore({ storage }).open({ id: 'q1' }).duel;
  assert.deepEqual(saved.game, longGame(60));
  assert.equal(saved.drafts[0].note.length, 100);
});

test('a second tab of the duel writes no picks; taken over, it reads the first tab\'s', async () => {
  started('t1', longGame(5)).leave();
  const locks = fakeLocks();
  const first = createStore({ storage, locks });
  first.open({ id: 't1' });
  assert.equal(await first.claim({ id: 't1' }), 'mine');
  const second = createStore({ storage, locks });
  second.open({ id: 't1' });
  assert.equal(await second.claim({ id: 't1' }), 'elsewhere');
  assert.equal(first.draft({ wizard: 0, draft: pick(5, 'P') }), true);
  assert.equal(second.draft({ wizard: 0, draft: pick(5, 'S') }), false, 'the other tab writes nothing');
  assert.deepEqual(storage.loadGame('t1').drafts, { 0: pick(5, 'P') });
  assert.equal(await second.claim({ id: 't1', takeOver: true }), 'mine');
  second.open({ id: 't1' });
  assert.deepEqual(second.getState().duel.drafts, { 0: pick(5, 'P') });
  assert.equal(first.draft({ wizard: 0, draft: pick(5, 'D') }), false, 'the tab taken over writes nothing');
});

test('the picks count in their duel\'s size, go with it when it is deleted, and a damaged entry is ignored', () => {
  const store = started('s1', longGame(10));
  const alone = storage.storageUse().duels.s1;
  store.draft({ wizard: 0, draft: pick(10, 'P') });
  const entry = localStorage.getItem(DRAFTS_KEY('s1'));
  assert.equal(storage.storageUse().duels.s1, alone + DRAFTS_KEY('s1').length + entry.length);
  localStorage.setItem(DRAFTS_KEY('s1'), '{"drafts": not json');
  assert.deepEqual(createStore({ storage }).open({ id: 's1' }).duel.drafts, {}, "the record's own drafts stand");
  localStorage.setItem(DRAFTS_KEY('s1'), JSON.stringify({ drafts: [1, 2] }));
  assert.deepEqual(createStore({ storage }).open({ id: 's1' }).duel.drafts, {});
  store.leave();
  assert.equal(createStore({ storage }).remove({ id: 's1' }), true);
  assert.equal(localStorage.getItem(DRAFTS_KEY('s1')), null);
  assert.equal(localStorage.getItem(GAME_KEY('s1')), null);
});

test("quiet: a refused draft changes nothing shown (remote play's draft of the next turn), and is kept in memory", () => {
  const store = started();
  localStorage.full = true;
  assert.equal(store.draft({ wizard: 1, draft: { turn: 41, orders: { gestures: [['F', 'P']] } }, quiet: true }), false);
  assert.equal(store.getState().saved, true);
  assert.equal(store.getState().refusal, null);
  assert.deepEqual(store.getState().duel.drafts, { 1: { turn: 41, orders: { gestures: [['F', 'P']] } } });
  localStorage.full = false;
  assert.equal(store.draft({ wizard: 1, draft: null, quiet: true }), true);
  assert.deepEqual(createStore({ storage }).open({ id: 'p1' }).duel.drafts, {});
});
