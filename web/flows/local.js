// The local turn loop: hot-seat and against the computer. The engine decides every rules
// question (who acts, what is legal, what happens); this flow collects each actor's input, steps
// the game when everyone has spoken, keeps the duel in the store after each move, and answers
// every intent with an outcome: plain data saying which screen comes next. No DOM, no storage:
// the shell draws outcomes, the store saves.
//
// Outcomes ({screen, ...}):
//   {screen: 'pass', wizard, name, other, kind}        hand the device to `wizard`
//   {screen: 'orders' | 'decision', wizard, view, seen, saved}  that wizard writes (saved: kept draft)
//   {screen: 'thinking', wizard, name, level}          the computer decides next (call think())
//   {screen: 'over', views, perspectives, ruleset}     the duel is over
//   {screen: 'replay', text, own}                      a finished record opens in the replay flow
//   {screen: 'fail', code, error}                      `code`: what failed (a ui/words/ key),
//                                                      `error`: the engine's {code, message}
//   {screen: 'left'}                                   the player left meanwhile: draw nothing
// Outcomes of a duel in play carry `ruleset` (the spell reference follows it).

import { seenOf, summaryOf, newRecord } from '../store/record.js';
import { createPhaseSteps } from './phase.js';

const isHuman = (duel, w) => duel.seats[w] === 'human';

/**
 * createLocalFlow({api, store, engine, defaultLevel, deadlineMs, newId, digest}) -> the flow's
 * intents (below). `api` is web/api.js (or a stand-in), `store` web/store/store.js's store,
 * `engine` the engine's boot promise, `newId()` a fresh duel id, `digest(text)` -> Promise of a
 * hex digest (an imported record's id).
 */
