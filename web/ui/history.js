// Gesture histories in the rules' two-column notation: one table per wizard, a row per gesture
// set (turn), the left hand's column then the right hand's. What a wizard may not see arrives from
// the engine as '?', and is shown as such. The engine's notes (view.notes) annotate it the way
// players annotate a transcript: the gestures that completed a spell (and which), hands forced by
// paralysis or amnesia or written by a charmer, fear and confusion, and what is being built.

import { h } from './dom.js';
import { say } from './words/index.js';

// Rows drawn of a long history (not `whole`): the newest, the earlier ones when asked for, so the
// page does not grow with the duel (issue 24, bug 10).
export const HISTORY_ROWS_SHOWN = 24;

// How a history cell reads aloud: a bare ">" or "-" would be spoken as punctuation.
const SPOKEN = { '>': say('history-spoken-stab'), '-': say('history-spoken-nothing'), '?': say('history-spoken-hidden'), '': say('history-spoken-unchosen') };
const SHOWN = { '>': '>', '-': '–', '?': '?', '': '…' };
const KIND_MARK = { haste: { mark: 'h', title: say('history-kind-haste') }, time_stop: { mark: 't', title: say('history-kind-time-stop') } };
// The engine's reasons a hand was not its wizard's own choice.
const FORCED = {
  paralysis: { mark: 'par', title: say('history-forced-paralysis') },
  amnesia: { mark: 'amn', title: say('history-forced-amnesia') },
  charm: { mark: 'chm', title: say('history-forced-charm') },
};
const HAND_WORDS = { L: say('history-hand-left'), R: say('history-hand-right'), B: say('history-hand-both') };

function cell(gesture, { extraClass = '', forced = null, spells = [] } = {}) {
  const g = gesture ?? '';
  const shown = SHOWN[g] ?? g;
  const spoken = SPOKEN[g];
  const why = forced ? FORCED[forced] || { mark: forced, title: forced } : null;
  const classes = [g === '?' ? 'hidden' : '', extraClass, spells.length ? 'in-spell' : '', why ? 'forced' : ''].filter(Boolean).join(' ');
  return h('td', { class: classes || null, title: [why ? why.title : '', spells.length ? say('history-part-of', { spells: spells.join(', ') }) : ''].filter(Boolean).join('; ') || null },
    spoken ? [h('span', { 'aria-hidden': 'true' }, shown), h('span', { class: 'visually-hidden' }, spoken)] : shown,
    why ? [h('sup', { class: 'forced-mark', 'aria-hidden': 'true' }, why.mark), h('span', { class: 'visually-hidden' }, ` (${why.title})`)] : null);
}

function turnHeader(row, note = {}) {
  const kind = KIND_MARK[row.kind];
  return h('th', { scope: 'row' }, String(row.turn), kind ? h('abbr', { title: kind.title }, kind.mark) : null,
    note.fear ? h('abbr', { class: 'row-mark', title: say('history-afraid') }, 'fear') : null,
    note.confused ? h('abbr', { class: 'row-mark', title: say('history-confused') }, 'conf') : null);
}

// For each row and hand, the names of the spells whose gestures it is part of.
function spellCells(notes) {
  const member = notes.map(() => ({ L: [], R: [] }));
  notes.forEach((note, last) => (note.cast || []).forEach((c) => {
    for (let i = c.first; i <= last; i += 1) {
      for (const hand of c.hand === 'B' ? ['L', 'R'] : [c.hand]) if (member[i]) member[i][hand].push(c.name);
    }
  }));
  return member;
}

// This turn's unsent gestures ([[left, right], ...]), one highlighted row per gesture set.
const draftRows = (draft) => draft.map(([left, right], i) => h('tr', { class: 'draft', title: say('history-draft-row') },
  h('th', { scope: 'row' }, i === 0 ? 'now' : 'now h'), cell(left || ''), cell(right || '')));

