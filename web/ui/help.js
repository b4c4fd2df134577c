// The help overlay. First the game itself, for a newcomer (the goal, the gestures, how the spell
// list writes them, shields and stabs, monsters, what happens in a turn and in which order, each
// with a small worked example; every fact from the rules text, 000 in /work/shared/rules), then
// how a turn goes on this page, then every shortcut the page answers to.

import { h } from './dom.js';
import { openDialog } from './dialog.js';
import { GESTURES, gestureLabel } from './gesturepad.js';
import { say } from './words/index.js';

const k = (...keys) => keys.map((key, i) => [i ? ' ' : null, h('kbd', {}, key)]);
const g = (text) => h('code', { class: 'notation' }, text);

// A worked example's history: one row per turn, the left hand's gesture then the right's.
function example(caption, rows, after, heads = ['Left hand', 'Right hand']) {
  return h('figure', { class: 'help-example' },
    h('figcaption', {}, caption),
    h('table', { class: 'history help-history' },
      h('thead', {}, h('tr', {}, h('th', {}, 'Turn'), heads.map((x) => h('th', {}, x)))),
      h('tbody', {}, rows.map(([left, right], i) => h('tr', {}, h('th', { scope: 'row' }, String(i + 1)), h('td', {}, left), h('td', {}, right))))),
    h('p', {}, after));
}

// The game, topic by topic: [test id, title, body]; the first is open.
function topics() {
  return [
    ['help-goal', 'The goal: 15 damage and you are dead', [
      h('p', {}, 'Two wizards duel. A wizard can take fourteen points of damage; at ', h('strong', {}, '15 or more'), ' he dies, and the wizard still standing wins. If both die in the same turn it is a draw. Damage adds up from turn to turn; cures take some away.'),
      h('p', {}, 'A wizard may also surrender: ', h('strong', {}, 'P with both hands at once'), ' gives up the duel (unless the same gestures kill the opponent). So never make P with both hands by accident.'),
    ]],
    ['help-gestures', 'The gestures', [
      h('p', {}, 'Each turn each hand makes one gesture, or stabs, or does nothing:'),
      h('ul', {},
        h('li', {}, g('F'), ' wiggled fingers, ', g('P'), ' proffered palm, ', g('S'), ' snap, ', g('W'), ' wave, ', g('D'), ' digit pointing: one hand each.'),
        h('li', {}, g('C'), ' the clap: it counts only when ', h('strong', {}, 'both hands'), ' clap in the same turn.'),
        h('li', {}, g('>'), ' a stab with your knife (one knife: one hand at most), or ', g('–'), ' nothing.')),
      h('p', {}, 'A spell is a series of gestures made by one hand on consecutive turns, without a break. The same gesture may count in two series, but casts at most one spell. Stabbing or doing nothing breaks every series of that hand.'),
      example('One hand, two spells: paralysis, then a fireball from the same F.',
        [['F', '–'], ['F', '–'], ['F', '–'], ['S', '–'], ['S', '–'], ['D', '–'], ['D', '–']],
        ['Turn 3 completes paralysis (', g('F-F-F'), '). That third F also starts a fireball: turns 3 to 7 make ', g('F-S-S-D-D'), ', and it lands on turn 7.']),
    ]],
    ['help-notation', 'Reading the spell list: "-", "(" and lower case', [
      h('p', {}, 'The spell list writes a series left to right, one gesture per turn, joined by ', g('-'), ': ', g('S-D'), ' (missile) is S one turn, D the next, with the same hand.'),
      h('p', {}, 'An open bracket and a lower-case letter mean ', h('strong', {}, 'that gesture with both hands at once'), ': ', g('(w'), ' is W with the left and W with the right in the same turn. ', g('C'), ' is always both hands.'),
      h('ul', {},
        h('li', {}, g('C-(w'), ' magic mirror: clap, then wave with both hands.'),
        h('li', {}, g('P-P-(w-(s'), ' invisibility: P, P with one hand, then W with both, then S with both.'),
        h('li', {}, g('(p'), ' is the surrender: P with both hands.')),
      h('p', {}, 'To see whether a hand has just cast something, read its gestures backwards from the last one; the spell list\u2019s second half is written that way.'),
    ]],
    ['help-shields', 'Shields and stabs', [
      h('p', {}, 'A ', h('strong', {}, 'shield'), ' is a single ', g('P'), ': for the turn it is made it stops stabs, missiles and monsters\u2019 attacks. It does not stop other spells: lightning, fireballs and wounds go through it.'),
      h('p', {}, 'A ', h('strong', {}, 'stab'), ' (', g('>'), ') does 1 damage to the wizard or monster you aim it at, unless a shield stops it. A magic mirror does not turn it back and dispel magic does not stop it.'),
      h('p', {}, 'Against spells: a ', h('strong', {}, 'counter-spell'), ' (', g('W-P-P'), ' or ', g('W-W-S'), ') stops every spell cast at its subject that turn but finger of death and dispel magic, and shields him as well; a ', h('strong', {}, 'magic mirror'), ' (', g('C-(w'), ') turns spells cast at him back on their caster.'),
      example('A missile against a shield.',
        [['–', 'S'], ['P', 'D']],
        ['You see Morgana\u2019s S and raise a shield with P on turn 2, the turn her D completes the missile (', g('S-D'), '). The shield stops it; had she stabbed instead, it would have stopped the knife too.'],
        ['You, one hand', 'Morgana, one hand']),
    ]],
    ['help-monsters', 'Monsters', [
      h('p', {}, 'Summoning spells make a monster that obeys the wizard it is cast on: goblin (', g('S-F-W'), '), ogre (', g('P-S-F-W'), '), troll (', g('F-P-S-F-W'), ') and giant (', g('W-F-P-S-F-W'), ') do 1, 2, 3 and 4 damage a turn and die after that much damage. Elementals attack everyone.'),
      h('p', {}, 'A monster attacks in the turn it is summoned, and every turn after, the target its master names (his opponent if he names none). A monster being destroyed still attacks that turn. A shield stops its attack; a stab, a missile or another spell can destroy it.'),
    ]],
    ['help-turn', 'What happens in a turn, in order', [
      h('ol', {},
        h('li', {}, 'Both wizards write their orders in secret: a gesture for each hand, where their spells, stab and monsters go.'),
        h('li', {}, 'The orders are revealed together. Gestures the rules force come first (paralysis, amnesia, a charmed hand).'),
        h('li', {}, 'Each hand\u2019s latest gestures are read: a completed spell must be cast (if one gesture completes two, the caster picks). P with both hands is a surrender.'),
        h('li', {}, 'Then everything happens at once: counter-spells, mirrors and dispel magic take hold for this turn, monsters attack, spells and stabs land, shields stop what they stop.'),
        h('li', {}, 'The turn\u2019s damage and cures add up. A wizard at 15 or more dies; both at once is a draw. New enchantments start, old ones run out.')),
      example('Simultaneous: both spells land.',
        [['D', 'D'], ['F', 'F'], ['F', 'F'], ['D', 'D'], ['D', 'D']],
        ['Say both wizards have 10 damage and both finish a lightning bolt (', g('D-F-F-D-D'), ') on turn 5. Neither is quicker: both bolts land, both wizards reach 15, and the duel is a draw.'],
        ['You, right hand', 'Morgana, right hand']),
    ]],
  ];
}

