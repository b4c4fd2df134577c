// The engine's preview of a draft of orders drawn: per gesture set, what each hand completes and
// has under way; what the opponent could complete next; and the seal bar's one-line recap of
// the answers that will be sealed. Drawing only: form.js decides when, and keeps what is drawn.

import { h, named as withNames } from '../dom.js';
import { gestureLabel } from '../gesturepad.js';
import { HAND_WORDS } from './questions.js';
import { say } from '../words/index.js';

const UNDER_WAY_SHOWN = 3;

function sequenceView(entry) {
  // The engine says how many steps are made; show those plainly and the rest as still to do.
  const steps = entry.sequence.split('-');
  const done = steps.slice(0, entry.done).join('-');
  const todo = steps.slice(entry.done).join('-');
  return h('span', { class: 'seq', 'aria-label': `${entry.sequence}, needs ${entry.remaining}` },
    h('span', { class: 'done' }, done), todo ? h('span', { class: 'todo' }, `${done ? '-' : ''}${todo}`) : null);
}

/**
 * handPreview(set, hand, {gesture, charmer, onSpell}) -> what one hand (L, R, or B: both) of one
 * of the preview's gesture sets does, or null (B with nothing to say); gesture: the draft's for
 * that hand (none yet: an invitation to pick one); charmer: the name of the wizard who writes it
 * (charm person), or null; onSpell(key) opens a spell's page.
 */
export function handPreview(set, hand, { gesture, charmer, onSpell }) {
  if (hand !== 'B' && charmer !== null) {
    return h('div', { class: 'hand-preview', 'data-testid': `preview-${set.set}-${hand}` },
      h('h3', {}, HAND_WORDS[hand]), h('p', { class: 'none-yet' }, withNames(say('orders-charmer-chooses', { name: charmer }))));
  }
  if (hand !== 'B' && !gesture) {
    return h('div', { class: 'hand-preview', 'data-testid': `preview-${set.set}-${hand}` },
      h('h3', {}, HAND_WORDS[hand]), h('p', { class: 'none-yet' }, say('orders-choose-a-gesture-to-see')));
  }
  const completes = set.completes[hand] || [];
  const under = set.under_way[hand] || [];
  if (hand === 'B' && !completes.length && !under.length) return null;
  const casting = new Set(set.casts.filter((c) => c.hand === hand).map((c) => c.spell));
  const shown = under.slice(0, UNDER_WAY_SHOWN);
  const more = under.slice(UNDER_WAY_SHOWN);
  const wayItem = (u) => h('li', {}, h('span', { class: 'spell-name' }, u.name), ' ', sequenceView(u), h('span', { class: 'muted' }, say('orders-needs', { remaining: u.remaining })));
  return h('div', { class: 'hand-preview', 'data-testid': `preview-${set.set}-${hand}` },
    h('h3', {}, HAND_WORDS[hand]),
    completes.length
      ? h('ul', { class: 'completes' }, completes.map((c) => h('li', {},
        casting.has(c.spell) ? h('strong', {}, say('orders-casts')) : h('span', { class: 'muted' }, say('orders-completes')),
        h('button', { type: 'button', class: 'link spell-name', onclick: () => onSpell(c.spell), 'aria-label': say('orders-open-description', { spell: c.name, sequence: c.sequence }) }, c.name),
        ' ', h('span', { class: 'seq' }, c.sequence))))
      : h('p', { class: 'none-yet' }, say('orders-completes-none')),
    shown.length ? h('p', { class: 'muted' }, say('orders-under-way')) : null,
    shown.length ? h('ul', {}, shown.map(wayItem)) : null,
    more.length ? h('details', {}, h('summary', {}, say('orders-more-under-way', { n: more.length })), h('ul', {}, more.map(wayItem))) : null);
}

/**
 * opponentNext(opp, {name, draft}) -> the card of what the opponent `name` could complete next
 * (the preview's opponent_next); draft: the view is a draft's (remote play, waiting for a code),
 * which cannot know it.
 */
export function opponentNext(opp, { name, draft }) {
  return h('section', { class: 'card', 'data-testid': 'opponent-next', 'aria-label': say('orders-opponent-next', { opp: name }) },
    h('h2', {}, withNames(say('orders-opponent-next', { opp: name }))),
    opp.length
      ? h('ul', {}, opp.map((o) => h('li', { 'data-yours': o.yours ? 'true' : null }, h('span', { class: 'spell-name' }, o.name), ` — ${HAND_WORDS[o.hand].toLowerCase()}${o.yours ? ' (you write its gesture this turn)' : ''}, needs `, h('span', { class: 'seq' }, o.needs))))
      // A draft cannot know: it rests on gestures not yet seen.
      : h('p', { class: 'none-yet' }, draft ? withNames(say('orders-not-known', { opp: name })) : say('orders-nothing-that-you-can-see')));
}

/**
 * answersRecap(questions, model) -> one line with every answer that will be sealed (the seal
 * bar's, so none goes unseen), '' for none; model: the draft (draft.js).
 */
export function answersRecap(questions, model) {
  const { draft } = model;
  const named = (options, id) => {
    const o = (options || []).find((x) => x.id === id);
    return o ? o.name : id;
  };
  const parts = questions.map((q) => {
    if (q.kind === 'target') return `${q.name} → ${named(q.options, q.chosen)}`;
    if (q.kind === 'stab') return say('orders-recap-stab', { target: named(q.options, draft.stab[q.set] || q.default) });
    if (q.kind === 'monster') return `${q.name} → ${named(q.options, model.monsterAnswer(q) || q.default)}`;
    if (q.kind === 'charm') return say('orders-recap-charm', { gesture: draft.charm ? gestureLabel(draft.charm) : say('orders-recap-not-chosen') });
    if (q.kind === 'hand') {
      const which = named((q.options || []).map((o, i) => ({ id: o, name: (q.labels || [])[i] || o })), (draft.hands && draft.hands[q.id]) || q.chosen);
      return say(q.ask === 'paralysis' ? 'orders-recap-paralyse' : 'orders-recap-charm-hand', { hand: which.toLowerCase() });
    }
    if (q.kind === 'spell_choice') return q.options[q.chosen_index] ? q.options[q.chosen_index].label : null;
    return null;
  }).filter(Boolean);
  return parts.join(' · ');
}
