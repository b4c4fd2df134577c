// Unit tests of the remote session flow (web/flows/remote/session.js, drafts.js) under Node
// (`node --test tests/js/`): each step's branches against a scripted engine client, including
// every error code the engine's remote boundary can return (engine/wavinghands/remote/
// code_errors.py, errors.py, boundary.py, rulesets/base.py, names.py; web/api.js's own).

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { createSessionFlow } from '../../web/flows/remote/session.js';
import { keepCarried, keepDraft, sealEarly, unsealEarly } from '../../web/flows/remote/drafts.js';
import { draftOf, seenMarkOf, withDraft } from '../../web/flows/remote/record.js';
import { say } from '../../web/ui/words/index.js';

// Every error code a remote_* call can answer with; the flow must change nothing on any of them.
const ENGINE_ERRORS = [
  'corrupted', 'unsupported-version', 'malformed', 'unknown-ruleset', 'bad-ruleset', 'not-this-game', 'other-duel',
  'own-code', 'out-of-order', 'conflicting-code', 'reveal-mismatch', 'illegal-input', 'desync', 'not-your-turn',
  'bad-session', 'code-error', 'too-large', 'too-deep', 'bad-request', 'internal', 'bad-names', 'same-names',
  'engine-unavailable',
];

const status = (over = {}) => ({
  state: 'your_input', need: 'orders', turn: 2, phase: 'orders', seq: 3, sent: 2, release: false, ahead: false,
  last_sent: 'WH1.last', code_owed: false, sealed: false, message: 'Write your orders', ...over,
});
const session = (over = {}) => ({ game_id: 'ab', me: 1, names: ['Alice', 'Bob'], game: { turn: 2 }, ...over });
const view = { phase: { turn: 2, kind: 'orders' }, log: [1, 2, 3], wizards: [{ history: [1] }, { history: [1, 2] }] };
const duelOf = (over = {}) => ({ id: 'r-ab-1', mode: 'codes', session: session(), seen: { log: 0, rows: [0, 0] }, summary: {}, ...over });

// A scripted engine client: each call answers with the next value given for it (or the last one).
function scripted(answers) {
  const calls = [];
  const api = new Proxy({}, {
    get(_, name) {
      return async (...args) => {
        calls.push([name, ...args]);
        const list = answers[name];
        if (!list) throw new Error(`unexpected call ${String(name)}`);
        return Array.isArray(list) ? (list.length > 1 ? list.shift() : list[0]) : list;
      };
    },
  });
  return { api, calls };
}

function flowWith(answers, { full = false } = {}) {
  const saved = [];
  const { api, calls } = scripted(answers);
  const flow = createSessionFlow({ api, save: (d) => (full ? false : (saved.push(d), true)), now: () => 42 });
  return { flow, saved, calls };
}

const err = (code) => ({ ok: false, error: { code, message: `${code} happened` } });

test('begin: saved before its invitation is shown; a refusal or an engine error shows nothing', async () => {
  const made = { ok: true, session: session({ me: 0, game: null, names: ['Alice', ''] }), code: 'WH1.inv', status: status({ state: 'awaiting_accept', turn: 0 }) };
  let { flow, saved } = flowWith({ remoteInvite: made });
  const out = await flow.begin({ mode: 'live', name: 'Alice', ruleset: null, baseUrl: 'https://x/' });
  assert.equal(out.ok, true);
  assert.deepEqual(out.send, ['WH1.inv']);
  assert.equal(out.duel.id, 'r-ab-0');
  assert.equal(out.duel.mode, 'live');
  assert.equal(out.duel.createdAt, 42);
  assert.equal(out.duel.format, 2); // the store's one record shape
  assert.equal(out.duel.me, 0);
  assert.deepEqual(out.duel.seats, ['human', 'remote']);
  assert.equal(out.duel.summary.awaiting, true);
  assert.equal(say('duel-title', out.duel.summary).replace(/[\u2068\u2069]/g, ''), 'Alice vs … (invitation sent)');
  assert.deepEqual(saved, [out.duel]);
  ({ flow, saved } = flowWith({ remoteInvite: made }, { full: true }));
  assert.deepEqual(await flow.begin({ mode: 'codes', name: 'Alice' }), { ok: false, duel: null, error: { code: 'storage-full', again: 'begin' } });
  for (const code of ENGINE_ERRORS) {
    ({ flow, saved } = flowWith({ remoteInvite: err(code) }));
    const r = await flow.begin({ mode: 'codes', name: 'Alice' });
    assert.equal(r.ok, false);
    assert.equal(r.error.code, code);
    assert.deepEqual(saved, []);
  }
});

