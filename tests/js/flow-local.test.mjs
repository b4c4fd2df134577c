// Unit tests of the local turn loop (web/flows/local.js) under Node: every branch, and every
// error code the engine's boundary can return (read from engine/wavinghands/ and web/api.js, so
// a new code is covered when it is added) at every engine call the flow makes.
// `node --test tests/js/`. The engine is a scripted stand-in; the store is the real one over an
// in-memory localStorage.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, test } from 'node:test';

import { MemoryStorage } from './memory-storage.mjs';

globalThis.localStorage = new MemoryStorage();
const storage = await import('../../web/store/storage.js');
const { createStore } = await import('../../web/store/store.js');
const { createLocalFlow } = await import('../../web/flows/local.js');
const { say } = await import('../../web/ui/words/index.js');

const ROOT = new URL('../../', import.meta.url).pathname;

/** Every error code the boundary can answer: the engine's (ApiError, `code = "..."` classes, err("...")) and the page's own (web/api.js, web/limits.js). */
function boundaryCodes() {
  const files = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(dir, entry.name));
      else if (entry.name.endsWith('.py')) files.push(join(dir, entry.name));
    }
  };
  walk(join(ROOT, 'engine/wavinghands'));
  const codes = new Set();
  const patterns = [/ApiError\(\s*"([a-z][a-z-]+)"/g, /^\s+code = "([a-z][a-z-]+)"/gm, /\berr\(\s*"([a-z][a-z-]+)"/g];
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    for (const pattern of patterns) for (const m of text.matchAll(pattern)) codes.add(m[1]);
  }
  for (const file of ['web/api.js', 'web/limits.js']) {
    for (const m of readFileSync(join(ROOT, file), 'utf8').matchAll(/code: '([a-z][a-z-]+)'/g)) codes.add(m[1]);
  }
  return [...codes].sort();
}
const CODES = boundaryCodes();

const names = ['Alice', 'Bob'];
const phaseOf = (game) => (game.turn > game.last ? { kind: 'over', turn: game.turn, actors: [] }
  : { kind: game.decision ? 'decision' : 'orders', turn: game.turn, actors: [0, 1] });

/** A scripted engine: a game is {turn, last, decision}; each step moves one turn on; past `last` it is over. */
function fakeApi(overrides = {}) {
  const calls = [];
  const api = {
    freshNonce: () => 'ab'.repeat(16),
    newGame: async ({ names: n }) => ({ ok: true, game: { turn: 1, last: 2, names: n } }),
    view: async (game, w) => ({
      ok: true,
      view: {
        wizard: w, names, ruleset: { name: 'standard' }, phase: phaseOf(game), turn: game.turn,
        result: game.turn > game.last ? { winner: 0, how: 'Bob surrendered' } : null,
        log: Array(game.turn - 1).fill('x'), wizards: [{ history: Array(game.turn - 1).fill(1) }, { history: [] }],
      },
    }),
    validate: async () => ({ ok: true, problems: [] }),
    step: async (game, inputs) => { calls.push(['step', inputs]); return { ok: true, game: { ...game, turn: game.turn + 1 } }; },
    aiInput: async (game, w, level) => { calls.push(['ai', w, level]); return { ok: true, input: { gestures: [['-', '>']] } }; },
    importRecord: async () => ({ ok: true, game: { turn: 2, last: 3 } }),
    ...overrides,
  };
  return { api, calls };
}

let ids = 0;
function setUp(overrides = {}, { engine = Promise.resolve() } = {}) {
  const store = createStore({ storage });
  const { api, calls } = fakeApi(overrides);
  const flow = createLocalFlow({
    api, store, engine, defaultLevel: 'fair', deadlineMs: 1000, newId: () => `duel${++ids}`,
    digest: async (text) => `d${text.length}`.padEnd(20, '0'),
  });
  return { store, flow, calls };
}

const failing = (code) => async () => ({ ok: false, error: { code, message: `refused: ${code}` } });

beforeEach(() => { globalThis.localStorage = new MemoryStorage(); });

test('the boundary codes are read from the engine and the page', () => {
  for (const code of ['bad-game', 'bad-json', 'not-your-turn', 'internal', 'bad-request', 'too-large', 'too-deep', 'engine-unavailable', 'unknown-ruleset']) {
    assert.ok(CODES.includes(code), code);
  }
});

