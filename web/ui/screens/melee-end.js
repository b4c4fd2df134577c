// A melee's end, compact (a melee of six lasting forty turns would otherwise run to pages): who
// won and how, every wizard's final row (the viewer's own first), the end's actions (replay,
// the replay link, export, a new duel), and the whole battle log folded, as one wizard saw it.

import { h, named } from '../dom.js';
import { battleLog } from '../log.js';
import { isolate, say } from '../words/index.js';
import { endActions } from './end.js';
import { meleeTable } from './melee.js';

/** endTitle(result, names) -> the end's headline: who won the melee, a draw among whom, or nobody. */
export function endTitle(result, names) {
  if (result.winner !== null && result.winner !== undefined) return named(say('melee-end-wins', { name: isolate(names[result.winner]) }));
  const among = (result.drawn || []).map((i) => isolate(names[i]));
  return among.length ? named(say('melee-end-draw', { names: among })) : say('melee-end-nobody');
}

/**
 * meleeEndScreen({views, rows, unruly, perspectives, onRematch, onReplay, onShare, onExport,
 * onHome}) -> {element}: `views` every wizard's final view (by seat; only those in `perspectives`
 * are offered as accounts), `rows` the final compact rows as the first perspective saw them.
 */
export function meleeEndScreen({ views, rows, unruly = [], perspectives, onRematch = null, onReplay = null, onShare = null, onExport, onHome }) {
  const first = views[perspectives[0]];
  const names = first.names;
  const result = first.result;
  const how = result.how ? result.how[0].toUpperCase() + result.how.slice(1) : '';
  const account = h('div', {});
  const showAccount = (w) => {
    const log = battleLog(views[w], { open: false });
    const tabs = perspectives.length > 1 ? [h('div', { class: 'tabs', role: 'group', 'aria-label': say('melee-end-whose') },
      perspectives.map((i) => h('button', {
        type: 'button', 'aria-pressed': String(i === w), 'data-testid': `perspective-${i}`, onclick: () => showAccount(i),
      }, named(say('replay-as-seen', { name: names[i] })))))] : [];
    account.replaceChildren(...tabs, log.element);
  };
  showAccount(perspectives[0]);
  const element = h('section', { class: 'duel-screen melee-screen melee-end', 'data-testid': 'game-over' },
    h('div', { class: 'card result' },
      h('h1', { tabindex: '-1', 'data-testid': 'result-title' }, endTitle(result, names)),
      h('p', { 'data-testid': 'result-how' }, how),
      endActions({ onRematch, onReplay, onShare, onExport, onHome })),
    meleeTable({ rows, unruly, names }),
    account);
  return { element };
}
