// Unit tests of the connection-code codec (web/transport/codec/) under Node, its errors put into
// words by web/ui/words/:
// `node --test tests/js/`. No browser and no network: pure packing and unpacking.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import {
  buildSdp,
  codeFromFragment,
  connectionLink,
  crc32,
  DEFAULT_MAX_CANDIDATES,
  isDecline,
  packConnectionCode,
  packDecline,
  parseSdp,
  unpackConnectionCode,
} from '../../web/transport/codec/code.js';
import { parseIceServers } from '../../web/transport/ice.js';
import { sayError } from '../../web/ui/words/index.js';
import {
  CHROME_MDNS_ANSWER,
  CHROME_MDNS_OFFER,
  CHROME_PLAIN_OFFER,
  FIREFOX_OFFER,
  MANY_INTERFACES_OFFER,
  SAMPLES,
  UNUSUAL_ANSWER,
} from './rtc-samples.mjs';

const B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

function pack(sample) {
  const r = packConnectionCode(sample.sdp, sample.kind, { offerSdp: sample.offer });
  assert.equal(r.ok, true, JSON.stringify(r));
  return r;
}

function unpack(sample, code) {
  const r = unpackConnectionCode(code, { expect: sample.kind, offerSdp: sample.offer });
  assert.equal(r.ok, true, JSON.stringify(r));
  return r;
}

// A candidate as the rebuilt SDP must show it: the address in its canonical text form.
const key = (c) => `${c.type}|${c.transport}|${c.address.toLowerCase()}|${c.port}`;

for (const sample of SAMPLES) {
  test(`round trip: ${sample.name}`, () => {
    const original = parseSdp(sample.sdp).fields;
    const packed = pack(sample);
    assert.match(packed.code, sample.kind === 'offer' ? /^WHC1\.[A-Za-z0-9_-]+$/ : /^WHA1\./);
    const back = unpack(sample, packed.code);
    assert.equal(back.kind, sample.kind);
    assert.equal(back.fields.ufrag, original.ufrag);
    assert.equal(back.fields.pwd, original.pwd);
    assert.equal(back.fields.setup, original.setup);
    assert.equal(back.fields.mid, original.mid);
    assert.equal(back.fields.fingerprint.alg, original.fingerprint.alg);
    assert.deepEqual([...back.fields.fingerprint.bytes], [...original.fingerprint.bytes]);
    assert.deepEqual(back.fields.candidates.map(key), packed.candidates.map(key));

    // The rebuilt SDP reads back to the same fields, and packs to the very same code.
    const reread = parseSdp(back.sdp).fields;
    assert.equal(reread.ufrag, original.ufrag);
    assert.equal(reread.fingerprint.alg, original.fingerprint.alg);
    assert.deepEqual(reread.candidates.map(key), packed.candidates.map(key));
    const again = packConnectionCode(back.sdp, sample.kind, { offerSdp: sample.offer });
    assert.equal(again.code, packed.code);
    for (const needed of ['a=ice-ufrag:', 'a=ice-pwd:', 'a=fingerprint:', 'a=setup:', 'a=mid:', 'a=sctp-port:5000']) {
      assert.ok(back.sdp.includes(needed), needed);
    }
  });
}

test('codes are far shorter than SDP', () => {
  for (const sample of SAMPLES) {
    const { code } = pack(sample);
    assert.ok(code.length * 3 < sample.sdp.length, `${sample.name}: ${code.length} vs ${sample.sdp.length}`);
  }
  assert.ok(pack(SAMPLES[0]).code.length <= 140);
  assert.ok(pack({ kind: 'offer', sdp: CHROME_PLAIN_OFFER }).code.length <= 125);
});

test('mDNS names travel as their UUID bytes and come back as the same name', () => {
  const { fields } = unpack(SAMPLES[0], pack(SAMPLES[0]).code);
  const names = fields.candidates.map((c) => c.address).sort();
  assert.deepEqual(names, [
    '61fb8716-7cf5-4e61-8c51-f43c4e787abd.local',
    'b83df723-acd1-4e58-81d0-8b630270d3ce.local',
  ]);
});

test('addresses come back in canonical form; odd candidates are dropped or kept as they should', () => {
  const sample = SAMPLES.find((s) => s.sdp === UNUSUAL_ANSWER);
  const { fields } = unpack(sample, pack(sample).code);
  const addrs = fields.candidates.map((c) => `${c.type} ${c.transport} ${c.address} ${c.port}`);
  assert.deepEqual(addrs, [
    'host udp player-laptop.local 40000',
    'host udp ::ffff:c000:263 40002',
    'prflx udp 2001:db8::9 40003',
    'host tcp passive player-laptop.local 40001',
  ]);
  assert.equal(fields.mid, 'data');
  assert.equal(fields.setup, 'passive');
  assert.equal(fields.fingerprint.alg, 'sha-384');
  assert.ok(buildSdp(fields).includes('a=group:BUNDLE data'));
});

