// Remote play: the controller of duels played by turn codes (docs/protocol.md), by hand or over a
// live WebRTC connection (docs/webrtc.md, web/live.js). The session, kept by the engine and stored
// here after every change, decides everything: whose move it is, which code goes out, what a
// pasted code means. This module routes pasted text and opened links, shows the session's codes
// and messages beside the duel screens of the hot-seat game, and sends codes live when it can.
//
// Saved as storage duels with id "r-<game id>-<0|1>" ({id, mode, session, seen, summary}), so the
// start screen lists, resumes and deletes them like any duel; two tabs of one browser can even
// hold both sides of one game.

import * as api from './api.js';
import * as storage from './storage.js';
import { createTransports } from './transport/switchboard.js';
import { STATUS } from './transport/transport.js';
import { CHAT_MAX, chatLineTurn } from './transport/chat.js';
import { h, replace } from './ui/dom.js';
import { decisionScreen, gameOverScreen, ordersScreen } from './ui/duel.js';
import { gestureLabel } from './ui/gesturepad.js';
import { draftFromOrders } from './ui/orders.js';
import {
  boardView, codeBlock, feedbackBox, joinBox, notACode, openAcceptDialog, pasteBox, pending, remoteHead, sentList, sentence,
} from './ui/remote.js';
import { isDialogOpen } from './ui/dialog.js';
import { say, sayError } from './ui/words.js';
import { livePanel, liveGlance, connectExplanation, openConnectDialog } from './ui/live.js';

const MODE_LABELS = { codes: 'by codes', live: 'live' };
const CHAT_KEEP = 200; // the chat lines a duel keeps (the newest)
// The error codes of a live connection code that mean "this is not one": the text may still be a turn code.
const NOT_RTC = new Set(['empty', 'not-a-code', 'turn-code']);
// Text with no code in it at all (a sentence, another site's link), once the transport found no
// connection code in it: its 'not-a-code' also covers turn codes, which start WH<digits>.
const holdsNoCode = (text, rtc) => !rtc.ok && rtc.error.code === 'not-a-code' && !/WH\d+\./.test(text);
// The page's transports (docs/architecture.md, "Transports"): the live connection, the by-hand
// one of each duel, and which of them carries a duel's next code.
export const transports = createTransports({ baseUrl: () => pageBase() });
const live = transports.live;
const pageBase = () => location.href.split('#')[0];
/** splitCodes(text) -> {turn, rtc}: the turn code and connection code of a pasted bundle (transport/by-hand.js). */
const splitCodes = (text) => transports.read(text);

let app = null; // what app.js lends: show, toast, goHome, fail, engine, openReference, exportDuel, useRules
let queue = Promise.resolve();
let shown = null; // the remote screen on display: {id, key, refresh({duel, status, view, extras, feedback})} or {join: true}
let startNotice = null; // {text, message}: an opened link that could not be used, for the start screen
let pendingInvite = null; // {text, info, viaLive, link, from}: an invitation that came live and was not accepted yet
let acceptDialog = null; // the invitation dialog on display: never more than one (a pushed invitation opens none while it is)
let liveBusy = ''; // what the live panel is waiting for (making a connection code)
let liveError = null; // the last live error to show in the panel
let lastLiveStatus = null;
const liveSent = new Set(); // codes this page has delivered over the live connection

// Engine calls for one session must not interleave (a live code arriving while orders are sealed).
function serial(task) {
  const run = queue.then(task);
  queue = run.catch(() => {});
  return run;
}

const duelIdOf = (session) => `r-${session.game_id}-${session.me}`;
const opponentOf = (session) => session.names[1 - session.me] || 'your opponent';
// Whether the opponent is waiting for my last code: the exchange alternates, and message number
// The session says whether the opponent still needs my last code (docs/protocol.md).
const owesCode = (status) => status.code_owed;
const isRemote = (mode) => mode === 'codes' || mode === 'live';

function seenOf(view) {
  return view ? { log: view.log.length, rows: view.wizards.map((w) => w.history.length) } : { log: 0, rows: [0, 0] };
}

function summarize(session, status) {
  const names = session.names.map((n, i) => n || (i === session.me ? 'You' : '…'));
  const over = status.state === 'over';
  let resultText = '';
  if (over && status.result) {
    resultText = status.result.winner === null ? `draw (${status.result.how})` : `${names[status.result.winner]} won (${status.result.how})`;
  }
  const title = status.state === 'awaiting_accept' ? `${names[0]} vs … (invitation sent)` : `${names[0]} vs ${names[1]}`;
  return { title, names, turn: Math.max(1, status.turn), phase: status.phase, over, resultText };
}

function persist(duel, status) {
  duel.summary = summarize(duel.session, status);
  return saveWithChat(duel);
}

// Chat lines said while the duel could not be stored (a full storage): shown on the screen and
// saved with the duel's next successful save, so no line is lost while the page stays open.
const unsavedChat = new Map(); // duel id -> [{from, text, turn, at}]

// Stores the duel with any chat lines still waiting to be stored; on a refusal the duel object
// is left as it was (the lines keep waiting). Returns whether it was stored.
function saveWithChat(duel) {
  const waiting = unsavedChat.get(duel.id);
  if (!waiting) return storage.saveGame(duel);
  const before = duel.chat;
  duel.chat = [...(duel.chat || []), ...waiting].slice(-CHAT_KEEP);
  if (storage.saveGame(duel)) {
    unsavedChat.delete(duel.id);
    return true;
  }
  duel.chat = before;
  return false;
}

/** The chat lines of a duel as the screen shows them: the stored ones, then those waiting to be stored. */
function chatLines(duel) {
  return [...(duel.chat || []), ...(unsavedChat.get(duel.id) || [])].slice(-CHAT_KEEP);
}

// Stores the duel with the session an engine call returned, before any code of that session is
// shown or sent (docs/protocol.md, "Store the session before showing the code"). When the
// browser refuses (a full storage), the duel keeps its previous session, here and in storage,
// so the code, and the commitment and nonce in it, go nowhere; returns whether it was stored.
function keep(duel, session, status) {
  const before = duel.session;
  duel.session = session;
  if (persist(duel, status)) return true;
  duel.session = before;
  return false;
}

// What to tell the player when a step could not be stored (and so was neither shown nor sent),
// ending with what to do once there is room: `again` ("seal again", ...).
function unsavedMessage(again) {
  const why = storage.saveRefusal() === 'unavailable'
    ? 'This browser refused to store the duel (its storage is switched off for this page)'
    : 'Your browser’s storage for this page is full';
  return `${why}, so this step was not saved and no code was shown or sent: delete or export old duels, then ${again}`;
}

// The feedback for a step that was not stored: the message, a way to the saved duels (to make
// room without leaving this duel), and `retry` when the step can be tried again from here.
function unsavedFeedback(id, again, retry = null) {
  return {
    kind: 'error', code: 'storage-full', title: 'Not saved, so nothing was sent', message: unsavedMessage(again),
    extra: h('div', { class: 'actions' },
      h('button', { type: 'button', class: 'primary', 'data-testid': 'open-saved-duels', onclick: () => app.openSavedDuels(id) }, 'Saved duels: make room…'),
      retry ? h('button', { type: 'button', 'data-testid': 'retry-unsaved', onclick: retry }, 'Try again') : null),
  };
}

// A step of this duel was not stored: say so on its screen, and give the orders form its problem.
function refuseUnsaved(id, again) {
  shown?.refresh({ feedback: unsavedFeedback(id, again) });
  return [{ code: 'storage-full', field: '', message: `Not sealed: this step could not be saved (see above). Make room, then ${again}.` }];
}

function remoteDuels(gameId) {
  return storage.listGames()
    .filter((g) => g.id.startsWith(`r-${gameId}-`))
    .map((g) => storage.loadGame(g.id))
    .filter((d) => d && d.session);
}

/** The rules an invitation's duel is under, in words: the engine's description (remote_describe's `rules`). */
function rulesText(rules) {
  if (!rules) return 'Rules: the standard rules.';
  const on = rules.options.map((o) => o.label);
  return `Rules: ${rules.title}${on.length ? `, and ${on.join('; ')}` : ''}. ${rules.description}`;
}

