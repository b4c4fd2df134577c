// What the turn loops on one device share (web/flows/local.js: a duel; web/flows/melee.js: a
// melee): the engine's readiness, a wizard's input checked and kept until every actor has
// written, the phase stepped with every actor's input, and a wizard's unsealed picks kept. No
// DOM, no storage: the store keeps the record, `next()` (the flow's own) says what comes after.

import { seenOf } from '../store/record.js';

// Engine error codes that mean the saved game itself cannot be read: the duel is marked damaged
// (never resumed again) rather than failing on every reload (bug 8).
const DAMAGED_GAME = new Set(['bad-json', 'bad-game', 'bad-request', 'too-large', 'too-deep', 'unknown-ruleset']);

/**
 * createPhaseSteps({api, store, engine, next, deadlineMs}) -> {duelNow, stillPlaying, engineDown,
 * reopen, unreadable, where, decide, step, submit, keepDraft}; `next()` -> Promise of the flow's
 * next outcome; `deadlineMs`, the computer's time to decide.
 */
export function createPhaseSteps({ api, store, engine, next, deadlineMs }) {
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

  /**
   * where(read, summarize) -> Promise of {outcome} ('left': no duel in play, or another took its
   * place while the engine answered; 'fail': the engine could not read it) or {duel, seen}: the
   * duel in play and what read(duel) made of it, its summary (summarize(seen)) kept. The start of
   * every flow's next().
   */
  async function where(read, summarize) {
    const duel = duelNow();
    if (!duel) return { outcome: { screen: 'left' } };
    const seen = await read(duel);
    if (!stillPlaying(duel)) return { outcome: { screen: 'left' } };
    if (seen.error) return { outcome: unreadable(duel, seen.error) };
    store.keep({ changes: { summary: summarize(seen) } });
    return { duel, seen };
  }

  /**
   * decide(duel, wizards, levelOf) -> Promise of an outcome: each of `wizards` with no input yet
   * gets the engine's opponent's (at levelOf(w); it reads only its own wizard's view), then the
   * phase is stepped.
   */
  async function decide(duel, wizards, levelOf) {
    const pending = { ...duel.pending };
    for (const w of wizards) {
      if (String(w) in pending) continue;
      const answer = await api.aiInput(duel.game, w, levelOf(w), deadlineMs);
      if (!stillPlaying(duel)) return { screen: 'left' };
      if (!answer.ok) return { screen: 'fail', code: 'computer-failed', error: answer.error };
      pending[String(w)] = answer.input;
    }
    store.keep({ changes: { pending } });
    return step();
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

  return { duelNow, stillPlaying, engineDown, reopen, unreadable, where, decide, step, submit, keepDraft };
}
