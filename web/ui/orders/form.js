// The orders form for one wizard: gesture pads per hand (and per gesture set when hastened), the
// engine's preview of what the draft would do, the questions it asks (spell choice, targets,
// stab, monsters, charm, banked spell) and the problems `validate` reports, each beside its field.
// The draft is a model of its own (draft.js); what it means is always asked of the engine
// through `preview`. This module draws it and hands the player's picks to it.

import { createKeyed, h, named as withNames, replace } from '../dom.js';
import { gestureForKey, gestureLabel, renderHand } from '../gesturepad.js';
import { renderHistories } from '../board.js';
import { replaceDraftRows } from '../history.js';
import { isDialogOpen } from '../dialog.js';
import { isTyping, onKeys } from '../keys.js';
import { createOrdersDraft } from './draft.js';
import { createQuestions, HAND_WORDS } from './questions.js';
import { answersRecap, handPreview, opponentNext } from './preview.js';
import { say } from '../words/index.js';

// Names for the engine's reasons (`why`) a hand is constrained.
const WHY_WORDS = { paralysis: say('orders-why-paralysis'), amnesia: say('orders-why-amnesia'), charm: say('orders-charm-person') };
/**
 * createOrders(opts) -> {element, histories, useGestures(sets, charm), destroy} for one wizard's orders
 * (useGestures: whole gesture sets into the draft, [[left, right], ...]; fixed hands keep theirs;
 * charm: the orders' {gesture, target?} for the opponent's hand this wizard charmed, or none).
 * opts: {view, preview(draft) -> Promise<result>, submit(orders) -> Promise<problems[]>, onSpell(key), submitLabel,
 *        saved (a draft from onDraft, to carry on with), onDraft(draft, orders) (called with every change, to save
 *        it; `orders` is the same draft as orders JSON)}.
 */