test('hot-seat: the device passes, each wizard writes, the turn steps and is saved', async () => {
  const { flow, store, calls } = setUp();
  let o = await flow.begin({ names, ruleset: { name: 'standard' }, mode: 'hotseat', seats: ['human', 'human'] });
  assert.deepEqual([o.screen, o.wizard, o.name, o.other, o.kind], ['pass', 0, 'Alice', 'Bob', 'orders']);
  o = await flow.ready(0);
  assert.deepEqual([o.screen, o.wizard, o.saved], ['orders', 0, null]);
  let answer = await flow.submit(0, { gestures: [['W', 'P']] }, o.view);
  assert.deepEqual(answer.problems, []);
  assert.deepEqual([answer.next.screen, answer.next.wizard], ['pass', 1]);
  assert.equal(store.getState().duel.pending['0'].nonce, 'ab'.repeat(16), 'orders get the nonce');
  assert.deepEqual(JSON.parse(localStorage.getItem('wavinghands:v1:game:' + store.getState().duel.id)).pending['0'].gestures, [['W', 'P']]);
  o = await flow.ready(1);
  answer = await flow.submit(1, { gestures: [['S', 'D']] }, o.view);
  assert.equal(calls.filter(([c]) => c === 'step').length, 1);
  // Bob holds the device: he goes first on turn 2 (one hand-over per turn).
  assert.deepEqual([answer.next.screen, answer.next.wizard], ['orders', 1]);
  assert.deepEqual(store.getState().duel.pending, {});
  assert.equal(store.getState().duel.summary.turn, 2);
});

test('against the computer: it decides after the human, at its level, and the duel ends', async () => {
  const { flow, store, calls } = setUp();
  let o = await flow.begin({ names, ruleset: {}, mode: 'computer', seats: ['human', 'computer'], level: 'strong' });
  assert.deepEqual([o.screen, o.wizard], ['orders', 0], 'one human: no hand-over');
  o = (await flow.submit(0, { gestures: [['W', 'P']] }, o.view)).next;
  assert.deepEqual([o.screen, o.wizard, o.level, o.name], ['thinking', 1, 'strong', 'Bob']);
  o = await flow.think();
  assert.deepEqual(calls[0], ['ai', 1, 'strong']);
  assert.equal(o.screen, 'orders');
  o = await flow.think().then(() => flow.submit(0, { gestures: [['W', 'P']] }, o.view)).then((a) => a.next);
  o = await flow.think();
  assert.equal(o.screen, 'over');
  assert.deepEqual(o.perspectives, [0]);
  assert.equal(say('duel-result', store.getState().duel.summary).replace(/[\u2068\u2069]/g, ''), 'Alice won (Bob surrendered)');
  assert.equal(store.resumable(), null, 'a finished duel is not resumed');
});

test('a decision phase asks for a decision, without a nonce', async () => {
  const { flow, store } = setUp({ newGame: async () => ({ ok: true, game: { turn: 1, last: 2, decision: true } }) });
  const o = await flow.begin({ names, ruleset: {}, mode: 'computer', seats: ['human', 'computer'] });
  assert.equal(o.screen, 'decision');
  await flow.submit(0, { decisions: { a: 1 } }, o.view);
  assert.deepEqual(store.getState().duel.pending['0'], { decisions: { a: 1 } });
});

test('a draft is kept for its phase only, and spent once sealed', async () => {
  const { flow, store } = setUp();
  const o = await flow.begin({ names, ruleset: {}, mode: 'computer', seats: ['human', 'computer'] });
  flow.keepDraft(0, o.view, { left: 'W' });
  assert.deepEqual((await flow.next()).saved, { left: 'W' });
  store.keep({ changes: { drafts: { 0: { kind: 'orders', turn: 9, draft: { left: 'P' } } } } });
  assert.equal((await flow.next()).saved, null, "another turn's draft is not this one's");
  flow.keepDraft(0, o.view, { left: 'W' });
  await flow.submit(0, { gestures: [['W', '-']] }, o.view);
  assert.deepEqual(store.getState().duel.drafts, {});
});

test('the engine refusing an input gives the form its problems, and nothing is written', async () => {
  const problems = [{ code: 'stab-self', field: 'gestures.0', message: 'No.' }];
  for (const [validate, expected] of [[async () => ({ ok: true, problems }), problems]]
    .concat(CODES.map((code) => [failing(code), [{ code, field: '', message: `refused: ${code}` }]]))) {
    const { flow, store } = setUp({ validate });
    const o = await flow.begin({ names, ruleset: {}, mode: 'computer', seats: ['human', 'computer'] });
    assert.deepEqual(await flow.submit(0, { gestures: [] }, o.view), { problems: expected });
    assert.deepEqual(store.getState().duel.pending, {});
  }
});