test('accept: the guest\'s duel saved (mode by how the invitation came); refusal and errors', async () => {
  const r = { ok: true, session: session(), status: status(), invitation: { host: 'Alice', ruleset: {}, game_id: 'ab' } };
  let { flow, saved } = flowWith({ remoteAccept: r });
  const out = await flow.accept({ text: 'WH1.inv', name: 'Bob', viaLive: true });
  assert.equal(out.ok, true);
  assert.equal(out.duel.mode, 'live');
  assert.equal(out.invitation.host, 'Alice');
  assert.equal(saved.length, 1);
  ({ flow } = flowWith({ remoteAccept: r }));
  assert.equal((await flow.accept({ text: 'WH1.inv', name: 'Bob' })).duel.mode, 'codes');
  ({ flow } = flowWith({ remoteAccept: r }, { full: true }));
  assert.deepEqual((await flow.accept({ text: 'x', name: 'Bob' })).error, { code: 'storage-full', again: 'accept' });
  for (const code of ENGINE_ERRORS) {
    ({ flow, saved } = flowWith({ remoteAccept: err(code) }));
    const bad = await flow.accept({ text: 'x', name: 'Bob' });
    assert.equal(bad.error.code, code);
    assert.deepEqual(saved, []);
  }
});

test('seal: the code goes only once the duel is saved; it reminds the player of the orders', async () => {
  const sealed = { ok: true, session: session({ seq: 4 }), code: 'WH1.mine', status: status({ state: 'waiting', code_owed: true }) };
  const { flow, saved } = flowWith({ remoteSeal: sealed });
  const input = { gestures: [['F', 'P']] };
  const out = await flow.seal(duelOf(), input, { view, live: false });
  assert.equal(out.ok, true);
  assert.deepEqual(out.send, ['WH1.mine']);
  assert.equal(out.say, null);
  assert.deepEqual(out.duel.sealed, { turn: 2, gestures: [['F', 'P']] });
  assert.deepEqual(seenMarkOf(out.duel), { log: 3, rows: [1, 2] });
  assert.equal(out.duel.session.seq, 4);
  assert.deepEqual(saved.at(-1), out.duel);
});

test('seal: a refused save sends nothing and keeps the duel as it was', async () => {
  const sealed = { ok: true, session: session({ seq: 4 }), code: 'WH1.mine', status: status({ state: 'waiting' }) };
  const { flow } = flowWith({ remoteSeal: sealed }, { full: true });
  const before = duelOf();
  const out = await flow.seal(before, { gestures: [['F', 'P']] }, { view, live: true });
  assert.deepEqual(out, { ok: false, duel: before, error: { code: 'storage-full', again: 'seal' } });
});

test('seal: the engine\'s problems come back for the form; any other error too, nothing saved', async () => {
  const problems = [{ code: 'no-gesture', field: 'gestures.0.0', message: 'choose' }];
  let { flow, saved } = flowWith({ remoteSeal: { ok: false, error: { code: 'illegal-input', message: 'x', problems } } });
  assert.deepEqual((await flow.seal(duelOf(), {}, { view, live: false })).problems, problems);
  for (const code of ENGINE_ERRORS) {
    ({ flow, saved } = flowWith({ remoteSeal: err(code) }));
    const out = await flow.seal(duelOf(), {}, { view, live: false });
    assert.equal(out.ok, false);
    assert.equal(out.error.code, code);
    assert.deepEqual(out.problems, []);
    assert.deepEqual(saved, []);
  }
});

