// Unit tests of the duel store (web/store/): the record shape and its migration from every
// shape the page saved before (pinned records), the named actions, all-or-nothing saving,
// subscribers, the list's damaged duels (bug 8) and one writing tab per duel (bug 7).
// `node --test tests/js/`. localStorage is an in-memory stand-in; navigator.locks a fake.
//
// tests/js/fixtures/saved-duels-format1.json holds records exactly as the page of commit 17ff137
// saved them (web/app.js startLocalDuel/importDuel, web/remote.js begin/accept/seal), built from
// the engine's real answers (wavinghands.api new_game, step, remote_invite/accept/seal).

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { beforeEach, test } from 'node:test';

import { fakeLocks } from './fake-locks.mjs';
import { MemoryStorage } from './memory-storage.mjs';

globalThis.localStorage = new MemoryStorage();
const storage = await import('../../web/store/storage.js');
const { migrate, newRecord, RECORD_FORMAT, summaryOf, seenOf, gameOf } = await import('../../web/store/record.js');
const { createStore } = await import('../../web/store/store.js');

// A summary as the screens say it (web/ui/words/common.js), isolates dropped.
const words = await import('../../web/ui/words/index.js');
const said = (code, summary) => words.say(code, summary).replace(/[\u2068\u2069]/g, '');

const PINNED = JSON.parse(readFileSync(new URL('./fixtures/saved-duels-format1.json', import.meta.url), 'utf8'));
const FIELDS = ['format', 'id', 'mode', 'createdAt', 'updatedAt', 'seats', 'levels', 'me', 'level', 'game', 'session', 'record',
  'pending', 'sealed', 'queued', 'drafts', 'seen', 'chat', 'outbox', 'summary'].sort();

beforeEach(() => { globalThis.localStorage = new MemoryStorage(); });

const save = (raw) => {
  localStorage.setItem(`wavinghands:v1:game:${raw.id}`, JSON.stringify(raw));
  const index = JSON.parse(localStorage.getItem('wavinghands:v1:index') || '[]');
  index.push({ id: raw.id, mode: raw.mode, updatedAt: raw.updatedAt || 1, ...(raw.summary || {}), title: (raw.summary || {}).title || 'A vs B' });
  localStorage.setItem('wavinghands:v1:index', JSON.stringify(index));
};

test('every pinned record of the old formats migrates to the one shape', () => {
  for (const [name, raw] of Object.entries(PINNED)) {
    const read = migrate(raw);
    assert.ok(read.ok, `${name}: ${JSON.stringify(read.error)}`);
    assert.deepEqual(Object.keys(read.duel).sort(), FIELDS, name);
    assert.equal(read.duel.format, RECORD_FORMAT);
    assert.equal(read.migrated, true);
    assert.ok(gameOf(read.duel) || read.duel.session, `${name} keeps its game or session`);
    // Migrating again changes nothing.
    assert.deepEqual(migrate(read.duel).duel, read.duel, name);
  }
});

test('a local duel keeps its game, inputs, drafts, marks and level', () => {
  const hot = migrate(PINNED['hotseat-turn1']).duel;
  assert.deepEqual(hot.game, PINNED['hotseat-turn1'].game);
  assert.deepEqual(hot.pending, PINNED['hotseat-turn1'].pending);
  assert.deepEqual(hot.drafts, PINNED['hotseat-turn1'].drafts);
  assert.deepEqual(hot.seen, PINNED['hotseat-turn1'].seen);
  assert.deepEqual(hot.seats, ['human', 'human']);
  assert.equal(hot.me, null);
  assert.equal(hot.session, null);
  const bot = migrate(PINNED['computer-turn2']).duel;
  assert.equal(bot.level, 'strong');
  assert.deepEqual(bot.seats, ['human', 'computer']);
  const least = migrate(PINNED['minimal-local']).duel;
  assert.equal(least.mode, 'hotseat');
  assert.equal(said('duel-title', least.summary), 'Ann vs Bo');
  assert.deepEqual(least.seen, { 0: { log: 0, rows: [0, 0] }, 1: { log: 0, rows: [0, 0] } });
});

