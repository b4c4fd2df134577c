// The saved duel record: ONE shape for every way of playing (hot-seat, computer, codes, live,
// replay), what web/store/store.js keeps in memory and storage.js writes. The engine's own values
// (game, session) are opaque here; this module only says which fields a record has, reads the
// shapes older pages saved (migrate), and derives what lists show (summary, seen marks).
//
// A record (docs/architecture.md, "The store"):
//   {format: 2, id, mode, createdAt, updatedAt,
//    seats: [seat, seat]   'human' | 'computer' | 'remote' for wizards 0 and 1 (a melee: one per
//                          wizard, three to six),
//    levels: [level|null]|null  a melee's computer level per seat (null: a player's seat),
//    me: 0 | 1 | null      the wizard this device plays in a remote duel (null: local, replay),
//    level: string | null  the computer's level,
//    game: object | null   the engine's game (local duels; a remote duel's is inside its session),
//    session: object|null  the engine's turn-code session (codes, live),
//    record: string|null   a replay's record text,
//    pending: {wizard: input}         inputs written this phase, not yet stepped (local),
//    sealed: {turn, gestures} | null  what this device sealed, to remind its player (remote),
//    queued: {turn, kind, input}|null orders sealed ahead of the opponent's code (remote),
//    drafts: {wizard: draft}          unsealed picks kept across a reload,
//    seen: {wizard: {log, rows}}      how much of the log and history each wizard has seen,
//    chat: [{from, text, turn, at}]   a remote duel's chat, newest last,
//    outbox: [{code, kind, seat}]     a melee by codes: the codes this page posts now,
//    summary: {names, turn, phase, over, result, awaiting, title, resultText}}

export const RECORD_FORMAT = 2;
export const MODES = ['hotseat', 'computer', 'codes', 'live', 'replay', 'melee', 'melee-codes'];
// A melee by codes (web/flows/melee-codes.js) holds its session as a remote duel does.
const REMOTE_MODES = new Set(['codes', 'live', 'melee-codes']);
const isSeatOf = (mode, w) => (mode === 'melee-codes' ? Number.isInteger(w) && w >= 0 && w < 6 : isWizard(w));
const SEATS = new Set(['human', 'computer', 'remote']);

/** isRemoteMode(mode) -> whether a duel of that mode is played by turn codes (by hand or live). */
export const isRemoteMode = (mode) => REMOTE_MODES.has(mode);

const isObject = (v) => Boolean(v) && typeof v === 'object' && !Array.isArray(v);
const isWizard = (w) => w === 0 || w === 1;
const NO_SEEN = () => ({ log: 0, rows: [0, 0] });

/** seenOf(view) -> the marks of what a wizard has read: the log's length and each history's. */
export function seenOf(view) {
  return view ? { log: view.log.length, rows: view.wizards.map((w) => w.history.length) } : NO_SEEN();
}

/** resultOf(result) -> a view's result as a summary keeps it: {winner, how} (the engine's), or null. */
export const resultOf = (result) => (result ? { winner: result.winner, how: result.how } : null);

/**
 * summaryOf(view, phase) -> the summary lists show, from a wizard's view and the phase as its
 * actors see it: data only (the screens say it: web/ui/words/common.js, 'duel-title',
 * 'duel-result'); `title` and `resultText` are the words records saved before kept, '' here.
 */
export function summaryOf(view, phase) {
  return {
    title: '', names: view.names, turn: phase.turn, phase: phase.kind,
    over: phase.kind === 'over', result: resultOf(view.result), awaiting: false, resultText: '',
  };
}

/**
 * newRecord({id, mode, seats?, me?, level?, game?, session?, record?, names?, now?}) -> a fresh
 * record with every field present; `names` gives the first summary's title.
 */
export function newRecord({ id, mode, seats = null, me = null, level = null, game = null, session = null, record = null, names = null, now = Date.now() }) {
  const defaultSeats = mode === 'computer' ? ['human', 'computer'] : isRemoteMode(mode) && isWizard(me)
    ? [0, 1].map((w) => (w === me ? 'human' : 'remote')) : ['human', 'human'];
  return {
    format: RECORD_FORMAT, id, mode, createdAt: now, updatedAt: now,
    seats: seats || defaultSeats, levels: null, me: isRemoteMode(mode) ? me : null, level,
    game, session, record,
    pending: {}, sealed: null, queued: null, drafts: {}, seen: { 0: NO_SEEN(), 1: NO_SEEN() }, chat: [], outbox: [],
    summary: { title: '', names: names || [], turn: 1, phase: '', over: false, result: null, awaiting: false, resultText: '' },
  };
}

const damaged = (code, detail) => ({ ok: false, error: { code, detail } });

function seenMark(value) {
  return isObject(value) && Number.isFinite(value.log) && Array.isArray(value.rows) ? { log: value.log, rows: value.rows.slice(0, 6) } : NO_SEEN();
}

