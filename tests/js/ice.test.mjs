// Unit tests of the ICE server settings and NAT diagnosis (web/transport/ice.js) under Node:
// `node --test tests/js/`. The candidates are in the shapes measured in the namespace lab
// (e2e/test_netplay.py): Chromium behind MASQUERADE, with and without --random-fully.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { parseSdp } from '../../web/transport/codec/sdp.js';
import { sayError } from '../../web/ui/words/index.js';
import { DEFAULT_STUN, diagnose, foresee, iceServersFor, natOf, parseSiteIce, parseTurn, stunOutcome } from '../../web/transport/ice.js';

const MDNS = 'a=candidate:1 1 udp 2130706431 2d241111-8876-4df7-a0d3-e5cd15de5796.local 50656 typ host';
const ORDINARY = [MDNS, 'a=candidate:2 1 udp 1694498559 203.0.113.2 50656 typ srflx raddr 0.0.0.0 rport 0'];
const SYMMETRIC = [
  MDNS,
  'a=candidate:2 1 udp 1694498559 203.0.113.2 18975 typ srflx raddr 0.0.0.0 rport 0',
  'a=candidate:3 1 udp 1694498303 203.0.113.2 36539 typ srflx raddr 0.0.0.0 rport 0',
];
const RELAY = 'a=candidate:4 1 udp 16776447 203.0.113.10 49357 typ relay raddr 0.0.0.0 rport 0';

function candidates(lines) {
  const sdp = [
    'v=0', 'o=- 1 2 IN IP4 127.0.0.1', 's=-', 't=0 0', 'm=application 9 UDP/DTLS/SCTP webrtc-datachannel',
    ...lines, 'a=ice-ufrag:abcd', 'a=ice-pwd:abcdefghijklmnopqrstuvwx',
    `a=fingerprint:sha-256 ${Array(32).fill('AB').join(':')}`, 'a=mid:0', '',
  ].join('\r\n');
  const r = parseSdp(sdp);
  assert.ok(r.ok, JSON.stringify(r));
  return r.fields.candidates;
}

test('the default STUN list is used until the player changes the field', () => {
  const r = iceServersFor({ stun: null });
  assert.ok(r.ok);
  assert.deepEqual(r.iceServers, [{ urls: [...DEFAULT_STUN] }]);
  assert.ok(DEFAULT_STUN.length >= 2);
});

test('a cleared STUN field means no server at all, the site\'s included', () => {
  const site = parseSiteIce({ stun: ['stun:stun.friends.example:3478'], turn: [{ urls: 'turn:relay.friends.example', username: 'u', credential: 'p' }] });
  assert.ok(site.ok);
  assert.deepEqual(iceServersFor({ stun: '', site }).iceServers, []);
  assert.deepEqual(iceServersFor({ stun: '  ', site }).iceServers, []);
});

test('the site\'s ice.json replaces the default STUN list and adds its TURN relays', () => {
  const site = parseSiteIce({ stun: ['stun:stun.friends.example:3478'], turn: [{ urls: ['turn:relay.friends.example:3478'], username: 'u', credential: 'p' }] });
  const r = iceServersFor({ stun: null, site });
  assert.deepEqual(r.iceServers, [
    { urls: ['stun:stun.friends.example:3478'] },
    { urls: ['turn:relay.friends.example:3478'], username: 'u', credential: 'p' },
  ]);
  // A file with no "stun" keeps the defaults.
  const turnOnly = parseSiteIce({ stun: null, turn: [] });
  assert.deepEqual(iceServersFor({ stun: null, site: turnOnly }).iceServers, [{ urls: [...DEFAULT_STUN] }]);
});

test('a bad ice.json says which part is wrong', () => {
  assert.equal(parseSiteIce([]).error.code, 'bad-site-ice');
  assert.match(parseSiteIce({ stun: 'stun:x' }).error.detail, /list/);
  assert.match(parseSiteIce({ stun: ['http://x'] }).error.detail, /stun: URL/);
  assert.match(parseSiteIce({ turn: [{ urls: 'turn:x' }] }).error.detail, /bad-turn-login/);
  assert.match(parseSiteIce({ turn: {} }).error.detail, /list/);
  assert.match(sayError(parseSiteIce({ turn: {} }).error), /ice.json cannot be used/);
  assert.match(sayError(parseTurn({ url: 'turn:x', username: 'a' }).error), /user name and its password/);
});

