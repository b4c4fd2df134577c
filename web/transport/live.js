// The live transport (docs/webrtc.md; interface: transport.js): the page's one WebRTC connection,
// who started it, the connection code still to deliver, its state and the opponent's presence, and
// the duel it carries. It only moves turn codes and chat; what they mean is the flows' business.
// Nothing here is saved: after a reload the duel goes on by codes until a new exchange connects.

import * as webrtc from './webrtc.js';
import { DEFAULT_STUN, iceServersFor, parseSiteIce } from './ice.js';
import { STATUS, fail, isFinal, listeners } from './transport.js';

const pageAddress = () => (typeof location === 'object' ? location.href.split('#')[0] : '');

// The site's ICE file (ice.json next to index.html, filled by whoever hosts the page): it comes
// from this page's own server, never from elsewhere. Missing or unreadable: the defaults stand.
function fetchSiteIce(base) {
  return fetch(new URL('./ice.json', base), { cache: 'no-cache' })
    .then((res) => (res.ok ? res.json() : null))
    .then((value) => {
      if (value === null) return null;
      const parsed = parseSiteIce(value);
      if (!parsed.ok) console.error(`ice.json cannot be used (${parsed.error.detail}): the default servers are used`);
      return parsed.ok ? parsed : null;
    })
    .catch(() => null);
}

/**
 * wrap(role, started, duelId) -> the live transport over one connection of webrtc.js: the
 * interface of transport.js plus role, bind (via the registry), answer (host), sendChat, onChat,
 * setPresence, hostMovedOn. status() is a plain snapshot: {kind: 'live', state, reason, warning
 * (while connecting: why it will probably fail, ice.js foresee, or null), role,
 * duelId, peer (the opponent's presence or null), code and link (this side's connection code),
 * answered (host: an answer was applied), pending ({code, link} while that code is still to be
 * delivered: an offer not yet answered, an answer the host has not pasted; else null)}.
 */
function wrap(role, started, duelId) {
  const raw = started.transport;
  const changes = listeners();
  let bound = duelId;
  let answered = false;
  const snapshot = () => {
    const state = raw.status;
    const reason = raw.detail.reason;
    const waiting = state === STATUS.CONNECTING && !answered && (reason === 'waiting-answer' || reason === 'waiting-host');
    return {
      kind: 'live', state, reason, warning: raw.detail.warning || null, role, duelId: bound, peer: raw.peerPresence,
      code: started.code, link: started.link, answered, pending: waiting ? { code: started.code, link: started.link } : null,
    };
  };
  const changed = () => changes.emit(snapshot());
  raw.onStatus(changed);
  raw.onPresence(changed);
  return {
    kind: 'live',
    role,
    get duelId() {
      return bound;
    },
    /** send(code) -> {ok, via: 'live'} or an error value ('not-connected': send it by hand). */
    send(code) {
      const r = raw.send(code);
      return r.ok ? { ok: true, via: 'live' } : r;
    },
    /** onReceive(cb) -> unsubscribe: cb(code) for each turn code that arrives. */
    onReceive: (cb) => raw.onMessage(cb),
    status: snapshot,
    /** onStatus(cb) -> unsubscribe: cb(status()) now and on each change of the connection or presence. */
    onStatus(cb) {
      const off = changes.add(cb);
      cb(snapshot());
      return off;
    },
    close: () => raw.close(),
    /** sendChat(text, turn) -> {ok, text} (as sent, stamped with my turn) or an error value. */
    sendChat: (text, turn = null) => raw.sendChat(text, turn),
    /** onChat(cb) -> unsubscribe: cb(text, turn) per chat line (the sender's turn, or null). */
    onChat: (cb) => raw.onChat(cb),
    /** setPresence(state): tells the opponent 'choosing', 'sealed' or 'waiting'. */
    setPresence: (state) => raw.setPresence(state),
    /** answer(text) -> {ok, declined?} or an error value: the host applies the guest's answer. */
    async answer(text) {
      if (!started.acceptAnswer) return fail('not-host');
      const r = await started.acceptAnswer(text);
      if (r.ok && !answered) {
        answered = true;
        changed();
      }
      return r;
    },
    /** hostMovedOn(): a guest's answer has reached the host (its code came by hand without an offer). */
    hostMovedOn: () => raw.hostHasAnswer && raw.hostHasAnswer(),
    /** rebind(duelId): the registry's bind() moves the connection to another duel. */
    rebind(id) {
      bound = id;
      changed();
    },
  };
}

/**
 * createLive(deps) -> the page's live connection registry: {current(), isConnected(duelId),
 * onChange(cb), onReceive(cb), onChat(cb), host(opts), join(text, opts), answer(text),
 * bind(duelId, {transport, from}), close(), hostMovedOn(duelId), kindOf(text), declineOffer(text),
 * offerFacts(text, ice), iceServers(ice), defaultStun}. One connection at a time: a new one
 * replaces the old. deps: {baseUrl(), rtc (webrtc.js's functions; fakes in tests), siteIce()}.
 */
