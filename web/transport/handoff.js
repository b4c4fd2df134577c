// Answer links opened in another tab (docs/webrtc.md, "The exchange"): the host's connection
// lives in the tab that made the offer, so a tab opened from an answer link hands the answer over
// a same-origin BroadcastChannel, and the host tab whose offer it answers claims it.

import { unpackConnectionCode } from './codec/code.js';
import { STATUS } from './transport.js';

const BROADCAST_NAME = 'wavinghands-rtc';

/** listenForAnswerLinks(live, acceptAnswer): the host tab takes answers other tabs post, until connected or ended. */
export function listenForAnswerLinks(live, acceptAnswer) {
  if (typeof BroadcastChannel !== 'function') return;
  const bc = new BroadcastChannel(BROADCAST_NAME);
  let done = false;
  let pending = 0;
  // The channel may open while an answer is being applied; the claim must still be posted.
  const closeWhenIdle = () => {
    if (done && pending === 0) bc.close();
  };
  bc.onmessage = async (ev) => {
    const m = ev.data;
    if (done || !m || m.t !== 'answer' || typeof m.code !== 'string') return;
    pending++;
    try {
      const r = await acceptAnswer(m.code);
      if (r.ok) bc.postMessage({ t: 'claimed', code: m.code });
    } finally {
      pending--;
      closeWhenIdle();
    }
  };
  let stop = null;
  stop = live.transport.onStatus((s) => {
    // Once connected or ended, no answer is wanted any more.
    if (s !== STATUS.CONNECTING && !done) {
      done = true;
      closeWhenIdle();
      if (stop) stop();
    }
  });
}

/**
 * For a page opened from an answer link: hands the answer to the host's tab of this site, if one
 * is waiting for it. Resolves to {ok, delivered} (delivered false: no tab claimed it in time, so
 * the player should paste it by hand) or an error value for a bad code.
 */
export async function deliverAnswerToOpenTab(text, timeoutMs = 1500) {
  const r = unpackConnectionCode(text, { expect: 'answer' });
  if (!r.ok) return r;
  if (typeof BroadcastChannel !== 'function') return { ok: true, delivered: false };
  const bc = new BroadcastChannel(BROADCAST_NAME);
  const delivered = await new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs);
    bc.onmessage = (ev) => {
      if (ev.data && ev.data.t === 'claimed' && ev.data.code === r.code) {
        clearTimeout(timer);
        resolve(true);
      }
    };
    bc.postMessage({ t: 'answer', code: r.code });
  });
  bc.close();
  return { ok: true, delivered };
}
