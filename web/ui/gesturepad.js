// The gesture controls: one radio group per hand, buttons for the mouse and touch, keys for the
// keyboard. Which gestures a hand may make this turn is the engine's word (its view's
// constraints); this module only draws what it is told and reports what was picked.

import { h } from './dom.js';
import { say } from './words/index.js';

/** GESTURES: the engine's input alphabet for one hand (docs/architecture.md, "Orders"), each with its button word and key. */
export const GESTURES = Object.freeze([
  { code: 'F', name: 'fingers', slug: 'F', key: 'f' },
  { code: 'P', name: 'palm', slug: 'P', key: 'p' },
  { code: 'S', name: 'snap', slug: 'S', key: 's' },
  { code: 'W', name: 'wave', slug: 'W', key: 'w' },
  { code: 'D', name: 'point', slug: 'D', key: 'd' },
  { code: 'C', name: 'clap', slug: 'C', key: 'c' },
  { code: '>', name: 'stab', slug: 'stab', key: 'k' },
  { code: '-', name: 'nothing', slug: 'nothing', key: 'n' },
]);

const HAND_WORDS = { L: say('pad-left-hand'), R: say('pad-right-hand') };

/** gestureLabel(code) -> words for a gesture code: "F (fingers)", "stab", "nothing"; unknown codes as they are. */
export function gestureLabel(code) {
  const g = GESTURES.find((x) => x.code === code);
  if (!g) return code;
  return g.code === '>' || g.code === '-' ? g.name : `${g.code} (${g.name})`;
}

/** gestureForKey(event) -> {hand:'L'|'R', code} for a gesture shortcut (lower case left, Shift right), or null. */
export function gestureForKey(event) {
  if (event.ctrlKey || event.metaKey || event.altKey) return null;
  const key = event.key;
  if (key.length !== 1) return null;
  const lower = key.toLowerCase();
  const g = GESTURES.find((x) => x.key === lower);
  if (!g) return null;
  // Shift+letter gives an upper-case key; that is the right hand.
  const hand = key !== lower || event.shiftKey ? 'R' : 'L';
  return { hand, code: g.code };
}

const COLUMNS = 4; // the pad is 4 x 2 (style.css .gesture-grid)

// Up and Down move a row on the 4 x 2 pad (a radio group's own arrows move along it, so Down
// went right: issue 28, bug 6); Left and Right stay the group's. Disabled gestures are passed by.
function gridArrows(event) {
  const step = { ArrowDown: COLUMNS, ArrowUp: -COLUMNS }[event.key];
  if (!step || event.target.type !== 'radio' || event.altKey || event.ctrlKey || event.metaKey) return;
  event.preventDefault();
  const radios = [...event.currentTarget.querySelectorAll('input[type=radio]')];
  const to = radios[radios.indexOf(event.target) + step];
  if (!to || to.disabled) return;
  to.focus();
  to.click();
}

/**
 * renderHand(opts) -> <fieldset> for one hand of one gesture set.
 * opts: {set, hand, value, allowed: Set|null, forced, locked (another wizard writes this hand: every button off), note, problem, onChange(code)}.
 */
export function renderHand({ set, hand, value, allowed = null, forced = null, locked = false, note = '', problem = '', onChange }) {
  const groupName = `gesture-${set}-${hand}`;
  const noteId = `${groupName}-note`;
  const problemId = `${groupName}-problem`;
  const describedBy = [note ? noteId : null, problem ? problemId : null].filter(Boolean).join(' ') || null;
  const keyHint = hand === 'L' ? say('pad-keys-left') : say('pad-shift-f-shift-p');
  const buttons = GESTURES.map((g) => {
    const disabled = locked || (forced ? g.code !== forced : allowed ? !allowed.has(g.code) : false);
    return h('label', { class: 'gesture', title: `${g.name} (${hand === 'L' ? g.key : `Shift+${g.key}`})` },
      h('input', {
        type: 'radio',
        name: groupName,
        value: g.code,
        checked: !locked && value === g.code,
        disabled,
        'data-testid': `gesture-${set}-${hand}-${g.slug}`,
        'aria-label': `${HAND_WORDS[hand]}: ${gestureLabel(g.code)}`,
        onchange: () => onChange(g.code),
      }),
      h('span', { 'aria-hidden': 'true' }, g.code === '-' ? '–' : g.code, h('small', {}, g.name)));
  });
  return h('fieldset', {
    class: `hand${problem ? ' has-problem' : ''}${locked ? ' locked' : ''}`,
    'data-locked': locked ? 'true' : null,
    'data-testid': `hand-${set}-${hand}`,
    'data-field': `gestures.${set}.${hand === 'L' ? 0 : 1}`,
    'aria-describedby': describedBy,
  },
  h('legend', {}, HAND_WORDS[hand], ' ', h('span', { class: 'hand-key' }, `(${keyHint})`)),
  h('div', { class: 'gesture-grid', role: 'presentation', onkeydown: gridArrows }, buttons),
  note ? h('p', { class: 'hand-note', id: noteId }, note) : null,
  problem ? h('p', { class: 'problem', id: problemId, 'data-testid': `problem-${groupName}` }, problem) : null);
}