function errorFeedback(error) {
  return { kind: 'error', code: error.code, message: error.message };
}

async function engineReady() {
  try {
    await app.engine;
    return null;
  } catch (err) {
    return err.message;
  }
}

// ---------------------------------------------------------------------------------------------
// Starting, accepting, sealing, receiving

// A new duel as host; `after` is the finished duel of a rematch, whose live connection (if it is
// still open) carries the new invitation at once.
async function begin(mode, { names, ruleset }, { after = null } = {}) {
  const down = await engineReady();
  if (down) return down;
  const made = await api.remoteInvite({ name: names[0], ruleset, base_url: pageBase() });
  if (!made.ok) return sentence(made.error.message);
  const duel = { id: duelIdOf(made.session), mode, session: made.session, seen: seenOf(null), createdAt: Date.now(), summary: {} };
  if (!persist(duel, made.status)) return unsavedMessage('begin again (the saved duels are listed on this screen)');
  if (after && live.isConnected(after) && live.bind(duel.id, { from: after })) {
    sendLiveIfConnected(duel, made.code);
  } else if (mode === 'live') {
    startLive(duel.id);
  }
  await render(duel, { status: made.status, feedback: null });
  return null;
}

// viaLive: the invitation came over the live connection `link`, which carried the duel `from`
// then (null: none); offer: the connection offer the invitation carried, answered only when
// `connect` (the player chose "Accept and connect live").
async function accept(text, name, { viaLive = false, link = null, from = null, offer = null, connect = false } = {}) {
  const r = await api.remoteAccept(text, name);
  if (!r.ok) return r.error.message;
  const duel = { id: duelIdOf(r.session), mode: viaLive ? 'live' : 'codes', session: r.session, seen: seenOf(null), createdAt: Date.now(), summary: {} };
  if (!persist(duel, r.status)) return unsavedMessage('accept again (the saved duels are listed on the start screen)');
  const prefs = storage.loadPrefs();
  storage.savePrefs({ ...prefs, names: [name, (prefs.names || [])[1] || ''] });
  if (viaLive) live.bind(duel.id, { transport: link, from });
  pendingInvite = null;
  const message = offer && connect
    ? `You accepted ${r.invitation.host}'s challenge. Write your orders for turn 1: your code for them is your answer, and it connects you live`
    : `You accepted ${r.invitation.host}'s challenge. Write your orders for turn 1: your code for them is your answer`;
  if (offer && !connect) decline(duel.id, offer);
  await render(duel, { status: r.status, feedback: { kind: 'info', message } });
  // The invitation carried the host's connection offer: answer it now, so the checks (and the
  // keep-open rounds) run while this player writes orders; the answer goes with their code.
  if (offer && connect) await joinForDuel(duel.id, offer, { asked: true });
  return null;
}

function sendLiveIfConnected(duel, code) {
  if (!code || !live.isConnected(duel.id)) return;
  const sent = transports.send(duel.id, code);
  if (sent.ok && sent.via === 'live') liveSent.add(code);
}

// Live, the reveal this side owes goes at once, alone, instead of waiting for this player's next
// orders (docs/protocol.md, "Both choose at the same time"): the opponent then sees the turn's
// result as soon as this side does, and both write the next orders at the same time. By codes
// it would cost one more paste a turn, so there it keeps travelling with the next commitment.
// Returns the status after it (the same one when nothing was released). Runs inside serial().
async function releaseIfLive(duel, status) {
  if (!status.release || !live.isConnected(duel.id)) return status;
  const r = await api.remoteRelease(duel.session);
  if (!r.ok || !r.code) return status;
  if (!keep(duel, r.session, r.status)) {
    // Not released: the reveal stays owed and goes with this side's next code instead.
    app.toast(sentence(unsavedMessage('carry on')), 'error');
    return status;
  }
  sendLiveIfConnected(duel, r.code);
  return r.status;
}

// Orders sealed ahead: written while the opponent's code (their commitment) is still on its way,
// kept only in this browser, never sent until that code has arrived; then the page seals them
// at once, so the code's arrival is the only wait. Runs inside serial(); returns {status, code}
// or null when there is nothing to seal (or the queued orders no longer fit: they stay a draft).
async function sealQueued(duel, status) {
  const q = duel.queued;
  if (!q || status.state !== 'your_input' || status.turn !== q.turn || status.need !== q.kind) return null;
  const r = await api.remoteSeal(duel.session, q.input);
  duel.queued = null;
  if (!r.ok) return null;
  duel.sealed = q.input.gestures ? { turn: q.turn, gestures: q.input.gestures } : null;
  if (!keep(duel, r.session, r.status)) {
    // The orders stay queued, as stored; the screen asks for them again.
    duel.queued = q;
    app.toast(sentence(unsavedMessage('seal your orders again')), 'error');
    return null;
  }
  sendLiveIfConnected(duel, r.code);
  return { status: await releaseIfLive(duel, r.status), code: r.code };
}

function sealAhead(id, input, view) {
  return serial(async () => {
    const duel = storage.loadGame(id);
    if (!duel) return [{ code: 'gone', field: '', message: 'This duel is no longer saved here.' }];
    const checked = await api.validate(duel.session.game, duel.session.me, input);
    if (!checked.ok) return [{ code: checked.error.code, field: '', message: sentence(checked.error.message) }];
    if (checked.problems.length) return checked.problems;
    duel.queued = { turn: view.phase.turn, kind: view.phase.kind, input };
    duel.seen = seenOf(view);
    const r = await api.remoteStatus(duel.session);
    if (!r.ok) return [{ code: r.error.code, field: '', message: sentence(r.error.message) }];
    if (!persist(duel, r.status)) return refuseUnsaved(id, 'seal again');
    await render(duel, { status: r.status, feedback: { kind: 'info', message: `Sealed: your orders go as soon as ${opponentOf(duel.session)}’s code arrives` } });
    return [];
  });
}

function seal(id, input, view) {
  return serial(async () => {
    const duel = storage.loadGame(id);
    if (!duel) return [{ code: 'gone', field: '', message: 'This duel is no longer saved here.' }];
    const r = await api.remoteSeal(duel.session, input);
    if (!r.ok) {
      if (r.error.problems && r.error.problems.length) return r.error.problems;
      return [{ code: r.error.code, field: '', message: sentence(r.error.message) }];
    }
    duel.seen = seenOf(view);
    // The page's own memory of what this player sealed, to remind them while they wait.
    duel.sealed = input.gestures ? { turn: view.phase.turn, gestures: input.gestures } : null;
    // A draft carried onto this form is spent once orders are sealed.
    const draft = duel.draft;
    if (input.gestures && draft && draft.carried) duel.draft = null;
    // Stored before the code is shown or sent: a reload must never make the player seal twice,
    // and a code that is not stored is never shown (the commitment in it would be lost).
    if (!keep(duel, r.session, r.status)) {
      duel.draft = draft;
      return refuseUnsaved(id, 'seal again');
    }
    sendLiveIfConnected(duel, r.code);
    let after = await releaseIfLive(duel, r.status);
    // A decision answered: the next orders may be those drafted while waiting.
    const early = await carryDraft(duel, after);
    if (early) after = early.status;
    const feedback = r.code || early ? null : { kind: 'info', message: notedMessage(input, after, view) };
    await render(duel, { status: after, feedback });
    return [];
  });
}

// Sealed, and no code made: the answer waits for what the rules ask next, and travels with it.
function notedMessage(input, status, view) {
  const other = view ? view.wizards[view.opponent].name : 'your opponent';
  const what = input.gestures ? 'Your orders are noted' : 'Your answer is noted';
  const next = status.state === 'your_input' && (status.need === 'orders' || status.need === 'time_stop')
    ? 'your orders for the next turn (below)' : 'your next answer (below)';
  return `${what}. There is no code to send yet: it goes to ${other} in one code with ${next}`;
}

// ---------------------------------------------------------------------------------------------
// Drafting the next turn while waiting for a code (docs/protocol.md, "Drafting while a code
// travels"). The draft is kept with the saved duel as duel.draft = {turn, form, orders, sealed,
// carried, changes}: `form` is the orders form's own draft, `orders` the same as orders JSON;
// `sealed` marks orders sealed early; `carried` a draft the engine has carried onto the
// resolved turn, with the `changes` the result made. Nothing of it is ever sent before the turn
// resolves and it is sealed as usual.

