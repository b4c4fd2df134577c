// The end of a duel, said and drawn: one sentence with the decisive blow, a small chart of each
// wizard's health over the turns (both from the engine's battle answer: api.battle), and the
// end's actions (Rematch, Replay, Share the replay link, Export) for every mode.

import { h } from '../dom.js';
import { say } from '../words/index.js';
import { s as svg } from '../scene/svg.js';

const MAX_HEALTH = 14;
const i0 = (t) => t === 0;

/** endSentence(ending, names) -> how the duel ended, in one sentence (ending: api.battle's). */
export function endSentence(ending, names) {
  const { turn, dead, how } = ending;
  if (how === 'surrendered') return say('end-surrendered', { who: ending.surrendered, names, turn });
  if (how === 'limit') return say('end-limit', { turn });
  if (dead.length > 1) {
    const victims = dead.map((d) => d.wizard);
    return ending.same_blow
      ? say('end-same-blow', { blow: dead[0].blow, victims, names, turn })
      : say('end-all-died', { victims, names, turn });
  }
  const [{ wizard, blow }] = dead;
  if (!blow) return say('end-died-unseen', { victim: wizard, names, turn });
  // A disease or poison that ran its course has no amount: he died of it.
  return say(blow.amount === undefined ? 'end-succumbed' : 'end-killed', { blow, victim: wizard, names, turn });
}

/**
 * healthChart(health, names) -> a small SVG line chart of each wizard's health after each turn
 * (health: api.battle's [{turn, health: [h0, h1, ...]}]; null, where the viewer was blind, breaks
 * the line), labelled for a screen reader with how each ended. Each wizard's line has a dash of
 * its own over the one before, so lines that lie on each other still show every colour.
 */
export function healthChart(health, names) {
  const width = 320;
  const height = 120;
  const pad = { left: 26, right: 8, top: 8, bottom: 20 };
  const last = health.length ? health[health.length - 1].turn : 0;
  const x = (turn) => pad.left + (last ? (turn / last) * (width - pad.left - pad.right) : 0);
  const y = (hp) => pad.top + (1 - hp / MAX_HEALTH) * (height - pad.top - pad.bottom);
  const grid = [0, 7, 14].map((hp) => [
    svg('line', { x1: pad.left, x2: width - pad.right, y1: y(hp), y2: y(hp), class: 'chart-grid' }),
    svg('text', { x: pad.left - 4, y: y(hp) + 4, 'text-anchor': 'end', class: 'chart-tick' }, String(hp)),
  ]);
  const ticks = [0, last].filter((t, i, all) => all.indexOf(t) === i).map((t) =>
    svg('text', { x: x(t), y: height - 4, 'text-anchor': i0(t) ? 'start' : 'end', class: 'chart-tick' }, `turn ${t}`));
  const lines = names.map((_, w) => {
    const runs = [];
    let run = [];
    for (const row of health) {
      const hp = row.health[w];
      if (hp === null || hp === undefined) {
        if (run.length) runs.push(run);
        run = [];
      } else run.push(`${x(row.turn).toFixed(1)},${y(hp).toFixed(1)}`);
    }
    if (run.length) runs.push(run);
    return runs.map((points) => (points.length === 1
      ? svg('circle', { cx: points[0].split(',')[0], cy: points[0].split(',')[1], r: 2.5, class: `dot wiz-${w}` })
      : svg('polyline', { points: points.join(' '), class: `line wiz-${w} dash-${w % 4}` })));
  });
  const finals = names.map((name, w) => [name, health.length ? health[health.length - 1].health[w] : null]);
  const label = say('end-chart-label', { turns: last, finals });
  const chart = svg('svg', { viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': label, class: 'health-chart', 'data-testid': 'health-chart' },
    svg('title', {}, label), grid, ticks, lines);
  const legend = h('ul', { class: 'chart-legend', 'aria-hidden': 'true' },
    names.map((name, w) => h('li', {}, h('span', { class: `swatch wiz-${w} dash-${w % 4}` }), h('bdi', {}, name))));
  return h('figure', { class: 'end-chart' }, h('figcaption', {}, say('end-chart-title')), chart, legend);
}

/**
 * endActions({onRematch, onReplay, onShare, onExport, onHome}) -> the end's buttons; onShare() ->
 * Promise of {link, copied} (the replay link, and whether the clipboard took it) or {message}:
 * the link is then said, and shown to copy by hand where the clipboard refused.
 */
export function endActions({ onRematch, onReplay, onShare, onExport, onHome }) {
  const said = h('p', { class: 'share-said', role: 'status', 'data-testid': 'share-said' });
  const share = async () => {
    const { link, copied, message } = await onShare();
    if (message) return said.replaceChildren(message);
    return said.replaceChildren(copied ? say('end-shared') : say('end-share-copy'),
      copied ? null : h('input', { type: 'text', readonly: true, value: link, class: 'share-link', 'aria-label': say('end-share'), 'data-testid': 'share-link' }));
  };
  return h('div', {},
    h('div', { class: 'actions', style: 'justify-content:center' },
      onRematch ? h('button', { type: 'button', class: 'primary', 'data-testid': 'rematch', onclick: onRematch }, say('end-rematch')) : null,
      onReplay ? h('button', { type: 'button', 'data-testid': 'replay-open', onclick: onReplay }, say('end-replay')) : null,
      onShare ? h('button', { type: 'button', 'data-testid': 'share-replay', onclick: share }, say('end-share')) : null,
      h('button', { type: 'button', 'data-testid': 'print-account', onclick: () => window.print() }, say('end-print')),
      h('button', { type: 'button', 'data-testid': 'export-record', onclick: onExport }, say('end-export')),
      h('button', { type: 'button', 'data-testid': 'new-duel', onclick: onHome }, say('end-new'))),
    said);
}

/**
 * endStory(battle, names) -> {sentence, chart} elements for the end card (battle: api.battle's
 * answer for the viewer), or nulls while it is not there.
 */
export function endStory(battle, names) {
  if (!battle || !battle.ending) return { sentence: null, chart: null };
  return {
    sentence: h('p', { class: 'end-blow', 'data-testid': 'end-blow' }, endSentence(battle.ending, names)),
    chart: battle.health && battle.health.length > 1 ? healthChart(battle.health, names) : null,
  };
}
