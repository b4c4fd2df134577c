// Unit tests of the puzzles flow (web/flows/puzzles.js): list, open, answer, hints, the engine's
// verdict, errors as values, the puzzle of the day's date. The engine is a fake answering as
// wavinghands.api's puzzles/puzzle/puzzle_check/spells do (tests/test_puzzles.py checks those).
// `node --test tests/js/`.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { answerOf, createPuzzles, localDate } from '../../web/flows/puzzles.js';

const LIST = [
  { id: 'std-win-bolt', ruleset: 'standard', kind: 'win', title: 'Lightning to finish' },
  { id: 'std-foresee-1', ruleset: 'standard', kind: 'foresee', title: 'Two hands, three threats' },
];
const PUZZLE = {
  'std-win-bolt': { id: 'std-win-bolt', ruleset: 'standard', kind: 'win', title: 'Lightning to finish', hints: ['one', 'two'], explain: 'D completes lightning bolt.', answer: { gestures: [['-', 'D']] }, key: 'R', unique: true },
  'std-foresee-1': { id: 'std-foresee-1', ruleset: 'standard', kind: 'foresee', title: 'Two hands, three threats', hints: ['a', 'b'], explain: 'x', answer: ['cause_heavy_wounds', 'missile', 'shield'], key: 'LR', unique: true },
};

function fakeApi({ failList = false } = {}) {
  const calls = [];
  return {
    calls,
    async puzzles(params) {
      calls.push(['puzzles', params]);
      return failList ? { ok: false, error: { code: 'internal', message: 'boom' } } : { ok: true, puzzles: LIST, today: 'std-foresee-1' };
    },
    async puzzle(id) {
      calls.push(['puzzle', id]);
      const p = PUZZLE[id];
      return p ? { ok: true, puzzle: p, view: { wizard: 0, ruleset: { name: 'standard', withhold: false } } } : { ok: false, error: { code: 'unknown-puzzle', message: `there is no puzzle '${id}'.` } };
    },
    async spells(ruleset) {
      calls.push(['spells', ruleset]);
      return { ok: true, spells: [{ key: 'shield', name: 'Shield', sequences: ['P'] }, { key: 'missile', name: 'Missile', sequences: ['S-D'] }] };
    },
    async puzzleCheck(id, answer) {
      calls.push(['check', id, answer]);
      if (PUZZLE[id].kind === 'foresee') {
        const want = PUZZLE[id].answer;
        const missing = want.filter((k) => !answer.includes(k));
        return { ok: true, solved: missing.length === 0 && answer.length === want.length, reply: null, events: [], missing, extra: answer.filter((k) => !want.includes(k)) };
      }
      const right = answer.gestures[0][1] === 'D';
      return right ? { ok: true, solved: true, reply: null, events: [], missing: [], extra: [] }
        : { ok: true, solved: false, reply: { gestures: [['P', '-']] }, events: [{ text: 'Morgana casts shield.' }], missing: [], extra: [] };
    },
  };
}

test('localDate is the player\'s own calendar day', () => {
  assert.equal(localDate(new Date(2026, 0, 5, 23, 59)), '2026-01-05');
  assert.equal(localDate(new Date(2026, 10, 28, 0, 1)), '2026-11-28');
});

test('the list arrives with the puzzle of the day for the date given', async () => {
  const api = fakeApi();
  const flow = createPuzzles({ api, date: '2026-11-28' });
  const seen = [];
  flow.subscribe((s) => seen.push(s.phase));
  assert.equal(flow.getState().phase, 'loading');
  await flow.start();
  assert.deepEqual(api.calls[0], ['puzzles', { date: '2026-11-28' }]);
  assert.equal(flow.getState().phase, 'list');
  assert.equal(flow.getState().today, 'std-foresee-1');
  assert.deepEqual(seen, ['list']);
});

test('a win puzzle: gestures, a wrong answer refuted by the engine\'s reply, then solved', async () => {
  const api = fakeApi();
  const flow = createPuzzles({ api, date: '2026-11-28' });
  await flow.start();
  await flow.open('std-win-bolt');
  let s = flow.getState();
  assert.equal(s.phase, 'puzzle');
  assert.deepEqual(answerOf(s), { gestures: [['-', '-']] });
  await flow.check();
  s = flow.getState();
  assert.equal(s.verdict.solved, false);
  assert.deepEqual(s.verdict.reply, { gestures: [['P', '-']] });
  assert.equal(s.verdict.events[0].text, 'Morgana casts shield.');
  flow.setGesture('R', 'D');
  assert.equal(flow.getState().verdict, null, 'a changed answer forgets the old verdict');
  await flow.check();
  assert.equal(flow.getState().verdict.solved, true);
  assert.deepEqual(api.calls.at(-1), ['check', 'std-win-bolt', { gestures: [['-', 'D']] }]);
});

test('hints come one at a time up to the last; the answer is shown on request', async () => {
  const flow = createPuzzles({ api: fakeApi(), date: '2026-11-28' });
  await flow.start();
  await flow.open('std-win-bolt');
  flow.hint();
  flow.hint();
  flow.hint();
  assert.equal(flow.getState().hints, 2);
  assert.equal(flow.getState().answerShown, false);
  flow.showAnswer();
  assert.equal(flow.getState().answerShown, true);
});

test('a foresee puzzle lists the ruleset\'s spells and checks the spells chosen', async () => {
  const api = fakeApi();
  const flow = createPuzzles({ api, date: '2026-11-28' });
  await flow.start();
  await flow.openToday();
  let s = flow.getState();
  assert.equal(s.puzzle.id, 'std-foresee-1');
  assert.deepEqual(s.spells.map((x) => x.key), ['shield', 'missile']);
  assert.deepEqual(api.calls.find((c) => c[0] === 'spells')[1], { name: 'standard', withhold: false });
  flow.toggleSpell('shield');
  flow.toggleSpell('missile');
  flow.toggleSpell('missile');
  flow.toggleSpell('missile');
  assert.deepEqual(answerOf(flow.getState()), ['shield', 'missile']);
  await flow.check();
  s = flow.getState();
  assert.equal(s.verdict.solved, false);
  assert.deepEqual(s.verdict.missing, ['cause_heavy_wounds']);
});

test('next goes round the list; back returns to it with the answer forgotten', async () => {
  const flow = createPuzzles({ api: fakeApi(), date: '2026-11-28' });
  await flow.start();
  await flow.open('std-foresee-1');
  await flow.next();
  assert.equal(flow.getState().puzzle.id, 'std-win-bolt');
  flow.setGesture('L', 'P');
  flow.back();
  const s = flow.getState();
  assert.equal(s.phase, 'list');
  assert.equal(s.puzzle, null);
  assert.deepEqual(s.gestures, { L: '-', R: '-' });
});

test('the engine\'s refusals are values with a code, never thrown', async () => {
  const failing = createPuzzles({ api: fakeApi({ failList: true }), date: '2026-11-28' });
  await failing.start();
  assert.equal(failing.getState().phase, 'failed');
  assert.deepEqual(failing.getState().error, { code: 'puzzles-failed', message: 'boom' });
  const flow = createPuzzles({ api: fakeApi(), date: '2026-11-28' });
  await flow.start();
  await flow.open('nope');
  assert.equal(flow.getState().phase, 'list');
  assert.equal(flow.getState().error.code, 'puzzle-failed');
  assert.match(flow.getState().error.message, /no puzzle/);
});
