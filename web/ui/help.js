// The help overlay. First the game itself, for a newcomer (the goal, the gestures, how the spell
// list writes them, shields and stabs, monsters, what happens in a turn and in which order, each
// with a small worked example; every fact from the rules text, 000 in /work/shared/rules), then
// how a turn goes on this page, then every shortcut the page answers to. Every sentence is keyed
// in web/ui/words/learn.js ('help-…'); the examples' gestures are data, kept here.

import { h } from './dom.js';
import { openDialog } from './dialog.js';
import { GESTURES, gestureLabel } from './gesturepad.js';
import { say } from './words/index.js';

const k = (...keys) => keys.map((key, i) => [i ? ' ' : null, h('kbd', {}, key)]);

// The marks a help sentence may carry (words/learn.js): *strong*, `notation`, _emphasis_, [key].
const MARKS = [['*', 'strong', {}], ['`', 'code', { class: 'notation' }], ['_', 'em', {}], ['[', 'kbd', {}]];

/** rich(text) -> the sentence's text and marked pieces, as nodes for h(). */
function rich(text) {
  return text.split(/(\*[^*]+\*|`[^`]+`|_[^_]+_|\[[^\]]+\])/).filter(Boolean).map((part) => {
    const mark = MARKS.find(([open]) => part.startsWith(open) && part.length > 2);
    return mark ? h(mark[1], mark[2], part.slice(1, -1)) : part;
  });
}

/** line(key, tag) -> the keyed sentence in a `tag` element (a paragraph by default). */
const line = (key, tag = 'p') => h(tag, {}, rich(say(key)));

// A worked example's history: one row per turn, the left hand's gesture then the right's.
function example(key, rows, heads = ['help-left-hand', 'help-right-hand']) {
  return h('figure', { class: 'help-example' },
    h('figcaption', {}, say(key)),
    h('table', { class: 'history help-history' },
      h('thead', {}, h('tr', {}, h('th', {}, say('help-turn-col')), heads.map((x) => h('th', {}, say(x))))),
      h('tbody', {}, rows.map(([left, right], i) => h('tr', {}, h('th', { scope: 'row' }, String(i + 1)), h('td', {}, left), h('td', {}, right))))),
    line(`${key}-after`));
}

// The game, topic by topic: [test id, body]; the title is '<id>-title'; the first is open.
function topics() {
  return [
    ['help-goal', [line('help-goal-1'), line('help-goal-2')]],
    ['help-gestures', [
      line('help-gestures-1'),
      h('ul', {}, ['help-gestures-one-hand', 'help-gestures-clap', 'help-gestures-stab'].map((key) => line(key, 'li'))),
      line('help-gestures-2'),
      example('help-gestures-example', [['F', '–'], ['F', '–'], ['F', '–'], ['S', '–'], ['S', '–'], ['D', '–'], ['D', '–']]),
    ]],
    ['help-notation', [
      line('help-notation-1'), line('help-notation-2'),
      h('ul', {}, ['help-notation-mirror', 'help-notation-invisible', 'help-notation-surrender'].map((key) => line(key, 'li'))),
      line('help-notation-3'),
    ]],
    ['help-shields', [
      line('help-shields-1'), line('help-shields-2'), line('help-shields-3'),
      example('help-shields-example', [['–', 'S'], ['P', 'D']], ['help-you-one-hand', 'help-her-one-hand']),
    ]],
    ['help-monsters', [line('help-monsters-1'), line('help-monsters-2')]],
    ['help-turn', [
      h('ol', {}, [1, 2, 3, 4, 5].map((n) => line(`help-turn-${n}`, 'li'))),
      example('help-turn-example', [['D', 'D'], ['F', 'F'], ['F', 'F'], ['D', 'D'], ['D', 'D']], ['help-you-right-hand', 'help-her-right-hand']),
    ]],
  ];
}

function gameTopics() {
  return [
    h('h3', { 'data-testid': 'help-how' }, say('help-how')),
    topics().map(([id, body], i) => h('details', { class: 'help-topic', 'data-testid': id, open: i === 0 },
      h('summary', {}, say(`${id}-title`)), body)),
  ];
}

// How a turn goes, in the order a new player meets it.
function howToPlay() {
  return [
    h('h3', { 'data-testid': 'help-page' }, say('help-page')),
    h('ol', { class: 'how-to-play' }, [1, 2, 3, 4, 5].map((n) => line(`help-page-${n}`, 'li'))),
  ];
}

function keyboard() {
  const gestureRows = GESTURES.map((g) => h('tr', {},
    h('td', {}, k(g.key)), h('td', {}, k(`Shift+${g.key}`)),
    h('td', {}, gestureLabel(g.code))));
  const anywhere = [['Ctrl+Enter', 'help-key-seal'], ['r', 'help-key-reference'], ['?', 'help-key-help'], ['Esc', 'help-key-close']];
  return [
    h('h3', {}, say('help-keyboard')),
    line('help-keyboard-1'),
    h('h3', {}, say('help-gestures-keys')),
    h('table', { class: 'keys' },
      h('thead', {}, h('tr', {}, ['help-left-hand', 'help-right-hand', 'help-gesture-col'].map((key) => h('th', {}, say(key))))),
      h('tbody', {}, gestureRows)),
    h('p', { class: 'muted' }, say('help-hastened')),
    h('h3', {}, say('help-anywhere')),
    h('table', { class: 'keys' }, h('tbody', {}, anywhere.map(([key, what]) => h('tr', {}, h('td', {}, k(key)), h('td', {}, say(what)))))),
    h('p', { class: 'muted' }, say('help-no-typing')),
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
  }, say('learn-puzzles')), ' ', say('help-puzzles')) : null;
  const body = [lessons, puzzles, gameTopics(), howToPlay(), keyboard()];
  dialog = openDialog({ title: say('help-title'), testid: 'help', body });
  return dialog;
}
