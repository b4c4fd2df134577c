// The screen host and the list of ways to play, each a small factory so that the shell keeps no
// state of its own at module level.

import { focusFirst, h, replace } from '../ui/dom.js';

/**
 * createHost(screen, toasts, announcer) -> {show(element, destroy?), toast(message, kind?)}: one
 * screen at a time in `screen` (the previous one's destroy() runs first), passing notes in
 * `toasts`. A screen's turn result ([data-announce], ui/duel.js renderOutcome) is read out through
 * `announcer`, a polite live region that outlives the screens (a region made with its screen
 * would not be heard), however the turn was resolved.
 */
export function createHost(screen, toasts, announcer = null) {
  let destroyShown = () => {};
  const announce = (root) => {
    const said = root.querySelector('[data-announce]');
    if (!announcer) return;
    announcer.textContent = '';
    // (a change the region's readers hear: emptied first, filled on the next frame)
    if (said) requestAnimationFrame(() => { announcer.textContent = said.getAttribute('data-announce'); });
  };
  function show(element, destroy = () => {}) {
    destroyShown();
    destroyShown = destroy;
    // Every screen but the first fades in (style.css, `.screen.fades`): the first replaces the
    // boot note while the engine boots, and its fade cost ~70 ms of the compositor's CPU that the
    // boot, on two cores, waited for (docs/build.md, "A first visit", tenth round).
    if (!screen.querySelector(':scope > .boot-note')) screen.classList.add('fades');
    replace(screen, element);
    window.scrollTo(0, 0);
    focusFirst(screen);
    announce(screen);
  }
  function toast(message, kind = '') {
    const el = h('div', { class: `toast ${kind}`.trim() }, message);
    toasts.append(el);
    setTimeout(() => el.remove(), 5000);
  }
  return { show, toast };
}

/**
 * createModes(onAdded) -> {register(mode), get(id), list(), label(id)}: the ways to play the start
 * screen offers ({id, label, hint, extra?() -> element, begin({names, ruleset}) -> Promise<string|null>});
 * onAdded() hears each one registered.
 */
export function createModes(onAdded) {
  const modes = new Map();
  return {
    register(mode) {
      modes.set(mode.id, mode);
      onAdded();
    },
    get: (id) => modes.get(id),
    list: () => [...modes.values()],
    label: (id) => (modes.get(id) || { label: id }).label,
  };
}
