// The replay's outcomes drawn (web/flows/replay.js answers, web/ui/replay.js draws), and what
// only the page can do for it: the narrow-screen choice, the clipboard, printing.

import { replayScreen } from '../ui/replay.js';
import { say } from '../ui/words/index.js';
import { packRecord, replayLink } from '../flows/replay.js';

// Where style.css stops putting the two views of a replay side by side.
const NARROW = '(max-width: 879px)';

const messageOf = (error) => say(error.code, error);

// The link to a replay in the clipboard: {link, copied} (copied false: the browser refused).
async function copyLink(link) {
  try {
    await navigator.clipboard.writeText(link);
    return { link, copied: true };
  } catch {
    return { link, copied: false };
  }
}

/**
 * createReplayScreens({flow, api, show, goHome, useRules}) -> {open(text, {step, perspective, own}),
 * openLink(packed), openGame(game, own), shareGame(game)}: each open resolves to an error message
 * or null once the replay is drawn; shareGame(game) to {link, copied} (the '#replay=' link of a
 * game's record, and whether the clipboard took it) or {message} (why there is none).
 * Without a perspective: both wizards' views, except on a narrow screen, where they would stand
 * one under the other and each step would need a long scroll: there, wizard `own`'s view.
 */
export function createReplayScreens({ flow, api, show, goHome, useRules }) {
  const firstPerspective = (own) => (window.matchMedia(NARROW).matches ? String(own) : 'both');

  async function draw(outcomePromise) {
    const outcome = await outcomePromise;
    if (outcome.error) return messageOf(outcome.error);
    if (outcome.screen !== 'replay') return null;
    useRules(outcome.ruleset); // the reference shows the record's rules
    const s = replayScreen({
      data: outcome.data,
      perspective: outcome.perspective,
      onStep: (index) => { draw(flow.step(index)); },
      onPerspective: (p) => { draw(flow.perspective(p)); },
      onCopyLink: async () => copyLink(replayLink(location.href, await flow.packed())),
      onPrint: () => window.print(),
      onHome: () => { flow.close(); goHome(); },
    });
    show(s.element, s.destroy);
    return null;
  }

  const open = (text, { step = 0, perspective = null, own = 0 } = {}) => draw(flow.open(text, { step, perspective: perspective || firstPerspective(own) }));
  return {
    open,
    openLink: (packed) => draw(flow.openLink(packed, { perspective: firstPerspective(0) })),
    openGame: async (game, own) => {
      const answer = await api.exportRecord(game);
      return answer.ok ? open(JSON.stringify(answer.record), { own }) : messageOf(answer.error);
    },
    shareGame: async (game) => {
      const answer = await api.exportRecord(game);
      if (!answer.ok) return { message: messageOf(answer.error) };
      return copyLink(replayLink(location.href, await packRecord(JSON.stringify(answer.record))));
    },
  };
}
