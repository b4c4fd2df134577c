// The live connection panel (docs/webrtc.md): the connection code or answer to send, the box for
// the answer, the connection's state and the opponent's, and the buttons to end it or connect
// again. `link` is the live transport's status() snapshot (transport/live.js); its reason is put
// into words here (ui/words/live.js, "live-<reason>").

import { openDialog } from './dialog.js';
import { h, nameOf } from './dom.js';
import { codeBlock, iceSettings, pasteBox, pending, sentence } from './remote.js';
import { say, sayError } from './words/index.js';

const CHIP = {
  off: 'by codes',
  connecting: 'connecting…',
  connected: 'connected live',
  reconnecting: 'reconnecting…',
  disconnected: 'not connected',
  closed: 'not connected',
};

// What the opponent is doing, as the live connection tells it (fresh nodes on every call).
function presenceWords(peer, opponent) {
  const words = {
    choosing: [nameOf(opponent), ' is choosing…'],
    sealed: [nameOf(opponent), ' has sealed their move: yours now.'],
    waiting: [nameOf(opponent), ' is waiting for your move.'],
  };
  return words[peer] || [nameOf(opponent), ' is connected.'];
}

function presenceLine(peer, opponent) {
  return h('p', { class: 'presence', 'data-testid': 'live-presence', 'data-peer': peer || '' }, presenceWords(peer, opponent));
}

/**
 * liveGlance({link, opponent, chat}) -> the live connection in a line or two, for the top of a
 * phone's orders screen while the live panel itself stands under the orders: the opponent's
 * state, the newest chat line ({lines, names}, or none) and a button to the chat box.
 */
export function liveGlance({ link, opponent, chat = null }) {
  const line = chat && chat.lines.length ? chat.lines[chat.lines.length - 1] : null;
  const toChat = () => {
    const box = document.querySelector('[data-testid=chat-text]');
    if (!box) return;
    box.scrollIntoView({ block: 'center' });
    box.focus({ preventScroll: true });
  };
  const jump = h('button', { type: 'button', class: 'link', 'data-testid': 'live-glance-chat', onclick: toChat }, line && line.from === 'them' ? 'Reply' : 'Chat');
  return h('div', { class: 'live-glance', 'data-testid': 'live-glance', 'data-peer': link.peer || '' },
    h('p', { class: 'presence' }, h('span', { class: 'chip live-chip is-connected' }, 'live'), ' ', presenceWords(link.peer, opponent), line ? null : [' ', jump]),
    line ? h('p', { class: `chat-last from-${line.from}` },
      h('bdi', { class: 'who' }, chat.names[line.from] || line.from), ': ', h('bdi', { dir: 'auto' }, line.text), ' ', jump) : null);
}

// The newest chat line, beside the box, so a reply is seen without scrolling to the battle log
// (which holds the whole conversation in the duel's time line): plain text, the name isolated.
function lastLine({ lines, names }) {
  const line = lines[lines.length - 1];
  return h('p', { class: `chat-last from-${line.from}`, 'data-testid': 'chat-last', 'data-from': line.from, 'aria-live': 'polite' },
    h('bdi', { class: 'who' }, names[line.from] || line.from), ': ', h('bdi', { dir: 'auto' }, line.text));
}

// The chat while connected: what was said, and a one-line box (Enter sends). The panel is redrawn
// on every change of the connection, so what is being typed (and the focus) lives in chat.draft,
// an object the caller keeps for as long as the screen.
function chatBox(chat) {
  const draft = chat.draft || { value: '', focused: false };
  const input = h('input', {
    type: 'text', 'data-testid': 'chat-text', maxlength: String(chat.max), autocomplete: 'off',
    placeholder: 'Say something to your opponent', 'aria-label': 'Chat message', value: draft.value,
  });
  input.addEventListener('input', () => { draft.value = input.value; });
  input.addEventListener('focus', () => { draft.focused = true; });
  // A redraw removes the box while it has the focus: that blur is not the player's.
  input.addEventListener('blur', () => { if (input.isConnected) draft.focused = false; });
  if (draft.focused) queueMicrotask(() => { if (input.isConnected) input.focus(); });
  const said = h('span', { class: 'problem', role: 'alert', 'data-testid': 'chat-error' });
  const send = () => {
    const r = chat.onSend(input.value);
    if (r.ok) {
      input.value = '';
      draft.value = '';
    }
    else said.textContent = sentence(sayError(r.error));
  };
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      send();
    }
  });
  return h('div', { class: 'chat', 'data-testid': 'chat' },
    chat.lines.length ? lastLine(chat) : null,
    h('div', { class: 'paste-row' }, input, h('button', { type: 'button', 'data-testid': 'chat-send', onclick: send }, 'Send')),
    said);
}

