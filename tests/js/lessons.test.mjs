// Unit tests of the lessons flow (web/flows/lessons.js): the list with the saved progress, a
// lesson played turn by turn, the engine's check, retry, skip, the last lesson's whole duel,
// a refused save said, errors as values. The engine is a fake answering as wavinghands.api's
// lessons/lesson/lesson_turn do (tests/test_lessons.py checks those). `node --test tests/js/`.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { createLessons, nextLesson } from '../../web/flows/lessons.js';

const LIST = [
  { id: 'first-spell', title: 'Your first spell', turns: 1, duel: null, try: 'Make P.', hint: 'P on the left.', explain: 'Shield.' },
  { id: 'missile', title: 'A missile', turns: 2, duel: null, try: 'S then D.', hint: 'S, D.', explain: 'Missile.' },
  { id: 'duel-novice', title: 'A whole duel', turns: 0, duel: 'novice', try: 'Play.', hint: 'Coach.', explain: 'The end.' },
];
const PASS = { 'first-spell': [['P', '-']], missile: [['S', '-'], ['D', '-']] };

function fakeApi({ failTurn = false } = {}) {
  const calls = [];
  return {
    calls,
    async lessons() {
      calls.push(['lessons']);
      return { ok: true, lessons: LIST };
    },
    async lesson(id) {
      calls.push(['lesson', id]);
      const lesson = LIST.find((l) => l.id === id);
      return lesson ? { ok: true, lesson, view: { wizard: 0, turn: 1 } } : { ok: false, error: { code: 'unknown-lesson', message: `there is no lesson '${id}'` } };
    },
    async lessonTurn(id, turns) {
      calls.push(['turn', id, turns]);
      if (failTurn) return { ok: false, error: { code: 'bad-gesture', message: 'X is no gesture' } };
      const lesson = LIST.find((l) => l.id === id);
      const done = turns.length === lesson.turns;
      const out = { ok: true, played: turns.length, done, events: [{ text: `turn ${turns.length}` }], view: { wizard: 0, turn: turns.length + 1 } };
      if (!done) return out;
      const passed = JSON.stringify(turns.map((t) => t.gestures[0])) === JSON.stringify(PASS[id]);
      return { ...out, passed, failed: passed ? [] : ['cast'] };
    },
  };
}

function memoryProgress(initial = {}, { refuse = false } = {}) {
  const saved = { value: initial };
  return { saved, load: () => saved.value, save: (v) => { if (!refuse) saved.value = v; return !refuse; } };
}

async function started(options = {}) {
  const api = fakeApi(options);
  const progress = memoryProgress(options.progress, options);
  const duels = [];
  const flow = createLessons({ api, progress, onDuel: (level) => { duels.push(level); return 'begun'; } });
  await flow.start();
  return { api, progress, duels, flow };
}

test('the list comes with the saved progress, and the next lesson is the first not yet done', async () => {
  const { flow } = await started({ progress: { 'first-spell': 'passed' } });
  assert.equal(flow.getState().phase, 'list');
  assert.deepEqual(flow.getState().done, { 'first-spell': 'passed' });
  assert.equal(nextLesson(LIST, flow.getState().done), 'missile');
  assert.equal(nextLesson(LIST, { 'first-spell': 'passed', missile: 'skipped', 'duel-novice': 'begun' }), 'first-spell');
  assert.equal(nextLesson([], {}), null);
  await flow.openNext();
  assert.equal(flow.getState().lesson.id, 'missile');
});

test('a one-turn lesson: the gestures are sealed, the engine checks, a pass is saved', async () => {
  const { api, flow, progress } = await started();
  await flow.open('first-spell');
  flow.setGesture('L', 'P');
  flow.setGesture('X', 'S'); // no such hand: ignored
  assert.deepEqual(flow.getState().gestures, { L: 'P', R: '-' });
  await flow.seal();
  const s = flow.getState();
  assert.deepEqual(api.calls.at(-1), ['turn', 'first-spell', [{ gestures: [['P', '-']] }]]);
  assert.deepEqual(s.verdict, { passed: true, failed: [] });
  assert.deepEqual(s.lastEvents, [{ text: 'turn 1' }]);
  assert.deepEqual(progress.saved.value, { 'first-spell': 'passed' });
  assert.equal(s.unsaved, false);
  flow.setGesture('L', 'S'); // a finished lesson takes no more gestures
  assert.equal(flow.getState().gestures.L, '-');
});

test('a two-turn lesson is played turn by turn; a failed check can be played again', async () => {
  const { flow, progress } = await started();
  await flow.open('missile');
  flow.setGesture('L', 'S');
  await flow.seal();
  let s = flow.getState();
  assert.equal(s.verdict, null);
  assert.equal(s.turns.length, 1);
  assert.deepEqual(s.gestures, { L: '-', R: '-' }, 'each turn starts with empty hands');
  assert.deepEqual(s.view, { wizard: 0, turn: 2 });
  flow.setGesture('L', 'P');
  await flow.seal();
  s = flow.getState();
  assert.deepEqual(s.verdict, { passed: false, failed: ['cast'] });
  assert.deepEqual(s.events, [{ text: 'turn 1' }, { text: 'turn 2' }], 'the whole lesson\'s log, for its verdict');
  assert.deepEqual(s.lastEvents, [{ text: 'turn 2' }]);
  assert.deepEqual(progress.saved.value, {}, 'a failed lesson is not marked');
  await flow.retry();
  s = flow.getState();
  assert.equal(s.turns.length, 0);
  assert.equal(s.verdict, null);
  for (const g of ['S', 'D']) {
    flow.setGesture('L', g);
    await flow.seal();
  }
  assert.equal(flow.getState().verdict.passed, true);
});

test('a skipped lesson is marked skipped and the next one opens; a pass stays a pass', async () => {
  const { flow, progress } = await started({ progress: { missile: 'passed' } });
  await flow.open('first-spell');
  await flow.skip();
  assert.equal(flow.getState().lesson.id, 'missile');
  await flow.skip();
  assert.deepEqual(progress.saved.value, { 'first-spell': 'skipped', missile: 'passed' });
  assert.equal(flow.getState().lesson.id, 'duel-novice');
  await flow.next();
  assert.equal(flow.getState().phase, 'list', 'after the last lesson, the list');
});

test('the last lesson begins a whole duel at its level through the shell', async () => {
  const { flow, duels, progress } = await started();
  await flow.open('duel-novice');
  await flow.seal(); // a duel has no turns of its own here
  assert.equal(flow.getState().verdict, null);
  assert.equal(flow.playDuel(), 'begun');
  assert.deepEqual(duels, ['novice']);
  assert.equal(progress.saved.value['duel-novice'], 'begun');
});

test('a refused save is said; the progress is kept for this visit', async () => {
  const { flow } = await started({ refuse: true });
  await flow.open('first-spell');
  flow.setGesture('L', 'P');
  await flow.seal();
  assert.equal(flow.getState().unsaved, true);
  assert.equal(flow.getState().done['first-spell'], 'passed');
});

test('errors are values: a refused turn keeps the gestures, an unknown lesson says so', async () => {
  const { flow } = await started({ failTurn: true });
  await flow.open('first-spell');
  flow.setGesture('L', 'P');
  await flow.seal();
  const s = flow.getState();
  assert.deepEqual(s.error, { code: 'lesson-turn-refused', message: 'X is no gesture' });
  assert.equal(s.gestures.L, 'P');
  assert.equal(s.busy, false);
  await flow.open('nope');
  assert.equal(flow.getState().error.code, 'lesson-failed');
});
