// live: the live connection's state and errors, and the connection codes' errors
// (web/transport/live.js status().reason, webrtc.js, ice.js, codec/): "live-<reason>",
// "live-warn-<warning>", "rtc-<reason or code>" (sayError).

import { isolate } from './text.js';

export const WORDS = {
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
  // connection codes (transport/codec/): by the error's reason, else its code
  'rtc-empty': 'Nothing was pasted. Paste the connection code (or the whole link) you were sent.',
  'rtc-not-a-code':
    'No connection code was found in that text. A connection code starts with WHC1. (from the ' +
    'player who starts) or WHA1. (the answer). Turn codes go in the game\u2019s code box instead.',
  'rtc-turn-code':
    'This is a turn code of the game, not a connection code: paste it in the game\u2019s code box. ' +
    'A connection code starts with WHC1. (from the player who starts) or WHA1. (the answer).',
  'rtc-damaged': 'This connection code is damaged \u2014 ask for it again (copy it whole, in one piece).',
  'rtc-wrong-kind-offer':
    'This is an invitation (connection code), but an answer code is expected here. If it is your ' +
    'own, send it to your opponent and paste the answer they send back. If you both started a ' +
    'live game, one of you should join the other\u2019s instead.',
  'rtc-wrong-kind-answer':
    'This is an answer code. It goes back to the player who started the live game: they paste it ' +
    'on their page. To join, paste their connection code (WHC1.) here.',
  'rtc-version-newer':
    'This connection code comes from a newer version of Waving Hands. Reload this page to update, ' +
    'then ask for a new code.',
  'rtc-version-older':
    'This connection code comes from an older version of Waving Hands. Ask your opponent to reload ' +
    'their page and send a new code.',
  'rtc-stale-answer':
    'This answer belongs to a different connection code (perhaps an older one). Ask your opponent ' +
    'to paste your latest connection code and send the answer to that.',
  'rtc-no-candidates':
    'This device found no network address to offer, so live play cannot start. Is it connected ' +
    'to a network? You can still play by codes.',
  'rtc-unsupported-sdp':
    'This browser described its connection in a way these codes cannot carry. Try another ' +
    'browser, or play by codes.',
  'rtc-bad-ice-server': ({ detail }) => `\u201c${detail}\u201d is not a STUN server address (expected e.g. stun:stun.example.org:3478).`,
  'rtc-bad-ice-server-turn': ({ detail }) => `\u201c${detail}\u201d is not a STUN server address (expected e.g. stun:stun.example.org:3478). A TURN relay goes in the TURN fields, with its user name and password.`,
  // the live connection's errors (transport/webrtc.js, live.js, ice.js)
  'rtc-unsupported':
    'This browser cannot make direct connections (WebRTC is missing or turned off). Play by codes ' +
    'instead.',
  'rtc-browser': ({ detail }) => `The browser refused to set up the live connection: ${detail}`,
  'rtc-already-answered':
    'This live connection already has an answer. To connect again, start a new live connection.',
  'rtc-not-open': 'This live connection is closed. Start a new one to connect again.',
  'rtc-not-connected': 'Not connected live right now \u2014 send this code by hand instead.',
  'rtc-bad-message': 'Only a non-empty turn code can be sent.',
  'rtc-bad-chat': ({ max }) => `A chat message is plain text of 1 to ${max} characters.`,
  'rtc-bad-presence': 'Presence must be one of: choosing, sealed, waiting.',
  'rtc-no-host-tab':
    'This answer code belongs to a live connection started in another tab or browser. ' +
    'Paste it in the page where you made the connection code (or make a new connection code here).',
  'rtc-superseded': 'A newer live connection was started.',
  'rtc-qr': ({ detail }) => `the QR code cannot be drawn here (${detail}); copy the code instead`,
  'rtc-not-host': 'Only the page that made the connection code takes an answer.',
  'rtc-bad-turn-url': ({ detail }) => `\u201c${detail}\u201d is not a TURN server address (expected e.g. turn:turn.example.org:3478).`,
  'rtc-bad-turn-login': 'A TURN server needs both its user name and its password (credential).',
  'rtc-bad-turn-too-long': 'The TURN user name or password is too long.',
  'rtc-bad-site-ice': ({ detail }) => `The site's ice.json cannot be used (${detail}): the default servers are used.`,
  // the live connection settings (web/ui/remote.js iceSettings)
  'live-settings': 'Live connection settings',
  'live-stun-servers': 'STUN servers',
  'live-stun-placeholder': 'empty: no STUN server',
  'live-stun-defaults': 'Use the default servers',
  'live-stun-help': 'They tell each page its public address, so that two homes can connect; they learn that address. Separate several with spaces. Empty: no server is contacted (then only the same device or local network can connect).',
  'live-turn-url': 'TURN server (optional)',
  'live-turn-username': 'TURN user name',
  'live-turn-password': 'TURN password',
  'live-turn-help': 'A TURN relay carries the game when both networks are strict (mobile data, offices). Someone has to run it (see the help on live play); it needs its user name and password.',
  // the live panel and the connect dialog (web/ui/live.js); names are isolate()d
  'live-chip-off': 'by codes',
  'live-chip-connecting': 'connecting…',
  'live-chip-connected': 'connected live',
  'live-chip-reconnecting': 'reconnecting…',
  'live-chip-disconnected': 'not connected',
  'live-chip-closed': 'not connected',
  'live-chip-live': 'live',
  'live-peer-choosing': ({ opp }) => `${isolate(opp)} is choosing…`,
  'live-peer-sealed': ({ opp }) => `${isolate(opp)} has sealed their move: yours now.`,
  'live-peer-waiting': ({ opp }) => `${isolate(opp)} is waiting for your move.`,
  'live-peer-connected': ({ opp }) => `${isolate(opp)} is connected.`,
  'live-reply': 'Reply',
  'live-chat': 'Chat',
  'live-chat-placeholder': 'Say something to your opponent',
  'live-chat-label': 'Chat message',
  'live-send': 'Send',
  'live-offer': ({ opp }) => `Both online now? Play live with ${isolate(opp)}…`,
  'live-offer-how': ({ opp }) => `Trade one pair of connection codes with ${isolate(opp)}; then every turn code travels by itself.`,
  'live-make-code': 'Make a connection code',
  'live-code-alone': 'The connection code alone (not needed when the code above is sent):',
  'live-share-offer': 'Join my Waving Hands duel live',
  'live-share-answer': 'My answer for our Waving Hands duel',
  'live-bundled-waiting-answer': ({ opp }) => `Your code above also carries a connection code. Paste what ${isolate(opp)} sends back in the box above: you are connected as soon as you do.`,
  'live-bundled-waiting-host': ({ opp }) => `Your code above also carries your connection answer: you are connected as soon as ${isolate(opp)} pastes it, even minutes from now. Keep this page open and on screen until then; it waits up to 10 minutes.`,
  'live-bundled-next': ({ opp }) => `Write your orders: the code for them carries your connection answer too, so ${isolate(opp)} pastes one code. Keep this page open until you are connected.`,
  'live-code-on-its-own': 'Send the connection code on its own',
  'live-send-offer': ({ opp }) => `1. Send this connection code (or link) to ${isolate(opp)}.`,
  'live-connecting': 'Connecting…',
  'live-connect': 'Connect',
  'live-answer-placeholder': 'WHA1.… or a link',
  'live-paste-answer': ({ opp }) => `2. Paste the answer code ${isolate(opp)} sends back`,
  'live-send-answer': ({ opp }) => `Send this answer code (or link) back to ${isolate(opp)}: you are connected as soon as they paste it, even minutes from now. Keep this page open and on screen until then (a phone pauses pages in the background); it waits up to 10 minutes.`,
  'live-connected-to': ({ opp }) => `Connected to ${isolate(opp)}.`,
  'live-end': 'End the live connection',
  'live-declined-by': ({ opp }) => `${isolate(opp)} chose to play by codes only, so no live connection was made: the duel goes on by codes. If you both want to play live later, connect again with a new exchange.`,
  'live-send-answer-anyway': ({ opp }) => `Send this answer to ${isolate(opp)} all the same: their page will then tell them too.`,
  'live-connect-again': 'Connect again',
  'live-title': 'Live connection',
  'live-offered-by': ({ them }) => `${isolate(them)} offers to play live: a direct connection between your browser and theirs.`,
  'live-offered-by-unknown': 'This live connection code does not say who made it. Connect only if you know who sent it to you.',
  'live-reveals-servers': ({ them }) => `Connecting reveals your network address (your public IP address) to ${them ? isolate(them) : 'them'}, and to these servers, which help the two browsers find each other:`,
  'live-reveals': ({ them }) => `Connecting reveals your network address (your public IP address) to ${them ? isolate(them) : 'them'}. No STUN or TURN server is used (your live connection settings), so no one else learns it.`,
  'live-checks-to': 'Your browser will send connection checks to the addresses their code names:',
  'live-nothing-yet': ({ them }) => `Nothing is sent until you choose. By codes, only the codes you copy reach ${them ? isolate(them) : 'them'}.`,
  'live-connect-live': 'Connect live',
  'live-codes-only': 'Play by codes only',
  'live-connect-title': 'Connect live?',
};
