// The duel at a glance: each wizard's damage, enchantments and monsters, and both gesture
// histories. Everything shown is a field of the engine's view for the wizard at the device.

import { h, nameOf } from './dom.js';
import { renderHistory } from './history.js';
import { say } from './words/index.js';

function effectChip(effect) {
  let when = '';
  if (effect.permanent) when = say('board-permanent');
  else if (effect.starts_in) when = say('board-starts-in', { n: effect.starts_in });
  else if (effect.turns_left !== null && effect.turns_left !== undefined) {
    when = effect.turns_left === 0 ? say('board-ends-this-turn') : say('board-turns-left', { n: effect.turns_left });
  }
  return h('li', { class: 'chip', 'data-kind': effect.kind }, effect.name,
    effect.note ? h('span', {}, ` (${effect.note})`) : null,
    when ? h('span', { class: 'muted' }, ` · ${when}`) : null);
}

function healthBlock(wizard) {
  if (!wizard.alive) {
    return h('p', { class: 'health', 'data-testid': `damage-${wizard.index}` }, h('strong', {}, String(wizard.damage ?? '?')), say('board-damage-dead'));
  }
  if (wizard.damage === null || wizard.damage === undefined) {
    return h('p', { class: 'health' }, say('board-damage-unknown-you-cannot-see'));
  }
  const total = wizard.damage + wizard.health;
  const fraction = total > 0 ? wizard.health / total : 0;
  const level = fraction > 0.5 ? 'high' : fraction > 0.25 ? 'mid' : 'low';
  return h('div', { class: 'health', 'data-testid': `damage-${wizard.index}` },
    h('span', {}, h('strong', {}, String(wizard.damage)), say('board-damage'), h('span', { class: 'muted' }, say('board-can-take', { n: wizard.health }))),
    h('div', { class: 'health-bar', 'data-level': level, role: 'img', 'aria-label': say('board-before-death', { n: wizard.health }) },
      h('span', { style: `width:${Math.round(fraction * 100)}%` })));
}

function monsterLine(monster, names) {
  const label = `${monster.name[0].toUpperCase()}${monster.name.slice(1)} ${monster.id}`;
  if (!monster.alive) return h('li', { class: 'dead' }, say('board-monster-destroyed', { label }));
  const effects = (monster.effects || []).map((e) => e.name).join(', ');
  return h('li', { 'data-testid': `monster-${monster.id}` },
    h('strong', {}, label), say('board-monster-hits', monster),
    effects ? h('span', { class: 'muted' }, ` · ${effects}`) : null,
    monster.controller !== undefined && names ? h('span', { class: 'visually-hidden' }, say('board-controlled-by'), nameOf(names[monster.controller])) : null);
}

// One wizard's status card as the view's owner sees it.
function renderWizardCard(view, index) {
  const wizard = view.wizards[index];
  const self = index === view.wizard;
  const badges = [];
  if (!wizard.alive) badges.push(h('li', { class: 'chip bad' }, say('board-dead')));
  if (wizard.surrendered) badges.push(h('li', { class: 'chip bad' }, say('board-surrendered')));
  if (wizard.banked) badges.push(h('li', { class: 'chip note' }, say('board-banked', { spell: wizard.banked.name })));
  const effects = wizard.effects === null
    ? [h('li', { class: 'chip note' }, say('board-enchantments-unknown'))]
    : wizard.effects.map(effectChip);
  const monsters = view.monsters.filter((m) => m.controller === index);
  return h('section', {
    class: `wizard-card${self ? ' is-self' : ''}${wizard.alive ? '' : ' is-dead'}`,
    'data-testid': `wizard-${index}`, 'aria-label': say(self ? 'board-card-you' : 'board-card', { name: wizard.name }),
  },
  h('div', { class: 'wizard-role' }, say(self ? 'board-role-you' : 'board-role-opponent')),
  h('h3', {}, nameOf(wizard.name)),
  healthBlock(wizard),
  badges.length || effects.length ? h('ul', { class: 'chips', 'aria-label': say('board-effects') }, badges, effects) : null,
  monsters.length ? h('ul', { class: 'monsters', 'aria-label': say('board-monsters') }, monsters.map((m) => monsterLine(m, view.names))) : null);
}

// The view's owner first, then the others by seat (a duel: the opponent; a melee: everyone).
const ownerFirst = (view) => [view.wizard, ...view.wizards.map((w, i) => i).filter((i) => i !== view.wizard)];

/** renderStatus(view) -> every wizard's card, the view's owner first. */
export function renderStatus(view) {
  const order = ownerFirst(view);
  return h('div', { class: 'wizards', 'data-testid': 'status' }, order.map((i) => renderWizardCard(view, i)));
}

/**
 * renderHistories(view, draft, whole) -> both two-column gesture histories, annotated with the
 * engine's notes; `draft` adds the owner's unsent row(s); the opponent's shows what it is building.
 */
export function renderHistories(view, draft = null, whole = false) {
  const order = ownerFirst(view);
  const notes = view.notes || {};
  return h('section', { class: 'histories', 'aria-label': say('board-gesture-histories'), 'data-testid': 'histories' },
    order.map((i) => renderHistory(view.wizards[i], {
      draft: i === view.wizard ? draft : null, whole, notes: notes[String(i)] || null, building: i !== view.wizard,
    })));
}