test('seal: an answer with no code is noted (it travels with the next code)', async () => {
  const sealed = { ok: true, session: session(), code: null, status: status({ need: 'orders', turn: 3 }) };
  const { flow } = flowWith({ remoteSeal: sealed });
  const out = await flow.seal(duelOf(), { decisions: { d0: 1 } }, { view, live: false });
  assert.equal(out.say, 'noted');
  assert.deepEqual(out.send, []);
  assert.equal(out.duel.sealed, null);
});

test('seal: live, the owed reveal goes at once after the code; by codes it waits', async () => {
  const sealed = { ok: true, session: session({ seq: 4 }), code: 'WH1.plain', status: status({ state: 'your_input', release: true }) };
  const released = { ok: true, session: session({ seq: 5 }), code: 'WH1.reveal', status: status({ state: 'waiting', ahead: true }) };
  let { flow, calls } = flowWith({ remoteSeal: sealed, remoteRelease: released });
  const out = await flow.seal(duelOf(), { gestures: [['F', 'P']] }, { view, live: true });
  assert.deepEqual(out.send, ['WH1.plain', 'WH1.reveal']);
  assert.equal(out.status.ahead, true);
  assert.equal(out.duel.session.seq, 5);
  ({ flow, calls } = flowWith({ remoteSeal: sealed, remoteRelease: released }));
  const byCodes = await flow.seal(duelOf(), { gestures: [['F', 'P']] }, { view, live: false });
  assert.deepEqual(byCodes.send, ['WH1.plain']);
  assert.ok(!calls.some(([name]) => name === 'remoteRelease'));
});

test('release: nothing to release, an engine error, no code, or a refused save leave the duel', async () => {
  const duel = duelOf();
  let { flow } = flowWith({});
  assert.deepEqual(await flow.release(duel, status(), { live: true }), { ok: true, duel, status: status(), send: [] });
  for (const answer of [err('bad-session'), { ok: true, code: null, session: session(), status: status() }]) {
    ({ flow } = flowWith({ remoteRelease: answer }));
    const out = await flow.release(duel, status({ release: true }), { live: true });
    assert.deepEqual(out.send, []);
    assert.equal(out.duel, duel);
  }
  ({ flow } = flowWith({ remoteRelease: { ok: true, code: 'WH1.r', session: session({ seq: 9 }), status: status() } }, { full: true }));
  const refused = await flow.release(duel, status({ release: true }), { live: true });
  assert.deepEqual(refused.send, []);
  assert.deepEqual(refused.warning, { code: 'storage-full', again: 'carry-on' });
});

test('seal: a decision answered, the carried draft sealed early goes at once', async () => {
  const draft = { turn: 3, orders: { gestures: [['W', 'W']] }, sealed: true };
  const duel = withDraft(duelOf(), draft);
  const afterDecision = { ok: true, session: session({ seq: 5 }), code: null, status: status({ turn: 3 }) };
  const carried = { ok: true, ready: true, over: false, orders: { gestures: [['W', 'W']] }, changes: [], intact: true, legal: true };
  const sealedEarly = { ok: true, session: session({ seq: 6 }), code: 'WH1.early', status: status({ state: 'waiting', turn: 3 }) };
  const { flow } = flowWith({ remoteSeal: [afterDecision, sealedEarly], remoteCarry: carried });
  const out = await flow.seal(duel, { decisions: { d: 0 } }, { view, live: false });
  assert.deepEqual(out.send, ['WH1.early']);
  assert.equal(out.say, null);
  assert.equal(draftOf(out.duel), null);
  assert.deepEqual(out.duel.sealed, { turn: 3, gestures: [['W', 'W']] });
});

