// web/engine-session.js: the JS twins of wavinghands.sessions' apply_game_delta and apply_view_delta
// give back exactly the engine's whole game and views (fixtures/kept-duel.json holds the engine's
// answers: tests/test_api_sessions.py writes it and checks its shape), and keptDuels opens a
// game once, steps and views it by handle, and opens it again when the engine let it go.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { applyGameDelta, applyViewDelta, keptDuels } from '../../web/engine-session.js';

const FIXTURE = JSON.parse(readFileSync(new URL('./fixtures/kept-duel.json', import.meta.url), 'utf8'));

test('a step\'s delta applied to the game before is the engine\'s game after, key order too', () => {
  assert.ok(FIXTURE.steps.length >= 3);
  for (const { before, delta, after } of FIXTURE.steps) {
    assert.equal(JSON.stringify(applyGameDelta(before, delta)), JSON.stringify(after));
  }
});

test('views through their changes are the whole views, every phase, both wizards', () => {
  const last = {};
  let changes = 0;
  for (const { wizard, answer, whole } of FIXTURE.views) {
    if ('log_keep' in answer) changes += 1;
    const rebuilt = applyViewDelta(last[wizard] ?? null, answer);
    assert.deepEqual(rebuilt, whole);
    last[wizard] = rebuilt;
  }
  assert.ok(changes >= FIXTURE.views.length - 2, 'every view after the first came as changes');
  assert.equal(applyViewDelta(null, FIXTURE.views.at(-1).answer), null, 'changes without their base');
});

/** A stand-in engine answering from the fixture: one duel, its steps and views in order. */
function fixtureEngine({ forgetAfter = Infinity } = {}) {
  const calls = [];
  let steps = 0;
  let views = 0;
  let forgotten = false;
  const askRaw = async (fn, ...args) => {
    calls.push([fn, ...args]);
    if (fn === 'session_open') return { ok: true, session: `s${String(steps).padStart(32, '0')}` };
    if (calls.length > forgetAfter && !forgotten) {
      forgotten = true;
      return { ok: false, error: { code: 'unknown-session', message: 'let go' } };
    }
    if (fn === 'session_step') {
      const { delta } = FIXTURE.steps[steps];
      steps += 1;
      return { ok: true, session: `s${String(steps).padStart(32, '0')}`, delta, events: {} };
    }
    if (fn === 'session_view') {
      const { answer } = FIXTURE.views[views];
      views += 1;
      return { ok: true, view: answer, cursor: { n: views } };
    }
    return { ok: true, fn };
  };
  return { askRaw, calls };
}

test('keptDuels sends the game once, then handles and cursors; hands back whole games and views', async () => {
  const { askRaw, calls } = fixtureEngine();
  const kept = keptDuels(askRaw);
  let game = FIXTURE.steps[0].before;
  let v = 0;
  for (let i = 0; i < FIXTURE.steps.length; i += 1) {
    for (const wizard of [0, 1]) {
      const seen = await kept.view(game, wizard);
      assert.deepEqual(seen.view, FIXTURE.views[v].whole);
      v += 1;
    }
    const stepped = await kept.step(game, { 0: {}, 1: {} });
    assert.equal(JSON.stringify(stepped.game), JSON.stringify(FIXTURE.steps[i].after));
    game = stepped.game;
  }
  assert.equal(calls.filter(([fn]) => fn === 'session_open').length, 1, 'the game went to the engine once');
  const sent = calls.filter(([fn]) => fn !== 'session_open').map((c) => c.join('').length);
  assert.ok(Math.max(...sent) < 400, `every later call is small (${Math.max(...sent)} characters)`);
  assert.deepEqual(JSON.parse(calls.at(-1)[1]), `s${String(FIXTURE.steps.length - 1).padStart(32, '0')}`);
  assert.deepEqual(await kept.onGame('export_record', game), { ok: true, fn: 'export_record' });
});

test('a handle the engine no longer keeps is opened again from the game, once', async () => {
  const { askRaw, calls } = fixtureEngine({ forgetAfter: 1 });
  const kept = keptDuels(askRaw);
  const game = FIXTURE.steps[0].before;
  assert.deepEqual((await kept.view(game, 0)).view, FIXTURE.views[0].whole);
  assert.deepEqual(calls.map(([fn]) => fn), ['session_open', 'session_view', 'session_open', 'session_view']);
});

test('a game that is not an object goes whole, as before', async () => {
  const { askRaw, calls } = fixtureEngine();
  const kept = keptDuels(askRaw);
  await kept.view('{"not": "kept"}', 1);
  await kept.step(null, {});
  assert.deepEqual(calls.map(([fn]) => fn), ['view', 'step']);
});
