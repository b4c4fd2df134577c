// The duel screens: one wizard's orders (or time-stopped extra turn), a decision the rules ask
// for after the reveal, and the game's end. Each is drawn from that wizard's engine view only,
// so nothing the other wizard may not know reaches the screen.

import { h, named, nameOf, replace } from './dom.js';
import { isolate, say } from './words/index.js';
import { handIcon } from './icons.js';
import { renderHistories, renderStatus } from './board.js';
import { battleLog, renderLog } from './log.js';
import { createOrders } from './orders/form.js';
import { savedDuelsButton } from './saved.js';
import { onKeys } from './keys.js';
import { endActions, endStory } from './screens/end.js';
import { sceneCard } from './scene/card.js';

const SPOKEN = { '>': 'stab', '-': 'nothing', '?': 'hidden' };
const spoken = (g) => SPOKEN[g] || g;

/** duelHead({title, tag, onHome}) -> a duel screen's head: its title, the phase's tag, and the way to the saved duels. */
export function duelHead({ title, tag, onHome }) {
  return h('div', { class: 'duel-head' },
    h('h1', { tabindex: '-1' }, title),
    tag ? h('span', { class: tag === 'orders' ? 'phase-tag plain' : 'phase-tag', 'data-testid': 'phase-tag' }, tag) : null,
    savedDuelsButton(onHome));
}

// One line per revealed history row; `single`: the card's title names the one turn, so the
// lines do not repeat it (on a phone every repeated word can wrap a line and push the pads down).
function gestureLines(view, rowsSeen, single) {
  const lines = [];
  view.wizards.forEach((w, i) => {
    for (const row of w.history.slice(rowsSeen[i] || 0)) {
      const who = i === view.wizard ? [nameOf(w.name), ' (you)'] : nameOf(w.name);
      const extra = row.kind === 'haste' ? say('duel-row-hastened') : row.kind === 'time_stop' ? say('duel-row-time-stopped') : '';
      const when = single ? (extra ? ` (${extra})` : '') : ` — turn ${row.turn}${extra ? `, ${extra}` : ''}`;
      lines.push(h('li', {}, h('strong', {}, who), `${when}: left `, h('span', { class: 'seq' }, spoken(row.left)), ', right ', h('span', { class: 'seq' }, spoken(row.right))));
    }
  });
  return lines;
}

/**
 * renderOutcome(view, seen) -> the card telling this wizard what happened since their last input,
 * or null. It is always open (a phone too: the result is never folded away), and carries in
 * data-announce the words the host's polite live region reads out (shell/host.js).
 */
export function renderOutcome(view, seen) {
  // The revealed gestures are listed from the histories (which also show what stayed hidden as
  // "?"), so the log's own "gestures" lines would only repeat them here.
  const events = view.log.slice(seen.log || 0).filter((e) => e.type !== 'gestures');
  const turns = new Set(events.map((e) => e.turn));
  view.wizards.forEach((w, i) => w.history.slice((seen.rows || [0, 0])[i] || 0).forEach((row) => turns.add(row.turn)));
  const single = turns.size === 1;
  const lines = gestureLines(view, seen.rows || [0, 0], single);
  if (!events.length && !lines.length) return null;
  const title = single ? say('outcome-title-turn', { turn: [...turns][0] }) : say('outcome-title-since');
  const none = say('outcome-none');
  const spoken = [`${title}.`, ...lines.map((li) => `${li.textContent}.`), ...(events.length ? events.map((e) => e.text) : [none])].join(' ');
  return h('section', { class: 'card outcome', 'data-testid': 'outcome', 'aria-labelledby': 'outcome-title', 'data-announce': spoken },
    h('h2', { id: 'outcome-title' }, title),
    lines.length ? h('ul', { class: 'muted', 'aria-label': say('outcome-gestures-label') }, lines) : null,
    events.length ? renderLog(events, { testid: 'outcome-log', headings: !single }) : h('p', { class: 'none-yet' }, none));
}

// One line with both wizards' damage, for a phone, where the status cards come after the orders.
function glance(view) {
  const part = (i) => {
    const w = view.wizards[i];
    const damage = w.damage === null || w.damage === undefined ? '?' : w.damage;
    return [i === view.wizard ? say('duel-glance-you') : nameOf(w.name), `: ${damage} damage${w.alive ? '' : ' (dead)'}`];
  };
  const monsters = view.monsters.filter((m) => m.alive).length;
  return h('p', { class: 'glance', 'data-testid': 'glance' }, part(view.wizard), ' · ', part(view.opponent),
    monsters ? ` · ${monsters} monster${monsters === 1 ? '' : 's'}` : '');
}