function keepDraft(id, turn, form, orders) {
  return serial(async () => {
    const duel = storage.loadGame(id);
    if (!duel) return;
    // An untouched form is no draft: nothing to keep or to carry.
    const touched = orders.gestures.some((pair) => pair.some(Boolean));
    const before = duel.draft && duel.draft.turn === turn ? duel.draft : {};
    // The code came meanwhile and the engine carried the draft: the real form has it now.
    if (before.carried || (!touched && !before.turn)) return;
    duel.draft = touched ? { ...before, turn, form, orders, sealed: false } : null;
    saveWithChat(duel);
  });
}

function sealEarly(id, turn, orders) {
  return serial(async () => {
    const duel = storage.loadGame(id);
    if (!duel) return [{ code: 'gone', field: '', message: 'This duel is no longer saved here.' }];
    // Checked against the turn as foreseen; the real check comes when the code has resolved it.
    const r = await api.remoteDraft(duel.session, orders);
    if (!r.ok) return [{ code: r.error.code, field: '', message: sentence(r.error.message) }];
    if (!r.draftable) return [{ code: 'moved-on', field: '', message: 'The turn has moved on: write your orders on the form now shown.' }];
    if (r.preview.problems.length) return r.preview.problems;
    const before = duel.draft && duel.draft.turn === turn ? duel.draft : {};
    duel.draft = { ...before, turn, orders, sealed: true };
    const st = await api.remoteStatus(duel.session);
    if (!st.ok) return [{ code: st.error.code, field: '', message: sentence(st.error.message) }];
    if (!persist(duel, st.status)) return refuseUnsaved(id, 'seal early again');
    await render(duel, { status: st.status, feedback: { kind: 'info', message: `Sealed early: your orders for turn ${turn} go by themselves as soon as ${opponentOf(duel.session)}’s code arrives, if its result leaves them as they are` } });
    return [];
  });
}

function unsealEarly(id) {
  return serial(async () => {
    const duel = storage.loadGame(id);
    if (!duel || !duel.draft) return;
    duel.draft = { ...duel.draft, sealed: false };
    saveWithChat(duel);
    await render(duel, { feedback: null });
  });
}

// The resolved turn meets the draft: the engine carries it over (remoteCarry) and says what the
// result changed. Orders sealed early go at once when nothing changed and they are complete;
// otherwise the draft waits on the real form with the changes beside it. A decision first keeps
// the draft for after it. Runs inside serial(); returns {status, code, turn} when orders went.
async function carryDraft(duel, status) {
  const d = duel.draft;
  if (!d || d.carried) return null;
  const ordersNow = status.state === 'your_input' && (status.need === 'orders' || status.need === 'time_stop');
  if (status.state !== 'over' && !ordersNow) return null;
  const r = await api.remoteCarry(duel.session, d.orders || {});
  if (!r.ok || (!r.ready && !r.over)) return null;
  if (r.over) {
    duel.draft = { turn: d.turn, carried: true, over: true, changes: r.changes };
    persist(duel, status);
    return null;
  }
  if (d.sealed && r.intact && r.legal) {
    const sealed = await api.remoteSeal(duel.session, r.orders);
    if (sealed.ok) {
      const before = { draft: duel.draft, sealed: duel.sealed };
      duel.draft = null;
      duel.sealed = { turn: status.turn, gestures: r.orders.gestures };
      if (keep(duel, sealed.session, sealed.status)) {
        sendLiveIfConnected(duel, sealed.code);
        return { status: await releaseIfLive(duel, sealed.status), code: sealed.code, turn: status.turn };
      }
      // Not stored, so not sent: the orders wait on the form, to be sealed once there is room.
      Object.assign(duel, before);
      app.toast(sentence(unsavedMessage('seal your orders again')), 'error');
    }
  }
  duel.draft = {
    turn: status.turn, carried: true, wasSealed: Boolean(d.sealed), changes: r.changes,
    orders: r.orders, form: draftFromOrders(r.orders),
  };
  persist(duel, status);
  return null;
}

function keepCarried(id, turn, form, orders) {
  return serial(async () => {
    const duel = storage.loadGame(id);
    if (!duel || !duel.draft || !duel.draft.carried || duel.draft.turn !== turn) return;
    duel.draft = { ...duel.draft, form, orders };
    saveWithChat(duel);
  });
}

// What the resolved turn changed in the draft, beside the real form (or on the result screen).
function draftChanges(draft, turn) {
  if (!draft || !draft.carried || (!draft.over && draft.turn !== turn)) return null;
  const lead = draft.over
    ? `Your draft for turn ${draft.turn} is not needed:`
    : draft.changes.length
      ? `Your draft for turn ${draft.turn} is on the form, but the last turn's result changed it${draft.wasSealed ? ', so it was not sealed by itself' : ''}:`
      : `Your draft for turn ${draft.turn} is on the form as you left it${draft.wasSealed ? ' (complete it, then seal)' : ''}.`;
  return h('div', { class: draft.changes.length ? 'card warning draft-changes' : 'card draft-changes', 'data-testid': 'draft-changes', role: 'status' },
    h('p', {}, lead),
    draft.changes.length ? h('ul', {}, draft.changes.map((c) => h('li', { 'data-code': c.code, 'data-field': c.field }, c.message))) : null);
}

// Applies a code to a stored duel, then shows it with the feedback that `tell(result)` picks
// (null: none; SKIP: do not redraw), in one step of the queue so that no other code comes
// between. result: {duel, status, note, reply} or {duel, error}; nothing changes on an error.
const SKIP = Symbol('skip');
function receive(id, text, tell, { withOffer = false } = {}) {
  return serial(async () => {
    const duel = storage.loadGame(id);
    if (!duel) return { error: { code: 'gone', message: 'this duel is no longer saved here' } };
    const r = await api.remoteReceive(duel.session, text);
    // The host's code came without the offer this side declined: the decline has reached it.
    if (r.ok) transports.heardByHand(id, { withOffer });
    let result = { duel, error: r.ok ? null : r.error };
    if (r.ok && !keep(duel, r.session, r.status)) {
      // Not stored, so not applied: the code can be applied again once there is room.
      result = { duel, error: { code: 'storage-full', message: unsavedMessage('apply the code again') }, retry: () => receive(id, text, tell) };
    } else if (r.ok) {
      sendLiveIfConnected(duel, r.reply);
      let st = await releaseIfLive(duel, r.status);
      const queued = await sealQueued(duel, st);
      if (queued) st = queued.status;
      const early = queued ? null : await carryDraft(duel, st);
      if (early) st = early.status;
      result = { duel, status: st, note: r.note, reply: r.reply || (queued && queued.code) || (early && early.code) || null, early: early ? early.turn : null, error: null };
    }
    const feedback = await tell(result);
    if (feedback !== SKIP) await render(duel, { status: result.status, feedback });
    return result;
  });
}

function receivedFeedback(result, duel) {
  if (result.error && result.error.code === 'storage-full') return unsavedFeedback(duel.id, 'apply the code again', result.retry);
  if (result.error && result.error.code === 'desync') {
    // The message says what to do; the record is what a report needs.
    return { ...errorFeedback(result.error), extra: h('div', { class: 'actions' }, h('button', { type: 'button', 'data-testid': 'export-desync', onclick: () => app.exportDuel(duel) }, 'Export the record')) };
  }
  if (result.error) return errorFeedback(result.error);
  if (result.note) return { kind: 'note', message: result.note };
  const opp = opponentOf(duel.session);
  if (result.early && !live.isConnected(duel.id)) {
    return { kind: 'info', message: `Applied. Your orders sealed early for turn ${result.early} were left as they were by the result, so they are sealed: send ${opp} your next code` };
  }
  if (result.reply && !live.isConnected(duel.id)) {
    return { kind: 'info', message: `Applied. Your page made the next code by itself (the exchange needs it): send it to ${opp}` };
  }
  return { kind: 'info', message: `${opp}’s code is applied` };
}

// ---------------------------------------------------------------------------------------------
// Routing pasted text and opened links

