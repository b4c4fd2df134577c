// A melee by codes (docs/protocol.md, "Melee" and "The melee by codes on the page"): three to six
// players, each on his own device, the codes posted to the group's own chat. The host's page
// writes one invitation per guest seat; each friend accepts his and posts the acceptance; once a
// page holds every acceptance the game starts there. Every phase is a round of two codes per
// player (a commitment, then a reveal the page writes by itself once every commitment is in),
// and one paste may carry every code of the chat. The engine (api.remoteMelee*) decides every
// step; this flow keeps the melee in the store (mode 'melee-codes', the session in `session`,
// the codes to post in `outbox`), saves before any code is shown, keeps the player's unsealed
// picks (`drafts`) across every arriving code, and answers each intent with an outcome. No DOM,
// no storage of its own.
//
// Codes travel through a transport (web/transport/transport.js's interface): `transportFor(duel)`
// gives one; by hand (the default) `send` only marks the code to show, and what the player
// pastes comes in through receive(text); a live transport's onReceive feeds receive() too.
//
// Outcome: {screen: 'melee-codes', duel, status, outbox, table, saved, sealed, seen, ruleset,
//   error?, done?} where `sealed` {turn, gestures} is what I sealed this turn (or null), `status` is the engine's melee_status, `outbox` [{code, kind, seat}] the codes to
//   post now, `table` {view, rows, unruly} once the game started (else null), `saved` the
//   draft kept for this phase, `error` {code, message} a keyed error (nothing was lost), `done`
//   a words key for what the last paste did. Or {screen: 'left'} | {screen: 'fail', code, error}.

import { newRecord, seenOf } from '../store/record.js';
import { meleeSummary } from './melee.js';

export const MELEE_CODES_MODE = 'melee-codes';
const duelIdOf = (session) => `melee-${session.game_id}-${session.me}`;

/** lobbySummary(status) -> the saved list's summary of a melee not yet started. */
function lobbySummary(status) {
  const names = status.names.map((n) => n || ''); // ('' for a seat not taken yet: 'duel-title' says it)
  return { title: '', names, turn: 0, phase: 'lobby', over: false, resultText: '' };
}

/**
 * createMeleeCodesFlow({api, store, transportFor?}) -> the flow's intents: host, join, resume,
 * next, seal, receive, keepDraft, close, duel. `api` is web/api.js (or a stand-in), `store`
 * web/store/store.js's; transportFor(duel) -> a transport (send/onReceive/status/close) or null
 * (by hand: the outbox is shown to be copied). onArrive(outcome) is told what a transport's code did.
 */
