// Unit tests of the page's saved duels (web/store/storage.js) and gesture keys (web/ui/gesturepad.js)
// under Node: `node --test tests/js/`. localStorage is replaced by an in-memory stand-in.

import assert from 'node:assert/strict';
import { beforeEach, test } from 'node:test';

import { MemoryStorage, QuotaStorage } from './memory-storage.mjs';

globalThis.localStorage = new MemoryStorage();
const storage = await import('../../web/store/storage.js');
const { gestureForKey, gestureLabel } = await import('../../web/ui/gesturepad.js');

const duel = (id, turn) => ({
  id, mode: 'hotseat', seats: ['human', 'human'], game: { opaque: true, turn }, pending: {},
  summary: { title: 'Alice vs Bob', turn, over: false },
});

beforeEach(() => { globalThis.localStorage = new MemoryStorage(); });

test('a saved duel comes back whole, listed with its summary', () => {
  assert.equal(storage.saveGame(duel('a1', 3)), true);
  assert.deepEqual(storage.loadGame('a1').game, { opaque: true, turn: 3 });
  const [entry] = storage.listGames();
  assert.equal(entry.id, 'a1');
  assert.equal(entry.title, 'Alice vs Bob');
  assert.equal(entry.turn, 3);
});

test('saving again replaces the entry, and the list is newest first', (t) => {
  // A clock that moves on by one millisecond per save, instead of sleeping between saves.
  let now = 1_700_000_000_000;
  t.mock.method(Date, 'now', () => ++now);
  storage.saveGame(duel('a1', 1));
  storage.saveGame(duel('b2', 1));
  storage.saveGame(duel('a1', 2));
  assert.deepEqual(storage.listGames().map((g) => [g.id, g.turn]), [['a1', 2], ['b2', 1]]);
});

test('the resume pointer follows only duels that exist', () => {
  storage.saveGame(duel('a1', 1));
  storage.setCurrentGameId('a1');
  assert.equal(storage.currentGameId(), 'a1');
  storage.deleteGame('a1');
  assert.equal(storage.currentGameId(), null);
  assert.deepEqual(storage.listGames(), []);
  storage.setCurrentGameId('gone');
  assert.equal(storage.currentGameId(), null);
});

test('corrupt or refused storage does not break the page', () => {
  localStorage.setItem('wavinghands:v1:index', '{not json');
  assert.deepEqual(storage.listGames(), []);
  localStorage.full = true;
  assert.equal(storage.saveGame(duel('a1', 1)), false);
  assert.deepEqual(storage.loadPrefs(), {});
});

test('one malformed index entry is skipped and counted, never bricks the list (issue 12.8)', (t) => {
  let now = 1_700_000_000_000;
  t.mock.method(Date, 'now', () => ++now);
  storage.saveGame(duel('a1', 1));
  storage.saveGame(duel('b2', 4));
  const index = JSON.parse(localStorage.getItem('wavinghands:v1:index'));
  localStorage.setItem('wavinghands:v1:index', JSON.stringify([null, ...index, 7, [], { id: 5 }, { title: 'x' }]));
  const { games, unreadable } = storage.readIndex();
  assert.deepEqual(games.map((g) => g.id), ['b2', 'a1']);
  assert.equal(unreadable, 5);
  assert.deepEqual(storage.listGames().map((g) => g.id), ['b2', 'a1']);
  // Saving again still works, and keeps every readable duel.
  assert.equal(storage.saveGame(duel('c3', 2)), true);
  assert.deepEqual(storage.listGames().map((g) => g.id), ['c3', 'b2', 'a1']);
});

test('an index that is not a list is reported as unreadable', () => {
  localStorage.setItem('wavinghands:v1:index', 'null');
  assert.deepEqual(storage.readIndex(), { games: [], unreadable: 1 });
  localStorage.setItem('wavinghands:v1:index', '{not json');
  assert.deepEqual(storage.readIndex(), { games: [], unreadable: 1 });
  localStorage.removeItem('wavinghands:v1:index');
  assert.deepEqual(storage.readIndex(), { games: [], unreadable: 0 });
});

