// Unit tests of when the page calls an engine boot hung (web/stall-timer.js) under Node:
// `node --test tests/js/`.  A fake clock: time moves only when a test says so.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { STALL_MS, stallTimer } from '../../web/stall-timer.js';

/** A fake clock with setTimeout/clearTimeout/now; `advance(ms)` runs what falls due, in order. */
function fakeClock() {
  const clock = { time: 0, timers: new Map(), next: 1 };
  return {
    now: () => clock.time,
    setTimeout(fn, ms) {
      const id = clock.next++;
      clock.timers.set(id, { at: clock.time + ms, fn });
      return id;
    },
    clearTimeout(id) { clock.timers.delete(id); },
    advance(ms) {
      const end = clock.time + ms;
      for (;;) {
        const due = [...clock.timers].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) break;
        clock.timers.delete(due[0]);
        clock.time = due[1].at;
        due[1].fn();
      }
      clock.time = end;
    },
    pending: () => clock.timers.size,
  };
}

test('a boot whose worker says nothing is called hung once STALL_MS have passed, not before', () => {
  const clock = fakeClock();
  const stalls = [];
  stallTimer(STALL_MS, (quiet) => stalls.push(quiet), clock);
  clock.advance(STALL_MS - 1);
  assert.deepEqual(stalls, []);
  clock.advance(1);
  assert.deepEqual(stalls, [STALL_MS]);
  clock.advance(10 * STALL_MS);
  assert.deepEqual(stalls, [STALL_MS], 'called once only');
});

test('a slow download that keeps reporting is never called hung, however long it takes', () => {
  const clock = fakeClock();
  const stalls = [];
  const timer = stallTimer(STALL_MS, (quiet) => stalls.push(quiet), clock);
  // Four minutes of bytes arriving every 30 s (a 4.6 MB first visit at ~20 kB/s).
  for (let t = 0; t < 8; t += 1) {
    clock.advance(30_000);
    timer.poke();
  }
  assert.deepEqual(stalls, []);
  // Then the connection dies: called hung a minute after the last word.
  clock.advance(STALL_MS - 1);
  assert.deepEqual(stalls, []);
  clock.advance(1);
  assert.deepEqual(stalls, [STALL_MS]);
});

test('a stopped timer (the boot ended) never calls and leaves no timer behind', () => {
  const clock = fakeClock();
  const stalls = [];
  const timer = stallTimer(STALL_MS, (quiet) => stalls.push(quiet), clock);
  clock.advance(STALL_MS / 2);
  timer.poke();
  timer.stop();
  clock.advance(5 * STALL_MS);
  assert.deepEqual(stalls, []);
  assert.equal(clock.pending(), 0);
});
