// The puzzles screen: draws a snapshot of the puzzles flow (web/flows/puzzles.js) and reports
// the player's intents to it. The list by rules and kind with the puzzle of the day; one puzzle:
// the position (both wizards' cards and histories, as in a duel), the answer (the gesture pads,
// or the spells to tick), hints, and the engine's verdict with the reply that beats a wrong
// answer. No engine, no storage: the flow asks, this draws.

import { renderHistories, renderStatus } from '../board.js';
import { h, replace } from '../dom.js';
import { gestureForKey, gestureLabel, renderHand } from '../gesturepad.js';
import { renderLog } from '../log.js';
import { say } from '../words/index.js';

const KINDS = ['win', 'survive', 'foresee'];
const RULESETS = ['standard', 'warlocks'];

function listPart(s, flow) {
  const today = s.list.find((p) => p.id === s.today);
  const button = (p) => h('li', {}, h('button', { type: 'button', class: 'tool puzzle-pick', 'data-testid': `puzzle-${p.id}`, onclick: () => flow.open(p.id) }, p.title));
  return [
    h('p', {}, say('puzzles-intro')),
    today ? h('p', {}, h('button', { type: 'button', class: 'primary', 'data-testid': 'puzzle-today', onclick: () => flow.openToday() },
      say('puzzle-today', { title: today.title }))) : null,
    RULESETS.map((rules) => {
      const mine = s.list.filter((p) => p.ruleset === rules);
      if (!mine.length) return null;
      return h('section', { class: 'puzzle-group', 'data-testid': `puzzles-${rules}` },
        h('h3', {}, say(`puzzles-rules-${rules}`)),
        KINDS.map((kind) => {
          const ofKind = mine.filter((p) => p.kind === kind);
          return ofKind.length ? [h('h4', {}, say(`puzzle-kind-${kind}`)), h('ul', { class: 'puzzle-list' }, ofKind.map(button))] : null;
        }));
    }),
  ];
}

function gesturesAnswer(s, flow) {
  return h('div', { class: 'pads puzzle-pads', 'data-testid': 'puzzle-pads' },
    ['L', 'R'].map((hand) => renderHand({ set: 0, hand, value: s.gestures[hand], onChange: (code) => flow.setGesture(hand, code) })));
}

function spellsAnswer(s, flow) {
  return h('fieldset', { class: 'puzzle-spells', 'data-testid': 'puzzle-spells' },
    h('legend', {}, say('puzzle-spells-legend')),
    s.spells.map((spell) => h('label', { class: 'choice' },
      h('input', { type: 'checkbox', checked: s.chosen.includes(spell.key), 'data-testid': `puzzle-spell-${spell.key}`, onchange: () => flow.toggleSpell(spell.key) }),
      h('span', {}, spell.name, ' ', h('small', { class: 'muted' }, spell.sequences.join(', '))))));
}

const spellName = (s, key) => (s.spells.find((x) => x.key === key) || { name: key }).name;
const pair = (gestures) => say('puzzle-pair', { left: gestureLabel(gestures[0]), right: gestureLabel(gestures[1]) });

function verdictPart(s) {
  const v = s.verdict;
  if (!v) return null;
  if (v.solved) {
    return h('div', { class: 'puzzle-verdict solved', 'data-testid': 'puzzle-verdict', 'data-solved': 'true', role: 'status' },
      h('strong', {}, say('puzzle-solved')), ' ', s.puzzle.explain);
  }
  const lines = s.puzzle.kind === 'foresee'
    ? [v.missing.length ? h('p', {}, say('puzzle-missing', { names: v.missing.map((k) => spellName(s, k)).join(', ') })) : null,
      v.extra.length ? h('p', {}, say('puzzle-extra', { names: v.extra.map((k) => spellName(s, k)).join(', ') })) : null]
    : [h('p', {}, say(`puzzle-refuted-${s.puzzle.kind}`, { reply: pair(v.reply.gestures[0]) })),
      v.events.length ? renderLog(v.events, { testid: 'puzzle-log', headings: false }) : null];
  return h('div', { class: 'puzzle-verdict', 'data-testid': 'puzzle-verdict', 'data-solved': 'false', role: 'status' },
    h('strong', {}, say('puzzle-not-yet')), lines);
}

function answerPart(s) {
  if (!s.answerShown) return null;
  const p = s.puzzle;
  const given = p.kind === 'foresee'
    ? say('puzzle-answer-spells', { names: p.answer.map((k) => spellName(s, k)).join(', ') })
    : say('puzzle-answer-orders', {
      hands: ['L', 'R'].filter((hand) => p.key.includes(hand))
        .map((hand) => say('puzzle-hand', { hand, gesture: gestureLabel(p.answer.gestures[0][hand === 'L' ? 0 : 1]) })).join(', '),
      free: p.key.length < 2,
    });
  return h('div', { class: 'puzzle-answer', 'data-testid': 'puzzle-answer' }, h('p', {}, h('strong', {}, given)), h('p', {}, p.explain));
}

