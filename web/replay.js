// The replay flow: a recorded duel (a finished saved duel, an imported record, or a link holding
// a record) stepped through turn by turn. It holds the record and a cursor; each step's views
// come from the engine (api.replayStep), and ui/replay.js draws them.

import * as api from './api.js';
import { replayScreen } from './ui/replay.js';

const LINK_KEY = 'replay=';
// Where style.css stops putting the two views of a replay side by side.
const NARROW = '(max-width: 879px)';

async function pack(text) {
  // deflate-raw keeps a record's link short enough to paste into a chat.
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream('deflate-raw'));
  const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

async function unpack(packed) {
  const b64 = packed.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate-raw'));
  return new Response(stream).text();
}

/** replayLinkIn(hash) -> the packed record of a '#replay=…' address fragment, or null. */
export function replayLinkIn(hash) {
  const body = (hash || '').replace(/^#/, '');
  return body.startsWith(LINK_KEY) ? body.slice(LINK_KEY.length) : null;
}

/**
 * createReplay({show, goHome, engine, useRules?}) -> {open(recordText, {step}) -> Promise<string|null>, openLink(packed)}; useRules(ruleset) makes the spell reference show the record's rules.
 * `show(element, destroy)` puts a screen up; `engine` is the boot promise.
 */
export function createReplay({ show, goHome, engine, useRules = null }) {
  let current = null; // {text, step, perspective}

  async function draw() {
    const shown = current;
    const answer = await api.replayStep(shown.text, shown.step);
    if (current !== shown) return null;
    if (!answer.ok) return answer.error.message;
    if (useRules) useRules(answer.views[0].ruleset); // the reference shows the record's rules
    const s = replayScreen({
      data: answer,
      perspective: shown.perspective,
      onStep: (index) => { current = { ...shown, step: index }; draw(); },
      onPerspective: (p) => { current = { ...shown, perspective: p }; draw(); },
      onCopyLink: async () => {
        const link = `${location.href.split('#')[0]}#${LINK_KEY}${await pack(shown.text)}`;
        try {
          await navigator.clipboard.writeText(link);
          return { link, copied: true };
        } catch {
          return { link, copied: false };
        }
      },
      onPrint: () => window.print(),
      onHome: () => { current = null; goHome(); },
    });
    show(s.element, s.destroy);
    return null;
  }

  /**
   * open(recordText, {step, perspective, own}) shows a record's replay; resolves to an error message or null.
   * Without a perspective: both wizards' views, except on a narrow screen, where they would stand one
   * under the other and each step would need a long scroll: there, wizard `own`'s view (0 unless given).
   */
  async function open(text, { step = 0, perspective = null, own = 0 } = {}) {
    if (perspective === null) perspective = window.matchMedia(NARROW).matches ? String(own) : 'both';
    try {
      await engine;
    } catch (err) {
      return err.message;
    }
    current = { text, step, perspective };
    return draw();
  }

  /** openLink(packed) replays the record a '#replay=' link holds. */
  async function openLink(packed) {
    let text;
    try {
      text = await unpack(packed);
    } catch {
      return 'This replay link is damaged: part of it is missing. Copy the whole link again.';
    }
    return open(text);
  }

  return { open, openLink };
}
