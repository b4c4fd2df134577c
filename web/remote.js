// Remote play's wiring (docs/protocol.md, docs/webrtc.md): the shell's part for duels played by
// turn codes, by hand or live. The flows decide (flows/remote/: route what a text is, the session
// steps, drafts, chat and the live policy), the screens draw (ui/screens/remote*.js), this module
// runs the steps one at a time on the duels the store holds (web/store/: read, put, held),
// sends what a step lists through the live connection, and shows the result.
// The live connection's part (connecting, chat, codes that come live) is remote-live.js.
//
// Saved as storage duels with id "r-<game id>-<0|1>", so the start screen lists, resumes and
// deletes them like any duel; two tabs of one browser can even hold both sides of one game.

import * as api from './api.js';
import * as storage from './store/storage.js';
import { createTransports } from './transport/switchboard.js';
import { CHAT_MAX } from './transport/chat.js';
import { h } from './ui/dom.js';
import { sentence } from './ui/remote.js';
import { createSessionFlow } from './flows/remote/session.js';
import { chatLines, routes, withChat } from './flows/remote/chat.js';
import { draftable, writingOf } from './flows/remote/drafts.js';
import { draftOf, seenMarkOf, seenOf } from './flows/remote/record.js';
import { remoteScreen, screenKey } from './ui/screens/remote.js';
import { meOf, notSealedWords, opponentOf, unsavedWords } from './ui/screens/remote-words.js';
import { say } from './ui/words/index.js';
import { installLive } from './remote-live.js';
import { installIntents } from './remote-intents.js';
import { installRouting } from './remote-routing.js';

const isRemote = (mode) => mode === 'codes' || mode === 'live';
const pageBase = () => location.href.split('#')[0];

/**
 * createRemote(app) -> the remote controller. The duels are the store's (app.store: read with
 * duelOf, stored with put, codes and chat lines storage refused held there); this closure keeps
 * only the screen on display, the orders form being written and the engine queue.
 */
