// The remote pieces of the start screen and its dialogs: the invitation dialog (accept, under
// which name, connect live or not) and the join box (a code or link from a friend, with the live
// connection settings).

import { h, named } from './dom.js';
import { openDialog } from './dialog.js';
import { iceSettings, pasteBox, sentence } from './remote.js';
import { say } from './words/index.js';

/**
 * openAcceptDialog({host, rules, name, live, onAccept(name, {connect}) -> Promise<string|null>})
 * asks whether to take up an invitation and under which name; onAccept returns an error message
 * or null (done). live: for an invitation carrying a connection offer, what connecting does (a
 * node); the player then accepts and connects live, or accepts and plays by codes only.
 */
export function openAcceptDialog({ host, rules, name, live = null, onAccept }) {
  const input = h('input', { type: 'text', id: 'accept-name', 'data-testid': 'accept-name', value: name || '', autocomplete: 'off', spellcheck: 'false', required: true });
  const error = h('p', { class: 'problem', role: 'alert', 'data-testid': 'accept-error', hidden: true });
  const submit = h('button', { type: 'submit', class: 'primary', 'data-testid': 'accept-submit', value: 'live' }, say(live ? 'remote-accept-live' : 'remote-accept'));
  const byCodes = live ? h('button', { type: 'submit', 'data-testid': 'accept-codes', value: 'codes' }, say('remote-accept-codes')) : null;
  let handle = null;
  const form = h('form', {
    onsubmit: async (event) => {
      event.preventDefault();
      const connect = Boolean(live) && !(event.submitter && event.submitter.value === 'codes');
      submit.disabled = true;
      if (byCodes) byCodes.disabled = true;
      error.hidden = true;
      const message = await onAccept(input.value.trim(), { connect });
      submit.disabled = false;
      if (byCodes) byCodes.disabled = false;
      if (message) {
        error.textContent = sentence(message);
        error.hidden = false;
        input.focus();
      } else {
        handle.close();
      }
    },
  },
  h('p', {}, named(say('remote-challenges', { host }))),
  h('p', { class: 'muted', 'data-testid': 'accept-rules' }, rules),
  h('p', { class: 'muted' }, named(say('remote-first-orders', { host }))),
  h('div', { class: 'field' }, h('label', { for: 'accept-name' }, say('remote-your-name')), input),
  live,
  error,
  h('div', { class: 'actions' }, submit, byCodes,
    h('button', { type: 'button', 'data-testid': 'accept-cancel', onclick: () => handle.close() }, say('remote-not-now'))));
  handle = openDialog({ title: say('remote-invitation-title'), testid: 'accept', body: form });
  input.focus();
  input.select();
  return handle;
}

/**
 * joinBox({onOpen(text) -> Promise<string|null>, settings}) -> the start screen's box for a code or
 * link from a friend (invitation, turn code, or live connection code), with the live connection
 * settings (settings: iceSettings' options).
 */
export function joinBox({ onOpen, settings }) {
  const error = h('p', { class: 'problem', role: 'alert', 'data-testid': 'join-error', hidden: true });
  const box = pasteBox({
    id: 'join-text', testid: 'join-text', button: say('remote-open'),
    label: say('remote-join-label'),
    hint: say('remote-join-hint'),
    onSubmit: async (text) => {
      error.hidden = true;
      const message = await onOpen(text);
      if (message) {
        error.textContent = sentence(message);
        error.hidden = false;
        return false;
      }
      return true;
    },
  });
  return h('div', { class: 'join-box', 'data-testid': 'join-box' }, box, error, iceSettings(settings));
}
