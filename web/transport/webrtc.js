// Live play: one WebRTC data channel between two browsers, set up by trading two connection codes
// (docs/webrtc.md). Over it travel the same opaque turn-code strings as in the copy/paste game, so
// fairness rests on the turn-code protocol alone; this module only carries strings.
//
// Every exported function returns errors as values ({ok: false, error: {code, message}}) with a
// message meant for people; browser exceptions are caught here and never reach the UI raw.

import {
  connectionLink,
  isDecline,
  packConnectionCode,
  packDecline,
  parseIceServers,
  parseSdp,
  unpackConnectionCode,
} from './codec-rtc.js';
import { diagnose } from './ice.js';

export { codeFromFragment, parseIceServers } from './codec-rtc.js';

import { STATUS } from './transport.js';

/** Transport status values (transport.js), shared with the by-hand transport. */
export { STATUS };

/** The longest chat message, in characters (the box stops there; longer ones are not shown). */
export const CHAT_MAX = 300;

/**
 * chatText(value) -> the plain text of a chat message, or null when it is not one: a string of
 * 1..CHAT_MAX characters once control characters are dropped and spaces trimmed. Shown only as
 * text, never as HTML.
 */
export function chatText(value) {
  if (typeof value !== 'string') return null;
  // Control characters (line breaks included) would let a message fake the look of another.
  const text = value.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').trim();
  return text && text.length <= CHAT_MAX ? text : null;
}

/** The highest turn a chat envelope may carry (a duel never gets near it). */
export const CHAT_TURN_MAX = 100000;

/**
 * chatEnvelope(text, turn) -> the data-channel envelope of a chat message, or null when the text
 * is not one (chatText): {t: 'chat', m: text, n: turn}, where `n` is the turn the sender was in
 * when it spoke (omitted when unknown). A page that does not know `n` ignores it and files the
 * line under its own turn, as before: the field needs no new version.
 */
export function chatEnvelope(text, turn = null) {
  const clean = chatText(text);
  if (clean === null) return null;
  const n = chatTurn(turn);
  return n === null ? { t: 'chat', m: clean } : { t: 'chat', m: clean, n };
}

/** chatTurn(value) -> a turn number (a whole number 1..CHAT_TURN_MAX), or null for anything else. */
export function chatTurn(value) {
  return Number.isSafeInteger(value) && value >= 1 && value <= CHAT_TURN_MAX ? value : null;
}

/**
 * readChat(envelope) -> {text, turn} of a received chat envelope (turn null when it carries none
 * or nonsense), or null when it is not a chat message.
 */
export function readChat(m) {
  if (!m || typeof m !== 'object' || m.t !== 'chat') return null;
  const text = chatText(m.m);
  return text === null ? null : { text, turn: chatTurn(m.n) };
}

/**
 * chatLineTurn(stamped, mine) -> the turn under which a received chat line is shown: the
 * sender's turn, which may be one ahead of mine (the side that resolves a turn first has moved
 * on) or behind it; a stamp beyond that, or none, is filed under my own turn.
 */
export function chatLineTurn(stamped, mine) {
  const here = chatTurn(mine) || 1;
  const said = chatTurn(stamped);
  return said !== null && said <= here + 1 ? said : here;
}

/** What a player may tell the other about their turn; anything else is not sent nor shown. */
export const PRESENCE_STATES = Object.freeze(['choosing', 'sealed', 'waiting']);

