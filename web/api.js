// The page's typed face of the rules engine (wavinghands.api, docs/architecture.md). Every rules
// question goes through here and nothing else in web/ calls engine.js, so the JSON-string
// contract is honoured in one place. Results stay values: {ok:true,...} or {ok:false,error}.

import { call, recordedReference, startEngine } from './engine.js';
import { textProblem } from './limits.js';
import { randomHex } from './hex.js';
import { keptDuels } from './engine-session.js';

const json = (value) => JSON.stringify(value);

async function ask(fn, ...args) {
  return askRaw(fn, ...args.map(json));
}

async function askRaw(fn, ...jsonArgs) {
  // Refused here, before the worker parses anything (the engine checks again on its side).
  for (const text of jsonArgs) {
    const problem = textProblem(text);
    if (problem) return { ok: false, error: problem };
  }
  try {
    return await call(fn, ...jsonArgs);
  } catch (err) {
    // The worker died or never started: report it like any engine error, in plain words.
    return { ok: false, error: { code: 'engine-unavailable', message: err && err.message ? err.message : String(err) } };
  }
}

// Calls on a duel's game go by the engine's handle for it, the game sent once (engine-session.js):
// a turn then costs the same however long the duel has lasted.
const kept = keptDuels(askRaw);

/**
 * builtReference() -> Promise of {spells, rulesets, books}: the engine's answers to spells(),
 * rulesets() and spells(ruleset) for every ruleset (books, by name) as build.py recorded them (reference.json, integrity-checked by the worker),
 * available long before the engine itself.  Rejects if they cannot be had.
 */
export async function builtReference() {
  const answers = await recordedReference();
  if (!answers.spells?.ok || !answers.rulesets?.ok) throw new Error("reference.json: not the engine's answers");
  return answers;
}

/** bootEngine(onProgress(stage, fraction, detail)) -> Promise resolving when the engine can answer; rejects with an Error carrying a code (engine.js) the page says. */
export function bootEngine(onProgress) {
  return startEngine(onProgress);
}

/** newGame({names, ruleset, seed}) -> {ok, game}. */
export const newGame = (params) => ask('new_game', params);
/** view(game, wizard) -> {ok, view}: everything that wizard may know. */
export const view = (game, wizard) => kept.view(game, wizard);
/** preview(game, wizard, draft) -> {ok, preview}: what the draft orders would do. */
export const preview = (game, wizard, draft) => kept.onGame('preview', game, json(wizard), json(draft));
/** validate(game, wizard, input) -> {ok, problems:[{code,message,field}]}. */
export const validate = (game, wizard, input) => kept.onGame('validate', game, json(wizard), json(input));
/** step(game, inputs) -> {ok, game, events}: resolves the phase with every actor's input. */
export const step = (game, inputs) => kept.step(game, inputs);
/** spells(ruleset?) -> {ok, spells, forward, reverse, ruleset: {name, title}, ...}: a ruleset's spell table with notation and descriptions (a ruleset object as a game carries it; none: the standard rules). */
export const spells = (ruleset) => (ruleset ? ask('spells', ruleset) : ask('spells'));
/** rulesets() -> {ok, rulesets:[{name, title, description, options:[{key, label, description, default}]}]}: the rules a new game may use, the default first. */
export const rulesets = () => ask('rulesets');
/** exportRecord(game) -> {ok, record}. */
export const exportRecord = (game) => kept.onGame('export_record', game);
/** importRecord(recordText) -> {ok, game}: replays a record given as JSON text (the engine reports bad JSON too). */
export const importRecord = (recordText) => askRaw('import_record', recordText);
/** battle(game, wizard) -> {ok, events, ending, health}: that wizard's battle as data (engine/wavinghands/events.py): the log's steps he was shown, how it ended (null while it goes on), each wizard's health after each turn (null where he was blind). */
export const battle = (game, wizard) => kept.onGame('battle', game, json(wizard));
/** replayStep(recordText, index) -> {ok, step, steps, label, views: [v0, v1], events: {"0": [...], "1": [...]}}: one step of a record's replay. */
export const replayStep = (recordText, index) => askRaw('replay_step', recordText, json(index));
/** aiInput(game, wizard, level?, deadlineMs?) -> {ok, input, cut}: the computer opponent's input for the current phase; level 'novice' | 'fair' | 'strong'; a deadline (milliseconds from when the engine takes the call, a safety net) makes a search that reaches it play its best move so far, with cut true. */
export const aiInput = (game, wizard, level, deadlineMs) => (deadlineMs !== undefined
  ? kept.onGame('ai_input', game, json(wizard), json(level || null), json(deadlineMs))
  : level ? kept.onGame('ai_input', game, json(wizard), json(level)) : kept.onGame('ai_input', game, json(wizard)));
/** aiAdvice(game, wizard) -> {ok, input, gestures, why}: what the strong opponent would write in this wizard's place (the coach). */
export const aiAdvice = (game, wizard) => kept.onGame('ai_advice', game, json(wizard));
/** puzzles({date}) -> {ok, puzzles: [{id, ruleset, kind, title}], today}: the puzzle set and the puzzle of the day for that date ("YYYY-MM-DD"). */
export const puzzles = (params) => ask('puzzles', params);
/** puzzle(id) -> {ok, puzzle: {id, ruleset, kind, title, hints, explain, answer, key, unique, game}, view}: one puzzle and its position as the player sees it. */
export const puzzle = (id) => ask('puzzle', id);
/** puzzleCheck(id, answer) -> {ok, solved, reply, events, missing, extra}: the engine's verdict on an answer (orders, or spell keys for "foresee"). */
export const puzzleCheck = (id, answer) => ask('puzzle_check', id, answer);
/** lessons() -> {ok, lessons: [{id, title, ruleset, try, hint, explain, turns, duel}]}: the guided first duel's lessons in order ("duel": a computer level for a whole duel, else null). */
export const lessons = () => ask('lessons');
/** lesson(id) -> {ok, lesson, game, view}: one lesson and where it starts, as the player sees it. */
export const lesson = (id) => ask('lesson', id);
/** lessonTurn(id, turns) -> {ok, played, done, events, view, passed?, failed?}: the lesson after the player's orders for its first turns (the opponent follows its script); once done, the engine's check. */
export const lessonTurn = (id, turns) => ask('lesson_turn', id, turns);

