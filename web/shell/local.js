// The local duel's outcomes drawn: each outcome of web/flows/local.js becomes its screen, and
// each screen's intents go back to the flow. Drawing and wiring only; the flow decides.

import { passScreen } from '../ui/screens/between.js';
import { decisionScreen, gameOverScreen, ordersScreen } from '../ui/duel.js';
import { coachPanel, levelTag, thinkingScreen } from '../ui/opponent.js';
import { say } from '../ui/words/index.js';

/**
 * createLocalScreens({flow, api, show, fail, toast, goHome, useRules, openReference, exportDuel,
 * openReplay, replays, coachOn, screens}) -> draw(outcomePromise): shows what the flow answered.
 * openReplay(text, {own}) -> Promise of an error message or null; replays: shell/replay.js's
 * (openGame, shareGame), or null where no replay is offered (a melee's end); soundSetting() -> the
 * scene's sound switch {on, onChange}; coachOn() -> whether the player switched the coach on;
 * screens({draw, submit}) -> drawers that replace this duel's own by outcome (a melee's:
 * web/shell/melee.js).
 */
/**
 * ordersCalls({o, duel, api, flow, submit, openReference, goHome}) -> what an orders screen of a
 * game on this device (a duel's, a melee's) reports to: the preview, the seal, a spell's page,
 * home, and the unsealed picks kept; `o` the 'orders' outcome, `duel` the record in play.
 */
export function ordersCalls({ o, duel, api, flow, submit, openReference, goHome }) {
  return {
    preview: (draft) => api.preview(duel.game, o.wizard, draft),
    submit: (orders) => submit(o, orders),
    onSpell: (key) => openReference({ spell: key }),
    onHome: goHome,
    // Unsealed picks are saved with the duel, so a reload keeps them (for this turn only).
    saved: o.saved,
    onDraft: (draft) => flow.keepDraft(o.wizard, o.view, draft),
  };
}

export function createLocalScreens({ flow, api, show, fail, toast, goHome, useRules, openReference, exportDuel, openReplay, replays = null, soundSetting = () => null, coachOn = () => false, screens = null }) {
  async function draw(outcomePromise) {
    const outcome = await outcomePromise;
    if (outcome.ruleset) useRules(outcome.ruleset);
    const drawer = SCREENS[outcome.screen];
    if (drawer) drawer(outcome);
  }

  const SCREENS = {
    left: () => {},
    fail: (o) => fail(say(o.code, { message: o.error.message })),
    pass: (o) => show(passScreen({ name: o.name, other: o.other, kind: o.kind, onReady: () => draw(flow.ready(o.wizard)), onHome: goHome })),
    thinking: (o) => {
      show(thinkingScreen({ name: o.name, level: o.level }));
      draw(flow.think());
    },
    decision: (o) => {
      const s = decisionScreen({ view: o.view, seen: o.seen, submit: (input) => submit(o, input), onHome: goHome, sound: soundSetting() });
      show(s.element, s.destroy);
    },
    orders: (o) => {
      const duel = flow.duel();
      const s = ordersScreen({
        view: o.view, seen: o.seen, sound: soundSetting(),
        ...ordersCalls({ o, duel, api, flow, submit, openReference, goHome }),
        // Against the computer: its level (issue 28, bug 7), and the coach when the player switched it on.
        aside: duel.mode === 'computer' ? [levelTag({ name: o.view.names[1 - o.wizard], level: duel.level }), coachOn()
          ? coachPanel({ ask: () => api.aiAdvice(duel.game, o.wizard), onUse: (gestures, advice) => s.useGestures(gestures, advice.input && advice.input.charm) }) : null] : null,
      });
      show(s.element, s.destroy);
    },
    over: (o) => {
      const duel = flow.duel();
      const s = gameOverScreen({
        views: o.views, sound: soundSetting(),
        perspectives: o.perspectives,
        onRematch: () => draw(flow.rematch(o.views).then((r) => {
          if (r.error) toast(r.error.message, 'error');
          return r.error ? { screen: 'left' } : r;
        })),
        onExport: () => exportDuel(duel),
        loadBattle: (v) => api.battle(duel.game, v).then((a) => (a.ok ? a : null)),
        onReplay: replays && (async () => {
          const message = await replays.openGame(duel.game, o.perspectives[0]);
          if (message) toast(message, 'error');
        }),
        onShare: replays && (() => replays.shareGame(duel.game)),
        onHome: goHome,
      });
      show(s.element, s.destroy);
    },
    replay: async (o) => {
      const message = await openReplay(o.text, { own: o.own });
      if (message) toast(message, 'error');
    },
  };

  if (screens) Object.assign(SCREENS, screens({ draw, submit }));

  // The screen's submit: problems go back to the form; otherwise the next screen is drawn.
  async function submit(o, input) {
    const answer = await flow.submit(o.wizard, input, o.view);
    if (answer.problems.length) return answer.problems;
    draw(answer.next);
    return [];
  }

  return draw;
}
