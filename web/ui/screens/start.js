// The start screen: names, who plays, the rules and their options, the saved duels (with the
// ones still going offered first on a phone), the way to import a record and remote play's box.

import { h, named, replace } from '../dom.js';
import { savedList, storageLine, tidyBox } from '../saved.js';
import { say } from '../words/index.js';

/**
 * rulesChooser({rulesets, prefs, onRules}) -> {element, chosen() -> {ruleset, options}}: the start
 * screen's "Rules" box. rulesets: Promise<[{name, title, description, options: [{id, label, hint,
 * default}]}]> (the engine's, the default first; shown when they arrive); a choice between rulesets
 * appears when there is more than one; the last choice (prefs.ruleset, prefs.options) is
 * preselected; onRules(name) hears every ruleset chosen (the spell reference follows it).
 */
function rulesChooser({ rulesets, prefs, onRules }) {
  const box = h('fieldset', { 'data-testid': 'rule-options', hidden: true }, h('legend', {}, say('start-rules')));
  const switches = h('div', { class: 'rule-switches' });
  let list = [];
  let current = null;
  const chosenBefore = (o) => (prefs.options && o.id in prefs.options ? Boolean(prefs.options[o.id]) : Boolean(o.default));
  const drawSwitches = () => {
    // Switches kept from the ruleset shown before keep their state when the same option returns.
    const was = Object.fromEntries([...switches.querySelectorAll('input')].map((i) => [i.name, i.checked]));
    replace(switches, current.options.map((o) => h('label', { class: 'choice' },
      h('input', { type: 'checkbox', name: o.id, checked: o.id in was ? was[o.id] : chosenBefore(o), 'data-testid': `option-${o.id}` }),
      h('span', {}, o.label, h('small', { class: 'muted' }, o.hint)))));
  };
  const choose = (r) => {
    current = r;
    drawSwitches();
    if (onRules) onRules(r.name);
  };
  Promise.resolve(rulesets).then((given) => {
    list = given || [];
    if (!list.length) return;
    const remembered = list.find((r) => r.name === prefs.ruleset) || list[0];
    if (list.length > 1) {
      box.append(h('div', { class: 'ruleset-choices', role: 'radiogroup', 'aria-label': say('start-which-rules') }, list.map((r) => h('label', { class: 'choice' },
        h('input', { type: 'radio', name: 'ruleset', value: r.name, checked: r === remembered, 'data-testid': `ruleset-${r.name}`, onchange: () => choose(r) }),
        h('span', {}, r.title, h('small', { class: 'muted' }, r.description))))));
    }
    box.append(switches);
    choose(remembered);
    box.hidden = list.length < 2 && !remembered.options.length;
  });
  const chosen = () => {
    const options = {};
    for (const input of switches.querySelectorAll('input[type=checkbox]')) options[input.name] = input.checked;
    return { ruleset: current ? current.name : null, options };
  };
  return { element: box, chosen };
}

/**
 * startScreen(opts) -> the start screen element.
 * opts: {prefs, modes:[{id,label,hint,extra?}], rulesets (see rulesChooser), onRules(name), saved,
 *        savedNote (index entries that could not be read), use (storage.storageUse(): each
 *        duel's size), remoteSlot, learnSlot (an element shown under the introduction),
 *        onStart({names, mode, ruleset, options}) -> Promise<string|null> (ruleset: the chosen
 *        ruleset's name, null if the engine listed none; options: its switches), onResume(id),
 *        onDelete(id), onDeleteMany(ids), onExport(id), onImport()}.
 */
