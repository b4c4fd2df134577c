// localStorage persistence of duels: the only module that touches localStorage. A saved duel is
// one record (web/store/record.js: the engine's game or turn-code session plus what only the page
// knows) and an index entry with its summary, so lists render before the engine boots. A duel's
// unsealed picks (its record's `drafts`) are written on every pick under their own small entry
// instead, so that a pick costs the same late in a long duel as on its first turn; a read puts
// them back into the record, and the duel's next whole save takes them in and drops the entry.
// This module stores and reads values; web/store/store.js decides what a record holds.

import { randomHex } from '../hex.js';

const PREFIX = 'wavinghands:v1:';
const INDEX_KEY = `${PREFIX}index`;
const CURRENT_KEY = `${PREFIX}current`;
const PREFS_KEY = `${PREFIX}prefs`;
const gameKey = (id) => `${PREFIX}game:${id}`;
const draftsKey = (id) => `${PREFIX}drafts:${id}`;

function readJson(key, fallback) {
  try {
    const text = localStorage.getItem(key);
    return text === null ? fallback : JSON.parse(text);
  } catch {
    // Private mode, disabled storage or a corrupt entry: behave as if nothing was saved.
    return fallback;
  }
}

// Why the last write was refused: 'full' (the browser's quota for this site is used up) or
// 'unavailable' (storage disabled, private mode), for the sentence the player reads.
let lastRefusal = null;

const isQuotaError = (err) => Boolean(err) && (err.name === 'QuotaExceededError' || err.name === 'NS_ERROR_DOM_QUOTA_REACHED' || err.code === 22);

function writeText(key, text) {
  try {
    localStorage.setItem(key, text);
    return true;
  } catch (err) {
    lastRefusal = isQuotaError(err) ? 'full' : 'unavailable';
    return false;
  }
}

function writeJson(key, value) {
  return writeText(key, JSON.stringify(value));
}

/** saveRefusal() -> why the last refused write was refused: 'full', 'unavailable' or null. */
export function saveRefusal() {
  return lastRefusal;
}

/** newGameId() -> a fresh random id for a saved duel. */
export function newGameId() {
  return randomHex(8);
}

const isNames = (names) => Array.isArray(names) && names.length >= 2 && names.length <= 6 && names.every((n) => typeof n === 'string');

/** The index entry as the start screen can draw it, or null when it cannot be read. */
function readableEntry(entry) {
  if (!entry || typeof entry !== 'object' || Array.isArray(entry)) return null;
  if (typeof entry.id !== 'string' || !entry.id) return null;
  const names = isNames(entry.names) ? entry.names : undefined;
  // Said by the screens from its names (web/ui/words/common.js, 'duel-title'); older entries kept their title's words.
  const title = typeof entry.title === 'string' ? entry.title : names ? '' : null;
  if (title === null || (!title && !Array.isArray(entry.names))) return null;
  return { ...entry, title, names, updatedAt: Number.isFinite(entry.updatedAt) ? entry.updatedAt : 0 };
}

/**
 * readIndex() -> {games, unreadable}: the saved duels' summaries, most recently played first,
 * and how many index entries could not be read (skipped, so that one damaged entry never
 * keeps the start screen from opening; issue 12.8).
 */
export function readIndex() {
  let index;
  try {
    const text = localStorage.getItem(INDEX_KEY);
    index = text === null ? [] : JSON.parse(text);
  } catch {
    index = null;  // not JSON: the whole list is one unreadable entry
  }
  if (!Array.isArray(index)) return { games: [], unreadable: 1 };
  const games = index.map(readableEntry).filter(Boolean);
  for (const g of games) {
    // An entry saved before the list named the rules: read them from the duel (once per list;
    // the duel's next save writes them into its entry).
    if (!('ruleset' in g)) g.ruleset = rulesOf(readJson(gameKey(g.id), null) || {});
  }
  return { games: games.sort((a, b) => b.updatedAt - a.updatedAt), unreadable: index.length - games.length };
}

/**
 * rulesOf(duel) -> the rules a saved duel is played under, as its game (or remote session) carries
 * them ({name, withhold, ...options}; no name is the standard rules), or null when it does not say.
 */