// Remote play by turn codes (docs/protocol.md, "The browser API"). `session` is the opaque
// session JSON object the page stores; `text` is whatever the player pasted or the link opened.

/** remoteInvite({name, ruleset, base_url}) -> {ok, session, code, link, status}: a new game as host. */
export const remoteInvite = (params) => ask('remote_invite', params);
/** remoteDescribe(text) -> {ok, code: {code, kind, game_id, sender, seq, turn, phase, host?, guest?, ruleset?}}. */
export const remoteDescribe = (text) => ask('remote_describe', text);
/** remoteRouteLive(session|null, text, savedGameIds) -> {ok, route: 'duel'|'invitation', code}: where a code that came live may go; any other duel's code is refused ('other-duel'). */
export const remoteRouteLive = (session, text, saved) => ask('remote_route_live', session, text, saved);
/** remoteAccept(text, name) -> {ok, session, status, invitation: {host, ruleset, game_id}}: joins as guest. */
export const remoteAccept = (text, name) => ask('remote_accept', text, name);
/** remoteSeal(session, input) -> {ok, session, code|null, events, status}: my orders or decisions. */
export const remoteSeal = (session, input) => ask('remote_seal', session, input);
/** remoteReceive(session, text) -> {ok, session, reply|null, events, note, status}: the opponent's code. */
export const remoteReceive = (session, text) => ask('remote_receive', session, text);
/** remoteRelease(session) -> {ok, session, code|null, status}: my owed reveal alone, now (live play). */
export const remoteRelease = (session) => ask('remote_release', session);
/** remoteDraft(session, draft) -> {ok, draftable, view?, preview?}: next turn as foreseen while the code that resolves this one is on its way. */
export const remoteDraft = (session, draft) => ask('remote_draft', session, draft);
/** remoteCarry(session, draft) -> {ok, ready, over, orders, changes, intact, legal}: that draft carried onto the resolved turn. */
export const remoteCarry = (session, draft) => ask('remote_carry', session, draft);
/** remoteStatus(session) -> {ok, status}: what the session waits for, and the last code sent. */
export const remoteStatus = (session) => ask('remote_status', session);
/** remoteLink(code, baseUrl) -> {ok, link}: the code in a link's fragment (#c=...). */
export const remoteLink = (code, baseUrl) => ask('remote_link', code, baseUrl);
/** remoteParse(text) -> {ok, code}: the checked turn code inside a pasted code or link. */
export const remoteParse = (text) => ask('remote_parse', text);

/** freshNonce() -> 32 hex digits of this device's randomness for the turn's dice. */
export function freshNonce() {
  return randomHex(16);
}

// The melee: three to six wizards (engine/wavinghands/api_melee.py; docs/architecture.md).
/** meleeNew({names: [3..6], ruleset, seed}) -> {ok, game, seats}. */
export const meleeNew = (params) => ask('melee_new', params);
/** meleeTable(game, wizard) -> {ok, view, rows, unruly, targets}: that wizard's view, every wizard as a compact row (the viewer's own first), the monsters nobody controls, every being a target may name. */
export const meleeTable = (game, wizard) => kept.onGame('melee_table', game, json(wizard));
/** remoteMeleeInvite({name, seats, ruleset?}) -> {ok, session, codes: [one invitation per guest seat], status, events}. */
export const remoteMeleeInvite = (params) => ask('remote_melee_invite', params);
/** remoteMeleeAccept(invitation, name) -> {ok, session, code: my acceptance, status, events}. */
export const remoteMeleeAccept = (text, name) => ask('remote_melee_accept', text, name);
/** remoteMeleeDescribe(text) -> {ok, codes: [{code, kind, sender, seats, game_id, round, ...}]}: every melee code in a paste. */
export const remoteMeleeDescribe = (text) => ask('remote_melee_describe', text);
/** remoteMeleeSeal(session, input) -> {ok, session, codes: to post, status, events}. */
export const remoteMeleeSeal = (session, input) => ask('remote_melee_seal', session, input);
/** remoteMeleeReceive(session, text) -> {ok, session, codes: what this page now posts, status, events}. */
export const remoteMeleeReceive = (session, text) => ask('remote_melee_receive', session, text);
/** remoteMeleeStatus(session) -> {ok, status, log}. */
export const remoteMeleeStatus = (session) => ask('remote_melee_status', session);
/** remoteMeleeRecord(session) -> {ok, record}: a melee by codes' record as far as it is played. */
export const remoteMeleeRecord = (session) => ask('remote_melee_record', session);
/** remoteMeleeConcede(session, seat) -> {ok, session, codes, status, events}: the others agreed this seat dropped out; every page now plays him (docs/protocol.md, "Live melee"). */
export const remoteMeleeConcede = (session, seat) => ask('remote_melee_concede', session, seat);
