// The live transport over one peer connection and its data channel (docs/webrtc.md, "The
// transport"): its status and reason, the envelopes on the wire (codes, presence, chat, bye), the
// host's and the guest's clocks. transport/webrtc.js makes the connection and hands it here.

import { CHAT_MAX, PRESENCE_STATES, chatEnvelope, readChat } from './chat.js';
import { STATUS, fail } from './transport.js';

/** The data channel's label and options: negotiated with a fixed id on both sides, so neither waits for the other to announce it. */
export const CHANNEL_LABEL = 'wavinghands';
export const CHANNEL_OPTIONS = Object.freeze({ negotiated: true, id: 0, ordered: true });
const MAX_MESSAGE_CHARS = 65536;
// Time for the farewell message to leave before the connection is torn down.
const BYE_FLUSH_MS = 200;

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
// that never opened failed (ice.js diagnose's reason, else 'unreachable'); `foreseen()` why it will
// probably fail while connecting (ice.js foresee). Returns the transport and the makers' handles.
export function liveTransport(pc, channel, stage, opts, why = () => 'unreachable', foreseen = () => null) {
  const listeners = { status: new Set(), message: new Set(), presence: new Set(), chat: new Set() };
  let status = STATUS.CONNECTING;
  let detail = { reason: stage, warning: null };
  let everOpen = false;
  let ownPresence = null;
  let peerPresence = null;
  let recoverTimer = null;
  let connectTimer = null;
  const stoppers = []; // what to stop once the channel opens or the transport ends (guest's keep-open)
  let keepingOpen = false; // guest: its keep-open rounds run (its pairs fail and are renewed)
  const terminal = () => status === STATUS.DISCONNECTED || status === STATUS.CLOSED;

  // While connecting: the reason it will probably fail (ice.js foresee), said beside the wait.
  const warningNow = () => (status === STATUS.CONNECTING ? foreseen() : null);

  function setStatus(next, reason) {
    if (status === next && detail.reason === reason) return;
    status = next;
    detail = { reason, warning: warningNow() };
    callEach(listeners.status, [status, detail]);
  }

  // What the candidates or the STUN servers say changed (an answer applied, a STUN error came).
  function recheck() {
    const warning = warningNow();
    if (warning === detail.warning) return;
    detail = { ...detail, warning };
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
    keepingOpen = false;
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
    } else if (s === 'failed' && (everOpen || !keepingOpen)) {
      // A guest waiting for the host's paste sees 'failed' every ~15 s as its unanswered pairs
      // die; that is not final while it keeps its side open (keepOpen), so only others drop:
      // its end comes from its clocks (answerWaitMs, or connectTimeoutMs once the host has it).
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
    /** {reason, warning} of the current status: codes (ui/words/live.js "live-<reason>", "live-warn-<warning>"). */
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
      if (envelope === null) return { ok: false, error: { code: 'bad-chat', max: CHAT_MAX } };
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
    /**
     * Guest: the host has this answer (a code of the host's came by hand without the offer), so
     * its checks have run or run now: not connected within connectTimeoutMs, the connection has
     * failed, and the reason is said (bug: the guest waited 10 minutes after the host gave up).
     */
    hostHasAnswer() {
      if (detail.reason === 'waiting-host') startChecking();
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
    keepingOpen = true;
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

  return { transport, startChecking, stopChecking, terminal, keepOpen, doomed, recheck };
}