export function rulesOf(duel) {
  const session = duel.session || {};
  const r = (duel.game && duel.game.ruleset) || session.ruleset || (session.game && session.game.ruleset);
  if (!r || typeof r !== 'object' || Array.isArray(r)) return null;
  return { ...r, name: typeof r.name === 'string' && r.name ? r.name : 'standard' };
}

/**
 * readGame(id) -> {found: false} | {found: true, value} | {found: true, unparsable: true}: the
 * saved value of a duel as stored, without judging its shape (record.js's migrate does).
 */
export function readGame(id) {
  let text = null;
  try {
    text = localStorage.getItem(gameKey(id));
  } catch {
    return { found: false };
  }
  if (text === null) return { found: false };
  let value;
  try {
    value = JSON.parse(text);
  } catch {
    return { found: true, unparsable: true };
  }
  return { found: true, value: withSavedDrafts(id, value) };
}

const isPlainObject = (v) => Boolean(v) && typeof v === 'object' && !Array.isArray(v);

/**
 * withSavedDrafts(id, value) -> the saved value with the picks kept since its last whole save
 * (saveDrafts) as its `drafts`; the value as it is when there are none (or they cannot be read).
 */
function withSavedDrafts(id, value) {
  const kept = readJson(draftsKey(id), null);
  if (!isPlainObject(value) || !isPlainObject(kept) || !isPlainObject(kept.drafts)) return value;
  // A record older than the one record shape keeps its remote draft as `draft`, which reading it
  // would take over `drafts`: the kept picks were made from it and replace it.
  const { draft: _before, ...rest } = value;
  return { ...rest, drafts: kept.drafts };
}

/**
 * markDamaged(id, code) notes in the list that a saved duel could not be read (`code`: why), so
 * the list says so instead of offering to resume it, and a reload no longer resumes it.
 */
export function markDamaged(id, code) {
  const index = listGames().map((g) => (g.id === id ? { ...g, damaged: code } : g));
  writeJson(INDEX_KEY, index);
  if (readJson(CURRENT_KEY, null) === id) setCurrentGameId(null);
}

/** listGames() -> saved duel summaries that can be read, most recently played first. */
export function listGames() {
  return readIndex().games;
}

/** loadGame(id) -> the saved duel {id, game | session, mode, seats, pending, summary, ...} or null. */
export function loadGame(id) {
  const saved = readJson(gameKey(id), null);
  return saved && (saved.game || saved.session) ? withSavedDrafts(id, saved) : null;
}

/** watchGame(id, onChange) calls onChange() when another tab saves or deletes that duel; returns unsubscribe. */
export function watchGame(id, onChange) {
  const key = gameKey(id);
  const listener = (event) => {
    if (event.key === key || event.key === null) onChange();
  };
  window.addEventListener('storage', listener);
  return () => window.removeEventListener('storage', listener);
}

/**
 * saveGame(duel) stores the duel and its summary; returns false if the browser refused, and
 * then nothing changed: the duel as saved before stays saved (so a session whose code is not
 * shown is never half stored; docs/protocol.md, "Store the session before showing the code").
 */
export function saveGame(duel) {
  const updatedAt = Date.now();
  const key = gameKey(duel.id);
  let before = null;
  try {
    before = localStorage.getItem(key);
  } catch {
    // Storage unavailable: the write below fails too.
  }
  if (!writeJson(key, { ...duel, updatedAt })) return false;
  const entry = { id: duel.id, mode: duel.mode, updatedAt, ...duel.summary, ruleset: rulesOf(duel) };
  const index = listGames().filter((g) => g.id !== duel.id);
  index.push(entry);
  if (writeJson(INDEX_KEY, index)) {
    // The record holds the duel's picks now (its `drafts`).
    removeKey(draftsKey(duel.id));
    return true;
  }
  // The index did not fit: put the duel back as it was (removing it first frees the space
  // that the old text needs, which it had before).
  const refusal = lastRefusal;
  try {
    localStorage.removeItem(key);
    if (before !== null) localStorage.setItem(key, before);
  } catch {
    // Nothing more can be done; the old text took no more room than it does now.
  }
  lastRefusal = refusal;
  return false;
}

