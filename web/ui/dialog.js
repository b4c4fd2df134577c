// Modal dialogs on the native <dialog> element: it traps focus, closes on Escape and is
// announced as a dialog, which a hand-made overlay would have to imitate.

import { h } from './dom.js';
import { say } from './words/index.js';

/** openDialog({title, testid, body, onClose}) shows a modal and returns {dialog, close}; focus returns to the opener. */
export function openDialog({ title, testid, body, onClose }) {
  const opener = document.activeElement;
  const titleId = `${testid}-title`;
  const closeButton = h('button', { type: 'button', class: 'tool', 'data-testid': `${testid}-close`, 'aria-label': say('dialog-close-it', { title }) }, say('dialog-close'));
  const dialog = h('dialog', { 'data-testid': testid, 'aria-labelledby': titleId },
    h('div', { class: 'dialog-head' }, h('h2', { id: titleId }, title), closeButton),
    h('div', { class: 'dialog-body' }, body));
  const close = () => dialog.close();
  closeButton.addEventListener('click', close);
  // A click on the backdrop lands on the <dialog> itself, outside its content box.
  dialog.addEventListener('click', (event) => {
    if (event.target !== dialog) return;
    const r = dialog.getBoundingClientRect();
    const inside = event.clientX >= r.left && event.clientX <= r.right && event.clientY >= r.top && event.clientY <= r.bottom;
    if (!inside) close();
  });
  dialog.addEventListener('close', () => {
    dialog.remove();
    if (onClose) onClose();
    if (opener && opener.isConnected && typeof opener.focus === 'function') opener.focus();
  });
  document.body.append(dialog);
  dialog.showModal();
  return { dialog, close };
}

/** isDialogOpen() -> true while any modal dialog is showing (global shortcuts stand aside). */
export function isDialogOpen() {
  return Boolean(document.querySelector('dialog[open]'));
}
