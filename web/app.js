// The shell: boots the page, picks the first screen, says what a link or a pasted text is, and
// wires the parts together: the duel store (web/store/), the flows (web/flows/: the local turn
// loop, the replay; remote.js for duels by codes), the screens (web/ui/) and the keyboard.
// The engine decides every rules question; nothing here keeps duel state (the store does).

import * as api from './api.js';
import { hex } from './hex.js';
import * as storage from './store/storage.js';
import { createStore } from './store/store.js';
import { createLocalFlow } from './flows/local.js';
import { createReplayFlow, replayLinkIn } from './flows/replay.js';
import { bootEngine } from './shell/engine-boot.js';
import { createLocalScreens } from './shell/local.js';
import { createMeleeFlow } from './flows/melee.js';
import { createMeleeScreens, meleeMode } from './shell/melee.js';
import { createMeleeCodesFlow, MELEE_CODES_MODE } from './flows/melee-codes.js';
import { createMeleeCodesScreens, meleeCodesMode } from './shell/melee-codes.js';
import { createMeleeLiveFlow } from './flows/melee-live.js';
import { createMeleeLiveScreens, meleeLiveMode } from './shell/melee-live.js';
import * as webrtc from './transport/webrtc.js';
import { createReplayScreens } from './shell/replay.js';
import { createHost, createModes } from './shell/host.js';
import { h } from './ui/dom.js';
import { isDialogOpen } from './ui/dialog.js';
import { openHelp } from './ui/help.js';
import { installKeys } from './ui/keys.js';
import { createReference } from './ui/reference.js';
import { openExport, openImport, recordRefusal } from './ui/records.js';
import { openSavedDuels as openSavedDuelsDialog } from './ui/saved.js';
import { startScreen } from './ui/screens/start.js';
import { failureScreen, resumeScreen, tabScreen } from './ui/screens/between.js';
import { DEFAULT_LEVEL, offlineSign, opponentOptions } from './ui/opponent.js';
import { say } from './ui/words/index.js';
import { installRemote } from './remote.js';
import { createPuzzles, localDate } from './flows/puzzles.js';
import { mountPuzzles } from './ui/screens/puzzles.js';
import { createLessons } from './flows/lessons.js';
import { lessonsOffer, mountLessons } from './ui/screens/lessons.js';

const screen = document.getElementById('screen');
// The opponent's levels are work budgets (strong's worst move about 1 s in this page's engine);
// this wall-clock deadline is only a safety net on a slow or busy device: a cut move is the
// best found so far (the record keeps the orders played, so the duel still replays).  Issue 13
// caps the wait at 1.5 s; the answer reaches the page a margin after the deadline (what the
// search is doing when it passes, the worker's messages), which on a loaded two-core machine
// ran to 400-530 ms (bench/opponent_page.py, docs/ai.md): hence 1,000 ms, not more.
const AI_DEADLINE_MS = 1000;

const reference = createReference();
const openReference = reference.open;
const rules = bootEngine({ api, statusBox: document.getElementById('engine-status'), setSpellBook: reference.setSpellBook });
const { engine, rulesKnown, useRules } = rules;
const knownRulesets = () => rulesKnown.then((known) => (known ? rules.rulesets() : []));

const store = createStore({ storage, locks: (navigator.locks || null) });
const { show, toast } = createHost(screen, document.getElementById('toasts'), document.getElementById('announce'));

/** Say once that a new version is installed; reloading (which keeps the saved duel) is the player's call. */
function announceUpdate() {
  if (document.querySelector('[data-testid=update-ready]')) return;
  const reload = h('button', { type: 'button', class: 'tool', 'data-testid': 'update-reload', onclick: () => location.reload() }, say('boot-reload'));
  document.getElementById('toasts').append(h('div', { class: 'toast update', 'data-testid': 'update-ready' }, say('update-ready'), reload));
}
window.addEventListener('wavinghands:update-ready', announceUpdate);
if (window.__updateReady) announceUpdate();

function fail(message) {
  show(failureScreen({ message, onHome: goHome }));
}

/** goHome() leaves the current duel (it stays saved) for the start screen. */
function goHome() {
  store.leave();
  showStart();
}

// A duel on this device that could not be stored: say so until a save succeeds (a toast would
// fade while the risk stays: a reload loses the turns since the last save), with a way to make
// room and to save again.
function drawUnsaved({ duel, saved, refusal }) {
  const note = document.querySelector('[data-testid=unsaved-note]');
  if (saved || !duel) {
    note?.remove();
    return;
  }
  if (note) return;
  document.getElementById('toasts').append(h('div', { class: 'toast error lasting', role: 'alert', 'data-testid': 'unsaved-note' },
    say('unsaved-local', { refusal }),
    h('button', { type: 'button', class: 'tool', 'data-testid': 'unsaved-make-room', onclick: () => openSavedDuels(duel.id) }, say('make-room')),
    h('button', { type: 'button', class: 'tool', 'data-testid': 'unsaved-save-again', onclick: () => store.saveAgain() }, say('save-now'))));
}

