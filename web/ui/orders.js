// The orders form for one wizard: gesture pads per hand (and per gesture set when hastened), the
// engine's preview of what the draft would do, the questions it asks (spell choice, targets,
// stab, monsters, charm, banked spell) and the problems `validate` reports, each beside its field.
// The draft lives here; what it means is always asked of the engine through `preview`.

import { h, nameOf, replace } from './dom.js';
import { GESTURES, gestureForKey, gestureLabel, renderHand } from './gesturepad.js';
import { renderHistories } from './board.js';
import { isDialogOpen } from './dialog.js';
import { spellName } from './reference.js';

const HAND_WORDS = { L: 'Left hand', R: 'Right hand', B: 'Both hands' };
// Names for the engine's reasons (`why`) a hand is constrained.
const WHY_WORDS = { paralysis: 'Paralysis', amnesia: 'Amnesia', charm: 'Charm person' };
const UNDER_WAY_SHOWN = 3;

function isTyping(target) {
  return target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName) && !(target.tagName === 'INPUT' && target.type === 'radio'));
}

function sequenceView(entry) {
  // The engine says how many steps are made; show those plainly and the rest as still to do.
  const steps = entry.sequence.split('-');
  const done = steps.slice(0, entry.done).join('-');
  const todo = steps.slice(entry.done).join('-');
  return h('span', { class: 'seq', 'aria-label': `${entry.sequence}, needs ${entry.remaining}` },
    h('span', { class: 'done' }, done), todo ? h('span', { class: 'todo' }, `${done ? '-' : ''}${todo}`) : null);
}

/**
 * draftFromOrders(orders) -> a saved draft (the shape onDraft gives) holding these orders JSON (a
 * hand may be null: not chosen yet), for createOrders' `saved`: e.g. orders the engine carried
 * onto a new turn (remote play, a draft written while waiting for a code).
 */
export function draftFromOrders(orders) {
  const gestures = (orders.gestures || []).map((pair) => [pair[0] || null, pair[1] || null]);
  const flags = { bank: null, permanent: null };
  const casts = (orders.casts || []).map((c) => {
    const set = c.set || 0;
    for (const flag of ['bank', 'permanent']) if (c[flag]) flags[flag] = { set, hand: c.hand, spell: c.spell };
    return [`${set}:${c.hand}`, c.target ? { spell: c.spell, target: c.target } : { spell: c.spell }];
  });
  const stabs = Array.isArray(orders.stab) ? orders.stab : [orders.stab || null];
  // A monster being summoned is answered for the summons its hand casts (see ordersJson).
  const spellOf = (id) => {
    const [, , hand, set] = id.split(':');
    const cast = (orders.casts || []).find((c) => c.hand === hand && (c.set || 0) === Number(set || 0));
    return cast ? cast.spell : undefined;
  };
  const monsters = Object.fromEntries(Object.entries(orders.monsters || {})
    .map(([id, target]) => [id, { target, spell: id.startsWith('new:') ? spellOf(id) : undefined }]));
  const charm = orders.charm ? orders.charm.gesture : null;
  const release = orders.release && typeof orders.release === 'object' ? orders.release.target : null;
  return {
    gestures, casts, flags, stab: gestures.map((_, i) => stabs[i] || null), monsters,
    charm, charmTarget: (orders.charm && orders.charm.target) || null, release, hands: { ...(orders.hands || {}) },
  };
}

/**
 * createOrders(opts) -> {element, histories, useGestures(sets), destroy} for one wizard's orders
 * (useGestures: whole gesture sets into the draft, [[left, right], ...]; fixed hands keep theirs).
 * opts: {view, preview(draft) -> Promise<result>, submit(orders) -> Promise<problems[]>, onSpell(key), submitLabel,
 *        saved (a draft from onDraft, to carry on with), onDraft(draft, orders) (called with every change, to save
 *        it; `orders` is the same draft as orders JSON)}.
 */
