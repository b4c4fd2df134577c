// Live play: one WebRTC data channel between two browsers, set up by trading two connection codes
// (docs/webrtc.md). Over it travel the same opaque turn-code strings as in the copy/paste game, so
// fairness rests on the turn-code protocol alone; this module makes the connection (the offer, the
// answer, their codes) and hands it to transport/channel.js.
//
// Every exported function returns errors as values ({ok: false, error: {code, detail?}}): codes
// only, put into words by ui/words/ (sayError); browser exceptions are caught here and never
// reach the UI raw.

import { CHANNEL_LABEL, CHANNEL_OPTIONS, liveTransport } from './channel.js';
import { connectionLink, isDecline, packConnectionCode, packDecline, unpackConnectionCode } from './codec/code.js';
import { candidatesOf, gatheringDone, keepOpenTick, watchStun } from './gather.js';
import { deliverAnswerToOpenTab, listenForAnswerLinks } from './handoff.js';
import { diagnose, foresee, natOf, parseIceServers, stunOutcome } from './ice.js';
import { STATUS, fail } from './transport.js';

export { CHAT_MAX, CHAT_TURN_MAX, PRESENCE_STATES, chatEnvelope, chatLineTurn, chatText, chatTurn, readChat } from './chat.js';
export { codeFromFragment } from './codec/code.js';
export { deliverAnswerToOpenTab } from './handoff.js';
export { parseIceServers } from './ice.js';
/** Transport states (transport.js), shared with the by-hand transport. */
export { STATUS };

const DEFAULTS = Object.freeze({
  // Host candidates arrive within milliseconds; this bounds the wait for a slow STUN server.
  gatherTimeoutMs: 5000,
  // A STUN server answers within a round trip; a page that heard no new candidate for this long
  // stops waiting (unreachable defaults kept it 5 s, the names' lookups failing only after 3.6 s).
  gatherQuietMs: 1000,
  // After the answer is applied, ICE and DTLS normally finish within a second on one network.
  connectTimeoutMs: 30000,
  // A brief loss (Wi-Fi roaming) often heals by itself; after this long it counts as lost.
  recoverTimeoutMs: 15000,
  // Guest: how often the offer's candidates are added again while the answer travels. libwebrtc
  // drops a pair about 15 s after its checks fail; a new pair every 5 s keeps pinging from the
  // same port, so the guest's NAT stays open for the host's checks however late they come.
  keepOpenMs: 5000,
  // Guest: how long it keeps its side open for the host to paste the answer.
  answerWaitMs: 10 * 60 * 1000,
});

function browserFail(e) {
  return fail('browser', (e && e.message) || String(e));
}

function supported() {
  return typeof RTCPeerConnection === 'function';
}

// The iceServers option may be the text of the STUN field, a list of STUN URLs, or a list of
// RTCIceServer objects already checked by ice.js (iceServersFor: STUN and TURN).
function iceServersOf(option) {
  if (option === undefined || option === null) return { ok: true, iceServers: [] };
  if (Array.isArray(option) && option.every((s) => s && typeof s === 'object')) {
    return { ok: true, iceServers: option };
  }
  return parseIceServers(Array.isArray(option) ? option.join(' ') : String(option));
}

function pageBase(option) {
  if (typeof option === 'string') return option;
  return typeof location === 'object' ? location.href : '';
}

function optionsOf(options) {
  return {
    gatherTimeoutMs: options.gatherTimeoutMs ?? DEFAULTS.gatherTimeoutMs,
    gatherQuietMs: options.gatherQuietMs ?? DEFAULTS.gatherQuietMs,
    connectTimeoutMs: options.connectTimeoutMs ?? DEFAULTS.connectTimeoutMs,
    recoverTimeoutMs: options.recoverTimeoutMs ?? DEFAULTS.recoverTimeoutMs,
    keepOpenMs: options.keepOpenMs ?? DEFAULTS.keepOpenMs,
    answerWaitMs: options.answerWaitMs ?? DEFAULTS.answerWaitMs,
  };
}

/**
 * openPeer(options, {kind, describe, packOptions}, wire) -> what wire returns, or an error value:
 * the start both sides share. The ICE servers checked, a connection made with its data channel
 * and STUN watch, this side's description set (describe(pc)) and its candidates gathered and
 * packed as a connection code of `kind`; then wire({pc, channel, stun, opts, packed, hold})
 * makes the live transport (hold(live): the one the STUN watch rechecks). Browser exceptions
 * become error values, the half-made connection closed.
 */
async function openPeer(options, { kind, describe, packOptions = () => ({}) }, wire) {
  const ice = iceServersOf(options.iceServers);
  if (!ice.ok) return ice;
  const opts = optionsOf(options);
  let pc;
  try {
    pc = new RTCPeerConnection({ iceServers: ice.iceServers });
    let live = null;
    const stun = watchStun(pc, ice.iceServers, () => live?.recheck());
    const channel = pc.createDataChannel(CHANNEL_LABEL, CHANNEL_OPTIONS);
    await describe(pc);
    await gatheringDone(pc, opts.gatherTimeoutMs, opts.gatherQuietMs);
    const packed = packConnectionCode(pc.localDescription.sdp, kind, packOptions());
    if (!packed.ok) {
      pc.close();
      return packed;
    }
    const made = await wire({ pc, channel, stun, opts, packed, hold: (held) => { live = held; } });
    return { ok: true, code: packed.code, link: connectionLink(packed.code, pageBase(options.baseUrl)), ...made };
  } catch (e) {
    try {
      pc?.close();
    } catch (e2) {
      // Closing a half-made connection can itself fail; the first error is the one to report.
    }
    return browserFail(e);
  }
}

