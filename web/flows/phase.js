// What the turn loops on one device share (web/flows/local.js: a duel; web/flows/melee.js: a
// melee): the engine's readiness, a wizard's input checked and kept until every actor has
// written, the phase stepped with every actor's input, and a wizard's unsealed picks kept. No
// DOM, no storage: the store keeps the record, `next()` (the flow's own) says what comes after.

import { seenOf } from '../store/record.js';

// Engine error codes that mean the saved game itself cannot be read: the duel is marked damaged
// (never resumed again) rather than failing on every reload (bug 8).
const DAMAGED_GAME = new Set(['bad-json', 'bad-game', 'bad-request', 'too-large', 'too-deep', 'unknown-ruleset']);

/**
 * createPhaseSteps({api, store, engine, next}) -> {duelNow, stillPlaying, engineDown, reopen,
 * unreadable, step, submit, keepDraft}; `next()` -> Promise of the flow's next outcome.
 */
export function createPhaseSteps({ api, store, engine, next }) {
  const duelNow = () => store.getState().duel;
  const stillPlaying = (duel) => Boolean(duelNow()) && duelNow().id === duel.id;

  /** engineDown() -> Promise of null once the engine answers, or the {code, message} it failed with. */
  async function engineDown() {
    try {
      await engine;
      return null;
    } catch (err) {
      return { code: 'engine-unavailable', message: err && err.message ? err.message : String(err) };
    }
  }

  /** reopen(id) -> Promise of null (the saved duel is the one in play and the engine answers) or a 'fail' outcome. */
  async function reopen(id) {
    const opened = duelNow() && duelNow().id === id ? { ok: true } : store.open({ id });
    if (!opened.ok) return { screen: 'fail', code: 'damaged-title', error: opened.error };
    const down = await engineDown();
    return down ? { screen: 'fail', code: 'engine-failed-start', error: down } : null;
  }

  /** unreadable(duel, error) -> the 'fail' outcome of a game the engine could not read (a damaged one is marked so). */
  function unreadable(duel, error) {
    if (DAMAGED_GAME.has(error.code)) store.damaged({ id: duel.id, code: error.code });
    return { screen: 'fail', code: 'saved-unreadable', error };
  }

  /** step() -> Promise of an outcome: the phase resolved with every pending input, then next(). */
  async function step() {
    const duel = duelNow();
    const result = await api.step(duel.game, duel.pending);
    if (!stillPlaying(duel)) return { screen: 'left' };
    if (!result.ok) return { screen: 'fail', code: 'turn-refused', error: result.error };
    store.keep({ changes: { game: result.game, pending: {} } });
    return next();
  }

  /**
   * submit(wizard, input, view) -> Promise of {problems} (the input refused: each {code, field,
   * message}) or {problems: [], next: outcome}. `view` is the view the input was written on (its
   * log and history are then seen). Orders get this device's nonce for the phase's dice.
   */
  async function submit(wizard, input, view) {
    const duel = duelNow();
    if (!duel) return { problems: [], next: { screen: 'left' } };
    const written = view.phase.kind === 'decision' ? input : { ...input, nonce: api.freshNonce() };
    const checked = await api.validate(duel.game, wizard, written);
    if (!checked.ok) return { problems: [{ code: checked.error.code, field: '', message: checked.error.message }] };
    if (checked.problems.length) return { problems: checked.problems };
    if (!stillPlaying(duel)) return { problems: [], next: { screen: 'left' } };
    const drafts = { ...duelNow().drafts };
    delete drafts[String(wizard)];
    store.keep({ changes: {
      pending: { ...duelNow().pending, [String(wizard)]: written }, drafts, seen: { ...duelNow().seen, [wizard]: seenOf(view) },
    } });
    return { problems: [], next: await next() };
  }

  /** keepDraft(wizard, view, draft) keeps a wizard's unsealed picks for this phase (a reload keeps them). */
  function keepDraft(wizard, view, draft) {
    store.draft({ wizard, draft: { kind: view.phase.kind, turn: view.phase.turn, draft } });
  }

  return { duelNow, stillPlaying, engineDown, reopen, unreadable, step, submit, keepDraft };
}
