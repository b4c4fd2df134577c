// The help overlay: how a turn goes on this page (for a new player: where to tap, what the page
// shows, how a duel with a friend travels), then every shortcut the page answers to. The rules
// themselves are the spell reference's and the engine's: this says only how the page works.

import { h } from './dom.js';
import { openDialog } from './dialog.js';
import { GESTURES, gestureLabel } from './gesturepad.js';

const k = (...keys) => keys.map((key, i) => [i ? ' ' : null, h('kbd', {}, key)]);

// How a turn goes, in the order a new player meets it.
function howToPlay() {
  return [
    h('h3', { 'data-testid': 'help-how' }, 'How to play'),
    h('ol', { class: 'how-to-play' },
      h('li', {}, 'Each turn you choose one gesture for each hand on the two pads (or a stab, or nothing). Your opponent does the same in secret; both are revealed together.'),
      h('li', {}, 'A hand casts a spell when its latest gestures spell out that spell: ', h('strong', {}, 'Spells'), ' lists them all. Under the pads the page shows what each hand would cast now, what it is building and what it still needs, and what your opponent could cast next.'),
      h('li', {}, 'Answer the questions that appear under the pads (whom a spell is aimed at), then press ', h('strong', {}, 'Seal my orders'), '. Red lines are warnings worth reading first.'),
      h('li', {}, 'Hot-seat: pass the device when the page says so. Against the computer: it answers at once. By codes: send the code the page shows to your friend in any chat, and paste the one they send back.'),
      h('li', {}, 'After the reveal, ', h('em', {}, 'What happened'), ' tells the turn, and the two histories show every gesture so far. Every duel is saved in this browser after each turn.')),
  ];
}

/** openHelp({onPuzzles}) shows the help dialog: how to play, then the keyboard; onPuzzles() (when given) opens the puzzles from a button in it. */
export function openHelp({ onPuzzles = null } = {}) {
  let dialog = null;
  const puzzles = onPuzzles ? h('p', {}, h('button', {
    type: 'button', class: 'tool', 'data-testid': 'help-puzzles',
    onclick: () => { if (dialog) dialog.close(); onPuzzles(); },
  }, 'Try a puzzle'), ' Win this turn, survive the next, or read what your opponent can cast next: real positions, checked by the rules engine.') : null;
  const gestureRows = GESTURES.map((g) => h('tr', {},
    h('td', {}, k(g.key)), h('td', {}, k(`Shift+${g.key}`)),
    h('td', {}, gestureLabel(g.code))));
  const body = [
    howToPlay(),
    puzzles,
    h('h3', {}, 'Keyboard'),
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
  dialog = openDialog({ title: 'Help', testid: 'help', body });
  return dialog;
}