/**
 * saveDrafts(id, drafts) stores a duel's unsealed picks ({wizard: draft}) apart from its record,
 * which stays as saved until its next whole save (saveGame) takes them in; returns false if the
 * browser refused (saveRefusal says why), and then the picks saved before stay saved.
 */
export function saveDrafts(id, drafts) {
  return writeJson(draftsKey(id), { drafts });
}

function removeKey(key) {
  try {
    localStorage.removeItem(key);
  } catch {
    // Storage unavailable: nothing to remove.
  }
}

/** sizeOf(key, text) -> the room an entry takes, counted as browsers count it: its characters. */
const sizeOf = (key, text) => key.length + text.length;

/**
 * storageUse() -> {duels: {id: size}, total, others, site}: what each saved duel takes in this
 * site's localStorage (its entry's characters, key and text, which is what browsers count:
 * Chromium allows 5 Mi of them per site, whatever the script), all of this page's entries
 * together, the page's entries that are not duels (the list, settings), and everything the
 * site keeps there (other pages of the same site share the room).
 */
export function storageUse() {
  const duels = {};
  let total = 0;
  let site = 0;
  try {
    for (let i = 0; i < localStorage.length; i += 1) {
      const key = localStorage.key(i);
      if (key === null) continue;
      const size = sizeOf(key, localStorage.getItem(key) || '');
      site += size;
      if (!key.startsWith(PREFIX)) continue;
      total += size;
      // A duel's picks kept apart (saveDrafts) are part of what it takes.
      const id = key.startsWith(gameKey('')) ? key.slice(gameKey('').length)
        : key.startsWith(draftsKey('')) ? key.slice(draftsKey('').length) : null;
      if (id !== null) duels[id] = (duels[id] || 0) + size;
    }
  } catch {
    // Storage unavailable: nothing is stored.
  }
  const others = total - Object.values(duels).reduce((a, b) => a + b, 0);
  return { duels, total, others, site };
}

/** deleteGame(id) forgets a saved duel (and the resume pointer if it pointed there). */
export function deleteGame(id) {
  removeKey(gameKey(id));
  removeKey(draftsKey(id));
  writeJson(INDEX_KEY, listGames().filter((g) => g.id !== id));
  if (currentGameId() === id) setCurrentGameId(null);
}

/** currentGameId() -> id of the duel to resume after a reload, or null. */
export function currentGameId() {
  const id = readJson(CURRENT_KEY, null);
  return typeof id === 'string' && loadGame(id) ? id : null;
}

// Who hears this tab mark a duel as the one in play (the shell claims that duel for this tab).
const currentListeners = new Set();

/** onCurrentChange(fn(id|null)) calls fn whenever this tab marks another duel current; returns unsubscribe. */
export function onCurrentChange(fn) {
  currentListeners.add(fn);
  return () => currentListeners.delete(fn);
}

/** setCurrentGameId(id|null) marks the duel a reload should resume (null: the start screen). */
export function setCurrentGameId(id) {
  const before = readJson(CURRENT_KEY, null);
  if (id === null) {
    try {
      localStorage.removeItem(CURRENT_KEY);
    } catch {
      // Storage unavailable: nothing to clear.
    }
  } else {
    writeJson(CURRENT_KEY, id);
  }
  if (before !== id) for (const fn of [...currentListeners]) fn(id);
}

/** loadPrefs() -> the start screen's last choices {names, mode, options} (empty object if none). */
export function loadPrefs() {
  const prefs = readJson(PREFS_KEY, {});
  return prefs && typeof prefs === 'object' ? prefs : {};
}

/** savePrefs(prefs) remembers the start screen's choices for next time. */
export function savePrefs(prefs) {
  writeJson(PREFS_KEY, prefs);
}

const settingKey = (name) => `${PREFIX}setting:${name}`;

/** loadSetting(name, fallback) -> a remembered setting (e.g. the STUN servers field), or fallback. */
export function loadSetting(name, fallback) {
  return readJson(settingKey(name), fallback);
}

/** saveSetting(name, value) remembers a setting; returns false if the browser refused. */
export function saveSetting(name, value) {
  return writeJson(settingKey(name), value);
}
