// The replay viewer's screen: one step of a recorded duel as either wizard saw it, or both side
// by side, with the controls to step through it. Everything drawn is the engine's replay step
// (views with their notes, and each wizard's events of that step); web/replay.js owns the cursor.

import { h, named, nameOf } from './dom.js';
import { renderHistories, renderStatus } from './board.js';
import { renderLog } from './log.js';
import { savedDuelsButton } from './saved.js';
import { isTyping, onKeys } from './keys.js';
import { say } from './words/index.js';
import { sceneCard } from './scene/card.js';

// A step paused for a decision: the gestures revealed so far, as this view shows them.
function revealedNow(view, names) {
  const revealed = view.phase.kind === 'decision' ? Object.entries(view.phase.revealed || {}) : [];
  if (!revealed.length) return null;
  return h('ul', { 'data-testid': 'replay-revealed', 'aria-label': say('replay-revealed-label') }, revealed.map(([w, sets]) => h('li', {},
    h('strong', {}, nameOf(names[Number(w)])), ': ', say('replay-revealed-sets', { sets }))));
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
  // 'both': every wizard's view side by side (a melee's three to six too).
  const sides = perspective === 'both' ? views.map((_, i) => i) : [Number(perspective)];
  const scenes = [];
  const side = (i) => {
    const v = views[i];
    const happened = events[String(i)] || [];
    // The same scene as the duel's, playing this step's events (a step paused for a decision
    // shows the gestures revealed so far).
    const scene = sceneCard(v, { events: happened, sound });
    scenes.push(scene);
    return h('section', { class: 'replay-side', 'data-testid': `replay-side-${i}`, 'aria-label': say('replay-as-seen', { name: names[i] }) },
      h('h2', {}, named(say('replay-as-seen', { name: names[i] }))),
      scene.element,
      h('section', { class: 'card outcome', 'data-testid': `replay-events-${i}` },
        h('h3', {}, step === 0 ? say('replay-the-duel-is-about-to') : say('replay-what-happened-in-this-step')),
        revealedNow(v, names),
        step === 0 || (!happened.length && v.phase.kind === 'decision') ? null : renderLog(happened, { testid: `replay-log-${i}`, headings: false })),
      renderStatus(v),
      renderHistories(v, null, true),
      v.log.length ? h('details', { class: 'panel card', 'data-testid': `replay-whole-log-${i}` },
        h('summary', {}, say('replay-log-so-far', { n: v.log.length })),
        h('div', { class: 'log-whole' }, renderLog(v.log, { latestTurn: v.log[v.log.length - 1].turn }))) : null,
      // On paper the whole account up to this step is printed, folded or not on screen.
      v.log.length ? h('section', { class: 'print-only card' }, h('h3', {}, named(say('replay-account-as-seen', { name: names[i] }))),
        renderLog(v.log, { testid: `replay-print-log-${i}` })) : null);
  };
  const result = views[0].result;
  const linkSlot = h('div', { class: 'replay-link' });
  const element = h('section', { class: 'duel-screen', 'data-testid': 'replay-screen', 'data-step': String(step), 'data-steps': String(steps) },
    h('div', { class: 'duel-head' },
      h('h1', { tabindex: '-1' }, named(say('replay-title', { names }))),
      savedDuelsButton(onHome)),
    h('div', { class: 'replay-bar', role: 'group', 'aria-label': say('replay-step-through-the-duel') },
      button('replay-first', '|◀', say('replay-first-step-home'), 0),
      button('replay-prev', '◀', say('replay-step-back'), step - 1),
      h('span', { class: 'step-label', 'data-testid': 'replay-step-label', 'aria-live': 'polite' }, say('replay-step-of', { label, step, last })),
      button('replay-next', '▶', say('replay-step-forward'), step + 1),
      button('replay-last', '▶|', say('replay-last-step-end'), last)),
    h('div', { class: 'tabs', role: 'group', 'aria-label': say('replay-whose-view') },
      [...names.map((name, i) => [String(i), named(say('replay-as-seen', { name }))]), ['both', say(names.length > 2 ? 'melee-replay-all' : 'replay-both-views')]].map(([p, text]) => h('button', {
        type: 'button', 'aria-pressed': String(p === perspective), 'data-testid': `replay-perspective-${p}`, onclick: () => onPerspective(p),
      }, text)),
      h('button', {
        type: 'button', 'data-testid': 'replay-copy-link',
        onclick: async () => {
          // The link is also shown, to select by hand where the clipboard is refused.
          const { link, copied } = await onCopyLink();
          const field = h('input', { type: 'text', readonly: true, value: link, 'data-testid': 'replay-link', 'aria-label': say('replay-link-to-this-replay'), onfocus: (e) => e.target.select() });
          linkSlot.replaceChildren(h('p', { class: 'muted' }, copied ? say('replay-copied-whoever-opens-this-link') : say('replay-copy-this-link-whoever-opens')), field);
        },
      }, say('replay-copy-a-link-to-this')),
      h('button', { type: 'button', 'data-testid': 'replay-print', onclick: onPrint }, say('replay-print-the-account'))),
    linkSlot,
    step === last && result ? h('p', { class: 'card result', 'data-testid': 'replay-result' },
      h('strong', {}, result.winner === null ? say('replay-a-draw') : named(say('replay-wins', { name: names[result.winner] }))), result.how ? ` — ${result.how}` : '') : null,
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
