// Remote play's steps as the player asks for them (web/remote.js's controller): begin, accept,
// seal (or seal ahead), draft, seal early, receive a code, and the intents a duel screen reports.
// Each step runs the session flow (flows/remote/) inside the controller's queue, adopts the duel
// it returns, sends what it lists over the live connection and draws the result.

import { keepCarried, keepDraft, keepWriting, sealEarly, unsealEarly } from './flows/remote/drafts.js';
import { draftOf, withSeen } from './flows/remote/record.js';
import { h } from './ui/dom.js';
import { sentence } from './ui/remote.js';
import { opponentOf, unsavedWords } from './ui/screens/remote-words.js';
import { say } from './ui/words/index.js';

const SKIP = Symbol('skip');

/** installIntents(ctx) adds begin, accept, receive, applyInbox, resume and intentsFor to the controller. */
export function installIntents(ctx) {
  const { app, api, storage, live } = ctx;
  const gone = [{ code: 'gone', field: '', message: say('remote-gone') }];
  const asProblems = (out) => (out.problems && out.problems.length ? out.problems : [{ code: out.error.code, field: '', message: sentence(out.error.message) }]);

  // A new duel as host; `after` is the finished duel of a rematch, whose live connection (if it
  // is still open) carries the new invitation at once.
  ctx.begin = async (mode, { names, ruleset }, { after = null } = {}) => {
    const down = await ctx.engineReady();
    if (down) return down;
    const out = await ctx.flow.begin({ mode, name: names[0], ruleset, baseUrl: ctx.pageBase() });
    if (!out.ok) return out.error.code === 'storage-full' ? unsavedWords('begin', storage.saveRefusal()) : sentence(out.error.message);
    const duel = ctx.adopt(out.duel);
    if (after && live.isConnected(after) && live.bind(duel.id, { from: after })) ctx.send(out.send, duel.id);
    else if (mode === 'live') ctx.startLive(duel.id);
    await ctx.render(duel, { status: out.status, feedback: null });
    return null;
  };

  // viaLive: the invitation came over the live connection `link`, which carried the duel `from`
  // then; offer: the connection offer it carried, answered only when `connect` (the player chose
  // "Accept and connect live").
  ctx.accept = async (text, name, { viaLive = false, link = null, from = null, offer = null, connect = false } = {}) => {
    const out = await ctx.flow.accept({ text, name, viaLive });
    if (!out.ok) return out.error.code === 'storage-full' ? unsavedWords('accept', storage.saveRefusal()) : out.error.message;
    const duel = ctx.adopt(out.duel);
    const prefs = storage.loadPrefs();
    storage.savePrefs({ ...prefs, names: [name, (prefs.names || [])[1] || ''] });
    if (viaLive) live.bind(duel.id, { transport: link, from });
    ctx.pendingInvite = null;
    if (offer && !connect) ctx.decline(duel.id, offer);
    await ctx.render(duel, { status: out.status, feedback: { kind: 'info', message: say('remote-accepted', { host: out.invitation.host, connect: Boolean(offer && connect) }) } });
    // The invitation carried the host's connection offer: answer it now, so the checks run while
    // this player writes orders; the answer goes with their code.
    if (offer && connect) await ctx.joinForDuel(duel.id, offer, { asked: true });
    return null;
  };

  // Orders or a decision sealed: live and the opponent to speak first, orders are sealed ahead.
  const seal = (id, input, view) => ctx.serial(async () => {
    const duel = ctx.duelOf(id);
    if (!duel) return gone;
    const st = await api.remoteStatus(duel.session);
    const ahead = st.ok && st.status.state === 'waiting' && st.status.ahead;
    const out = ahead ? await ctx.flow.sealAhead(duel, input, { view }) : await ctx.flow.seal(duel, input, { view, live: ctx.isLive(id) });
    if (!out.ok) return out.error && out.error.code === 'storage-full' ? ctx.refuseUnsaved(id, out.error.again) : asProblems(out);
    const next = ctx.adopt(out.duel);
    ctx.writing.delete(id);
    ctx.send(out.send, id);
    ctx.warn(out.warning);
    const other = opponentOf(next.session);
    const feedback = out.say === 'queued' ? { kind: 'info', message: say('remote-queued', { opp: other }) }
      : out.say === 'noted' ? { kind: 'info', message: say('remote-noted', { gestures: input.gestures, opp: other, next: out.status.state === 'your_input' && ['orders', 'time_stop'].includes(out.status.need) }) }
        : null;
    await ctx.render(next, { status: out.status, feedback });
    return [];
  });

  // A change of the duel that sends nothing (its draft of the next turn): stored if there is
  // room, never shown as an error. The duel in play stores only the draft (store.draft: a pick
  // costs the same late in a long duel); another, the whole duel.
  const quietly = (id, change, redraw = false) => ctx.serial(async () => {
    const duel = ctx.duelOf(id);
    const next = duel && change(duel);
    if (!next) return;
    const inPlay = ctx.store.getState().duel === duel && next.drafts;
    if (!(inPlay && ctx.store.draft({ wizard: next.session.me, draft: draftOf(next), quiet: true }))) ctx.save(next);
    ctx.adopt(next);
    if (redraw) await ctx.render(ctx.duelOf(id), { feedback: null });
  });

  // `view`: the duel's own view the player sealed from; its turn result was on that screen, so
  // it is seen now (a move sealed early that goes out by itself later leaves the next one unseen).
  const early = (id, turn, orders, view) => ctx.serial(async () => {
    const duel = ctx.duelOf(id);
    if (!duel) return gone;
    const out = await sealEarly(api, view ? withSeen(duel, view) : duel, turn, orders);
    if (!out.ok) return out.problems.map((p) => (p.code === 'moved-on' ? { ...p, message: say('remote-moved-on') } : p));
    const st = await api.remoteStatus(duel.session);
    if (!st.ok) return [{ code: st.error.code, field: '', message: sentence(st.error.message) }];
    if (!ctx.save(out.duel)) return ctx.refuseUnsaved(id, 'seal-early');
    await ctx.render(ctx.duelOf(id), { status: st.status, feedback: { kind: 'info', message: say('remote-early-sealed', { turn, opp: opponentOf(duel.session) }) } });
    return [];
  });

  function receivedFeedback(out, duel) {
    if (!out.ok && out.error.code === 'storage-full') return ctx.unsavedFeedback(duel.id);
    if (!out.ok && out.error.code === 'desync') {
      // The message says what to do; the record is what a report needs.
      return {
        kind: 'error', code: 'desync', message: out.error.message,
        extra: h('div', { class: 'actions' }, h('button', { type: 'button', 'data-testid': 'export-desync', onclick: () => app.exportDuel(ctx.duelOf(duel.id)) }, say('remote-export-record'))),
      };
    }
    if (!out.ok) return { kind: 'error', code: out.error.code, message: out.error.message };
    if (out.note) return { kind: 'note', message: out.note };
    const opp = opponentOf(duel.session);
    if (out.early && !live.isConnected(duel.id)) return { kind: 'info', message: say('remote-applied-early', { turn: out.early, opp }) };
    if (out.reply && !live.isConnected(duel.id)) return { kind: 'info', message: say('remote-applied-reply', { opp }) };
    return { kind: 'info', message: say('remote-applied', { opp }) };
  }
  ctx.receivedFeedback = receivedFeedback;

  // One code applied to a duel, inside the queue. A code that cannot be stored waits in the
  // inbox (never dropped) with every code after it, until "Try again" applies them in order.
  async function applyOne(id, text, { withOffer = false } = {}) {
    const duel = ctx.duelOf(id);
    if (!duel) return { ok: false, duel: null, error: { code: 'gone', message: say('remote-gone') } };
    const waiting = ctx.store.held(id).codes;
    if (waiting.length && !waiting.includes(text)) {
      ctx.store.hold({ id, code: text });
      return { ok: false, duel, error: { code: 'storage-full' } };
    }
    const out = await ctx.flow.receive(duel, text, { live: ctx.isLive(id) });
    // The host's code came without the offer this side declined: the decline has reached it.
    if (out.ok) ctx.transports.heardByHand(id, { withOffer });
    if (!out.ok && out.error.code === 'storage-full') {
      ctx.store.hold({ id, code: text });
      return out;
    }
    if (out.ok) {
      ctx.store.letGo({ id, code: text });
      ctx.adopt(out.duel);
      ctx.send(out.send, id);
      ctx.warn(out.warning);
    }
    return out;
  }

  /**
   * receive(id, text, tell, {withOffer}) applies a code, then shows the duel with the feedback
   * `tell(outcome)` picks (undefined: leave what is said; SKIP: do not redraw).
   */
  ctx.receive = (id, text, tell = (out) => receivedFeedback(out, out.duel), opts = {}) => ctx.serial(async () => {
    const out = await applyOne(id, text, opts);
    if (!out.duel) return out;
    const feedback = await tell(out);
    if (feedback !== SKIP) await ctx.render(ctx.duelOf(id), { status: out.ok ? out.status : null, feedback });
    return out;
  });
  ctx.SKIP = SKIP;

  /** applyInbox(id): "Try again": the codes that could not be stored, applied in order. */
  ctx.applyInbox = (id) => ctx.serial(async () => {
    let out = null;
    for (const text of ctx.store.held(id).codes) {
      out = await applyOne(id, text);
      if (!out.ok) break;
    }
    if (!out) return;
    await ctx.render(ctx.duelOf(id), { status: out.ok ? out.status : null, feedback: receivedFeedback(out, ctx.duelOf(id)) });
  });

  ctx.resume = async (saved) => {
    const down = await ctx.engineReady();
    if (down) { app.fail(down); return; }
    ctx.store.reread({ id: saved.id });
    await ctx.render(ctx.duelOf(saved.id) || saved, { feedback: null });
  };

  /** intentsFor(id, snapshot) -> what the duel screen reports, bound to this duel. */
  ctx.intentsFor = (id, x) => ({
    onHome: () => app.goHome(),
    onSpell: (key) => app.openReference({ spell: key }),
    preview: (draft) => api.preview(ctx.duelOf(id).session.game, x.duel.session.me, draft),
    draftPreview: async (draft) => {
      const r = await api.remoteDraft(ctx.duelOf(id).session, draft);
      if (r.ok && !r.draftable) return { ok: false, error: { code: 'moved-on', message: say('remote-moved-on-preview') } };
      return r;
    },
    onOrders: (orders) => seal(id, orders, x.view),
    onDecision: (input) => seal(id, input, x.view),
    onWriting: (turn, form, orders, carried) => {
      ctx.writing.set(id, { turn, form });
      quietly(id, (d) => (carried ? keepCarried : keepWriting)(d, turn, form, orders));
    },
    onDraft: (turn, form, orders) => quietly(id, (d) => keepDraft(d, turn, form, orders)),
    onSealEarly: (turn, orders) => early(id, turn, orders, x.view),
    onUnsealEarly: () => quietly(id, unsealEarly, true),
    onPaste: (text) => ctx.pasteIntoDuel(id, text),
    onChat: (text) => ctx.sendChat(id, text),
    onRematch: () => ctx.begin(x.duel.mode, { names: [x.duel.session.names[x.duel.session.me]], ruleset: x.duel.session.ruleset }, { after: id })
      .then((message) => { if (message) app.toast(message, 'error'); }),
    onExport: () => app.exportDuel(ctx.duelOf(id)),
    loadBattle: (v) => api.battle(ctx.duelOf(id).session.game, v).then((a) => (a.ok ? a : null)),
    onReplay: async () => {
      const message = await app.replays.openGame(ctx.duelOf(id).session.game, x.duel.session.me);
      if (message) app.toast(message, 'error');
    },
    onShare: () => app.replays.shareGame(ctx.duelOf(id).session.game),
    sound: app.soundSetting ? app.soundSetting() : null,
    live: {
      onStart: () => ctx.startLive(id),
      onAnswer: (text) => ctx.answerForDuel(text),
      onClose: () => { live.close(); },
      settings: ctx.iceSettingsOpts(),
    },
    qr: ctx.transports.byHand(id).qr,
    chatDraft: ctx.chatDraft(id),
  });
}
