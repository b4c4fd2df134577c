// Unit tests of the orders draft model (web/ui/orders/draft.js) under Node: the draft, its wire
// rules (only answers to questions the engine still asks are sent), preview requests (the newest
// answer wins), problems, the missing-gesture check and the second press for risky orders.
// `node --test tests/js/`. The engine's preview is a stand-in.

import assert from 'node:assert/strict';
import { test } from 'node:test';

const { createOrdersDraft, draftFromOrders } = await import('../../web/ui/orders/draft.js');

const free = { forced: null, why: null, controller: null };
const viewWith = (constraints = {}) => ({ constraints: { sets: 1, left: free, right: free, banned: [], ...constraints } });
const answering = (preview) => async () => ({ ok: true, preview: { questions: [], warnings: [], problems: [], ...preview } });

test('a fresh draft has no gestures but those the rules fix, and says which hands are missing', () => {
  const model = createOrdersDraft({ view: viewWith({ left: { forced: 'D', why: 'paralysis', controller: null } }), preview: answering({}) });
  assert.deepEqual(model.ordersJson(), { gestures: [['D', null]] });
  assert.deepEqual(model.missing().map((p) => [p.code, p.field]), [['choose', 'gestures.0.1']]);
  const charmed = createOrdersDraft({ view: viewWith({ right: { forced: null, why: 'charm', controller: 1 } }), preview: answering({}) });
  assert.deepEqual(charmed.ordersJson(), { gestures: [[null, '-']] }, 'a charmed hand sends nothing of its own');
  assert.equal(charmed.putGesture(0, 'R', 'W'), false);
});

test('a gesture goes in unless the rules fix or forbid it, and spends its spell choices', () => {
  const model = createOrdersDraft({ view: viewWith({ banned: ['C'], left: { forced: 'P', why: 'paralysis' } }), preview: answering({}) });
  assert.equal(model.putGesture(0, 'L', 'W'), false, 'paralysed');
  assert.equal(model.putGesture(0, 'R', 'C'), false, 'fear');
  model.chooseAllocation(0, [{ hand: 'R', spell: 'shield' }, { hand: 'B', spell: 'x' }]);
  model.problems = [{ code: 'bad', field: 'gestures.0.1', message: 'no' }, { code: 'other', field: 'stab', message: 'no' }];
  assert.equal(model.putGesture(0, 'R', 'P'), true);
  assert.deepEqual(model.ordersJson(), { gestures: [['P', 'P']] }, 'the casts of that hand and of both hands are gone');
  assert.deepEqual(model.problems.map((p) => p.field), ['stab']);
  model.useGestures([['W', 'S'], ['F', 'F']]);
  assert.deepEqual(model.ordersJson().gestures, [['P', 'S']], 'one set only; the paralysed hand keeps its gesture');
});

test("the coach's gestures bring its gesture for the opponent's charmed hand (issue 28)", () => {
  const model = createOrdersDraft({ view: viewWith(), preview: answering({}) });
  model.useGestures([['P', 'S']], { gesture: 'X' });
  assert.equal(model.draft.charm, null, 'no such gesture: nothing written');
  model.useGestures([['P', 'S']], { gesture: '>', target: 'W1' });
  assert.deepEqual([model.draft.charm, model.draft.charmTarget], ['>', 'W1']);
  model.useGestures([['P', 'S']], { gesture: 'F' });
  assert.deepEqual([model.draft.charm, model.draft.charmTarget], ['F', null]);
  assert.deepEqual(model.ordersJson().gestures, [['P', 'S']]);
});

