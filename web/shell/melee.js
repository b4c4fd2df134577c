// The melee on one device, drawn: each outcome of web/flows/melee.js becomes its screen, and
// each screen's intents go back to the flow; and the start screen's mode that begins one.
// Drawing and wiring only; the flow decides.

import { passScreen } from '../ui/screens/between.js';
import { meleeDecisionScreen, meleeOrdersScreen, meleeSetup } from '../ui/screens/melee.js';
import { meleeEndScreen } from '../ui/screens/melee-end.js';
import { say } from '../ui/words/index.js';
import { createLocalScreens, ordersCalls } from './local.js';

/**
 * createMeleeScreens({flow, api, show, fail, toast, goHome, useRules, openReference, exportDuel,
 * replays}) -> draw(outcomePromise): shows what the flow answered; the duel's screens
 * (web/shell/local.js) but for the hand-over (everyone else at the device looks away), the
 * orders and the answers (every wizard's compact row above the form) and the end (compact, with
 * Replay, the replay link and Export: replays is web/shell/replay.js's).
 */
export function createMeleeScreens({ flow, api, show, fail, toast, goHome, useRules, openReference, exportDuel, replays }) {
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
      decision: (o) => show(meleeDecisionScreen({
        view: o.view, rows: o.rows, unruly: o.unruly, seen: o.seen, submit: (input) => submit(o, input), onHome: goHome,
      }).element),
      over: (o) => {
        const duel = flow.duel();
        show(meleeEndScreen({
          views: o.views, rows: o.rows, unruly: o.unruly, perspectives: o.perspectives,
          onRematch: () => draw(flow.rematch(o.views).then((r) => {
            if (r.error) toast(r.error.message, 'error');
            return r.error ? { screen: 'left' } : r;
          })),
          onReplay: async () => {
            const message = await replays.openGame(duel.game, o.perspectives[0]);
            if (message) toast(message, 'error');
          },
          onShare: () => replays.shareGame(duel.game),
          onExport: () => exportDuel(duel),
          onHome: goHome,
        }).element);
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