function puzzlePart(s, flow) {
  const p = s.puzzle;
  return [
    h('div', { class: 'puzzle-nav' },
      h('button', { type: 'button', class: 'tool', 'data-testid': 'puzzle-back', onclick: () => flow.back() }, say('puzzle-back')),
      h('button', { type: 'button', class: 'tool', 'data-testid': 'puzzle-next', onclick: () => flow.next() }, say('puzzle-next'))),
    h('h3', { 'data-testid': 'puzzle-title' }, p.title, ' ', h('small', { class: 'muted' }, say(`puzzles-rules-${p.ruleset}`))),
    h('p', { class: 'puzzle-question', 'data-testid': 'puzzle-question' }, h('strong', {}, say(`puzzle-kind-${p.kind}`)), ' ', say(`puzzle-ask-${p.kind}`)),
    h('div', { class: 'puzzle-board' }, renderStatus(s.view), renderHistories(s.view)),
    p.kind === 'foresee' ? spellsAnswer(s, flow) : gesturesAnswer(s, flow),
    h('div', { class: 'puzzle-actions' },
      h('button', { type: 'button', class: 'primary', 'data-testid': 'puzzle-check', disabled: s.busy, onclick: () => flow.check() },
        s.busy ? say('puzzle-checking') : say('puzzle-check')),
      h('button', { type: 'button', class: 'tool', 'data-testid': 'puzzle-hint', disabled: s.hints >= p.hints.length, onclick: () => flow.hint() }, say('puzzle-hint')),
      h('button', { type: 'button', class: 'tool', 'data-testid': 'puzzle-show', onclick: () => flow.showAnswer() }, say('puzzle-show-answer'))),
    s.hints ? h('ol', { class: 'puzzle-hints', 'data-testid': 'puzzle-hints' }, p.hints.slice(0, s.hints).map((x) => h('li', {}, x))) : null,
    verdictPart(s),
    answerPart(s),
  ];
}

/** puzzlesBody(snapshot, flow) -> the screen's content for one snapshot of the flow. */
export function puzzlesBody(s, flow) {
  const error = s.error ? h('p', { class: 'problem', role: 'alert', 'data-testid': 'puzzle-error' }, say(s.error.code, s.error)) : null;
  if (s.phase === 'loading') return [h('p', { class: 'muted' }, say('puzzles-loading'))];
  if (s.phase === 'failed') return [error];
  return [error, s.phase === 'list' ? listPart(s, flow) : puzzlePart(s, flow)];
}

/**
 * mountPuzzles({flow, show, onHome}) shows the puzzles screen through show(element, destroy) and
 * redraws it on every snapshot the flow publishes; the gesture keys (f p s w d c k n, Shift for
 * the right hand) set the answer's hands. flow: createPuzzles(...)'s intents.
 */
export function mountPuzzles({ flow, show, onHome }) {
  const { element, draw } = learnCard({ name: 'puzzles', onHome, render: (s) => puzzlesBody(s, flow) });
  gestureKeys(element, {
    active: (event) => {
      const s = flow.getState();
      return s.phase === 'puzzle' && s.puzzle.kind !== 'foresee' && event.target.type !== 'checkbox';
    },
    setGesture: flow.setGesture,
  });
  const unsubscribe = flow.subscribe(draw);
  draw(flow.getState());
  show(element, unsubscribe);
  flow.start();
}

/**
 * learnCard({name, onHome, render}) -> {element, draw(snapshot)}: a learning screen's card (the
 * puzzles, the lessons): its heading (say(`${name}-title`)), the way home, and a body that
 * draw() fills with render(snapshot), the focused control keeping the focus (found again by its
 * test id).
 */
export function learnCard({ name, onHome, render }) {
  const body = h('div', { class: `${name}-body` });
  const element = h('section', { class: `${name} puzzles card`, 'data-testid': `${name}-screen`, 'aria-labelledby': `${name}-heading` },
    h('div', { class: 'puzzles-head' },
      h('h2', { id: `${name}-heading` }, say(`${name}-title`)),
      h('button', { type: 'button', class: 'tool', 'data-testid': `${name}-home`, onclick: onHome }, say(`${name}-home`))),
    body);
  const draw = (s) => {
    const focused = document.activeElement && body.contains(document.activeElement) ? document.activeElement.dataset.testid : null;
    replace(body, render(s));
    const again = focused ? body.querySelector(`[data-testid="${focused}"]`) : null;
    if (again && !again.disabled) again.focus();
  };
  return { element, draw };
}

/**
 * gestureKeys(element, {active(event), setGesture(hand, code), seal?()}) makes the gesture keys
 * (f p s w d c k n, Shift for the right hand) set the hands inside element while active(event)
 * holds, and Ctrl+Enter call seal() when given.
 */
export function gestureKeys(element, { active, setGesture, seal = null }) {
  element.addEventListener('keydown', (event) => {
    if (!active(event)) return;
    if (seal && event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      seal();
      return;
    }
    const picked = gestureForKey(event);
    if (!picked) return;
    event.preventDefault();
    setGesture(picked.hand, picked.code);
  });
}