/**
 * livePanel(opts) -> the live connection card of a remote duel (or of a page joining one).
 * opts: {link (the live transport's status() when it carries this duel, else null), opponent, busy,
 * error: {message}|null, onStart(), onAnswer(text) -> Promise<boolean>, onClose(), settings (iceSettings' options),
 * over: the duel has ended, so the opponent's turn state is not shown, bundled: '' | 'sent' (the
 * connection code travels inside the turn code shown above) | 'next' (it will go with this
 * player's next code), chat: {lines, names, max, draft, onSend(text) -> {ok, error?}} | null}.
 */
export function livePanel({ link, opponent, busy = '', error = null, onStart, onAnswer, onClose, settings, over = false, bundled = '', chat = null }) {
  const status = link ? link.state : 'off';
  const reason = link ? link.reason : '';
  const body = [];
  if (busy) {
    body.push(pending(busy));
  } else if (!link) {
    // Not live: a one-line offer, so it does not crowd the orders of a duel played by codes.
    return h('details', { class: 'live-panel live-offer', 'data-testid': 'live-panel', 'data-status': 'off', open: Boolean(error) },
      h('summary', {}, 'Both online now? Play live with ', nameOf(opponent), '…'),
      h('p', { class: 'muted' }, 'Trade one pair of connection codes with ', nameOf(opponent), '; then every turn code travels by itself.'),
      h('div', { class: 'actions' }, h('button', { type: 'button', 'data-testid': 'live-start', onclick: onStart }, 'Make a connection code')),
      iceSettings(settings),
      error ? h('p', { class: 'problem', role: 'alert', 'data-testid': 'live-error' }, sentence(sayError(error))) : null);
  } else if (status === 'connecting' && bundled) {
    const alone = codeBlock({
      code: link.code, link: link.link, testid: 'live-code-alone', primary: false,
      lead: 'The connection code alone (not needed when the code above is sent):',
      shareText: 'Join my Waving Hands duel live',
    });
    const words = {
      'waiting-answer': ['Your code above also carries a connection code. Paste what ', nameOf(opponent), ' sends back in the box above: you are connected as soon as you do.'],
      'waiting-host': ['Your code above also carries your connection answer: you are connected as soon as ', nameOf(opponent), ' pastes it, even minutes from now. Keep this page open and on screen until then; it waits up to 10 minutes.'],
    };
    body.push(h('p', { 'data-testid': 'live-bundled' }, bundled === 'sent' ? words[reason]
      : ['Write your orders: the code for them carries your connection answer too, so ', nameOf(opponent), ' pastes one code. Keep this page open until you are connected.']),
    h('details', { class: 'paste-later' }, h('summary', {}, 'Send the connection code on its own'), alone));
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
      lead: ['Send this answer code (or link) back to ', nameOf(opponent), ': you are connected as soon as they paste it, ' +
        'even minutes from now. Keep this page open and on screen until then (a phone pauses pages in the ' +
        'background); it waits up to 10 minutes.'],
      shareText: 'My answer for our Waving Hands duel',
    }));
  } else if (status === 'connected') {
    body.push(over ? h('p', { class: 'presence' }, 'Connected to ', nameOf(opponent), '.') : presenceLine(link.peer, opponent),
      chat ? chatBox(chat) : null,
      h('div', { class: 'actions' }, h('button', { type: 'button', class: 'tool', 'data-testid': 'live-close', onclick: onClose }, 'End the live connection')));
  } else if (status === 'disconnected' || status === 'closed') {
    body.push(h('p', { 'data-testid': 'live-why', 'data-reason': reason }, reason === 'declined'
      ? [nameOf(opponent), ' chose to play by codes only, so no live connection was made: the duel goes on by codes. If you both want to play live later, connect again with a new exchange.']
      : say(`live-${reason}`)));
    if (link.role === 'guest' && reason === 'strict-nats') {
      // The host's page learns the same from this answer, so both players hear why.
      body.push(codeBlock({
        code: link.code, link: link.link, testid: 'live-code', primary: false,
        lead: ['Send this answer to ', nameOf(opponent), ' all the same: their page will then tell them too.'],
        shareText: 'My answer for our Waving Hands duel',
      }));
    }
    body.push(
      h('div', { class: 'actions' }, h('button', { type: 'button', 'data-testid': 'live-start', onclick: onStart }, 'Connect again')),
      iceSettings(settings));
  } else {
    body.push(h('p', {}, say(`live-${reason}`)));
  }
  const warning = link && status === 'connecting' && link.warning
    ? h('p', { class: 'problem', 'data-testid': 'live-warning', 'data-reason': link.warning }, say(`live-warn-${link.warning}`))
    : null;
  return h('section', { class: 'live-panel', 'data-testid': 'live-panel', 'data-status': status, 'aria-label': 'Live connection' },
    h('div', { class: 'live-head' },
      h('h2', {}, 'Live connection'),
      h('span', { class: `chip live-chip is-${status}`, 'data-testid': 'live-status' }, CHIP[status] || status)),
    body, warning,
    error ? h('p', { class: 'problem', role: 'alert', 'data-testid': 'live-error' }, sentence(sayError(error))) : null);
}

