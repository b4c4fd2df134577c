// Unit tests of keeping the orders a remote player is writing for the turn in play
// (web/flows/remote/drafts.js keepWriting, writingOf) under Node: `node --test tests/js/`.
// The guide: "nothing a player picked is ever thrown away": a reload while writing a turn's
// orders in a duel by codes or live puts the picks back on the form.  The kept writing is
// never carried onto a turn, never foreseen as the next turn's draft, and sealing drops it.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { carryDraft, draftable, keepCarried, keepWriting, writingOf } from '../../web/flows/remote/drafts.js';
import { draftOf, withDraft } from '../../web/flows/remote/record.js';
import { createSessionFlow } from '../../web/flows/remote/session.js';

const duel = (draft = null) => withDraft({ id: 'r-ab-1', mode: 'codes', session: { game_id: 'ab', me: 1, names: ['A', 'B'] }, drafts: {} }, draft);
const form = { gestures: [['F', null]], targets: {} };
const picked = { gestures: [['F', null]] };
const untouched = { gestures: [[null, null]] };
const yourOrders = (turn) => ({ state: 'your_input', need: 'orders', turn, phase: 'orders' });

test('a pick on the turn in play is kept as writing, and a reload reads it back for that turn only', () => {
  const kept = keepWriting(duel(), 3, form, picked);
  assert.deepEqual(draftOf(kept), { turn: 3, form, orders: picked, writing: true });
  assert.deepEqual(writingOf(kept, 3), form);
  assert.equal(writingOf(kept, 4), null, 'another turn is not this writing');
  assert.equal(writingOf(duel(), 3), null);
});

test('an untouched form keeps nothing; clearing every pick drops what was kept', () => {
  assert.equal(keepWriting(duel(), 3, form, untouched), null);
  const kept = keepWriting(duel(), 3, form, picked);
  assert.equal(draftOf(keepWriting(kept, 3, form, untouched)), null);
});

test('a carried draft of the turn stays keepCarried\'s: writing does not replace it', () => {
  const carried = duel({ turn: 3, form, orders: picked, carried: true, changes: [] });
  assert.equal(keepWriting(carried, 3, form, { gestures: [['P', null]] }), null);
  assert.equal(draftOf(keepCarried(carried, 3, form, { gestures: [['P', null]] })).carried, true);
});

test('the kept writing is never carried onto a turn nor sent as the next turn\'s draft', async () => {
  const kept = keepWriting(duel(), 3, form, picked);
  const calls = [];
  const api = {
    remoteCarry: async () => { calls.push('remoteCarry'); return { ok: true, ready: true }; },
    remoteDraft: async (_session, orders) => { calls.push(['remoteDraft', orders]); return { ok: true, draftable: true, view: {} }; },
  };
  const release = async (d, s) => ({ ok: true, duel: d, status: s, send: [] });
  assert.equal(await carryDraft(api, () => true, kept, yourOrders(3), { live: false, release }), null);
  await draftable(api, kept, { state: 'waiting', ahead: false }, { live: false, view: {} });
  assert.deepEqual(calls, [['remoteDraft', {}]]);
});

test('sealing the orders drops the kept writing', async () => {
  const kept = { ...keepWriting(duel(), 2, form, picked), seen: { log: 0, rows: [0, 0] }, summary: {} };
  const sealed = { ok: true, session: { ...kept.session, seq: 4 }, code: 'WH1.mine', status: { state: 'waiting', turn: 2, code_owed: true } };
  const api = { remoteSeal: async () => sealed, remoteStatus: async () => ({ ok: true, status: sealed.status }) };
  const flow = createSessionFlow({ api, save: () => true, now: () => 42 });
  const view = { phase: { turn: 2, kind: 'orders' }, log: [], wizards: [{ history: [] }, { history: [] }] };
  const out = await flow.seal(kept, { gestures: [['F', 'P']] }, { view, live: false });
  assert.equal(out.ok, true);
  assert.equal(draftOf(out.duel), null);
});