export function createMeleeCodesFlow({ api, store, transportFor = () => null, onArrive = () => {} }) {
  let transport = null;
  let unsubscribe = null;
  // The session's game as one object per state: api.meleeTable goes by the engine's handle for
  // that object (web/engine-session.js), so the same state read again is not sent and opened again.
  let game = { text: null, value: null };
  const duelNow = () => store.getState().duel;
  const fail = (code, error) => ({ screen: 'fail', code, error });

  function attach(duel) {
    if (transport && transport.duelId === duel.id) return;
    close();
    transport = transportFor(duel);
    if (transport) unsubscribe = transport.onReceive((text) => queued.receive(text).then(onArrive));
  }

  /** close() lets the melee's transport go (a new melee, or home). */
  function close() {
    if (unsubscribe) unsubscribe();
    if (transport) transport.close();
    transport = null;
    unsubscribe = null;
  }

  // The codes an engine call made, described (kind, seat) for the outbox.
  async function described(codes) {
    if (!codes.length) return [];
    const d = await api.remoteMeleeDescribe(codes.join('\n'));
    if (!d.ok) return codes.map((code) => ({ code, kind: 'code', seat: null }));
    return d.codes.map((c) => ({ code: c.code, kind: c.kind, seat: c.kind === 'invite' ? c.seat : c.sender }));
  }

  // The summary lists show, from the engine's status.
  const summaryOf = (status) => (status.started && status.view ? meleeSummary(status.view, status.phase || status.view.phase) : lobbySummary(status));

  /** host({name, seats, ruleset}) -> Promise of an outcome, or {error}: a new melee as its host (seat 1). */
  async function host({ name, seats, ruleset }) {
    const made = await api.remoteMeleeInvite({ name, seats, ruleset });
    if (!made.ok) return { error: made.error };
    return begin(made.session, made.status, made.codes);
  }

  /**
   * join({text, name}) -> Promise of an outcome, or {error}: a guest's seat from the one
   * invitation in `text` (a paste with several asks for the player's own only).
   */
  async function join({ text, name }) {
    const d = await api.remoteMeleeDescribe(text);
    if (!d.ok) return { error: d.error };
    const invitations = d.codes.filter((c) => c.kind === 'invite');
    if (!invitations.length) return { error: { code: 'melee-not-invitation', message: '' } };
    if (invitations.length > 1) return { error: { code: 'melee-one-invitation', message: '', seats: invitations.map((c) => c.seat + 1) } };
    const r = await api.remoteMeleeAccept(invitations[0].code, name);
    if (!r.ok) return { error: r.error };
    return begin(r.session, r.status, [r.code]);
  }

  async function begin(session, status, codes) {
    const outbox = await described(codes);
    const id = duelIdOf(session);
    const duel = {
      ...newRecord({ id, mode: MELEE_CODES_MODE, me: session.me, session, names: status.names }),
      seats: status.names.map((_, i) => (i === session.me ? 'human' : 'remote')),
      seen: Object.fromEntries(status.names.map((_, i) => [i, seenOf(null)])),
      outbox, summary: summaryOf(status),
    };
    if (!store.start({ duel })) return { error: { code: 'melee-storage', message: '' } };
    attach(duel);
    send(outbox);
    return next();
  }

  const send = (outbox) => { if (transport) outbox.forEach((o) => transport.send(o.code)); };

  /** resume(id) -> Promise of an outcome: a saved melee by codes taken up where it stood. */
  async function resume(id) {
    const opened = store.getState().duel && store.getState().duel.id === id ? { ok: true } : store.open({ id });
    if (!opened.ok) return fail('saved-unreadable', { code: opened.error.code, message: '' });
    attach(duelNow());
    return next();
  }

  // The melee's table as my page lays it out (the view with notes, rows, unruly), once started.
  async function tableOf(duel, status) {
    if (!status.started) return { table: null };
    if (game.text !== duel.session.game) game = { text: duel.session.game, value: JSON.parse(duel.session.game) };
    const t = await api.meleeTable(game.value, duel.session.me);
    if (!t.ok) return { error: t.error };
    return { table: { view: t.view, rows: t.rows, unruly: t.unruly } };
  }

  /**
   * next(extra) -> Promise of an outcome: where the melee stands. A participant who does not act
   * in this phase seals his bare dice share by himself (his commitment goes to the outbox).
   */
  async function next(extra = {}) {
    const duel = duelNow();
    if (!duel || duel.mode !== MELEE_CODES_MODE) return { screen: 'left' };
    const s = await api.remoteMeleeStatus(duel.session);
    if (!s.ok) return fail('saved-unreadable', s.error);
    const status = s.status;
    const participating = status.started && !status.over && status.waiting_for.includes(status.me) && !status.sealed;
    if (participating && !status.to_act) return sealInput({}, null, extra);
    const t = await tableOf(duel, status);
    if (t.error) return fail('saved-unreadable', t.error);
    const now = duelNow();
    if (!now || now.id !== duel.id) return { screen: 'left' };
    const summary = summaryOf(status);
    if (JSON.stringify(summary) !== JSON.stringify(now.summary)) store.keep({ changes: { summary } });
    const kept = now.drafts[String(status.me)];
    const phase = status.phase;
    const saved = kept && phase && kept.kind === phase.kind && kept.turn === phase.turn ? kept.draft : null;
    return {
      screen: 'melee-codes', duel: duelNow(), status, outbox: now.outbox || [], table: t.table, saved,
      sealed: now.sealed && phase && now.sealed.turn === phase.turn && status.sealed ? now.sealed : null,
      seen: now.seen[status.me] || seenOf(null), ruleset: status.view ? status.view.ruleset : null, ...extra,
    };
  }

  // Seals an input (orders, answers, or {} as a bare dice share), saved before its codes show.
  async function sealInput(input, view, extra = {}) {
    const duel = duelNow();
    const r = await api.remoteMeleeSeal(duel.session, input);
    if (!r.ok) return { problems: [{ code: r.error.code, field: '', message: r.error.message }] };
    const outbox = await described(r.codes);
    const drafts = { ...duel.drafts };
    delete drafts[String(duel.session.me)];
    const seen = view ? { ...duel.seen, [duel.session.me]: seenOf(view) } : duel.seen;
    // What this player sealed, to remind him while the others' codes come.
    const sealed = view && input.gestures ? { turn: view.phase.turn, gestures: input.gestures } : duel.sealed;
    if (!store.commit({ changes: { session: r.session, outbox, drafts, seen, sealed } })) {
      return next({ error: { code: 'melee-storage', message: '' } });
    }
    send(outbox);
    return next({ ...extra, events: r.events });
  }

  /**
   * seal(input, view) -> Promise of {problems} (refused: each {code, field, message}; nothing
   * sealed) or {problems: [], next: outcome}: my orders or answers for the phase under way.
   */
  async function seal(input, view) {
    const duel = duelNow();
    if (!duel) return { problems: [], next: { screen: 'left' } };
    const checked = await api.validate(JSON.parse(duel.session.game), duel.session.me, input);
    if (!checked.ok) return { problems: [{ code: checked.error.code, field: '', message: checked.error.message }] };
    if (checked.problems.length) return { problems: checked.problems };
    const out = await sealInput(input, view);
    return out.problems ? out : { problems: [], next: out };
  }

  /**
   * receive(text) -> Promise of an outcome: every code a paste holds applied, all or nothing, and
   * saved; a bad, mangled or foreign code is the outcome's keyed `error` and changes nothing (the
   * player's picks included). My reveal, written by itself, goes to the outbox.
   */
  async function receive(text) {
    const duel = duelNow();
    if (!duel || duel.mode !== MELEE_CODES_MODE) return { screen: 'left' };
    const r = await api.remoteMeleeReceive(duel.session, text);
    if (!r.ok) return next({ error: r.error });
    const before = duel.session;
    const outbox = r.codes.length ? await described(r.codes) : duel.outbox;
    const resolved = r.session.round > before.round;
    // Once the game starts or a round resolves, what was posted before is no longer asked for.
    const moved = resolved || (r.status.started && !before.game);
    const changes = { session: r.session, outbox: moved && !r.codes.length ? [] : outbox };
    if (!store.commit({ changes })) return next({ error: { code: 'melee-storage', message: '' } });
    send(r.codes.length ? outbox : []);
    const joined = r.status.names.filter(Boolean).length > before.names.filter(Boolean).length;
    const done = resolved ? 'melee-done-resolved' : r.codes.length ? 'melee-done-reveal'
      : moved ? 'melee-done-started' : joined ? 'melee-done-joined' : 'melee-done-noted';
    return next({ done, events: r.events });
  }

  /**
   * concede(seat) -> Promise of an outcome: the others agreed (live: every other wizard signed it,
   * flows/melee-live.js) that this seat dropped out; every page now plays him (api.remoteMeleeConcede).
   */
  async function concede(seat) {
    const duel = duelNow();
    if (!duel || duel.mode !== MELEE_CODES_MODE) return { screen: 'left' };
    const r = await api.remoteMeleeConcede(duel.session, seat);
    if (!r.ok) return next({ error: r.error });
    const outbox = r.codes.length ? await described(r.codes) : duel.outbox;
    if (!store.commit({ changes: { session: r.session, outbox } })) return next({ error: { code: 'melee-storage', message: '' } });
    send(r.codes.length ? outbox : []);
    return next({ events: r.events });
  }

  /** keepDraft(view, draft) keeps my unsealed picks for this phase (a reload and every arriving code keep them). */
  function keepDraft(view, draft) {
    store.draft({ wizard: view.wizard, draft: { kind: view.phase.kind, turn: view.phase.turn, draft } });
  }

  /** record() -> Promise of {ok, record} : the melee's record as far as it is played. */
  const record = () => api.remoteMeleeRecord(duelNow().session);

  /** duel() -> the melee in play (the store's record), or null. */
  const duel = () => duelNow();

  // The intents that read and write the melee run one at a time: a live transport's codes arrive
  // while the player seals, and each would otherwise write over the session the other read.
  let queue = Promise.resolve();
  const serial = (fn) => (...args) => {
    const run = queue.then(() => fn(...args));
    queue = run.catch(() => {});
    return run;
  };
  const queued = { resume: serial(resume), next: serial(next), seal: serial(seal), receive: serial(receive), concede: serial(concede) };

  return { host, join, ...queued, keepDraft, record, close, duel };
}
