// The saved duels, as the start screen lists them and as the dialog a full storage points to
// (issue 12.2): each duel with what it takes in the browser's storage, to resume, export (the
// record, which the import reads back) or delete (confirmed by its name); the total, and the
// browser's quota for the site where navigator.storage.estimate() tells it.

import { h, named, nameOf, replace } from './dom.js';
import { openDialog } from './dialog.js';
import { say } from './words/index.js';

function ago(time) {
  const minutes = Math.round((Date.now() - time) / 60000);
  if (minutes < 1) return say('saved-just-now');
  if (minutes < 60) return say('saved-minutes-ago', { minutes });
  const hours = Math.round(minutes / 60);
  if (hours < 24) return say('saved-hours-ago', { hours });
  return new Date(time).toLocaleDateString();
}

/** kilobytes(size) -> "12.3 KB" (1 KB = 1,024 bytes; below 10 KB with one decimal). */
export function kilobytes(size) {
  const kb = size / 1024;
  return say('size-kb', { kb: kb < 10 ? kb.toFixed(1) : Math.round(kb).toLocaleString('en') });
}

const megabytes = (bytes) => say('size-mb', { mb: (bytes / 1024 / 1024).toLocaleString('en', { maximumFractionDigits: bytes < 1024 ** 3 ? 1 : 0 }) });

// The duel's name: each wizard's name isolated in its own <bdi> (issue 12.5); fresh nodes each time.
const nameNodes = (game) => (Array.isArray(game.names) && game.names.length === 2 && !game.title && !game.awaiting ? [nameOf(game.names[0]), say('saved-vs'), nameOf(game.names[1])] : named(say('duel-title', game)));

/**
 * rulesLabel(ruleset, known) -> the rules of a saved duel in words: the title of its ruleset
 * (known: the engine's rulesets, [{name, title, options: [{id, label}]}]) and the options it turns
 * on; its name while the rulesets are not known yet (or for rules this page does not know); '' for
 * none.
 */
export function rulesLabel(ruleset, known = []) {
  if (!ruleset) return '';
  const found = known.find((r) => r.name === ruleset.name);
  if (!found) return ruleset.name;
  const on = found.options.filter((o) => ruleset[o.id] === true).map((o) => o.label[0].toLowerCase() + o.label.slice(1));
  return on.length ? `${found.title} (${on.join('; ')})` : found.title;
}

function savedItem(game, { modeLabel, rulesets, size, current, onResume, onDelete, onExport }) {
  const state = game.over ? say('duel-result', game) : say('saved-turn', { turn: game.turn });
  const name = () => nameNodes(game);
  const actions = h('div', { class: 'saved-actions' });
  // The rules' title comes with the engine's list of rulesets (reference.json, early).
  const rules = game.ruleset ? h('span', { 'data-testid': `rules-${game.id}`, 'data-rules': game.ruleset.name, title: say('saved-the-rules-of-this-duel') }, rulesLabel(game.ruleset)) : null;
  if (rules) Promise.resolve(rulesets).then((known) => { rules.textContent = rulesLabel(game.ruleset, known || []); }, () => {});
  const item = h('li', { 'data-testid': `saved-${game.id}`, 'data-size': String(size ?? '') },
    h('div', { class: 'saved-title' }, h('strong', {}, name()),
      h('small', {}, named(`${state} · ${modeLabel} · `), rules ? [rules, ' · '] : null, ago(game.updatedAt),
        size === undefined ? null : [' · ', h('span', { 'data-testid': `size-${game.id}` }, kilobytes(size))])),
    actions);
  const del = h('button', {
    type: 'button', class: 'danger', 'data-testid': `delete-${game.id}`, 'aria-label': say('saved-delete-the-duel', { title: say('duel-title', game) }),
    disabled: current, title: current ? say('saved-this-is-the-duel-you') : null,
    onclick: () => confirmDelete(),
  }, say('saved-delete-button'));
  // A duel whose record cannot be read says so, and offers only to delete it (bug 8).
  const damage = game.damaged ? h('p', { class: 'problem', 'data-testid': `damaged-${game.id}` },
    `${say('damaged-title')}. ${say(game.damaged)} ${say('damaged-hint')}`) : null;
  if (damage) item.querySelector('.saved-title').append(damage);
  const normal = damage ? [del] : [
    onResume ? h('button', { type: 'button', 'data-testid': `resume-${game.id}`, onclick: () => onResume(game.id) }, game.over ? say('saved-view') : say('saved-resume')) : null,
    h('button', {
      type: 'button', 'data-testid': `export-${game.id}`, onclick: () => onExport(game.id),
      title: game.over ? say('saved-download-the-record') : say('saved-download-the-record-so-far'),
    }, say('saved-export')),
    del,
  ];
  // A saved duel cannot be brought back: the confirmation names it and offers the export first.
  function confirmDelete() {
    const keep = h('button', { type: 'button', 'data-testid': `keep-${game.id}`, onclick: () => { replace(actions, normal); del.focus(); } }, say('saved-keep-it'));
    replace(actions, h('div', { class: 'confirm-delete', role: 'alert', 'data-testid': `confirm-${game.id}` },
      h('p', {}, say('saved-delete'), h('strong', {}, name()),
        named(say('saved-delete-tail', { state, size: size === undefined ? '' : kilobytes(size) }))),
      h('div', { class: 'actions' },
        h('button', { type: 'button', class: 'danger', 'data-testid': `confirm-delete-${game.id}`, onclick: () => onDelete(game.id) }, say('saved-delete-it')),
        keep)));
    keep.focus();
  }
  replace(actions, normal);
  return item;
}

