// The orders draft: one wizard's unsealed orders as a model, apart from the form that draws it
// (form.js). It holds the picks (gestures, spell choices, targets, answers), turns them into the
// orders JSON the engine reads (only answers to questions the engine still asks count), asks the
// engine for a preview of each new draft (an older answer never overwrites a newer one), keeps
// the problems of the last seal, and says what sealing needs first: every hand chosen, and a
// second press for orders the engine warns about. No DOM: Node tests drive it (tests/js/).

import { GESTURES } from '../gesturepad.js';
import { say } from '../words/index.js';

const GESTURE_CODES = new Set(GESTURES.map((g) => g.code));

/**
 * draftFromOrders(orders) -> a saved draft (the shape onDraft gives) holding these orders JSON (a
 * hand may be null: not chosen yet), for createOrders' `saved`: e.g. orders the engine carried
 * onto a new turn (remote play, a draft written while waiting for a code).
 */
export function draftFromOrders(orders) {
  const gestures = (orders.gestures || []).map((pair) => [pair[0] || null, pair[1] || null]);
  const flags = { bank: null, permanent: null };
  const casts = (orders.casts || []).map((c) => {
    const set = c.set || 0;
    for (const flag of ['bank', 'permanent']) if (c[flag]) flags[flag] = { set, hand: c.hand, spell: c.spell };
    return [`${set}:${c.hand}`, c.target ? { spell: c.spell, target: c.target } : { spell: c.spell }];
  });
  const stabs = Array.isArray(orders.stab) ? orders.stab : [orders.stab || null];
  // A monster being summoned is answered for the summons its hand casts (see ordersJson).
  const spellOf = (id) => {
    const [, , hand, set] = id.split(':');
    const cast = (orders.casts || []).find((c) => c.hand === hand && (c.set || 0) === Number(set || 0));
    return cast ? cast.spell : undefined;
  };
  const monsters = Object.fromEntries(Object.entries(orders.monsters || {})
    .map(([id, target]) => [id, { target, spell: id.startsWith('new:') ? spellOf(id) : undefined }]));
  const charm = orders.charm ? orders.charm.gesture : null;
  const release = orders.release && typeof orders.release === 'object' ? orders.release.target : null;
  return {
    gestures, casts, flags, stab: gestures.map((_, i) => stabs[i] || null), monsters,
    charm, charmTarget: (orders.charm && orders.charm.target) || null, release, hands: { ...(orders.hands || {}) },
  };
}

/**
 * createOrdersDraft({view, saved, preview, onDraft, onPreview}) -> the model (below). `view` is the
 * wizard's view (its constraints shape the draft); `saved` a draft kept from before (taken where
 * it still fits); preview(orders) -> Promise of the engine's answer; onDraft(draft, orders) hears
 * every change (to keep it); onPreview() hears each newest preview arrive (lastPreview/previewError).
 */
