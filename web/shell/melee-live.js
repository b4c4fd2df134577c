// A live melee, drawn and wired (web/flows/melee-live.js; docs/protocol.md, "Live melee"): the
// start screen's mode that hosts or joins one, the connecting lobby, and, once every seat is
// connected, the melee by codes' screens (web/shell/melee-codes.js) with the live panel in place
// of the codes to copy. A concession every other wizard agreed is handed to the melee's flow.
// Drawing and wiring only; the flows decide.

import { liveErrorWords, liveStatusWords, meleeLiveLobby, meleeLivePanel, meleeLiveSetup } from '../ui/screens/melee-live.js';
import { h } from '../ui/dom.js';
import { say } from '../ui/words/index.js';
import { STATUS } from '../transport/transport.js';

/**
 * createMeleeLiveScreens({live, codes, drawCodes, show, goHome}) -> {drawLobby(error), panel(o,
 * defaults)}: live is the live flow, codes the melee-codes flow, drawCodes its screens' draw.
 * panel(o, {onPaste}) is what the melee-codes screens show beside the table while the melee is
 * live (the live panel and the engine's status; no codes to copy), else null.
 */
export function createMeleeLiveScreens({ live, codes, drawCodes, show, goHome }) {
  let phase = 'idle'; // 'lobby' while connecting, 'playing' once connected (this page draws)
  let conceded = new Set(); // seats handed to the melee's flow already

  const home = () => {
    live.close();
    codes.close();
    goHome();
  };

  function drawLobby(error = null) {
    const state = live.state();
    if (!state) return;
    phase = 'lobby';
    show(meleeLiveLobby(state, { onReply, onHome: home, error }).element);
  }

  async function onReply(text) {
    const r = await live.reply(text);
    if (phase === 'lobby') drawLobby(r.error || null);
    return !r.error;
  }

  live.onChange((state) => {
    if (!state) {
      conceded = new Set();
      phase = 'idle';
      return;
    }
    const news = (state.absence ? state.absence.conceded : []).filter((seat) => !conceded.has(seat));
    for (const seat of news) {
      conceded.add(seat);
      drawCodes(codes.concede(seat));
    }
    if (phase === 'lobby' && state.state === STATUS.CONNECTED) {
      // Every seat is connected (host) or the roster is in (guest): the melee itself now.
      phase = 'playing';
      drawCodes(codes.next());
    } else if (phase === 'lobby') {
      drawLobby();
    } else if (phase === 'playing' && !news.length && codes.duel() && codes.duel().id === state.duelId) {
      drawCodes(codes.next()); // the live panel's news (a drop, a vote) on the melee's screen
    }
  });

  /** panel(o, {onPaste}) -> {head, foot} for the melee-codes screens while live, else null. */
  function panel(o, defaults) {
    const state = live.state();
    if (!state || !o.duel || state.duelId !== o.duel.id) return null;
    const onConcede = (seat) => live.concede(seat);
    const onChat = (text) => live.sendChat(text);
    // The melee by codes' status line, in live words (nothing to post or paste by hand).
    const line = defaults.head.querySelector('[data-testid=melee-codes-status]');
    const words = liveStatusWords(o.status);
    if (line && words) line.textContent = words;
    return {
      head: h('div', { class: 'melee-codes-head' }, meleeLivePanel(state, o.status.names, { onConcede, onChat }), defaults.head),
      foot: null,
    };
  }

  return { drawLobby, panel };
}

/**
 * meleeLiveMode({live, screens}) -> the start screen's mode for a live melee: host one (its
 * seats) or join one with the host's live text (the same choices as a melee by codes').
 */
export function meleeLiveMode({ live, screens }) {
  let setup = null;
  return {
    id: 'melee-live',
    label: say('melee-live-mode'),
    hint: say('melee-live-mode-hint'),
    extra: () => {
      setup = meleeLiveSetup();
      return setup.element;
    },
    begin: async ({ names, ruleset }) => {
      const chosen = setup ? setup.chosen() : { how: 'host', seats: 3, invitation: '' };
      const first = chosen.how === 'join'
        ? await live.join({ text: chosen.invitation, name: names[0] })
        : await live.host({ name: names[0], seats: chosen.seats, ruleset });
      if (first.error) return liveErrorWords(first.error);
      screens.drawLobby();
      return null;
    },
  };
}