function readSummary(summary, names) {
  const s = isObject(summary) ? summary : {};
  const known = Array.isArray(s.names) && s.names.every((n) => typeof n === 'string') ? s.names : names;
  const result = isObject(s.result) && (s.result.winner === null || Number.isInteger(s.result.winner)) ? resultOf(s.result) : null;
  return {
    title: typeof s.title === 'string' ? s.title : '', names: known, turn: Number.isFinite(s.turn) ? s.turn : 1,
    phase: typeof s.phase === 'string' ? s.phase : '', over: s.over === true, result, awaiting: s.awaiting === true,
    resultText: typeof s.resultText === 'string' ? s.resultText : '',
  };
}

/**
 * migrate(raw, id?) -> {ok: true, duel, migrated} or {ok: false, error: {code, detail}}: a saved
 * value of any format this page ever wrote, as a record of today's shape. Format 1 (no `format`
 * field) stored local duels as {id, mode, seats, game, pending, seen: {0: .., 1: ..}, drafts,
 * level, summary} and remote ones as {id, mode, session, seen: {log, rows}, sealed, queued,
 * draft, chat, summary}. Error codes: 'not-a-record' (not an object), 'no-game' (neither game
 * nor session), 'bad-game', 'bad-session', 'bad-mode', 'newer-format' (a later page's record).
 */
export function migrate(raw, id = null) {
  if (!isObject(raw)) return damaged('not-a-record', typeof raw);
  if (Number.isFinite(raw.format) && raw.format > RECORD_FORMAT) return damaged('newer-format', String(raw.format));
  const duelId = typeof raw.id === 'string' && raw.id ? raw.id : id;
  if (!duelId) return damaged('not-a-record', 'no id');
  const hasSession = 'session' in raw && raw.session !== null && raw.session !== undefined;
  const hasGame = 'game' in raw && raw.game !== null && raw.game !== undefined;
  const hasRecord = typeof raw.record === 'string' && raw.record !== '';
  if (!hasSession && !hasGame && !hasRecord) return damaged('no-game', 'neither a game nor a session');
  if (hasGame && !isObject(raw.game)) return damaged('bad-game', typeof raw.game);
  if (hasSession && (!isObject(raw.session) || !isSeatOf(raw.mode, raw.session.me))) return damaged('bad-session', 'no seat');
  const mode = typeof raw.mode === 'string' ? raw.mode : hasSession ? 'codes' : hasRecord ? 'replay' : 'hotseat';
  if (!MODES.includes(mode)) return damaged('bad-mode', mode);
  if (hasSession !== isRemoteMode(mode)) return damaged('bad-mode', `${mode} with${hasSession ? '' : 'out'} a session`);
  const me = hasSession ? raw.session.me : null;
  const names = hasSession && Array.isArray(raw.session.names) ? raw.session.names
    : hasGame && Array.isArray(raw.game.names) ? raw.game.names : [];
  const base = newRecord({ id: duelId, mode, me, names, now: Number.isFinite(raw.createdAt) ? raw.createdAt : 0 });
  const seatCount = mode === 'melee' || mode === 'melee-codes' ? names.length : 2;
  const seats = Array.isArray(raw.seats) && raw.seats.length === seatCount && raw.seats.every((s) => SEATS.has(s)) ? raw.seats : base.seats;
  const levels = Array.isArray(raw.levels) && raw.levels.length === seats.length ? raw.levels : null;
  const seen = { ...base.seen };
  if (isObject(raw.seen) && 'log' in raw.seen && isSeatOf(mode, me)) seen[me] = seenMark(raw.seen); // format 1, remote
  else if (isObject(raw.seen)) for (const w of seats.keys()) if (w in raw.seen) seen[w] = seenMark(raw.seen[w]);
  const drafts = isObject(raw.drafts) ? { ...raw.drafts } : {};
  if (isObject(raw.draft) && isWizard(me)) drafts[me] = raw.draft; // format 1, remote
  const duel = {
    ...base,
    updatedAt: Number.isFinite(raw.updatedAt) ? raw.updatedAt : base.createdAt,
    seats, levels, level: typeof raw.level === 'string' ? raw.level : null,
    game: hasGame ? raw.game : null, session: hasSession ? raw.session : null, record: hasRecord ? raw.record : null,
    pending: isObject(raw.pending) ? raw.pending : {},
    sealed: isObject(raw.sealed) ? raw.sealed : null,
    queued: isObject(raw.queued) ? raw.queued : null,
    drafts, seen,
    chat: Array.isArray(raw.chat) ? raw.chat.filter(isObject) : [],
    outbox: Array.isArray(raw.outbox) ? raw.outbox.filter((o) => isObject(o) && typeof o.code === 'string') : [],
    summary: readSummary(raw.summary, names),
  };
  return { ok: true, duel, migrated: raw.format !== RECORD_FORMAT };
}

/** gameOf(duel) -> the engine's game a record holds (its own, or its session's), or null. */
export function gameOf(duel) {
  return duel.game || (duel.session && duel.session.game) || null;
}
