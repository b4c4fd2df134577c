// The spell reference: the rules' forward and reverse lists and every spell's full text, all as
// the engine's `spells()` returns them. Nothing here knows a spell; it lays out the table.

import { h, replace } from './dom.js';
import { openDialog } from './dialog.js';
import { say } from './words/index.js';

// Headings for the engine's category values; an unknown value is shown as it comes.
const CATEGORY_TITLES = {
  protection: say('reference-protection-spells'),
  summon: say('reference-summoning-spells'),
  damage: say('reference-damaging-spells'),
  enchantment: say('reference-enchantments'),
};
const TARGET_WORDS = { self: say('reference-target-self'), opponent: say('reference-target-opponent'), nobody: say('reference-target-nobody') };

/**
 * createReference() -> {setSpellBook(payload, error?), spellName(key), open({spell})}: the spell
 * reference of one page. setSpellBook takes the engine's spells() answer (or null and an error
 * message); open shows the dialog, on the given spell's description if named.
 */
export function createReference() {
  const shelf = { book: null, error: null, waiting: new Set() }; // the book shown, and dialogs waiting for it
  return {
    setSpellBook(payload, error = null) {
      shelf.book = payload;
      shelf.error = error;
      for (const fn of shelf.waiting) fn();
      shelf.waiting.clear();
    },
    /** spellName(key) -> the engine's display name of a spell key, or the key if the book is not loaded. */
    spellName(key) {
      const s = shelf.book && shelf.book.spells.find((x) => x.key === key);
      return s ? s.name : key;
    },
    open: ({ spell = null } = {}) => openReference(shelf, { spell }),
  };
}

function matches(filter, ...texts) {
  if (!filter) return true;
  const f = filter.toLowerCase().replace(/[\s(]/g, '');
  return texts.some((t) => String(t).toLowerCase().replace(/[\s(]/g, '').includes(f));
}

function seqList(entries, filter, showSpell, caption) {
  const rows = entries.filter((e) => matches(filter, e.sequence, e.name)).map((e) => h('tr', {},
    h('td', { class: 'seq' }, e.sequence, e.once_per_battle ? h('abbr', { title: say('reference-once-per-battle') }, ' +') : null),
    h('td', {}, h('button', { type: 'button', class: 'link', onclick: () => showSpell(e.key) }, e.name))));
  if (!rows.length) return h('p', { class: 'none-yet' }, say('reference-no-spell-matches'));
  return h('table', { class: 'ref-table' },
    h('caption', { class: 'visually-hidden' }, caption),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, say('reference-gestures')), h('th', { scope: 'col' }, say('reference-spell')))),
    h('tbody', {}, rows));
}

function descriptions(book, filter) {
  const groups = new Map();
  for (const s of book.spells) {
    if (!matches(filter, s.name, ...s.sequences, ...s.reverse)) continue;
    if (!groups.has(s.category)) groups.set(s.category, []);
    groups.get(s.category).push(s);
  }
  const out = [];
  for (const [category, spells] of groups) {
    out.push(h('h3', { class: 'ref-body-category' }, CATEGORY_TITLES[category] || category));
    for (const s of spells) {
      const meta = [TARGET_WORDS[s.usual_target] || s.usual_target];
      if (s.once_per_battle.length) meta.push(say('reference-sequences-once', { sequences: s.once_per_battle.join(', ') }));
      if (!s.discardable) meta.push(say('reference-not-discardable'));
      out.push(h('article', { class: 'ref-spell', id: `spell-${s.key}`, tabindex: '-1', 'data-testid': `ref-spell-${s.key}` },
        h('h4', {}, h('span', {}, s.name), h('span', { class: 'seq' }, s.sequences.join(say('reference-or')))),
        h('p', { class: 'meta' }, meta.join(' · ')),
        h('p', {}, s.description)));
    }
  }
  const notes = Object.entries(book.notes || {}).filter(([key, text]) => matches(filter, key, text));
  if (notes.length) {
    out.push(h('h3', { class: 'ref-body-category' }, say('reference-not-spells')));
    for (const [key, text] of notes) {
      out.push(h('article', { class: 'ref-spell', id: `spell-${key}`, tabindex: '-1', 'data-testid': `ref-spell-${key}` },
        h('h4', {}, key[0].toUpperCase() + key.slice(1)), h('p', {}, text)));
    }
  }
  return out.length ? out : [h('p', { class: 'none-yet' }, say('reference-no-spell-matches'))];
}

