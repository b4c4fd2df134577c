// A melee by codes, drawn (web/flows/melee-codes.js's outcome): where the melee stands (who the
// round waits for), a keyed error or what the last paste did, the codes to post to the group's
// chat (the host's invitations one per seat), the one box for pasting the group's codes (one
// paste may carry many), and, once the game started, the table of every wizard with this
// player's orders or answers (web/ui/screens/melee.js). Drawing only; intents go back through
// callbacks.

import { h, nameOf } from '../dom.js';
import { codeBlock, pasteBox } from '../remote.js';
import { isolate, say } from '../words/index.js';
import { duelHead } from '../duel.js';
import { gesturesText } from './remote-words.js';

const nameList = (names) => names.map((n) => isolate(n)).join(', ');

/** statusWords(status) -> the sentence saying where a melee by codes stands, from this page's side. */
export function statusWords(status) {
  const names = status.names;
  if (!status.started) {
    const missing = names.map((n, i) => (n ? null : i + 1)).filter(Boolean);
    return say('melee-codes-gathering', { seats: missing.join(', '), host: status.me === 0 });
  }
  if (status.over) return say('melee-codes-over');
  const who = nameList(status.waiting_for.filter((s) => s !== status.me).map((s) => names[s]));
  if (status.to_act) return say('melee-codes-your-input', { kind: status.phase.kind });
  if (!status.waiting_for.length) return say('melee-codes-resolving');
  const step = status.waiting_for.every((s) => s === status.me) ? 'mine' : 'theirs';
  return say('melee-codes-waiting', { who, step, sealed: status.sealed });
}

function errorBox(error) {
  if (!error) return null;
  const key = `melee-error-${error.code}`;
  return h('div', { class: 'problem card', role: 'alert', 'data-testid': 'melee-codes-error', 'data-code': error.code },
    h('strong', {}, say(key, error)),
    error.message ? h('p', { class: 'muted' }, error.message) : null,
    h('p', {}, say('melee-codes-nothing-lost')));
}

function outboxBlocks(o, qr) {
  if (!o.outbox.length) return null;
  const inviting = o.outbox.every((c) => c.kind === 'invite');
  const all = o.outbox.map((c) => c.code).join('\n');
  const lead = inviting ? say('melee-codes-post-invitations', { n: o.outbox.length }) : say('melee-codes-post', { n: o.outbox.length });
  return h('section', { class: 'card melee-outbox', 'data-testid': 'melee-outbox', 'data-kinds': o.outbox.map((c) => c.kind).join(' ') },
    codeBlock({ code: all, lead, testid: 'melee-code', shareText: lead, primary: true, qr: null }),
    inviting && o.outbox.length > 1 ? h('details', { class: 'melee-invitations' }, h('summary', {}, say('melee-codes-one-each')),
      o.outbox.map((c) => codeBlock({ code: c.code, lead: say('melee-codes-invitation-for', { seat: c.seat + 1 }), testid: `melee-invite-${c.seat}`, primary: false, qr }))) : null);
}

function seatsList(status) {
  return h('ol', { class: 'melee-seats', 'data-testid': 'melee-seats' }, status.names.map((n, i) => h('li', { 'data-testid': `melee-seat-${i}` },
    n ? nameOf(n) : h('span', { class: 'muted' }, say('melee-codes-empty-seat')),
    i === status.me ? h('span', { class: 'muted' }, ` ${say('melee-you')}`) : null,
    i === 0 ? h('span', { class: 'muted' }, ' · ', say('melee-codes-host')) : null)));
}

/**
 * meleeCodesPanel(o, {onPaste, qr}) -> {head, foot}: the panel of a melee by codes in two parts:
 * `head` the status, a keyed error or what the last paste did (read first); `foot` the codes to
 * post and the paste box (under the orders while the player writes them, so the pads stay in
 * sight on a phone). onPaste(text) -> Promise<boolean> (true: the box empties: it was used).
 */
export function meleeCodesPanel(o, { onPaste, qr = null }) {
  const status = o.status;
  const head = h('div', { class: 'melee-codes-head' },
    h('p', { class: 'remote-status', role: 'status', 'aria-live': 'polite', 'data-testid': 'melee-codes-status' }, statusWords(status)),
    o.sealed ? h('p', { class: 'muted sealed-orders', 'data-testid': 'sealed-orders' },
      say('remote-sealed-line', { turn: o.sealed.turn, gestures: gesturesText(o.sealed.gestures) })) : null,
    errorBox(o.error),
    o.done && !o.error ? h('p', { class: 'muted', 'data-testid': 'melee-codes-done' }, say(o.done)) : null);
  const foot = h('div', { class: 'melee-codes-foot' },
    outboxBlocks(o, qr),
    status.over ? null : h('section', { class: 'card' }, pasteBox({
      id: 'melee-paste', testid: 'melee-paste', button: say('melee-codes-apply'), label: say('melee-codes-paste-label'),
      hint: say('melee-codes-paste-hint'), placeholder: 'WH1.… WH1.…', onSubmit: onPaste,
    })));
  return { head, foot };
}

/**
 * meleeLobbyScreen(o, {onPaste, onHome, qr}) -> {element}: the melee before every seat is taken:
 * the seats (who has accepted), the codes to post and the paste box.
 */
export function meleeLobbyScreen(o, { onPaste, onHome, qr = null }) {
  const element = h('section', { class: 'duel-screen melee-screen', 'data-testid': 'melee-lobby' },
    duelHead({ title: say('melee-codes-lobby-title', { n: o.status.seats }), tag: say('melee-codes-tag'), onHome }),
    ...Object.values(meleeCodesPanel(o, { onPaste, qr })),
    h('section', { class: 'card' }, h('h2', {}, say('melee-codes-seats')), seatsList(o.status)));
  return { element };
}

/**
 * meleeCodesSetup() -> {element, chosen() -> {how: 'host' | 'join', seats, invitation}}: the start
 * screen's choice for a melee by codes: host a new one (how many seats), or join with the
 * invitation the host posted (the first name is this player's).
 */
export function meleeCodesSetup() {
  const radio = (value, checked) => h('input', { type: 'radio', name: 'melee-codes-how', value, checked, 'data-testid': `melee-codes-${value}` });
  const host = radio('host', true);
  const join = radio('join', false);
  const seats = h('select', { 'data-testid': 'melee-codes-count', 'aria-label': say('melee-how-many') },
    [3, 4, 5, 6].map((n) => h('option', { value: String(n), selected: n === 3 }, String(n))));
  const invitation = h('textarea', {
    rows: '2', class: 'paste-text', 'data-testid': 'melee-codes-invitation', spellcheck: 'false', autocomplete: 'off',
    autocapitalize: 'off', placeholder: 'WH1.…', 'aria-label': say('melee-codes-invitation-label'),
  });
  const element = h('div', { class: 'mode-extra melee-setup', 'data-testid': 'melee-codes-setup' },
    h('label', { class: 'choice' }, host, h('span', {}, say('melee-codes-host-new'), ' ', seats)),
    h('label', { class: 'choice' }, join, h('span', {}, say('melee-codes-join'))),
    h('div', { class: 'field' }, invitation),
    h('small', { class: 'muted' }, say('melee-codes-setup-hint')));
  const chosen = () => ({ how: join.checked || (!host.checked && invitation.value.trim()) ? 'join' : 'host', seats: Number(seats.value), invitation: invitation.value });
  invitation.addEventListener('input', () => { if (invitation.value.trim()) join.checked = true; });
  return { element, chosen };
}