test("a remote duel's own marks and draft become its wizard's", () => {
  const raw = PINNED['live-guest-sealed'];
  const duel = migrate(raw).duel;
  assert.equal(duel.mode, 'live');
  assert.equal(duel.me, 1);
  assert.deepEqual(duel.seats, ['remote', 'human']);
  assert.deepEqual(duel.seen[1], raw.seen);
  assert.deepEqual(duel.drafts, { 1: raw.draft });
  assert.deepEqual(duel.sealed, raw.sealed);
  assert.deepEqual(duel.chat, raw.chat);
  assert.deepEqual(duel.session, raw.session);
  assert.equal(duel.game, null);
  const host = migrate(PINNED['codes-host-invited']).duel;
  assert.equal(host.me, 0);
  assert.deepEqual(host.seats, ['human', 'remote']);
  assert.equal(said('duel-title', host.summary), 'Alice vs … (invitation sent)');
});

test('a record that cannot be a duel says why, by code', () => {
  const game = PINNED['hotseat-turn1'].game;
  const cases = [
    [null, 'not-a-record'], ['text', 'not-a-record'], [[1, 2], 'not-a-record'], [{ mode: 'hotseat', game }, 'not-a-record'],
    [{ id: 'x', mode: 'hotseat' }, 'no-game'], [{ id: 'x', game: 'WH1.abc' }, 'bad-game'],
    [{ id: 'x', mode: 'codes', session: { me: 3 } }, 'bad-session'], [{ id: 'x', mode: 'chess', game }, 'bad-mode'],
    [{ id: 'x', mode: 'codes', game }, 'bad-mode'], [{ id: 'x', format: 9, game }, 'newer-format'],
  ];
  for (const [raw, code] of cases) assert.equal(migrate(raw).error.code, code, JSON.stringify(raw));
  // The id may come from where the record was found.
  assert.equal(migrate({ mode: 'hotseat', game }, 'from-key').duel.id, 'from-key');
});

test('summaries and seen marks come from a view', () => {
  const view = { names: ['A', 'B'], result: { winner: 1, how: 'A surrendered' }, log: [1, 2], wizards: [{ history: [1] }, { history: [] }] };
  const summary = summaryOf(view, { kind: 'over', turn: 7 });
  assert.deepEqual(summary, { title: '', names: ['A', 'B'], turn: 7, phase: 'over', over: true,
    result: { winner: 1, how: 'A surrendered' }, awaiting: false, resultText: '' });
  assert.equal(said('duel-title', summary), 'A vs B');
  assert.equal(said('duel-result', summary), 'B won (A surrendered)');
  // A record saved before kept its words: they are said as they were.
  const before = migrate({ id: 'old', mode: 'hotseat', game: {}, summary: { title: 'A vs B', names: ['A', 'B'], over: true, resultText: 'draw (both died)' } }).duel.summary;
  assert.equal(said('duel-title', before), 'A vs B');
  assert.equal(said('duel-result', before), 'draw (both died)');
  assert.deepEqual(seenOf(view), { log: 2, rows: [1, 0] });
  assert.deepEqual(seenOf(null), { log: 0, rows: [0, 0] });
});

test('open loads a saved old duel once, migrated, and subscribers hear it', () => {
  save(PINNED['hotseat-turn1']);
  const store = createStore({ storage });
  const heard = [];
  const unsubscribe = store.subscribe((s) => heard.push(s));
  const opened = store.open({ id: PINNED['hotseat-turn1'].id });
  assert.ok(opened.ok);
  assert.equal(store.getState().duel.format, RECORD_FORMAT);
  assert.equal(heard.length, 1);
  assert.equal(storage.currentGameId(), PINNED['hotseat-turn1'].id);
  unsubscribe();
  store.leave();
  assert.equal(heard.length, 1);
  assert.equal(store.getState().duel, null);
  assert.equal(storage.currentGameId(), null);
});