// The reference dialog over a shelf ({book, error, waiting}), on a spell's description if named.
function openReference(shelf, { spell = null }) {
  const tabs = [
    { id: 'forward', label: say('reference-forward-list') },
    { id: 'reverse', label: say('reference-reverse-list') },
    { id: 'spells', label: say('reference-descriptions') },
  ];
  let current = spell ? 'spells' : 'forward';
  let filter = '';
  const panel = h('div', { role: 'tabpanel', id: 'ref-panel', 'data-testid': 'reference-panel' });
  const tabButtons = tabs.map((t) => h('button', {
    type: 'button', role: 'tab', id: `ref-tab-${t.id}`, 'aria-controls': 'ref-panel', 'data-testid': `reference-tab-${t.id}`,
    onclick: () => { current = t.id; draw(); },
    onkeydown: (event) => {
      // Arrow keys move along the tab row, as the ARIA tabs pattern expects.
      const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
      if (!step) return;
      const i = (tabs.findIndex((x) => x.id === current) + step + tabs.length) % tabs.length;
      current = tabs[i].id;
      draw();
      tabButtons[i].focus();
    },
  }, t.label));
  const search = h('input', {
    type: 'text', class: 'ref-search', placeholder: say('reference-find-a-spell-or-gestures'),
    'aria-label': say('reference-find-a-spell-or-gestures-2'), 'data-testid': 'reference-search', autocomplete: 'off',
    oninput: (event) => { filter = event.target.value.trim(); draw(); },
  });

  function showSpell(key) {
    current = 'spells';
    filter = '';
    search.value = '';
    draw();
    const target = panel.querySelector(`#spell-${CSS.escape(key)}`);
    if (target) {
      target.scrollIntoView({ block: 'start' });
      target.focus();
    }
  }

  function draw() {
    tabButtons.forEach((b, i) => {
      const selected = tabs[i].id === current;
      b.setAttribute('aria-selected', String(selected));
      b.tabIndex = selected ? 0 : -1;
    });
    panel.setAttribute('aria-labelledby', `ref-tab-${current}`);
    const { book } = shelf;
    if (!book) {
      replace(panel, h('p', { class: 'busy' }, shelf.error
        ? say('reference-unreadable', { error: shelf.error })
        : say('reference-the-spell-book-opens-as')));
      if (!shelf.error) shelf.waiting.add(draw);
      return;
    }
    if (current === 'forward') {
      replace(panel, h('p', { class: 'muted' }, say('reference-every-spell-by-its-gestures')),
        seqList(book.forward, filter, showSpell, say('reference-spells-in-forward-order')));
    } else if (current === 'reverse') {
      replace(panel, h('p', { class: 'muted' }, say('reference-read-your-last-few-gestures')),
        seqList(book.reverse, filter, showSpell, say('reference-spells-in-reverse-order')));
    } else {
      replace(panel, descriptions(book, filter));
    }
  }

  const { book } = shelf;
  const source = book && book.source ? h('p', { class: 'muted' }, say('reference-text-source', { source: book.source }), h('abbr', { title: say('reference-once-per-battle') }, '+'), say('reference-plus-marks')) : null;
  const body = [h('div', { class: 'tabs', role: 'tablist', 'aria-label': say('reference-spell-lists') }, tabButtons), search, panel, source];
  // The book is the rules in play (the duel's, or the start screen's choice): the title names them.
  const title = book && book.ruleset ? say('reference-spell-reference-of', { rules: book.ruleset.title }) : say('reference-spell-reference');
  const dialog = openDialog({ title, testid: 'reference', body });
  draw();
  if (spell) showSpell(spell);
  else tabButtons.find((b) => b.getAttribute('aria-selected') === 'true').focus();
  return dialog;
}
