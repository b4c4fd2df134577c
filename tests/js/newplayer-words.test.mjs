// What a new player is told at three moments of a remote duel (e2e/test_newplayer.py's stumbles,
// whose browser tests run under --deep: docs/test-tiers.md), under Node (`node --test tests/js/`):
// an answer that makes no code says where it goes (web/remote-intents.js), a friend's code for a
// duel this browser does not hold says so (web/remote-routing.js), and live, the status line never
// asks to paste what comes by itself (web/ui/screens/remote-panel.js).

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { installIntents } from '../../web/remote-intents.js';
import { installRouting } from '../../web/remote-routing.js';
import { statusWords } from '../../web/ui/screens/remote-panel.js';

// Names are isolated for bidirectional text (U+2068 ... U+2069): read the words without them.
const plain = (text) => String(text).replace(/[\u2068\u2069]/g, '');

test('an answer that makes no code: noted, and it goes with the next orders', async () => {
  // Bob, after turn 3, answers his paralysis question by codes: the flow says "noted".
  const duel = { id: 'r-g-1', session: { game_id: 'g', me: 1, names: ['Alice', 'Bob'] } };
  let shown = null;
  const ctx = {
    app: {}, storage: {}, live: {},
    api: { remoteStatus: async () => ({ ok: true, status: { state: 'your_input', need: 'decision' } }) },
    serial: (run) => run(),
    duelOf: () => duel,
    flow: { seal: async () => ({ ok: true, duel, send: [], say: 'noted', status: { state: 'your_input', need: 'orders', turn: 4 } }) },
    adopt: (d) => d, writing: new Map(), send: () => {}, warn: () => {}, isLive: () => false,
    render: async (_duel, { feedback }) => { shown = feedback; },
    // (the rest of what a duel screen is given)
    iceSettingsOpts: () => ({}), transports: { byHand: () => ({ qr: null }) }, chatDraft: () => '',
  };
  installIntents(ctx);
  const problems = await ctx.intentsFor(duel.id, { view: {}, duel }).onDecision({ decisions: { 'paralysis:W0': 'L' } });
  assert.deepEqual(problems, []);
  const note = plain(shown.message);
  assert.ok(!note.includes('Noted: it goes with your next code'), note);
  assert.ok(note.startsWith('Your answer is noted.'), note);
  assert.ok(note.includes('no code to send yet') && note.includes('Alice'), note);
  assert.ok(note.includes('your orders for the next turn'), note);
});

test("a friend's turn code for a duel not saved in this browser says so, and why it may be", async () => {
  const ctx = {
    app: {}, storage: {},
    live: { kindOf: () => ({ ok: false, error: { code: 'turn-code', message: 'a turn code' } }) },
    api: { remoteDescribe: async () => ({ ok: true, code: { kind: 'turn', game_id: 'g', sender: 1, turn: 1, code: 'WH1.x' } }) },
    engineReady: async () => null,
    remoteDuels: () => [],
  };
  installRouting(ctx);
  const said = plain(await ctx.openText('WH1.x'));
  assert.ok(said.includes('not saved in this browser'), said);
  assert.ok(said.includes('chat app'), said);
});

test('live, the status line never asks to paste what comes by itself', () => {
  const routes = { connected: true };
  const ahead = plain(statusWords({ state: 'waiting', ahead: true, turn: 2, message: 'Paste it here' }, { opponent: 'Alice', queued: null }, routes));
  assert.ok(!ahead.includes('Paste'), ahead);
  assert.ok(ahead.includes('write your orders now') && ahead.includes('by themselves'), ahead);
  const queued = plain(statusWords({ state: 'waiting', ahead: true, turn: 2, message: 'Paste it here' }, { opponent: 'Alice', queued: { turn: 2 } }, routes));
  assert.ok(!queued.includes('Paste') && queued.includes('comes by itself'), queued);
});
