// The battle log: the engine narrates every event in words (its `text`); this module only groups
// the lines by turn and marks the newest ones.

import { h } from './dom.js';

function groupByTurn(events) {
  const groups = [];
  for (const event of events) {
    const last = groups[groups.length - 1];
    if (last && last.turn === event.turn) last.events.push(event);
    else groups.push({ turn: event.turn, events: [event] });
  }
  return groups;
}

/** renderLog(events, {latestTurn, testid, newestFirst, headings}) -> <ol> of the narrated events, grouped by turn. */
export function renderLog(events, { latestTurn = null, testid = 'battle-log', newestFirst = false, headings = true } = {}) {
  const groups = groupByTurn(events || []);
  if (newestFirst) groups.reverse();
  const items = [];
  for (const group of groups) {
    if (headings) items.push(h('li', { class: 'turn-head', 'aria-hidden': 'true' }, `Turn ${group.turn}`));
    for (const event of group.events) {
      items.push(h('li', { class: group.turn === latestTurn ? 'latest' : null, 'data-type': event.type },
        h('span', { class: 'visually-hidden' }, `Turn ${group.turn}: `), event.text));
    }
  }
  if (!items.length) return h('p', { class: 'none-yet', 'data-testid': testid }, 'Nothing has happened yet.');
  return h('ol', { class: 'log', 'data-testid': testid }, items);
}
