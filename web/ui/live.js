// The live connection panel (docs/webrtc.md): the connection code or answer to send, the box for
// the answer, the connection's state and the opponent's, and the buttons to end it or connect
// again. `link` is the live transport's status() snapshot (transport/live.js); its reason is put
// into words here (ui/words/live.js, "live-<reason>").

import { openDialog } from './dialog.js';
import { h, named } from './dom.js';
import { codeBlock, iceSettings, pasteBox, pending, sentence } from './remote.js';
import { hasWords, say, sayError } from './words/index.js';


// What the opponent is doing, as the live connection tells it (fresh nodes on every call).
function presenceWords(peer, opponent) {
  const known = ['choosing', 'sealed', 'waiting'].includes(peer);
  return named(say(known ? `live-peer-${peer}` : 'live-peer-connected', { opp: opponent }));
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
  const jump = h('button', { type: 'button', class: 'link', 'data-testid': 'live-glance-chat', onclick: toChat }, say(line && line.from === 'them' ? 'live-reply' : 'live-chat'));
  return h('div', { class: 'live-glance', 'data-testid': 'live-glance', 'data-peer': link.peer || '' },
    h('p', { class: 'presence' }, h('span', { class: 'chip live-chip is-connected' }, say('live-chip-live')), ' ', presenceWords(link.peer, opponent), line ? null : [' ', jump]),
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
/** chatBox({lines, names, max, draft, onSend}) -> the chat's one-line box (Enter sends), after the newest line if any. */
export function chatBox(chat) {
  const draft = chat.draft || { value: '', focused: false };
  const input = h('input', {
    type: 'text', 'data-testid': 'chat-text', maxlength: String(chat.max), autocomplete: 'off',
    placeholder: say('live-chat-placeholder'), 'aria-label': say('live-chat-label'), value: draft.value,
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
    h('div', { class: 'paste-row' }, input, h('button', { type: 'button', 'data-testid': 'chat-send', onclick: send }, say('live-send'))),
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
      h('summary', {}, named(say('live-offer', { opp: opponent }))),
      h('p', { class: 'muted' }, named(say('live-offer-how', { opp: opponent }))),
      h('div', { class: 'actions' }, h('button', { type: 'button', 'data-testid': 'live-start', onclick: onStart }, say('live-make-code'))),
      iceSettings(settings),
      error ? h('p', { class: 'problem', role: 'alert', 'data-testid': 'live-error' }, sentence(sayError(error))) : null);
  } else if (status === 'connecting' && bundled) {
    const alone = codeBlock({
      code: link.code, link: link.link, testid: 'live-code-alone', primary: false,
      lead: say('live-code-alone'),
      shareText: say('live-share-offer'),
    });
    const words = bundled === 'sent' ? `live-bundled-${reason}` : 'live-bundled-next';
    body.push(h('p', { 'data-testid': 'live-bundled' }, hasWords(words) ? named(say(words, { opp: opponent })) : null),
      h('details', { class: 'paste-later' }, h('summary', {}, say('live-code-on-its-own')), alone));
  } else if (status === 'connecting' && reason === 'waiting-answer') {
    body.push(codeBlock({
      code: link.code, link: link.link, testid: 'live-code', primary: !link.answered,
      lead: named(say('live-send-offer', { opp: opponent })), shareText: say('live-share-offer'),
    }));
    body.push(link.answered
      ? pending(say('live-connecting'))
      : pasteBox({
        id: 'live-answer', testid: 'live-answer', button: say('live-connect'), placeholder: say('live-answer-placeholder'),
        label: named(say('live-paste-answer', { opp: opponent })), onSubmit: onAnswer,
      }));
  } else if (status === 'connecting' && reason === 'waiting-host') {
    body.push(codeBlock({
      code: link.code, link: link.link, testid: 'live-code', primary: true,
      lead: named(say('live-send-answer', { opp: opponent })),
      shareText: say('live-share-answer'),
    }));
  } else if (status === 'connected') {
    body.push(over ? h('p', { class: 'presence' }, named(say('live-connected-to', { opp: opponent }))) : presenceLine(link.peer, opponent),
      chat ? chatBox(chat) : null,
      h('div', { class: 'actions' }, h('button', { type: 'button', class: 'tool', 'data-testid': 'live-close', onclick: onClose }, say('live-end'))));
  } else if (status === 'disconnected' || status === 'closed') {
    body.push(h('p', { 'data-testid': 'live-why', 'data-reason': reason }, reason === 'declined'
      ? named(say('live-declined-by', { opp: opponent }))
      : say(`live-${reason}`)));
    if (link.role === 'guest' && reason === 'strict-nats') {
      // The host's page learns the same from this answer, so both players hear why.
      body.push(codeBlock({
        code: link.code, link: link.link, testid: 'live-code', primary: false,
        lead: named(say('live-send-answer-anyway', { opp: opponent })),
        shareText: say('live-share-answer'),
      }));
    }
    body.push(
      h('div', { class: 'actions' }, h('button', { type: 'button', 'data-testid': 'live-start', onclick: onStart }, say('live-connect-again'))),
      iceSettings(settings));
  } else {
    body.push(h('p', {}, say(`live-${reason}`)));
  }
  const warning = link && status === 'connecting' && link.warning
    ? h('p', { class: 'problem', 'data-testid': 'live-warning', 'data-reason': link.warning }, say(`live-warn-${link.warning}`))
    : null;
  return h('section', { class: 'live-panel', 'data-testid': 'live-panel', 'data-status': status, 'aria-label': say('live-title') },
    h('div', { class: 'live-head' },
      h('h2', {}, say('live-title')),
      h('span', { class: `chip live-chip is-${status}`, 'data-testid': 'live-status' }, hasWords(`live-chip-${status}`) ? say(`live-chip-${status}`) : status)),
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
  const them = { them: inviter };
  const who = h('p', { 'data-testid': 'connect-inviter' }, named(say(inviter ? 'live-offered-by' : 'live-offered-by-unknown', them)));
  const servers = facts.servers.length
    ? [h('p', {}, named(say('live-reveals-servers', them))), addressList(facts.servers, 'connect-servers')]
    : [h('p', {}, named(say('live-reveals', them)))];
  const checks = facts.addresses.length
    ? [h('p', {}, say('live-checks-to')), addressList(facts.addresses, 'connect-addresses')]
    : [];
  return h('div', { class: 'connect-facts', 'data-testid': 'connect-facts' },
    who, ...servers, ...checks,
    facts.error ? h('p', { class: 'problem', role: 'alert' }, sayError(facts.error)) : null,
    h('p', { class: 'muted' }, named(say('live-nothing-yet', them))));
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
        h('button', { type: 'button', class: 'primary', 'data-testid': 'connect-live', disabled: Boolean(facts.error), onclick: choose(true) }, say('live-connect-live')),
        h('button', { type: 'button', 'data-testid': 'connect-codes', onclick: choose(false) }, say('live-codes-only'))));
    handle = openDialog({ title: say('live-connect-title'), testid: 'connect', body, onClose: () => resolve(choice) });
  });
}