// A code from the start screen or an opened link (never one that came live: onLiveCode): the
// invitation dialog, the duel it belongs to, or a live connection step. Returns an error message or null.
async function openText(text) {
  if (!text || !text.trim()) return 'Paste a code or a link first.';
  const parts = splitCodes(text);
  if (parts.turn && parts.rtc) return openBundle(parts);
  const rtc = live.kindOf(text);
  if (rtc.ok) return rtc.kind === 'offer' ? joinFromStart(text) : answerFromStart(text);
  if (!NOT_RTC.has(rtc.error.code)) return sayError(rtc.error);
  const down = await engineReady();
  if (down) return down;
  const described = await api.remoteDescribe(text);
  if (!described.ok) return holdsNoCode(text, rtc) ? notACode(text, 'your friend') : described.error.message;
  const info = described.code;
  const mine = remoteDuels(info.game_id);
  if (info.kind === 'invite') {
    const guest = mine.find((d) => d.session.me === 1);
    if (guest) {
      await render(guest, { feedback: { kind: 'note', message: 'You already accepted this invitation: here is that duel' } });
      return null;
    }
    if (mine.some((d) => d.session.game)) {
      // Already accepted (the duel is under way or over): a second acceptance would only make
      // a second, orphaned duel.
      await render(mine[0], { feedback: { kind: 'note', message: 'This is your own invitation, and it has been accepted already: here is that duel' } });
      return null;
    }
    if (mine.length) {
      const anyway = h('div', { class: 'actions' }, h('button', {
        type: 'button', 'data-testid': 'accept-own', onclick: () => offerInvitation(info.code, info),
      }, 'Accept it here anyway (play both sides in this browser)'));
      await render(mine[0], { feedback: { ...errorFeedback({ code: 'own-code', message: 'this is your own invitation: send it to your friend, and paste here the code they send back' }), extra: anyway } });
      return null;
    }
    await offerInvitation(info.code, info);
    return null;
  }
  const duel = mine.find((d) => d.session.me !== info.sender) || mine[0];
  if (!duel) {
    // Often the invitation was opened in a chat app's own browser and this link in another one.
    return `This code (turn ${info.turn}) belongs to a duel that is not saved in this browser. Open it in the browser where you accepted the invitation or started the duel (a chat app may have opened that link in its own browser), or paste the invitation here first.`;
  }
  await receive(duel.id, info.code, (result) => receivedFeedback(result, duel));
  return null;
}

// A turn code with a connection code (an invitation with the offer, an acceptance or turn code
// with an answer or offer): the turn code goes where it belongs, the connection code to its duel.
async function openBundle({ turn, rtc }) {
  const kind = live.kindOf(rtc);
  if (!kind.ok) return sayError(kind.error);
  const down = await engineReady();
  if (down) return down;
  const described = await api.remoteDescribe(turn);
  if (!described.ok) return described.error.message;
  const info = described.code;
  const mine = remoteDuels(info.game_id);
  if (info.kind === 'invite' && !mine.some((d) => d.session.me === 1) && kind.kind === 'offer') {
    if (mine.length) return openText(turn);
    await offerInvitation(info.code, info, { offer: rtc });
    return null;
  }
  const duel = mine.find((d) => d.session.me !== info.sender) || mine[0];
  if (!duel) return openText(turn);
  await applyBundle(duel.id, info.code, rtc, kind.kind);
  return null;
}

// Starts the connection step of a bundle for one duel and applies its turn code meanwhile.
async function applyBundle(id, turn, rtc, rtcKind) {
  const connecting = rtcKind === 'offer' ? joinForDuel(id, rtc, { once: true }) : answerForDuel(rtc);
  const result = await receive(id, turn, (got) => (got.duel ? receivedFeedback(got, got.duel) : SKIP), { withOffer: rtcKind === 'offer' });
  await connecting;
  return !result.error;
}

// The invitation dialog. An invitation carrying a connection offer says what connecting does,
// and answers the offer only if the player accepts *and* chooses to connect: nothing of WebRTC
// starts before that click (issue 12, finding 3). how: {viaLive, link, from} for one that came
// over a live connection, {offer} for one that carries an offer.
async function offerInvitation(text, info, how = {}) {
  const { viaLive = false, offer = null } = how;
  if (viaLive) pendingInvite = { text, info, ...how };
  if (shown && shown.join) shown.refresh();
  const explanation = offer
    ? connectExplanation({ inviter: info.host, facts: await live.offerFacts(offer, iceOf()) })
    : null;
  // A dialog opened by the player's own paste or link replaces one on display; never two at once.
  if (acceptDialog) acceptDialog.close();
  const prefs = storage.loadPrefs();
  const field = document.getElementById('name-0');
  const handle = openAcceptDialog({
    host: info.host, rules: rulesText(info.rules), live: explanation,
    name: (field && field.value.trim()) || (prefs.names || [])[0] || '',
    onAccept: (name, { connect }) => accept(text, name, { ...how, connect }),
  });
  acceptDialog = handle;
  handle.dialog.addEventListener('close', () => { if (acceptDialog === handle) acceptDialog = null; });
}

async function joinFromStart(text) {
  if (!(await askToConnect(null, text))) {
    app.goHome();
    return null;
  }
  const r = await live.join(text, { ice: iceOf(), duelId: null });
  if (!r.ok) return r.error.code === 'superseded' ? null : sayError(r.error);
  liveError = null;
  showJoin();
  return null;
}

async function answerFromStart(text) {
  const r = await live.answer(text);
  if (!r.ok) return sayError(r.error);
  const link = live.current();
  if (!r.elsewhere) {
    // This tab made the connection code: go back to the duel it carries.
    const duel = link && link.duelId ? storage.loadGame(link.duelId) : null;
    if (duel) await render(duel, { feedback: null });
    else showJoin();
    return null;
  }
  app.show(h('section', { class: 'pass', 'data-testid': 'answer-delivered' },
    h('h1', { tabindex: '-1' }, 'Answer delivered'),
    h('p', {}, 'Your other tab, where you made the connection code, has the answer: the duel goes on there. You can close this tab.'),
    h('button', { type: 'button', class: 'link', onclick: () => app.goHome() }, 'Back to the start screen')));
  return null;
}

// A code pasted on a duel's own screen: a turn code for this duel, or a live connection step for it.
async function pasteIntoDuel(id, text) {
  if (!text || !text.trim()) {
    shown?.refresh({ feedback: { kind: 'error', code: 'empty', message: 'paste the code or the link first', unchanged: false } });
    return false;
  }
  const parts = splitCodes(text);
  if (parts.turn && parts.rtc) {
    const kind = live.kindOf(parts.rtc);
    if (kind.ok) return applyBundle(id, parts.turn, parts.rtc, kind.kind);
  }
  const rtc = live.kindOf(text);
  if (rtc.ok) return rtc.kind === 'offer' ? joinForDuel(id, text) : answerForDuel(text);
  if (!NOT_RTC.has(rtc.error.code)) {
    shown?.refresh({ feedback: { kind: 'error', code: 'connection', title: 'This connection code cannot be used', message: sayError(rtc.error), unchanged: false } });
    return false;
  }
  const result = await receive(id, text, (got) => {
    if (!got.duel) return SKIP;
    if (got.error && got.error.code === 'corrupted' && holdsNoCode(text, rtc)) {
      // Nothing in it looks like a code (a sentence, another site's link): not "damaged".
      return { kind: 'error', code: 'not-a-code', title: 'This is not a Waving Hands code', message: notACode(text, opponentOf(got.duel.session), { titled: true }) };
    }
    const feedback = receivedFeedback(got, got.duel);
    return got.error && got.error.code === 'not-this-game' ? elsewhereFeedback(text, feedback) : feedback;
  });
  return !result.error;
}

// A code of another game pasted here: say which duel it belongs to, and offer to go there.
async function elsewhereFeedback(text, feedback) {
  const described = await api.remoteDescribe(text);
  if (!described.ok) return feedback;
  const info = described.code;
  if (info.kind === 'invite' && !remoteDuels(info.game_id).length) {
    return { ...feedback, extra: h('div', { class: 'actions' }, h('button', { type: 'button', 'data-testid': 'open-elsewhere', onclick: () => offerInvitation(info.code, info) }, `Accept ${info.host}'s invitation (a new duel)…`)) };
  }
  const other = remoteDuels(info.game_id).find((d) => d.session.me !== info.sender);
  if (!other) return feedback;
  return {
    ...feedback,
    extra: h('div', { class: 'actions' }, h('button', {
      type: 'button', 'data-testid': 'open-elsewhere',
      onclick: () => openText(info.code).then((message) => { if (message) app.toast(message, 'error'); }),
    }, `Apply it to ${other.summary.title}`)),
  };
}

