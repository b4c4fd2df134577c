// The duel store: the one place that keeps the duel in play. It loads a saved duel once (migrated
// to today's record shape, web/store/record.js), changes it only through named actions, saves it
// all-or-nothing through storage.js and tells its subscribers after every change. Flows call its
// actions; screens draw its snapshot. No other module keeps duel state: a remote duel's steps
// (web/remote*.js) read it here and store it through put/adopt, and what arrived or was said
// while storage refused (codes, chat lines) is held here until a save succeeds.

import { migrate, RECORD_FORMAT } from './record.js';
import { createTabLock } from './tab-lock.js';

/**
 * The snapshot subscribers receive (never changed in place; each action makes a new one):
 *   duel     the record in play (record.js), or null on the start screen
 *   saved    whether the duel's last save was stored (false: a reload would lose the changes since)
 *   refusal  why the last save was refused: 'full' | 'unavailable' | null
 *   tab      'mine' (this tab writes the duel) | 'elsewhere' (another tab does) | null (no duel)
 *   held     {duel id: {chat: [line], codes: [text]}}: a remote duel's chat lines said and codes
 *            received while storage refused them, oldest first, kept until a save takes them
 */
const EMPTY = Object.freeze({ duel: null, saved: true, refusal: null, tab: null });
const NOTHING_HELD = Object.freeze({ chat: [], codes: [] });

/**
 * createStore({storage, locks?, now?}) -> the store: getState(), subscribe(fn(state, before)) -> unsubscribe,
 * dispatch(action) and one named function per action (below). `storage` is web/store/storage.js
 * (or a stand-in in tests); `locks` is navigator.locks (null: every tab may write).
 */