test('sealAhead: checked, kept in this browser only, never sent', async () => {
  const input = { gestures: [['S', 'D']] };
  let { flow, saved } = flowWith({ validate: { ok: true, problems: [] }, remoteStatus: { ok: true, status: status({ state: 'waiting', ahead: true }) } });
  const out = await flow.sealAhead(duelOf(), input, { view });
  assert.equal(out.ok, true);
  assert.deepEqual(out.send, []);
  assert.equal(out.say, 'queued');
  assert.deepEqual(out.duel.queued, { turn: 2, kind: 'orders', input });
  assert.equal(saved.length, 1);
  const problems = [{ code: 'x', field: 'f', message: 'm' }];
  ({ flow } = flowWith({ validate: { ok: true, problems } }));
  assert.deepEqual((await flow.sealAhead(duelOf(), input, { view })).problems, problems);
  ({ flow } = flowWith({ validate: err('bad-request') }));
  assert.equal((await flow.sealAhead(duelOf(), input, { view })).error.code, 'bad-request');
  ({ flow } = flowWith({ validate: { ok: true, problems: [] }, remoteStatus: err('bad-session') }));
  assert.equal((await flow.sealAhead(duelOf(), input, { view })).error.code, 'bad-session');
  ({ flow } = flowWith({ validate: { ok: true, problems: [] }, remoteStatus: { ok: true, status: status() } }, { full: true }));
  assert.deepEqual((await flow.sealAhead(duelOf(), input, { view })).error, { code: 'storage-full', again: 'seal' });
});

test('receive: every engine error leaves the duel, sends and saves nothing', async () => {
  for (const code of ENGINE_ERRORS) {
    const { flow, saved } = flowWith({ remoteReceive: err(code) });
    const duel = duelOf();
    const out = await flow.receive(duel, 'WH1.x', { live: true });
    assert.equal(out.ok, false);
    assert.equal(out.error.code, code);
    assert.equal(out.duel, duel);
    assert.deepEqual(saved, []);
  }
});

test('receive: a code that cannot be saved is not applied, and can be applied again', async () => {
  const got = { ok: true, session: session({ seq: 5 }), reply: 'WH1.auto', note: '', status: status() };
  const { flow } = flowWith({ remoteReceive: got }, { full: true });
  const duel = duelOf();
  assert.deepEqual(await flow.receive(duel, 'WH1.x', { live: true }), { ok: false, duel, error: { code: 'storage-full', again: 'apply' } });
});

test('receive: applied and saved; the automatic reply and the note come back', async () => {
  const got = { ok: true, session: session({ seq: 5 }), reply: 'WH1.auto', note: 'Already applied', status: status({ state: 'waiting' }) };
  const { flow, saved } = flowWith({ remoteReceive: got });
  const out = await flow.receive(duelOf(), 'WH1.x', { live: false });
  assert.deepEqual(out.send, ['WH1.auto']);
  assert.equal(out.reply, 'WH1.auto');
  assert.equal(out.note, 'Already applied');
  assert.equal(saved.length, 1);
});

test('receive: live, orders sealed ahead go in plain as soon as the commitment arrives', async () => {
  const input = { gestures: [['S', 'D']] };
  const duel = duelOf({ queued: { turn: 2, kind: 'orders', input } });
  const got = { ok: true, session: session({ seq: 5 }), reply: null, note: '', status: status() };
  const sealed = { ok: true, session: session({ seq: 6 }), code: 'WH1.plain', status: status({ state: 'waiting' }) };
  let { flow } = flowWith({ remoteReceive: got, remoteSeal: sealed });
  const out = await flow.receive(duel, 'WH1.commit', { live: true });
  assert.deepEqual(out.send, ['WH1.plain']);
  assert.equal(out.reply, 'WH1.plain');
  assert.equal(out.duel.queued, null);
  assert.deepEqual(out.duel.sealed, { turn: 2, gestures: [['S', 'D']] });
  // Refused: the orders stay queued, said as a warning; the received code itself is applied.
  const saves = [true, false];
  const { api } = scripted({ remoteReceive: got, remoteSeal: sealed });
  flow = createSessionFlow({ api, save: () => saves.shift() });
  const kept = await flow.receive(duel, 'WH1.commit', { live: true });
  assert.equal(kept.ok, true);
  assert.deepEqual(kept.send, []);
  assert.deepEqual(kept.duel.queued, duel.queued);
  assert.deepEqual(kept.warning, { code: 'storage-full', again: 'seal-again' });
  // Orders that no longer fit (the engine refuses them) leave the form to the player.
  ({ flow } = flowWith({ remoteReceive: got, remoteSeal: err('illegal-input') }));
  const dropped = await flow.receive(duel, 'WH1.commit', { live: true });
  assert.deepEqual(dropped.send, []);
  assert.equal(dropped.duel.queued, null);
});

