// One tab writes a duel at a time (issue 24, bug 7): two tabs of one duel could seal at once and
// show two different codes, and sending one broke the duel (reveal-mismatch). A tab holds the
// duel's Web Lock (navigator.locks, shared by every tab of this site) for as long as the duel is
// open in it; another tab that opens the same duel is told so, and may take it over, which tells
// the first tab in turn. A browser without Web Locks behaves as before (every tab may write).

const lockName = (id) => `wavinghands:duel:${id}`;

/**
 * createTabLock(locks, onLost(id)) -> {claim(id, {takeOver}) -> Promise<'mine'|'elsewhere'>, holds(id), release()}:
 * `locks` is navigator.locks (null: no locking); onLost(id) hears that another tab took the duel over.
 * One duel is held at a time: claiming another releases the one held.
 */
export function createTabLock(locks, onLost) {
  let held = null; // {id, release()} of the duel this tab holds

  function release() {
    if (held) held.release();
    held = null;
  }

  async function claim(id, { takeOver = false } = {}) {
    if (held && held.id === id) return 'mine';
    release();
    if (!locks) return 'mine';
    let granted;
    const answer = new Promise((resolve) => { granted = resolve; });
    let letGo;
    const kept = new Promise((resolve) => { letGo = resolve; });
    const mine = { id, release: letGo };
    const options = takeOver ? { steal: true } : { ifAvailable: true };
    locks.request(lockName(id), options, (lock) => {
      granted(Boolean(lock));
      // Held until released here, or until another tab steals it (the request then rejects).
      return lock ? kept : null;
    }).catch(() => {
      if (held === mine) {
        held = null;
        onLost(id);
      }
    });
    const got = await answer;
    if (!got) return 'elsewhere';
    held = mine;
    return 'mine';
  }

  return { claim, release, holds: (id) => Boolean(held && held.id === id) };
}
