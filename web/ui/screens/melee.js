// The melee's screens: every wizard in compact rows (the player's own first: health, both hands'
// last gestures, enchantments, monsters), one wizard's orders under them, and the start screen's
// choice of seats (three to six, each a player at this device or the computer at a level).
// Drawn from the engine's answers only (api.meleeTable's rows: that wizard's view); intents go
// back through callbacks.

import { h, nameOf, replace } from '../dom.js';
import { renderOutcome, duelHead } from '../duel.js';
import { createOrders } from '../orders/form.js';
import { say } from '../words/index.js';

const SPOKEN_GESTURE = { '>': 'stab', '-': 'nothing', '?': 'hidden' };

function gestures(text, hand) {
  const shown = text || '·';
  return h('span', { class: 'melee-hand', 'aria-label': `${hand}: ${[...(text || '')].map((g) => SPOKEN_GESTURE[g] || g).join(' ') || 'none yet'}` },
    h('span', { class: 'melee-hand-name', 'aria-hidden': 'true' }, hand[0]), h('span', { class: 'seq' }, shown));
}

// null: the viewer is blind and sees no one else's enchantments (the row's health is unseen too).
function effectsLine(effects) {
  if (effects === null || effects === undefined) {
    return h('ul', { class: 'chips melee-effects', 'aria-label': say('melee-effects') }, h('li', { class: 'chip note' }, say('melee-effects-unseen')));
  }
  if (!effects.length) return null;
  return h('ul', { class: 'chips melee-effects', 'aria-label': say('melee-effects') }, effects.map((e) => h('li', { class: 'chip' },
    e.name, e.permanent ? h('span', { class: 'muted' }, ` · ${say('melee-permanent')}`)
      : e.turns_left !== null && e.turns_left !== undefined ? h('span', { class: 'muted' }, ` · ${e.turns_left}`) : null)));
}

function monstersLine(monsters, names) {
  if (!monsters.length) return null;
  return h('ul', { class: 'melee-monsters', 'aria-label': say('melee-monsters') }, monsters.map((m) => h('li', { 'data-testid': `melee-monster-${m.id}` },
    h('strong', {}, `${m.name} ${m.id}`), ` ${say('melee-monster-health', { health: m.health })}`,
    m.target ? [' → ', nameOf(targetName(m.target, names))] : null)));
}

const targetName = (id, names) => (/^W[0-9]$/.test(id) ? names[Number(id.slice(1))] : id);

// Out of the fight: said beside the name (the health column is a number's width), '—' as health.
const outWords = (row) => (row.surrendered ? say('melee-surrendered') : row.alive ? null : say('melee-dead'));

function healthText(row) {
  if (outWords(row)) return '—';
  return row.health === null || row.health === undefined ? '?' : String(row.health);
}

/**
 * meleeTable({rows, unruly, names}) -> the table of every wizard: one compact row each, in the
 * order given (api.meleeTable's: the viewer's own first), and the monsters nobody controls.
 */
export function meleeTable({ rows, unruly = [], names }) {
  return h('section', { class: 'card melee-table', 'data-testid': 'melee-table', 'aria-label': say('melee-table') },
    h('ol', { class: 'melee-rows' }, rows.map((r) => h('li', {
      class: `melee-row${r.you ? ' is-self' : ''}${r.alive && !r.surrendered ? '' : ' is-out'}`,
      'data-testid': `melee-row-${r.index}`,
    },
    h('div', { class: 'melee-who' }, h('strong', {}, nameOf(r.name)), r.you ? h('span', { class: 'muted' }, ` ${say('melee-you')}`) : null,
      outWords(r) ? h('span', { class: 'melee-out', 'data-testid': `melee-out-${r.index}` }, ` · ${outWords(r)}`) : null),
    h('div', { class: 'melee-health', 'data-testid': `melee-health-${r.index}`, title: say('melee-health') }, healthText(r)),
    h('div', { class: 'melee-hands' }, gestures(r.left, say('melee-left')), gestures(r.right, say('melee-right'))),
    effectsLine(r.effects),
    monstersLine(r.monsters, names)))),
    unruly.length ? h('div', { class: 'melee-unruly' }, h('span', { class: 'muted' }, say('melee-unruly')), monstersLine(unruly, names)) : null);
}

