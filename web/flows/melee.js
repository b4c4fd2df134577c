// The melee on one device: three to six wizards, each seat a player at this device or the
// computer at a level of its own (docs/rules.md, "Melee"). As the duel's local flow
// (web/flows/local.js): the engine decides every rules question; this flow collects each
// actor's input, hands the device round, lets the computers decide once every human has written,
// steps the game, keeps the melee in the store after each move, and answers every intent with
// an outcome, plain data naming the next screen. No DOM, no storage.
//
// Outcomes ({screen, ...}):
//   {screen: 'pass', wizard, name, others, kind}            hand the device to `wizard`
//   {screen: 'orders' | 'decision', wizard, view, rows, unruly, seen, saved}  that wizard writes
//   {screen: 'thinking', wizard, name, level}               a computer decides next (think())
//   {screen: 'over', views, perspectives, rows, unruly}     the melee is over (rows: as the first perspective saw it)
//   {screen: 'fail', code, error}                           `code`: a words key; `error`: the engine's
//   {screen: 'left'}                                        the player left meanwhile
// Outcomes of a melee in play carry `ruleset`.

import { newRecord, resultOf, seenOf } from '../store/record.js';
import { createPhaseSteps } from './phase.js';

export const MELEE_SEATS = { min: 3, max: 6 };
export const COMPUTER_LEVELS = ['novice', 'fair', 'strong'];

const fail = (code, error) => ({ screen: 'fail', code, error });
const seatsOf = (duel) => duel.seats.map((s, i) => ({ human: s === 'human', level: (duel.levels || [])[i] || 'fair' }));

/** meleeSummary(view, phase) -> the saved list's summary of a melee: every name in the title. */
export function meleeSummary(view, phase) {
  const names = view.names;
  return {
    // No title: the screens say it ('duel-title' names every wizard).
    title: '', names, turn: phase.turn, phase: phase.kind, over: phase.kind === 'over',
    result: resultOf(view.result), awaiting: false, resultText: '',
  };
}

/**
 * createMeleeFlow({api, store, engine, deadlineMs, newId}) -> the flow's intents (below). `api`
 * is web/api.js (or a stand-in), `store` web/store/store.js's, `engine` the engine's boot promise,
 * `newId()` a fresh id.
 */