/**
 * replaceDraftRows(table, draft) puts `draft`'s rows in place of the unsent rows of a table
 * renderHistory drew with a draft (the rest of the table is left as it is).
 */
export function replaceDraftRows(table, draft) {
  const body = table.tBodies[0];
  for (const row of body.querySelectorAll(':scope > tr.draft')) row.remove();
  body.append(...draftRows(draft));
}

/**
 * renderHistory(wizard, {draft, testid, whole, notes, building}) -> a named table of wizard.history ({turn,left,right,kind} rows);
 * `draft` ([[left,right],...]) adds this turn's unsent gestures as highlighted rows; `whole` drops the scroll box;
 * `notes` ({rows, building} from the engine's view.notes) annotates it; `building` shows what it is building.
 */
export function renderHistory(wizard, { draft = null, testid = `history-${wizard.index}`, whole = false, notes = null, building = false } = {}) {
  const rowNotes = (notes && notes.rows) || [];
  const member = spellCells(rowNotes);
  const history = wizard.history || [];
  const rowsOf = (row, i) => {
    const note = rowNotes[i] || {};
    const forced = note.forced || {};
    return [h('tr', { 'data-kind': row.kind || 'normal' },
      turnHeader(row, note),
      cell(row.left, { forced: forced.L, spells: member[i] ? member[i].L : [] }),
      cell(row.right, { forced: forced.R, spells: member[i] ? member[i].R : [] })),
    note.cast && note.cast.length ? h('tr', { class: 'cast-line', 'data-testid': `cast-${wizard.index}-${i}` },
      h('td', { colspan: '3' }, '↳ ', note.cast.map((c, k) => [k ? '; ' : '', h('strong', {}, c.name),
        ` (${HAND_WORDS[c.hand]} `, h('span', { class: 'seq' }, c.sequence), ')']))) : null].filter(Boolean);
  };
  const first = whole ? 0 : Math.max(0, history.length - HISTORY_ROWS_SHOWN);
  const rows = history.flatMap((row, i) => (i < first ? [] : rowsOf(row, i)));
  if (first > 0) {
    const earlier = h('tr', { class: 'history-earlier' }, h('td', { colspan: '3' }, h('button', {
      type: 'button', class: 'link', 'data-testid': `${testid}-earlier`,
      onclick: () => earlier.replaceWith(...history.slice(0, first).flatMap(rowsOf)),
    }, say('history-earlier', { rows: first }))));
    rows.unshift(earlier);
  }
  if (draft) rows.push(...draftRows(draft));
  const table = h('table', { class: 'history', 'data-testid': testid, 'aria-label': say('history-table-label', { name: wizard.name }) },
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, h('abbr', { title: say('history-turn') }, '#')),
      h('th', { scope: 'col' }, h('abbr', { title: say('history-left-hand') }, 'L')),
      h('th', { scope: 'col' }, h('abbr', { title: say('history-right-hand') }, 'R')))),
    h('tbody', {}, rows));
  const wrap = h('div', { class: `history-wrap${whole ? ' whole' : ''}`, tabindex: '0', role: 'region', 'aria-label': say('history-region-label', { name: wizard.name }) },
    table, rows.length ? null : h('p', { class: 'history-empty' }, say('history-none-yet')));
  // Newest rows matter most; keep them in sight once the table is in the page.
  requestAnimationFrame(() => { wrap.scrollTop = wrap.scrollHeight; });
  const built = building && notes && notes.building && notes.building.length
    ? h('p', { class: 'building', 'data-testid': `building-${wizard.index}` }, h('span', { class: 'muted' }, 'Building: '),
      notes.building.map((b, k) => [k ? ' · ' : '', h('span', { class: 'spell-name' }, b.name), ` (${HAND_WORDS[b.hand]}) needs `, h('span', { class: 'seq' }, b.remaining)]))
    : null;
  return h('div', { class: 'history-block' }, h('h3', { class: 'history-name' }, wizard.name), wrap, built);
}