export function createOrders({ view, preview, submit, onSpell, submitLabel = 'Seal my orders', saved = null, onDraft = () => {} }) {
  const constraints = view.constraints;
  const setCount = constraints.sets;
  const hands = { L: constraints.left, R: constraints.right };
  const banned = new Set(constraints.banned || []);
  const allowed = banned.size ? new Set(GESTURES.map((g) => g.code).filter((c) => !banned.has(c))) : null;
  // A hand the opponent writes this turn (charm person): whatever is picked here would be
  // replaced, so it is locked like a paralysed one and sends nothing.
  const charmed = (hand) => !hands[hand].forced && hands[hand].controller !== null && hands[hand].controller !== undefined;
  const fixedGesture = (hand) => hands[hand].forced || (charmed(hand) ? '-' : null);

  const draft = restoreDraft(saved, {
    gestures: Array.from({ length: setCount }, () => [fixedGesture('L'), fixedGesture('R')]),
    casts: new Map(), // `${set}:${hand}` -> {spell, target?}
    flags: { bank: null, permanent: null }, // {set, hand, spell} delayed effect / permanency take
    stab: Array.from({ length: setCount }, () => null),
    monsters: {}, // id -> {target, spell} (spell: the summons a new monster's answer was given for)
    charm: null,
    charmTarget: null, // where a charmed stab goes (the engine offers the choices)
    release: null,
    hands: {}, // question id -> 'L' | 'R': the subject's hand a paralysis or charm takes (Warlocks)
  });
  let lastPreview = null;
  let problems = []; // from the last submit attempt, shown beside their fields
  let previewToken = 0;
  let previewDone = Promise.resolve();
  let busy = false;
  let armed = null; // the orders (JSON) the player was warned about once: a second Seal seals them

  // A saved draft (a reload before sealing) is taken only where it still fits this turn's form.
  function restoreDraft(old, fresh) {
    if (!old || !Array.isArray(old.gestures) || old.gestures.length !== setCount) return fresh;
    const codes = new Set(GESTURES.map((g) => g.code));
    fresh.gestures = old.gestures.map((pair) => ['L', 'R'].map((hand, i) => fixedGesture(hand) || (codes.has(pair[i]) ? pair[i] : null)));
    fresh.casts = new Map((old.casts || []).filter((e) => Array.isArray(e) && e.length === 2));
    fresh.flags = { ...fresh.flags, ...(old.flags || {}) };
    if (Array.isArray(old.stab) && old.stab.length === setCount) fresh.stab = old.stab;
    for (const key of ['monsters', 'charm', 'charmTarget', 'release', 'hands']) if (old[key] !== undefined) fresh[key] = old[key];
    return fresh;
  }

  function draftJson() {
    return { ...draft, casts: [...draft.casts.entries()] };
  }

  const pads = h('div', { class: 'gesture-sets' });
  const historiesSlot = h('div', {});
  // What the player must answer (warnings, questions) comes right under the pads and above the
  // seal bar; what the gestures do and what the opponent could do follow below it.
  const askSlot = h('div', { class: 'preview asks', 'data-testid': 'asks' });
  const previewSlot = h('div', { class: 'preview', 'data-testid': 'preview' });
  const answersLine = h('p', { class: 'seal-summary', 'data-testid': 'seal-summary' });
  const summary = h('p', { class: 'visually-hidden', 'aria-live': 'polite', 'data-testid': 'preview-summary' });
  const generalProblems = h('div', { 'data-testid': 'problems', role: 'alert' });
  const confirmSlot = h('div', {});
  const submitButton = h('button', { type: 'submit', class: 'primary', 'data-testid': 'submit-orders', 'aria-keyshortcuts': 'Control+Enter' }, submitLabel);
  const form = h('form', { class: 'orders', 'data-testid': 'orders-form', novalidate: true, 'aria-label': 'Your orders' },
    generalProblems, pads, summary, askSlot,
    h('div', { class: 'submit-bar', 'data-testid': 'submit-bar' }, confirmSlot, answersLine, submitButton, h('span', { class: 'muted key-hint' }, h('kbd', {}, 'Ctrl'), '+', h('kbd', {}, 'Enter'))),
    previewSlot);
  form.addEventListener('submit', (event) => { event.preventDefault(); trySubmit(); });

  // ---------- building the orders JSON ----------

  function ordersJson() {
    const orders = { gestures: draft.gestures.map((pair) => [...pair]) };
    const casts = [...draft.casts.entries()].map(([key, c]) => {
      const [set, hand] = key.split(':');
      const entry = { set: Number(set), hand, spell: c.spell };
      if (c.target) entry.target = c.target;
      return entry;
    });
    // Answers count only while the engine still asks the question (the gestures may have
    // changed since): a monster being summoned, a delayed effect or permanency waiting.
    const questions = lastPreview ? lastPreview.questions : [];
    const asked = new Set(questions.map((q) => (q.kind === 'monster' ? `monster:${q.monster}` : q.kind)));
    for (const flag of ['bank', 'permanent']) {
      const pick = draft.flags[flag];
      if (!pick || !asked.has(flag)) continue;
      let entry = casts.find((c) => c.set === pick.set && c.hand === pick.hand);
      if (!entry) casts.push(entry = { set: pick.set, hand: pick.hand, spell: pick.spell });
      if (entry.spell === pick.spell) entry[flag] = true;
    }
    if (casts.length) orders.casts = casts;
    // A stab target counts only for a gesture set that still stabs (the engine refuses a target
    // for a stab that is not made).
    const stabs = draft.stab.map((s, i) => (s && draft.gestures[i] && draft.gestures[i].includes('>') ? s : null));
    if (stabs.some((s) => s)) orders.stab = setCount === 1 ? stabs[0] : stabs;
    // A monster being summoned is directed only while the engine asks about it, and only for
    // the summons the answer was given for (another choice of spell brings another monster).
    const monsters = Object.fromEntries(Object.entries(draft.monsters)
      .filter(([id, answer]) => !id.startsWith('new:') || questions.some((q) => q.kind === 'monster' && q.monster === id && q.spell === answer.spell))
      .map(([id, answer]) => [id, answer.target]));
    if (Object.keys(monsters).length) orders.monsters = monsters;
    if (draft.charm) orders.charm = draft.charm === '>' && draft.charmTarget ? { gesture: draft.charm, target: draft.charmTarget } : { gesture: draft.charm };
    if (draft.release !== null) orders.release = { target: draft.release };
    // A hand named for a question the engine still asks now (Warlocks: never in a turn its
    // subject does not take, where the engine would refuse it).
    const named = Object.fromEntries(questions.filter((q) => q.kind === 'hand' && draft.hands && draft.hands[q.id])
      .map((q) => [q.id, draft.hands[q.id]]));
    if (Object.keys(named).length) orders.hands = named;
    return orders;
  }

  // ---------- gesture pads ----------

  function handProblem(set, hand) {
    const field = `gestures.${set}.${hand === 'L' ? 0 : 1}`;
    return problems.filter((p) => p.field === field).map((p) => p.message).join(' ');
  }

  function handNote(hand) {
    const c = hands[hand];
    const notes = [];
    const why = WHY_WORDS[c.why] || c.why;
    if (c.forced) notes.push(`${why}: this hand must make ${gestureLabel(c.forced)}.`);
    else if (charmed(hand)) notes.push([`${why}: `, nameOf(view.wizards[c.controller].name), ' writes this hand’s gesture this turn, so it is locked; you will see the gesture after the reveal.']);
    else if (c.why) notes.push(`${why}.`);
    if (banned.size) notes.push(`Fear: no ${[...banned].join(', ')} this turn.`);
    // Children, not one string: a wizard's name stays in its own <bdi>.
    return notes.length ? notes.flatMap((n, i) => (i ? [' ', n] : [n])) : '';
  }

  function drawPads() {
    const focusedTestId = document.activeElement && pads.contains(document.activeElement) ? document.activeElement.dataset.testid : null;
    const sets = draft.gestures.map((pair, set) => h('section', { class: 'gesture-set', 'data-set': String(set), 'aria-label': setCount > 1 ? `Gesture set ${set + 1}` : 'Gestures' },
      setCount > 1 ? h('h3', {}, set === 0 ? 'First gesture set' : 'Second gesture set (haste)') : null,
      h('div', { class: 'hands' }, ['L', 'R'].map((hand) => renderHand({
        set, hand,
        value: pair[hand === 'L' ? 0 : 1],
        allowed,
        forced: hands[hand].forced,
        locked: charmed(hand),
        note: handNote(hand),
        problem: handProblem(set, hand),
        onChange: (code) => setGesture(set, hand, code),
      })))));
    replace(pads, sets);
    if (focusedTestId) {
      const again = pads.querySelector(`[data-testid="${CSS.escape(focusedTestId)}"]`);
      if (again) again.focus();
    }
  }

  function drawHistories() {
    // A charmed hand's gesture is the opponent's secret until the reveal.
    const shown = draft.gestures.map((pair) => pair.map((g, i) => (charmed(i === 0 ? 'L' : 'R') ? '?' : g)));
    replace(historiesSlot, renderHistories(view, shown));
  }

  function setGesture(set, hand, code) {
    if (!putGesture(set, hand, code)) return;
    drawPads();
    drawHistories();
    refreshPreview();
  }

  // One hand's gesture into the draft, unless the rules fix that hand; whether it was taken.
  function putGesture(set, hand, code) {
    if (hands[hand].forced || charmed(hand)) return false;
    if (allowed && !allowed.has(code)) return false;
    draft.gestures[set][hand === 'L' ? 0 : 1] = code;
    // A new gesture makes this hand's earlier spell choices and targets meaningless.
    for (const h2 of [hand, 'B']) draft.casts.delete(`${set}:${h2}`);
    problems = problems.filter((p) => !p.field.startsWith('gestures') && !p.field.startsWith('casts'));
    return true;
  }

  // Whole gesture sets at once ([[left, right], ...], as the coach gives them), drawn once.
  function useGestures(sets) {
    const codes = new Set(GESTURES.map((g) => g.code));
    sets.slice(0, setCount).forEach((pair, set) => pair.forEach((code, i) => {
      if (codes.has(code)) putGesture(set, i === 0 ? 'L' : 'R', code);
    }));
    drawPads();
    drawHistories();
    refreshPreview();
  }

  // ---------- preview and questions ----------

  function refreshPreview() {
    onDraft(draftJson(), ordersJson());
    disarm();
    previewDone = loadPreview();
    return previewDone;
  }

  async function loadPreview() {
    const token = ++previewToken;
    previewSlot.setAttribute('aria-busy', 'true');
    const result = await preview(ordersJson());
    if (token !== previewToken) return; // a newer draft has been sent since
    previewSlot.setAttribute('aria-busy', 'false');
    if (!result.ok) {
      lastPreview = null;
      replace(previewSlot, h('p', { class: 'problem' }, `The engine could not preview these orders: ${result.error.message}`));
      return;
    }
    lastPreview = result.preview;
    drawPreview();
  }

  function fieldProblems(field) {
    return problems.filter((p) => p.field === field || p.field.startsWith(`${field}.`));
  }

  function problemNote(field, id) {
    const list = fieldProblems(field);
    if (!list.length) return null;
    return h('p', { class: 'problem', id, 'data-testid': `problem-${field}` }, list.map((p) => p.message).join(' '));
  }

  // A warning the engine attaches to this answer (a harmful spell aimed at nobody or oneself).
  function riskNote(field, id) {
    const risky = (lastPreview ? lastPreview.warnings : []).filter((w) => w.confirm && w.field === field);
    if (!risky.length) return null;
    return h('p', { class: 'problem risk', id, 'data-testid': `risk-${field}` }, risky.map((w) => w.text).join(' '));
  }

  function selectField({ label, field, testid, options, value, onChange, placeholder = null }) {
    const id = `q-${testid}`;
    const problemId = `${id}-problem`;
    const note = problemNote(field, problemId) || riskNote(field, problemId);
    const select = h('select', {
      id, 'data-testid': testid, 'data-field': field,
      class: note ? 'has-problem' : null,
      'aria-invalid': note ? 'true' : null,
      'aria-describedby': note ? problemId : null,
      onchange: (event) => onChange(event.target.value),
    },
    placeholder !== null ? h('option', { value: '', selected: !value }, placeholder) : null,
    options.map((o) => h('option', { value: o.id, selected: o.id === value }, o.name)));
    return h('div', { class: 'field' }, h('label', { for: id }, label), select, note);
  }

  function spellChoiceField(q) {
    const field = `casts.${q.set}`;
    const name = `choice-${q.set}`;
    const note = problemNote(field, `${name}-problem`);
    return h('fieldset', { class: `field${note ? ' has-problem' : ''}`, 'data-field': field, 'data-testid': `spell-choice-${q.set}` },
      h('legend', {}, q.prompt, setCount > 1 ? ` (gesture set ${q.set + 1})` : ''),
      q.options.map((option, i) => h('label', { class: 'choice' },
        h('input', {
          type: 'radio', name, value: String(i), checked: i === q.chosen_index,
          'data-testid': `spell-choice-${q.set}-${i}`,
          onchange: () => chooseAllocation(q.set, option.casts),
        }),
        h('span', {}, option.label))),
      note);
  }

  // The engine lists, for each way to cast, the exact casts entries to send (with spell: null
  // for a hand held back under the withhold house rule); only targets already chosen carry over.
  function chooseAllocation(set, casts) {
    const previous = new Map(draft.casts);
    for (const hand of ['L', 'R', 'B']) draft.casts.delete(`${set}:${hand}`);
    for (const c of casts) {
      const before = previous.get(`${set}:${c.hand}`);
      draft.casts.set(`${set}:${c.hand}`, { spell: c.spell, target: before && c.spell && before.spell === c.spell ? before.target : undefined });
    }
    refreshPreview();
  }

  // The answer given for this monster question, if it was given for the same summons.
  function monsterAnswer(q) {
    const answer = draft.monsters[q.monster];
    return answer && answer.spell === q.spell ? answer.target : null;
  }

  function questionFields(q) {
    switch (q.kind) {
      case 'spell_choice':
        return spellChoiceField(q);
      case 'target':
        return selectField({
          label: `${q.name} (${HAND_WORDS[q.hand].toLowerCase()}${setCount > 1 ? `, set ${q.set + 1}` : ''}): cast at`,
          field: `casts.${q.set}.${q.hand}`,
          testid: `target-${q.set}-${q.hand}`,
          options: q.options,
          value: q.chosen,
          onChange: (value) => {
            draft.casts.set(`${q.set}:${q.hand}`, { spell: q.spell, target: value });
            refreshPreview();
          },
        });
      case 'stab':
        return selectField({
          label: `Stab${setCount > 1 ? ` (set ${q.set + 1})` : ''}: whom?`,
          field: 'stab',
          testid: `stab-target-${q.set}`,
          options: q.options,
          value: draft.stab[q.set] || q.default,
          onChange: (value) => { draft.stab[q.set] = value; refreshPreview(); },
        });
      case 'monster':
        return selectField({
          label: q.label,
          field: `monsters.${q.monster}`,
          testid: `monster-target-${q.monster}`,
          options: q.options,
          value: monsterAnswer(q) || q.default,
          onChange: (value) => { draft.monsters[q.monster] = { target: value, spell: q.spell }; refreshPreview(); },
        });
      case 'charm':
        return [selectField({
          label: q.prompt,
          field: 'charm',
          testid: 'charm-gesture',
          options: q.options.map((g) => ({ id: g, name: gestureLabel(g) })),
          value: draft.charm,
          placeholder: 'Choose a gesture…',
          onChange: (value) => { draft.charm = value || null; refreshPreview(); },
        }), draft.charm === '>' ? selectField({
          label: 'The charmed hand stabs',
          field: 'charm.target',
          testid: 'charm-stab-target',
          options: q.stab_targets,
          value: draft.charmTarget || q.stab_default,
          onChange: (value) => { draft.charmTarget = value || null; refreshPreview(); },
        }) : null];
      case 'hand':
        return selectField({
          label: q.prompt,
          field: `hands.${q.id}`,
          testid: `hand-${q.id.replace(':', '-')}`,
          options: q.options.map((o, i) => ({ id: o, name: (q.labels && q.labels[i]) || o })),
          value: (draft.hands && draft.hands[q.id]) || q.chosen,
          onChange: (value) => { draft.hands = { ...draft.hands, [q.id]: value }; refreshPreview(); },
        });
      case 'release':
        return selectField({
          label: `Your banked ${q.name}`,
          field: 'release',
          testid: 'release-target',
          options: q.options.map((t) => ({ id: t.id, name: `Release it at ${t.name}` })),
          value: draft.release,
          placeholder: 'Keep it banked',
          onChange: (value) => { draft.release = value || null; refreshPreview(); },
        });
      case 'bank':
      case 'permanent': {
        const key = (o) => `${o.set}:${o.hand}:${o.spell}`;
        const current = draft.flags[q.kind] || q.default;
        return selectField({
          label: q.prompt,
          field: `flags.${q.kind}`,
          testid: `${q.kind}-choice`,
          options: q.options.map((o) => ({ id: key(o), name: `${o.name} (${HAND_WORDS[o.hand].toLowerCase()})` })),
          value: key(current),
          onChange: (value) => {
            draft.flags[q.kind] = q.options.find((o) => key(o) === value) || null;
            refreshPreview();
          },
        });
      }
      default:
        // A question this page does not know yet: show it, so the player is not left guessing.
        return h('p', { class: 'warning' }, q.prompt || `The engine asks: ${q.kind}`);
    }
  }

  function handPreview(set, hand) {
    if (hand !== 'B' && charmed(hand)) {
      return h('div', { class: 'hand-preview', 'data-testid': `preview-${set.set}-${hand}` },
        h('h3', {}, HAND_WORDS[hand]), h('p', { class: 'none-yet' }, nameOf(view.wizards[hands[hand].controller].name), ' chooses this gesture (charm person).'));
    }
    if (hand !== 'B' && !draft.gestures[set.set][hand === 'L' ? 0 : 1]) {
      return h('div', { class: 'hand-preview', 'data-testid': `preview-${set.set}-${hand}` },
        h('h3', {}, HAND_WORDS[hand]), h('p', { class: 'none-yet' }, 'Choose a gesture to see what it does.'));
    }
    const completes = set.completes[hand] || [];
    const under = set.under_way[hand] || [];
    if (hand === 'B' && !completes.length && !under.length) return null;
    const casting = new Set(set.casts.filter((c) => c.hand === hand).map((c) => c.spell));
    const shown = under.slice(0, UNDER_WAY_SHOWN);
    const more = under.slice(UNDER_WAY_SHOWN);
    const wayItem = (u) => h('li', {}, h('span', { class: 'spell-name' }, u.name), ' ', sequenceView(u), h('span', { class: 'muted' }, ` needs ${u.remaining}`));
    return h('div', { class: 'hand-preview', 'data-testid': `preview-${set.set}-${hand}` },
      h('h3', {}, HAND_WORDS[hand]),
      completes.length
        ? h('ul', { class: 'completes' }, completes.map((c) => h('li', {},
          casting.has(c.spell) ? h('strong', {}, '✓ casts ') : h('span', { class: 'muted' }, 'completes '),
          h('button', { type: 'button', class: 'link spell-name', onclick: () => onSpell(c.spell), 'aria-label': `${c.name}, ${c.sequence}: open its description` }, c.name),
          ' ', h('span', { class: 'seq' }, c.sequence))))
        : h('p', { class: 'none-yet' }, 'completes no spell'),
      shown.length ? h('p', { class: 'muted' }, 'Under way:') : null,
      shown.length ? h('ul', {}, shown.map(wayItem)) : null,
      more.length ? h('details', {}, h('summary', {}, `${more.length} more under way`), h('ul', {}, more.map(wayItem))) : null);
  }

  function drawPreview() {
    const p = lastPreview;
    const focusedTestId = document.activeElement && askSlot.contains(document.activeElement) ? document.activeElement.dataset.testid : null;
    const warnings = [...p.warnings.map((w) => ({ text: w.text, severe: w.severity === 'danger' })),
      ...(problems.length ? [] : p.problems.map((x) => ({ text: x.message, severe: false })))];
    const sets = p.sets.map((set) => h('section', { class: 'card', 'aria-label': setCount > 1 ? `What gesture set ${set.set + 1} does` : 'What these gestures do' },
      h('h2', {}, setCount > 1 ? `Set ${set.set + 1}: what it does` : 'What these gestures do'),
      h('div', { class: 'preview-hands' }, ['L', 'R', 'B'].map((hand) => handPreview(set, hand)))));
    const questions = p.questions.map(questionFields);
    const opponentName = view.wizards[view.opponent].name;
    const opp = p.opponent_next || [];
    replace(askSlot,
      warnings.length ? h('ul', { class: 'warnings', 'data-testid': 'warnings' }, warnings.map((w) => h('li', { class: `warning${w.severe ? ' severe' : ''}` }, w.text))) : null,
      questions.length ? h('section', { class: 'card questions', 'data-testid': 'questions', 'aria-label': 'Choices for this turn' }, h('h2', {}, 'Choices'), questions) : null);
    replace(answersLine, answersSummary(p.questions));
    replace(previewSlot,
      sets,
      h('section', { class: 'card', 'data-testid': 'opponent-next', 'aria-label': `What ${opponentName} could complete next` },
        h('h2', {}, nameOf(opponentName), ' could complete next'),
        opp.length
          ? h('ul', {}, opp.map((o) => h('li', { 'data-yours': o.yours ? 'true' : null }, h('span', { class: 'spell-name' }, o.name), ` — ${HAND_WORDS[o.hand].toLowerCase()}${o.yours ? ' (you write its gesture this turn)' : ''}, needs `, h('span', { class: 'seq' }, o.needs))))
          // A draft (remote play, waiting for a code) cannot know: it rests on gestures not yet seen.
          : h('p', { class: 'none-yet' }, view.phase && view.phase.draft
            ? ['Not known until ', nameOf(opponentName), '’s code comes.']
            : 'Nothing that you can see.')));
    summary.textContent = p.sets.map((set) => ['L', 'R', 'B']
      .filter((hand) => (set.completes[hand] || []).length)
      .map((hand) => `${HAND_WORDS[hand]} completes ${set.completes[hand].map((c) => c.name).join(' or ')}.`).join(' ')).join(' ')
      + (p.warnings.length ? ` Warning: ${p.warnings.map((w) => w.text).join(' ')}` : '');
    if (focusedTestId) {
      const again = askSlot.querySelector(`[data-testid="${CSS.escape(focusedTestId)}"]`);
      if (again) again.focus();
    }
    keepQuestionsInView();
  }

  // The questions must not hide below the screen's edge or under the sticky seal bar (whose
  // height changes with the answers it lists): scroll just enough to show them above it.
  function keepQuestionsInView() {
    const asked = askSlot.querySelector('[data-testid=questions]');
    if (!asked || !form.isConnected) return;
    const bar = form.querySelector('.submit-bar').getBoundingClientRect();
    const box = asked.getBoundingClientRect();
    const hidden = box.bottom - bar.top;
    if (hidden <= 0) return;
    window.scrollBy({ top: Math.max(0, Math.min(hidden + 8, box.top - 8)), behavior: 'instant' });
  }

  // One line on the seal bar with every answer that will be sealed, so none goes unseen.
  function answersSummary(questions) {
    const named = (options, id) => {
      const o = (options || []).find((x) => x.id === id);
      return o ? o.name : id;
    };
    const parts = questions.map((q) => {
      if (q.kind === 'target') return `${q.name} → ${named(q.options, q.chosen)}`;
      if (q.kind === 'stab') return `stab → ${named(q.options, draft.stab[q.set] || q.default)}`;
      if (q.kind === 'monster') return `${q.name} → ${named(q.options, monsterAnswer(q) || q.default)}`;
      if (q.kind === 'charm') return `charmed hand → ${draft.charm ? gestureLabel(draft.charm) : 'not chosen'}`;
      if (q.kind === 'hand') {
        const which = named((q.options || []).map((o, i) => ({ id: o, name: (q.labels || [])[i] || o })), (draft.hands && draft.hands[q.id]) || q.chosen);
        return `hand to ${q.ask === 'paralysis' ? 'paralyse' : 'charm'} → ${which.toLowerCase()}`;
      }
      if (q.kind === 'spell_choice') return q.options[q.chosen_index] ? q.options[q.chosen_index].label : null;
      return null;
    }).filter(Boolean);
    return parts.length ? [h('span', { class: 'visually-hidden' }, 'You will seal: '), parts.join(' · ')] : null;
  }

  function drawGeneralProblems() {
    const known = new Set([...form.querySelectorAll('[data-field]')].map((el) => el.dataset.field));
    const placed = (p) => [...known].some((f) => p.field === f || p.field.startsWith(`${f}.`));
    const loose = problems.filter((p) => !placed(p));
    replace(generalProblems, loose.length ? h('ul', { class: 'warnings' }, loose.map((p) => h('li', { class: 'warning severe' }, p.message))) : null);
  }

  // ---------- submitting ----------

  async function trySubmit() {
    if (busy) return;
    const missing = [];
    draft.gestures.forEach((pair, set) => pair.forEach((g, i) => {
      if (!g) missing.push({ code: 'choose', field: `gestures.${set}.${i}`, message: `Choose what your ${i === 0 ? 'left' : 'right'} hand does: a gesture, stab or nothing.` });
    }));
    if (missing.length) {
      showProblems(missing);
      return;
    }
    busy = true;
    submitButton.disabled = true;
    try {
      // The warnings must be those of the orders being sealed: wait for their preview.
      for (let seen = null; seen !== previewToken;) {
        seen = previewToken;
        await previewDone;
      }
      const risky = (lastPreview ? lastPreview.warnings : []).filter((w) => w.confirm);
      const key = JSON.stringify(ordersJson());
      if (risky.length && armed !== key) {
        submitButton.disabled = false;
        arm(key, risky);
        return;
      }
      const found = await submit(ordersJson());
      if (found && found.length) showProblems(found);
    } finally {
      busy = false;
      if (submitButton.isConnected) submitButton.disabled = false;
    }
  }

  // Sealing orders the engine warns about takes a second press, with the warnings in view.
  function arm(key, risky) {
    armed = key;
    replace(confirmSlot, h('div', { class: 'confirm-risk', role: 'alert', 'data-testid': 'confirm-risky' },
      h('p', {}, h('strong', {}, 'Check before sealing: ')),
      h('ul', {}, risky.map((w) => h('li', {}, w.text))),
      h('p', {}, 'Press the button again to seal these orders as they are, or change the choice above.')));
    submitButton.textContent = 'Seal anyway';
    submitButton.focus();
  }

  function disarm() {
    if (armed === null) return;
    armed = null;
    replace(confirmSlot);
    submitButton.textContent = submitLabel;
  }

  function showProblems(list) {
    problems = list;
    drawPads();
    if (lastPreview) drawPreview();
    drawGeneralProblems();
    // Focus the first control that has a problem (a gesture, a list), else the problem list itself.
    const first = ['.has-problem input:not(:disabled)', 'select.has-problem', '.has-problem']
      .map((selector) => form.querySelector(selector)).find(Boolean) || generalProblems;
    if (first) {
      if (!first.hasAttribute('tabindex') && !/^(INPUT|SELECT|BUTTON)$/.test(first.tagName)) first.setAttribute('tabindex', '-1');
      first.focus();
    }
  }

  // ---------- keyboard ----------

  // Enter on a gesture moves on to the next hand, then to the choices, then to the seal button,
  // instead of sealing half-written orders.
  function moveOn(fromRadio) {
    const stops = [...pads.querySelectorAll('fieldset.hand')].map((fs) => fs.querySelector('input:checked:not(:disabled)') || fs.querySelector('input:not(:disabled)'));
    const here = stops.findIndex((input) => input && input.name === fromRadio.name);
    const next = stops.slice(here + 1).find(Boolean)
      || askSlot.querySelector('[data-testid=questions] select, [data-testid=questions] input')
      || submitButton;
    next.focus();
  }

  function onKey(event) {
    if (isDialogOpen() || !form.isConnected) return;
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      trySubmit();
      return;
    }
    if (event.key === 'Enter' && event.target instanceof HTMLInputElement && event.target.type === 'radio' && pads.contains(event.target)) {
      event.preventDefault();
      moveOn(event.target);
      return;
    }
    if (isTyping(event.target)) return;
    const pick = gestureForKey(event);
    if (!pick) return;
    const holder = document.activeElement && document.activeElement.closest ? document.activeElement.closest('[data-set]') : null;
    const set = holder && pads.contains(holder) ? Number(holder.dataset.set) : 0;
    event.preventDefault();
    setGesture(set, pick.hand, pick.code);
  }
  document.addEventListener('keydown', onKey);

  drawPads();
  drawHistories();
  replace(previewSlot, h('p', { class: 'busy' }, 'Reading the gestures…'));
  refreshPreview();

  return {
    element: form,
    histories: historiesSlot,
    useGestures,
    destroy: () => document.removeEventListener('keydown', onKey),
  };
}