test('a save the browser refuses changes nothing, and says the storage is full (issue 12.2)', () => {
  storage.saveGame(duel('a1', 1));
  const before = new Map(localStorage.items);
  const used = [...before].reduce((n, [k, v]) => n + k.length + v.length, 0);
  // Room for the duel's bigger text but not for its longer index entry after it: the duel
  // must not be left half saved (its new text under its old entry).
  const bigger = { ...duel('a1', 2), game: { opaque: 'x'.repeat(500), turn: 2 }, summary: { title: 'T'.repeat(300), turn: 2 } };
  const growth = JSON.stringify({ ...bigger, updatedAt: Date.now() }).length - before.get('wavinghands:v1:game:a1').length;
  globalThis.localStorage = Object.assign(new QuotaStorage(used + growth + 50), { items: new Map(before) });
  assert.equal(storage.saveGame(bigger), false);
  assert.equal(storage.saveRefusal(), 'full');
  assert.deepEqual(localStorage.items, before);
  assert.equal(storage.loadGame('a1').game.turn, 1);
  // A new duel that does not fit leaves nothing behind either.
  assert.equal(storage.saveGame({ ...bigger, id: 'b2' }), false);
  assert.deepEqual(localStorage.items, before);
  // Room made: the same save goes through.
  localStorage.quota += 1000;
  assert.equal(storage.saveGame(bigger), true);
  assert.equal(storage.loadGame('a1').game.turn, 2);
});

test('a refusal that is not a full storage is told apart', () => {
  localStorage.full = true;
  assert.equal(storage.saveGame(duel('a1', 1)), false);
  assert.equal(storage.saveRefusal(), 'unavailable');
});

test('storageUse gives each saved duel its size and the page total', () => {
  storage.saveGame(duel('a1', 1));
  storage.saveGame({ ...duel('b2', 1), game: { opaque: 'y'.repeat(2000) } });
  storage.savePrefs({ names: ['A', 'B'] });
  localStorage.setItem('another-site-thing', 'z'.repeat(5000));
  const use = storage.storageUse();
  const size = (key) => key.length + localStorage.getItem(key).length;
  assert.equal(use.duels.a1, size('wavinghands:v1:game:a1'));
  assert.equal(use.duels.b2, size('wavinghands:v1:game:b2'));
  assert.ok(use.duels.b2 > 2000 && use.duels.b2 > use.duels.a1);
  assert.equal(use.others, size('wavinghands:v1:index') + size('wavinghands:v1:prefs'));
  assert.equal(use.total, use.duels.a1 + use.duels.b2 + use.others);
  assert.equal(use.site, use.total + size('another-site-thing'));
  storage.deleteGame('b2');
  assert.deepEqual(Object.keys(storage.storageUse().duels), ['a1']);
});

test('ids are fresh hex', () => {
  const a = storage.newGameId();
  assert.match(a, /^[0-9a-f]{16}$/);
  assert.notEqual(a, storage.newGameId());
});

test('lower-case keys set the left hand, Shift the right', () => {
  assert.deepEqual(gestureForKey({ key: 'f', shiftKey: false }), { hand: 'L', code: 'F' });
  assert.deepEqual(gestureForKey({ key: 'F', shiftKey: true }), { hand: 'R', code: 'F' });
  assert.deepEqual(gestureForKey({ key: 'k', shiftKey: false }), { hand: 'L', code: '>' });
  assert.deepEqual(gestureForKey({ key: 'N', shiftKey: true }), { hand: 'R', code: '-' });
  assert.equal(gestureForKey({ key: 'r', shiftKey: false }), null);
  assert.equal(gestureForKey({ key: 'f', ctrlKey: true }), null);
  assert.equal(gestureForKey({ key: 'Enter' }), null);
});

test('gesture words read well', () => {
  assert.equal(gestureLabel('F'), 'F (fingers)');
  assert.equal(gestureLabel('>'), 'stab');
  assert.equal(gestureLabel('-'), 'nothing');
});
