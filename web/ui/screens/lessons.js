// The lessons screen: draws a snapshot of the lessons flow (web/flows/lessons.js) and reports the
// player's intents to it. The list with what is done; one lesson: what to try, the position (both
// wizards' cards and histories, as in a duel), the two gesture pads, what happened last turn,
// and the engine's verdict with the lesson's explanation; the last lesson begins a whole duel.
// Also the start screen's offer of the guided duel. No engine, no storage: the flow asks, this draws.

import { renderHistories, renderStatus } from '../board.js';
import { h } from '../dom.js';
import { renderHand } from '../gesturepad.js';
import { renderLog } from '../log.js';
import { say } from '../words/index.js';
import { gestureKeys, learnCard } from './puzzles.js';

const MARKS = { passed: '✓', skipped: '–', begun: '✓' };

function listPart(s, flow) {
  const started = s.list.some((l) => s.done[l.id]);
  return [
    h('p', {}, say('lessons-intro')),
    h('p', {}, h('button', { type: 'button', class: 'primary', 'data-testid': 'lessons-continue', onclick: () => flow.openNext() },
      say(started ? 'lessons-continue' : 'lessons-begin'))),
    h('ol', { class: 'lesson-list', 'data-testid': 'lesson-list' }, s.list.map((l) => {
      const mark = s.done[l.id];
      return h('li', { 'data-done': mark || 'no' },
        h('button', { type: 'button', class: 'tool lesson-pick', 'data-testid': `lesson-${l.id}`, onclick: () => flow.open(l.id) },
          l.title),
        ' ', mark ? h('span', { class: 'lesson-mark', 'data-testid': `lesson-mark-${l.id}` }, MARKS[mark], ' ', say(`lesson-${mark}`)) : null);
    })),
  ];
}

const FAILED_ORDER = ['cast', 'hit_by', 'blocked', 'unhurt', 'monster', 'effect'];

function verdictPart(s, flow) {
  const v = s.verdict;
  const log = s.events.length ? renderLog(s.events, { testid: 'lesson-log', headings: s.turns.length > 1 }) : null;
  if (v.passed) {
    return h('div', { class: 'lesson-verdict passed', 'data-testid': 'lesson-verdict', 'data-passed': 'true', role: 'status' },
      h('p', {}, h('strong', {}, say('lesson-passed')), ' ', s.lesson.explain),
      h('h4', {}, say('lesson-what-happened')), log,
      h('div', { class: 'lesson-actions' },
        h('button', { type: 'button', class: 'primary', 'data-testid': 'lesson-next', onclick: () => flow.next() }, say('lesson-next')),
        h('button', { type: 'button', class: 'tool', 'data-testid': 'lesson-again', onclick: () => flow.retry() }, say('lesson-again'))));
  }
  const why = FAILED_ORDER.filter((what) => v.failed.includes(what)).map((what) => h('li', {}, say(`lesson-failed-${what}`)));
  return h('div', { class: 'lesson-verdict', 'data-testid': 'lesson-verdict', 'data-passed': 'false', role: 'status' },
    h('p', {}, h('strong', {}, say('lesson-not-yet'))), h('ul', {}, why),
    h('p', {}, h('strong', {}, say('lesson-hint-label')), ' ', s.lesson.hint),
    h('h4', {}, say('lesson-what-happened')), log,
    h('div', { class: 'lesson-actions' },
      h('button', { type: 'button', class: 'primary', 'data-testid': 'lesson-retry', onclick: () => flow.retry() }, say('lesson-retry')),
      h('button', { type: 'button', class: 'tool', 'data-testid': 'lesson-skip-after', onclick: () => flow.skip() }, say('lesson-skip'))));
}

function turnPart(s, flow) {
  const l = s.lesson;
  return [
    h('div', { class: 'pads lesson-pads', 'data-testid': 'lesson-pads' },
      ['L', 'R'].map((hand) => renderHand({ set: 0, hand, value: s.gestures[hand], onChange: (code) => flow.setGesture(hand, code) }))),
    h('div', { class: 'lesson-actions' },
      h('button', { type: 'button', class: 'primary', 'data-testid': 'lesson-seal', disabled: s.busy, onclick: () => flow.seal() },
        s.busy ? say('lesson-sealing') : say('lesson-seal')),
      h('button', { type: 'button', class: 'tool', 'data-testid': 'lesson-hint', disabled: s.hintShown, onclick: () => flow.hint() }, say('lesson-hint'))),
    s.hintShown ? h('p', { class: 'lesson-hint', 'data-testid': 'lesson-hint-text' }, l.hint) : null,
    s.lastEvents.length ? [h('h4', {}, say('lesson-last-turn')), renderLog(s.lastEvents, { testid: 'lesson-log', headings: false })] : null,
  ];
}

