// Drafting the next turn while a code travels (docs/protocol.md, "Drafting while a code
// travels"), on the remote duel record's `draft` = {turn, form, orders, sealed, carried,
// wasSealed, over, changes}: `form` is the orders form's own draft, `orders` the same as orders
// JSON; `sealed` marks orders sealed early; `carried` a draft the engine has carried onto the
// resolved turn, with the `changes` its result made. Nothing of it is ever sent before the turn
// resolves and it is sealed as usual. No DOM, no storage: `api` and `save(duel) -> bool` are given.

import { draftOf, summarize, withDraft } from './record.js';

const touchedOrders = (orders) => Boolean(orders && (orders.gestures || []).some((pair) => pair.some(Boolean)));

/**
 * keepDraft(duel, turn, form, orders) -> the duel with the form's draft for `turn`, or null when
 * nothing changes (an untouched form is no draft; a draft the engine carried is the real form's now).
 */
export function keepDraft(duel, turn, form, orders) {
  const draft = draftOf(duel);
  const before = draft && draft.turn === turn ? draft : {};
  const touched = touchedOrders(orders);
  if (before.carried || (!touched && !before.turn)) return null;
  return withDraft(duel, touched ? { ...before, turn, form, orders, sealed: false } : null);
}

/** keepCarried(duel, turn, form, orders) -> the duel with the carried draft as now on the form, or null (no carried draft of that turn). */
export function keepCarried(duel, turn, form, orders) {
  const draft = draftOf(duel);
  if (!draft || !draft.carried || draft.turn !== turn) return null;
  return withDraft(duel, { ...draft, form, orders });
}

/**
 * keepWriting(duel, turn, form, orders) -> the duel with the orders being written for `turn`,
 * the turn in play, kept as a draft marked `writing` (so that a reload puts them back on the
 * form), or null when nothing changes (an untouched form, or a carried draft: keepCarried's).
 * Sealing the orders drops it; it is never carried or sent (carryDraft, draftable pass it by).
 */
export function keepWriting(duel, turn, form, orders) {
  const draft = draftOf(duel);
  if (draft && draft.carried && draft.turn === turn) return null;
  const touched = touchedOrders(orders);
  if (!touched && !(draft && draft.writing)) return null;
  return withDraft(duel, touched ? { turn, form, orders, writing: true } : null);
}

/** writingOf(duel, turn) -> the form of the orders kept as being written for `turn`, or null. */
export function writingOf(duel, turn) {
  const draft = draftOf(duel);
  return draft && draft.writing && draft.turn === turn ? draft.form || null : null;
}

/** unsealEarly(duel) -> the duel with its orders sealed early back on the form, or null (none). */
export function unsealEarly(duel) {
  const draft = draftOf(duel);
  return draft ? withDraft(duel, { ...draft, sealed: false }) : null;
}

/**
 * sealEarly(api, duel, turn, orders) -> {ok, duel} (the draft marked sealed, not yet saved) or
 * {ok: false, problems}: checked against the turn as foreseen; the real check comes when the
 * code has resolved it. Problem 'moved-on': the turn is no longer drafted (the code came).
 */
export async function sealEarly(api, duel, turn, orders) {
  const r = await api.remoteDraft(duel.session, orders);
  if (!r.ok) return { ok: false, problems: [{ code: r.error.code, field: '', message: r.error.message }] };
  if (!r.draftable) return { ok: false, problems: [{ code: 'moved-on', field: '' }] };
  if (r.preview.problems.length) return { ok: false, problems: r.preview.problems };
  const draft = draftOf(duel);
  const before = draft && draft.turn === turn ? draft : {};
  return { ok: true, duel: withDraft(duel, { ...before, turn, orders, sealed: true }) };
}

/**
 * draftable(api, duel, status, {live}) -> {view} of the next turn as this player can foresee it
 * while waiting, by codes, for the code that resolves the turn sealed (or of turn 1 while the
 * host's invitation is out); null when there is no draft to write (live the codes travel by
 * themselves; orders sealed early wait as they are).
 */
export async function draftable(api, duel, status, { live, view }) {
  const draft = draftOf(duel);
  const waits = (status.state === 'awaiting_accept' && duel.mode === 'codes') || (status.state === 'waiting' && view);
  if (!waits || status.ahead || live || (draft && draft.sealed)) return null;
  const r = await api.remoteDraft(duel.session, (draft && !draft.carried && !draft.writing && draft.orders) || {});
  return r.ok && r.draftable ? { view: r.view } : null;
}

/**
 * carryDraft(api, save, duel, status, {live, release}) -> null (no draft to carry now) or
 * {duel, status, send, code, turn}: the resolved turn meets the draft; the engine carries it
 * (remote_carry) and says what the result changed. Orders sealed early are sealed at once when
 * nothing changed and they are complete (`code`, `send`); otherwise the draft waits on the real
 * form with the changes beside it. A decision first keeps the draft for after it.
 */
export async function carryDraft(api, save, duel, status, { live, release }) {
  const d = draftOf(duel);
  if (!d || d.carried || d.writing) return null;
  const ordersNow = status.state === 'your_input' && (status.need === 'orders' || status.need === 'time_stop');
  if (status.state !== 'over' && !ordersNow) return null;
  const r = await api.remoteCarry(duel.session, d.orders || {});
  if (!r.ok || (!r.ready && !r.over)) return null;
  const same = { ok: true, status, send: [], code: null, turn: status.turn };
  if (r.over) {
    const next = withDraft(duel, { turn: d.turn, carried: true, over: true, changes: r.changes });
    return { ...same, duel: save(next) ? next : duel };
  }
  let warning = null;
  if (d.sealed && r.intact && r.legal) {
    const sealed = await api.remoteSeal(duel.session, r.orders);
    if (sealed.ok) {
      const next = withDraft({
        ...duel, session: sealed.session, summary: summarize(sealed.session, sealed.status),
        sealed: { turn: status.turn, gestures: r.orders.gestures },
      }, null);
      if (save(next)) {
        const after = await release(next, sealed.status, { live });
        return { ...after, send: [sealed.code, ...after.send], code: sealed.code, turn: status.turn };
      }
      // Not stored, so not sent: the orders wait on the form, to be sealed once there is room.
      warning = { code: 'storage-full', again: 'seal-again' };
    }
  }
  // The form's draft is made from `orders` by the screen (web/ui/orders' draftFromOrders).
  const next = withDraft(duel, { turn: status.turn, carried: true, wasSealed: Boolean(d.sealed), changes: r.changes, orders: r.orders });
  return { ...same, duel: save(next) ? next : duel, warning };
}
