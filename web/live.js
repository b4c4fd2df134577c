// The page's one live connection (docs/webrtc.md): who started it, the connection code to show,
// its status and the opponent's presence, and which remote duel it carries. It only moves turn
// codes; what they mean is the turn-code session's business (web/remote.js). Nothing here is
// saved: after a reload the duel goes on by codes until a new exchange connects again.

import {
  CHAT_MAX,
  STATUS,
  chatLineTurn,
  connectionCodeKind,
  declineOffer,
  deliverAnswerToOpenTab,
  isDeclineCode,
  offerAddresses,
  startGuest,
  startHost,
} from './transport/webrtc.js';
import { DEFAULT_STUN, iceServersFor, parseSiteIce } from './transport/ice.js';

// Re-exported so that the controller needs no second import of the transport for these.
export { CHAT_MAX, STATUS, chatLineTurn, connectionCodeKind, declineOffer };

let link = null; // {role, code, link, transport, acceptAnswer, duelId, status, detail, peer, answered}
let generation = 0; // a newer start makes an older one, still gathering, give up quietly
const changeListeners = new Set();
let codeHandler = () => {};
let chatHandler = () => {};

function changed() {
  for (const cb of [...changeListeners]) {
    try {
      cb(link);
    } catch (err) {
      console.error(err);
    }
  }
}

function adopt(role, started, duelId) {
  const t = started.transport;
  const made = {
    role, duelId, code: started.code, link: started.link, transport: t,
    acceptAnswer: started.acceptAnswer || null, status: t.status, detail: t.detail, peer: null, answered: false,
  };
  link = made;
  t.onStatus((status, detail) => {
    made.status = status;
    made.detail = detail;
    if (link === made) changed();
  });
  t.onPresence((peer) => {
    made.peer = peer;
    if (link === made) changed();
  });
  t.onMessage((code) => {
    if (link === made) codeHandler(code, made);
  });
  t.onChat((text, turn) => {
    if (link === made) chatHandler(text, made, turn);
  });
  changed();
}

/** currentLink() -> the live connection of this page ({role, code, link, status, detail, peer, duelId, ...}) or null. */
export function currentLink() {
  return link;
}

/** isConnected(duelId) -> true when the live connection is open and carries that duel (or any, without an id). */
export function isConnected(duelId) {
  return Boolean(link && link.status === STATUS.CONNECTED && (duelId === undefined || link.duelId === duelId));
}

/** onLinkChange(cb) calls cb(link) whenever the connection, its status or the opponent's presence changes; returns unsubscribe. */
export function onLinkChange(cb) {
  changeListeners.add(cb);
  return () => changeListeners.delete(cb);
}

/** onChat(cb) makes cb(text, link, turn) the receiver of every chat message that arrives (plain text; the sender's turn or null). */
export function onChat(cb) {
  chatHandler = cb;
}

/** sendChat(text, turn) -> {ok, text} (the text as sent, stamped with my turn) or an error value (not connected, or not a chat message). */
export function sendChat(text, turn = null) {
  if (!link) return { ok: false, error: { code: 'not-connected', message: 'Not connected live.' } };
  return link.transport.sendChat(text, turn);
}

/** onCode(cb) makes cb(code, link) the receiver of every turn code that arrives live (one receiver). */
export function onCode(cb) {
  codeHandler = cb;
}

/** defaultStunText() -> the default STUN servers as the settings field shows them. */
export function defaultStunText() {
  return DEFAULT_STUN.join(' ');
}

let siteIce = null; // the promise of the site's ice.json, read once per page

// The site's ICE file (ice.json next to index.html, filled by whoever hosts the page): it comes
// from this page's own server, never from elsewhere. Missing or unreadable: the defaults stand.
function loadSiteIce() {
  if (!siteIce) {
    siteIce = fetch(new URL('./ice.json', pageBase()), { cache: 'no-cache' })
      .then((res) => (res.ok ? res.json() : null))
      .then((value) => {
        if (value === null) return null;
        const parsed = parseSiteIce(value);
        if (!parsed.ok) console.error(parsed.error.message);
        return parsed.ok ? parsed : null;
      })
      .catch(() => null);
  }
  return siteIce;
}

/** iceServersOf(ice) -> {ok, iceServers} for the player's settings {stun, turn} and the site's ice.json, or an error value. */
export async function iceServersOf(ice = {}) {
  return iceServersFor({ stun: ice.stun ?? null, turn: ice.turn ?? null, site: await loadSiteIce() });
}