export function createLocalFlow({ api, store, engine, defaultLevel, deadlineMs, newId, digest }) {
  let holder = null; // the wizard holding the device (hot-seat: one hand-over per turn, not two)
  const { duelNow, engineDown, reopen, where, decide, step, submit, keepDraft } = createPhaseSteps({ api, store, engine, next: () => next(), deadlineMs });

  /** The wizards' views, and the phase as the wizards who act see it (a time stop is hidden from the other). */
  async function views(game) {
    const both = await Promise.all([api.view(game, 0), api.view(game, 1)]);
    const bad = both.find((r) => !r.ok);
    if (bad) return { error: bad.error };
    const vs = both.map((r) => r.view);
    return { vs, phase: (vs.find((v) => v.phase.kind !== 'waiting') || vs[0]).phase };
  }

  /** begin({names, ruleset, mode, seats, level}) -> Promise of an outcome, or {error} for the start screen. */
  async function begin({ names, ruleset, mode, seats, level = null }) {
    const down = await engineDown();
    if (down) return { error: down };
    const created = await api.newGame({ names, ruleset, seed: api.freshNonce() + api.freshNonce() });
    if (!created.ok) return { error: created.error };
    holder = null;
    store.start({ duel: newRecord({ id: newId(), mode, seats, level, game: created.game, names }) });
    return next();
  }

  /** resume(id) -> Promise of an outcome: a saved local duel taken up where it stood. */
  async function resume(id) {
    holder = null;
    return (await reopen(id)) || next();
  }

  /** next() -> Promise of an outcome: asks the engine where the game stands; what comes next. */
  async function next() {
    const at = await where((duel) => views(duel.game), ({ vs, phase }) => summaryOf(vs[0], phase));
    if (at.outcome) return at.outcome;
    const { duel, seen: { vs, phase } } = at;
    const ruleset = vs[0].ruleset;
    if (phase.kind === 'over') {
      const humans = [0, 1].filter((w) => isHuman(duel, w));
      return { screen: 'over', views: vs, perspectives: humans.length ? humans : [0], ruleset };
    }
    const waiting = phase.actors.filter((w) => !(String(w) in duel.pending));
    const humans = waiting.filter((w) => isHuman(duel, w));
    // The computer decides once every human has written (it never sees their input: the
    // engine's opponent reads only its own wizard's view), while a "thinking" screen shows.
    if (!humans.length) {
      const computer = waiting.find((w) => !isHuman(duel, w));
      if (computer === undefined) return step();
      return { screen: 'thinking', wizard: computer, name: vs[computer].names[computer], level: duel.level || defaultLevel, ruleset };
    }
    const hotseat = duel.seats.filter((s) => s === 'human').length > 1;
    // After a reload (no holder yet) the device is with whoever was writing: their form is kept.
    if (holder === null && hotseat) holder = humans.find((w) => writing(duel, w, vs[w].phase)) ?? null;
    const wizard = humans.includes(holder) ? holder : humans[0];
    if (hotseat && holder !== wizard) {
      return { screen: 'pass', wizard, name: vs[wizard].names[wizard], other: vs[wizard].names[1 - wizard], kind: phase.hasted ? 'hasted' : phase.kind, ruleset };
    }
    holder = wizard;
    return actor(duel, wizard, vs[wizard], ruleset);
  }

  // Whether `wizard`'s form for this phase was open: its picks (or an empty draft) are kept.
  function writing(duel, wizard, phase) {
    const kept = duel.drafts[String(wizard)];
    return Boolean(kept) && kept.kind === phase.kind && kept.turn === phase.turn;
  }

  function actor(duel, wizard, view, ruleset) {
    const kept = writing(duel, wizard, view.phase) ? duel.drafts[String(wizard)] : null;
    const saved = kept ? kept.draft : null;
    // Hot-seat: the open form is noted, so a reload comes back to it and not to the other wizard.
    if (!kept && duel.seats.every((s) => s === 'human')) keepDraft(wizard, view, null);
    return { screen: view.phase.kind === 'decision' ? 'decision' : 'orders', wizard, view, seen: duel.seen[wizard] || seenOf(null), saved, ruleset };
  }

  /** ready(wizard) -> Promise of an outcome: the wizard the device was passed to is holding it. */
  async function ready(wizard) {
    holder = wizard;
    return next();
  }

  /** think() -> Promise of an outcome: every computer actor decides, then the turn goes on. */
  async function think() {
    const duel = duelNow();
    return duel ? decide(duel, [0, 1].filter((w) => !isHuman(duel, w)), () => duel.level || defaultLevel) : { screen: 'left' };
  }

  /** rematch(views) -> Promise of an outcome or {error}: the same wizards, seats, rules and level again. */
  function rematch(vs) {
    const duel = duelNow();
    return begin({ names: vs[0].names, ruleset: vs[0].ruleset, mode: duel.mode, seats: duel.seats, level: duel.level });
  }

  /**
   * importRecord(text, mode) -> Promise of an outcome, or {error} (the record refused: the engine's
   * error). The same record imported twice is the same saved duel; a finished one opens in replay.
   */
  async function importRecord(text, mode) {
    const down = await engineDown();
    if (down) return { error: down };
    const loaded = await api.importRecord(text);
    if (!loaded.ok) return { error: loaded.error, refused: true };
    const seen = await views(loaded.game);
    if (seen.error) return { error: seen.error };
    const { vs, phase } = seen;
    const duel = {
      ...newRecord({ id: `import-${(await digest(text.trim())).slice(0, 16)}`, mode, game: loaded.game, names: vs[0].names }),
      seen: { 0: seenOf(vs[0]), 1: seenOf(vs[1]) }, summary: summaryOf(vs[0], phase),
    };
    holder = null;
    store.start({ duel });
    if (phase.kind === 'over') return { screen: 'replay', text: text.trim(), own: 0 };
    return next();
  }

  /** duel() -> the duel in play (the store's record), or null. */
  const duel = () => duelNow();

  return { begin, resume, next, ready, think, submit, keepDraft, rematch, importRecord, duel };
}