/**
 * meleeOrdersScreen(opts) -> {element, destroy}: one wizard's orders under the table of every
 * wizard. opts: {view, rows, unruly, seen, preview, submit, onSpell, onHome, saved, onDraft,
 * aside, below} (as ordersScreen's in web/ui/duel.js; targets are the view's: every being by
 * name); `aside` an element under the head, `below` one under the orders (a melee by codes:
 * its codes panel's two parts).
 */
export function meleeOrdersScreen({ view, rows, unruly, seen, preview, submit, onSpell, onHome, saved = null, onDraft, aside = null, below = null }) {
  const me = view.wizards[view.wizard];
  const extra = view.phase.kind === 'time_stop';
  const tag = extra ? (view.phase.hasted ? say('melee-tag-hasted') : say('melee-tag-time-stop')) : view.constraints.sets > 1 ? 'hastened' : 'orders';
  const orders = createOrders({
    view, preview, submit, onSpell, saved, onDraft,
    submitLabel: extra ? say('melee-seal-extra') : say('melee-seal'),
  });
  const element = h('section', { class: 'duel-screen melee-screen', 'data-testid': 'orders-screen', 'data-wizard': String(view.wizard), 'data-turn': String(view.phase.turn) },
    duelHead({ title: [nameOf(me.name), ` — ${say('melee-turn', { turn: view.phase.turn })}`], tag, onHome }),
    aside,
    meleeTable({ rows, unruly, names: view.names }),
    renderOutcome(view, seen),
    h('div', { class: 'melee-orders' }, orders.element),
    below);
  return { element, destroy: orders.destroy };
}

/**
 * meleeDecisionScreen({view, rows, unruly, seen, submit, onHome, aside, below}) -> {element}:
 * the answers the rules ask of one wizard mid-turn, under the compact rows of every wizard (his
 * own first); submit({decisions}) -> Promise of problems[]; aside, below: as meleeOrdersScreen's.
 */
export function meleeDecisionScreen({ view, rows, unruly, seen, submit, onHome, aside = null, below = null }) {
  const me = view.wizards[view.wizard];
  const answers = {};
  const problems = h('div', { role: 'alert', 'data-testid': 'problems' });
  const questions = view.phase.decisions.map((d) => h('fieldset', { 'data-testid': `decision-${d.kind}` }, h('legend', {}, d.prompt),
    d.choices.map((c) => h('label', { class: 'choice' }, h('input', {
      type: 'radio', name: `melee-decision-${d.id}`, value: c.value, 'data-testid': `decision-${d.kind}-${c.value}`,
      onchange: () => { answers[d.id] = c.value; },
    }), h('span', {}, c.label)))));
  const button = h('button', { type: 'submit', class: 'primary', 'data-testid': 'submit-decision' }, say('melee-decide'));
  const form = h('form', {
    class: 'card', 'aria-label': say('melee-decide'),
    onsubmit: async (event) => {
      event.preventDefault();
      button.disabled = true;
      const found = (await submit({ decisions: { ...answers } })) || [];
      button.disabled = false;
      replace(problems, found.map((p) => h('p', { class: 'problem' }, p.message)));
    },
  }, questions, problems, h('div', { class: 'submit-bar' }, button));
  // This turn's gestures, revealed before the rules ask (the rows show the turns before).
  const revealed = Object.entries(view.phase.revealed || {}).map(([i, sets]) => h('li', {},
    h('strong', {}, nameOf(view.names[Number(i)])), ': ',
    sets.map(([l, r], n) => [n ? '; ' : '', h('span', { class: 'seq' }, `${l} ${r}`)])));
  const element = h('section', { class: 'duel-screen melee-screen', 'data-testid': 'decision-screen', 'data-wizard': String(view.wizard) },
    duelHead({ title: [nameOf(me.name), ` — ${say('melee-turn', { turn: view.phase.turn })}`], tag: say('melee-decision-tag'), onHome }),
    aside,
    revealed.length ? h('section', { class: 'card', 'data-testid': 'melee-revealed' }, h('h2', {}, say('melee-revealed')),
      h('ul', { class: 'melee-revealed' }, revealed)) : null,
    meleeTable({ rows, unruly, names: view.names }),
    renderOutcome(view, seen),
    h('div', { class: 'melee-orders' }, form),
    below);
  return { element };
}