test('receive: queued orders of another turn or kind wait', async () => {
  const duel = duelOf({ queued: { turn: 3, kind: 'orders', input: { gestures: [['S', 'D']] } } });
  const got = { ok: true, session: session({ seq: 5 }), reply: null, note: '', status: status() };
  const { flow, calls } = flowWith({ remoteReceive: got });
  const out = await flow.receive(duel, 'WH1.commit', { live: true });
  assert.deepEqual(out.send, []);
  assert.ok(!calls.some(([name]) => name === 'remoteSeal'));
});

test('receive: the draft is carried onto the resolved turn, with the changes the result made', async () => {
  const duel = withDraft(duelOf(), { turn: 2, form: {}, orders: { gestures: [['P', null]] } });
  const got = { ok: true, session: session({ seq: 5 }), reply: null, note: '', status: status() };
  const carried = { ok: true, ready: true, over: false, orders: { gestures: [[null, null]] }, changes: [{ code: 'forced', field: 'x', message: 'm' }], intact: false, legal: false };
  const { flow } = flowWith({ remoteReceive: got, remoteCarry: carried });
  const out = await flow.receive(duel, 'WH1.c', { live: false });
  assert.deepEqual(draftOf(out.duel), { turn: 2, carried: true, wasSealed: false, changes: carried.changes, orders: carried.orders });
  assert.equal(out.early, null);
});

test('receive: orders sealed early go by themselves when the result leaves them intact', async () => {
  const duel = withDraft(duelOf(), { turn: 2, orders: { gestures: [['P', 'W']] }, sealed: true });
  const got = { ok: true, session: session({ seq: 5 }), reply: null, note: '', status: status() };
  const carried = { ok: true, ready: true, over: false, orders: { gestures: [['P', 'W']] }, changes: [], intact: true, legal: true };
  const sealed = { ok: true, session: session({ seq: 6 }), code: 'WH1.early', status: status({ state: 'waiting' }) };
  let { flow } = flowWith({ remoteReceive: got, remoteCarry: carried, remoteSeal: sealed });
  const out = await flow.receive(duel, 'WH1.c', { live: false });
  assert.deepEqual(out.send, ['WH1.early']);
  assert.equal(out.early, 2);
  // Refused: the orders wait on the form (carried), nothing sent.
  const saves = [true, false, true];
  const { api } = scripted({ remoteReceive: got, remoteCarry: carried, remoteSeal: sealed });
  flow = createSessionFlow({ api, save: () => saves.shift() });
  const waiting = await flow.receive(duel, 'WH1.c', { live: false });
  assert.deepEqual(waiting.send, []);
  assert.equal(draftOf(waiting.duel).carried, true);
  assert.equal(draftOf(waiting.duel).wasSealed, true);
  assert.deepEqual(waiting.warning, { code: 'storage-full', again: 'seal-again' });
});

test('receive: a draft of a duel that ended is not needed; a decision first keeps it', async () => {
  const duel = withDraft(duelOf(), { turn: 2, orders: { gestures: [['P', 'W']] } });
  const over = { ok: true, session: session({ seq: 5 }), reply: null, note: '', status: status({ state: 'over', need: null }) };
  let { flow } = flowWith({ remoteReceive: over, remoteCarry: { ok: true, ready: false, over: true, changes: [] } });
  assert.equal(draftOf((await flow.receive(duel, 'WH1.c', { live: false })).duel).over, true);
  const decision = { ...over, status: status({ need: 'decision' }) };
  ({ flow } = flowWith({ remoteReceive: decision }));
  assert.deepEqual(draftOf((await flow.receive(duel, 'WH1.c', { live: false })).duel), draftOf(duel));
  ({ flow } = flowWith({ remoteReceive: over, remoteCarry: err('bad-session') }));
  assert.deepEqual(draftOf((await flow.receive(duel, 'WH1.c', { live: false })).duel), draftOf(duel));
});