test('answers count only while the engine asks their question', async () => {
  const summons = { kind: 'monster', monster: 'new:W0:R:0', spell: 'summon goblin' };
  let questions = [];
  const model = createOrdersDraft({ view: viewWith(), preview: async () => ({ ok: true, preview: { questions, warnings: [], problems: [] } }) });
  model.putGesture(0, 'L', '-');
  model.putGesture(0, 'R', '>');
  model.answer({ kind: 'stab', set: 0 }, 'W1');
  model.answer(summons, 'W1');
  model.answer({ kind: 'monster', monster: 'M3', spell: undefined }, 'W0');
  model.answer({ kind: 'charm' }, '>');
  model.answer({ kind: 'charm-target' }, 'W1');
  model.answer({ kind: 'hand', id: 'para:W1' }, 'L');
  model.answer({ kind: 'release' }, 'W1');
  model.answer({ kind: 'bank' }, { set: 0, hand: 'R', spell: 'fireball' });
  await model.refresh();
  assert.deepEqual(model.ordersJson(), {
    gestures: [['-', '>']], stab: 'W1', monsters: { M3: 'W0' },
    charm: { gesture: '>', target: 'W1' }, release: { target: 'W1' },
  });
  questions = [summons, { kind: 'hand', id: 'para:W1' }, { kind: 'bank' }];
  await model.refresh();
  assert.deepEqual(model.ordersJson(), {
    gestures: [['-', '>']], stab: 'W1', monsters: { 'new:W0:R:0': 'W1', M3: 'W0' },
    casts: [{ set: 0, hand: 'R', spell: 'fireball', bank: true }],
    charm: { gesture: '>', target: 'W1' }, release: { target: 'W1' }, hands: { 'para:W1': 'L' },
  });
  model.putGesture(0, 'R', 'P');
  assert.equal(model.ordersJson().stab, undefined, 'a stab target goes only with a stab');
  model.answer({ kind: 'charm' }, 'F');
  assert.deepEqual(model.ordersJson().charm, { gesture: 'F' });
});

test('each change is told with its orders, and the newest preview wins', async () => {
  const told = [];
  const waits = [];
  const model = createOrdersDraft({
    view: viewWith(),
    preview: (orders) => new Promise((resolve) => { waits.push(() => resolve({ ok: true, preview: { questions: [], warnings: [], problems: [], orders } })); }),
    onDraft: (draft, orders) => told.push(orders.gestures[0][0]),
    onPreview: () => told.push('preview'),
  });
  model.putGesture(0, 'L', 'W');
  const first = model.refresh();
  model.putGesture(0, 'L', 'S');
  const second = model.refresh();
  waits[1]();
  await second;
  waits[0]();
  await first;
  assert.deepEqual(told, ['W', 'S', 'preview']);
  assert.deepEqual(model.lastPreview.orders.gestures, [['S', null]]);
  const failing = createOrdersDraft({ view: viewWith(), preview: async () => ({ ok: false, error: { code: 'bad-game', message: 'damaged' } }) });
  await failing.refresh();
  assert.deepEqual([failing.lastPreview, failing.previewError.code], [null, 'bad-game']);
});

test('sealing needs every hand, waits for the preview, and asks twice for risky orders', async () => {
  let warnings = [];
  const model = createOrdersDraft({ view: viewWith(), preview: async () => ({ ok: true, preview: { questions: [], warnings, problems: [] } }) });
  assert.equal((await model.readyToSeal()).problems.length, 2);
  model.putGesture(0, 'L', 'W');
  model.putGesture(0, 'R', 'P');
  warnings = [{ confirm: true, field: 'casts.0.R', text: 'You would shield your opponent.' }];
  model.refresh();
  assert.deepEqual((await model.readyToSeal()).confirm, warnings);
  assert.equal(model.armed, true);
  assert.deepEqual((await model.readyToSeal()).orders, { gestures: [['W', 'P']] }, 'the second press seals');
  model.refresh();
  assert.equal(model.armed, false, 'a change asks again');
  assert.ok((await model.readyToSeal()).confirm);
});

test('a saved draft is taken where it fits this turn, and orders survive the round trip', async () => {
  const orders = {
    gestures: [['F', '>'], ['S', 'D']], stab: [null, null], casts: [{ set: 1, hand: 'R', spell: 'missile', target: 'W1' }],
    monsters: { 'new:W0:R:1': 'W1' }, charm: { gesture: 'P' }, release: { target: 'W0' }, hands: { 'x:W1': 'R' },
  };
  const saved = draftFromOrders(orders);
  const questions = [{ kind: 'monster', monster: 'new:W0:R:1', spell: 'missile' }, { kind: 'hand', id: 'x:W1' }];
  const model = createOrdersDraft({ view: viewWith({ sets: 2 }), saved, preview: answering({ questions }) });
  await model.refresh();
  const { stab, ...sent } = orders;
  assert.equal(stab.length, 2);
  assert.deepEqual(model.ordersJson(), sent);
  const other = createOrdersDraft({ view: viewWith({ sets: 1 }), saved, preview: answering({}) });
  assert.deepEqual(other.ordersJson(), { gestures: [[null, null]] }, 'a draft for two sets does not fit one');
  const odd = createOrdersDraft({ view: viewWith(), saved: { gestures: [['Q', 'W']] }, preview: answering({}) });
  assert.deepEqual(odd.ordersJson().gestures, [[null, 'W']], 'an unknown gesture is dropped');
});
