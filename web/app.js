// The controller: which screen shows, who holds the device, when the engine is asked what. The
// engine decides every rules question (who acts, what is legal, what happens); this module only
// collects each actor's input, steps the game when everyone has spoken, and saves after each move.

import * as api from './api.js';
import * as storage from './storage.js';
import { focusFirst, h, replace } from './ui/dom.js';
import { isDialogOpen } from './ui/dialog.js';
import { openHelp } from './ui/help.js';
import { openReference, setSpellBook } from './ui/reference.js';
import { openExport, openImport, recordRefusal } from './ui/records.js';
import { openSavedDuels as openSavedDuelsDialog } from './ui/saved.js';
import { failureScreen, passScreen, resumeScreen, startScreen } from './ui/screens.js';
import { decisionScreen, gameOverScreen, ordersScreen } from './ui/duel.js';
import { coachPanel, DEFAULT_LEVEL, opponentOptions, thinkingScreen } from './ui/opponent.js';
import { installRemote } from './remote.js';
import { createReplay, replayLinkIn } from './replay.js';
import { createPuzzles, localDate } from './flows/puzzles.js';
import { learnInvite, mountPuzzles } from './ui/screens/puzzles.js';

const screen = document.getElementById('screen');
const statusBox = document.getElementById('engine-status');
// The opponent's levels are work budgets (strong's worst move about 1 s in this page's engine);
// this wall-clock deadline is only a safety net on a slow or busy device: a cut move is the
// best found so far (the record keeps the orders played, so the duel still replays).  Issue 13
// caps the wait at 1.5 s; the answer reaches the page a margin after the deadline (what the
// search is doing when it passes, the worker's messages), which on a loaded two-core machine
// ran to 400-530 ms (bench/opponent_page.py, docs/ai.md): hence 1,000 ms, not more.
const AI_DEADLINE_MS = 1000;

// ---------------------------------------------------------------------------------------------
// Modes. A mode says who sits at each wizard's seat and how a duel starts. Remote play (turn
// codes, WebRTC; web/transport/) registers its own modes with registerMode: they appear on the
// start screen beside these two and receive the same {names, ruleset} to begin with.

const MODES = new Map();

/** registerMode({id, label, hint, begin({names, ruleset}) -> Promise<string|null>}) adds a way to play to the start screen. */
export function registerMode(mode) {
  MODES.set(mode.id, mode);
  // A mode registered after the start screen is up must still be offered on it.
  if (screen.querySelector('[data-testid=start-screen]')) showStart();
}

registerMode({
  id: 'hotseat',
  label: 'Hot-seat',
  hint: 'Two players share this device and pass it between turns.',
  begin: ({ names, ruleset }) => startLocalDuel({ names, ruleset, mode: 'hotseat', seats: ['human', 'human'] }),
});
// The computer's level and the coach switch (web/ui/opponent.js), made afresh for each start screen.
let computerOptions = null;
registerMode({
  id: 'computer',
  label: 'Against the computer',
  hint: 'You are the first wizard; the engine plays the second.',
  extra: () => {
    computerOptions = opponentOptions({ level: storage.loadSetting('opponent-level', DEFAULT_LEVEL), coach: storage.loadSetting('coach', false) });
    return computerOptions.element;
  },
  begin: ({ names, ruleset }) => {
    const level = computerOptions ? computerOptions.level() : DEFAULT_LEVEL;
    if (computerOptions) {
      storage.saveSetting('opponent-level', level);
      storage.saveSetting('coach', computerOptions.coach());
    }
    return startLocalDuel({ names, ruleset, mode: 'computer', seats: ['human', 'computer'], level });
  },
});

// The rules a new duel is played under come from the engine (api.rulesets): every ruleset with
// its options, the default first, which the start screen offers once the rules are known (from
// the build's reference.json, then the engine). No rule lives here.
let rulesets = [];

