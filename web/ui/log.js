// The battle log: the engine narrates every event in words (its `text`); this module only groups
// the lines by turn, marks the newest ones, and puts the players' chat (live duels) in the same
// time line, each line under the turn it was said in.

import { h } from './dom.js';
import { say } from './words/index.js';

// The duel's log draws its newest turns, and the earlier ones only when the player asks: the page
// then holds the same few hundred nodes at turn 300 as at turn 20 (issue 24, bug 10).
export const LOG_TURNS_SHOWN = 20;

// Groups events and chat lines by turn, in turn order. A chat line said in turn T was said while
// T was being chosen, before T's events happened, so it comes first in T's group.
function groupByTurn(events, chatLines) {
  const groups = [];
  const byTurn = new Map();
  const groupOf = (turn) => {
    if (!byTurn.has(turn)) {
      const group = { turn, chat: [], events: [] };
      byTurn.set(turn, group);
      groups.push(group);
    }
    return byTurn.get(turn);
  };
  for (const event of events) groupOf(event.turn).events.push(event);
  for (const line of chatLines) groupOf(line.turn).chat.push(line);
  return groups.sort((a, b) => a.turn - b.turn);
}

// One chat line: who said it (isolated, so a right-to-left name does not reorder the line) and
// the text, both as text nodes, never markup.
function chatItem(line, names, turn) {
  return h('li', { class: `log-chat from-${line.from}`, 'data-testid': 'log-chat', 'data-from': line.from, 'data-turn': String(turn) },
    h('span', { class: 'visually-hidden' }, say('log-chat-turn', { turn })),
    h('bdi', { class: 'who' }, names[line.from] || line.from), ': ',
    h('bdi', { class: 'said', dir: 'auto' }, line.text));
}

/**
 * renderLog(events, {latestTurn, testid, newestFirst, headings, chat, fold}) -> <ol> of the narrated events,
 * grouped by turn; chat: {lines: [{from: 'me'|'them', text, turn}], names: {me, them}} | null; `fold`: draw
 * only that many of the newest turns, the earlier ones behind a button.
 */
export function renderLog(events, { latestTurn = null, testid = 'battle-log', newestFirst = false, headings = true, chat = null, fold = 0 } = {}) {
  const groups = groupByTurn(events || [], chat ? chat.lines : []);
  if (newestFirst) groups.reverse();
  const folded = fold && groups.length > fold ? groups.splice(newestFirst ? fold : 0, groups.length - fold) : [];
  const itemsOf = (group) => [
    headings ? h('li', { class: 'turn-head', 'aria-hidden': 'true', 'data-turn': String(group.turn) }, say('log-turn-head', { turn: group.turn })) : null,
    ...group.chat.map((line) => chatItem(line, chat.names, group.turn)),
    ...group.events.map((event) => h('li', { class: group.turn === latestTurn ? 'latest' : null, 'data-type': event.type, 'data-turn': String(group.turn) },
      h('span', { class: 'visually-hidden' }, `Turn ${group.turn}: `), event.text)),
  ].filter(Boolean);
  const items = groups.flatMap(itemsOf);
  if (folded.length) {
    const earlier = h('li', { class: 'log-earlier' }, h('button', {
      type: 'button', class: 'link', 'data-testid': `${testid}-earlier`,
      onclick: () => earlier.replaceWith(...folded.flatMap(itemsOf)),
    }, say('log-earlier', { turns: folded.length })));
    if (newestFirst) items.push(earlier);
    else items.unshift(earlier);
  }
  if (!items.length) return h('p', { class: 'none-yet', 'data-testid': testid }, say('log-none-yet'));
  return h('ol', { class: 'log', 'data-testid': testid }, items);
}

/**
 * battleLog(view, {open, wrap}) -> {element, showChat(chat)}: the whole battle log of a view in a
 * foldable card; showChat redraws it with the chat in its time line (the fold is kept). The card
 * is hidden while there is neither an event nor a chat line.
 */
export function battleLog(view, { open = true, wrap = 'log-whole' } = {}) {
  const summary = h('summary', {});
  const body = h('div', { class: wrap });
  const element = h('details', { class: 'panel card', open, 'data-testid': 'log-panel' }, summary, body);
  const showChat = (chat = null) => {
    const said = chat ? chat.lines.length : 0;
    const count = view.log.length;
    element.hidden = !count && !said;
    summary.textContent = say('log-summary', { count, said });
    const latest = count ? view.log[count - 1].turn : null;
    body.replaceChildren(renderLog(view.log, { latestTurn: latest, chat: said ? chat : null, fold: LOG_TURNS_SHOWN }));
  };
  showChat(null);
  return { element, showChat };
}