/**
 * Starts a live connection as the host. Resolves to {ok, code, link, transport, acceptAnswer} or
 * an error value. options: iceServers (STUN field text, URL list, or RTCIceServer list from
 * ice.js iceServersFor; none by default), baseUrl (page address for the link; this page by
 * default), gatherTimeoutMs, connectTimeoutMs, recoverTimeoutMs, keepOpenMs, answerWaitMs.
 * acceptAnswer(text) takes the guest's answer code or link; answers opened as links in another
 * tab of this site are accepted too (see deliverAnswerToOpenTab).
 */
export async function startHost(options = {}) {
  if (!supported()) return fail('unsupported');
  const describe = async (pc) => { await pc.setLocalDescription(await pc.createOffer()); };
  return openPeer(options, { kind: 'offer', describe }, ({ pc, channel, stun, opts, hold }) => {
    const offerSdp = pc.localDescription.sdp;
    let answerCandidates = null; // the guest's, once its answer is in
    const why = () => diagnose(candidatesOf(pc.localDescription.sdp), answerCandidates || [], stun) || 'unreachable';
    // Before the answer, only what this page's own STUN servers did can be foreseen.
    const foreseen = () => {
      const mine = candidatesOf(pc.localDescription.sdp);
      return answerCandidates ? foresee(mine, answerCandidates, stun) : stunOutcome({ ...stun, reflexive: natOf(mine).reflexive });
    };
    const live = liveTransport(pc, channel, 'waiting-answer', opts, why, foreseen);
    hold(live);
    live.recheck(); // this page's STUN servers may already have failed
    let answered = null;

    async function acceptAnswer(text) {
      if (live.terminal()) return fail('not-open');
      const r = unpackConnectionCode(text, { expect: 'answer', offerSdp });
      if (!r.ok) return r;
      // Pasting the same answer twice (or by paste and by link) is harmless.
      if (answered !== null) return answered === r.code ? { ok: true } : fail('already-answered');
      answered = r.code;
      if (isDecline(r.fields)) {
        // "Play by codes only" on the other side: stop waiting for this offer, and say why.
        live.doomed('declined');
        return { ok: true, declined: true };
      }
      answerCandidates = candidatesOf(r.sdp);
      if (why() === 'strict-nats') {
        // Both NATs map every destination anew and no relay is offered: say so now, not in 30 s.
        live.doomed('strict-nats');
        return { ok: true };
      }
      // Checking starts before the answer is applied: the channel can open before that resolves.
      live.startChecking();
      try {
        await pc.setRemoteDescription({ type: 'answer', sdp: r.sdp });
      } catch (e) {
        answered = null;
        live.stopChecking();
        return browserFail(e);
      }
      return { ok: true };
    }

    listenForAnswerLinks(live, acceptAnswer);
    return { transport: live.transport, acceptAnswer };
  });
}

/**
 * Joins a live connection from the host's connection code or link. Resolves to
 * {ok, code, link, transport} (code/link: the answer to send back) or an error value; a garbled,
 * wrong-kind or wrong-version code gives its own clear message. options as for startHost.
 */
export async function startGuest(text, options = {}) {
  if (!supported()) return fail('unsupported');
  const offer = unpackConnectionCode(text, { expect: 'offer' });
  if (!offer.ok) return offer;
  const describe = async (pc) => {
    await pc.setRemoteDescription({ type: 'offer', sdp: offer.sdp });
    await pc.setLocalDescription(await pc.createAnswer());
  };
  const packOptions = () => ({ offerSdp: offer.sdp });
  return openPeer(options, { kind: 'answer', describe, packOptions }, ({ pc, channel, stun, opts, hold }) => {
    const offerCandidates = candidatesOf(offer.sdp);
    const why = () => diagnose(candidatesOf(pc.localDescription.sdp), offerCandidates, stun) || 'unreachable';
    const foreseen = () => foresee(candidatesOf(pc.localDescription.sdp), offerCandidates, stun);
    const live = liveTransport(pc, channel, 'waiting-host', opts, why, foreseen);
    hold(live);
    live.recheck(); // the offer's candidates and this side's may already foretell a failure
    if (why() === 'strict-nats') live.doomed('strict-nats');
    else live.keepOpen(keepOpenTick(pc, offer.sdp));
    return { transport: live.transport };
  });
}

/**
 * declineOffer(text) -> {ok, code} or an error value: the answer (WHA1.) that tells the host of
 * this connection offer that the player chose to play by codes only (codec/code.js packDecline). It
 * reveals no address, and nothing of WebRTC is started to make it.
 */
export function declineOffer(text) {
  const offer = unpackConnectionCode(text, { expect: 'offer' });
  if (!offer.ok) return offer;
  return packDecline(offer.sdp);
}

/** isDeclineCode(text) -> true when the text holds a decline (declineOffer's answer). */
export function isDeclineCode(text) {
  const r = unpackConnectionCode(text, { expect: 'answer' });
  return r.ok && isDecline(r.fields);
}

/**
 * Which flow a pasted text or opened link starts: {ok, kind: 'offer'|'answer'} for a connection
 * code (offer: join as guest; answer: give it to the host tab), or an error value.
 */
export function connectionCodeKind(text) {
  const r = unpackConnectionCode(text);
  return r.ok ? { ok: true, kind: r.kind } : r;
}

/**
 * offerAddresses(text) -> ['address:port', ...]: where answering this connection offer sends
 * connectivity checks (the addresses its author wrote into it), for the player to see before
 * agreeing to connect; [] when the text holds no offer.
 */
export function offerAddresses(text) {
  const r = unpackConnectionCode(text, { expect: 'offer' });
  if (!r.ok) return [];
  const seen = r.fields.candidates.map((c) => (c.address.includes(':') ? `[${c.address}]:${c.port}` : `${c.address}:${c.port}`));
  return [...new Set(seen)];
}