/**
 * ordersScreen(opts) -> {element, destroy, showChat(chat), useGestures(sets, charm)}: one wizard's orders with the
 * board beside them; showChat puts a live duel's chat ({lines, names}) into the battle log's time line;
 * useGestures puts whole gesture sets (and a charmed hand's gesture) into the form (createOrders).
 * opts: {view, seen, preview, submit, onSpell, onHome, saved, onDraft, aside, submitLabel, outcome} (saved/onDraft: see
 * createOrders; aside: shown above the form; submitLabel: the seal button's words; outcome: the result card
 * to show instead of renderOutcome(view, seen), where `view` is a turn foreseen, not the duel's own; sound: the
 * scene's sound switch, {on, onChange(on)}, or null).
 */
export function ordersScreen({ view, seen, preview, submit, onSpell, onHome, saved = null, onDraft, aside = null, submitLabel = null, outcome, sound = null }) {
  const me = view.wizards[view.wizard];
  // (a hasted turn is an extra turn too, but one both wizards see)
  const hastedTurn = view.phase.kind === 'time_stop' && view.phase.hasted === true;
  const timeStop = view.phase.kind === 'time_stop' && !hastedTurn;
  const hastened = view.constraints.sets > 1;
  const tag = say(timeStop ? 'duel-tag-time-stop' : hastedTurn ? 'duel-tag-hasted-turn' : hastened ? 'duel-tag-hastened' : 'duel-tag-orders');
  const orders = createOrders({ view, preview, submit, onSpell, submitLabel: submitLabel || say(timeStop ? 'duel-seal-time-stopped' : hastedTurn ? 'duel-seal-hasted' : 'duel-seal'), saved, onDraft });
  // The battle log, open and read in place (no scroll box of its own: the page scrolls).
  const log = battleLog(view);
  // The scene above the orders, playing what happened since this wizard's last orders.
  const scene = sceneCard(view, { events: view.log.slice(seen.log || 0), sound });
  const element = h('section', { class: 'duel-screen', 'data-testid': 'orders-screen', 'data-wizard': String(view.wizard), 'data-turn': String(view.phase.turn) },
    duelHead({ title: [nameOf(me.name), say('duel-head-turn', { turn: view.phase.turn })], tag, onHome }),
    glance(view),
    timeStop ? h('p', { class: 'warning' }, named(say('duel-time-stopped', { opp: isolate(view.wizards[view.opponent].name) }))) : null,
    outcome === undefined ? renderOutcome(view, seen) : outcome,
    scene.element,
    h('div', { class: 'duel' },
      h('div', { class: 'duel-board' }, renderStatus(view), orders.histories, log.element),
      h('div', { class: 'duel-orders' }, aside, orders.element)));
  const destroy = () => { scene.destroy(); orders.destroy(); };
  return { element, destroy, showChat: log.showChat, useGestures: orders.useGestures };
}

/**
 * decisionScreen(opts) -> {element, destroy}: the choices the rules ask of this wizard mid-turn.
 * opts: {view, seen, submit(input) -> Promise<problems[]>, onHome, sound}.
 */
export function decisionScreen({ view, seen, submit, onHome, sound = null }) {
  const me = view.wizards[view.wizard];
  const answers = {};
  const problemsSlot = h('div', { role: 'alert', 'data-testid': 'problems' });
  const fieldsets = view.phase.decisions.map((d) => h('fieldset', { 'data-field': `decisions.${d.id}`, 'data-testid': `decision-${d.kind}` },
    h('legend', {}, d.prompt),
    d.choices.map(({ value, label }, i) => h('label', { class: 'choice' },
      h('input', {
        type: 'radio', name: `decision-${d.id}`, value, 'data-testid': `decision-${d.kind}-${value}`,
        'data-autofocus': i === 0 && d === view.phase.decisions[0] ? true : null,
        onchange: () => { answers[d.id] = value; },
      }),
      h('span', {}, label)))));
  const button = h('button', { type: 'submit', class: 'primary', 'data-testid': 'submit-decision' }, say('duel-decide'));
  const form = h('form', {
    class: 'card', 'aria-label': say('duel-decisions'),
    onsubmit: async (event) => {
      event.preventDefault();
      button.disabled = true;
      const problems = await submit({ decisions: { ...answers } });
      button.disabled = false;
      replace(problemsSlot, (problems || []).map((p) => h('p', { class: 'problem' }, p.message)));
      if (problems && problems.length) problemsSlot.setAttribute('tabindex', '-1');
    },
  }, h('h2', {}, say('duel-decide-title')), fieldsets, problemsSlot, h('div', { class: 'submit-bar' }, button));
  const onKey = (event) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      form.requestSubmit();
    }
  };
  onKeys(form, onKey);
  const scene = sceneCard(view, { events: view.log.slice(seen.log || 0), sound });
  const revealed = Object.entries(view.phase.revealed || {}).map(([i, sets]) => h('li', {},
    h('strong', {}, view.wizards[Number(i)].name), ': ',
    sets.map(([l, r], si) => [si ? '; then ' : '', 'left ', h('span', { class: 'seq' }, spoken(l)), ', right ', h('span', { class: 'seq' }, spoken(r))])));
  const element = h('section', { class: 'duel-screen', 'data-testid': 'decision-screen', 'data-wizard': String(view.wizard) },
    duelHead({ title: [nameOf(me.name), say('duel-head-turn', { turn: view.phase.turn })], tag: say('duel-tag-decision'), onHome }),
    revealed.length ? h('section', { class: 'card outcome' }, h('h2', {}, say('duel-revealed-title')), h('ul', {}, revealed)) : null,
    renderOutcome(view, seen),
    scene.element,
    h('div', { class: 'duel' },
      h('div', { class: 'duel-board' }, renderStatus(view), renderHistories(view)),
      h('div', { class: 'duel-orders' }, form)));
  return { element, destroy: scene.destroy };
}