function duelPart(s, flow) {
  return h('div', { class: 'lesson-actions' },
    h('button', { type: 'button', class: 'primary', 'data-testid': 'lesson-duel', onclick: () => flow.playDuel() }, say('lesson-duel', { level: s.lesson.duel })));
}

function lessonPart(s, flow) {
  const l = s.lesson;
  const at = s.list.findIndex((x) => x.id === l.id);
  return [
    h('div', { class: 'puzzle-nav' },
      h('button', { type: 'button', class: 'tool', 'data-testid': 'lessons-back', onclick: () => flow.back() }, say('lessons-back')),
      h('button', { type: 'button', class: 'tool', 'data-testid': 'lesson-skip', onclick: () => flow.skip() }, say('lesson-skip'))),
    h('h3', { 'data-testid': 'lesson-title' }, h('small', { class: 'muted' }, say('lesson-count', { n: at + 1, of: s.list.length })), ' ', l.title),
    h('p', { class: 'lesson-try', 'data-testid': 'lesson-try' }, h('strong', {}, say('lesson-try-label')), ' ', l.try,
      l.turns > 1 && !s.verdict ? h('span', { class: 'lesson-turn', 'data-testid': 'lesson-turn' }, ' ', say('lesson-turn', { n: s.turns.length + 1, of: l.turns })) : null),
    l.duel ? duelPart(s, flow) : [
      h('div', { class: 'puzzle-board' }, renderStatus(s.view), renderHistories(s.view)),
      s.verdict ? verdictPart(s, flow) : turnPart(s, flow),
    ],
  ];
}

/** lessonsBody(snapshot, flow) -> the screen's content for one snapshot of the flow. */
export function lessonsBody(s, flow) {
  const error = s.error ? h('p', { class: 'problem', role: 'alert', 'data-testid': 'lesson-error' }, say(s.error.code, s.error)) : null;
  const unsaved = s.unsaved ? h('p', { class: 'problem', role: 'alert', 'data-testid': 'lesson-unsaved' }, say('lesson-unsaved')) : null;
  if (s.phase === 'loading') return [h('p', { class: 'muted' }, say('lessons-loading'))];
  if (s.phase === 'failed') return [error];
  return [error, unsaved, s.phase === 'list' ? listPart(s, flow) : lessonPart(s, flow)];
}

/**
 * mountLessons({flow, show, onHome, straightIn}) shows the lessons screen through show(element, destroy)
 * and redraws it on every snapshot the flow publishes; the gesture keys (f p s w d c k n, Shift
 * for the right hand) set the hands, Ctrl+Enter seals. straightIn: open the next lesson not yet
 * done at once (a newcomer's first click), not the list.
 */
export function mountLessons({ flow, show, onHome, straightIn = false }) {
  const { element, draw } = learnCard({ name: 'lessons', onHome, render: (s) => lessonsBody(s, flow) });
  gestureKeys(element, {
    active: () => {
      const s = flow.getState();
      return s.phase === 'lesson' && !s.verdict && !s.lesson.duel;
    },
    setGesture: flow.setGesture,
    seal: flow.seal,
  });
  const unsubscribe = flow.subscribe(draw);
  draw(flow.getState());
  show(element, unsubscribe);
  flow.start().then(() => (straightIn ? flow.openNext() : undefined));
}

/**
 * lessonsOffer({first, onLessons, onHelp, onPuzzles}) -> the start screen's way in for a newcomer:
 * on a first visit (first: no lesson touched, no duel saved) a card offering the guided duel
 * (onLessons({straightIn: true}) opens its first lesson), otherwise one line (the lessons' list);
 * both with How to play and the puzzles.
 */
export function lessonsOffer({ first, onLessons, onHelp, onPuzzles }) {
  const tools = [
    h('button', { type: 'button', class: first ? 'primary' : 'tool', 'data-testid': 'open-lessons', onclick: () => onLessons({ straightIn: first }) }, say(first ? 'lessons-offer-go' : 'lessons-open')), ' ',
    h('button', { type: 'button', class: 'tool', 'data-testid': 'learn-help', onclick: onHelp }, say('learn-how')), ' ',
    h('button', { type: 'button', class: 'tool', 'data-testid': 'open-puzzles', onclick: onPuzzles }, say('learn-puzzles')),
  ];
  if (!first) return h('p', { class: 'learn-invite', 'data-testid': 'learn-invite' }, say('learn-invite'), ' ', tools);
  return h('div', { class: 'learn-invite learn-offer', 'data-testid': 'learn-invite', 'data-first': 'true' },
    h('p', {}, h('strong', {}, say('lessons-offer-title')), ' ', say('lessons-offer')), h('p', {}, tools));
}