function createRemote(app) {
  const { store } = app;
  const writing = new Map(); // duel id -> {turn, form}: the orders form being written (also kept: drafts.js keepWriting)
  // The page's transports (docs/architecture.md, "Transports"): the live connection, the by-hand
  // one of each duel, and which of them carries a duel's next code (made once, at boot; the state is theirs).
  const transports = createTransports({ baseUrl: pageBase });
  const live = transports.live;
  const ctx = {
    app, api, storage, store, transports, live, pageBase, writing, shown: null, queue: Promise.resolve(),
  };

  /** serial(task): engine calls for one page must not interleave (a live code arriving while orders are sealed). */
  ctx.serial = (task) => {
    const run = ctx.queue.then(task);
    ctx.queue = run.catch(() => {});
    return run;
  };

  /** duelOf(id) -> the duel as the store holds it (the one in play, else as saved), or null. */
  ctx.duelOf = (id) => store.duelOf({ id });

  /** save(duel) -> whether storage took the duel, with its chat as held and the lines waiting for room (all or nothing). */
  ctx.save = (duel) => {
    const known = ctx.duelOf(duel.id);
    return store.put({ duel: withChat({ ...duel, chat: known ? known.chat : duel.chat }, store.held(duel.id).chat) });
  };

  /** adopt(duel) -> a flow's duel as the one in memory (its chat as stored). */
  ctx.adopt = (duel) => store.adopt({ duel });

  ctx.flow = createSessionFlow({ api, save: ctx.save });
  ctx.isLive = (id) => live.isConnected(id);

  /** send(codes, id) delivers a step's codes over the live connection when it carries the duel. */
  ctx.send = (codes, id) => {
    for (const code of codes) {
      if (code && live.isConnected(id)) transports.send(id, code);
    }
  };

  ctx.engineReady = async () => {
    try {
      await app.engine;
      return null;
    } catch (err) {
      return err.message;
    }
  };

  ctx.remoteDuels = (gameId) => storage.listGames().filter((g) => g.id.startsWith(`r-${gameId}-`)).map((g) => ctx.duelOf(g.id)).filter(Boolean);

  // The feedback for what could not be stored: codes received (applied again by "Try again",
  // never dropped) come first; chat lines alone are saved by "Save now".
  ctx.unsavedFeedback = (id, again = null) => {
    const refusal = storage.saveRefusal();
    const codes = store.held(id).codes.length;
    const room = h('button', { type: 'button', class: 'primary', 'data-testid': 'open-saved-duels', onclick: () => app.openSavedDuels(id) }, say('make-room'));
    if (codes || again) {
      return {
        kind: 'error', code: 'storage-full', title: say('remote-unsaved-title'), message: unsavedWords(codes ? 'apply' : again, refusal),
        extra: h('div', { class: 'actions' }, room, codes ? h('button', { type: 'button', 'data-testid': 'retry-unsaved', onclick: () => ctx.applyInbox(id) }, say('remote-try-again')) : null),
      };
    }
    return {
      kind: 'error', code: 'storage-full', title: say('remote-chat-unsaved-title'), unchanged: false,
      message: say('remote-unsaved-chat', { n: store.held(id).chat.length, refusal }),
      extra: h('div', { class: 'actions' }, room, h('button', { type: 'button', 'data-testid': 'save-chat-again', onclick: () => ctx.saveChatAgain(id) }, say('save-now'))),
    };
  };

  // A step that was not stored: said on its screen; the orders form gets its problem.
  ctx.refuseUnsaved = (id, again) => {
    ctx.refresh(id, { feedback: ctx.unsavedFeedback(id, again) });
    return [{ code: 'storage-full', field: '', message: notSealedWords(again) }];
  };

  ctx.warn = (warning) => {
    if (warning) app.toast(sentence(unsavedWords(warning.again, storage.saveRefusal())), 'error');
  };

  /** refresh(id, update) redraws the panel of the duel on display (no-op for another screen). */
  ctx.refresh = (id, update = {}) => {
    const shown = ctx.shown;
    if (!shown || (id && shown.id !== id)) return;
    if (shown.join) { shown.refresh(); return; }
    shown.update({ ...ctx.liveSnapshot(shown.id, shown.status, shown.link), ...update });
  };

  // The parts of a snapshot the live connection and the chat decide.
  ctx.liveSnapshot = (id, status, link) => {
    const duel = ctx.duelOf(id);
    if (!duel) return {};
    const opp = opponentOf(duel.session);
    const t = live.current();
    const queued = duel.queued && duel.queued.turn === status.turn && duel.queued.input.gestures ? { turn: duel.queued.turn, gestures: duel.queued.input.gestures } : null;
    return {
      duel, queued, opponent: opp, remoteMode: isRemote(duel.mode),
      routes: routes({
        carried: t && t.duelId === id ? t.status() : null, connected: live.isConnected(id), mode: duel.mode, busy: ctx.liveBusy || '',
        outgoing: status.code_owed ? transports.outgoing(id, status.last_sent, link) : null, sentLive: transports.wentLive(status.last_sent),
      }),
      chat: { lines: chatLines(duel, store.held(id).chat), names: { me: meOf(duel.session), them: opp } },
      live: { busy: ctx.liveBusy || '', error: ctx.liveError || null, chatMax: CHAT_MAX },
      early: (status.state === 'waiting' || status.state === 'awaiting_accept') && draftOf(duel) && draftOf(duel).sealed && draftOf(duel).orders ? draftOf(duel) : null,
      link,
    };
  };

  /**
   * render(duel, {status, feedback}): the duel on screen; the same screen again (only the panel
   * changes) while its key stays, so a live message never wipes orders being written.
   */
  ctx.render = async (duel, { status = null, feedback } = {}) => {
    if (!duel) return;
    let st = status;
    if (!st) {
      const r = await api.remoteStatus(duel.session);
      if (!r.ok) { app.fail(say('remote-unreadable', { message: sentence(r.error.message) })); return; }
      st = r.status;
    }
    let view = null;
    app.useRules(duel.session.ruleset);
    if (duel.session.game) {
      const v = await api.view(duel.session.game, duel.session.me);
      if (!v.ok) { app.fail(say('remote-unreadable', { message: sentence(v.error.message) })); return; }
      view = v.view;
    }
    const made = st.last_sent ? await api.remoteLink(st.last_sent, pageBase()) : null;
    const link = made && made.ok ? made.link : null;
    // By codes, while waiting for the code that resolves the turn sealed, the next turn's form is open as a draft.
    const drafting = await draftable(api, duel, st, { live: live.isConnected(duel.id), view });
    const draft = draftOf(duel);
    const writ = writing.get(duel.id);
    const x = {
      ...ctx.liveSnapshot(duel.id, st, link), status: st, view, drafting, draft,
      seen: seenMarkOf(duel), draftSeen: drafting ? seenOf(drafting.view) : null,
      carried: draft && draft.carried && !draft.over && draft.turn === st.turn ? draft : null,
      writing: writ && writ.turn === st.turn ? writ.form : writingOf(duel, st.turn),
    };
    if (live.current() && live.current().duelId === duel.id) ctx.presence(st, Boolean(x.queued));
    const shown = ctx.shown;
    const next = screenKey(x);
    if (shown && !shown.join && shown.id === duel.id && shown.key === next) {
      shown.status = st;
      shown.link = link;
      shown.update({ ...x, ...(feedback === undefined ? {} : { feedback }) });
      return;
    }
    ctx.mount(duel.id, { ...x, feedback: feedback === undefined ? null : feedback });
  };

  ctx.mount = (id, x) => {
    const screen = remoteScreen(x, ctx.intentsFor(id, x));
    storage.setCurrentGameId(id);
    const unwatch = storage.watchGame(id, () => {
      // Another tab of this browser applied a code to this duel (a link opened there): catch up.
      store.reread({ id });
      const fresh = ctx.duelOf(id);
      if (fresh) ctx.serial(() => ctx.render(fresh, { feedback: null }));
    });
    const shown = { id, key: screen.key, status: x.status, link: x.link, update: screen.update };
    ctx.shown = shown;
    app.show(screen.element, () => {
      screen.destroy();
      unwatch();
      if (ctx.shown === shown) ctx.shown = null;
    });
  };

  installIntents(ctx);
  installRouting(ctx);
  installLive(ctx);
  return ctx;
}

/**
 * installRemote(deps) registers "Play by codes" and "Play live" and returns the hooks app.js
 * wires in: {fillStartSlot(slot), resume(savedDuel), isRemoteDuel(saved), openAddressLink(), transports}
 * (transports: the page's, transport/transport.js's createTransports, made here at boot).
 * deps: {store, registerMode, show, toast, goHome, fail, engine, openReference, exportDuel, useRules, openSavedDuels,
 * replays (shell/replay.js: openGame, shareGame), soundSetting}.
 */
export function installRemote(deps) {
  const ctx = createRemote(deps);
  deps.registerMode({
    id: 'codes',
    label: say('mode-codes'),
    hint: say('mode-codes-hint'),
    begin: (params) => ctx.begin('codes', params),
  });
  deps.registerMode({
    id: 'live',
    label: say('mode-live'),
    hint: say('mode-live-hint'),
    begin: (params) => ctx.begin('live', params),
  });
  window.addEventListener('hashchange', () => { ctx.openAddressLink(); });
  return {
    fillStartSlot: ctx.fillStartSlot,
    resume: ctx.resume,
    isRemoteDuel: (saved) => Boolean(saved && saved.session),
    openAddressLink: ctx.openAddressLink,
    transports: ctx.transports,
  };
}
