// Gesture histories in the rules' two-column notation: one table per wizard, a row per gesture
// set (turn), the left hand's column then the right hand's. What a wizard may not see arrives from
// the engine as '?', and is shown as such.

import { h } from './dom.js';

// How a history cell reads aloud: a bare ">" or "-" would be spoken as punctuation.
const SPOKEN = { '>': 'stab', '-': 'nothing', '?': 'hidden', '': 'not chosen yet' };
const SHOWN = { '>': '>', '-': '–', '?': '?', '': '…' };
const KIND_MARK = { haste: { mark: 'h', title: 'extra gesture set from haste' }, time_stop: { mark: 't', title: 'time-stopped turn' } };

function cell(gesture, extraClass = '') {
  const g = gesture ?? '';
  const shown = SHOWN[g] ?? g;
  const spoken = SPOKEN[g];
  return h('td', { class: `${g === '?' ? 'hidden' : ''} ${extraClass}`.trim() },
    spoken ? [h('span', { 'aria-hidden': 'true' }, shown), h('span', { class: 'visually-hidden' }, spoken)] : shown);
}

function turnHeader(row) {
  const kind = KIND_MARK[row.kind];
  return h('th', { scope: 'row' }, String(row.turn), kind ? h('abbr', { title: kind.title }, kind.mark) : null);
}

/**
 * renderHistory(wizard, {draft, testid, whole}) -> a named table of wizard.history ({turn,left,right,kind} rows);
 * `draft` ([[left,right],...]) adds this turn's unsent gestures as highlighted rows; `whole` drops the scroll box.
 */
export function renderHistory(wizard, { draft = null, testid = `history-${wizard.index}`, whole = false } = {}) {
  const rows = (wizard.history || []).map((row) => h('tr', { 'data-kind': row.kind || 'normal' },
    turnHeader(row), cell(row.left), cell(row.right)));
  if (draft) {
    draft.forEach(([left, right], i) => {
      rows.push(h('tr', { class: 'draft', title: 'your orders for this turn, not yet sealed' },
        h('th', { scope: 'row' }, i === 0 ? 'now' : 'now h'), cell(left || ''), cell(right || '')));
    });
  }
  const table = h('table', { class: 'history', 'data-testid': testid, 'aria-label': `${wizard.name}'s gestures, one row per turn` },
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, h('abbr', { title: 'turn' }, '#')),
      h('th', { scope: 'col' }, h('abbr', { title: 'left hand' }, 'L')),
      h('th', { scope: 'col' }, h('abbr', { title: 'right hand' }, 'R')))),
    h('tbody', {}, rows));
  const wrap = h('div', { class: `history-wrap${whole ? ' whole' : ''}`, tabindex: '0', role: 'region', 'aria-label': `${wizard.name}'s gestures` },
    table, rows.length ? null : h('p', { class: 'history-empty' }, 'No gestures yet.'));
  // Newest rows matter most; keep them in sight once the table is in the page.
  requestAnimationFrame(() => { wrap.scrollTop = wrap.scrollHeight; });
  return h('div', { class: 'history-block' }, h('h3', { class: 'history-name' }, wizard.name), wrap);
}
