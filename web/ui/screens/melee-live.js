// A live melee, drawn (web/flows/melee-live.js's state; docs/protocol.md, "Live melee"): the
// connecting lobby (the host's text for each guest seat and the box for their replies; a guest's
// reply to send back), and, while the melee is played, the live panel: the connection, the roster's
// fingerprint to compare in the group's chat, and who dropped out, with Concede. Drawing only;
// intents go back through callbacks.

import { h } from '../dom.js';
import { codeBlock, pasteBox } from '../remote.js';
import { chatBox } from '../live.js';
import { duelHead } from '../duel.js';
import { isolate, say, sayError, hasWords } from '../words/index.js';

/** liveErrorWords(error) -> the sentence for an error of the live melee's flow, its keys, WebRTC's or the engine's. */
export function liveErrorWords(error) {
  const own = error.code.startsWith('melee-live-') ? error.code : `melee-live-error-${error.code}`;
  if (hasWords(own)) return say(own, error);
  if (hasWords(`rtc-${error.code}`)) return sayError(error);
  return say(`melee-error-${error.code}`, error);
}

const seatName = (names, seat) => (names && names[seat] ? isolate(names[seat]) : say('melee-seat', { seat: seat + 1 }));

function fingerprintLine(live) {
  if (!live.fingerprint) return null;
  return h('p', { class: 'muted', 'data-testid': 'melee-live-fingerprint', 'data-print': live.fingerprint },
    say('melee-live-fingerprint', { print: live.fingerprint }));
}

function invitationBlock(inv) {
  const state = inv.connected ? 'connected' : inv.joined ? 'connecting' : 'waiting';
  return h('div', { class: 'melee-live-seat', 'data-testid': `melee-live-seat-${inv.seat}`, 'data-state': state },
    codeBlock({ code: inv.text, lead: say('melee-live-invite-for', { seat: inv.seat + 1 }), testid: `melee-live-invite-${inv.seat}`, primary: !inv.joined }),
    h('p', { class: 'muted', role: 'status' }, say(`melee-live-seat-${state}`, { seat: inv.seat + 1 })));
}

/**
 * meleeLiveLobby(live, {onReply, onHome, error}) -> {element}: the live melee while it connects:
 * the host's text for each guest seat and the box for their replies, or a guest's reply to send
 * back and the wait for the host. onReply(text) -> Promise<boolean> (true: the box empties).
 */
export function meleeLiveLobby(live, { onReply, onHome, error = null }) {
  const host = live.role === 'host';
  const body = host
    ? [
      h('p', {}, say('melee-live-host-lead')),
      ...live.invitations.map(invitationBlock),
      h('section', { class: 'card' }, pasteBox({
        id: 'melee-live-reply-paste', testid: 'melee-live-reply-paste', button: say('melee-live-reply-apply'),
        label: say('melee-live-reply-label'), hint: say('melee-live-reply-hint'), placeholder: 'WH1.… WHK1.… WHA1.…', onSubmit: onReply,
      })),
    ]
    : [
      live.reply ? codeBlock({ code: live.reply, lead: say('melee-live-send-reply'), testid: 'melee-live-reply', primary: true }) : null,
      h('p', { class: 'muted', role: 'status', 'data-testid': 'melee-live-waiting' }, say('melee-live-waiting-host')),
    ];
  const element = h('section', { class: 'duel-screen melee-screen', 'data-testid': 'melee-live-lobby', 'data-role': live.role },
    duelHead({ title: say('melee-live-lobby-title', { n: live.seats }), tag: say('melee-live-tag'), onHome }),
    error ? h('div', { class: 'problem card', role: 'alert', 'data-testid': 'melee-live-error', 'data-code': error.code }, liveErrorWords(error)) : null,
    ...body,
    fingerprintLine(live));
  return { element };
}

// One line per piece of news worth the player's eye: the latest of each seat's.
function newsOf(live) {
  const latest = new Map();
  for (const e of live.events) if (e.code !== 'vote' && e.code !== 'refused') latest.set(e.seat, e);
  return [...latest.values()];
}

/**
 * liveStatusWords(status) -> the sentence saying where a live melee stands (the engine's melee
 * status), or null where the melee by codes' says it right: codes here go by themselves.
 */
export function liveStatusWords(status) {
  if (!status.started || status.over) return null;
  if (status.to_act) return say('melee-live-your-input', { kind: status.phase.kind });
  const others = status.waiting_for.filter((s) => s !== status.me);
  if (!others.length) return null;
  return say('melee-live-waiting', { who: others.map((s) => seatName(status.names, s)).join(', '), sealed: status.sealed });
}