export function createMeleeFlow({ api, store, engine, deadlineMs, newId }) {
  let holder = null; // the wizard holding the device (one hand-over per wizard per phase)
  // The last game's tables: think() reads the phase from those next() read for the thinking
  // screen (a game is a value: a step makes a new one), not from all N tables asked again.
  let lastTables = { game: null, seen: null };
  const { duelNow, stillPlaying, engineDown, reopen, where, decide, step, submit, keepDraft } = createPhaseSteps({ api, store, engine, next: () => next(), deadlineMs });

  /** Every wizard's table (view, rows, unruly), and the phase as its actors see it. */
  async function tables(game, count) {
    const all = await Promise.all([...Array(count).keys()].map((w) => api.meleeTable(game, w)));
    const bad = all.find((r) => !r.ok);
    if (bad) return { error: bad.error };
    const vs = all.map((r) => r.view);
    const seen = { all, vs, phase: (vs.find((v) => v.phase.kind !== 'waiting') || vs[0]).phase };
    lastTables = { game, seen };
    return seen;
  }

  /**
   * begin({names, ruleset, seats: [{human, level}]}) -> Promise of an outcome, or {error} for the
   * start screen. Three to six seats; the first is always a player at this device.
   */
  async function begin({ names, ruleset, seats }) {
    if (names.length < MELEE_SEATS.min || names.length > MELEE_SEATS.max || seats.length !== names.length) {
      return { error: { code: 'melee-size', message: '' } };
    }
    const down = await engineDown();
    if (down) return { error: down };
    const created = await api.meleeNew({ names, ruleset, seed: api.freshNonce() + api.freshNonce() });
    if (!created.ok) return { error: created.error };
    holder = null;
    const duel = newRecord({
      id: newId(), mode: 'melee', seats: seats.map((s) => (s.human ? 'human' : 'computer')), game: created.game, names,
    });
    const seen = Object.fromEntries(names.map((_, i) => [i, seenOf(null)]));
    store.start({ duel: { ...duel, levels: seats.map((s) => (s.human ? null : s.level)), seen } });
    return next();
  }

  /** resume(id) -> Promise of an outcome: a saved melee taken up where it stood. */
  async function resume(id) {
    holder = null;
    return (await reopen(id)) || next();
  }

  /** next() -> Promise of an outcome: where the game stands, and what comes next. */
  async function next() {
    const at = await where((duel) => tables(duel.game, duel.seats.length), ({ vs, phase }) => meleeSummary(vs[0], phase));
    if (at.outcome) return at.outcome;
    const { duel, seen: { all, vs, phase } } = at;
    const ruleset = vs[0].ruleset;
    const seats = seatsOf(duel);
    if (phase.kind === 'over') {
      const humans = seats.map((s, i) => (s.human ? i : -1)).filter((i) => i >= 0);
      const perspectives = humans.length ? humans : [0];
      return { screen: 'over', views: vs, perspectives, rows: all[perspectives[0]].rows, unruly: all[perspectives[0]].unruly, ruleset };
    }
    const waiting = phase.actors.filter((w) => !(String(w) in duel.pending));
    const humans = waiting.filter((w) => seats[w].human);
    if (!humans.length) {
      const computer = waiting.find((w) => !seats[w].human);
      if (computer === undefined) return step();
      return { screen: 'thinking', wizard: computer, name: vs[computer].names[computer], level: seats[computer].level, ruleset };
    }
    const wizard = humans.includes(holder) ? holder : humans[0];
    if (seats.filter((s) => s.human).length > 1 && holder !== wizard) {
      const others = vs[wizard].names.filter((_, i) => i !== wizard && seats[i].human);
      return { screen: 'pass', wizard, name: vs[wizard].names[wizard], others, kind: phase.hasted ? 'hasted' : phase.kind, ruleset };
    }
    holder = wizard;
    const kept = duel.drafts[String(wizard)];
    const view = vs[wizard];
    const saved = kept && kept.kind === view.phase.kind && kept.turn === view.phase.turn ? kept.draft : null;
    return {
      screen: view.phase.kind === 'decision' ? 'decision' : 'orders', wizard, view, rows: all[wizard].rows,
      unruly: all[wizard].unruly, seen: duel.seen[wizard] || seenOf(null), saved, ruleset,
    };
  }

  /** ready(wizard) -> Promise of an outcome: the wizard the device was passed to holds it. */
  async function ready(wizard) {
    holder = wizard;
    return next();
  }

  /** think() -> Promise of an outcome: every computer actor decides (seeing its own view only), then the phase goes on. */
  async function think() {
    const duel = duelNow();
    if (!duel) return { screen: 'left' };
    const seen = lastTables.game === duel.game ? lastTables.seen : await tables(duel.game, duel.seats.length);
    if (!stillPlaying(duel)) return { screen: 'left' };
    if (seen.error) return fail('computer-failed', seen.error);
    const seats = seatsOf(duel);
    return decide(duel, seen.phase.actors.filter((w) => !seats[w].human), (w) => seats[w].level);
  }

  /** rematch(views) -> Promise of an outcome or {error}: the same wizards, seats and rules again. */
  function rematch(vs) {
    const duel = duelNow();
    return begin({ names: vs[0].names, ruleset: vs[0].ruleset, seats: seatsOf(duel) });
  }

  /** duel() -> the melee in play (the store's record), or null. */
  const duel = () => duelNow();

  return { begin, resume, next, ready, think, submit, keepDraft, rematch, duel };
}
