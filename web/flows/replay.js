// The replay flow: a recorded duel (a finished saved duel, an imported record, or a link holding
// a record) stepped through turn by turn. It holds the record and a cursor; each step's views
// come from the engine (api.replayStep); the shell draws them (web/ui/replay.js). No DOM: a
// '#replay=' link is read and made here, the address bar is the shell's.

import { MAX_TEXT_CHARS } from '../limits.js';

const LINK_KEY = 'replay=';

const toBase64Url = (bytes) => {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
};

/** packRecord(text) -> Promise of the '#replay=' payload: the record deflated (deflate-raw), base64url. */
export async function packRecord(text) {
  // deflate-raw keeps a record's link short enough to paste into a chat.
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream('deflate-raw'));
  return toBase64Url(new Uint8Array(await new Response(stream).arrayBuffer()));
}

/**
 * unpackRecord(packed, limit?) -> Promise of {ok: true, text} or {ok: false, error: {code}}:
 * 'replay-link-damaged' (not base64url, or not deflated whole) or 'replay-link-too-large' (it
 * inflates past `limit` characters: inflating stops there, so a small link that would inflate
 * to hundreds of megabytes costs no more than a record at the limit; bug 9).
 */
export async function unpackRecord(packed, limit = MAX_TEXT_CHARS) {
  let bytes;
  try {
    const b64 = packed.replace(/-/g, '+').replace(/_/g, '/');
    bytes = Uint8Array.from(atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4)), (c) => c.charCodeAt(0));
  } catch {
    return { ok: false, error: { code: 'replay-link-damaged' } };
  }
  const reader = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate-raw'))
    .pipeThrough(new TextDecoderStream()).getReader();
  const parts = [];
  let length = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      length += value.length;
      if (length > limit) {
        reader.cancel().catch(() => {});
        return { ok: false, error: { code: 'replay-link-too-large', limit } };
      }
      parts.push(value);
    }
  } catch {
    return { ok: false, error: { code: 'replay-link-damaged' } };
  }
  return { ok: true, text: parts.join('') };
}

/** replayLinkIn(hash) -> the packed record of a '#replay=…' address fragment, or null. */
export function replayLinkIn(hash) {
  const body = (hash || '').replace(/^#/, '');
  return body.startsWith(LINK_KEY) ? body.slice(LINK_KEY.length) : null;
}

/** replayLink(pageUrl, packed) -> the link that opens this replay on the page at pageUrl. */
export const replayLink = (pageUrl, packed) => `${pageUrl.split('#')[0]}#${LINK_KEY}${packed}`;

/**
 * createReplayFlow({api, engine}) -> {open, openLink, step, perspective, packed}: each answers
 * with an outcome {screen: 'replay', data, perspective, ruleset} (data: api.replayStep's answer),
 * {error: {code, message?}}, or {screen: 'left'} when another replay was asked for meanwhile.
 */
export function createReplayFlow({ api, engine }) {
  let current = null; // {text, step, perspective}

  async function draw(shown) {
    current = shown;
    const answer = await api.replayStep(shown.text, shown.step);
    if (current !== shown) return { screen: 'left' };
    if (!answer.ok) return { error: answer.error };
    return { screen: 'replay', data: answer, perspective: shown.perspective, ruleset: answer.views[0].ruleset };
  }

  /** open(text, {step, perspective}) -> Promise of an outcome: a record's replay from that step. */
  async function open(text, { step = 0, perspective = 'both' } = {}) {
    try {
      await engine;
    } catch (err) {
      return { error: { code: 'engine-unavailable', message: err.message } };
    }
    return draw({ text, step, perspective });
  }

  /** openLink(packed, {perspective}) -> Promise of an outcome: the record a '#replay=' link holds. */
  async function openLink(packed, options = {}) {
    const unpacked = await unpackRecord(packed);
    if (!unpacked.ok) return { error: unpacked.error };
    return open(unpacked.text, options);
  }

  return {
    open,
    openLink,
    /** step(index) -> Promise of an outcome: the replay at that step. */
    step: (index) => (current ? draw({ ...current, step: index }) : Promise.resolve({ screen: 'left' })),
    /** perspective(p) -> Promise of an outcome: the same step seen by 'both', '0' or '1'. */
    perspective: (p) => (current ? draw({ ...current, perspective: p }) : Promise.resolve({ screen: 'left' })),
    /** packed() -> Promise of the replay's '#replay=' payload. */
    packed: () => packRecord(current.text),
    /** close() forgets the replay (the player left it). */
    close: () => { current = null; },
  };
}