export function startScreen({ prefs, modes, rulesets, onRules = null, saved, savedNote = null, use = { duels: {}, total: 0 }, onStart, onResume, onDelete, onDeleteMany = (ids) => ids.forEach(onDelete), onExport, onImport, remoteSlot, learnSlot = null }) {
  const names = prefs.names || [say('default-name-0'), say('default-name-1')];
  let mode = modes.some((m) => m.id === prefs.mode) ? prefs.mode : modes[0].id;
  const error = h('p', { class: 'problem', role: 'alert', 'data-testid': 'start-error', hidden: true });
  const nameInputs = [0, 1].map((i) => h('input', {
    type: 'text', id: `name-${i}`, 'data-testid': `name-${i}`, value: names[i] || '', required: true, autocomplete: 'off', spellcheck: 'false',
  }));
  const secondLabel = h('label', { for: 'name-1' });
  // A mode's own options (`extra`, an element) show only while that mode is chosen.
  const extras = modes.map((m) => m.extra || null);
  const labelSecond = () => {
    secondLabel.textContent = mode === 'computer' ? say('start-the-computers-wizard') : say('start-second-wizard');
    modes.forEach((m, i) => { if (extras[i]) extras[i].hidden = m.id !== mode; });
  };
  const modeRadios = modes.map((m, i) => [h('label', { class: 'choice' },
    h('input', { type: 'radio', name: 'mode', value: m.id, checked: m.id === mode, 'data-testid': `mode-${m.id}`, onchange: () => { mode = m.id; labelSecond(); } }),
    h('span', {}, m.label, h('small', { class: 'muted' }, m.hint))), extras[i]]);
  labelSecond();
  const rules = rulesChooser({ rulesets, prefs, onRules });
  const begin = h('button', { type: 'submit', class: 'primary', 'data-testid': 'start-game' }, say('start-begin-the-duel'));

  const form = h('form', {
    class: 'card', 'data-testid': 'new-game-form', 'aria-labelledby': 'new-duel-title',
    onsubmit: async (event) => {
      event.preventDefault();
      error.hidden = true;
      begin.disabled = true;
      const label = begin.textContent;
      begin.textContent = say('start-summoning-the-duel');
      const message = await onStart({ names: nameInputs.map((n) => n.value.trim()), mode, ...rules.chosen() });
      if (message) {
        error.textContent = message;
        error.hidden = false;
        begin.disabled = false;
        begin.textContent = label;
      }
    },
  },
  h('h2', { id: 'new-duel-title' }, say('start-a-new-duel')),
  h('div', { class: 'names' },
    h('div', { class: 'field' }, h('label', { for: 'name-0' }, say('start-first-wizard')), nameInputs[0]),
    h('div', { class: 'field' }, secondLabel, nameInputs[1])),
  h('fieldset', {}, h('legend', {}, say('start-who-plays')), modeRadios,
    // Remote play (turn codes, WebRTC) adds its own choices here; see registerMode in app.js.
    remoteSlot),
  rules.element,
  error,
  // The main action stays in sight at the foot of the screen (style.css): the form runs to two
  // screens on a phone, and a new player should not have to scroll past it all to begin.
  h('div', { class: 'actions start-actions', 'data-testid': 'start-actions' }, begin));

  const modeLabel = (id) => (modes.find((m) => m.id === id) || { label: id }).label;
  const savedCard = h('section', { class: 'card', 'data-testid': 'saved-games', 'aria-labelledby': 'saved-title' },
    h('h2', { id: 'saved-title' }, say('start-saved-duels')),
    saved.length
      ? savedList({ games: saved, use, modeLabel, rulesets, onResume, onDelete, onExport })
      : h('p', { class: 'muted' }, say('start-none-yet-every-duel-is')),
    saved.length ? storageLine(use) : null,
    tidyBox({ games: saved, use, onDeleteMany: (ids) => onDeleteMany(ids) }),
    savedNote ? h('p', { class: 'problem', role: 'status', 'data-testid': 'saved-unreadable' }, savedNote) : null,
    h('div', { class: 'actions' }, h('button', { type: 'button', 'data-testid': 'import-record', onclick: onImport }, say('start-import-a-record'))));

  return h('section', { class: 'start', 'data-testid': 'start-screen' },
    h('h1', {}, say('start-a-duel-of-wizards')),
    h('p', { class: 'intro' }, say('start-two-wizards-face-each-other')),
    learnSlot, // a newcomer's way in: Help and the puzzles (web/ui/screens/puzzles.js)
    inProgress(saved, modeLabel, onResume),
    h('div', { class: 'start-grid' }, form, savedCard));
}

// On a narrow screen the saved duels come after the whole new-duel form, two screens down: the
// duels still going are offered first (style.css hides this where the list stands beside the form).
const IN_PROGRESS_SHOWN = 3;

function inProgress(saved, modeLabel, onResume) {
  const going = saved.filter((g) => !g.over && !g.damaged)
    .sort((a, b) => (b.updatedAt || 0) - (a.updatedAt || 0)).slice(0, IN_PROGRESS_SHOWN);
  if (!going.length) return null;
  return h('nav', { class: 'in-progress', 'data-testid': 'in-progress', 'aria-label': say('start-duels-in-progress') },
    h('h2', {}, going.length === 1 ? say('start-your-duel-in-progress') : say('start-your-duels-in-progress')),
    h('ul', {}, going.map((g) => h('li', {},
      h('button', { type: 'button', class: 'continue', 'data-testid': `continue-${g.id}`, onclick: () => onResume(g.id) },
        h('strong', {}, say('start-resume')), h('span', {}, named(say('duel-title', g))), h('small', { class: 'muted' }, say('start-continue-tail', { turn: g.turn, mode: modeLabel(g.mode) })))))));
}
