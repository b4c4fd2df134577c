// The page's transports in one object (docs/architecture.md, "Transports"): the live connection
// registry, one by-hand transport per duel, and the choice of which of them carries a duel's next
// code. Made once by the shell; state lives in the object, never in the module.

import { createByHand, splitCodes } from './by-hand.js';
import { createLive } from './live.js';
import { STATUS } from './transport.js';

/**
 * createTransports(deps) -> the page's transports, one object made by the shell: {live (the live
 * connection registry, transport/live.js), byHand(duelId), carrier(duelId), send(duelId, code),
 * wentLive(code), onReceive(cb), outgoing(duelId, turnCode, turnLink), read(text), decline(duelId, offer), heardByHand(duelId,
 * {withOffer})}. deps: {baseUrl() -> this page's address, rtc (transport/webrtc.js's functions,
 * replaced by fakes in Node tests), siteIce() -> Promise of the site's ice.json or null, qr}.
 */
export function createTransports(deps = {}) {
  const live = createLive(deps);
  const hands = new Map(); // duel id -> its by-hand transport
  const declines = new Map(); // duel id -> the decline (WHA1.) its next code carries
  const sentLive = new Set(); // codes delivered over the live connection

  function byHand(duelId) {
    if (!hands.has(duelId)) hands.set(duelId, createByHand(duelId, deps));
    return hands.get(duelId);
  }

  /** The transport that carries this duel's next code: live when connected for it, else by hand. */
  function carrier(duelId) {
    const t = live.current();
    return t && t.duelId === duelId && t.status().state === STATUS.CONNECTED ? t : byHand(duelId);
  }

  /**
   * The connection code that must travel inside this duel's next code by hand: the live offer or
   * answer still to be delivered, else a pending decline; null when there is none.
   */
  function rider(duelId) {
    const t = live.current();
    const pending = t && t.duelId === duelId ? t.status().pending : null;
    if (pending) return { code: pending.code, carries: t.role === 'host' ? 'offer' : 'answer' };
    const connected = t && t.duelId === duelId && t.status().state === STATUS.CONNECTED;
    return !connected && declines.has(duelId) ? { code: declines.get(duelId), carries: 'decline' } : null;
  }

  return {
    live,
    byHand,
    carrier,
    /** send(duelId, code) -> {ok, via} from the transport that carries the duel now (by hand: shown to the player). */
    send(duelId, code) {
      const sent = carrier(duelId).send(code);
      if (sent.ok && sent.via === 'live') sentLive.add(code);
      return sent;
    },
    /**
     * onReceive(cb(code, t)) -> unsubscribe: every code that arrives by itself (not pasted), from
     * any transport that carries codes on its own (today the live connection), with the transport
     * it came by (t.duelId: the duel it carries). A new kind adds its own subscription here.
     */
    onReceive: (cb) => live.onReceive(cb),
    /** wentLive(code) -> whether this page delivered that code over the live connection. */
    wentLive: (code) => sentLive.has(code),
    /**
     * outgoing(duelId, turnCode, turnLink) -> {code, link, carries}: the text and link to send by
     * hand: the turn code with the connection code that must ride along (carries: 'offer' |
     * 'answer' | 'decline' | null), so that one code goes each way (docs/webrtc.md).
     */
    outgoing(duelId, turnCode, turnLink = null) {
      return byHand(duelId).outgoing(turnCode, turnLink, rider(duelId));
    },
    /** read(text) -> {turn, rtc, rtcKind}: the turn code and connection code a pasted text or link holds. */
    read(text) {
      const parts = splitCodes(text);
      const kind = parts.rtc ? live.kindOf(parts.rtc) : null;
      return { ...parts, rtcKind: kind && kind.ok ? kind.kind : null };
    },
    /** decline(duelId, offer) -> {ok} or an error value: this duel's next codes tell the offer's host "by codes only". */
    decline(duelId, offer) {
      const made = live.declineOffer(offer);
      if (made.ok) declines.set(duelId, made.code);
      return made;
    },
    /**
     * heardByHand(duelId, {withOffer}): a code of the opponent's came by hand for this duel; without
     * an offer, the opponent has stopped offering (a decline has reached it), and a guest's answer
     * waiting for the host has reached it too (live.js: hostMovedOn).
     */
    heardByHand(duelId, { withOffer = false } = {}) {
      if (withOffer) return;
      declines.delete(duelId);
      live.hostMovedOn(duelId);
    },
  };
}