// One tab writes a duel at a time (bug 7): a duel this tab played and another tab took over.
function drawTab(state, before) {
  if (before.tab === 'mine' && state.tab === 'elsewhere' && state.duel) showTabScreen(state.duel, { takenOver: true });
}

function showTabScreen(duel, { takenOver }) {
  show(tabScreen({
    takenOver, title: say('duel-title', duel.summary),
    onTakeOver: async () => {
      if (await store.claim({ id: duel.id, takeOver: true }) === 'mine') resume(duel.id);
    },
    onHome: goHome,
  }));
}

store.subscribe((state, before) => {
  drawUnsaved(state);
  drawTab(state, before);
});

// A remote duel made current by web/remote.js (begun, accepted, opened by link) is claimed for
// this tab like any other.
storage.onCurrentChange(async (id) => {
  if (!id || (store.getState().duel && store.getState().duel.id === id)) return;
  if (!store.open({ id }).ok) return;
  if (await store.claim({ id }) === 'elsewhere') showTabScreen(store.getState().duel, { takenOver: false });
});

// ---------------------------------------------------------------------------------------------
// Modes: who sits at each seat and how a duel starts. Remote play registers its own two.

// A mode registered after the start screen is up must still be offered on it.
const modes = createModes(() => { if (screen.querySelector('[data-testid=start-screen]')) showStart(); });

const local = createLocalFlow({
  api, store, engine, defaultLevel: DEFAULT_LEVEL, deadlineMs: AI_DEADLINE_MS, newId: storage.newGameId,
  digest: async (text) => hex(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)))),
});
// The battle scene's sounds: off until the player turns them on; remembered.
const soundSetting = () => ({ on: storage.loadSetting('sound', false) === true, onChange: (on) => storage.saveSetting('sound', on) });
const replayScreens = createReplayScreens({ flow: createReplayFlow({ api, engine }), api, show, goHome, useRules, soundSetting });
const drawLocal = createLocalScreens({
  flow: local, api, show, fail, toast, goHome, useRules, openReference, exportDuel,
  openReplay: replayScreens.open, replays: replayScreens, soundSetting, coachOn: () => storage.loadSetting('coach', false),
});

/** A local duel's first screen, or the start screen's error sentence. */
async function beginLocal(params) {
  const first = await local.begin(params);
  if (first.error) return first.error.message;
  drawLocal(first);
  return null;
}

modes.register({
  id: 'hotseat',
  label: say('mode-hotseat'),
  hint: say('mode-hotseat-hint'),
  begin: ({ names, ruleset }) => beginLocal({ names, ruleset, mode: 'hotseat', seats: ['human', 'human'] }),
});
modes.register(computerMode());
// A melee of three to six on this device (web/flows/melee.js, web/shell/melee.js).
const melee = createMeleeFlow({ api, store, engine, deadlineMs: AI_DEADLINE_MS, newId: storage.newGameId });
const drawMelee = createMeleeScreens({ flow: melee, api, show, fail, toast, goHome, useRules, openReference, exportDuel, replays: replayScreens });
modes.register(meleeMode({ flow: melee, draw: drawMelee }));
// A melee by codes, each player on his own device (web/flows/melee-codes.js, web/shell/melee-codes.js).
const meleeCodes = createMeleeCodesFlow({
  api, store, transportFor: (duel) => meleeLive.transportFor(duel), onArrive: (outcome) => drawMeleeCodes(outcome),
});
const drawMeleeCodes = createMeleeCodesScreens({
  flow: meleeCodes, api, show, fail, toast, goHome, useRules, openReference, replays: replayScreens,
  exportGame: (game, names) => exportDuel({ game, summary: { names } }), panel: (o, codesPanel) => meleeLiveScreens.panel(o, codesPanel),
});
modes.register(meleeCodesMode({ flow: meleeCodes, draw: drawMeleeCodes }));
// A live melee: the melee by codes carried by a hub of WebRTC connections, every code signed
// (web/flows/melee-live.js, web/shell/melee-live.js, web/transport/hub.js).
const meleeLive = createMeleeLiveFlow({ api, codes: meleeCodes, rtc: webrtc, iceServers: (ice) => remote.transports.live.iceServers(ice) });
const meleeLiveScreens = createMeleeLiveScreens({ live: meleeLive, codes: meleeCodes, drawCodes: drawMeleeCodes, show, goHome });
modes.register(meleeLiveMode({ live: meleeLive, screens: meleeLiveScreens }));

