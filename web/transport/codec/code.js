// Connection codes for live play: the few SDP fields a WebRTC data channel needs, packed into
// bytes and written as base64url, so two players can trade them in any chat (docs/webrtc.md).
//
// Pure module (no DOM, no RTCPeerConnection): it runs in the browser and under Node's test runner.
// Every public function returns errors as values ({ok: false, error: {code, reason?, detail?}}):
// `code` is stable for branching, `reason` the finer cause a sentence is chosen by (ui/words/,
// "rtc-<reason or code>"); nothing here throws on bad input.

import { Writer, asciiBytes, base64urlDecode, base64urlEncode, bytesHex, crc32, hexBytes, packSixBits } from './bytes.js';
import {
  ADDR_IPV4, ADDR_IPV6, ADDR_MDNS, ADDR_NAME, ADDR_SAME, CODE_VERSION, DEFAULT_MAX_CANDIDATES, DEFAULT_PWD_LEN,
  DEFAULT_UFRAG_LEN, FLAG_DEFAULT_LENGTHS, FLAG_MID, HOSTNAME_RE, ICE_CHARS, KIND_LETTER, LETTER_KIND, LINK_KEY,
  MAX_CODE_CHARS, MDNS_RE, TOKEN_RE,
} from './format.js';
import { formatIPv4, formatIPv6, parseIPv4, parseIPv6 } from './ip.js';
import { codeSightings, readPayload } from './read.js';
import { HASHES, SETUPS, TRANSPORTS, TYPES, buildSdp, parseSdp } from './sdp.js';

export { CODE_VERSION, DEFAULT_MAX_CANDIDATES, KIND_LETTER, LINK_KEY } from './format.js';
export { buildSdp, parseSdp } from './sdp.js';
export { crc32 } from './bytes.js';

// Error codes are few and stable (the UI may branch on them); several messages can share one code.
const MESSAGE_CODE = {
  'turn-code': 'not-a-code',
  'wrong-kind-offer': 'wrong-kind',
  'wrong-kind-answer': 'wrong-kind',
  'version-newer': 'version',
  'version-older': 'version',
};

function fail(key, detail) {
  const code = MESSAGE_CODE[key] ?? key;
  const error = code === key ? { code } : { code, reason: key };
  return { ok: false, error: detail ? { ...error, detail } : error };
}

// How an address is packed, with its canonical text (the form the other side will see), or null.
function addressForm(address) {
  const v4 = parseIPv4(address);
  if (v4) return { form: ADDR_IPV4, bytes: v4, text: formatIPv4(v4) };
  if (address.includes(':')) {
    const v6 = parseIPv6(address);
    return v6 ? { form: ADDR_IPV6, bytes: v6, text: formatIPv6(v6) } : null;
  }
  const m = MDNS_RE.exec(address);
  if (m) return { form: ADDR_MDNS, bytes: hexBytes(m.slice(1).join('')), text: address.toLowerCase() };
  if (address.length <= 255 && HOSTNAME_RE.test(address)) {
    return { form: ADDR_NAME, bytes: asciiBytes(address), text: address };
  }
  return null;
}

// Chooses what goes into a code: duplicates dropped, best first, and at most `max` candidates,
// keeping server-reflexive and relay ones, since those are what cross NATs.
function selectCandidates(candidates, max) {
  const seen = new Set();
  const unique = [];
  for (const c of [...candidates].sort((a, b) => b.priority - a.priority)) {
    const a = addressForm(c.address);
    if (!a) continue;
    const key = `${c.type} ${c.transport} ${a.text} ${c.port}`;
    if (seen.has(key)) continue;
    seen.add(key);
    unique.push({ ...c, address: a.text, packed: a });
  }
  const far = unique.filter((c) => c.type !== 'host').slice(0, Math.max(1, Math.floor(max / 2)));
  const hosts = unique.filter((c) => c.type === 'host').slice(0, max - far.length);
  const keep = new Set([...far, ...hosts]);
  return unique.filter((c) => keep.has(c));
}

/** A 16-bit tag of an offer's ICE credentials; an answer carries it to show which offer it answers. */
export function offerTag(ufrag, pwd) {
  return crc32(asciiBytes(`${ufrag}:${pwd}`)) & 0xffff;
}

function prefixOf(kind, version = CODE_VERSION) {
  return `WH${KIND_LETTER[kind]}${version}.`;
}

