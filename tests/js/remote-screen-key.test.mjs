// Unit tests of the remote screen's identity (web/ui/screens/remote.js `screenKey`) under Node:
// `node --test tests/js/`. web/remote.js redraws only the panel while the key stays the same,
// and mounts a new screen (a blank form) when it changes: so the orders of one turn keep one
// key whether the opponent has sealed first yet or not (issue 24, bug 1: live, the guest's picks
// on "write your orders now, Alice seals first" were wiped when Alice's commitment arrived;
// e2e/test_remote_live_bugs.py shows it in the page, in the deep tier).

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { screenKey } from '../../web/ui/screens/remote.js';

const VIEW = { phase: { turn: 2 } };

/** The snapshot web/remote.js draws for a duel in this state (turn 2's orders unless given). */
function snapshot(status, extra = {}) {
  return {
    view: VIEW, drafting: null, queued: null, early: null, carried: null,
    status: { turn: 2, phase: 'orders', seq: 5, ahead: false, ...status },
    ...extra,
  };
}

// Live, the guest writes turn 2 while Alice seals first; then her commitment arrives.
const writingAhead = snapshot({ state: 'waiting', ahead: true, seq: 5 });
const herCommitmentCame = snapshot({ state: 'your_input', need: 'orders', ahead: false, seq: 6 });

test('the orders of one turn keep their screen when the opponent seals first', () => {
  assert.equal(screenKey(writingAhead), screenKey(herCommitmentCame));
  // Whatever else arrives meanwhile (a chat line, presence) changes no key either.
  assert.equal(screenKey(writingAhead), screenKey(snapshot({ state: 'waiting', ahead: true, seq: 5 })));
});

test('another turn, orders sealed ahead, or a draft carried onto the form is another screen', () => {
  const key = screenKey(herCommitmentCame);
  assert.notEqual(key, screenKey(snapshot({ state: 'your_input', need: 'orders', turn: 3, seq: 7 })));
  assert.notEqual(screenKey(writingAhead),
    screenKey(snapshot({ state: 'waiting', ahead: true }, { queued: { turn: 2, gestures: [['F', 'P']] } })));
  assert.notEqual(key, screenKey(snapshot({ state: 'your_input', need: 'orders', seq: 6 }, { carried: { turn: 2 } })));
  assert.notEqual(key, screenKey(snapshot({ state: 'your_input', need: 'decision', phase: 'decision', seq: 6 })));
});
