// Unit tests of the ICE server settings and NAT diagnosis (web/transport/ice.js) under Node:
// `node --test tests/js/`. The candidates are in the shapes measured in the namespace lab
// (e2e/test_netplay.py): Chromium behind MASQUERADE, with and without --random-fully.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { parseSdp } from '../../web/transport/codec-rtc.js';
import { DEFAULT_STUN, diagnose, iceServersFor, natOf, parseSiteIce, parseTurn } from '../../web/transport/ice.js';

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
  assert.match(parseSiteIce({ stun: 'stun:x' }).error.message, /list/);
  assert.match(parseSiteIce({ stun: ['http://x'] }).error.message, /STUN/);
  assert.match(parseSiteIce({ turn: [{ urls: 'turn:x' }] }).error.message, /user name/);
  assert.match(parseSiteIce({ turn: {} }).error.message, /list/);
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
  assert.deepEqual(natOf(candidates(ORDINARY)), { host: 1, reflexive: 1, relay: 0, symmetric: false });
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
