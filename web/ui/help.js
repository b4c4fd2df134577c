// The keyboard help overlay: every shortcut the page answers to, in one table.

import { h } from './dom.js';
import { openDialog } from './dialog.js';
import { GESTURES, gestureLabel } from './gesturepad.js';

const k = (...keys) => keys.map((key, i) => [i ? ' ' : null, h('kbd', {}, key)]);

/** openHelp() shows the keyboard help dialog. */
export function openHelp() {
  const gestureRows = GESTURES.map((g) => h('tr', {},
    h('td', {}, k(g.key)), h('td', {}, k(`Shift+${g.key}`)),
    h('td', {}, gestureLabel(g.code))));
  const body = [
    h('p', {}, 'Everything can be done with the keyboard alone. While you write orders, gesture keys set your hands directly; everywhere, ',
      k('Tab'), ' and ', k('Shift+Tab'), ' move between controls, the arrow keys move within a group of gesture buttons, and ',
      k('Enter'), ' or ', k('Space'), ' presses the focused button. On a gesture, ', k('Enter'), ' moves on to the next hand, then to your choices and the seal button.'),
    h('h3', {}, 'Gestures (orders screen)'),
    h('table', { class: 'keys' },
      h('thead', {}, h('tr', {}, h('th', {}, 'Left hand'), h('th', {}, 'Right hand'), h('th', {}, 'Gesture'))),
      h('tbody', {}, gestureRows)),
    h('p', { class: 'muted' }, 'When you are hastened you write two gesture sets: the keys act on the set that holds the focus (the first one otherwise).'),
    h('h3', {}, 'Anywhere'),
    h('table', { class: 'keys' }, h('tbody', {},
      h('tr', {}, h('td', {}, k('Ctrl+Enter')), h('td', {}, 'Seal your orders (or answer the decision)')),
      h('tr', {}, h('td', {}, k('r')), h('td', {}, 'Open the spell reference')),
      h('tr', {}, h('td', {}, k('?')), h('td', {}, 'Open this help')),
      h('tr', {}, h('td', {}, k('Esc')), h('td', {}, 'Close a dialog')))),
    h('p', { class: 'muted' }, 'Shortcuts never fire while you are typing in a text box or choosing from a list.'),
  ];
  return openDialog({ title: 'Keyboard', testid: 'help', body });
}