/**
 * storageLine(use) -> the sentence saying what the saved duels take in all, and what else the
 * site keeps, with the browser's quota for the offline copy filled in when
 * navigator.storage.estimate() answers. use: storage.storageUse().
 */
export function storageLine(use) {
  const quota = h('span', { 'data-testid': 'storage-quota' });
  const elsewhere = (use.site || 0) - use.total;
  const line = h('p', { class: 'muted storage-use', 'data-testid': 'storage-use' },
    say('saved-use', { total: kilobytes(use.total), elsewhere: elsewhere > 1024 ? kilobytes(elsewhere) : '' }), quota);
  if (navigator.storage && navigator.storage.estimate) {
    navigator.storage.estimate().then(({ usage, quota: allowed }) => {
      if (Number.isFinite(usage) && Number.isFinite(allowed) && usage > 0 && allowed > 0) {
        quota.textContent = say('saved-offline-copy', { usage: megabytes(usage), allowed: megabytes(allowed) });
      }
    }, () => {});
  }
  return line;
}

/**
 * savedList({games, use, modeLabel(mode), rulesets, current, onResume?, onDelete(id), onExport(id)}) ->
 * the list of saved duels with each one's size (use: storage.storageUse()) and rules (rulesets:
 * the engine's rulesets, or a promise of them, for their titles), newest first; the `current`
 * duel (the one being played) cannot be deleted from here.
 */
export function savedList({ games, use, modeLabel, rulesets = [], current = null, onResume = null, onDelete, onExport }) {
  return h('ul', { class: 'saved-list', 'data-testid': 'saved-list' }, games.map((g) => savedItem(g, {
    modeLabel: modeLabel(g.mode), rulesets, size: use.duels[g.id], current: g.id === current, onResume, onDelete, onExport,
  })));
}

const DAY = 86_400_000;
const AGES = [7, 30, 90, 365]; // days; each said by 'saved-age-<days>'

/**
 * tidyBox({games, use, current, onDeleteMany(ids)}) -> a way to delete, at once, the finished
 * duels last played longer ago than a chosen age (after a confirmation naming how many, which,
 * and the room they free), or null when no duel is finished.
 */
