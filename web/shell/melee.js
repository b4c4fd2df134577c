// The melee on one device, drawn: each outcome of web/flows/melee.js becomes its screen, and
// each screen's intents go back to the flow; and the start screen's mode that begins one.
// Drawing and wiring only; the flow decides.

import { passScreen } from '../ui/screens/between.js';
import { decisionScreen, gameOverScreen } from '../ui/duel.js';
import { thinkingScreen } from '../ui/opponent.js';
import { meleeOrdersScreen, meleeSetup } from '../ui/screens/melee.js';
import { say } from '../ui/words.js';

/**
 * createMeleeScreens({flow, api, show, fail, toast, goHome, useRules, openReference, exportDuel})
 * -> draw(outcomePromise): shows what the flow answered.
 */
export function createMeleeScreens({ flow, api, show, fail, toast, goHome, useRules, openReference, exportDuel }) {
  async function draw(outcomePromise) {
    const outcome = await outcomePromise;
    if (outcome.ruleset) useRules(outcome.ruleset);
    const drawer = SCREENS[outcome.screen];
    if (drawer) drawer(outcome);
  }

  const SCREENS = {
    left: () => {},
    fail: (o) => fail(say(o.code, { message: o.error.message })),
    pass: (o) => show(passScreen({
      name: o.name, other: say('melee-others', { names: o.others }), kind: o.kind,
      onReady: () => draw(flow.ready(o.wizard)), onHome: goHome,
    })),
    thinking: (o) => {
      show(thinkingScreen({ name: o.name, level: o.level }));
      draw(flow.think());
    },
    decision: (o) => {
      const s = decisionScreen({ view: o.view, seen: o.seen, submit: (input) => submit(o, input), onHome: goHome });
      show(s.element, s.destroy);
    },
    orders: (o) => {
      const duel = flow.duel();
      const s = meleeOrdersScreen({
        view: o.view, rows: o.rows, unruly: o.unruly, seen: o.seen,
        preview: (draft) => api.preview(duel.game, o.wizard, draft),
        submit: (orders) => submit(o, orders),
        onSpell: (key) => openReference({ spell: key }),
        onHome: goHome,
        saved: o.saved,
        onDraft: (draft) => flow.keepDraft(o.wizard, o.view, draft),
      });
      show(s.element, s.destroy);
    },
    over: (o) => {
      const duel = flow.duel();
      const s = gameOverScreen({
        views: o.views,
        perspectives: o.perspectives,
        onRematch: () => draw(flow.rematch(o.views).then((r) => {
          if (r.error) toast(r.error.message, 'error');
          return r.error ? { screen: 'left' } : r;
        })),
        onExport: () => exportDuel(duel),
        onHome: goHome,
      });
      show(s.element, s.destroy);
    },
  };

  async function submit(o, input) {
    const answer = await flow.submit(o.wizard, input, o.view);
    if (answer.problems.length) return answer.problems;
    draw(answer.next);
    return [];
  }

  return draw;
}

/**
 * meleeMode({flow, draw}) -> the start screen's mode for a melee on this device: its seats
 * (web/ui/screens/melee.js's meleeSetup, made afresh for each start screen) and its beginning.
 */
export function meleeMode({ flow, draw }) {
  let setup = null;
  return {
    id: 'melee',
    label: say('melee-mode'),
    hint: say('melee-mode-hint'),
    extra: () => {
      setup = meleeSetup();
      return setup.element;
    },
    begin: async ({ names, ruleset }) => {
      const { names: all, seats } = setup ? setup.chosen(names[0], names[1]) : { names, seats: [] };
      if (all.some((n) => !n)) return say('melee-size');
      const first = await flow.begin({ names: all, ruleset, seats });
      if (first.error) return first.error.code === 'melee-size' ? say('melee-size') : first.error.message;
      draw(first);
      return null;
    },
  };
}
