// Unit test of the live melee's wiring of a concession (web/shell/melee-live.js) under Node:
// `node --test tests/js/`. Once every other wizard has agreed that a dropped seat is conceded
// (web/transport/hub-absence.js; tests/js/hub-relay.test.mjs), the page hands that seat to the
// melee's flow, once, which plays the seat's surrender (the engine's remote_melee_concede;
// tests/test_melee_concede.py), and the melee goes on. This is what e2e/test_melee_live.py's
// dropped-guest test (deep tier) drives through three pages.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { createMeleeLiveScreens } from '../../web/shell/melee-live.js';

/** A live flow whose changes the test fires, and a melee-codes flow that records concessions. */
function fakes() {
  const listeners = [];
  const live = { onChange: (cb) => listeners.push(cb), state: () => null, close() {}, concede: async () => ({ ok: true }) };
  const handed = [];
  const codes = { concede: (seat) => (handed.push(seat), { screen: `conceded ${seat}` }), next: () => ({ screen: 'next' }), duel: () => ({ id: 'm-1' }), close() {} };
  const drawn = [];
  createMeleeLiveScreens({ live, codes, drawCodes: (o) => drawn.push(o.screen), show() {}, goHome() {} });
  const change = (state) => listeners.forEach((cb) => cb(state));
  return { change, handed, drawn };
}

test('a seat every other wizard conceded is handed to the melee once, and its result drawn', () => {
  const { change, handed, drawn } = fakes();
  const playing = (conceded, votes = {}) => ({ state: 'connected', duelId: 'm-1', absence: { dropped: {}, votes, conceded } });
  change(playing([], { 2: [0] })); // one vote: nobody conceded yet
  assert.deepEqual(handed, []);
  change(playing([2]));
  assert.deepEqual(handed, [2]);
  assert.ok(drawn.includes('conceded 2'), drawn.join(', '));
  change(playing([2])); // the same agreement again (another change of the panel): not twice
  assert.deepEqual(handed, [2]);
  change(null); // the melee left: a new one starts with nobody conceded
  change(playing([2]));
  assert.deepEqual(handed, [2, 2]);
});

// The panel draws with web/ui/dom.js's h(): a stand-in for the few DOM calls it makes.
function standIn() {
  const made = (tag) => ({
    tag, attrs: {}, kids: [], handlers: {},
    setAttribute(k, v) { this.attrs[k] = v; },
    addEventListener(kind, fn) { this.handlers[kind] = fn; },
    append(...nodes) { this.kids.push(...nodes); },
  });
  globalThis.Node = Object;
  globalThis.document = { createElement: made, createTextNode: (text) => ({ text }) };
}

const find = (el, id) => (el.attrs && el.attrs['data-testid'] === id ? el : (el.kids || []).map((k) => find(k, id)).find(Boolean) || null);

test('the panel says a seat dropped and offers to concede it, until this player agreed; a conceded seat says so', async () => {
  standIn();
  const { meleeLivePanel } = await import('../../web/ui/screens/melee-live.js');
  const names = ['Ann', 'Bob', 'Cat'];
  const asked = [];
  const panel = (votes, conceded) => meleeLivePanel({
    me: 0, state: 'closed', events: [{ code: conceded.length ? 'conceded' : 'dropped', seat: 2 }],
    absence: { dropped: conceded.length ? {} : { 2: 3 }, votes, conceded },
  }, names, { onConcede: (seat) => asked.push(seat), onChat: () => ({ ok: true }) });
  const dropped = panel({}, []);
  assert.equal(find(dropped, 'melee-live-news-2').attrs['data-code'], 'dropped');
  find(dropped, 'melee-live-concede-2').handlers.click();
  assert.deepEqual(asked, [2]);
  assert.equal(find(panel({ 2: [0] }, []), 'melee-live-concede-2'), null, 'agreed already: no second vote');
  const done = panel({}, [2]);
  assert.equal(find(done, 'melee-live-news-2').attrs['data-code'], 'conceded');
  assert.equal(find(done, 'melee-live-concede-2'), null);
});