export function tidyBox({ games, use, current = null, onDeleteMany }) {
  const finished = games.filter((g) => g.over && g.id !== current);
  if (!finished.length) return null;
  const age = h('select', { id: 'tidy-age', 'data-testid': 'tidy-age' },
    AGES.map((days) => h('option', { value: String(days), selected: days === 30 }, say(`saved-age-${days}`))));
  const slot = h('div', {});
  const older = () => finished.filter((g) => g.updatedAt < Date.now() - Number(age.value) * DAY);
  const ask = () => {
    const chosen = older();
    if (!chosen.length) {
      replace(slot, h('p', { class: 'muted', role: 'status', 'data-testid': 'tidy-none' }, say('saved-no-finished-duel-is-that')));
      return;
    }
    const room = chosen.reduce((n, g) => n + (use.duels[g.id] || 0), 0);
    const shown = chosen.slice(0, 5).map((g, i) => [i ? '; ' : '', nameNodes(g)]);
    const more = chosen.length - shown.length;
    replace(slot, h('div', { class: 'confirm-delete', role: 'alert', 'data-testid': 'tidy-confirm' },
      h('p', {}, say('saved-tidy-ask', { n: chosen.length, room: kilobytes(room) }),
        shown, more ? say('saved-tidy-more', { more }) : '', say('saved-tidy-tail')),
      h('div', { class: 'actions' },
        h('button', { type: 'button', class: 'danger', 'data-testid': 'tidy-delete', onclick: () => onDeleteMany(chosen.map((g) => g.id)) }, say('saved-delete-them')),
        h('button', { type: 'button', 'data-testid': 'tidy-keep', onclick: () => replace(slot) }, say('saved-keep-them')))));
  };
  age.addEventListener('change', () => replace(slot));
  return h('div', { class: 'tidy', 'data-testid': 'tidy' },
    h('div', { class: 'tidy-row' },
      h('label', { for: 'tidy-age' }, say('saved-finished-duels-not-played-for')), age,
      h('button', { type: 'button', 'data-testid': 'tidy-ask', onclick: ask }, 'Delete…')),
    slot);
}

/**
 * openSavedDuels({read() -> {games, use}, modeLabel, rulesets, current, onDelete(id), onExport(id)}) shows the
 * saved duels in a dialog, largest first, to make room without leaving the duel on screen; the
 * list is read again after each deletion.
 */
export function openSavedDuels({ read, modeLabel, rulesets = [], current, onDelete, onExport }) {
  const slot = h('div', {});
  const draw = () => {
    const { games, use } = read();
    const largest = [...games].sort((a, b) => (use.duels[b.id] || 0) - (use.duels[a.id] || 0));
    replace(slot,
      h('p', {}, say('saved-delete-duels-you-no-longer')),
      storageLine(use),
      games.length ? savedList({
        games: largest, use, modeLabel, rulesets, current,
        onDelete: (id) => { onDelete(id); draw(); },
        onExport,
      }) : h('p', { class: 'muted' }, say('saved-no-saved-duels')),
      tidyBox({ games, use, current, onDeleteMany: (ids) => { ids.forEach(onDelete); draw(); } }));
  };
  draw();
  return openDialog({ title: say('start-saved-duels'), testid: 'saved-duels', body: slot });
}

/**
 * savedDuelsButton(onHome) -> a duel screen's "Saved duels" button: onHome() leaves the duel (it
 * stays saved) for the start screen, which is then brought to its list of saved duels.
 */
export function savedDuelsButton(onHome) {
  return h('button', {
    type: 'button', class: 'tool', 'data-testid': 'leave-duel', style: 'margin-left:auto',
    onclick: () => {
      onHome();
      // After a frame: the start screen's rules box fills in just after it is drawn, above the
      // list on a phone, and would push the list down again.
      requestAnimationFrame(showSavedList);
    },
  }, say('start-saved-duels'));
}

// The player asked for the saved duels: on a phone the list comes after the whole new-duel form,
// two screens down, so it is scrolled to (and its heading takes the focus, for screen readers).
function showSavedList() {
  const card = document.querySelector('[data-testid=saved-games]');
  if (!card) return;
  const title = card.querySelector('h2');
  if (card.getBoundingClientRect().top > window.innerHeight / 2) card.scrollIntoView({ block: 'start' });
  if (title) {
    title.setAttribute('tabindex', '-1');
    title.focus({ preventScroll: true });
  }
}