const DEFAULTS = Object.freeze({
  // Host candidates arrive within milliseconds; this bounds the wait for a slow STUN server.
  gatherTimeoutMs: 5000,
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

// Negotiated with a fixed id on both sides, so neither waits for the other to announce it.
const CHANNEL_LABEL = 'wavinghands';
const CHANNEL_OPTIONS = Object.freeze({ negotiated: true, id: 0, ordered: true });
const MAX_MESSAGE_CHARS = 65536;
const BROADCAST_NAME = 'wavinghands-rtc';
// Time for the farewell message to leave before the connection is torn down.
const BYE_FLUSH_MS = 200;

/** The sentence the UI can show for each status reason (transport.detail.message). */
export const STATUS_TEXT = Object.freeze({
  'waiting-answer':
    'Send this connection code (or link) to your opponent, then paste the answer they send back.',
  'waiting-host':
    'Send this answer code (or link) back to your opponent; you are connected as soon as they ' +
    'paste it, even minutes from now. Keep this page open and on screen until then (a phone ' +
    'pauses pages in the background); this page waits up to 10 minutes.',
  checking: 'Answer applied: trying to reach your opponent directly (this takes up to 30 seconds)\u2026',
  open: 'Connected live.',
  interrupted: 'The live connection was interrupted \u2014 trying to recover\u2026',
  'peer-closed':
    'Your opponent closed the live connection. Carry on by codes, or connect again with a new ' +
    'exchange.',
  lost:
    'The live connection was lost. Nothing of the game is lost: carry on by codes, or connect ' +
    'again with a new exchange.',
  unreachable:
    'Could not reach your opponent directly: your networks did not let the connection through. ' +
    'If one of you is on a strict network (mobile data, office), add a TURN server in the live ' +
    'connection settings; or carry on by codes.',
  'strict-nats':
    'Both of you are behind strict NATs (each network gives every destination a new port), so no ' +
    'direct connection can work: add a TURN server in the live connection settings, or keep ' +
    'playing by codes.',
  'strict-nat':
    'Could not reach your opponent directly: one of you is behind a strict NAT (mobile data or an ' +
    'office network, for example). Add a TURN server in the live connection settings, or keep ' +
    'playing by codes.',
  'no-public-address':
    'Could not reach your opponent directly: neither page knows its public address, because no ' +
    'STUN server is set. Use the default STUN servers (live connection settings) and connect ' +
    'again, or keep playing by codes.',
  'answer-timeout':
    'Your opponent did not paste your answer within 10 minutes, so this page stopped waiting. ' +
    'Connect again with a new exchange, or carry on by codes.',
  'closed-by-you': 'Live connection closed.',
  declined:
    'Your opponent chose to play by codes only, so no live connection was made: the duel goes on by ' +
    'codes. If you both want to play live later, connect again with a new exchange.',
});

const ERROR_TEXT = Object.freeze({
  unsupported:
    'This browser cannot make direct connections (WebRTC is missing or turned off). Play by codes ' +
    'instead.',
  browser: 'The browser refused to set up the live connection',
  'already-answered':
    'This live connection already has an answer. To connect again, start a new live connection.',
  'not-open': 'This live connection is closed. Start a new one to connect again.',
  'not-connected': 'Not connected live right now \u2014 send this code by hand instead.',
  'bad-message': 'Only a non-empty turn code can be sent.',
  'bad-chat': `A chat message is plain text of 1 to ${CHAT_MAX} characters.`,
  'bad-presence': `Presence must be one of: ${PRESENCE_STATES.join(', ')}.`,
});

function fail(code, extra) {
  const message = extra ? `${ERROR_TEXT[code]}: ${extra}` : ERROR_TEXT[code];
  return { ok: false, error: { code, message } };
}

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

// The parsed candidates of an SDP (none when it cannot be read: then nothing is diagnosed).
function candidatesOf(sdp) {
  const r = parseSdp(sdp);
  return r.ok ? r.fields.candidates : [];
}

function pageBase(option) {
  if (typeof option === 'string') return option;
  return typeof location === 'object' ? location.href : '';
}

// Resolves when gathering is complete or the time is up; the code then carries what was found.
function gatheringDone(pc, timeoutMs) {
  return new Promise((resolve) => {
    if (pc.iceGatheringState === 'complete') {
      resolve();
      return;
    }
    const timer = setTimeout(finish, timeoutMs);
    function onChange() {
      if (pc.iceGatheringState === 'complete') finish();
    }
    function finish() {
      clearTimeout(timer);
      pc.removeEventListener('icegatheringstatechange', onChange);
      resolve();
    }
    pc.addEventListener('icegatheringstatechange', onChange);
  });
}

function callEach(listeners, args) {
  for (const cb of [...listeners]) {
    // One failing UI callback must not stop the others or the transport.
    try {
      cb(...args);
    } catch (e) {
      console.error(e);
    }
  }
}

// The transport object over one peer connection and its channel (the shared interface, plus
// presence). `stage` is the status reason while connecting. `why()` names the reason a connection
// that never opened failed (a STATUS_TEXT key: what the candidates say, else 'unreachable').
function liveTransport(pc, channel, stage, opts, why = () => 'unreachable') {
  const listeners = { status: new Set(), message: new Set(), presence: new Set(), chat: new Set() };
  let status = STATUS.CONNECTING;
  let detail = { reason: stage, message: STATUS_TEXT[stage] };
  let everOpen = false;
  let ownPresence = null;
  let peerPresence = null;
  let recoverTimer = null;
  let connectTimer = null;
  const stoppers = []; // what to stop once the channel opens or the transport ends (guest's keep-open)
  const terminal = () => status === STATUS.DISCONNECTED || status === STATUS.CLOSED;

  function setStatus(next, reason) {
    if (status === next && detail.reason === reason) return;
    status = next;
    detail = { reason, message: STATUS_TEXT[reason] };
    callEach(listeners.status, [status, detail]);
  }

  function setPeerPresence(p) {
    if (p === peerPresence) return;
    peerPresence = p;
    callEach(listeners.presence, [p]);
  }

  function post(envelope) {
    if (channel.readyState !== 'open') return false;
    try {
      channel.send(JSON.stringify(envelope));
      return true;
    } catch (e) {
      // A send can race a closing channel; the close event reports the state.
      return false;
    }
  }

  function stopWaiting() {
    while (stoppers.length) stoppers.pop()();
  }

  function teardown(delayMs) {
    clearTimeout(recoverTimer);
    clearTimeout(connectTimer);
    stopWaiting();
    channel.onopen = channel.onclose = channel.onmessage = channel.onerror = null;
    pc.onconnectionstatechange = null;
    if (typeof removeEventListener === 'function') removeEventListener('pagehide', onPageHide);
    const close = () => {
      try {
        pc.close();
      } catch (e) {
        // Already closed: nothing left to release.
      }
    };
    if (delayMs) setTimeout(close, delayMs);
    else close();
    setPeerPresence(null);
  }

  function drop(reason) {
    if (terminal()) return;
    teardown(0);
    setStatus(STATUS.DISCONNECTED, reason);
  }

  function onPageHide() {
    // Leaving the page: the farewell lets the other side say "closed" rather than "lost".
    post({ t: 'bye' });
  }

  channel.onopen = () => {
    everOpen = true;
    clearTimeout(connectTimer);
    stopWaiting();
    setStatus(STATUS.CONNECTED, 'open');
    if (ownPresence) post({ t: 'presence', s: ownPresence });
  };
  channel.onclose = () => drop(everOpen ? 'lost' : why());
  channel.onmessage = (ev) => {
    if (typeof ev.data !== 'string' || ev.data.length > MAX_MESSAGE_CHARS) return;
    let m;
    try {
      m = JSON.parse(ev.data);
    } catch (e) {
      return; // Not ours: a peer of another version may send more kinds; ignoring keeps us going.
    }
    if (!m || typeof m !== 'object') return;
    if (m.t === 'code' && typeof m.c === 'string' && m.c) callEach(listeners.message, [m.c]);
    else if (m.t === 'presence' && PRESENCE_STATES.includes(m.s)) setPeerPresence(m.s);
    else if (readChat(m)) callEach(listeners.chat, [readChat(m).text, readChat(m).turn]);
    else if (m.t === 'bye') drop('peer-closed');
  };
  pc.onconnectionstatechange = () => {
    const s = pc.connectionState;
    if (s === 'disconnected' && status === STATUS.CONNECTED) {
      setStatus(STATUS.RECONNECTING, 'interrupted');
      recoverTimer = setTimeout(() => drop('lost'), opts.recoverTimeoutMs);
    } else if (s === 'connected' && status === STATUS.RECONNECTING) {
      clearTimeout(recoverTimer);
      setStatus(STATUS.CONNECTED, 'open');
    } else if (s === 'failed' && (everOpen || detail.reason !== 'waiting-host')) {
      // A guest waiting for the host's paste sees 'failed' every ~15 s as its unanswered pairs
      // die; that is not final while it keeps its side open (keepOpen), so only others drop.
      drop(everOpen ? 'lost' : why());
    }
  };
  if (typeof addEventListener === 'function') addEventListener('pagehide', onPageHide);

  const transport = {
    kind: 'live',
    /** Current status (one of STATUS). */
    get status() {
      return status;
    },
    /** {reason, message} of the current status; message is a sentence for the player. */
    get detail() {
      return detail;
    },
    /** The opponent's last presence (one of PRESENCE_STATES), or null when unknown. */
    get peerPresence() {
      return peerPresence;
    },
    /** Sends one turn-code string; {ok: true}, or an error value when not connected. */
    send(code) {
      if (typeof code !== 'string' || code === '' || code.length > MAX_MESSAGE_CHARS - 32) {
        return fail('bad-message');
      }
      if (status !== STATUS.CONNECTED) return fail('not-connected');
      return post({ t: 'code', c: code }) ? { ok: true } : fail('not-connected');
    },
    /** Sends one chat message (chatText's rules), stamped with the sender's turn (chatEnvelope); {ok: true, text} or an error value. */
    sendChat(text, turn = null) {
      const envelope = chatEnvelope(text, turn);
      if (envelope === null) return fail('bad-chat');
      if (status !== STATUS.CONNECTED) return fail('not-connected');
      return post(envelope) ? { ok: true, text: envelope.m } : fail('not-connected');
    },
    /** Calls cb(text, turn) for each chat message received (plain text; the sender's turn, or null); returns unsubscribe. */
    onChat(cb) {
      listeners.chat.add(cb);
      return () => listeners.chat.delete(cb);
    },
    /** Calls cb(codeString) for each turn code received; returns a function that unsubscribes. */
    onMessage(cb) {
      listeners.message.add(cb);
      return () => listeners.message.delete(cb);
    },
    /** Calls cb(status, detail) now and on every change; returns a function that unsubscribes. */
    onStatus(cb) {
      listeners.status.add(cb);
      callEach(new Set([cb]), [status, detail]);
      return () => listeners.status.delete(cb);
    },
    /** Tells the opponent this side's state (PRESENCE_STATES); remembered and resent on connect. */
    setPresence(state) {
      if (!PRESENCE_STATES.includes(state)) return fail('bad-presence');
      ownPresence = state;
      post({ t: 'presence', s: state });
      return { ok: true };
    },
    /** Calls cb(state or null) now and whenever the opponent's presence changes; returns unsubscribe. */
    onPresence(cb) {
      listeners.presence.add(cb);
      callEach(new Set([cb]), [peerPresence]);
      return () => listeners.presence.delete(cb);
    },
    /** Ends the connection for good (status "closed"); the other side sees "disconnected". */
    close() {
      if (status === STATUS.CLOSED) return;
      const wasOpen = post({ t: 'bye' });
      if (!terminal()) teardown(wasOpen ? BYE_FLUSH_MS : 0);
      setStatus(STATUS.CLOSED, 'closed-by-you');
    },
  };

  // Host only: an answer is being applied, so connectivity checks start and the clock runs.
  function startChecking() {
    if (terminal() || status !== STATUS.CONNECTING) return;
    setStatus(STATUS.CONNECTING, 'checking');
    connectTimer = setTimeout(() => {
      if (!everOpen) drop(why());
    }, opts.connectTimeoutMs);
  }

  // Host only: the answer was refused, so it is back to waiting for one.
  function stopChecking() {
    clearTimeout(connectTimer);
    if (status === STATUS.CONNECTING) setStatus(STATUS.CONNECTING, 'waiting-answer');
  }

  // Guest only: runs `tick` every opts.keepOpenMs until the channel opens or the transport
  // ends; after opts.answerWaitMs without a connection the wait ends with 'answer-timeout'. A tab
  // coming back to the screen ticks at once, since hidden tabs' timers are slowed or paused.
  function keepOpen(tick) {
    if (terminal() || everOpen) return;
    const every = setInterval(tick, opts.keepOpenMs);
    const cap = setTimeout(() => {
      if (!everOpen) drop('answer-timeout');
    }, opts.answerWaitMs);
    const onVisible = () => {
      if (typeof document === 'object' && document.visibilityState === 'visible') tick();
    };
    if (typeof document === 'object') document.addEventListener('visibilitychange', onVisible);
    stoppers.push(() => {
      clearInterval(every);
      clearTimeout(cap);
      if (typeof document === 'object') document.removeEventListener('visibilitychange', onVisible);
    });
  }

  // Fails at once, with the reason, a connection the candidates show cannot work.
  function doomed(reason) {
    if (!everOpen) drop(reason);
  }

  return { transport, startChecking, stopChecking, terminal, keepOpen, doomed };
}

function optionsOf(options) {
  return {
    gatherTimeoutMs: options.gatherTimeoutMs ?? DEFAULTS.gatherTimeoutMs,
    connectTimeoutMs: options.connectTimeoutMs ?? DEFAULTS.connectTimeoutMs,
    recoverTimeoutMs: options.recoverTimeoutMs ?? DEFAULTS.recoverTimeoutMs,
    keepOpenMs: options.keepOpenMs ?? DEFAULTS.keepOpenMs,
    answerWaitMs: options.answerWaitMs ?? DEFAULTS.answerWaitMs,
  };
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
  const ice = iceServersOf(options.iceServers);
  if (!ice.ok) return ice;
  const opts = optionsOf(options);
  let pc;
  try {
    pc = new RTCPeerConnection({ iceServers: ice.iceServers });
    const channel = pc.createDataChannel(CHANNEL_LABEL, CHANNEL_OPTIONS);
    await pc.setLocalDescription(await pc.createOffer());
    await gatheringDone(pc, opts.gatherTimeoutMs);
    const offerSdp = pc.localDescription.sdp;
    const packed = packConnectionCode(offerSdp, 'offer');
    if (!packed.ok) {
      pc.close();
      return packed;
    }
    let answerCandidates = [];
    const why = () => diagnose(candidatesOf(pc.localDescription.sdp), answerCandidates) || 'unreachable';
    const live = liveTransport(pc, channel, 'waiting-answer', opts, why);
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
    return {
      ok: true,
      code: packed.code,
      link: connectionLink(packed.code, pageBase(options.baseUrl)),
      transport: live.transport,
      acceptAnswer,
    };
  } catch (e) {
    try {
      pc?.close();
    } catch (e2) {
      // Closing a half-made connection can itself fail; the first error is the one to report.
    }
    return browserFail(e);
  }
}

// An answer link opened in a new tab cannot reach this tab's connection by itself; the new tab
// posts it on a same-origin BroadcastChannel and the host tab whose offer it answers claims it.
function listenForAnswerLinks(live, acceptAnswer) {
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

// The guest's keep-open step: the offer's candidates added again, each under a foundation never
// used before. libwebrtc ignores a candidate it already has (even with another priority), but one
// with a new foundation makes a new pair, whose checks leave from the same local port and keep the
// guest's NAT mapping, and its permission for the host's address, alive.
function keepOpenTick(pc, offerSdp) {
  const lines = offerSdp.split(/\r?\n/).filter((l) => l.startsWith('a=candidate:'));
  const mid = /^a=mid:(.*)$/m.exec(offerSdp)?.[1]?.trim() ?? '0';
  let round = 0;
  return () => {
    round++;
    lines.forEach((line, i) => {
      const candidate = line.slice(2).replace(/^candidate:\S+/, `candidate:${round * 100 + i + 1}`);
      pc.addIceCandidate({ candidate, sdpMid: mid, sdpMLineIndex: 0 }).catch(() => {
        // A closed connection or a name that no longer resolves: the next round tries again.
      });
    });
  };
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
  const ice = iceServersOf(options.iceServers);
  if (!ice.ok) return ice;
  const opts = optionsOf(options);
  let pc;
  try {
    pc = new RTCPeerConnection({ iceServers: ice.iceServers });
    const channel = pc.createDataChannel(CHANNEL_LABEL, CHANNEL_OPTIONS);
    await pc.setRemoteDescription({ type: 'offer', sdp: offer.sdp });
    await pc.setLocalDescription(await pc.createAnswer());
    await gatheringDone(pc, opts.gatherTimeoutMs);
    const packed = packConnectionCode(pc.localDescription.sdp, 'answer', { offerSdp: offer.sdp });
    if (!packed.ok) {
      pc.close();
      return packed;
    }
    const offerCandidates = candidatesOf(offer.sdp);
    const why = () => diagnose(candidatesOf(pc.localDescription.sdp), offerCandidates) || 'unreachable';
    const live = liveTransport(pc, channel, 'waiting-host', opts, why);
    if (why() === 'strict-nats') live.doomed('strict-nats');
    else live.keepOpen(keepOpenTick(pc, offer.sdp));
    return {
      ok: true,
      code: packed.code,
      link: connectionLink(packed.code, pageBase(options.baseUrl)),
      transport: live.transport,
    };
  } catch (e) {
    try {
      pc?.close();
    } catch (e2) {
      // See startHost.
    }
    return browserFail(e);
  }
}

/**
 * declineOffer(text) -> {ok, code} or an error value: the answer (WHA1.) that tells the host of
 * this connection offer that the player chose to play by codes only (codec-rtc's packDecline). It
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
