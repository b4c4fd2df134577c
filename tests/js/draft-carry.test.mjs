// Unit tests of carrying a draft onto the resolved turn (web/flows/remote/drafts.js, carryDraft)
// under Node: `node --test tests/js/`. Orders sealed early go by themselves only when the
// result left them as they were; a result that changed them (a paralysed hand, a gesture the
// rules force) keeps them on the form, unsent, with the changes to say. This is the flow that
// e2e/test_remote_draft.py (deep tier) drives through the page.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { carryDraft } from '../../web/flows/remote/drafts.js';
import { draftOf, withDraft } from '../../web/flows/remote/record.js';

const orders = (turn) => ({ state: 'your_input', need: 'orders', turn, phase: 'orders' });
const duel = (draft) => withDraft({ id: 'r-ab-0', mode: 'codes', session: { game_id: 'ab', me: 0, names: ['A', 'B'] }, drafts: {} }, draft);
const paralysed = [{ code: 'paralysis', field: 'gestures.0.0', message: 'paralysed' }];

/** An engine client that answers remote_carry as given and counts the seals asked of it. */
function engine(carried) {
  const seals = [];
  return {
    seals,
    api: {
      remoteCarry: async () => carried,
      remoteSeal: async (session, o) => {
        seals.push(o);
        return { ok: true, session, code: 'WH1.early', status: { ...orders(4), state: 'waiting' } };
      },
    },
  };
}

const release = async (d, status) => ({ ok: true, duel: d, status, send: [] });

test('orders sealed early that the result changed are not sealed: they wait on the form, with the changes', async () => {
  const carried = { ok: true, ready: true, over: false, orders: { gestures: [['F', 'W']] }, changes: paralysed, intact: false, legal: true };
  const { api, seals } = engine(carried);
  const saved = [];
  const out = await carryDraft(api, (d) => (saved.push(d), true), duel({ turn: 4, orders: { gestures: [['P', 'W']] }, sealed: true }), orders(4), { live: false, release });
  assert.deepEqual(seals, [], 'nothing sealed, so nothing sent');
  assert.deepEqual(out.send, []);
  assert.equal(out.code, null);
  assert.deepEqual(draftOf(out.duel), { turn: 4, carried: true, wasSealed: true, changes: paralysed, orders: carried.orders });
  assert.equal(saved.length, 1);
});

test('orders sealed early that the result left intact are sealed and sent at once', async () => {
  const carried = { ok: true, ready: true, over: false, orders: { gestures: [['P', 'W']] }, changes: [], intact: true, legal: true };
  const { api, seals } = engine(carried);
  const out = await carryDraft(api, () => true, duel({ turn: 4, orders: { gestures: [['P', 'W']] }, sealed: true }), orders(4), { live: false, release });
  assert.deepEqual(seals, [carried.orders]);
  assert.deepEqual(out.send, ['WH1.early']);
  assert.equal(out.turn, 4);
  assert.equal(draftOf(out.duel), null);
});