function adoptRulesets(listed) {
  rulesets = listed.map((r) => ({
    name: r.name, title: r.title, description: r.description,
    options: r.options.map((o) => ({ id: o.key, label: o.label, hint: o.description, default: o.default })),
  }));
}

// The spell reference shows the rules in play: the duel's own, or on the start screen the chosen
// ones. Each ruleset's book is asked of the engine once (api.spells), keyed by the ruleset's name
// (a game's options never change its book); every ruleset's book also comes with reference.json.
const books = new Map();
let wantedBook = null;

/** useRules(ruleset) shows that ruleset's spells in the reference (a ruleset object, or a name). */
async function useRules(ruleset) {
  const key = (typeof ruleset === 'string' ? ruleset : ruleset && ruleset.name) || 'standard';
  wantedBook = key;
  let book = books.get(key);
  if (!book) {
    // While the engine loads, say so rather than show another ruleset's book.
    if (!engineAnswered) setSpellBook(null);
    book = await api.spells({ name: key });
    if (book.ok) books.set(key, book);
  }
  if (wantedBook !== key) return; // another duel or choice asked meanwhile
  if (book.ok) setSpellBook(book);
  else setSpellBook(null, book.error.message);
}

/** The engine's (or the build's) standard book and ruleset list, taken in. */
function adoptAnswers(book, listed) {
  if (!books.has('standard')) books.set('standard', book);
  if (!wantedBook || wantedBook === 'standard') setSpellBook(books.get('standard'));
  adoptRulesets(listed);
}

// ---------------------------------------------------------------------------------------------
// Engine boot. The page is usable at once; anything that needs the engine waits on `engine`.

const STAGE_WORDS = {
  waiting: 'Waking the rules engine…',
  runtime: 'Loading the Python runtime…',
  python: 'Starting Python…',
  engine: 'Installing the rules…',
  ready: 'Checking the spell book…',
};

const megabytes = (bytes) => (bytes / 1e6).toFixed(1);

function showProgress(stage, fraction, detail) {
  if (statusBox.dataset.state !== 'loading') return;
  statusBox.querySelector('.engine-status-text').textContent = detail
    ? `Fetching the rules engine: ${megabytes(detail.loaded)} of ${megabytes(detail.total)} MB…`
    : STAGE_WORDS[stage] || `Loading (${stage})…`;
  const bar = statusBox.querySelector('progress');
  bar.value = Math.round((fraction || 0) * 100);
}

function showEngineFailure(message) {
  statusBox.dataset.state = 'error';
  statusBox.setAttribute('role', 'alert');
  replace(statusBox,
    h('span', { class: 'engine-status-text' }, `The rules engine could not start. ${message}`),
    h('button', { type: 'button', class: 'tool', onclick: () => location.reload() }, 'Reload'));
}

// Set once the running engine has answered spells() and rulesets(); until then the answers
// recorded at build time stand in.
let engineAnswered = false;

const engine = (async () => {
  let timings;
  try {
    timings = await api.bootEngine(showProgress);
  } catch (err) {
    throw new Error(err && err.message ? err.message : 'The rules engine did not start.');
  }
  const book = await api.spells();
  if (!book.ok) throw new Error(`The spell book could not be read (${book.error.message}).`);
  const listed = await api.rulesets();
  if (!listed.ok || !listed.rulesets.length) {
    throw new Error(`The rules could not be read (${listed.ok ? 'none listed' : listed.error.message}).`);
  }
  engineAnswered = true;
  books.set('standard', book); // the running engine's book replaces the build's
  adoptAnswers(book, listed.rulesets);
  return timings || {};
})();

// The same two answers as the engine gave them at build time (reference.json, a few KB): the
// spell reference and the start screen's rule options work while the engine downloads.
// Resolves true once the rules are known from either source, false if from neither.
const rulesKnown = api.builtReference().then((built) => {
  // Every ruleset's book as the build recorded it, so the Warlocks reference is there too.
  for (const [name, book] of Object.entries(built.books || {})) {
    if (book && book.ok && !books.has(name)) books.set(name, book);
  }
  if (wantedBook && wantedBook !== 'standard' && books.has(wantedBook)) setSpellBook(books.get(wantedBook));
  if (!engineAnswered && built.rulesets.rulesets.length) adoptAnswers(built.spells, built.rulesets.rulesets);
  return true;
}).catch((err) => {
  console.warn('reference.json unavailable, waiting for the engine:', err.message);
  return engine.then(() => true, () => false);
});