export function createOrdersDraft({ view, saved = null, preview, onDraft = () => {}, onPreview = () => {} }) {
  const constraints = view.constraints;
  const setCount = constraints.sets;
  const hands = { L: constraints.left, R: constraints.right };
  const banned = new Set(constraints.banned || []);
  const allowed = banned.size ? new Set(GESTURES.map((g) => g.code).filter((c) => !banned.has(c))) : null;
  // A hand the opponent writes this turn (charm person): whatever is picked here would be
  // replaced, so it is locked like a paralysed one and sends nothing.
  const charmed = (hand) => !hands[hand].forced && hands[hand].controller !== null && hands[hand].controller !== undefined;
  const fixedGesture = (hand) => hands[hand].forced || (charmed(hand) ? '-' : null);

  const draft = restoreDraft(saved, {
    gestures: Array.from({ length: setCount }, () => [fixedGesture('L'), fixedGesture('R')]),
    casts: new Map(), // `${set}:${hand}` -> {spell, target?}
    flags: { bank: null, permanent: null }, // {set, hand, spell} delayed effect / permanency take
    stab: Array.from({ length: setCount }, () => null),
    monsters: {}, // id -> {target, spell} (spell: the summons a new monster's answer was given for)
    charm: null,
    charmTarget: null, // where a charmed stab goes (the engine offers the choices)
    release: null,
    hands: {}, // question id -> 'L' | 'R': the subject's hand a paralysis or charm takes (Warlocks)
  });
  const state = {
    lastPreview: null, previewError: null,
    problems: [], // from the last seal attempt, shown beside their fields
    previewToken: 0, previewDone: Promise.resolve(),
    armed: null, // the orders (JSON) the player was warned about once: a second seal seals them
  };

  // A saved draft (a reload before sealing) is taken only where it still fits this turn's form.
  function restoreDraft(old, fresh) {
    if (!old || !Array.isArray(old.gestures) || old.gestures.length !== setCount) return fresh;
    fresh.gestures = old.gestures.map((pair) => ['L', 'R'].map((hand, i) => fixedGesture(hand) || (GESTURE_CODES.has(pair[i]) ? pair[i] : null)));
    fresh.casts = new Map((old.casts || []).filter((e) => Array.isArray(e) && e.length === 2));
    fresh.flags = { ...fresh.flags, ...(old.flags || {}) };
    if (Array.isArray(old.stab) && old.stab.length === setCount) fresh.stab = old.stab;
    for (const key of ['monsters', 'charm', 'charmTarget', 'release', 'hands']) if (old[key] !== undefined) fresh[key] = old[key];
    return fresh;
  }

  const draftJson = () => ({ ...draft, casts: [...draft.casts.entries()] });

  /** ordersJson() -> the draft as the orders JSON the engine reads (wire rules: only answers still asked count). */
  function ordersJson() {
    const orders = { gestures: draft.gestures.map((pair) => [...pair]) };
    const casts = [...draft.casts.entries()].map(([key, c]) => {
      const [set, hand] = key.split(':');
      const entry = { set: Number(set), hand, spell: c.spell };
      if (c.target) entry.target = c.target;
      return entry;
    });
    // Answers count only while the engine still asks the question (the gestures may have
    // changed since): a monster being summoned, a delayed effect or permanency waiting.
    const questions = state.lastPreview ? state.lastPreview.questions : [];
    const asked = new Set(questions.map((q) => (q.kind === 'monster' ? `monster:${q.monster}` : q.kind)));
    for (const flag of ['bank', 'permanent']) {
      const pick = draft.flags[flag];
      if (!pick || !asked.has(flag)) continue;
      let entry = casts.find((c) => c.set === pick.set && c.hand === pick.hand);
      if (!entry) casts.push(entry = { set: pick.set, hand: pick.hand, spell: pick.spell });
      if (entry.spell === pick.spell) entry[flag] = true;
    }
    if (casts.length) orders.casts = casts;
    // A stab target counts only for a gesture set that still stabs (the engine refuses a target
    // for a stab that is not made).
    const stabs = draft.stab.map((s, i) => (s && draft.gestures[i] && draft.gestures[i].includes('>') ? s : null));
    if (stabs.some((s) => s)) orders.stab = setCount === 1 ? stabs[0] : stabs;
    // A monster being summoned is directed only while the engine asks about it, and only for
    // the summons the answer was given for (another choice of spell brings another monster).
    const monsters = Object.fromEntries(Object.entries(draft.monsters)
      .filter(([id, answer]) => !id.startsWith('new:') || questions.some((q) => q.kind === 'monster' && q.monster === id && q.spell === answer.spell))
      .map(([id, answer]) => [id, answer.target]));
    if (Object.keys(monsters).length) orders.monsters = monsters;
    if (draft.charm) orders.charm = draft.charm === '>' && draft.charmTarget ? { gesture: draft.charm, target: draft.charmTarget } : { gesture: draft.charm };
    if (draft.release !== null) orders.release = { target: draft.release };
    // A hand named for a question the engine still asks now (Warlocks: never in a turn its
    // subject does not take, where the engine would refuse it).
    const named = Object.fromEntries(questions.filter((q) => q.kind === 'hand' && draft.hands && draft.hands[q.id])
      .map((q) => [q.id, draft.hands[q.id]]));
    if (Object.keys(named).length) orders.hands = named;
    return orders;
  }

  /** refresh() -> Promise: tells onDraft, forgets a warning given, and asks for the new draft's preview. */
  function refresh() {
    onDraft(draftJson(), ordersJson());
    state.armed = null;
    state.previewDone = loadPreview();
    return state.previewDone;
  }

  async function loadPreview() {
    const token = ++state.previewToken;
    const result = await preview(ordersJson());
    if (token !== state.previewToken) return; // a newer draft has been sent since
    state.lastPreview = result.ok ? result.preview : null;
    state.previewError = result.ok ? null : result.error;
    onPreview();
  }

  /** putGesture(set, hand, code) -> whether one hand's gesture went into the draft (a hand the rules fix keeps its own). */
  function putGesture(set, hand, code) {
    if (hands[hand].forced || charmed(hand)) return false;
    if (allowed && !allowed.has(code)) return false;
    draft.gestures[set][hand === 'L' ? 0 : 1] = code;
    // A new gesture makes this hand's earlier spell choices and targets meaningless.
    for (const other of [hand, 'B']) draft.casts.delete(`${set}:${other}`);
    state.problems = state.problems.filter((p) => !p.field.startsWith('gestures') && !p.field.startsWith('casts'));
    return true;
  }

  /**
   * useGestures(sets, charm) puts whole gesture sets ([[left, right], ...], as the coach gives
   * them) into the draft, and charm ({gesture, target?}, the coach's orders' charm) as the
   * gesture for the opponent's hand this wizard charmed: without it sealing would be refused.
   */
  function useGestures(sets, charm = null) {
    sets.slice(0, setCount).forEach((pair, set) => pair.forEach((code, i) => {
      if (GESTURE_CODES.has(code)) putGesture(set, i === 0 ? 'L' : 'R', code);
    }));
    if (charm && GESTURE_CODES.has(charm.gesture)) {
      draft.charm = charm.gesture;
      draft.charmTarget = charm.target || null;
    }
  }

  // The engine lists, for each way to cast, the exact casts entries to send (with spell: null
  // for a hand held back under the withhold house rule); only targets already chosen carry over.
  function chooseAllocation(set, casts) {
    const previous = new Map(draft.casts);
    for (const hand of ['L', 'R', 'B']) draft.casts.delete(`${set}:${hand}`);
    for (const c of casts) {
      const before = previous.get(`${set}:${c.hand}`);
      draft.casts.set(`${set}:${c.hand}`, { spell: c.spell, target: before && c.spell && before.spell === c.spell ? before.target : undefined });
    }
  }

  /** The answer given for this monster question, if it was given for the same summons. */
  function monsterAnswer(q) {
    const answer = draft.monsters[q.monster];
    return answer && answer.spell === q.spell ? answer.target : null;
  }

  /** answer(q, value) records the answer to one of the engine's questions (q.kind: target, stab, monster, charm, charm-target, hand, release, bank, permanent). */
  function answer(q, value) {
    switch (q.kind) {
      case 'target': draft.casts.set(`${q.set}:${q.hand}`, { spell: q.spell, target: value }); break;
      case 'stab': draft.stab[q.set] = value; break;
      case 'monster': draft.monsters[q.monster] = { target: value, spell: q.spell }; break;
      case 'charm': draft.charm = value || null; break;
      case 'charm-target': draft.charmTarget = value || null; break;
      case 'hand': draft.hands = { ...draft.hands, [q.id]: value }; break;
      case 'release': draft.release = value || null; break;
      case 'bank': case 'permanent': draft.flags[q.kind] = value; break;
      default: break;
    }
  }

  /** problemsAt(field) -> the last seal's problems for that field or inside it. */
  const problemsAt = (field) => state.problems.filter((p) => p.field === field || p.field.startsWith(`${field}.`));

  /** missing() -> a 'choose' problem for every hand with no gesture yet (the page's own check before the engine's). */
  function missing() {
    const found = [];
    draft.gestures.forEach((pair, set) => pair.forEach((g, i) => {
      if (!g) found.push({ code: 'choose', field: `gestures.${set}.${i}`, message: say(i === 0 ? 'orders-choose-left' : 'orders-choose-right') });
    }));
    return found;
  }

  /**
   * readyToSeal() -> Promise of {problems} (hands to choose), {confirm: warnings} (the engine warns
   * about these orders: a second call seals them) or {orders}: the orders to seal, checked against
   * the newest preview (it waits for the preview of the draft being sealed).
   */
  async function readyToSeal() {
    const problems = missing();
    if (problems.length) return { problems };
    for (let seen = null; seen !== state.previewToken;) {
      seen = state.previewToken;
      await state.previewDone;
    }
    const risky = (state.lastPreview ? state.lastPreview.warnings : []).filter((w) => w.confirm);
    const key = JSON.stringify(ordersJson());
    if (risky.length && state.armed !== key) {
      state.armed = key;
      return { confirm: risky };
    }
    return { orders: ordersJson() };
  }

  return {
    draft, setCount, hands, banned, allowed, charmed,
    ordersJson, refresh, putGesture, useGestures, chooseAllocation, monsterAnswer, answer, problemsAt, missing, readyToSeal,
    /** The newest preview (or null), the error of the newest if it failed, the last seal's problems, whether a warning waits for a second press. */
    get lastPreview() { return state.lastPreview; },
    get previewError() { return state.previewError; },
    get problems() { return state.problems; },
    set problems(list) { state.problems = list; },
    get armed() { return state.armed !== null; },
  };
}
