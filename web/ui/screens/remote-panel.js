// The remote duel's panel: the session's status line, what this player sealed, what the last
// step did, the code to send (by hand, bundled with a connection code, or sent live), the paste
// box, the live connection and the codes sent. It draws a snapshot and reports intents; which way
// a code goes is decided by the flow (flows/remote/chat.js routes), not here.

import { h, replace } from '../dom.js';
import { codeBlock, feedbackBox, pasteBox, sentList } from '../remote.js';
import { liveGlance, livePanel } from '../live.js';
import { say } from '../words/index.js';
import { gesturesText } from './remote-words.js';

/** statusWords(status, snapshot, routes) -> the status line's sentence: live, the opponent's code comes by itself. */
export function statusWords(s, x, r) {
  if (r.liveFirst && !r.bundled && s.state === 'awaiting_accept') {
    // The invitation will go over the connection: what to do now is the connection's word.
    return r.carried ? say(`live-${r.carried.reason}`) : x.live.busy || s.message;
  }
  if (r.connected && s.state === 'waiting') {
    // Live, the opponent's code comes by itself: the session's words are for codes by hand.
    return s.ahead && !x.queued ? say('remote-write-now', { turn: s.turn, opp: x.opponent }) : say('remote-live-waiting', { turn: s.turn, opp: x.opponent });
  }
  return s.message;
}

/**
 * remotePanel({opponent, intents}) -> {panel, more, draw(snapshot, {split, showChat})}: the panel's
 * nodes (`more`: the part that opens the board's column on an orders or decision screen) and
 * its drawing. snapshot: see screens/remote.js; intents: {onPaste(text), onUnsealEarly(),
 * onChat(text), live: {onStart, onAnswer, onClose, settings}, qr, chatDraft}.
 */
export function remotePanel({ opponent, intents }) {
  const panel = h('div', { class: 'card remote-panel', 'data-testid': 'remote-panel' });
  const statusLine = h('p', { class: 'remote-status', 'data-testid': 'remote-status', role: 'status', 'aria-live': 'polite' });
  const sealedLine = h('p', { class: 'muted sealed-orders', 'data-testid': 'sealed-orders' });
  const [earlySlot, feedbackSlot, sendSlot, pasteSlot, liveSlot, sentSlot] = [1, 2, 3, 4, 5, 6].map(() => h('div', {}));
  const glanceSlot = h('div', { class: 'glance-slot' });
  const paste = pasteBox({
    id: 'remote-paste', testid: 'remote-paste', button: say('remote-apply'), label: say('remote-paste-label', { opp: opponent }), onSubmit: intents.onPaste,
  });
  panel.append(statusLine, sealedLine, earlySlot, feedbackSlot, glanceSlot, sendSlot, pasteSlot, liveSlot, sentSlot);
  // On an orders or decision screen the panel keeps on top only what is read before choosing;
  // the code to send by hand, the paste box, the live panel and the codes sent follow the form,
  // in its column: beside the scene and the board on a wide screen, under the form on a phone.
  const more = h('div', { class: 'card remote-panel remote-more', 'data-testid': 'remote-more' });

  function sendBlock(s, x, r) {
    const opp = x.opponent;
    const inviting = s.state === 'awaiting_accept';
    const block = (code, link, lead, primary) => codeBlock({ code, link, lead, testid: 'remote-code', primary, qr: intents.qr, shareText: say(inviting ? 'remote-share-invite' : 'remote-share-move') });
    const both = r.outgoing;
    if (both && both.carries === 'decline') {
      return block(both.code, both.link, say('remote-send-decline', { opp }), true);
    }
    if (r.bundled) {
      const lead = inviting
        ? say('remote-send-invite-live')
        : say('remote-send-live', { opp });
      return block(both.code, both.link, lead, true);
    }
    if (!s.code_owed) return null;
    const lead = inviting ? say('remote-send-invite') : say('remote-send', { opp });
    const plain = block(s.last_sent, x.link, lead, !r.liveFirst);
    if (r.sentLive) {
      return h('div', { class: 'sent-live' }, h('p', { 'data-testid': 'sent-live' }, say('remote-sent-live', { opp })),
        h('details', {}, h('summary', {}, say('remote-by-hand-instead')), plain));
    }
    if (r.liveFirst) {
      return h('details', { class: 'paste-later' }, h('summary', {}, say(inviting ? 'remote-invite-by-hand' : 'remote-code-by-hand')), plain);
    }
    return plain;
  }

  /** draw(snapshot, {split, showChat, root}) redraws the panel from a snapshot of the duel. */
  function draw(x, { split, showChat, root }) {
    const s = x.status;
    const r = x.routes;
    Object.assign(root.dataset, { state: s.state, need: s.need || '', turn: String(s.turn), seq: String(s.seq), sent: String(s.sent) });
    root.dataset.queued = x.queued ? 'true' : '';
    root.dataset.sealed = s.sealed ? 'true' : '';
    const sealed = x.queued || (x.duel.sealed && s.state === 'waiting' && x.duel.sealed.turn === s.turn ? x.duel.sealed : null);
    sealedLine.hidden = !sealed;
    sealedLine.textContent = sealed ? say('remote-sealed-line', { turn: sealed.turn, gestures: gesturesText(sealed.gestures) }) : '';
    const early = x.early;
    root.dataset.early = early ? String(early.turn) : '';
    replace(earlySlot, early ? h('div', { class: 'early-sealed', 'data-testid': 'early-sealed' },
      h('p', {}, say('remote-early-line', { turn: early.turn, gestures: gesturesText(early.orders.gestures), opp: x.opponent })),
      h('div', { class: 'actions' }, h('button', { type: 'button', 'data-testid': 'unseal-early', onclick: intents.onUnsealEarly }, say('remote-unseal-early')))) : null);
    replace(feedbackSlot, feedbackBox(x.feedback));
    replace(sendSlot, sendBlock(s, x, r));
    const waitingForCode = (s.state === 'waiting' || s.state === 'awaiting_accept') && (!r.liveFirst || r.bundled);
    // Once it is over there is nothing left to paste into this duel (a rematch's invitation is a new duel's).
    replace(pasteSlot, s.state === 'over' ? null : waitingForCode
      ? paste
      : h('details', { class: 'paste-later' }, h('summary', {}, say(r.liveFirst ? 'remote-paste-by-hand' : 'remote-paste-from', { opp: x.opponent })), paste));
    showChat(x.chat.lines.length ? x.chat : null);
    replace(liveSlot, (x.remoteMode && s.state !== 'over') || r.carried ? livePanel({
      link: r.carried, opponent: x.opponent, busy: x.live.busy, error: x.live.error,
      ...intents.live, over: s.state === 'over',
      bundled: r.rtcCode ? (s.code_owed ? 'sent' : 'next') : '',
      chat: { ...x.chat, max: x.live.chatMax, draft: intents.chatDraft, onSend: intents.onChat },
    }) : null);
    // The live panel leads while it is the way the codes go (once its code is on its way).
    if (r.liveFirst && !r.bundled) sendSlot.before(liveSlot);
    else pasteSlot.after(liveSlot);
    replace(glanceSlot, split && r.connected && s.state !== 'over' ? liveGlance({ link: r.carried, opponent: x.opponent, chat: x.chat }) : null);
    statusLine.textContent = statusWords(s, x, r);
    replace(sentSlot, sentList(x.duel.session.sent || [], x.opponent));
  }

  return { panel, more, slots: [sendSlot, pasteSlot, liveSlot, sentSlot], draw };
}