engine.then(() => {
  statusBox.dataset.state = 'ready';
  statusBox.querySelector('.engine-status-text').textContent = 'Rules engine ready';
  setTimeout(() => { statusBox.hidden = true; }, 2500);
  // engine.js keeps its boot promise on window.__engineReady; this flag says the page, not just
  // the worker, is ready to play (tests wait for it).
  window.__appReady = true;
  window.dispatchEvent(new Event('engine-ready'));
}, (err) => {
  // The recorded reference, if it arrived, stays readable.
  rulesKnown.then((known) => { if (!known) setSpellBook(null, err.message); });
  showEngineFailure(err.message);
});

// ---------------------------------------------------------------------------------------------
// Screens

let current = { destroy: () => {} };
let state = { duel: null, holder: null };

function show(element, destroy = () => {}) {
  current.destroy();
  current = { destroy };
  // Every screen but the first fades in (style.css, `.screen.fades`): the first replaces the
  // boot note while the engine boots, and its fade cost ~70 ms of the compositor's CPU that the
  // boot, on two cores, waited for (docs/build.md, "A first visit", tenth round).
  if (!screen.querySelector(':scope > .boot-note')) screen.classList.add('fades');
  replace(screen, element);
  window.scrollTo(0, 0);
  focusFirst(screen);
}

function toast(message, kind = '') {
  const box = document.getElementById('toasts');
  const el = h('div', { class: `toast ${kind}`.trim() }, message);
  box.append(el);
  setTimeout(() => el.remove(), 5000);
}

/** Say once that a new version is installed; reloading (which keeps the saved duel) is the player's call. */
function announceUpdate() {
  if (document.querySelector('[data-testid=update-ready]')) return;
  const reload = h('button', { type: 'button', class: 'tool', 'data-testid': 'update-reload',
    onclick: () => location.reload() }, 'Reload');
  const note = h('div', { class: 'toast update', 'data-testid': 'update-ready' },
    'A new version of Waving Hands is ready. Your duel is saved; reload when it suits you. ', reload);
  document.getElementById('toasts').append(note);
}
window.addEventListener('wavinghands:update-ready', announceUpdate);
if (window.__updateReady) announceUpdate();

function fail(message) {
  show(failureScreen({ message, onHome: goHome }));
}

/** goHome() leaves the current duel (it stays saved) for the start screen. */
export function goHome() {
  state = { duel: null, holder: null };
  storage.setCurrentGameId(null);
  showStart();
}

function modeChoices() {
  return [...MODES.values()].map(({ id, label, hint }) => ({ id, label, hint }));
}

/** The start screen's modes, each with its own options element where it has some. */
function modeChoicesWithOptions() {
  return [...MODES.values()].map(({ id, label, hint, extra }) => ({ id, label, hint, extra: extra ? extra() : null }));
}

/** The start screen's saved duels, and a sentence about index entries that could not be read. */
function savedDuels() {
  const { games, unreadable } = storage.readIndex();
  const note = unreadable
    ? `${unreadable === 1 ? 'One saved duel' : `${unreadable} saved duels`} could not be read (the list in this browser's storage is damaged) and ${unreadable === 1 ? 'is' : 'are'} not shown.`
    : null;
  return { saved: games, savedNote: note, use: storage.storageUse() };
}

const modeLabelOf = (id) => (MODES.get(id) || { label: id }).label;

async function exportSaved(id) {
  const saved = storage.loadGame(id);
  try {
    await engine;
  } catch (err) {
    toast(err.message, 'error');
    return;
  }
  if (saved) exportDuel(saved);
}