test('drafts: kept while touched, cleared when emptied, left alone once carried', () => {
  const duel = duelOf({ drafts: {} });
  assert.equal(keepDraft(duel, 3, {}, { gestures: [[null, null]] }), null);
  const kept = keepDraft(duel, 3, { f: 1 }, { gestures: [['P', null]] });
  assert.deepEqual(draftOf(kept), { turn: 3, form: { f: 1 }, orders: { gestures: [['P', null]] }, sealed: false });
  assert.equal(draftOf(keepDraft(kept, 3, {}, { gestures: [[null, null]] })), null);
  const carried = withDraft(duel, { turn: 3, carried: true, orders: {} });
  assert.equal(keepDraft(carried, 3, {}, { gestures: [['P', null]] }), null);
  assert.deepEqual(draftOf(keepCarried(carried, 3, { f: 2 }, { gestures: [] })), { turn: 3, carried: true, orders: { gestures: [] }, form: { f: 2 } });
  assert.equal(keepCarried(carried, 4, {}, {}), null);
  assert.equal(keepCarried(duel, 3, {}, {}), null);
  assert.equal(draftOf(unsealEarly(withDraft(duel, { turn: 3, sealed: true }))).sealed, false);
  assert.equal(unsealEarly(duel), null);
});

test('sealEarly: checked on the foreseen turn; moved on, problems and errors refuse', async () => {
  const duel = duelOf({ drafts: {} });
  const orders = { gestures: [['P', 'W']] };
  const { api } = scripted({ remoteDraft: [
    { ok: true, draftable: true, preview: { problems: [] } },
    { ok: true, draftable: false },
    { ok: true, draftable: true, preview: { problems: [{ code: 'p', field: 'f', message: 'm' }] } },
    err('bad-session'),
  ] });
  assert.deepEqual(draftOf((await sealEarly(api, duel, 3, orders)).duel), { turn: 3, orders, sealed: true });
  assert.deepEqual((await sealEarly(api, duel, 3, orders)).problems, [{ code: 'moved-on', field: '' }]);
  assert.equal((await sealEarly(api, duel, 3, orders)).problems[0].code, 'p');
  assert.equal((await sealEarly(api, duel, 3, orders)).problems[0].code, 'bad-session');
});

test('record: an old remote record keeps its draft and seen marks in place', () => {
  const old = duelOf({ draft: { turn: 2 } });
  assert.deepEqual(draftOf(old), { turn: 2 });
  assert.deepEqual(withDraft(old, null).draft, null);
  const now = duelOf({ drafts: { 1: { turn: 4 } }, seen: { 0: { log: 0, rows: [0, 0] }, 1: { log: 5, rows: [2, 2] } } });
  assert.deepEqual(draftOf(now), { turn: 4 });
  assert.deepEqual(seenMarkOf(now), { log: 5, rows: [2, 2] });
});

test('seal: live, a decision goes at once (released), so nothing is "noted" for later', async () => {
  const decided = { ok: true, session: session({ seq: 5 }), code: null, status: status({ turn: 4, release: true }) };
  const released = { ok: true, session: session({ seq: 6 }), code: 'WH1.decision', status: status({ state: 'waiting', turn: 4, ahead: true }) };
  const { flow } = flowWith({ remoteSeal: decided, remoteRelease: released });
  const out = await flow.seal(duelOf(), { decisions: { d0: 1 } }, { view, live: true });
  assert.deepEqual(out.send, ['WH1.decision']);
  assert.equal(out.say, null);
  assert.equal(out.status.ahead, true);
});
