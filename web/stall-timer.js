// When a boot counts as hung: not after a fixed time, which a slow connection can outlast (4.6 MB
// at 20 kB/s takes four minutes) and which keeps a player waiting as long when the connection
// died in the first second, but once the engine worker has said nothing for a while.  While a
// download runs the worker reports its bytes at least every few tenths of a second; between the
// start's steps it marks each one (engine-worker.js), the longest of them a second or two here
// and some ten times that on a slow phone.

/** How long a boot may go without a word from its worker before the page calls it hung. */
export const STALL_MS = 60_000;

// The page's own timers (wrapped: the browser's setTimeout called as another object's method throws).
const PAGE_TIMERS = Object.freeze({
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle),
  now: () => performance.now(),
});

/**
 * A timer that calls `onStall(quietMs)` once `ms` pass with no `poke()`; `stop()` ends it.
 * `timers`: an object with setTimeout/clearTimeout and now() (the page's; tests give their own).
 */
export function stallTimer(ms, onStall, timers = PAGE_TIMERS) {
  const state = { last: timers.now(), handle: null, stopped: false };
  const arm = (delay) => {
    state.handle = timers.setTimeout(() => {
      const quiet = timers.now() - state.last;
      // A poke since this timer was set moved the deadline: wait for the rest of it.
      if (quiet < ms) arm(ms - quiet);
      else if (!state.stopped) {
        state.stopped = true;
        onStall(quiet);
      }
    }, delay);
  };
  arm(ms);
  return {
    /** The worker said something: the quiet starts again from now. */
    poke() {
      state.last = timers.now();
    },
    /** The boot ended (ready or failed): no call will come. */
    stop() {
      state.stopped = true;
      timers.clearTimeout(state.handle);
    },
  };
}