/**
 * meleeWatchScreen({view, rows, unruly, seen, onHome, aside}) -> {element}: the table while this
 * wizard has nothing to write (sealed, waiting for the others' codes, or out of the fight).
 */
export function meleeWatchScreen({ view, rows, unruly, seen, onHome, aside = null }) {
  const me = view.wizards[view.wizard];
  const element = h('section', { class: 'duel-screen melee-screen', 'data-testid': 'melee-watch', 'data-turn': String(view.phase.turn) },
    duelHead({ title: [nameOf(me.name), ` — ${say('melee-turn', { turn: view.phase.turn })}`], tag: say('melee-codes-tag'), onHome }),
    aside,
    meleeTable({ rows, unruly, names: view.names }),
    renderOutcome(view, seen));
  return { element };
}

/**
 * meleeSetup({count, players}) -> {element, chosen(first, second) -> {names, seats}}: the start
 * screen's choice of a melee's seats. The first two names are the form's own; this adds how
 * many wizards (3 to 6), the further names, and who plays each seat after the first ('human',
 * or a computer level: 'novice' | 'fair' | 'strong').
 */
export function meleeSetup({ count = 4, players = [] } = {}) {
  const MAX = 6;
  const choices = [['human', say('melee-player-human')], ['novice', say('melee-player-novice')],
    ['fair', say('melee-player-fair')], ['strong', say('melee-player-strong')]];
  const defaultNames = ['', '', ...say('melee-default-names').split(', ')];
  const nameInputs = defaultNames.map((n, i) => (i < 2 ? null : h('input', {
    type: 'text', value: n, 'data-testid': `melee-name-${i}`, autocomplete: 'off', spellcheck: 'false',
    'aria-label': say('melee-name', { seat: i + 1 }),
  })));
  const playerSelects = defaultNames.map((_, i) => (i === 0 ? null : h('select', {
    'data-testid': `melee-player-${i}`, 'aria-label': say('melee-played-by', { seat: i + 1 }),
  }, choices.map(([value, label]) => h('option', { value, selected: (players[i] || (i === 1 ? 'human' : 'fair')) === value }, label)))));
  const rows = defaultNames.map((_, i) => (i === 0 ? null : h('div', { class: 'melee-seat', 'data-seat': String(i) },
    h('span', { class: 'melee-seat-label' }, i === 1 ? say('melee-second') : say('melee-seat', { seat: i + 1 })),
    nameInputs[i], playerSelects[i])));
  const countSelect = h('select', { 'data-testid': 'melee-count', onchange: () => showRows() },
    [3, 4, 5, 6].map((n) => h('option', { value: String(n), selected: n === count }, String(n))));
  const showRows = () => rows.forEach((row, i) => { if (row) row.hidden = i >= Number(countSelect.value); });
  showRows();
  const element = h('div', { class: 'mode-extra melee-setup', 'data-testid': 'melee-setup' },
    h('label', {}, say('melee-how-many'), ' ', countSelect),
    rows);
  const chosen = (first, second) => {
    const n = Math.min(MAX, Number(countSelect.value));
    const names = [first, second, ...nameInputs.slice(2, n).map((input) => input.value.trim())];
    const seats = names.map((_, i) => {
      const who = i === 0 ? 'human' : playerSelects[i].value;
      return who === 'human' ? { human: true, level: null } : { human: false, level: who };
    });
    return { names, seats };
  };
  return { element, chosen };
}
