// The live connection panel (docs/webrtc.md): the connection code or answer to send, the box for
// the answer, the connection's state and the opponent's, and the buttons to end it or connect
// again. The transport's own sentences (STATUS_TEXT) are shown as they are.

import { h, nameOf } from './dom.js';
import { codeBlock, pasteBox, pending, sentence, stunField } from './remote.js';

const CHIP = {
  off: 'by codes',
  connecting: 'connecting…',
  connected: 'connected live',
  reconnecting: 'reconnecting…',
  disconnected: 'not connected',
  closed: 'not connected',
};

function presenceLine(peer, opponent) {
  const words = {
    choosing: [nameOf(opponent), ' is choosing…'],
    sealed: [nameOf(opponent), ' has sealed their move: yours now.'],
    waiting: [nameOf(opponent), ' is waiting for your move.'],
  };
  return h('p', { class: 'presence', 'data-testid': 'live-presence', 'data-peer': peer || '' },
    peer ? words[peer] : [nameOf(opponent), ' is connected.']);
}

/**
 * livePanel(opts) -> the live connection card of a remote duel (or of a page joining one).
 * opts: {link (live.js's currentLink() when it carries this duel, else null), opponent, busy,
 * error: {message}|null, onStart(), onAnswer(text) -> Promise<boolean>, onClose(), stun, onStun(text),
 * over: the duel has ended, so the opponent's turn state is not shown}.
 */
export function livePanel({ link, opponent, busy = '', error = null, onStart, onAnswer, onClose, stun, onStun, over = false }) {
  const status = link ? link.status : 'off';
  const reason = link ? link.detail.reason : '';
  const body = [];
  if (busy) {
    body.push(pending(busy));
  } else if (!link) {
    // Not live: a one-line offer, so it does not crowd the orders of a duel played by codes.
    return h('details', { class: 'live-panel live-offer', 'data-testid': 'live-panel', 'data-status': 'off', open: Boolean(error) },
      h('summary', {}, 'Both online now? Play live with ', nameOf(opponent), '…'),
      h('p', { class: 'muted' }, 'Trade one pair of connection codes with ', nameOf(opponent), '; then every turn code travels by itself.'),
      h('div', { class: 'actions' }, h('button', { type: 'button', 'data-testid': 'live-start', onclick: onStart }, 'Make a connection code')),
      stunField({ stun, onStun }),
      error ? h('p', { class: 'problem', role: 'alert', 'data-testid': 'live-error' }, sentence(error.message)) : null);
  } else if (status === 'connecting' && reason === 'waiting-answer') {
    body.push(codeBlock({
      code: link.code, link: link.link, testid: 'live-code', primary: !link.answered,
      lead: ['1. Send this connection code (or link) to ', nameOf(opponent), '.'], shareText: 'Join my Waving Hands duel live',
    }));
    body.push(link.answered
      ? pending('Connecting…')
      : pasteBox({
        id: 'live-answer', testid: 'live-answer', button: 'Connect', placeholder: 'WHA1.… or a link',
        label: ['2. Paste the answer code ', nameOf(opponent), ' sends back'], onSubmit: onAnswer,
      }));
  } else if (status === 'connecting' && reason === 'waiting-host') {
    body.push(codeBlock({
      code: link.code, link: link.link, testid: 'live-code', primary: true,
      lead: ['Send this answer code (or link) back to ', nameOf(opponent), ': you are connected as soon as they paste it.'],
      shareText: 'My answer for our Waving Hands duel',
    }));
  } else if (status === 'connected') {
    body.push(over ? h('p', { class: 'presence' }, 'Connected to ', nameOf(opponent), '.') : presenceLine(link.peer, opponent),
      h('div', { class: 'actions' }, h('button', { type: 'button', class: 'tool', 'data-testid': 'live-close', onclick: onClose }, 'End the live connection')));
  } else if (status === 'disconnected' || status === 'closed') {
    body.push(h('p', {}, link.detail.message),
      h('div', { class: 'actions' }, h('button', { type: 'button', 'data-testid': 'live-start', onclick: onStart }, 'Connect again')),
      stunField({ stun, onStun }));
  } else {
    body.push(h('p', {}, link.detail.message));
  }
  return h('section', { class: 'live-panel', 'data-testid': 'live-panel', 'data-status': status, 'aria-label': 'Live connection' },
    h('div', { class: 'live-head' },
      h('h2', {}, 'Live connection'),
      h('span', { class: `chip live-chip is-${status}`, 'data-testid': 'live-status' }, CHIP[status] || status)),
    body,
    error ? h('p', { class: 'problem', role: 'alert', 'data-testid': 'live-error' }, sentence(error.message)) : null);
}