/** openSavedDuels(current) shows the saved duels in a dialog (sizes, export, delete) to make room; `current` cannot be deleted. */
function openSavedDuels(current = null) {
  return openSavedDuelsDialog({
    read: () => ({ games: storage.readIndex().games, use: storage.storageUse() }),
    modeLabel: modeLabelOf, rulesets: rulesKnown.then((known) => (known ? rulesets : [])), current,
    onDelete: (id) => storage.deleteGame(id),
    onExport: exportSaved,
  });
}

function showStart() {
  const remoteSlot = h('div', { id: 'remote-modes', class: 'remote-slot', 'data-testid': 'remote-modes' });
  remote.fillStartSlot(remoteSlot);
  show(startScreen({
    prefs: storage.loadPrefs(),
    modes: modeChoicesWithOptions(),
    // The rulesets appear as soon as the rules are known (none if they never are).
    rulesets: rulesKnown.then((known) => (known ? rulesets : [])),
    onRules: (name) => { useRules({ name }); },
    ...savedDuels(),
    remoteSlot,
    learnSlot: learnInvite({ onHelp: () => openHelpHere(), onPuzzles: () => showPuzzles() }),
    onStart: async ({ names, mode, ruleset, options }) => {
      storage.savePrefs({ names, mode, ruleset, options });
      const chosen = MODES.get(mode);
      return chosen.begin({ names, ruleset: { name: ruleset || 'standard', ...options } });
    },
    onResume: (id) => resume(id),
    onDelete: (id) => { storage.deleteGame(id); showStart(); },
    onDeleteMany: (ids) => { ids.forEach((id) => storage.deleteGame(id)); showStart(); },
    onExport: exportSaved,
    onImport: () => openImport({ modes: modeChoices().filter((m) => m.id === 'hotseat' || m.id === 'computer'), onImport: importDuel }),
  }));
}

// ---------------------------------------------------------------------------------------------
// Local duels (hot-seat and against the computer)

function freshSeed() {
  return api.freshNonce() + api.freshNonce();
}

async function startLocalDuel({ names, ruleset, mode, seats, level = null }) {
  try {
    await engine;
  } catch (err) {
    return err.message;
  }
  const created = await api.newGame({ names, ruleset, seed: freshSeed() });
  if (!created.ok) return created.error.message;
  const now = Date.now();
  state = {
    duel: {
      id: storage.newGameId(), mode, seats, game: created.game, pending: {}, ...(level ? { level } : {}),
      seen: { 0: { log: 0, rows: [0, 0] }, 1: { log: 0, rows: [0, 0] } },
      createdAt: now, summary: { title: `${names[0]} vs ${names[1]}`, turn: 1, over: false },
    },
    holder: null,
  };
  await advance();
  return null;
}

// What a friend sends is often pasted into the only big box in sight, the import's: a replay
// link opens its replay (null: done); a code says where it goes; anything else is undefined.
async function notARecord(text) {
  const trimmed = text.trim();
  const packed = replayLinkIn(trimmed.slice(Math.max(0, trimmed.indexOf('#'))));
  if (packed) return replay.openLink(packed);
  const code = await api.remoteDescribe(trimmed);
  if (code.ok) {
    return 'This is a code from a friend (an invitation or a turn code), not a record: paste it in the start screen’s box “Got a code or a link from a friend? Paste it here”.';
  }
  return undefined;
}

