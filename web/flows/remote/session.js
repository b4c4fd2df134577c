// The remote session flow (docs/protocol.md): begin, accept, seal, seal ahead, receive, and the
// live early release, on one remote duel record. No DOM, no storage, no transport: the engine
// client (`api`, web/api.js's remote_* calls) and `save(duel) -> bool` (the store's all-or-nothing
// save) are given; every step returns an outcome value, and the codes it lists in `send` may go
// out only because the duel that holds them was saved first ("Store the session before showing
// the code"). A refused save leaves the duel as it was: nothing in `send`, an error
// {code: 'storage-full', again} saying what the player does once there is room.
//
// The remote duel record: {id, mode: 'codes'|'live', session, seen, createdAt, summary, sealed,
// queued, draft, chat}: `sealed` what this player sealed (a reminder while waiting), `queued`
// orders sealed ahead (live, kept here until the opponent's commitment arrives), `draft` the next
// turn drafted while a code travels (drafts.js).

import { carryDraft } from './drafts.js';
import { newRecord } from '../../store/record.js';
import { draftOf, duelIdOf, summarize, withDraft, withSeen } from './record.js';

export { seenOf, summarize } from './record.js';

const refused = (duel, again) => ({ ok: false, duel, error: { code: 'storage-full', again } });
const failed = (duel, error) => ({ ok: false, duel, error });

/**
 * createSessionFlow({api, save, now}) -> the session steps, each async, each returning an
 * outcome {ok, duel, status?, send: [codes], ...} or {ok: false, duel (unchanged), error}.
 * `live`: a live connection carries this duel now (the early release goes only then).
 */