test('start saves a new record; commit is all or nothing; keep holds in memory', () => {
  const store = createStore({ storage, now: () => 5 });
  const duel = newRecord({ id: 'n1', mode: 'hotseat', game: { turn: 1 }, names: ['A', 'B'], now: 1 });
  assert.equal(store.start({ duel }), true);
  assert.equal(store.getState().tab, 'mine');
  assert.deepEqual(JSON.parse(localStorage.getItem('wavinghands:v1:game:n1')).game, { turn: 1 });
  assert.equal(store.commit({ changes: { game: { turn: 2 } } }), true);
  assert.equal(store.getState().duel.updatedAt, 5);
  localStorage.full = true;
  assert.equal(store.commit({ changes: { game: { turn: 3 } } }), false);
  assert.deepEqual(store.getState().duel.game, { turn: 2 }, 'a refused commit changes nothing in memory');
  assert.deepEqual(JSON.parse(localStorage.getItem('wavinghands:v1:game:n1')).game, { turn: 2 }, 'nor in storage');
  assert.equal(store.getState().refusal, 'unavailable');
  assert.equal(store.keep({ changes: { game: { turn: 3 } } }), false);
  assert.deepEqual(store.getState().duel.game, { turn: 3 });
  assert.equal(store.getState().saved, false);
  localStorage.full = false;
  localStorage.removeItem('wavinghands:v1:current'); // as when the mark, too, was refused
  assert.equal(store.saveAgain(), true);
  assert.equal(storage.currentGameId(), 'n1', 'a reload resumes it once it is saved');
  assert.equal(store.getState().saved, true);
  assert.deepEqual(JSON.parse(localStorage.getItem('wavinghands:v1:game:n1')).game, { turn: 3 });
});

test('drafts are kept per wizard and saved; dispatch runs the same actions by name', () => {
  const store = createStore({ storage });
  store.start({ duel: newRecord({ id: 'd1', mode: 'computer', game: {}, names: ['A', 'B'] }) });
  store.dispatch({ type: 'draft', wizard: 0, draft: { kind: 'orders', turn: 1, draft: { left: 'W' } } });
  // Saved: what a reload reads (the record with the picks kept apart since its last save; store-drafts.test.mjs).
  assert.deepEqual(storage.readGame('d1').value.drafts, { 0: { kind: 'orders', turn: 1, draft: { left: 'W' } } });
  store.draft({ wizard: 0, draft: null });
  assert.deepEqual(store.getState().duel.drafts, {});
  assert.throws(() => store.dispatch({ type: 'no-such-action' }), /no store action/);
  assert.equal(store.remove({ id: 'd1' }), false, 'the duel in play is not deleted');
});

test('the list says which saved duels cannot be read, and a reload resumes none of them (bug 8)', () => {
  save(PINNED['hotseat-turn1']);
  save(PINNED['live-guest-sealed']);
  save({ id: 'broken-shape', mode: 'hotseat', game: 'not a game', summary: { title: 'C vs D', turn: 3 } });
  localStorage.setItem('wavinghands:v1:game:broken-text', '{"id":"broken-text","game":{"tr');
  localStorage.setItem('wavinghands:v1:index', JSON.stringify([
    ...JSON.parse(localStorage.getItem('wavinghands:v1:index')), { id: 'broken-text', title: 'E vs F', updatedAt: 2 }, { id: 'gone', title: 'G vs H', updatedAt: 3 }]));
  const store = createStore({ storage });
  const damage = Object.fromEntries(store.savedDuels().games.map((g) => [g.id, g.damaged]));
  assert.deepEqual(damage, {
    [PINNED['hotseat-turn1'].id]: null, [PINNED['live-guest-sealed'].id]: null,
    'broken-shape': 'bad-game', 'broken-text': 'unparsable', gone: 'missing',
  });
  storage.setCurrentGameId('broken-shape');
  assert.equal(store.resumable(), null);
  assert.equal(storage.currentGameId(), null, 'the pointer to it is cleared');
  // A duel the engine could not read is marked, and stays marked.
  storage.setCurrentGameId(PINNED['hotseat-turn1'].id);
  assert.equal(store.resumable(), PINNED['hotseat-turn1'].id);
  store.open({ id: PINNED['hotseat-turn1'].id });
  store.damaged({ id: PINNED['hotseat-turn1'].id, code: 'bad-game' });
  assert.equal(store.getState().duel, null);
  assert.equal(store.resumable(), null);
  assert.equal(store.savedDuels().games.find((g) => g.id === PINNED['hotseat-turn1'].id).damaged, 'bad-game');
  assert.deepEqual(store.open({ id: 'broken-text' }).error, { code: 'unparsable', detail: 'broken-text' });
});

test('a finished duel is not resumed after a reload', () => {
  save({ ...PINNED['computer-turn2'], summary: { ...PINNED['computer-turn2'].summary, over: true } });
  storage.setCurrentGameId(PINNED['computer-turn2'].id);
  assert.equal(createStore({ storage }).resumable(), null);
});