/** The computer's mode, with its level and coach switch (web/ui/opponent.js) made afresh for each start screen. */
function computerMode() {
  let options = null;
  return {
    id: 'computer',
    label: say('mode-computer'),
    hint: say('mode-computer-hint'),
    extra: () => {
      options = opponentOptions({ level: storage.loadSetting('opponent-level', DEFAULT_LEVEL), coach: storage.loadSetting('coach', false) });
      return options.element;
    },
    begin: ({ names, ruleset }) => {
      const level = options ? options.level() : DEFAULT_LEVEL;
      if (options) {
        storage.saveSetting('opponent-level', level);
        storage.saveSetting('coach', options.coach());
      }
      return beginLocal({ names, ruleset, mode: 'computer', seats: ['human', 'computer'], level });
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The start screen and the saved duels

async function exportDuel(duel) {
  const game = duel.game || (duel.session && duel.session.game);
  if (!game) {
    toast(say('nothing-to-export'), 'error');
    return;
  }
  const answer = await api.exportRecord(game);
  if (!answer.ok) {
    toast(say('export-failed', { message: answer.error.message }), 'error');
    return;
  }
  openExport({ record: answer.record, names: duel.summary.names && duel.summary.names.length ? duel.summary.names : duel.summary.title.split(' vs ') });
}

async function exportSaved(id) {
  const saved = store.readSaved(id);
  try {
    await engine;
  } catch (err) {
    toast(err.message, 'error');
    return;
  }
  if (saved.ok) exportDuel(saved.duel);
}

/** openSavedDuels(current) shows the saved duels in a dialog (sizes, export, delete) to make room; `current` cannot be deleted. */
function openSavedDuels(current = null) {
  return openSavedDuelsDialog({
    read: () => ({ games: store.savedDuels().games, use: storage.storageUse() }),
    modeLabel: modes.label, rulesets: knownRulesets(), current,
    onDelete: (id) => storage.deleteGame(id),
    onExport: exportSaved,
  });
}

function showStart() {
  const remoteSlot = h('div', { id: 'remote-modes', class: 'remote-slot', 'data-testid': 'remote-modes' });
  remote.fillStartSlot(remoteSlot);
  const { games, unreadable } = store.savedDuels();
  show(startScreen({
    prefs: storage.loadPrefs(),
    modes: modes.list().map(({ id, label, hint, extra }) => ({ id, label, hint, extra: extra ? extra() : null })),
    // The rulesets appear as soon as the rules are known (none if they never are).
    rulesets: knownRulesets(),
    onRules: (name) => { useRules({ name }); },
    saved: games,
    savedNote: unreadable ? say('index-unreadable', { n: unreadable }) : null,
    use: storage.storageUse(),
    remoteSlot,
    // A first visit (no lesson touched, no duel saved) is offered the guided duel (issue 28).
    learnSlot: lessonsOffer({
      first: !games.length && !Object.keys(storage.loadSetting('lessons', {})).length,
      onLessons: (how) => showLessons(how), onHelp: () => openHelpHere(), onPuzzles: () => showPuzzles(),
    }),
    onStart: async ({ names, mode, ruleset, options }) => {
      storage.savePrefs({ names, mode, ruleset, options });
      return modes.get(mode).begin({ names, ruleset: { name: ruleset || 'standard', ...options } });
    },
    onResume: (id) => resume(id),
    onDelete: (id) => { store.remove({ id }); showStart(); },
    onDeleteMany: (ids) => { ids.forEach((id) => store.remove({ id })); showStart(); },
    onExport: exportSaved,
    onImport: () => openImport({ modes: modes.list().filter((m) => m.id === 'hotseat' || m.id === 'computer'), onImport: importDuel }),
  }));
}

// What a friend sends is often pasted into the only big box in sight, the import's: a replay
// link opens its replay (null: done); a code says where it goes; anything else is undefined.
async function notARecord(text) {
  const trimmed = text.trim();
  const packed = replayLinkIn(trimmed.slice(Math.max(0, trimmed.indexOf('#'))));
  if (packed) return replayScreens.openLink(packed);
  return (await api.remoteDescribe(trimmed)).ok ? say('code-not-record') : undefined;
}

async function importDuel(text, mode) {
  const first = await local.importRecord(text, mode);
  if (first.refused) {
    const other = await notARecord(text);
    return other === undefined ? recordRefusal(text, first.error) : other;
  }
  if (first.error) return first.error.message;
  toast(say('record'));
  drawLocal(first);
  return null;
}

/**
 * resume(id, {first}) takes a saved duel up where it stood. A duel another tab plays says so; one
 * that cannot be read is marked in the list (on the first screen: the start screen shows it).
 */
async function resume(id, { first = false } = {}) {
  const read = store.readSaved(id);
  if (!read.ok) {
    store.damaged({ id, code: read.error.code });
    toast(say(read.error.code === 'missing' ? 'no-longer-saved' : 'damaged-title'), 'error');
    showStart();
    return;
  }
  show(resumeScreen({ title: say('duel-title', read.duel.summary), onHome: goHome }));
  store.open({ id });
  if (await store.claim({ id }) === 'elsewhere') {
    showTabScreen(read.duel, { takenOver: false });
    return;
  }
  if (read.duel.mode === MELEE_CODES_MODE) {
    drawMeleeCodes(meleeCodes.resume(id));
    return;
  }
  if (remote.isRemoteDuel(read.duel)) {
    // A duel by codes or live: its session, not this shell, says what comes next.
    await remote.resume(storage.loadGame(id));
    return;
  }
  if (read.duel.mode === 'melee') {
    drawMelee(melee.resume(id));
    return;
  }
  const outcome = await local.resume(id);
  if (first && outcome.screen === 'fail' && outcome.code === 'saved-unreadable') {
    toast(say('damaged-title'), 'error');
    showStart();
    return;
  }
  drawLocal(outcome);
}

// ---------------------------------------------------------------------------------------------
// Tools, keys, remote play, the first screen

document.querySelector('[data-testid="open-reference"]').addEventListener('click', () => openReference());
// Puzzles (issue 28): from the start screen and from Help; the duel in play stays saved.
const showPuzzles = () => mountPuzzles({ flow: createPuzzles({ api, date: localDate(new Date()) }), show, onHome: goHome });
// The guided first duel (issue 28): its progress is a setting; its last lesson is a computer duel
// at the lesson's level, with the coach on.
const lessonProgress = { load: () => storage.loadSetting('lessons', {}), save: (done) => storage.saveSetting('lessons', done) };
function beginLessonDuel(level) {
  storage.saveSetting('coach', true);
  const names = storage.loadPrefs().names || [say('default-name-0'), say('default-name-1')];
  return beginLocal({ names, ruleset: { name: 'standard' }, mode: 'computer', seats: ['human', 'computer'], level }).then((error) => {
    if (error) toast(error, 'error');
  });
}
const showLessons = ({ straightIn = false } = {}) => mountLessons({
  flow: createLessons({ api, progress: lessonProgress, onDuel: beginLessonDuel }), show, onHome: goHome, straightIn,
});
const openHelpHere = () => openHelp({ onPuzzles: showPuzzles, onLessons: () => showLessons({ straightIn: true }) });
document.querySelector('[data-testid="open-help"]').addEventListener('click', openHelpHere);
// "Works offline", once the service worker holds the whole page (issue 28, bug 7).
document.querySelector('[data-testid="open-help"]').before(offlineSign(window));
document.querySelector('[data-testid="home-link"]').addEventListener('click', (event) => {
  event.preventDefault();
  goHome();
});
installKeys({ root: screen, isBlocked: isDialogOpen, shortcuts: { '?': openHelpHere, r: () => openReference() } });

// Remote play (web/remote.js): two more ways to play, the start screen's join box, links.
const remote = installRemote({
  store, registerMode: modes.register, show, toast, goHome, fail, engine, openReference, exportDuel, useRules, openSavedDuels, replays: replayScreens, soundSetting,
});
/** The page's transports, made by the remote shell at boot: for tests and the browser's console (the
 * built app.js's `modules['app.js']`, sitebuild/page.py); nothing in web/ imports app.js. */
export const { transports } = remote;

/** openReplayLink(packed) shows a '#replay=' link's replay; a refused link is said and its hash cleared. */
async function openReplayLink(packed) {
  show(resumeScreen({ title: say('replay-resume-title'), onHome: goHome }));
  const message = await replayScreens.openLink(packed);
  if (!message) return;
  history.replaceState(null, '', location.pathname + location.search);
  toast(message, 'error');
  showStart();
}

// First screen: a replay or code link just opened, the duel a reload interrupted, or the start screen.
const replayLink = replayLinkIn(location.hash);
const resumeId = replayLink ? null : store.resumable();
if (replayLink) openReplayLink(replayLink);
else if (remote.openAddressLink()) {
  // The link's code decides the screen (web/remote.js).
} else if (resumeId) resume(resumeId, { first: true });
else showStart();
// The shell is interactive from here on; benchmarks read this mark.
performance.mark('wh:shell-ready');