/** openAddressLink() -> true when the page was opened from a code link (#c=… or #rtc=…) and is now handling it. */
function openAddressLink() {
  const href = location.href;
  if (!/#(?:.*&)?(?:c|rtc)=/.test(location.hash)) return false;
  // The code has been read: a reload or a shared address must not carry it again.
  history.replaceState(null, '', location.pathname + location.search);
  app.show(h('section', { class: 'pass', 'data-testid': 'opening-link' },
    h('h1', { tabindex: '-1' }, 'Opening the code…'),
    h('p', {}, 'The duel continues as soon as the rules engine has loaded.')));
  openText(href).then((message) => {
    if (!message) return;
    startNotice = { text: href, message };
    app.goHome();
  });
  return true;
}

// ---------------------------------------------------------------------------------------------
// Live connection

// The player's live connection settings: STUN text (null: the page's defaults) and a TURN relay.
function iceOf() {
  return { stun: storage.loadSetting('stun', null), turn: storage.loadSetting('turn', null) };
}

function iceSettingsOpts() {
  return {
    ice: iceOf(),
    defaultStun: live.defaultStun,
    onIce: ({ stun, turn }) => {
      if (stun !== undefined) storage.saveSetting('stun', stun);
      if (turn !== undefined) storage.saveSetting('turn', turn);
    },
  };
}

async function startLive(duelId) {
  liveBusy = 'Preparing a connection code (finding this device’s network addresses)…';
  liveError = null;
  shown?.refresh();
  const r = await live.host({ ice: iceOf(), duelId });
  liveBusy = '';
  if (!r.ok && r.error.code !== 'superseded') liveError = r.error;
  shown?.refresh();
}

// Answering a connection offer reveals this player's address to its author and to the ICE
// servers, and sends checks to the addresses it names: asked first, saying to whom (issue 12,
// finding 3). Resolves to true once the player clicked "Connect live". once: an offer the player
// turned down is not asked about again when it comes inside a turn code (the host's codes carry
// it until it is answered); pasted or opened on its own, it is asked about again.
const declinedOffers = new Set();
const offerKey = (offer) => String(offer).replace(/\s+/g, '');

// The host of a declined offer waits for an answer until told: this side's next code carries a
// decline (an answer that reveals nothing, docs/webrtc.md "Declining") for the duel, until a code
// of the host's comes without the offer (it has stopped offering). Kept in this page only.
function decline(duelId, offer) {
  declinedOffers.add(offerKey(offer));
  transports.decline(duelId, offer);
}

async function askToConnect(inviter, offer, { once = false } = {}) {
  if (once && declinedOffers.has(offerKey(offer))) return false;
  const yes = await openConnectDialog({ inviter, facts: await live.offerFacts(offer, iceOf()) });
  if (!yes) declinedOffers.add(offerKey(offer));
  return yes;
}

// asked: the player has already chosen to connect (the invitation dialog's "Accept and connect
// live"); once: as askToConnect's (an offer inside a turn code).
async function joinForDuel(duelId, text, { asked = false, once = false } = {}) {
  if (!asked) {
    const duel = storage.loadGame(duelId);
    if (!(await askToConnect(duel ? opponentOf(duel.session) : null, text, { once }))) {
      decline(duelId, text);
      shown?.refresh();
      return false;
    }
  }
  liveBusy = 'Answering the connection code…';
  liveError = null;
  shown?.refresh();
  const r = await live.join(text, { ice: iceOf(), duelId });
  liveBusy = '';
  if (!r.ok && r.error.code !== 'superseded') liveError = r.error;
  shown?.refresh();
  return r.ok;
}

async function answerForDuel(text) {
  liveError = null;
  const r = await live.answer(text);
  if (!r.ok) liveError = r.error;
  const duel = r.ok && r.declined && shown && shown.id ? storage.loadGame(shown.id) : null;
  // A decline of an offer this page no longer holds (it reloaded since): say so all the same.
  if (duel && duel.session) shown.refresh({ feedback: { kind: 'note', message: `${opponentOf(duel.session)} chose to play by codes only: the duel goes on by codes` } });
  else shown?.refresh();
  return r.ok;
}

// What to tell the opponent: 'sealed' only while my input to the phase under way is committed
// and theirs is still to come (the session's status says so), so it never refers to a turn they
// are past.
function presenceFor(status) {
  if (status.state === 'your_input') return 'choosing';
  if (status.state === 'waiting' && status.sealed) return 'sealed';
  if (status.state === 'waiting' && status.ahead) return 'choosing';
  return 'waiting';
}

async function onLiveChange(link) {
  const status = link ? link.status().state : null;
  const becameConnected = status === STATUS.CONNECTED && lastLiveStatus !== STATUS.CONNECTED;
  lastLiveStatus = status;
  if (becameConnected) liveError = null;
  if (becameConnected && link.duelId) {
    // A code in flight when the link last broke may be lost; sending the last one again is harmless.
    await serial(async () => {
      const duel = storage.loadGame(link.duelId);
      if (!duel) return;
      const r = await api.remoteStatus(duel.session);
      if (!r.ok) return;
      if (r.status.last_sent) sendLiveIfConnected(duel, r.status.last_sent);
      const after = await releaseIfLive(duel, r.status);
      link.setPresence(presenceFor(after));
      // A reveal that went now changes the screen (the other side commits first this turn).
      if (after !== r.status && shown && shown.id === duel.id) await render(duel, { status: after });
    });
  }
  if (shown) shown.refresh();
}

// Chat (live only): plain text kept with the duel, each line marked with the turn it was said
// in, so it reads in the duel's time line. Stored through serial(), so that a code applied at
// the same moment does not overwrite it.
const chatDrafts = new Map(); // duel id -> {value, focused}: the chat box's unsent text

// `said`: the turn the line was said in (mine for my lines; the sender's stamp, placed by
// chatLineTurn, for theirs); null files it under this duel's turn now.
function addChat(id, from, text, said = null) {
  return serial(async () => {
    const duel = storage.loadGame(id);
    if (!duel) return;
    const now = (duel.summary && duel.summary.turn) || 1;
    const turn = from === 'them' ? chatLineTurn(said, now) : now;
    unsavedChat.set(id, [...(unsavedChat.get(id) || []), { from, text, turn, at: Date.now() }]);
    const stored = saveWithChat(duel);
    if (shown && shown.id === id) shown.refresh({ duel, ...(stored ? {} : { feedback: unsavedChatFeedback(id) }) });
  });
}

// The feedback for chat lines that could not be stored: the line stays on the screen (and was
// sent, or received, all the same); "Save now" stores it once there is room.
function unsavedChatFeedback(id) {
  const count = (unsavedChat.get(id) || []).length;
  const why = storage.saveRefusal() === 'unavailable'
    ? 'This browser refused to store the duel (its storage is switched off for this page)'
    : 'Your browser’s storage for this page is full';
  const lines = count === 1 ? 'the last chat line was' : `the last ${count} chat lines were`;
  return {
    kind: 'error', code: 'storage-full', title: 'Chat not saved', unchanged: false,
    message: `${why}, so ${lines} not saved: they stay on this screen, but a reload would lose them. Delete or export old duels, then save now.`,
    extra: h('div', { class: 'actions' },
      h('button', { type: 'button', class: 'primary', 'data-testid': 'open-saved-duels', onclick: () => app.openSavedDuels(id) }, 'Saved duels: make room…'),
      h('button', { type: 'button', 'data-testid': 'save-chat-again', onclick: () => saveChatAgain(id) }, 'Save now')),
  };
}

// "Save now": stores the waiting chat lines with the duel as stored (a code applied meanwhile included).
function saveChatAgain(id) {
  return serial(async () => {
    const duel = storage.loadGame(id);
    if (!duel) return;
    const stored = saveWithChat(duel);
    if (shown && shown.id === id) shown.refresh({ duel, feedback: stored ? null : unsavedChatFeedback(id) });
  });
}

function onLiveChat(text, link, turn) {
  if (link.duelId) addChat(link.duelId, 'them', text, turn);
}

function sendChat(id, text) {
  const duel = storage.loadGame(id);
  const link = live.current();
  if (!link) return { ok: false, error: { code: 'not-connected' } };
  const r = link.sendChat(text, (duel && duel.summary && duel.summary.turn) || null);
  if (r.ok) addChat(id, 'me', r.text);
  return r;
}

// A code that came over the live connection. The connection carries one duel (docs/protocol.md,
// "Threat model", issue 12 finding 1): the engine says where the code may go, from the duel the
// connection carries (remote_route_live); a code of any other duel is refused and the player
// told, without touching that duel, the binding, or opening a dialog. Only a new duel's
// invitation, on a connection that carries no duel or a finished one, offers the accept dialog,
// and at most one at a time.
async function onLiveCode(code, link) {
  if (await engineReady()) return;
  const bound = link.duelId ? storage.loadGame(link.duelId) : null;
  if (link.duelId && !bound) {
    refuseLive({ code: 'gone', message: 'a code came over the live connection, but the duel it carries is no longer saved here; it was ignored' });
    return;
  }
  const saved = storage.listGames().map((g) => /^r-([0-9a-f]+)-[01]$/.exec(g.id)).filter(Boolean).map((m) => m[1]);
  const from = bound ? bound.id : null;
  const routed = await api.remoteRouteLive(bound ? bound.session : null, code, saved);
  if (live.current() !== link || link.duelId !== from) return; // another connection or duel since
  if (!routed.ok) {
    refuseLive(routed.error);
    return;
  }
  const info = routed.code;
  if (routed.route === 'invitation') {
    if (acceptDialog || isDialogOpen()) {
      // Never a dialog over a dialog: the player answers the one in front of them first.
      app.toast(`${info.host} sent another invitation over the live connection; it was ignored while a dialog is open.`);
      return;
    }
    await offerInvitation(info.code, info, { viaLive: true, link, from });
    return;
  }
  await receive(bound.id, info.code, (result) => {
    if (shown && shown.id && shown.id !== bound.id) {
      // The player is looking at another duel: do not pull them away from it.
      app.toast(`${opponentOf(bound.session)} moved in ${bound.summary.title}.`);
      return SKIP;
    }
    // A code applied cleanly says nothing, and leaves what is said on the screen (e.g. that a
    // code for another duel was ignored) until the screen moves on.
    return result.error ? receivedFeedback(result, bound) : undefined;
  });
}

// A live code that was refused: said on the duel screen on display, else in a toast; no dialog.
function refuseLive(error) {
  const feedback = { kind: 'error', code: error.code, title: 'A code that came live cannot be used', message: error.message };
  if (shown && shown.id) shown.refresh({ feedback });
  else app.toast(sentence(error.message), 'error');
}

// ---------------------------------------------------------------------------------------------
// Screens

function bodyKey(status, duel, drafting = null) {
  const queued = duel && duel.queued && duel.queued.turn === status.turn ? 'queued' : '';
  const draft = drafting ? 'draft' : duel && duel.draft && duel.draft.sealed ? 'early' : duel && duel.draft && duel.draft.carried ? 'carried' : '';
  return [status.state, status.need || '', status.turn, status.phase, status.seq, status.ahead ? 'ahead' : '', queued, draft].join(':');
}

// Draws the duel: the same screen again (only the panel changes) while the session's state stays,
// so a live message never wipes orders being written.
async function render(duel, { status = null, feedback } = {}) {
  if (!duel) return;
  let st = status;
  if (!st) {
    const r = await api.remoteStatus(duel.session);
    if (!r.ok) {
      app.fail(`This saved duel cannot be read: ${sentence(r.error.message)}`);
      return;
    }
    st = r.status;
  }
  let view = null;
  app.useRules(duel.session.ruleset);
  if (duel.session.game) {
    const v = await api.view(duel.session.game, duel.session.me);
    if (!v.ok) {
      app.fail(`This saved duel cannot be read: ${sentence(v.error.message)}`);
      return;
    }
    view = v.view;
  }
  const link = st.last_sent ? await api.remoteLink(st.last_sent, pageBase()) : null;
  const extras = { link: link && link.ok ? link.link : null };
  // By codes, while waiting for the code that resolves the turn this player sealed, the next
  // turn's form is open as a draft (live, the codes travel by themselves).
  let drafting = null;
  if (st.state === 'waiting' && !st.ahead && view && !live.isConnected(duel.id) && !(duel.draft && duel.draft.sealed)) {
    const r = await api.remoteDraft(duel.session, (duel.draft && !duel.draft.carried && duel.draft.orders) || {});
    if (r.ok && r.draftable) drafting = { view: r.view };
  }
  extras.drafting = drafting;
  const queuedNow = Boolean(duel.queued && duel.queued.turn === st.turn);
  if (live.current() && live.current().duelId === duel.id) live.current().setPresence(queuedNow ? 'sealed' : presenceFor(st));
  if (shown && shown.id === duel.id && shown.key === bodyKey(st, duel, drafting)) {
    shown.refresh({ duel, status: st, view, extras, ...(feedback === undefined ? {} : { feedback }) });
    return;
  }
  mount(duel, st, view, extras, feedback === undefined ? null : feedback);
}

function mount(duel, status, view, extras, feedback) {
  const id = duel.id;
  const me = duel.session.me;
  const opponent = opponentOf(duel.session);
  const onHome = () => app.goHome();
  const state = { duel, status, view, extras, feedback };
  const panel = h('div', { class: 'card remote-panel', 'data-testid': 'remote-panel' });
  const statusLine = h('p', { class: 'remote-status', 'data-testid': 'remote-status', role: 'status', 'aria-live': 'polite' });
  const sealedLine = h('p', { class: 'muted sealed-orders', 'data-testid': 'sealed-orders' });
  const earlySlot = h('div', {});
  const feedbackSlot = h('div', {});
  const sendSlot = h('div', {});
  const paste = pasteBox({
    id: 'remote-paste', testid: 'remote-paste', button: 'Apply',
    label: `Paste ${opponent}’s code or link`,
    onSubmit: (text) => pasteIntoDuel(id, text),
  });
  const pasteSlot = h('div', {});
  const liveSlot = h('div', {});
  const sentSlot = h('div', {});
  const glanceSlot = h('div', { class: 'glance-slot' });
  panel.append(statusLine, sealedLine, earlySlot, feedbackSlot, glanceSlot, sendSlot, pasteSlot, liveSlot, sentSlot);
  // On an orders or decision screen (input to give, nothing owed by hand first) the panel keeps
  // on top only what is read before choosing: the status, what the last code did and, on a
  // phone, a line of the live connection (the opponent's state, the newest chat line). The code
  // to send by hand, the paste box, the live panel and the codes sent open the board's column:
  // beside the form on a wide screen, under it on a phone (style.css). Both hands' pads are then
  // in the first screen above the seal bar, not under it (a live panel alone was ~350 px tall).
  const more = h('div', { class: 'card remote-panel remote-more', 'data-testid': 'remote-more' });
  let split = false;

  let body;
  let destroyBody = () => {};
  // Draws the chat into the screen's battle log (the decision screen and the invitation have none).
  let showChat = () => {};
  const { state: st, need } = status;
  const carried = duel.draft && duel.draft.carried && !duel.draft.over && duel.draft.turn === status.turn ? duel.draft : null;
  if (st === 'your_input' && (need === 'orders' || need === 'time_stop') && view) {
    const s = ordersScreen({
      view, seen: duel.seen || seenOf(null),
      preview: (draft) => api.preview(duel.session.game, me, draft),
      submit: (orders) => seal(id, orders, view),
      onSpell: (key) => app.openReference({ spell: key }),
      onHome,
      saved: carried ? carried.form : null,
      onDraft: carried ? (form, orders) => keepCarried(id, status.turn, form, orders) : undefined,
      aside: draftChanges(carried, status.turn),
    });
    body = s.element;
    destroyBody = s.destroy;
    showChat = s.showChat;
    body.querySelector('.duel-head').after(panel);
    split = true;
  } else if (st === 'waiting' && status.ahead && view && !(duel.queued && duel.queued.turn === status.turn)) {
    // The opponent speaks first this turn: write and seal now; the orders wait in this browser
    // until their commitment arrives.
    const s = ordersScreen({
      view, seen: duel.seen || seenOf(null),
      preview: (draft) => api.preview(duel.session.game, me, draft),
      submit: (orders) => sealAhead(id, orders, view),
      onSpell: (key) => app.openReference({ spell: key }),
      onHome,
    });
    body = s.element;
    body.dataset.ahead = 'true';
    destroyBody = s.destroy;
    showChat = s.showChat;
    body.querySelector('.duel-head').after(panel);
    split = true;
  } else if (st === 'waiting' && extras.drafting) {
    // Waiting for the code that resolves the turn just sealed: draft the next one meanwhile,
    // against what this player knows (the engine's projection); kept with the saved duel.
    const ahead = extras.drafting.view;
    const turn = ahead.phase.turn;
    const s = ordersScreen({
      // Nothing new has happened: the sealed row in the history is this player's own.
      view: ahead, seen: seenOf(ahead),
      preview: async (draft) => {
        const r = await api.remoteDraft(state.duel.session, draft);
        if (r.ok && !r.draftable) return { ok: false, error: { code: 'moved-on', message: 'the turn has moved on' } };
        return r;
      },
      submit: (orders) => sealEarly(id, turn, orders),
      onSpell: (key) => app.openReference({ spell: key }),
      onHome,
      saved: duel.draft && !duel.draft.carried && duel.draft.turn === turn ? duel.draft.form : null,
      onDraft: (form, orders) => keepDraft(id, turn, form, orders),
      submitLabel: 'Seal early',
      aside: h('p', { class: 'card draft-note', 'data-testid': 'draft-note' },
        `While ${opponent}’s code for turn ${turn - 1} is on its way, draft turn ${turn}. The draft is saved; when the code comes it is put on the real form, and whatever turn ${turn - 1}’s result changes in it is shown there. Sealed early, it goes by itself with your next code if nothing changed.`),
    });
    body = s.element;
    body.dataset.draft = 'true';
    destroyBody = s.destroy;
    showChat = s.showChat;
    body.querySelector('.duel-head').after(panel);
  } else if (st === 'your_input' && need === 'decision' && view) {
    const s = decisionScreen({ view, seen: duel.seen || seenOf(null), submit: (input) => seal(id, input, view), onHome });
    body = s.element;
    destroyBody = s.destroy;
    body.querySelector('.duel-head').after(panel);
    split = true;
  } else if (st === 'over' && view) {
    const s = gameOverScreen({
      views: [view, view], perspectives: [me],
      onRematch: () => begin(duel.mode, { names: [duel.session.names[me]], ruleset: duel.session.ruleset }, { after: id })
        .then((message) => { if (message) app.toast(message, 'error'); }),
      onExport: () => app.exportDuel(duel),
      onHome,
    });
    body = s.element;
    destroyBody = s.destroy;
    showChat = s.showChat;
    body.querySelector('.result').after(panel);
    const spent = duel.draft && duel.draft.over ? draftChanges(duel.draft, status.turn) : null;
    if (spent) panel.after(spent);
  } else {
    const title = status.state === 'awaiting_accept' ? 'A new duel: the invitation' : `${duel.summary.names.join(' vs ')} — turn ${status.turn}`;
    const board = view ? boardView(view, duel.seen || seenOf(null)) : null;
    if (board) showChat = board.showChat;
    body = h('section', { class: 'duel-screen', 'data-testid': 'waiting-screen' },
      remoteHead({ title, tag: MODE_LABELS[duel.mode] || 'remote', onHome }),
      panel,
      board ? board.element : null);
  }
  const root = h('div', { class: 'remote-screen', 'data-testid': 'remote-screen', 'data-game': duel.session.game_id, 'data-me': String(me) }, body);
  if (split) {
    // (drawPanel puts the live slot in its place among them, wherever they stand)
    more.append(sendSlot, pasteSlot, liveSlot, sentSlot);
    body.querySelector('.duel-board').prepend(more);
    root.dataset.split = 'true';
  }
  storage.setCurrentGameId(id);

  // What is being typed in the chat box outlives the screen's redraws (a sealed turn remounts it).
  if (!chatDrafts.has(id)) chatDrafts.set(id, { value: '', focused: false });
  const chatDraft = chatDrafts.get(id);
  function drawPanel() {
    const { duel: d, status: s, extras: x } = state;
    const opp = opponentOf(d.session);
    root.dataset.state = s.state;
    root.dataset.need = s.need || '';
    root.dataset.turn = String(s.turn);
    root.dataset.seq = String(s.seq);
    root.dataset.sent = String(s.sent);
    statusLine.textContent = s.message;
    const queued = d.queued && d.queued.turn === s.turn && d.queued.input.gestures ? { turn: d.queued.turn, gestures: d.queued.input.gestures } : null;
    const sealed = queued || (d.sealed && s.state === 'waiting' && d.sealed.turn === s.turn ? d.sealed : null);
    root.dataset.queued = queued ? 'true' : '';
    root.dataset.sealed = s.sealed ? 'true' : '';
    sealedLine.hidden = !sealed;
    sealedLine.textContent = sealed ? `Your sealed orders for turn ${sealed.turn}: ${sealed.gestures.map(([l, r]) => `left ${gestureLabel(l)}, right ${gestureLabel(r)}`).join('; then ')}.` : '';
    const early = s.state === 'waiting' && d.draft && d.draft.sealed && d.draft.orders ? d.draft : null;
    root.dataset.early = early ? String(early.turn) : '';
    replace(earlySlot, early ? h('div', { class: 'early-sealed', 'data-testid': 'early-sealed' },
      h('p', {}, `Sealed early for turn ${early.turn}: ${early.orders.gestures.map(([l, r]) => `left ${gestureLabel(l)}, right ${gestureLabel(r)}`).join('; then ')}. They go by themselves with your next code as soon as ${opp}’s code arrives, if its result leaves them as they are; otherwise they wait on the form.`),
      h('div', { class: 'actions' }, h('button', { type: 'button', 'data-testid': 'unseal-early', onclick: () => unsealEarly(id) }, 'Change them'))) : null);
    replace(feedbackSlot, feedbackBox(state.feedback));
    const link = live.current();
    const carried = link && link.duelId === id ? link.status() : null;
    const connected = live.isConnected(id);
    const qr = transports.byHand(id).qr;
    // While a live connection carries this duel (or is being made for it), codes by hand step back.
    const liveFirst = Boolean(carried && carried.state !== STATUS.DISCONNECTED && carried.state !== STATUS.CLOSED) || Boolean(liveBusy && d.mode === 'live');
    // A connection code still to deliver (an offer not yet answered, an answer the host has not
    // pasted, or a decline) travels inside the turn code this side sends: one code each way.
    const both = owesCode(s) ? transports.outgoing(id, s.last_sent, x.link) : null;
    const rtcCode = carried && carried.pending ? carried.pending.code : null;
    const bundled = Boolean(both && (both.carries === 'offer' || both.carries === 'answer'));
    let send = null;
    if (both && both.carries === 'decline') {
      const lead = `Send this code to ${opp} (it also tells them you play by codes only, not live):`;
      send = codeBlock({ code: both.code, link: both.link, lead, testid: 'remote-code', primary: true, qr, shareText: 'My move in our Waving Hands duel' });
    } else if (bundled) {
      const lead = s.state === 'awaiting_accept'
        ? 'Send this invitation to your friend, by any chat or message (one code or link: it also connects you live):'
        : `Send this code to ${opp} (it also carries the live connection):`;
      send = codeBlock({ code: both.code, link: both.link, lead, testid: 'remote-code', primary: true, qr, shareText: s.state === 'awaiting_accept' ? 'A duel of wizards: accept my challenge' : 'My move in our Waving Hands duel' });
    } else if (owesCode(s)) {
      const lead = s.state === 'awaiting_accept'
        ? 'Send this invitation to your friend, by any chat or message:'
        : `Send this code to ${opp}:`;
      const block = codeBlock({ code: s.last_sent, link: x.link, lead, testid: 'remote-code', primary: !liveFirst, qr, shareText: s.state === 'awaiting_accept' ? 'A duel of wizards: accept my challenge' : 'My move in our Waving Hands duel' });
      if (connected && liveSent.has(s.last_sent)) {
        send = h('div', { class: 'sent-live' }, h('p', { 'data-testid': 'sent-live' }, `✓ Sent live to ${opp}.`),
          h('details', {}, h('summary', {}, 'Send it by hand instead'), block));
      } else if (liveFirst) {
        send = h('details', { class: 'paste-later' }, h('summary', {}, s.state === 'awaiting_accept' ? 'Or play by codes: send the invitation by hand' : 'Send the code by hand instead'), block);
      } else {
        send = block;
      }
    }
    replace(sendSlot, send);
    const waitingForCode = (s.state === 'waiting' || s.state === 'awaiting_accept') && (!liveFirst || bundled);
    replace(pasteSlot, waitingForCode
      ? paste
      : h('details', { class: 'paste-later' }, h('summary', {}, liveFirst ? 'Paste a code by hand' : `Paste a code from ${opp}`), paste));
    const said = { lines: chatLines(d), names: { me: d.session.names[d.session.me] || 'You', them: opp } };
    showChat(said.lines.length ? said : null);
    replace(liveSlot, isRemote(d.mode) && s.state !== 'over' || carried ? livePanel({
      link: carried, opponent: opp, busy: liveBusy, error: liveError,
      onStart: () => startLive(id),
      onAnswer: (text) => answerForDuel(text),
      onClose: () => { live.close(); },
      settings: iceSettingsOpts(), over: s.state === 'over',
      bundled: rtcCode ? (owesCode(s) ? 'sent' : 'next') : '',
      chat: {
        ...said, max: CHAT_MAX, draft: chatDraft, onSend: (text) => sendChat(id, text),
      },
    }) : null);
    // The live panel leads while it is the way the codes go (once its code is on its way).
    if (liveFirst && !bundled) sendSlot.before(liveSlot);
    else pasteSlot.after(liveSlot);
    replace(glanceSlot, split && connected && s.state !== 'over' ? liveGlance({ link: carried, opponent: opp, chat: said }) : null);
    if (liveFirst && !bundled && s.state === 'awaiting_accept') {
      // The invitation will go over the connection: what to do now is the connection's word.
      statusLine.textContent = carried ? say(`live-${carried.reason}`) : liveBusy || s.message;
    }
    if (connected && s.state === 'waiting') {
      // Live, the opponent's code comes by itself: the session's words ("paste it here when it
      // comes") are for codes carried by hand.
      statusLine.textContent = s.ahead && !queued
        ? `Turn ${s.turn}: write your orders now. ${opp} seals first this turn; yours go by themselves once ${opp}’s arrive.`
        : `Waiting for ${opp} (turn ${s.turn}): the code comes by itself over the live connection, nothing to paste.`;
    }
    replace(sentSlot, sentList(d.session.sent || [], opp));
  }
  drawPanel();

  const unwatch = storage.watchGame(id, () => {
    // Another tab of this browser applied a code to this duel (a link opened there): catch up.
    const fresh = storage.loadGame(id);
    if (fresh) serial(() => render(fresh, { feedback: null }));
  });
  shown = {
    id, key: bodyKey(status, duel, extras.drafting),
    refresh(update = {}) {
      Object.assign(state, update);
      drawPanel();
    },
  };
  const me2 = shown;
  app.show(root, () => {
    destroyBody();
    unwatch();
    if (shown === me2) shown = null;
  });
}

function showJoin({ busy = '' } = {}) {
  const slot = h('div', {});
  const root = h('section', { class: 'duel-screen remote-screen', 'data-testid': 'live-join-screen' },
    remoteHead({ title: 'Joining a live duel', tag: 'live', onHome: () => app.goHome() }),
    h('div', { class: 'card remote-panel join-panel' }, slot));
  const draw = () => {
    const link = live.current();
    const linkState = link ? link.status() : null;
    const invite = pendingInvite
      ? h('div', { class: 'actions' }, h('button', {
        type: 'button', class: 'primary', 'data-testid': 'open-invitation',
        onclick: () => offerInvitation(pendingInvite.text, pendingInvite.info, pendingInvite),
      }, `Answer ${pendingInvite.info.host}'s invitation…`))
      : null;
    const waiting = linkState && linkState.state === STATUS.CONNECTED && !pendingInvite
      ? pending('Connected: waiting for the invitation…')
      : null;
    replace(slot,
      livePanel({
        link: linkState && !linkState.duelId ? linkState : null, opponent: 'your opponent', busy, error: liveError,
        onStart: () => app.goHome(), onAnswer: answerForDuel, onClose: () => { live.close(); app.goHome(); },
        settings: iceSettingsOpts(),
      }),
      waiting, invite);
  };
  draw();
  shown = { id: null, join: true, refresh: () => { busy = ''; draw(); } };
  const me2 = shown;
  app.show(root, () => { if (shown === me2) shown = null; });
}

// ---------------------------------------------------------------------------------------------
// Start screen

// The start screen's name fields: a remote duel names only this player's wizard (the friend
// names theirs), so the second field goes while a remote mode is chosen.
function adaptNameFields(form) {
  const first = form.querySelector('label[for=name-0]');
  const secondInput = form.querySelector('#name-1');
  const second = secondInput && secondInput.closest('.field');
  if (!first || !second) return;
  const firstWords = first.textContent;
  const apply = () => {
    const chosen = form.querySelector('input[name=mode]:checked');
    const remote = Boolean(chosen && isRemote(chosen.value));
    second.hidden = remote;
    secondInput.required = !remote;
    first.textContent = remote ? 'Your wizard' : firstWords;
  };
  form.addEventListener('change', (event) => { if (event.target.name === 'mode') apply(); });
  apply();
}

function fillStartSlot(slot) {
  const notice = startNotice;
  startNotice = null;
  const box = joinBox({ onOpen: (text) => openText(text), settings: iceSettingsOpts() });
  slot.append(box);
  let error = null;
  if (notice) {
    box.querySelector('[data-testid=join-text]').value = notice.text;
    error = box.querySelector('[data-testid=join-error]');
    error.textContent = sentence(notice.message);
    error.hidden = false;
  }
  // The slot is put into the form right after this returns.
  queueMicrotask(() => {
    const form = slot.closest('form');
    if (form) adaptNameFields(form);
    // An opened link that could not be used says why where the eye is: on a phone the box is
    // a screen or two below the top of the start screen.
    if (error && error.isConnected) {
      error.setAttribute('tabindex', '-1');
      error.scrollIntoView({ block: 'center' });
      error.focus({ preventScroll: true });
    }
  });
}

async function resume(saved) {
  const down = await engineReady();
  if (down) {
    app.fail(down);
    return;
  }
  await render(storage.loadGame(saved.id) || saved, { feedback: null });
}

/**
 * installRemote(deps) registers "Play by codes" and "Play live" and returns the hooks app.js
 * wires in: {fillStartSlot(slot), resume(savedDuel), isRemoteDuel(saved), openAddressLink()}.
 * deps: {registerMode, show, toast, goHome, fail, engine, openReference, exportDuel, useRules}.
 */
export function installRemote(deps) {
  app = deps;
  deps.registerMode({
    id: 'codes',
    label: 'Play by codes',
    hint: 'With a friend far away: trade one short code per turn in any chat or message. You name your wizard; your friend names theirs.',
    begin: (params) => begin('codes', params),
  });
  deps.registerMode({
    id: 'live',
    label: 'Play live',
    hint: 'With a friend online now: trade one pair of connection codes, then the turns travel by themselves, with no server.',
    begin: (params) => begin('live', params),
  });
  live.onReceive(onLiveCode);
  live.onChat(onLiveChat);
  live.onChange((link) => { onLiveChange(link); });
  window.addEventListener('hashchange', () => { openAddressLink(); });
  return { fillStartSlot, resume, isRemoteDuel: (saved) => Boolean(saved && saved.session), openAddressLink };
}
