// The replay's outcomes drawn (web/flows/replay.js answers, web/ui/replay.js draws), and what
// only the page can do for it: the narrow-screen choice, the clipboard, printing.

import { replayScreen } from '../ui/replay.js';
import { say } from '../ui/words/index.js';
import { replayLink } from '../flows/replay.js';

// Where style.css stops putting the two views of a replay side by side.
const NARROW = '(max-width: 879px)';

const messageOf = (error) => say(error.code, error);

/**
 * createReplayScreens({flow, show, goHome, useRules}) -> {open(text, {step, perspective, own}),
 * openLink(packed)}: each resolves to an error message or null once the replay is drawn.
 * Without a perspective: both wizards' views, except on a narrow screen, where they would stand
 * one under the other and each step would need a long scroll: there, wizard `own`'s view.
 */
export function createReplayScreens({ flow, show, goHome, useRules }) {
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
      onCopyLink: async () => {
        const link = replayLink(location.href, await flow.packed());
        try {
          await navigator.clipboard.writeText(link);
          return { link, copied: true };
        } catch {
          return { link, copied: false };
        }
      },
      onPrint: () => window.print(),
      onHome: () => { flow.close(); goHome(); },
    });
    show(s.element, s.destroy);
    return null;
  }

  return {
    open: (text, { step = 0, perspective = null, own = 0 } = {}) => draw(flow.open(text, { step, perspective: perspective || firstPerspective(own) })),
    openLink: (packed) => draw(flow.openLink(packed, { perspective: firstPerspective(0) })),
  };
}