test('TURN needs a turn: URL, a user name and a credential', () => {
  assert.deepEqual(parseTurn({}), { ok: true, server: null });
  assert.deepEqual(parseTurn({ url: 'turn:203.0.113.10:3478?transport=udp', username: 'wizard', credential: 'pw' }).server, {
    urls: ['turn:203.0.113.10:3478?transport=udp'], username: 'wizard', credential: 'pw',
  });
  assert.equal(parseTurn({ url: 'stun:x', username: 'a', credential: 'b' }).error.code, 'bad-turn-url');
  assert.equal(parseTurn({ url: 'turn:x', username: 'a' }).error.code, 'bad-turn-login');
  assert.equal(parseTurn({ url: 'turn:x', credential: 'b' }).error.code, 'bad-turn-login');
  const r = iceServersFor({ stun: '', turn: { url: 'turns:relay.example.org:5349', username: 'a', credential: 'b' } });
  assert.deepEqual(r.iceServers, [{ urls: ['turns:relay.example.org:5349'], username: 'a', credential: 'b' }]);
  assert.equal(iceServersFor({ stun: 'nonsense' }).error.code, 'bad-ice-server');
});

test('a NAT that shows two STUN servers two ports is symmetric; one port is not', () => {
  assert.deepEqual(natOf(candidates(ORDINARY)), { host: 1, reflexive: 1, relay: 0, symmetric: false, portMoved: false });
  assert.equal(natOf(candidates(SYMMETRIC)).symmetric, true);
  // Two interfaces behind one ordinary NAT: two sockets, two mappings, not symmetric.
  const twoSockets = [MDNS, 'a=candidate:5 1 udp 2130706175 10.0.0.9 40000 typ host', ...ORDINARY.slice(1),
    'a=candidate:6 1 udp 1694498303 203.0.113.2 40000 typ srflx raddr 0.0.0.0 rport 0'];
  assert.equal(natOf(candidates(twoSockets)).symmetric, false);
});

test('the diagnosis names what to do', () => {
  assert.equal(diagnose(candidates(SYMMETRIC), candidates(SYMMETRIC)), 'strict-nats');
  assert.equal(diagnose(candidates(SYMMETRIC), candidates(ORDINARY)), 'strict-nat');
  assert.equal(diagnose(candidates(ORDINARY), candidates(ORDINARY)), null);
  assert.equal(diagnose(candidates([MDNS]), candidates([MDNS])), 'no-public-address');
  // A relay on either side may carry it: nothing to blame in advance.
  assert.equal(diagnose(candidates([...SYMMETRIC, RELAY]), candidates(SYMMETRIC)), null);
});

// Shapes Chromium gave in the lab (e2e/netlab.py) with ONE STUN server: home "c" behind
// MASQUERADE --random-fully shows one public address whose port is not its socket's.
const MOVED = [MDNS, 'a=candidate:2 1 udp 1677729535 203.0.113.4 13785 typ srflx raddr 0.0.0.0 rport 0'];

test('with one STUN server a moved port is all a symmetric NAT shows, and it is named as likely', () => {
  assert.equal(natOf(candidates(MOVED)).symmetric, false);
  assert.equal(natOf(candidates(MOVED)).portMoved, true);
  assert.equal(natOf(candidates(ORDINARY)).portMoved, false);
  assert.equal(natOf(candidates([MDNS])).portMoved, false);
  assert.equal(diagnose(candidates(MOVED), candidates(MOVED)), 'strict-nat-likely');
  assert.equal(diagnose(candidates(ORDINARY), candidates(MOVED)), 'strict-nat-likely');
  assert.equal(foresee(candidates(MOVED), candidates(MOVED)), 'strict-nat-likely');
  assert.equal(foresee(candidates(ORDINARY), candidates(ORDINARY)), null);
  // Proof beats likelihood: two STUN servers that saw two ports.
  assert.equal(diagnose(candidates(SYMMETRIC), candidates(MOVED)), 'strict-nat');
  assert.equal(foresee(candidates(SYMMETRIC), candidates(SYMMETRIC)), null);
});

test('STUN servers that gave no public address are named, with whether their names resolved', () => {
  const lookup = { url: 'stun:stun.l.google.com:19302', errorCode: 701, errorText: 'STUN host lookup received error.' };
  assert.equal(stunOutcome({ asked: 3, errors: [lookup] }), 'stun-no-name');
  assert.equal(stunOutcome({ asked: 3, errors: [] }), 'stun-no-reply');
  assert.equal(stunOutcome({ asked: 0, errors: [] }), null);
  assert.equal(stunOutcome({ asked: 1, errors: [lookup], reflexive: 1 }), null);
  // No longer "no STUN server is set" while the defaults are set (bug 3).
  assert.equal(diagnose(candidates([MDNS]), candidates([MDNS]), { asked: 3, errors: [lookup] }), 'stun-no-name');
  assert.equal(diagnose(candidates([MDNS]), candidates(ORDINARY), { asked: 1, errors: [] }), 'stun-no-reply');
  assert.equal(diagnose(candidates([MDNS]), candidates([MDNS]), { asked: 0, errors: [] }), 'no-public-address');
  assert.equal(foresee(candidates([MDNS]), candidates([MDNS]), { asked: 3, errors: [lookup] }), 'stun-no-name');
});