test('Firefox-style reflexive and relay candidates are carried; TCP too', () => {
  const sample = { kind: 'offer', sdp: FIREFOX_OFFER };
  const { fields, sdp } = unpack(sample, pack(sample).code);
  const types = fields.candidates.map((c) => `${c.type}/${c.transport}`);
  assert.deepEqual(types.sort(), ['host/tcp active', 'host/udp', 'host/udp', 'relay/udp', 'srflx/udp']);
  assert.match(sdp, /2001:db8:85a3::8a2e:370:7334 49737 typ host/);
  assert.match(sdp, /198\.51\.100\.20 54400 typ srflx raddr 0\.0\.0\.0 rport 0/);
  assert.match(sdp, /a=candidate:\d+ 1 tcp \d+ 192\.0\.2\.10 9 typ host tcptype active/);
});

test('a long candidate list is capped, keeping the reflexive candidate and dropping zoned ones', () => {
  const r = pack({ kind: 'offer', sdp: MANY_INTERFACES_OFFER });
  assert.equal(r.candidates.length, DEFAULT_MAX_CANDIDATES);
  assert.ok(r.candidates.some((c) => c.type === 'srflx'));
  assert.ok(!r.candidates.some((c) => c.address.includes('%')));
  assert.equal(r.candidates[0].address, '192.0.2.30');
  const more = packConnectionCode(MANY_INTERFACES_OFFER, 'offer', { maxCandidates: 20 });
  assert.equal(more.candidates.length, 9);
});

test('priorities in the rebuilt SDP keep the sender\u2019s order, host above reflexive', () => {
  const sample = { kind: 'offer', sdp: FIREFOX_OFFER };
  const { sdp } = unpack(sample, pack(sample).code);
  const prios = sdp
    .split('\r\n')
    .filter((l) => l.startsWith('a=candidate:'))
    .map((l) => Number(l.split(' ')[3]));
  assert.deepEqual(prios, [...prios].sort((a, b) => b - a));
  assert.equal(new Set(prios).size, prios.length);
});

test('every single-character change of a valid code is rejected', () => {
  for (const sample of SAMPLES) {
    const { code } = pack(sample);
    const alphabet = `${B64URL}.WHCA0123456789`;
    let tried = 0;
    for (let i = 0; i < code.length; i++) {
      for (const ch of alphabet) {
        if (ch === code[i]) continue;
        const changed = code.slice(0, i) + ch + code.slice(i + 1);
        const r = unpackConnectionCode(changed, { expect: sample.kind, offerSdp: sample.offer });
        tried++;
        assert.equal(r.ok, false, `${sample.name}: change at ${i} to ${ch} accepted`);
        assert.equal(typeof sayError(r.error), 'string');
        assert.ok(!sayError(r.error).startsWith('Something went wrong'), r.error);
      }
    }
    assert.ok(tried > 5000);
  }
});

test('truncated, extended and mangled codes are rejected as damaged', () => {
  const { code } = pack(SAMPLES[0]);
  for (let n = 6; n < code.length; n++) {
    const r = unpackConnectionCode(code.slice(0, n), { expect: 'offer' });
    assert.equal(r.ok, false);
    assert.equal(r.error.code, 'damaged');
  }
  for (const bad of [`${code}A`, `${code}-`, code.replace(/.$/, ''), `${code.slice(0, 60)}${code.slice(61)}`]) {
    const r = unpackConnectionCode(bad, { expect: 'offer' });
    assert.equal(r.error.code, 'damaged', bad);
    assert.match(sayError(r.error), /damaged \u2014 ask for it again/);
  }
  const swapped = code.slice(0, 30) + code[31] + code[30] + code.slice(32);
  if (swapped !== code) assert.equal(unpackConnectionCode(swapped).error.code, 'damaged');
});