function gameTopics() {
  return [
    h('h3', { 'data-testid': 'help-how' }, 'How to play'),
    topics().map(([id, title, body], i) => h('details', { class: 'help-topic', 'data-testid': id, open: i === 0 },
      h('summary', {}, title), body)),
  ];
}

// How a turn goes, in the order a new player meets it.
function howToPlay() {
  return [
    h('h3', { 'data-testid': 'help-page' }, 'Playing on this page'),
    h('ol', { class: 'how-to-play' },
      h('li', {}, 'Each turn you choose one gesture for each hand on the two pads (or a stab, or nothing). Your opponent does the same in secret; both are revealed together.'),
      h('li', {}, 'A hand casts a spell when its latest gestures spell out that spell: ', h('strong', {}, 'Spells'), ' lists them all. Under the pads the page shows what each hand would cast now, what it is building and what it still needs, and what your opponent could cast next.'),
      h('li', {}, 'Answer the questions that appear under the pads (whom a spell is aimed at), then press ', h('strong', {}, 'Seal my orders'), '. Red lines are warnings worth reading first.'),
      h('li', {}, 'Hot-seat: pass the device when the page says so. Against the computer: it answers at once. By codes: send the code the page shows to your friend in any chat, and paste the one they send back.'),
      h('li', {}, 'After the reveal, ', h('em', {}, 'What happened'), ' tells the turn, and the two histories show every gesture so far. Every duel is saved in this browser after each turn.')),
  ];
}

/** openHelp({onPuzzles, onLessons}) shows the help dialog: the game, how to play on this page, then the keyboard; onPuzzles() and onLessons() (when given) open the puzzles and the guided duel from buttons in it. */
export function openHelp({ onPuzzles = null, onLessons = null } = {}) {
  let dialog = null;
  const lessons = onLessons ? h('p', {}, h('button', {
    type: 'button', class: 'primary', 'data-testid': 'help-lessons',
    onclick: () => { if (dialog) dialog.close(); onLessons(); },
  }, say('lessons-offer-go')), ' ', say('lessons-offer')) : null;
  const puzzles = onPuzzles ? h('p', {}, h('button', {
    type: 'button', class: 'tool', 'data-testid': 'help-puzzles',
    onclick: () => { if (dialog) dialog.close(); onPuzzles(); },
  }, 'Try a puzzle'), ' Win this turn, survive the next, or read what your opponent can cast next: real positions, checked by the rules engine.') : null;
  const gestureRows = GESTURES.map((g) => h('tr', {},
    h('td', {}, k(g.key)), h('td', {}, k(`Shift+${g.key}`)),
    h('td', {}, gestureLabel(g.code))));
  const body = [
    lessons,
    puzzles,
    gameTopics(),
    howToPlay(),
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