function iceIndices(s) {
  const out = [];
  for (const ch of s) {
    const i = ICE_CHARS.indexOf(ch);
    if (i < 0) return null;
    out.push(i);
  }
  return out;
}

/**
 * Packs a local SDP into a connection code string; {ok, code} or an error value.
 * kind: 'offer' or 'answer'; an answer needs opts.offerSdp, the offer it answers.
 */
export function packConnectionCode(sdp, kind, opts = {}) {
  if (!(kind in KIND_LETTER)) return fail('unsupported-sdp', `kind ${kind}`);
  const parsed = parseSdp(sdp);
  if (!parsed.ok) return parsed;
  const f = parsed.fields;
  const setupIndex = SETUPS.indexOf(f.setup);
  if (setupIndex < 0 || (kind === 'answer' && f.setup === 'actpass')) {
    return fail('unsupported-sdp', `setup ${f.setup}`);
  }
  const ufragIdx = iceIndices(f.ufrag);
  const pwdIdx = iceIndices(f.pwd);
  if (!ufragIdx || !pwdIdx || f.ufrag.length > 255 || f.pwd.length > 255) {
    return fail('unsupported-sdp', 'ICE credentials');
  }
  if (f.mid.length > 255 || !TOKEN_RE.test(f.mid)) return fail('unsupported-sdp', 'mid');
  const candidates = selectCandidates(f.candidates, opts.maxCandidates ?? DEFAULT_MAX_CANDIDATES);
  if (candidates.length === 0) return fail('no-candidates');

  const w = new Writer();
  const defaultLengths = f.ufrag.length === DEFAULT_UFRAG_LEN && f.pwd.length === DEFAULT_PWD_LEN;
  const hashIndex = HASHES.findIndex(([name]) => name === f.fingerprint.alg);
  w.u8(
    setupIndex | (hashIndex << 2) | (defaultLengths ? FLAG_DEFAULT_LENGTHS : 0) |
      (f.mid !== '0' ? FLAG_MID : 0),
  );
  if (kind === 'answer') {
    const offer = parseSdp(opts.offerSdp ?? '');
    if (!offer.ok) return fail('unsupported-sdp', 'answer without its offer');
    w.u16(offerTag(offer.fields.ufrag, offer.fields.pwd));
  }
  if (!defaultLengths) {
    w.u8(f.ufrag.length);
    w.u8(f.pwd.length);
  }
  w.raw(packSixBits(ufragIdx));
  w.raw(packSixBits(pwdIdx));
  if (f.mid !== '0') {
    w.u8(f.mid.length);
    w.raw(asciiBytes(f.mid));
  }
  w.raw(f.fingerprint.bytes);
  const addresses = [];
  for (const c of candidates) {
    const a = c.packed;
    const same = addresses.findIndex((x) => x.form === a.form && bytesHex(x.bytes) === bytesHex(a.bytes));
    let form = a.form;
    if (same >= 0 && same < 256) form = ADDR_SAME;
    w.u8(TYPES.indexOf(c.type) | (TRANSPORTS.indexOf(c.transport) << 2) | (form << 4));
    if (form === ADDR_SAME) w.u8(same);
    else {
      if (form === ADDR_NAME) w.u8(a.bytes.length);
      w.raw(a.bytes);
    }
    w.u16(c.port);
    addresses.push(a);
  }
  const payload = w.done();
  const prefix = prefixOf(kind);
  const sum = crc32(Uint8Array.from([...asciiBytes(prefix), ...payload]));
  const all = Uint8Array.from([...payload, sum >>> 24, (sum >>> 16) & 0xff, (sum >>> 8) & 0xff, sum & 0xff]);
  const used = candidates.map((c) => ({ type: c.type, transport: c.transport, address: c.address, port: c.port }));
  return { ok: true, code: prefix + base64urlEncode(all), candidates: used };
}

// A declined offer (docs/webrtc.md, "Declining"): the guest who chose "Play by codes only" sends
// back, inside its next turn code, an answer that reveals nothing and reaches nobody: fixed ICE
// credentials, an all-zero fingerprint and one candidate, 0.0.0.0 port 9 ("this host", the
// discard port: no address a browser gathers). It is a valid version-1 answer, so an older host
// page takes it as one whose checks fail (and applies the turn code it came with); a page that
// knows it says the opponent plays by codes.
const DECLINE_UFRAG = 'none';
const DECLINE_PWD = 'declinedplaybycodesonly0';
const DECLINE_CANDIDATE = Object.freeze({ type: 'host', transport: 'udp', address: '0.0.0.0', port: 9 });