/** hostLive({ice, duelId}) -> {ok} once a connection code is ready, or an error value; replaces any earlier connection. */
export async function hostLive({ ice = {}, duelId = null } = {}) {
  const mine = ++generation;
  const servers = await iceServersOf(ice);
  if (!servers.ok) return servers;
  const started = await startHost({ iceServers: servers.iceServers, baseUrl: pageBase() });
  if (mine !== generation) {
    if (started.ok) started.transport.close();
    return { ok: false, error: { code: 'superseded', message: 'A newer live connection was started.' } };
  }
  if (!started.ok) return started;
  closeLive();
  adopt('host', started, duelId);
  return { ok: true };
}

/** joinLive(text, {ice, duelId}) -> {ok} with an answer code to send back, or an error value (e.g. a garbled code). */
export async function joinLive(text, { ice = {}, duelId = null } = {}) {
  const mine = ++generation;
  const servers = await iceServersOf(ice);
  if (!servers.ok) return servers;
  const started = await startGuest(text, { iceServers: servers.iceServers, baseUrl: pageBase() });
  if (mine !== generation) {
    if (started.ok) started.transport.close();
    return { ok: false, error: { code: 'superseded', message: 'A newer live connection was started.' } };
  }
  if (!started.ok) return started;
  closeLive();
  adopt('guest', started, duelId);
  return { ok: true };
}

/**
 * answerLive(text) -> {ok} or an error value: the guest's answer code for this page's connection
 * code; with none waiting here, hands it to the tab that made it ({ok, elsewhere: true}).
 */
export async function answerLive(text) {
  const open = link && link.status !== STATUS.DISCONNECTED && link.status !== STATUS.CLOSED;
  if (open && link.role === 'host') {
    // Also when already connected: the same answer again is harmless, another one is refused.
    const r = await link.acceptAnswer(text);
    if (r.ok) {
      link.answered = true;
      changed();
    }
    return r;
  }
  const r = await deliverAnswerToOpenTab(text);
  if (!r.ok) return r;
  if (r.delivered) return { ok: true, elsewhere: true };
  // A decline of an offer no page waits on any more (this one reloaded since): nothing to do.
  if (isDeclineCode(text)) return { ok: true, declined: true };
  return {
    ok: false,
    error: {
      code: 'no-host-tab',
      message: 'This answer code belongs to a live connection started in another tab or browser. ' +
        'Paste it in the page where you made the connection code (or make a new connection code here).',
    },
  };
}

/**
 * bindLive(duelId, {link, from}) -> true when the live connection now carries that duel. A
 * connection carries one duel (docs/protocol.md, "Threat model"): it is moved only from the duel
 * it carried when the move was decided (`from`: null for one made from the start screen, or a
 * finished duel for its rematch), and only if it is still the same connection (`link`).
 */
export function bindLive(duelId, { link: expected = link, from = null } = {}) {
  if (!link || link !== expected) return false;
  if (link.duelId === duelId) return true;
  if (link.duelId !== from) return false;
  link.duelId = duelId;
  changed();
  return true;
}

/**
 * offerFacts(text, ice) -> {servers: [url], addresses: ['address:port'], error}: what answering a
 * connection offer would contact (the ICE servers of the player's settings {stun, turn} and the
 * site's ice.json, and the offer's own addresses); error: why those settings cannot be used, or null.
 */
export async function offerFacts(text, ice = {}) {
  const servers = await iceServersOf(ice);
  const urls = servers.ok ? servers.iceServers.flatMap((s) => (Array.isArray(s.urls) ? s.urls : [s.urls])) : [];
  return { servers: urls, addresses: offerAddresses(text), error: servers.ok ? null : servers.error };
}

/** sendLive(code) -> {ok} or an error value (not connected: the player sends it by hand). */
export function sendLive(code) {
  if (!link) return { ok: false, error: { code: 'not-connected', message: 'Not connected live.' } };
  return link.transport.send(code);
}

/** setLivePresence(state) tells the opponent 'choosing', 'sealed' or 'waiting' (ignored when not live). */
export function setLivePresence(state) {
  if (link) link.transport.setPresence(state);
}

/** closeLive() ends the live connection, if any; the duel carries on by codes. */
export function closeLive() {
  if (!link) return;
  const old = link;
  link = null;
  old.transport.close();
  changed();
}

/** pageBase() -> this page's address without its fragment: the base of every link. */
export function pageBase() {
  return location.href.split('#')[0];
}
