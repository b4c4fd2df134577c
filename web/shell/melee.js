// The melee on one device, drawn: each outcome of web/flows/melee.js becomes its screen, and
// each screen's intents go back to the flow; and the start screen's mode that begins one.
// Drawing and wiring only; the flow decides.

import { passScreen } from '../ui/screens/between.js';
import { meleeOrdersScreen, meleeSetup } from '../ui/screens/melee.js';
import { say } from '../ui/words/index.js';
import { createLocalScreens, ordersCalls } from './local.js';

/**
 * createMeleeScreens({flow, api, show, fail, toast, goHome, useRules, openReference, exportDuel})
 * -> draw(outcomePromise): shows what the flow answered; the duel's screens (web/shell/local.js)
 * but for the hand-over (everyone else at the device looks away) and the orders (every wizard's
 * row above the form). No replay is offered at the end: the replay shows two wizards.
 */
export function createMeleeScreens({ flow, api, show, fail, toast, goHome, useRules, openReference, exportDuel }) {
  return createLocalScreens({
    flow, api, show, fail, toast, goHome, useRules, openReference, exportDuel, openReplay: null,
    screens: ({ draw, submit }) => ({
      pass: (o) => show(passScreen({
        name: o.name, other: say('melee-others', { names: o.others }), kind: o.kind,
        onReady: () => draw(flow.ready(o.wizard)), onHome: goHome,
      })),
      orders: (o) => {
        const duel = flow.duel();
        const s = meleeOrdersScreen({
          view: o.view, rows: o.rows, unruly: o.unruly, seen: o.seen,
          ...ordersCalls({ o, duel, api, flow, submit, openReference, goHome }),
        });
        show(s.element, s.destroy);
      },
    }),
  });
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