/** packDecline(offerSdp) -> {ok, code} or an error value: the answer that declines this offer. */
export function packDecline(offerSdp) {
  const offer = parseSdp(offerSdp);
  if (!offer.ok) return offer;
  const sdp = buildSdp({
    ufrag: DECLINE_UFRAG, pwd: DECLINE_PWD, setup: 'active', mid: offer.fields.mid,
    fingerprint: { alg: 'sha-256', bytes: new Uint8Array(32) }, candidates: [DECLINE_CANDIDATE],
  });
  return packConnectionCode(sdp, 'answer', { offerSdp });
}

/** isDecline(fields) -> true when an unpacked answer's fields are packDecline's. */
export function isDecline(fields) {
  const [c, ...more] = fields.candidates;
  return fields.ufrag === DECLINE_UFRAG && fields.pwd === DECLINE_PWD && more.length === 0 &&
    c.type === DECLINE_CANDIDATE.type && c.transport === DECLINE_CANDIDATE.transport &&
    c.address === DECLINE_CANDIDATE.address && c.port === DECLINE_CANDIDATE.port &&
    fields.fingerprint.bytes.every((b) => b === 0);
}

// The fields of a payload whose checksum is already verified, or null when its structure is wrong.
/**
 * Reads a connection code out of pasted text (a bare code, a link, or a chat message holding
 * either); {ok, kind, fields, sdp} or an error value. opts.expect: 'offer' | 'answer' (optional);
 * opts.offerSdp: for an answer, the offer it must answer (checked through the offer tag).
 */
export function unpackConnectionCode(text, opts = {}) {
  if (typeof text !== 'string' || text.trim() === '') return fail('empty');
  if (text.length > MAX_CODE_CHARS * 4) return fail('not-a-code');
  const sightings = codeSightings(text).filter((s) => s.letter in LETTER_KIND);
  // Turn codes (docs/protocol.md) start "WH1.": a digit where connection codes have a letter.
  if (sightings.length === 0) return fail(/WH\d+\./.test(text) ? 'turn-code' : 'not-a-code');
  let firstError = null;
  for (const s of sightings) {
    const r = decodeSighting(s);
    if (r.ok) return checkExpectations(r, opts);
    firstError ??= r;
  }
  return firstError;
}

function decodeSighting({ letter, version, tails }) {
  const kind = LETTER_KIND[letter];
  if (version > CODE_VERSION) return fail('version-newer');
  if (version < CODE_VERSION) return fail('version-older');
  const prefix = asciiBytes(prefixOf(kind, version));
  for (const tail of tails) {
    if (tail.length > MAX_CODE_CHARS) break;
    const bytes = base64urlDecode(tail);
    if (!bytes || bytes.length < 5) continue;
    const payload = bytes.slice(0, -4);
    const sum = bytes.slice(-4);
    const want = crc32(Uint8Array.from([...prefix, ...payload]));
    const got = ((sum[0] << 24) | (sum[1] << 16) | (sum[2] << 8) | sum[3]) >>> 0;
    if (want !== got) continue;
    const fields = readPayload(payload, kind);
    if (!fields) return fail('damaged');
    return { ok: true, kind, code: `WH${letter}${version}.${tail}`, fields, sdp: buildSdp(fields) };
  }
  return fail('damaged');
}

function checkExpectations(r, opts) {
  if (opts.expect && r.kind !== opts.expect) return fail(`wrong-kind-${r.kind}`);
  if (r.kind === 'answer' && opts.offerSdp !== undefined) {
    const offer = parseSdp(opts.offerSdp);
    if (!offer.ok || offerTag(offer.fields.ufrag, offer.fields.pwd) !== r.fields.offerTag) {
      return fail('stale-answer');
    }
  }
  return r;
}

/** The link form of a code: base (this page's address) with the code in the URL fragment. */
export function connectionLink(code, base) {
  const at = base.indexOf('#');
  return `${at >= 0 ? base.slice(0, at) : base}#${LINK_KEY}=${code}`;
}

/** The connection code in a URL fragment such as "#rtc=WHC1.…", or null when there is none. */
export function codeFromFragment(hash) {
  if (typeof hash !== 'string') return null;
  const m = new RegExp(`(?:^#?|&)${LINK_KEY}=(WH[A-Z]\\d{1,3}\\.[A-Za-z0-9_-]+)`).exec(hash);
  return m ? m[1] : null;
}
