// A melee by codes, drawn: each outcome of web/flows/melee-codes.js becomes its screen (the
// lobby while seats are free; the orders, the answers or the table while the round goes; the
// end), and each screen's intents go back to the flow; and the start screen's mode that hosts or
// joins one. Drawing and wiring only; the flow decides.

import { meleeCodesPanel, meleeCodesSetup, meleeLobbyScreen } from '../ui/screens/melee-codes.js';
import { meleeDecisionScreen, meleeOrdersScreen, meleeWatchScreen } from '../ui/screens/melee.js';
import { meleeEndScreen } from '../ui/screens/melee-end.js';
import { say } from '../ui/words/index.js';

/**
 * createMeleeCodesScreens({flow, api, show, fail, toast, goHome, useRules, openReference,
 * exportGame, replays, panel}) -> draw(outcomePromise). exportGame(game, names) opens the export
 * dialog; replays: web/shell/replay.js's (openGame, shareGame); panel(o, {head, foot}) -> another
 * {head, foot} in place of the codes panel (a live melee's: web/shell/melee-live.js), or null.
 */
export function createMeleeCodesScreens({ flow, api, show, fail, toast, goHome, useRules, openReference, exportGame, replays, panel = () => null }) {
  const home = () => { flow.close(); goHome(); };

  async function draw(outcomePromise) {
    const o = await outcomePromise;
    if (o.screen === 'left') return;
    if (o.screen === 'fail') {
      fail(say(o.code, { message: o.error.message }));
      return;
    }
    if (o.ruleset) useRules(o.ruleset);
    const onPaste = async (text) => {
      const next = await flow.receive(text);
      draw(next);
      return !next.error;
    };
    if (!o.table) {
      show(meleeLobbyScreen(o, { onPaste, onHome: home }).element);
      return;
    }
    const { view, rows, unruly } = o.table;
    if (o.status.over) {
      show(endScreen(o).element);
      return;
    }
    const codesPanel = meleeCodesPanel(o, { onPaste });
    const { head, foot } = panel(o, codesPanel) || codesPanel;
    const common = { view, rows, unruly, seen: o.seen, onHome: home, aside: head, below: foot };
    if (o.status.to_act && view.phase.kind === 'decision') {
      show(meleeDecisionScreen({ ...common, submit: (input) => submit(input, view) }).element);
    } else if (o.status.to_act) {
      const s = meleeOrdersScreen({
        ...common,
        preview: (draft) => api.preview(JSON.parse(o.duel.session.game), view.wizard, draft),
        submit: (orders) => submit(orders, view),
        onSpell: (key) => openReference({ spell: key }),
        saved: o.saved,
        onDraft: (draft) => flow.keepDraft(view, draft),
      });
      show(s.element, s.destroy);
    } else {
      show(meleeWatchScreen({ ...common, aside: [head, foot], below: null }).element);
    }
  }

  // The screen's seal: problems go back to the form; otherwise the next screen is drawn.
  async function submit(input, view) {
    const answer = await flow.seal(input, view);
    if (answer.problems.length) return answer.problems;
    draw(answer.next);
    return [];
  }

  function endScreen(o) {
    const me = o.status.me;
    const game = JSON.parse(o.duel.session.game);
    const views = o.status.names.map((_, i) => (i === me ? o.table.view : null));
    return meleeEndScreen({
      views, rows: o.table.rows, unruly: o.table.unruly, perspectives: [me],
      onReplay: async () => {
        const message = await replays.openGame(game, me);
        if (message) toast(message, 'error');
      },
      onShare: () => replays.shareGame(game),
      onExport: () => exportGame(game, o.status.names),
      onHome: home,
    });
  }

  return draw;
}

/**
 * meleeCodesMode({flow, draw}) -> the start screen's mode for a melee by codes: host one (its
 * seats) or join one with an invitation (web/ui/screens/melee-codes.js's meleeCodesSetup).
 */
export function meleeCodesMode({ flow, draw }) {
  let setup = null;
  return {
    id: 'melee-codes',
    label: say('melee-codes-mode'),
    hint: say('melee-codes-mode-hint'),
    extra: () => {
      setup = meleeCodesSetup();
      return setup.element;
    },
    begin: async ({ names, ruleset }) => {
      const chosen = setup ? setup.chosen() : { how: 'host', seats: 3, invitation: '' };
      const first = chosen.how === 'join'
        ? await flow.join({ text: chosen.invitation, name: names[0] })
        : await flow.host({ name: names[0], seats: chosen.seats, ruleset });
      if (first.error) return say(`melee-error-${first.error.code}`, first.error);
      draw(first);
      return null;
    },
  };
}
