// Kept duels: the page's side of wavinghands.sessions (issue 24, bug 10). A duel's game goes to the
// engine once (session_open: a handle); after that a step sends the handle and the inputs and
// gets back what changed in the game's JSON, and a view comes as what changed since this wizard's
// last one. So a turn costs the same at turn 300 as at turn 5: no call sends, parses or rebuilds
// the whole duel. The game and the views handed back are whole, and equal to what step() and
// view() give for the same game (tests/js/engine-session.test.mjs, tests/test_api_sessions.py).
//
// A game is known by its object: the game this module hands back from a step is remembered with
// its handle (a WeakMap: a game the page lets go is forgotten); any other game (a saved duel
// loaded, a game from a code) is opened first. The engine keeps a bounded number of states: a
// handle it no longer keeps (`unknown-session`) is opened again from the game, once.

// Views kept as the base of the next view's changes: one per wizard of the last few duels.
const VIEWS_KEPT = 12;

/** A wizard's list with its rows before `from` taken from `before` (the rest is `rows`). */
const rejoined = (before, from, rows) => before.slice(0, from).concat(rows);

/**
 * applyGameDelta(game, delta) -> the game JSON after a step: `game` (the JSON before) with the
 * engine's delta applied (sessions.game_delta: the log, the record and each history cut to
 * their new part, from `log_from`, `record_from`, `history_from`).
 */
export function applyGameDelta(game, delta) {
  const { log_from: logFrom, record_from: recordFrom, ...next } = delta;
  next.log = rejoined(game.log, logFrom, delta.log);
  next.record = rejoined(game.record, recordFrom, delta.record);
  next.wizards = rejoinedWizards(game.wizards, delta.wizards);
  return next;
}

function rejoinedWizards(before, wizards) {
  return wizards.map(({ history_from: from, ...wizard }, i) => {
    wizard.history = rejoined(before[i].history, from, wizard.history);
    return wizard;
  });
}

/**
 * applyViewDelta(before, delta) -> the whole view: `delta` itself when it is whole (no
 * `log_keep`), else `before` (the last whole view of this wizard) with it applied; null when a
 * delta comes without the view it changes.
 */
export function applyViewDelta(before, delta) {
  if (!('log_keep' in delta)) return delta;
  if (!before) return null;
  const { log_keep: keep, ...view } = delta;
  view.log = rejoined(before.log, keep, delta.log);
  view.wizards = rejoinedWizards(before.wizards, delta.wizards);
  if (delta.notes) {
    view.notes = Object.fromEntries(Object.entries(delta.notes).map(([key, { rows_from: from, rows, building }]) => {
      const kept = before.notes && before.notes[key] ? before.notes[key].rows : [];
      return [key, { rows: rejoined(kept, from, rows), building }];
    }));
  }
  return view;
}

/**
 * keptDuels(askRaw) -> {step(game, inputs), view(game, wizard), onGame(fn, game, ...jsonArgs)}:
 * web/api.js's calls on a game, by handle. `askRaw(fn, ...jsonStrings)` is api.js's engine call
 * (answers are values). A game that is not an object (a stand-in's) is sent whole, as before.
 */
export function keptDuels(askRaw) {
  const handles = new WeakMap(); // game object -> a promise of session_open's answer for it
  const views = new Map(); // `${seed}/${wizard}` -> {cursor, view}, the newest last

  /** The engine's handle for `game` ({ok, session} or an error answer), opened once (calls in parallel share it). */
  function handleOf(game) {
    if (!handles.has(game)) {
      const opening = askRaw('session_open', JSON.stringify(game));
      handles.set(game, opening);
      opening.then((opened) => opened.ok || handles.delete(game));
    }
    return handles.get(game);
  }

  /** fn(handle, ...jsonArgs) for `game` (its JSON when it cannot be kept); opened again once if the engine let it go. */
  async function onGame(fn, game, ...jsonArgs) {
    if (game === null || typeof game !== 'object') return askRaw(fn, JSON.stringify(game), ...jsonArgs);
    for (let attempt = 0; ; attempt += 1) {
      const opened = await handleOf(game);
      if (!opened.ok) return opened;
      const answer = await askRaw(fn, JSON.stringify(opened.session), ...jsonArgs);
      if (answer.ok || answer.error.code !== 'unknown-session' || attempt > 0) return answer;
      handles.delete(game);
    }
  }

  /** step(game, inputs) -> {ok, game, events}: as api.step, the game rebuilt from what changed. */
  async function step(game, inputs) {
    if (game === null || typeof game !== 'object') return askRaw('step', JSON.stringify(game), JSON.stringify(inputs));
    const answer = await onGame('session_step', game, JSON.stringify(inputs));
    if (!answer.ok) return answer;
    const next = applyGameDelta(game, answer.delta);
    handles.set(next, Promise.resolve({ ok: true, session: answer.session }));
    return { ok: true, game: next, events: answer.events };
  }

  /** view(game, wizard) -> {ok, view}: as api.view, the view rebuilt from what changed since this wizard's last. */
  async function view(game, wizard) {
    if (game === null || typeof game !== 'object') return askRaw('view', JSON.stringify(game), JSON.stringify(wizard));
    const key = `${game.seed}/${wizard}`;
    const last = views.get(key);
    const ask = (cursor) => onGame('session_view', game, JSON.stringify(wizard), JSON.stringify(cursor));
    let answer = await ask(last ? last.cursor : null);
    if (!answer.ok) return answer;
    let whole = applyViewDelta(last ? last.view : null, answer.view);
    if (whole === null) {
      answer = await ask(null);
      if (!answer.ok) return answer;
      whole = answer.view;
    }
    views.delete(key);
    views.set(key, { cursor: answer.cursor, view: whole });
    while (views.size > VIEWS_KEPT) views.delete(views.keys().next().value);
    return { ok: true, view: whole };
  }

  return { step, view, onGame };
}