export function createLive(deps = {}) {
  const rtc = deps.rtc || webrtc;
  const baseUrl = deps.baseUrl || pageAddress;
  let siteIce = null; // the promise of the site's ice.json, read once
  const loadSiteIce = deps.siteIce || (() => (siteIce = siteIce || fetchSiteIce(baseUrl())));
  const changes = listeners();
  const codes = listeners();
  const chats = listeners();
  let link = null; // the live transport of this page, or null
  let generation = 0; // a newer start makes an older one, still gathering, give up quietly

  const changed = () => changes.emit(link);

  function adopt(role, started, duelId) {
    const made = wrap(role, started, duelId);
    link = made;
    made.onStatus(() => {
      if (link === made) changed();
    });
    made.onReceive((code) => {
      if (link === made) codes.emit(code, made);
    });
    made.onChat((text, turn) => {
      if (link === made) chats.emit(text, made, turn);
    });
  }

  async function iceServers(ice = {}) {
    return iceServersFor({ stun: ice.stun ?? null, turn: ice.turn ?? null, site: await loadSiteIce() });
  }

  async function start(role, begin, duelId, ice) {
    const mine = ++generation;
    const servers = await iceServers(ice);
    if (!servers.ok) return servers;
    const started = await begin({ iceServers: servers.iceServers, baseUrl: baseUrl() });
    if (mine !== generation) {
      if (started.ok) started.transport.close();
      return fail('superseded');
    }
    if (!started.ok) return started;
    close();
    adopt(role, started, duelId);
    return { ok: true };
  }

  function close() {
    if (!link) return;
    const old = link;
    link = null;
    old.close();
    changed();
  }

  return {
    /** current() -> the live transport of this page, or null. */
    current: () => link,
    /** isConnected(duelId) -> true when the connection is open and carries that duel (or any, without an id). */
    isConnected: (duelId) => Boolean(link && link.status().state === STATUS.CONNECTED && (duelId === undefined || link.duelId === duelId)),
    /** onChange(cb) -> unsubscribe: cb(transport or null) when the connection, its state or the opponent's presence changes. */
    onChange: (cb) => changes.add(cb),
    /** onReceive(cb) -> unsubscribe: cb(code, transport) for each turn code that arrives live. */
    onReceive: (cb) => codes.add(cb),
    /** onChat(cb) -> unsubscribe: cb(text, transport, turn) for each chat line. */
    onChat: (cb) => chats.add(cb),
    /** host({ice, duelId}) -> {ok} once a connection code is ready, or an error value. */
    host: ({ ice = {}, duelId = null } = {}) => start('host', (o) => rtc.startHost(o), duelId, ice),
    /** join(text, {ice, duelId}) -> {ok} with an answer code to send back (status().pending), or an error value. */
    join: (text, { ice = {}, duelId = null } = {}) => start('guest', (o) => rtc.startGuest(text, o), duelId, ice),
    /**
     * answer(text) -> {ok, declined?} or an error value: the guest's answer for this page's offer;
     * with no offer waiting here, hands it to the tab that made it ({ok, elsewhere: true}).
     */
    async answer(text) {
      if (link && link.role === 'host' && !isFinal(link.status().state)) return link.answer(text);
      const r = await rtc.deliverAnswerToOpenTab(text);
      if (!r.ok) return r;
      if (r.delivered) return { ok: true, elsewhere: true };
      // A decline of an offer no page waits on any more (this one reloaded since): nothing to do.
      if (rtc.isDeclineCode(text)) return { ok: true, declined: true };
      return fail('no-host-tab');
    },
    /**
     * bind(duelId, {transport, from}) -> true when the connection now carries that duel. It moves
     * only from the duel it carried when the move was decided (`from`: null for one made from the
     * start screen, or a finished duel for its rematch), and only if it is still the same
     * connection (`transport`) (docs/protocol.md, "Threat model").
     */
    bind(duelId, { transport = link, from = null } = {}) {
      if (!link || link !== transport) return false;
      if (link.duelId === duelId) return true;
      if (link.duelId !== from) return false;
      link.rebind(duelId);
      return true;
    },
    close,
    /** hostMovedOn(duelId): a code of the host's came by hand for this duel (switchboard's heardByHand). */
    hostMovedOn(duelId) {
      if (link && link.duelId === duelId && link.role === 'guest') link.hostMovedOn();
    },
    /** kindOf(text) -> {ok, kind: 'offer'|'answer'} for a connection code, or an error value. */
    kindOf: (text) => rtc.connectionCodeKind(text),
    /** declineOffer(offer) -> {ok, code}: the answer that says "by codes only" (docs/webrtc.md, "Declining"). */
    declineOffer: (offer) => rtc.declineOffer(offer),
    /** offerFacts(text, ice) -> {servers, addresses, error}: what answering this offer would contact. */
    async offerFacts(text, ice = {}) {
      const servers = await iceServers(ice);
      const urls = servers.ok ? servers.iceServers.flatMap((s) => (Array.isArray(s.urls) ? s.urls : [s.urls])) : [];
      return { servers: urls, addresses: rtc.offerAddresses(text), error: servers.ok ? null : servers.error };
    },
    iceServers,
    /** The default STUN servers as the settings field shows them. */
    defaultStun: DEFAULT_STUN.join(' '),
  };
}
