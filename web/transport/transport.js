// One transport interface for the codes of a remote duel (docs/architecture.md, "Transports").
// A transport carries opaque strings (turn codes) for the one duel it is bound to; what they mean
// is the turn-code session's business (docs/protocol.md). Every transport has:
//
//   kind                 'hand' | 'live' (a third kind adds its own name)
//   duelId               the duel it carries (a live connection made from the start screen: null
//                        until bind(); see transport/live.js)
//   send(code)        -> {ok: true, via: kind} | {ok: false, error: {code}}
//   onReceive(cb)     -> unsubscribe; cb(code) for each code that arrives
//   status()          -> a plain snapshot {kind, state (one of STATUS), reason, ...}
//   onStatus(cb)      -> unsubscribe; cb(snapshot) now and on every change
//   close()              final: state 'closed'
//
// Which transport carries a duel's next code is decided in the transport layer (switchboard.js),
// never by flows or screens: the live connection while it is connected and bound to that duel, by hand
// otherwise. Errors are values with a code; the sentences for the player are ui/words/'s (say, sayError).

/** Transport states (status().state), shared by every kind. */
export const STATUS = Object.freeze({
  CONNECTING: 'connecting',
  CONNECTED: 'connected',
  RECONNECTING: 'reconnecting',
  DISCONNECTED: 'disconnected',
  CLOSED: 'closed',
});

/** isFinal(state) -> true for the states a transport never leaves (a new exchange makes a new one). */
export const isFinal = (state) => state === STATUS.DISCONNECTED || state === STATUS.CLOSED;

/** fail(code) -> the error value every transport returns: {ok: false, error: {code}}. */
export function fail(code, detail = undefined) {
  return { ok: false, error: detail === undefined ? { code } : { code, detail } };
}

/**
 * listeners() -> {add(cb) -> unsubscribe, emit(...args), size}: the subscriber set each transport
 * keeps per event; one failing callback does not stop the others or the transport.
 */
export function listeners() {
  const set = new Set();
  return {
    add(cb) {
      set.add(cb);
      return () => set.delete(cb);
    },
    emit(...args) {
      for (const cb of [...set]) {
        try {
          cb(...args);
        } catch (err) {
          console.error(err);
        }
      }
    },
    get size() {
      return set.size;
    },
  };
}