test('every error code at every engine call ends in an outcome naming it', async () => {
  for (const code of CODES) {
    let r = await setUp({ newGame: failing(code) }).flow.begin({ names, ruleset: {}, mode: 'hotseat', seats: ['human', 'human'] });
    assert.equal(r.error.code, code, `newGame ${code}`);

    const viewing = setUp();
    await viewing.flow.begin({ names, ruleset: {}, mode: 'hotseat', seats: ['human', 'human'] });
    const id = viewing.store.getState().duel.id;
    const broken = setUp({ view: failing(code) });
    storage.setCurrentGameId(id);
    r = await broken.flow.resume(id);
    assert.deepEqual([r.screen, r.code, r.error.code], ['fail', 'saved-unreadable', code], `view ${code}`);
    // A game the engine cannot read is marked damaged and never resumed; a passing failure is not.
    const damaged = ['bad-json', 'bad-game', 'bad-request', 'too-large', 'too-deep', 'unknown-ruleset'].includes(code);
    assert.equal(broken.store.savedDuels().games.find((g) => g.id === id).damaged, damaged ? code : null, `view ${code} damaged`);

    const thinking = setUp({ aiInput: failing(code) });
    let o = await thinking.flow.begin({ names, ruleset: {}, mode: 'computer', seats: ['human', 'computer'] });
    o = (await thinking.flow.submit(0, { gestures: [] }, o.view)).next;
    r = await thinking.flow.think();
    assert.deepEqual([r.screen, r.code, r.error.code], ['fail', 'computer-failed', code], `aiInput ${code}`);

    const stepping = setUp({ step: failing(code) });
    o = await stepping.flow.begin({ names, ruleset: {}, mode: 'computer', seats: ['human', 'computer'] });
    await stepping.flow.submit(0, { gestures: [] }, o.view);
    r = await stepping.flow.think();
    assert.deepEqual([r.screen, r.code, r.error.code], ['fail', 'turn-refused', code], `step ${code}`);

    r = await setUp({ importRecord: failing(code) }).flow.importRecord('{}', 'hotseat');
    assert.deepEqual([r.error.code, r.refused], [code, true], `importRecord ${code}`);
    r = await setUp({ view: failing(code) }).flow.importRecord('{}', 'hotseat');
    assert.deepEqual([r.error.code, r.refused], [code, undefined], `import's view ${code}`);
  }
});

test('an engine that never started is said at once, at the start and on resuming', async () => {
  const engine = Promise.reject(new Error('no WebAssembly here'));
  engine.catch(() => {});
  const { flow } = setUp({}, { engine });
  const r = await flow.begin({ names, ruleset: {}, mode: 'hotseat', seats: ['human', 'human'] });
  assert.deepEqual(r.error, { code: 'engine-unavailable', message: 'no WebAssembly here' });
  const made = setUp();
  await made.flow.begin({ names, ruleset: {}, mode: 'hotseat', seats: ['human', 'human'] });
  const id = made.store.getState().duel.id;
  const o = await flow.resume(id);
  assert.deepEqual([o.screen, o.code, o.error.code], ['fail', 'engine-failed-start', 'engine-unavailable']);
});

test('resuming a duel that is not saved, or cannot be read, says why', async () => {
  const { flow } = setUp();
  assert.deepEqual((await flow.resume('nowhere')).error.code, 'missing');
  localStorage.setItem('wavinghands:v1:game:torn', '{"id":');
  assert.deepEqual((await flow.resume('torn')).error.code, 'unparsable');
});

test('leaving while the engine thinks draws nothing more', async () => {
  let release;
  const slow = new Promise((resolve) => { release = resolve; });
  const { flow, store } = setUp({ aiInput: async () => { await slow; return { ok: true, input: {} }; } });
  const o = await flow.begin({ names, ruleset: {}, mode: 'computer', seats: ['human', 'computer'] });
  await flow.submit(0, { gestures: [] }, o.view);
  const thinking = flow.think();
  store.leave();
  release();
  assert.deepEqual(await thinking, { screen: 'left' });
  assert.deepEqual(await flow.next(), { screen: 'left' });
});

test('an imported record becomes a saved duel once; a finished one opens as a replay', async () => {
  const { flow, store } = setUp();
  let o = await flow.importRecord(' {"record": 1} ', 'computer');
  assert.equal(o.screen, 'orders');
  const duel = store.getState().duel;
  assert.equal(duel.id, `import-${'d13'.padEnd(20, '0').slice(0, 16)}`);
  assert.deepEqual(duel.seats, ['human', 'computer']);
  assert.deepEqual(duel.seen[0], { log: 1, rows: [1, 0] });
  const done = setUp({ importRecord: async () => ({ ok: true, game: { turn: 5, last: 3 } }) });
  o = await done.flow.importRecord('{"r": 2}', 'hotseat');
  assert.deepEqual(o, { screen: 'replay', text: '{"r": 2}', own: 0 });
  assert.equal(done.store.getState().duel.summary.over, true);
});

test('a rematch starts the same seats, rules and level afresh', async () => {
  const { flow, store } = setUp();
  const o = await flow.begin({ names, ruleset: {}, mode: 'computer', seats: ['human', 'computer'], level: 'novice' });
  const first = store.getState().duel.id;
  await flow.rematch([o.view, o.view]);
  const again = store.getState().duel;
  assert.notEqual(again.id, first);
  assert.deepEqual([again.mode, again.level, again.seats], ['computer', 'novice', ['human', 'computer']]);
});