export function createStore({ storage, locks = null, now = () => Date.now() }) {
  let state = Object.freeze({ ...EMPTY, held: Object.freeze({}) });
  const listeners = new Set();
  const tabLock = createTabLock(locks, (id) => {
    if (state.duel && state.duel.id === id) set({ tab: 'elsewhere' });
  });

  function set(changes) {
    const before = state;
    state = Object.freeze({ ...state, ...changes });
    for (const fn of [...listeners]) fn(state, before);
  }

  // Writes the duel; on a refusal nothing in storage changed (storage.saveGame's promise). A
  // stored duel is marked as the one a reload resumes (the mark may have been refused before).
  function write(duel) {
    const stored = storage.saveGame({ ...duel, format: RECORD_FORMAT });
    if (stored) storage.setCurrentGameId(duel.id);
    return { stored, refusal: stored ? null : storage.saveRefusal() };
  }

  const withChanges = (changes) => ({ ...state.duel, ...changes, updatedAt: now() });
  const inPlay = (id) => Boolean(state.duel) && state.duel.id === id;
  const heldFor = (id) => state.held[id] || NOTHING_HELD;

  // The held entries with one duel's changed (its entry dropped once it holds nothing).
  function withHeld(id, changes) {
    const next = { ...heldFor(id), ...changes };
    const held = { ...state.held };
    if (next.chat.length || next.codes.length) held[id] = Object.freeze(next);
    else delete held[id];
    return Object.freeze(held);
  }

  const actions = {
    /** start({duel}) makes a new record the duel in play and saves it; -> whether it was stored. */
    start({ duel }) {
      const { stored, refusal } = write(duel);
      set({ duel, saved: stored, refusal, tab: 'mine' });
      storage.setCurrentGameId(duel.id);
      tabLock.claim(duel.id);
      return stored;
    },

    /**
     * open({id}) -> {ok: true, duel} | {ok: false, error: {code, detail}}: the saved duel, migrated,
     * as the duel in play. A duel that cannot be read is marked damaged in the list (which then
     * says so, and a reload does not resume it); codes: 'missing', 'unparsable' and migrate's.
     */
    open({ id }) {
      const read = readSaved(id);
      if (!read.ok) {
        if (read.error.code !== 'missing') storage.markDamaged(id, read.error.code);
        return read;
      }
      set({ duel: read.duel, saved: true, refusal: null, tab: tabLock.holds(id) ? 'mine' : null });
      storage.setCurrentGameId(id);
      return read;
    },

    /** claim({id, takeOver}) -> Promise<'mine'|'elsewhere'>: whether this tab may write the duel (bug 7). */
    async claim({ id, takeOver = false }) {
      const tab = await tabLock.claim(id, { takeOver });
      if (state.duel && state.duel.id === id) set({ tab });
      return tab;
    },

    /** leave() puts the duel in play away (it stays saved) for the start screen. */
    leave() {
      tabLock.release();
      storage.setCurrentGameId(null);
      set({ ...EMPTY, held: state.held });
    },

    /**
     * duelOf({id}) -> a remote duel as this page holds it: the duel in play, else read from
     * storage (migrated), or null when it is not saved or holds no session.
     */
    duelOf({ id }) {
      if (inPlay(id)) return state.duel;
      const read = readSaved(id);
      return read.ok && read.duel.session ? read.duel : null;
    },

    /**
     * put({duel}) -> whether storage took a remote duel step, all or nothing (the caller has put
     * the chat lines held for it into its chat). Stored: the held lines are let go and a duel in
     * play is the new one; refused: nothing changed. Another tab's duel is not written.
     */
    put({ duel }) {
      if (inPlay(duel.id) && state.tab === 'elsewhere') return false;
      const merged = duel;
      const stored = storage.saveGame({ ...merged, format: RECORD_FORMAT });
      if (!stored) {
        if (inPlay(duel.id)) set({ refusal: storage.saveRefusal() });
        return false;
      }
      const held = withHeld(duel.id, { chat: [] });
      set(inPlay(duel.id) ? { duel: merged, saved: true, refusal: null, held } : { held });
      return true;
    },

    /** adopt({duel}) -> the duel in memory: a flow's step on the duel in play (its chat as held), unsaved. */
    adopt({ duel }) {
      if (!inPlay(duel.id)) return duel;
      const next = { ...duel, chat: state.duel.chat };
      state = Object.freeze({ ...state, duel: next }); // the step's own render redraws
      return next;
    },

    /** reread({id}) takes the duel in play afresh from storage (another tab of this browser changed it). */
    reread({ id }) {
      if (!inPlay(id)) return;
      const read = readSaved(id);
      if (read.ok) set({ duel: read.duel });
    },

    /** hold({id, chat?, code?}) keeps a chat line or a received code that storage refused, in order. */
    hold({ id, chat = null, code = null }) {
      const h = heldFor(id);
      set({
        held: withHeld(id, {
          chat: chat ? [...h.chat, chat] : h.chat,
          codes: code !== null && !h.codes.includes(code) ? [...h.codes, code] : h.codes,
        }),
      });
    },

    /** letGo({id, code}) drops a held code once a save took it. */
    letGo({ id, code }) {
      set({ held: withHeld(id, { codes: heldFor(id).codes.filter((c) => c !== code) }) });
    },

    /**
     * commit({changes}) -> whether the changed duel was stored: all or nothing. When storage refuses,
     * the duel stays as it was, in memory and in storage (a sealed code is only shown once stored).
     */
    commit({ changes }) {
      if (!state.duel || state.tab === 'elsewhere') return false;
      const duel = withChanges(changes);
      const { stored, refusal } = write(duel);
      if (stored) set({ duel, saved: true, refusal: null });
      else set({ refusal });
      return stored;
    },

    /**
     * keep({changes}) -> whether the changed duel was stored: the change holds in memory even when
     * storage refuses (a local duel goes on; `saved` false says a reload would lose it).
     */
    keep({ changes }) {
      if (!state.duel || state.tab === 'elsewhere') return false;
      const duel = withChanges(changes);
      const { stored, refusal } = write(duel);
      set({ duel, saved: stored, refusal });
      return stored;
    },

    /** saveAgain() -> whether the duel in play is stored now (after the player made room). */
    saveAgain() {
      if (!state.duel || state.tab === 'elsewhere') return false;
      const { stored, refusal } = write(state.duel);
      set({ saved: stored, refusal });
      return stored;
    },

    /**
     * draft({wizard, draft, quiet?}) -> whether storage took a wizard's unsealed picks (null: none).
     * Only the picks are written (storage.saveDrafts: a pick costs the same late in a long duel as
     * early); the duel's next save takes them in. Refused: the picks hold in memory and `saved`
     * false says a reload would lose them, until a save succeeds; `quiet`: a refusal changes
     * nothing shown (remote play's draft of the next turn, web/remote-intents.js).
     */
    draft({ wizard, draft, quiet = false }) {
      if (!state.duel || state.tab === 'elsewhere') return false;
      const drafts = { ...state.duel.drafts };
      if (draft === null) delete drafts[String(wizard)];
      else drafts[String(wizard)] = draft;
      const duel = withChanges({ drafts });
      if (state.saved === false) {
        // The stored record is behind this one (its last whole save was refused): the picks
        // alone, read back onto it, would lose what changed since (a wizard's sealed orders,
        // taken out of the picks). The whole duel goes, or nothing, as before that save.
        const { stored, refusal } = write(duel);
        if (stored || !quiet) set({ duel, saved: stored, refusal });
        else state = Object.freeze({ ...state, duel });
        return stored;
      }
      state = Object.freeze({ ...state, duel }); // a draft redraws nothing
      const stored = storage.saveDrafts(duel.id, drafts);
      if (!stored && !quiet) set({ saved: false, refusal: storage.saveRefusal() });
      return stored;
    },

    /** damaged({id, code}) notes that the engine could not read a saved duel; leaves it if in play. */
    damaged({ id, code }) {
      storage.markDamaged(id, code);
      if (state.duel && state.duel.id === id) {
        tabLock.release();
        set({ ...EMPTY, held: state.held });
      }
    },

    /** remove({id}) deletes a saved duel (never the one in play). */
    remove({ id }) {
      if (state.duel && state.duel.id === id) return false;
      storage.deleteGame(id);
      return true;
    },
  };

  /**
   * readSaved(id) -> {ok: true, duel} | {ok: false, error: {code, detail}}: a saved duel as today's
   * record, without making it the duel in play.
   */
  function readSaved(id) {
    const read = storage.readGame(id);
    if (!read.found) return { ok: false, error: { code: 'missing', detail: id } };
    if (read.unparsable) return { ok: false, error: { code: 'unparsable', detail: id } };
    return migrate(read.value, id);
  }

  /**
   * savedDuels() -> {games, unreadable}: the list's entries (storage.readIndex), each with
   * `damaged`: null, or the code saying why its record cannot be read (bug 8).
   */
  function savedDuels() {
    const { games, unreadable } = storage.readIndex();
    const checked = games.map((g) => {
      if (g.damaged) return g;
      const read = readSaved(g.id);
      return { ...g, damaged: read.ok ? null : read.error.code };
    });
    return { games: checked, unreadable };
  }

  /** resumable() -> the id of the duel a reload should resume: saved as current, readable, not over. */
  function resumable() {
    const id = storage.currentGameId();
    if (!id) return null;
    const read = readSaved(id);
    if (!read.ok) {
      storage.markDamaged(id, read.error.code);
      return null;
    }
    return read.duel.summary.over ? null : id;
  }

  function dispatch(action) {
    const run = actions[action.type];
    if (!run) throw new Error(`no store action "${action.type}"`);
    return run(action);
  }

  const named = Object.fromEntries(Object.keys(actions).map((type) => [type, (args = {}) => dispatch({ ...args, type })]));

  return {
    ...named,
    dispatch,
    getState: () => state,
    held: (id) => heldFor(id),
    subscribe(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    readSaved,
    savedDuels,
    resumable,
  };
}