export function createSessionFlow({ api, save, now = () => Date.now() }) {
  // The duel with its summary, saved; null when the browser refused.
  function stored(duel, status) {
    const next = { ...duel, summary: summarize(duel.session, status) };
    return save(next) ? next : null;
  }

  // A new remote duel: the store's one record shape (web/store/record.js).
  const remoteRecord = (mode, session) => newRecord({ id: duelIdOf(session), mode, me: session.me, session, names: session.names, now: now() });

  // The duel with the session an engine call returned, saved before any of its codes goes out.
  const kept = (duel, session, status) => stored({ ...duel, session }, status);

  /** release(duel, status, {live}) -> my owed reveal alone, now, when live (docs/protocol.md, "Both choose at the same time"). */
  async function release(duel, status, { live }) {
    const same = { ok: true, duel, status, send: [] };
    if (!status.release || !live) return same;
    const r = await api.remoteRelease(duel.session);
    if (!r.ok || !r.code) return same;
    const next = kept(duel, r.session, r.status);
    // Not stored, so not released: the reveal stays owed and goes with this side's next code.
    if (!next) return { ...same, warning: { code: 'storage-full', again: 'carry-on' } };
    return { ok: true, duel: next, status: r.status, send: [r.code] };
  }

  // Orders sealed ahead meet the commitment that just arrived: sealed now, in plain. Returns
  // null when there is nothing to seal (or the orders no longer fit: they stay on the form).
  async function sealQueued(duel, status, { live }) {
    const q = duel.queued;
    if (!q || status.state !== 'your_input' || status.turn !== q.turn || status.need !== q.kind) return null;
    const r = await api.remoteSeal(duel.session, q.input);
    if (!r.ok) return { ok: true, duel: { ...duel, queued: null }, status, send: [], code: null };
    const sealed = q.input.gestures ? { turn: q.turn, gestures: q.input.gestures } : null;
    const next = kept({ ...duel, queued: null, sealed }, r.session, r.status);
    // The orders stay queued, as stored; the screen asks for them again.
    if (!next) return { ok: true, duel, status, send: [], code: null, warning: { code: 'storage-full', again: 'seal-again' } };
    const after = await release(next, r.status, { live });
    return { ...after, send: [r.code, ...after.send], code: r.code };
  }

  return {
    release,

    /** begin({mode, name, ruleset, baseUrl}) -> {ok, duel, status, code}: a new duel as host, saved. */
    async begin({ mode, name, ruleset, baseUrl }) {
      const made = await api.remoteInvite({ name, ruleset, base_url: baseUrl });
      if (!made.ok) return failed(null, made.error);
      const duel = stored(remoteRecord(mode, made.session), made.status);
      if (!duel) return refused(null, 'begin');
      return { ok: true, duel, status: made.status, code: made.code, send: [made.code] };
    },

    /** accept({text, name, viaLive}) -> {ok, duel, status, invitation}: the guest's duel, saved. */
    async accept({ text, name, viaLive = false }) {
      const r = await api.remoteAccept(text, name);
      if (!r.ok) return failed(null, r.error);
      const duel = stored(remoteRecord(viaLive ? 'live' : 'codes', r.session), r.status);
      if (!duel) return refused(null, 'accept');
      return { ok: true, duel, status: r.status, invitation: r.invitation, send: [] };
    },

    /**
     * seal(duel, input, {view, live}) -> {ok, duel, status, send, say} or {ok: false, problems}:
     * my input for the phase under way; then the early release (live) and a draft carried on.
     * say: 'noted' when no code was made (the answer travels with the next one).
     */
    async seal(duel, input, { view, live }) {
      const r = await api.remoteSeal(duel.session, input);
      if (!r.ok) return { ...failed(duel, r.error), problems: r.error.problems || [] };
      const draft = draftOf(duel);
      const spent = input.gestures && draft && (draft.carried || draft.writing);
      const next = kept({
        ...withDraft(withSeen(duel, view), spent ? null : draft),
        // The page's own memory of what this player sealed, to remind them while they wait.
        sealed: input.gestures ? { turn: view.phase.turn, gestures: input.gestures } : null,
      }, r.session, r.status);
      if (!next) return refused(duel, 'seal');
      const send = r.code ? [r.code] : [];
      let out = await release(next, r.status, { live });
      send.push(...out.send);
      // A decision answered: the next orders may be those drafted while waiting.
      const early = await carryDraft(api, save, out.duel, out.status, { live, release });
      if (early) {
        send.push(...early.send);
        out = early;
      }
      // Nothing went (the answer waits for the next code): say so. Live, a decision goes at once.
      const say = send.length ? null : 'noted';
      return { ok: true, duel: out.duel, status: out.status, send, say, warning: out.warning || null };
    },

    /**
     * sealAhead(duel, input, {view}) -> {ok, duel, status} or {ok: false, problems}: orders
     * written while the opponent's commitment is on its way (live), kept in this browser only
     * until it arrives (then receive seals them).
     */
    async sealAhead(duel, input, { view }) {
      const checked = await api.validate(duel.session.game, duel.session.me, input);
      if (!checked.ok) return { ...failed(duel, checked.error), problems: [] };
      if (checked.problems.length) return { ok: false, duel, problems: checked.problems };
      const r = await api.remoteStatus(duel.session);
      if (!r.ok) return { ...failed(duel, r.error), problems: [] };
      const next = stored({ ...withSeen(duel, view), queued: { turn: view.phase.turn, kind: view.phase.kind, input } }, r.status);
      if (!next) return refused(duel, 'seal');
      return { ok: true, duel: next, status: r.status, send: [], say: 'queued' };
    },

    /**
     * receive(duel, text, {live}) -> {ok, duel, status, send, note, reply, early} or {ok: false,
     * error}: the opponent's code applied and saved, then what follows by itself: the automatic
     * reply, the early release (live), orders sealed ahead, a draft carried (and sealed early).
     * A code that cannot be saved is not applied: error storage-full, again 'apply'.
     */
    async receive(duel, text, { live }) {
      const r = await api.remoteReceive(duel.session, text);
      if (!r.ok) return failed(duel, r.error);
      const next = kept(duel, r.session, r.status);
      if (!next) return refused(duel, 'apply');
      const send = r.reply ? [r.reply] : [];
      let out = await release(next, r.status, { live });
      send.push(...out.send);
      const queued = await sealQueued(out.duel, out.status, { live });
      if (queued) {
        send.push(...queued.send);
        out = queued;
      }
      const early = queued ? null : await carryDraft(api, save, out.duel, out.status, { live, release });
      if (early) {
        send.push(...early.send);
        out = early;
      }
      const reply = r.reply || (queued && queued.code) || (early && early.code) || null;
      return {
        ok: true, duel: out.duel, status: out.status, send, note: r.note || '', reply,
        early: early && early.code ? early.turn : null, warning: out.warning || null,
      };
    },

    /** status(duel) -> {ok, status}: the session's status (what the screens draw). */
    async status(duel) {
      return api.remoteStatus(duel.session);
    },
  };
}