/**
 * gameOverScreen(opts) -> {element, destroy, showChat(chat)}: the result, how it ended (the decisive
 * blow and the health chart: web/ui/screens/end.js), rematch, replay, the replay link, record
 * export, and the whole story; showChat puts a live duel's chat into the battle log's time line.
 * opts: {views: [view0, view1], perspectives: [indices to offer], loadBattle(v) -> Promise of
 * api.battle's answer for wizard v (or null), onRematch, onExport, onReplay, onShare, onHome, sound}.
 */
export function gameOverScreen({ views, perspectives, loadBattle = null, onRematch, onExport, onReplay = null, onShare = null, onHome, sound = null }) {
  const result = views[0].result;
  const names = views[0].names;
  const title = result.winner === null ? say('duel-draw') : named(say('duel-wins', { name: isolate(names[result.winner]) }));
  const how = result.how ? result.how[0].toUpperCase() + result.how.slice(1) : '';
  let current = perspectives[0];
  let chat = null;
  let log = null;
  const board = h('div', {});
  const told = h('div', { class: 'end-story' });
  const howLine = h('p', { 'data-testid': 'result-how' }, how);
  let scene = null;
  const battles = new Map();
  const tell = async (v) => {
    if (!loadBattle) return;
    if (!battles.has(v)) battles.set(v, loadBattle(v).catch(() => null));
    const answer = await battles.get(v);
    if (v !== current) return;
    const { sentence, chart } = endStory(answer, names);
    // The sentence says how it ended and more (when, by whose blow): it takes the short line's
    // place, which would say it twice ("Bob surrendered" over "Bob surrendered on turn 4"); the
    // turn limit's line keeps its why.
    const merge = sentence && answer.ending.how !== 'limit';
    replace(howLine, merge ? h('span', { class: 'end-blow', 'data-testid': 'end-blow' }, sentence.textContent) : how);
    replace(told, merge ? null : sentence, chart);
  };
  const draw = () => {
    const v = views[current];
    log = battleLog(v);
    log.showChat(chat);
    if (scene) scene.destroy();
    // The scene at the end, playing the last turn's events.
    const lastTurn = v.log.length ? v.log[v.log.length - 1].turn : 0;
    scene = sceneCard(v, { events: v.log.filter((e) => e.turn === lastTurn), sound });
    replace(board,
      perspectives.length > 1 ? h('div', { class: 'tabs', role: 'group', 'aria-label': say('duel-whose-account') },
        perspectives.map((i) => h('button', {
          type: 'button', 'aria-pressed': String(i === current), 'data-testid': `perspective-${i}`,
          onclick: () => { current = i; draw(); },
        }, say('duel-as-before'), nameOf(names[i]), say('duel-as-after')))) : null,
      scene.element,
      h('div', { class: 'duel' },
        h('div', { class: 'duel-board' }, renderStatus(v), renderHistories(v, null, true)),
        h('div', {}, log.element)));
    tell(current);
  };
  draw();
  const element = h('section', { class: 'duel-screen', 'data-testid': 'game-over' },
    h('div', { class: 'card result' },
      handIcon('pass-sigil'),
      h('h1', { tabindex: '-1', 'data-testid': 'result-title' }, title),
      howLine,
      told,
      endActions({ onRematch, onReplay, onShare, onExport, onHome })),
    board);
  const showChat = (said) => {
    chat = said;
    log.showChat(chat);
  };
  return { element, destroy: () => scene && scene.destroy(), showChat };
}