test('one tab writes a duel at a time; taking it over stops the other (bug 7)', async () => {
  const locks = fakeLocks();
  save(PINNED['hotseat-turn1']);
  const id = PINNED['hotseat-turn1'].id;
  const first = createStore({ storage, locks });
  const second = createStore({ storage, locks });
  first.open({ id });
  assert.equal(await first.claim({ id }), 'mine');
  second.open({ id });
  assert.equal(await second.claim({ id }), 'elsewhere');
  assert.equal(second.getState().tab, 'elsewhere');
  assert.equal(second.commit({ changes: { pending: {} } }), false, 'the other tab writes nothing');
  const lost = new Promise((resolve) => first.subscribe((s) => { if (s.tab === 'elsewhere') resolve(); }));
  assert.equal(await second.claim({ id, takeOver: true }), 'mine');
  await lost;
  assert.equal(first.keep({ changes: { pending: {} } }), false);
  // Leaving frees the duel for the other tab.
  second.leave();
  await new Promise((resolve) => { setImmediate(resolve); }); // the lock is let go after the current task
  assert.equal(await first.claim({ id }), 'mine');
});

test('without Web Locks every tab may write, as before', async () => {
  const store = createStore({ storage, locks: null });
  store.start({ duel: newRecord({ id: 'w1', mode: 'hotseat', game: {}, names: ['A', 'B'] }) });
  assert.equal(await store.claim({ id: 'w1' }), 'mine');
});

test('marking another duel current is heard, once per change', () => {
  const heard = [];
  const stop = storage.onCurrentChange((id) => heard.push([id, storage.currentGameId()]));
  save(PINNED['hotseat-turn1']);
  const id = PINNED['hotseat-turn1'].id;
  storage.setCurrentGameId(id);
  storage.setCurrentGameId(id);
  storage.setCurrentGameId(null);
  stop();
  storage.setCurrentGameId(id);
  assert.deepEqual(heard, [[id, id], [null, null]], 'told after the mark is written');
});

test('remote duels live in the store: duelOf, put (all or nothing), adopt, held codes and chat', () => {
  const store = createStore({ storage, now: () => 7 });
  const session = { me: 0, names: ['Ann', 'Bo'], game: null };
  const duel = newRecord({ id: 'r-g1-0', mode: 'codes', me: 0, session, names: ['Ann', 'Bo'], now: 1 });
  assert.equal(store.duelOf({ id: duel.id }), null, 'not saved yet');
  assert.equal(store.put({ duel }), true);
  assert.equal(store.getState().duel, null, 'a duel not in play is stored, not made the one in play');
  assert.deepEqual(store.duelOf({ id: duel.id }).session, session, 'read back from storage');

  store.open({ id: duel.id });
  const line = { from: 'them', text: 'hi', turn: 1, at: 5 };
  localStorage.full = true;
  store.hold({ id: duel.id, chat: line });
  store.hold({ id: duel.id, code: 'WH1.a' });
  store.hold({ id: duel.id, code: 'WH1.b' });
  store.hold({ id: duel.id, code: 'WH1.a' });
  assert.deepEqual(store.held(duel.id), { chat: [line], codes: ['WH1.a', 'WH1.b'] }, 'held in order, once each');
  const next = { ...duel, sealed: { turn: 1, gestures: ['P', 'W'] }, chat: [line] };
  assert.equal(store.put({ duel: next }), false, 'refused');
  assert.equal(store.getState().duel.sealed, null, 'a refused put changes nothing in memory');
  assert.ok(store.getState().refusal, 'the refusal is said');
  assert.equal(store.duelOf({ id: duel.id }).sealed, null);

  localStorage.full = false;
  assert.equal(store.put({ duel: next }), true);
  assert.deepEqual(store.getState().duel.sealed, next.sealed, 'the duel in play is the stored one');
  assert.deepEqual(store.held(duel.id).chat, [], 'held chat lines go once stored');
  store.letGo({ id: duel.id, code: 'WH1.a' });
  assert.deepEqual(store.held(duel.id).codes, ['WH1.b']);
  store.letGo({ id: duel.id, code: 'WH1.b' });
  assert.equal(duel.id in store.getState().held, false, 'nothing held: no entry');

  const adopted = store.adopt({ duel: { ...next, queued: { turn: 2 }, chat: [] } });
  assert.deepEqual(adopted.chat, [line], "adopt keeps the chat the store holds");
  assert.deepEqual(store.duelOf({ id: duel.id }).queued, { turn: 2 }, 'adopted in memory');
  store.reread({ id: duel.id });
  assert.equal(store.duelOf({ id: duel.id }).queued, null, 'reread takes the stored duel again');
});