test('errors name the wrong kind, the version, a stale answer, or no code at all', () => {
  const offer = pack(SAMPLES[0]).code;
  const answer = pack(SAMPLES[1]).code;
  const err = (text, opts) => unpackConnectionCode(text, opts).error;
  assert.equal(err(offer, { expect: 'answer' }).code, 'wrong-kind');
  assert.match(sayError(err(offer, { expect: 'answer' })), /answer code is expected/);
  assert.equal(err(answer, { expect: 'offer' }).code, 'wrong-kind');
  assert.match(sayError(err(answer, { expect: 'offer' })), /goes back to the player who started/);
  assert.match(sayError(err(offer.replace('WHC1.', 'WHC2.'))), /newer version/);
  assert.match(sayError(err(offer.replace('WHC1.', 'WHC0.'))), /older version/);
  assert.equal(err(offer.replace('WHC1.', 'WHC2.')).code, 'version');
  assert.equal(err(answer, { expect: 'answer', offerSdp: CHROME_PLAIN_OFFER }).code, 'stale-answer');
  assert.equal(err('WHT1.AAAAAAAAAAAAAAAA').code, 'not-a-code');
  assert.equal(err('my move: WH1.AQIDBAUGBwgJ').code, 'not-a-code');
  assert.match(sayError(err('my move: WH1.AQIDBAUGBwgJ')), /turn code of the game/);
  assert.equal(err('see you tonight').code, 'not-a-code');
  assert.equal(err('').code, 'empty');
  for (const junk of [null, undefined, 42, {}, [], 'WHC1.', 'WHC1.A', 'WHC1.AAAAA', 'x'.repeat(100000)]) {
    const r = unpackConnectionCode(junk);
    assert.equal(r.ok, false);
    assert.equal(typeof sayError(r.error), 'string');
    assert.ok(!sayError(r.error).startsWith('Something went wrong'), r.error);
  }
});

test('a code is found in a link, in chat text, and across wrapped lines', () => {
  const { code } = pack(SAMPLES[0]);
  const link = connectionLink(code, 'https://games.example/wh/index.html?x=1#old-fragment');
  assert.equal(link, `https://games.example/wh/index.html?x=1#rtc=${code}`);
  assert.equal(codeFromFragment(`#rtc=${code}`), code);
  assert.equal(codeFromFragment(`#game=abc&rtc=${code}`), code);
  assert.equal(codeFromFragment('#game=abc'), null);
  const forms = [
    link,
    `Join me! ${link} (it's live)`,
    `"${code}".`,
    `code:\n${code.slice(0, 40)}\n${code.slice(40, 90)}\r\n${code.slice(90)}\nthanks`,
    `${code.slice(0, 70)} ${code.slice(70)}`,
    `${code} see you`,
  ];
  for (const text of forms) {
    const r = unpackConnectionCode(text, { expect: 'offer' });
    assert.equal(r.ok, true, text);
    assert.equal(r.code, code);
  }
});

test('answers carry a tag of their offer', () => {
  const r = packConnectionCode(CHROME_MDNS_ANSWER, 'answer', { offerSdp: CHROME_MDNS_OFFER });
  const ok = unpackConnectionCode(r.code, { expect: 'answer', offerSdp: CHROME_MDNS_OFFER });
  assert.equal(ok.ok, true);
  // The guest packs against the rebuilt offer; the tag still matches the host's original SDP.
  const rebuilt = unpackConnectionCode(packConnectionCode(CHROME_MDNS_OFFER, 'offer').code).sdp;
  const fromGuest = packConnectionCode(CHROME_MDNS_ANSWER, 'answer', { offerSdp: rebuilt });
  assert.equal(fromGuest.code, r.code);
  assert.equal(packConnectionCode(CHROME_MDNS_ANSWER, 'answer').error.code, 'unsupported-sdp');
  assert.equal(packConnectionCode(CHROME_MDNS_OFFER.replace('actpass', 'active'), 'offer').ok, true);
  const actpassAnswer = packConnectionCode(CHROME_MDNS_OFFER, 'answer', { offerSdp: CHROME_MDNS_OFFER });
  assert.equal(actpassAnswer.error.code, 'unsupported-sdp');
});

test('an SDP with no usable candidate, or missing fields, gives an error value', () => {
  const noCands = CHROME_MDNS_OFFER.split('\r\n').filter((l) => !l.startsWith('a=candidate')).join('\r\n');
  assert.equal(packConnectionCode(noCands, 'offer').error.code, 'no-candidates');
  const zoned = noCands.replace('a=ice-ufrag', 'a=candidate:1 1 udp 1 fe80::1%eth0 5000 typ host\r\na=ice-ufrag');
  assert.equal(packConnectionCode(zoned, 'offer').error.code, 'no-candidates');
  const noFp = CHROME_MDNS_OFFER.replace(/a=fingerprint:[^\r]*\r\n/, '');
  assert.equal(packConnectionCode(noFp, 'offer').error.code, 'unsupported-sdp');
  const md5 = CHROME_MDNS_OFFER.replace('sha-256', 'md5');
  assert.equal(packConnectionCode(md5, 'offer').error.code, 'unsupported-sdp');
  assert.equal(packConnectionCode(null, 'offer').error.code, 'unsupported-sdp');
  assert.equal(packConnectionCode(CHROME_MDNS_OFFER, 'pranswer').error.code, 'unsupported-sdp');
});

