// Every sentence the player reads, keyed by code, in one place. Flows, the store, codecs and
// transports return codes (and the values a sentence needs); screens turn them into words with
// say(code, values). Each area keeps its own section below; add keys at the end of yours.
// A value is a string or a function of the values object.

const WORDS = {
  // remote
  // live: the live connection's state, by its reason (transport/live.js status().reason)
  'live-waiting-answer':
    'Send this connection code (or link) to your opponent, then paste the answer they send back.',
  'live-waiting-host':
    'Send this answer code (or link) back to your opponent; you are connected as soon as they ' +
    'paste it, even minutes from now. Keep this page open and on screen until then (a phone ' +
    'pauses pages in the background); this page waits up to 10 minutes.',
  'live-checking': 'Answer applied: trying to reach your opponent directly (this takes up to 30 seconds)\u2026',
  'live-open': 'Connected live.',
  'live-interrupted': 'The live connection was interrupted \u2014 trying to recover\u2026',
  'live-peer-closed':
    'Your opponent closed the live connection. Carry on by codes, or connect again with a new ' +
    'exchange.',
  'live-lost':
    'The live connection was lost. Nothing of the game is lost: carry on by codes, or connect ' +
    'again with a new exchange.',
  'live-unreachable':
    'Could not reach your opponent directly: your networks did not let the connection through. ' +
    'If one of you is on a strict network (mobile data, office), add a TURN server in the live ' +
    'connection settings; or carry on by codes.',
  'live-strict-nats':
    'Both of you are behind strict NATs (each network gives every destination a new port), so no ' +
    'direct connection can work: add a TURN server in the live connection settings, or keep ' +
    'playing by codes.',
  'live-strict-nat':
    'Could not reach your opponent directly: one of you is behind a strict NAT (mobile data or an ' +
    'office network, for example). Add a TURN server in the live connection settings, or keep ' +
    'playing by codes.',
  'live-no-public-address':
    'Could not reach your opponent directly: neither page knows its public address, because this ' +
    'page has no STUN server set (live connection settings) and the other page found none ' +
    'either. Use the default STUN servers and connect again, or keep playing by codes.',
  'live-answer-timeout':
    'Your opponent did not paste your answer within 10 minutes, so this page stopped waiting. ' +
    'Connect again with a new exchange, or carry on by codes.',
  'live-closed-by-you': 'Live connection closed.',
  'live-declined':
    'Your opponent chose to play by codes only, so no live connection was made: the duel goes on by ' +
    'codes. If you both want to play live later, connect again with a new exchange.',
  'live-stun-no-name':
    'Could not reach your opponent directly: this page could not reach its STUN servers, because ' +
    'their names did not resolve (this network has no working DNS, or it blocks them). Without ' +
    'them a page does not learn its public address, so only pages on one local network can ' +
    'connect. Check this device\u2019s internet connection, or put STUN (or TURN) servers this ' +
    'network reaches in the live connection settings and connect again; or keep playing by codes.',
  'live-stun-no-reply':
    'Could not reach your opponent directly: this page\u2019s STUN servers did not reply (a ' +
    'firewall may block UDP, or they are down), so it does not know its public address. Put STUN ' +
    'servers this network reaches in the live connection settings, or a TURN server over TCP ' +
    '(turn:\u2026?transport=tcp), and connect again; or keep playing by codes.',
  'live-strict-nat-likely':
    'Could not reach your opponent directly: the router of one or both of you changed the port ' +
    'the STUN server saw, as strict NATs do (mobile data, offices); with one STUN server set, the ' +
    'page cannot tell for sure. Add a TURN server in the live connection settings, or keep ' +
    'playing by codes.',
  // live: said while a connection is still being made, when it will probably fail (warning)
  'live-warn-stun-no-name':
    'This page could not reach its STUN servers (their names did not resolve), so it does not ' +
    'know its public address: unless you two are on one local network, connecting will fail. ' +
    'Check the internet connection, or set STUN or TURN servers this network reaches in the live ' +
    'connection settings; or keep playing by codes.',
  'live-warn-stun-no-reply':
    'This page\u2019s STUN servers did not reply, so it does not know its public address: unless ' +
    'you two are on one local network, connecting will fail. Set STUN or TURN servers this network ' +
    'reaches in the live connection settings, or keep playing by codes.',
  'live-warn-strict-nat':
    'One of you is behind a strict NAT (it gives every destination a new port), so a direct ' +
    'connection will probably fail: if you are not connected soon, add a TURN server in the live ' +
    'connection settings, or keep playing by codes.',
  'live-warn-strict-nat-likely':
    'The router of one or both of you changes the port the STUN server sees, as strict NATs do, ' +
    'so a direct connection may fail: if you are not connected within 30 seconds of the answer ' +
    'being pasted, add a TURN server in the live connection settings, or keep playing by codes.',
  'live-not-connected': 'Not connected live right now \u2014 send this code by hand instead.',
  'live-no-host-tab':
    'This answer code belongs to a live connection started in another tab or browser. ' +
    'Paste it in the page where you made the connection code (or make a new connection code here).',
  'live-superseded': 'A newer live connection was started.',
  // learn
};

/** say(code, values) -> the sentence for that code with its values filled in; unknown codes say so plainly. */
export function say(code, values = {}) {
  const words = WORDS[code];
  if (words === undefined) return values.message || `Something went wrong (${code}).`;
  return typeof words === 'function' ? words(values) : words;
}

/** hasWords(code) -> whether a sentence exists for that code. */
export const hasWords = (code) => code in WORDS;