/**
 * meleeLivePanel(live, names, {onConcede, onChat}) -> element: the live part of a melee's panel
 * while it is played: the connection, the fingerprint, each dropped, silent or conceded seat (a
 * dropped one with Concede, unless this player has agreed already), and the group's chat.
 * onConcede(seat); onChat(text) -> {ok} or {ok: false, error}.
 */
export function meleeLivePanel(live, names, { onConcede, onChat }) {
  const absence = live.absence || { dropped: {}, votes: {}, conceded: [] };
  const rows = newsOf(live).map((e) => {
    const seat = e.seat;
    const gone = seat in absence.dropped || (e.code === 'overdue' && seat !== live.me);
    const agreed = (absence.votes[seat] || []).includes(live.me);
    const conceded = absence.conceded.includes(seat);
    const key = conceded ? 'melee-live-conceded' : e.code === 'overdue' ? `melee-live-overdue-${e.why}` : `melee-live-${e.code}`;
    return h('li', { 'data-testid': `melee-live-news-${seat}`, 'data-code': conceded ? 'conceded' : e.code },
      say(key, { name: seatName(names, seat), you: seat === live.me }),
      gone && !conceded && !agreed && seat !== live.me
        ? h('button', { type: 'button', 'data-testid': `melee-live-concede-${seat}`, onclick: () => onConcede(seat) }, say('melee-live-concede', { name: seatName(names, seat) }))
        : null,
      agreed && !conceded ? h('span', { class: 'muted' }, ' ', say('melee-live-agreed')) : null);
  });
  return h('section', { class: 'card melee-live-panel', 'data-testid': 'melee-live-panel', 'data-state': live.state },
    h('p', { role: 'status', 'data-testid': 'melee-live-state' }, say(`melee-live-state-${live.state}`)),
    rows.length ? h('ul', { class: 'melee-live-news', 'aria-live': 'polite' }, rows) : null,
    groupChat(live, names, onChat),
    fingerprintLine(live));
}

// The group's chat: every line said since this page connected, its author named, then the box
// (while connected). Lines are plain text, shown as text.
function groupChat(live, names, onChat) {
  const chat = live.chat || { lines: [] };
  const lines = chat.lines.map((l) => h('li', { class: l.seat === live.me ? 'from-me' : 'from-them', 'data-seat': String(l.seat) },
    h('bdi', { class: 'who' }, l.seat === live.me ? say('melee-live-chat-you') : seatName(names, l.seat)), ': ',
    h('bdi', { dir: 'auto' }, l.text)));
  return h('div', { class: 'melee-live-chat', 'data-testid': 'melee-live-chat' },
    h('h3', {}, say('melee-live-chat-title')),
    lines.length
      ? h('ol', { class: 'melee-live-chat-lines', 'data-testid': 'melee-live-chat-lines', 'aria-live': 'polite' }, lines)
      : h('p', { class: 'muted' }, say('melee-live-chat-empty')),
    live.state === 'connected' ? chatBox({ lines: [], names: {}, max: chat.max, draft: chat.draft, onSend: onChat }) : null);
}


/**
 * meleeLiveSetup() -> {element, chosen() -> {how: 'host' | 'join', seats, invitation}}: the start
 * screen's choice for a live melee: host one (how many seats), or join with the host's text.
 */
export function meleeLiveSetup() {
  const how = (value) => h('input', { type: 'radio', name: 'melee-live-how', value, checked: value === 'host', 'data-testid': `melee-live-${value}` });
  const [host, join] = [how('host'), how('join')];
  const seats = h('select', { 'data-testid': 'melee-live-count', 'aria-label': say('melee-how-many') },
    [3, 4, 5, 6].map((n) => h('option', { value: String(n) }, String(n))));
  const invitation = h('textarea', {
    rows: '3', class: 'paste-text', 'data-testid': 'melee-live-invitation', spellcheck: 'false', autocomplete: 'off',
    autocapitalize: 'off', placeholder: 'WH1.… WHK1.… WHC1.…', 'aria-label': say('melee-live-invitation-label'),
    oninput: () => { if (invitation.value.trim()) join.checked = true; },
  });
  const element = h('div', { class: 'mode-extra melee-setup', 'data-testid': 'melee-live-setup' },
    h('label', { class: 'choice' }, host, h('span', {}, say('melee-live-host-new'), ' ', seats)),
    h('label', { class: 'choice' }, join, h('span', {}, say('melee-live-join'))),
    h('div', { class: 'field' }, invitation));
  return { element, chosen: () => ({ how: join.checked ? 'join' : 'host', seats: Number(seats.value), invitation: invitation.value }) };
}