// Codes with a valid checksum around mutated and random payloads: the structure checks must
// reject or accept each without ever throwing, and whatever is accepted must rebuild into an SDP.
test('mutated and random payloads with a valid checksum never throw', () => {
  let seed = 12345;
  const rand = (n) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  const seal = (prefix, payload) => {
    const sum = crc32(Uint8Array.from([...Buffer.from(prefix), ...payload]));
    const bytes = [...payload, sum >>> 24, (sum >>> 16) & 0xff, (sum >>> 8) & 0xff, sum & 0xff];
    return prefix + Buffer.from(bytes).toString('base64url');
  };
  const seeds = SAMPLES.map((sample) => {
    const { code } = pack(sample);
    return { prefix: code.slice(0, 5), payload: [...Buffer.from(code.slice(5), 'base64url')].slice(0, -4) };
  });
  let accepted = 0;
  let rejected = 0;
  const runs = 30000;
  for (let n = 0; n < runs; n++) {
    const { prefix, payload } = seeds[rand(seeds.length)];
    let p = [...payload];
    const edits = 1 + rand(4);
    for (let e = 0; e < edits; e++) {
      const op = rand(5);
      const at = rand(p.length + 1);
      if (op === 0) p[at % p.length] = rand(256);
      else if (op === 1) p[at % p.length] ^= 1 << rand(8);
      else if (op === 2) p.splice(at, 1 + rand(8));
      else if (op === 3) p.splice(at, 0, ...Array.from({ length: 1 + rand(20) }, () => rand(256)));
      else p = Array.from({ length: rand(140) }, () => rand(256));
    }
    const r = unpackConnectionCode(seal(prefix, Uint8Array.from(p)));
    if (r.ok) {
      accepted++;
      assert.ok(r.sdp.startsWith('v=0\r\n'));
      // Whatever decodes packs again to the same code: one spelling per connection.
      if (r.kind === 'offer') {
        assert.equal(packConnectionCode(r.sdp, 'offer', { maxCandidates: 255 }).code, r.code);
      }
    } else {
      rejected++;
      assert.equal(r.error.code, 'damaged');
    }
  }
  assert.equal(accepted + rejected, runs);
  assert.ok(accepted > 100 && rejected > 100, `accepted ${accepted}, rejected ${rejected}`);
});

test('STUN server field', () => {
  assert.deepEqual(parseIceServers(''), { ok: true, iceServers: [] });
  assert.deepEqual(parseIceServers(undefined), { ok: true, iceServers: [] });
  assert.deepEqual(parseIceServers('stun:stun.example.org:3478, stuns:[2001:db8::1]:5349\nstun:10.0.0.1'), {
    ok: true,
    iceServers: [{ urls: ['stun:stun.example.org:3478', 'stuns:[2001:db8::1]:5349', 'stun:10.0.0.1'] }],
  });
  const bad = parseIceServers('stun.example.org');
  assert.equal(bad.error.code, 'bad-ice-server');
  assert.match(sayError(bad.error), /\u201cstun\.example\.org\u201d is not a STUN server address/);
  assert.match(sayError(parseIceServers('turn:relay.example.org').error), /TURN/);
  assert.equal(parseIceServers('stun:x.example:99999').ok, false);
});

test('a decline is a version-1 answer to its offer that reveals nothing, and no real answer is one', () => {
  for (const sample of SAMPLES.filter((x) => x.kind === 'offer')) {
    const declined = packDecline(sample.sdp);
    assert.equal(declined.ok, true, JSON.stringify(declined));
    assert.match(declined.code, /^WHA1\.[A-Za-z0-9_-]+$/);
    // What every host page does with an answer: read it against its own offer.
    const read = unpackConnectionCode(`WH1.AAAA ${declined.code}`, { expect: 'answer', offerSdp: sample.sdp });
    assert.equal(read.ok, true, JSON.stringify(read));
    assert.equal(isDecline(read.fields), true);
    assert.deepEqual(read.fields.candidates.map((c) => `${c.address}:${c.port}`), ['0.0.0.0:9']);
    assert.ok(read.fields.fingerprint.bytes.every((b) => b === 0));
  }
  for (const sample of SAMPLES.filter((x) => x.kind === 'answer')) {
    const real = unpackConnectionCode(pack(sample).code, {});
    assert.equal(isDecline(real.fields), false, sample.name);
  }
  assert.equal(packDecline('not an sdp').ok, false);
});