export function createOrders({ view, preview, submit, onSpell, submitLabel = say('orders-seal-my-orders'), saved = null, onDraft = () => {} }) {
  const model = createOrdersDraft({ view, saved, preview, onDraft, onPreview: () => showPreview() });
  const { draft, setCount, hands, banned, allowed, charmed } = model;
  let busy = false;

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
  const form = h('form', { class: 'orders', 'data-testid': 'orders-form', novalidate: true, 'aria-label': say('orders-your-orders') },
    generalProblems, pads, summary, askSlot,
    h('div', { class: 'submit-bar', 'data-testid': 'submit-bar' }, confirmSlot, answersLine, submitButton, h('span', { class: 'muted key-hint' }, h('kbd', {}, 'Ctrl'), '+', h('kbd', {}, 'Enter'))),
    previewSlot);
  form.addEventListener('submit', (event) => { event.preventDefault(); trySubmit(); });

  // ---------- gesture pads ----------

  function handProblem(set, hand) {
    const field = `gestures.${set}.${hand === 'L' ? 0 : 1}`;
    return model.problems.filter((p) => p.field === field).map((p) => p.message).join(' ');
  }

  function handNote(hand) {
    const c = hands[hand];
    const notes = [];
    const why = WHY_WORDS[c.why] || c.why;
    if (c.forced) notes.push(say('orders-forced', { why, gesture: gestureLabel(c.forced) }));
    else if (charmed(hand)) notes.push(withNames(say('orders-charmed-locked', { why, name: view.wizards[c.controller].name })));
    else if (c.why) notes.push(`${why}.`);
    if (banned.size) notes.push(say('orders-fear', { banned: [...banned].join(', ') }));
    // Children, not one string: a wizard's name stays in its own <bdi>.
    return notes.length ? notes.flatMap((n, i) => (i ? [' ', n] : [n])) : '';
  }

  // Each hand's pad is drawn again only when what it shows changes (its gestures allowed, forced
  // or locked, its note, its problem); a new pick only checks another of its buttons.
  const padSets = draft.gestures.map((pair, set) => h('section', { class: 'gesture-set', 'data-set': String(set), 'aria-label': setCount > 1 ? say('orders-gesture-set', { n: set + 1 }) : say('orders-gestures') },
    setCount > 1 ? h('h3', {}, set === 0 ? say('orders-first-gesture-set') : say('orders-second-gesture-set-haste')) : null,
    h('div', { class: 'hands' })));
  const padsKeyed = padSets.map(() => createKeyed());
  pads.append(...padSets);

  function padItem(set, hand, value) {
    const props = { set, hand, allowed, forced: hands[hand].forced, locked: charmed(hand), note: handNote(hand), problem: handProblem(set, hand) };
    const note = [].concat(props.note).map((n) => (n instanceof Node ? n.textContent : n));
    return { key: JSON.stringify({ ...props, allowed: allowed && [...allowed], note }), draw: () => renderHand({ ...props, value, onChange: (code) => setGesture(set, hand, code) }) };
  }

  function drawPads() {
    const focusedTestId = document.activeElement && pads.contains(document.activeElement) ? document.activeElement.dataset.testid : null;
    draft.gestures.forEach((pair, set) => {
      const holder = padSets[set].lastChild;
      padsKeyed[set](holder, ['L', 'R'].map((hand, i) => padItem(set, hand, pair[i])));
      // A pad kept from before shows this draft's pick.
      ['L', 'R'].forEach((hand, i) => {
        const locked = charmed(hand);
        for (const input of holder.querySelectorAll(`input[name="gesture-${set}-${hand}"]`)) {
          const on = !locked && input.value === pair[i];
          if (input.checked !== on) input.checked = on;
        }
      });
    });
    if (focusedTestId && !pads.contains(document.activeElement)) {
      const again = pads.querySelector(`[data-testid="${CSS.escape(focusedTestId)}"]`);
      if (again) again.focus();
    }
  }

  // The histories are drawn once; a new pick redraws only the owner's unsent row(s).
  let historiesDrawn = false;
  function drawHistories() {
    // A charmed hand's gesture is the opponent's secret until the reveal.
    const shown = draft.gestures.map((pair) => pair.map((g, i) => (charmed(i === 0 ? 'L' : 'R') ? '?' : g)));
    const own = historiesDrawn && historiesSlot.querySelector(`[data-testid="history-${view.wizard}"]`);
    if (own) replaceDraftRows(own, shown);
    else replace(historiesSlot, renderHistories(view, shown));
    historiesDrawn = true;
  }

  function setGesture(set, hand, code) {
    if (!model.putGesture(set, hand, code)) return;
    drawPads();
    drawHistories();
    refreshPreview();
  }

  // Whole gesture sets at once ([[left, right], ...], as the coach gives them), drawn once.
  function useGestures(sets, charm = null) {
    model.useGestures(sets, charm);
    drawPads();
    drawHistories();
    refreshPreview();
  }

  // ---------- preview and questions ----------

  function refreshPreview() {
    disarm();
    previewSlot.setAttribute('aria-busy', 'true');
    return model.refresh();
  }

  // The newest preview arrived (model.lastPreview), or the engine could not make it.
  function showPreview() {
    previewSlot.setAttribute('aria-busy', 'false');
    if (model.previewError) {
      replace(previewSlot, h('p', { class: 'problem' }, say('orders-preview-failed', { message: model.previewError.message })));
      return;
    }
    drawPreview();
  }

  // An answer to one of the engine's questions goes into the draft, and the preview follows it.
  function answer(q, value) {
    model.answer(q, value);
    refreshPreview();
  }

  const questionFields = createQuestions({ model, answer, onAllocation: (set, casts) => { model.chooseAllocation(set, casts); refreshPreview(); } });

  // What a preview draws is keyed by the data it is drawn from: a part whose data did not change
  // (the other hand's spells, the opponent's threats, a question already answered) is kept.
  const askKeyed = createKeyed();
  const questionsKeyed = createKeyed();
  const previewKeyed = createKeyed();
  const handsPreviewKeyed = []; // per gesture set
  let recapShown = null; // the seal bar's recap drawn

  // The draft's answers to the engine's questions (what questionFields reads besides the question).
  const answersKey = () => JSON.stringify([draft.stab, draft.monsters, draft.charm, draft.charmTarget, draft.hands, draft.release, draft.flags, model.problems]);

  // A question's field(s) as one element (the charm asks a gesture, and whom a charmed stab goes at).
  function questionField(q) {
    const fields = [].concat(questionFields(q)).filter(Boolean);
    return fields.length === 1 ? fields[0] : h('div', {}, fields);
  }

  function drawPreview() {
    const p = model.lastPreview;
    const focusedTestId = document.activeElement && askSlot.contains(document.activeElement) ? document.activeElement.dataset.testid : null;
    const warnings = [...p.warnings.map((w) => ({ text: w.text, severe: w.severity === 'danger' })),
      ...(model.problems.length ? [] : p.problems.map((x) => ({ text: x.message, severe: false })))];
    const sets = p.sets.map((set) => ({
      key: `set ${set.set}`,
      draw: () => h('section', { class: 'card', 'aria-label': setCount > 1 ? say('orders-set-does', { n: set.set + 1 }) : say('orders-what-these-gestures-do') },
        h('h2', {}, setCount > 1 ? say('orders-set-does-head', { n: set.set + 1 }) : say('orders-what-these-gestures-do')),
        h('div', { class: 'preview-hands' })),
    }));
    // (a melee has no one opponent: the others' threats are in its table, web/ui/screens/melee.js)
    const opponentName = view.opponent === null || view.opponent === undefined ? null : view.wizards[view.opponent].name;
    const opp = p.opponent_next || [];
    let asked = false; // whether a warning, a question's field or the recap was drawn anew
    const answers = answersKey();
    const risks = JSON.stringify(p.warnings.filter((w) => w.confirm));
    const questions = p.questions.map((q) => ({ key: JSON.stringify([q, answers, risks]), draw: () => { asked = true; return questionField(q); } }));
    askKeyed(askSlot, [
      warnings.length ? { key: JSON.stringify(warnings), draw: () => (asked = true) && h('ul', { class: 'warnings', 'data-testid': 'warnings' }, warnings.map((w) => h('li', { class: `warning${w.severe ? ' severe' : ''}` }, w.text))) } : null,
      questions.length ? { key: 'questions', draw: () => h('section', { class: 'card questions', 'data-testid': 'questions', 'aria-label': say('orders-choices-for-this-turn') }) } : null,
    ]);
    const section = askSlot.querySelector('[data-testid=questions]');
    if (section) questionsKeyed(section, [{ key: 'head', draw: () => h('h2', {}, say('orders-choices')) }, ...questions]);
    const recap = answersRecap(p.questions, model);
    if (recapShown !== recap) {
      asked = true;
      recapShown = recap;
      replace(answersLine, recap ? [h('span', { class: 'visually-hidden' }, say('orders-you-will-seal')), recap] : null);
    }
    previewKeyed(previewSlot, [
      ...sets,
      opponentName === null ? null : { key: JSON.stringify(opp), draw: () => opponentNext(opp, { name: opponentName, draft: Boolean(view.phase && view.phase.draft) }) },
    ]);
    // Each hand's part of a set's card: what it completes and builds (the spells, not their targets).
    p.sets.forEach((set, i) => {
      const hand = (which) => {
        const gesture = which === 'B' ? null : draft.gestures[set.set][which === 'L' ? 0 : 1];
        const charmer = which !== 'B' && charmed(which) ? view.wizards[hands[which].controller].name : null;
        const casting = set.casts.filter((c) => c.hand === which).map((c) => c.spell);
        return { key: JSON.stringify([which, gesture, charmer, casting, set.completes[which], set.under_way[which]]), draw: () => handPreview(set, which, { gesture, charmer, onSpell }) };
      };
      handsPreviewKeyed[i] = handsPreviewKeyed[i] || createKeyed();
      handsPreviewKeyed[i](previewSlot.children[i].querySelector('.preview-hands'), ['L', 'R', 'B'].map(hand));
    });
    const said = p.sets.map((set) => ['L', 'R', 'B']
      .filter((hand) => (set.completes[hand] || []).length)
      .map((hand) => `${HAND_WORDS[hand]} completes ${set.completes[hand].map((c) => c.name).join(' or ')}.`).join(' ')).join(' ')
      + (p.warnings.length ? ` Warning: ${p.warnings.map((w) => w.text).join(' ')}` : '');
    if (summary.textContent !== said) summary.textContent = said;
    if (focusedTestId && !askSlot.contains(document.activeElement)) {
      const again = askSlot.querySelector(`[data-testid="${CSS.escape(focusedTestId)}"]`);
      if (again) again.focus();
    }
    // (measuring the page forces its layout: only when the questions or the seal bar changed)
    if (asked) keepQuestionsInView();
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

  function drawGeneralProblems() {
    const known = new Set([...form.querySelectorAll('[data-field]')].map((el) => el.dataset.field));
    const placed = (p) => [...known].some((f) => p.field === f || p.field.startsWith(`${f}.`));
    const loose = model.problems.filter((p) => !placed(p));
    replace(generalProblems, loose.length ? h('ul', { class: 'warnings' }, loose.map((p) => h('li', { class: 'warning severe' }, p.message))) : null);
  }

  // ---------- submitting ----------

  async function trySubmit() {
    if (busy) return;
    const missing = model.missing();
    if (missing.length) {
      showProblems(missing);
      return;
    }
    busy = true;
    submitButton.disabled = true;
    try {
      // The warnings must be those of the orders being sealed: the model waits for their preview.
      const ready = await model.readyToSeal();
      if (ready.confirm) {
        submitButton.disabled = false;
        arm(ready.confirm);
        return;
      }
      const found = await submit(ready.orders);
      if (found && found.length) showProblems(found);
    } finally {
      busy = false;
      if (submitButton.isConnected) submitButton.disabled = false;
    }
  }

  // Sealing orders the engine warns about takes a second press, with the warnings in view.
  function arm(risky) {
    replace(confirmSlot, h('div', { class: 'confirm-risk', role: 'alert', 'data-testid': 'confirm-risky' },
      h('p', {}, h('strong', {}, say('orders-check-before-sealing'))),
      h('ul', {}, risky.map((w) => h('li', {}, w.text))),
      h('p', {}, say('orders-press-the-button-again-to'))));
    submitButton.textContent = say('orders-seal-anyway');
    submitButton.focus();
  }

  function disarm() {
    if (!confirmSlot.firstChild) return;
    replace(confirmSlot);
    submitButton.textContent = submitLabel;
  }

  function showProblems(list) {
    model.problems = list;
    drawPads();
    if (model.lastPreview) drawPreview();
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
    if (event.key === 'Enter' && !event.altKey && event.target instanceof HTMLSelectElement && askSlot.contains(event.target)) {
      // Enter on a list (whom a spell or stab goes at) moves on, as on a gesture; Space opens it.
      event.preventDefault();
      const fields = [...askSlot.querySelectorAll('select:not(:disabled), input:not(:disabled)')];
      (fields[fields.indexOf(event.target) + 1] || submitButton).focus();
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
  onKeys(form, onKey);

  drawPads();
  drawHistories();
  replace(previewSlot, h('p', { class: 'busy' }, say('orders-reading-the-gestures')));
  refreshPreview();

  return {
    element: form,
    histories: historiesSlot,
    useGestures,
    destroy: () => {},
  };
}
