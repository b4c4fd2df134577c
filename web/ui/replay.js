// The replay viewer's screen: one step of a recorded duel as either wizard saw it, or both side
// by side, with the controls to step through it. Everything drawn is the engine's replay step
// (views with their notes, and each wizard's events of that step); web/replay.js owns the cursor.

import { h, nameOf } from './dom.js';
import { renderHistories, renderStatus } from './board.js';
import { renderLog } from './log.js';
import { savedDuelsButton } from './saved.js';
import { isTyping, onKeys } from './keys.js';
import { sceneCard } from './scene/card.js';

const SPOKEN = { '>': 'a stab', '-': 'nothing', '?': 'hidden' };

// A step paused for a decision: the gestures revealed so far, as this view shows them.
function revealedNow(view, names) {
  const revealed = view.phase.kind === 'decision' ? Object.entries(view.phase.revealed || {}) : [];
  if (!revealed.length) return null;
  return h('ul', { 'data-testid': 'replay-revealed', 'aria-label': 'Gestures revealed' }, revealed.map(([w, sets]) => h('li', {},
    h('strong', {}, nameOf(names[Number(w)])), ': ',
    sets.map(([l, r], si) => `${si ? '; then ' : ''}left ${SPOKEN[l] || l}, right ${SPOKEN[r] || r}`).join(''))));
}

/**
 * replayScreen(opts) -> {element, destroy}.
 * opts: {data: {step, steps, label, views, events}, perspective: '0'|'1'|'both', onStep(index),
 *        onPerspective(p), onCopyLink() -> Promise<{link, copied}>, onPrint(), onHome, sound}
 *        (sound: the scene's sound switch, {on, onChange(on)}, or null).
 */
export function replayScreen({ data, perspective, onStep, onPerspective, onCopyLink, onPrint, onHome, sound = null }) {
  const { step, steps, label, views, events } = data;
  const names = views[0].names;
  const last = steps - 1;
  const go = (index) => { if (index >= 0 && index <= last && index !== step) onStep(index); };
  const button = (testid, text, title, index) => h('button', {
    type: 'button', 'data-testid': testid, title, 'aria-label': title, disabled: index < 0 || index > last || index === step,
    onclick: () => go(index),
  }, text);
  const sides = perspective === 'both' ? [0, 1] : [Number(perspective)];
  const scenes = [];
  const side = (i) => {
    const v = views[i];
    const happened = events[String(i)] || [];
    // The same scene as the duel's, playing this step's events (a step paused for a decision
    // shows the gestures revealed so far).
    const scene = sceneCard(v, { events: happened, sound });
    scenes.push(scene);
    return h('section', { class: 'replay-side', 'data-testid': `replay-side-${i}`, 'aria-label': `As ${names[i]} saw it` },
      h('h2', {}, 'As ', nameOf(names[i]), ' saw it'),
      scene.element,
      h('section', { class: 'card outcome', 'data-testid': `replay-events-${i}` },
        h('h3', {}, step === 0 ? 'The duel is about to begin' : 'What happened in this step'),
        revealedNow(v, names),
        step === 0 || (!happened.length && v.phase.kind === 'decision') ? null : renderLog(happened, { testid: `replay-log-${i}`, headings: false })),
      renderStatus(v),
      renderHistories(v, null, true),
      v.log.length ? h('details', { class: 'panel card', 'data-testid': `replay-whole-log-${i}` },
        h('summary', {}, `Battle log so far (${v.log.length} event${v.log.length === 1 ? '' : 's'})`),
        h('div', { class: 'log-whole' }, renderLog(v.log, { latestTurn: v.log[v.log.length - 1].turn }))) : null,
      // On paper the whole account up to this step is printed, folded or not on screen.
      v.log.length ? h('section', { class: 'print-only card' }, h('h3', {}, 'The account so far, as ', nameOf(names[i]), ' saw it'),
        renderLog(v.log, { testid: `replay-print-log-${i}` })) : null);
  };
  const result = views[0].result;
  const linkSlot = h('div', { class: 'replay-link' });
  const element = h('section', { class: 'duel-screen', 'data-testid': 'replay-screen', 'data-step': String(step), 'data-steps': String(steps) },
    h('div', { class: 'duel-head' },
      h('h1', { tabindex: '-1' }, 'Replay: ', nameOf(names[0]), ' vs ', nameOf(names[1])),
      savedDuelsButton(onHome)),
    h('div', { class: 'replay-bar', role: 'group', 'aria-label': 'Step through the duel' },
      button('replay-first', '|◀', 'First step (Home)', 0),
      button('replay-prev', '◀', 'Step back (←)', step - 1),
      h('span', { class: 'step-label', 'data-testid': 'replay-step-label', 'aria-live': 'polite' }, `${label} · step ${step} of ${last}`),
      button('replay-next', '▶', 'Step forward (→)', step + 1),
      button('replay-last', '▶|', 'Last step (End)', last)),
    h('div', { class: 'tabs', role: 'group', 'aria-label': 'Whose view' },
      [['0', ['As ', nameOf(names[0]), ' saw it']], ['1', ['As ', nameOf(names[1]), ' saw it']], ['both', 'Both views']].map(([p, text]) => h('button', {
        type: 'button', 'aria-pressed': String(p === perspective), 'data-testid': `replay-perspective-${p}`, onclick: () => onPerspective(p),
      }, text)),
      h('button', {
        type: 'button', 'data-testid': 'replay-copy-link',
        onclick: async () => {
          // The link is also shown, to select by hand where the clipboard is refused.
          const { link, copied } = await onCopyLink();
          const field = h('input', { type: 'text', readonly: true, value: link, 'data-testid': 'replay-link', 'aria-label': 'Link to this replay', onfocus: (e) => e.target.select() });
          linkSlot.replaceChildren(h('p', { class: 'muted' }, copied ? 'Copied. Whoever opens this link can replay the duel:' : 'Copy this link; whoever opens it can replay the duel:'), field);
        },
      }, 'Copy a link to this replay'),
      h('button', { type: 'button', 'data-testid': 'replay-print', onclick: onPrint }, 'Print the account')),
    linkSlot,
    step === last && result ? h('p', { class: 'card result', 'data-testid': 'replay-result' },
      h('strong', {}, result.winner === null ? 'A draw' : [nameOf(names[result.winner]), ' wins']), result.how ? ` — ${result.how}` : '') : null,
    h('div', { class: `replay-sides${sides.length > 1 ? ' both' : ''}` }, sides.map(side)));
  const onKey = (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey || !element.isConnected) return;
    // Arrows on a field (the perspective's choices too) are that field's.
    if (isTyping(event.target) || event.target.tagName === 'INPUT') return;
    const to = { ArrowLeft: step - 1, ArrowRight: step + 1, Home: 0, End: last }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    go(to);
  };
  onKeys(element, onKey);
  return { element, destroy: () => scenes.forEach((s) => s.destroy()) };
}