async function importDuel(text, mode) {
  try {
    await engine;
  } catch (err) {
    return err.message;
  }
  const loaded = await api.importRecord(text);
  if (!loaded.ok) {
    const other = await notARecord(text);
    return other === undefined ? recordRefusal(text, loaded.error) : other;
  }
  const first = await api.view(loaded.game, 0);
  if (!first.ok) return first.error.message;
  const names = first.view.names;
  const seen = (v) => ({ log: v.log.length, rows: v.wizards.map((w) => w.history.length) });
  const second = await api.view(loaded.game, 1);
  // The same record imported twice is the same saved duel, not a second copy.
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text.trim())));
  const id = `import-${[...digest.slice(0, 8)].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
  state = {
    duel: {
      id, mode, seats: mode === 'computer' ? ['human', 'computer'] : ['human', 'human'],
      game: loaded.game, pending: {}, seen: { 0: seen(first.view), 1: second.ok ? seen(second.view) : { log: 0, rows: [0, 0] } },
      createdAt: Date.now(), summary: { title: `${names[0]} vs ${names[1]}`, turn: first.view.turn, over: false },
    },
    holder: null,
  };
  toast('Record loaded.');
  if (first.view.phase.kind === 'over') {
    // A finished duel is for reading: it opens in the replay viewer, from its first turn.
    state.duel.summary = summarize([first.view], first.view.phase);
    persist();
    return replay.open(text.trim());
  }
  await advance();
  return null;
}

function persist() {
  const duel = state.duel;
  if (!duel) return;
  if (storage.saveGame(duel)) {
    document.querySelector('[data-testid=unsaved-note]')?.remove();
  } else {
    announceUnsaved(duel.id);
  }
  storage.setCurrentGameId(duel.id);
}

/** A duel on this device that could not be stored: say so until a save succeeds (a toast would
 * fade while the risk stays: a reload loses the turns since the last save), with a way to make
 * room and to save again. */
function announceUnsaved(id) {
  document.querySelector('[data-testid=unsaved-note]')?.remove();
  const why = storage.saveRefusal() === 'unavailable'
    ? 'This browser refused to store the duel (its storage is switched off for this page)'
    : 'Your browser’s storage for this page is full';
  const note = h('div', { class: 'toast error lasting', role: 'alert', 'data-testid': 'unsaved-note' },
    `${why}: the duel goes on, but a reload would lose the turns since it was last saved. `,
    h('button', { type: 'button', class: 'tool', 'data-testid': 'unsaved-make-room', onclick: () => openSavedDuels(id) }, 'Saved duels: make room…'),
    h('button', { type: 'button', class: 'tool', 'data-testid': 'unsaved-save-again', onclick: () => persist() }, 'Save now'));
  document.getElementById('toasts').append(note);
}

async function resume(id) {
  const saved = storage.loadGame(id);
  if (!saved) {
    toast('That duel is no longer saved here.', 'error');
    showStart();
    return;
  }
  state = { duel: saved, holder: null };
  storage.setCurrentGameId(id);
  show(resumeScreen({ title: saved.summary.title, onHome: goHome }));
  if (remote.isRemoteDuel(saved)) {
    // A duel by codes or live: its session, not this controller, says what comes next.
    state = { duel: null, holder: null };
    await remote.resume(saved);
    return;
  }
  try {
    await engine;
  } catch (err) {
    fail(err.message);
    return;
  }
  if (state.duel === saved) await advance();
}

/** The wizards' views, and the phase as the wizards who act see it (a time stop is hidden from the other). */
async function views() {
  const game = state.duel.game;
  const both = await Promise.all([api.view(game, 0), api.view(game, 1)]);
  const bad = both.find((r) => !r.ok);
  if (bad) throw new Error(bad.error.message);
  const vs = both.map((r) => r.view);
  const phase = (vs.find((v) => v.phase.kind !== 'waiting') || vs[0]).phase;
  return { vs, phase };
}

function summarize(vs, phase) {
  const v = vs[0];
  const result = v.result;
  let resultText = '';
  if (result) resultText = result.winner === null ? `draw (${result.how})` : `${v.names[result.winner]} won (${result.how})`;
  return { title: `${v.names[0]} vs ${v.names[1]}`, names: v.names, turn: phase.turn, phase: phase.kind, over: phase.kind === 'over', resultText };
}

const isHuman = (w) => state.duel.seats[w] === 'human';
const humanCount = () => state.duel.seats.filter((s) => s === 'human').length;

// Called after every input: asks the engine where the game stands and shows the next screen.
async function advance() {
  const duel = state.duel;
  let vs;
  let phase;
  try {
    ({ vs, phase } = await views());
  } catch (err) {
    fail(`The saved duel could not be read: ${err.message}`);
    return;
  }
  if (state.duel !== duel) return; // the player left meanwhile
  duel.summary = summarize(vs, phase);
  persist();
  useRules(vs[0].ruleset);
  if (phase.kind === 'over') {
    showGameOver(vs);
    return;
  }
  let waiting = phase.actors.filter((w) => !(String(w) in duel.pending));
  // The computer decides once every human has written his input (it never sees them: the
  // engine's opponent reads only its own wizard's view), while a "thinking" screen shows.
  const computers = waiting.filter((x) => !isHuman(x));
  waiting = waiting.filter(isHuman);
  if (!waiting.length) {
    if (computers.length) show(thinkingScreen({ name: vs[computers[0]].names[computers[0]], level: duel.level || DEFAULT_LEVEL }));
    for (const w of computers) {
      const answer = await api.aiInput(duel.game, w, duel.level || DEFAULT_LEVEL, AI_DEADLINE_MS);
      if (state.duel !== duel) return; // the player left meanwhile
      if (!answer.ok) {
        fail(`The computer could not decide: ${answer.error.message}`);
        return;
      }
      duel.pending[String(w)] = answer.input;
    }
    await stepGame();
    return;
  }
  // Whoever already holds the device goes first: one hand-over per turn instead of two.
  const next = waiting.includes(state.holder) ? state.holder : waiting[0];
  if (humanCount() > 1 && state.holder !== next) {
    const other = vs[next].names[1 - next];
    show(passScreen({
      name: vs[next].names[next], other, kind: phase.hasted ? 'hasted' : phase.kind,
      onReady: () => { state.holder = next; showActor(next, vs[next]); },
      onHome: goHome,
    }));
    return;
  }
  state.holder = next;
  showActor(next, vs[next]);
}

async function stepGame() {
  const duel = state.duel;
  const result = await api.step(duel.game, duel.pending);
  if (!result.ok) {
    fail(`The engine refused the turn: ${result.error.message}`);
    return;
  }
  duel.game = result.game;
  duel.pending = {};
  persist();
  await advance();
}

function markSeen(w, view) {
  state.duel.seen[w] = { log: view.log.length, rows: view.wizards.map((x) => x.history.length) };
}

function showActor(w, view) {
  const duel = state.duel;
  const seen = duel.seen[w] || { log: 0, rows: [0, 0] };
  const accept = async (input) => {
    const checked = await api.validate(duel.game, w, input);
    if (!checked.ok) return [{ code: checked.error.code, field: '', message: checked.error.message }];
    if (checked.problems.length) return checked.problems;
    duel.pending[String(w)] = input;
    if (duel.drafts) delete duel.drafts[String(w)];
    markSeen(w, view);
    persist();
    await advance();
    return [];
  };
  if (view.phase.kind === 'decision') {
    const s = decisionScreen({ view, seen, submit: accept, onHome: goHome });
    show(s.element, s.destroy);
    return;
  }
  const s = ordersScreen({
    view, seen,
    preview: (draft) => api.preview(duel.game, w, draft),
    submit: (orders) => accept({ ...orders, nonce: api.freshNonce() }),
    onSpell: (key) => openReference({ spell: key }),
    onHome: goHome,
    // Unsealed picks are saved with the duel, so a reload keeps them (for this turn only).
    saved: draftFor(duel, w, view.phase),
    onDraft: (draft) => {
      duel.drafts = { ...duel.drafts, [String(w)]: { kind: view.phase.kind, turn: view.phase.turn, draft } };
      if (state.duel === duel) storage.saveGame(duel);
    },
    // The coach: only against the computer, only when the player switched it on.
    aside: duel.mode === 'computer' && storage.loadSetting('coach', false)
      ? coachPanel({ ask: () => api.aiAdvice(duel.game, w), onUse: (gestures) => s.useGestures(gestures) }) : null,
  });
  show(s.element, s.destroy);
}

function draftFor(duel, w, phase) {
  const kept = duel.drafts && duel.drafts[String(w)];
  return kept && kept.kind === phase.kind && kept.turn === phase.turn ? kept.draft : null;
}

function showGameOver(vs) {
  const duel = state.duel;
  const humans = [0, 1].filter(isHuman);
  const s = gameOverScreen({
    views: vs,
    perspectives: humans.length ? humans : [0],
    onRematch: () => {
      const v = vs[0];
      startLocalDuel({ names: v.names, ruleset: v.ruleset, mode: duel.mode, seats: duel.seats, level: duel.level || null })
        .then((message) => { if (message) toast(message, 'error'); });
    },
    onExport: () => exportDuel(duel),
    onReplay: async () => {
      const answer = await api.exportRecord(duel.game);
      const message = answer.ok ? await replay.open(JSON.stringify(answer.record), { own: humans.length ? humans[0] : 0 }) : answer.error.message;
      if (message) toast(message, 'error');
    },
    onHome: goHome,
  });
  show(s.element, s.destroy);
}

async function exportDuel(duel) {
  const game = duel.game || (duel.session && duel.session.game);
  if (!game) {
    toast('Nothing to export yet: the duel starts when your friend accepts the invitation.', 'error');
    return;
  }
  const answer = await api.exportRecord(game);
  if (!answer.ok) {
    toast(`The record could not be made: ${answer.error.message}`, 'error');
    return;
  }
  openExport({ record: answer.record, names: duel.summary.names || duel.summary.title.split(' vs ') });
}

// ---------------------------------------------------------------------------------------------
// Global keys and tools

document.querySelector('[data-testid="open-reference"]').addEventListener('click', () => openReference());
// Puzzles (issue 28): from the start screen and from Help; the duel in play stays saved.
const showPuzzles = () => mountPuzzles({ flow: createPuzzles({ api, date: localDate(new Date()) }), show, onHome: goHome });
const openHelpHere = () => openHelp({ onPuzzles: showPuzzles });
document.querySelector('[data-testid="open-help"]').addEventListener('click', openHelpHere);
document.querySelector('[data-testid="home-link"]').addEventListener('click', (event) => {
  event.preventDefault();
  goHome();
});
document.addEventListener('keydown', (event) => {
  if (isDialogOpen() || event.ctrlKey || event.metaKey || event.altKey) return;
  const t = event.target;
  if (t instanceof HTMLElement && (/^(INPUT|SELECT|TEXTAREA)$/.test(t.tagName) && t.type !== 'radio' && t.type !== 'checkbox')) return;
  if (event.key === '?') {
    event.preventDefault();
    openHelpHere();
  } else if (event.key === 'r') {
    event.preventDefault();
    openReference();
  }
});

// Remote play (web/remote.js): two more ways to play, the start screen's join box, links.
const remote = installRemote({
  registerMode, show, toast, goHome, fail, engine, openReference, exportDuel, useRules, openSavedDuels,
});

// Replays of finished duels and imported records, and links that hold a record (#replay=…).
const replay = createReplay({ show, goHome, engine, useRules });

// First screen: a replay or code link just opened, the duel a reload interrupted, or the start screen.
const resumeId = storage.currentGameId();
const resumeSummary = resumeId ? storage.loadGame(resumeId).summary : null;
const replayLink = replayLinkIn(location.hash);
if (replayLink) {
  show(resumeScreen({ title: 'A recorded duel', onHome: goHome }));
  replay.openLink(replayLink).then((message) => {
    if (message) {
      toast(message, 'error');
      showStart();
    }
  });
} else if (remote.openAddressLink()) {
  // The link's code decides the screen (web/remote.js).
} else if (resumeId && resumeSummary && !resumeSummary.over) resume(resumeId);
else showStart();
// The shell is interactive from here on; benchmarks read this mark.
performance.mark('wh:shell-ready');