// What answering a connection offer does, said before it is done (docs/webrtc.md, "Privacy"): the
// page creates no RTCPeerConnection until the player chooses to connect (issue 12, finding 3).
function addressList(items, testid) {
  return h('ul', { class: 'connect-list', 'data-testid': testid }, items.map((item) => h('li', {}, h('code', {}, item))));
}

/**
 * connectExplanation({inviter, facts}) -> who offers the connection and what connecting reveals,
 * to whom. inviter: a name, or null when the code does not say; facts: transport/live.js's offerFacts().
 */
export function connectExplanation({ inviter, facts }) {
  // A fresh node each time: one DOM node can stand in one place only.
  const them = () => (inviter ? nameOf(inviter) : 'them');
  const who = inviter
    ? h('p', { 'data-testid': 'connect-inviter' }, nameOf(inviter), ' offers to play live: a direct connection between your browser and theirs.')
    : h('p', { 'data-testid': 'connect-inviter' }, 'This live connection code does not say who made it. Connect only if you know who sent it to you.');
  const servers = facts.servers.length
    ? [h('p', {}, 'Connecting reveals your network address (your public IP address) to ', them(),
      ', and to these servers, which help the two browsers find each other:'), addressList(facts.servers, 'connect-servers')]
    : [h('p', {}, 'Connecting reveals your network address (your public IP address) to ', them(),
      '. No STUN or TURN server is used (your live connection settings), so no one else learns it.')];
  const checks = facts.addresses.length
    ? [h('p', {}, 'Your browser will send connection checks to the addresses their code names:'), addressList(facts.addresses, 'connect-addresses')]
    : [];
  return h('div', { class: 'connect-facts', 'data-testid': 'connect-facts' },
    who, ...servers, ...checks,
    facts.error ? h('p', { class: 'problem', role: 'alert' }, sayError(facts.error)) : null,
    h('p', { class: 'muted' }, 'Nothing is sent until you choose. By codes, only the codes you copy reach ', them(), '.'));
}

/**
 * openConnectDialog({inviter, facts}) -> Promise<boolean>: asks before answering a connection
 * offer; true once the player clicks "Connect live", false for "Play by codes only" or closing.
 */
export function openConnectDialog({ inviter, facts }) {
  return new Promise((resolve) => {
    let choice = false;
    let handle = null;
    const choose = (value) => () => {
      choice = value;
      handle.close();
    };
    const body = h('div', {},
      connectExplanation({ inviter, facts }),
      h('div', { class: 'actions' },
        h('button', { type: 'button', class: 'primary', 'data-testid': 'connect-live', disabled: Boolean(facts.error), onclick: choose(true) }, 'Connect live'),
        h('button', { type: 'button', 'data-testid': 'connect-codes', onclick: choose(false) }, 'Play by codes only')));
    handle = openDialog({ title: 'Connect live?', testid: 'connect', body, onClose: () => resolve(choice) });
  });
}
