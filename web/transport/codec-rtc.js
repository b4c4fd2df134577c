// Connection codes for live play: the few SDP fields a WebRTC data channel needs, packed into
// bytes and written as base64url, so two players can trade them in any chat (docs/webrtc.md).
//
// Pure module (no DOM, no RTCPeerConnection): it runs in the browser and under Node's test runner.
// Every public function returns errors as values ({ok: false, error: {code, message}}) because the
// UI shows them to people; nothing here throws on bad input.

/** Format version written in every code's prefix ("WHC1."); a decoder reads only its own. */
export const CODE_VERSION = 1;
/** The prefix letter of each kind of code: WHC = connection code (offer), WHA = answer. */
export const KIND_LETTER = Object.freeze({ offer: 'C', answer: 'A' });
/** The URL-fragment key of the link form: "#rtc=<code>". */
export const LINK_KEY = 'rtc';

const LETTER_KIND = { C: 'offer', A: 'answer' };
// Far above any real code (about 110-220 characters); bounds the work on a huge paste.
const MAX_CODE_CHARS = 2000;

const SETUPS = ['actpass', 'active', 'passive'];
// Hash names as SDP writes them, with their digest sizes; sha-256 first because every current
// browser uses it, so it gets the code 0.
const HASHES = [
  ['sha-256', 32],
  ['sha-384', 48],
  ['sha-512', 64],
  ['sha-1', 20],
];
const TYPES = ['host', 'srflx', 'prflx', 'relay'];
// RFC 8445 type preferences, used to rebuild priorities that keep the sender's order.
const TYPE_PREF = { host: 126, prflx: 110, srflx: 100, relay: 0 };
const TRANSPORTS = ['udp', 'tcp passive', 'tcp active', 'tcp so'];
const ADDR_IPV4 = 0;
const ADDR_IPV6 = 1;
const ADDR_MDNS = 2;
const ADDR_NAME = 3;
const ADDR_SAME = 4;

const FLAG_DEFAULT_LENGTHS = 0x10;
const FLAG_MID = 0x20;
const FLAG_RESERVED = 0xc0;
// Chrome's credential lengths; a flag bit stands for them so the common case spends no length bytes.
const DEFAULT_UFRAG_LEN = 4;
const DEFAULT_PWD_LEN = 24;

// RFC 8839 ice-char: exactly the 64 characters of standard base64, so each packs in 6 bits.
const ICE_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

const MDNS_RE = /^([0-9a-f]{8})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{12})\.local$/i;
const HOSTNAME_RE = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,62})(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}))*\.?$/;
const TOKEN_RE = /^[!#$%&'*+\-.0-9A-Z^_`a-z{|}~]+$/;

/** Default cap on candidates in one code: enough for a dual-stack LAN plus STUN, still short. */
export const DEFAULT_MAX_CANDIDATES = 8;

const MESSAGES = {
  empty: 'Nothing was pasted. Paste the connection code (or the whole link) you were sent.',
  'not-a-code':
    'No connection code was found in that text. A connection code starts with WHC1. (from the ' +
    'player who starts) or WHA1. (the answer). Turn codes go in the game\u2019s code box instead.',
  'turn-code':
    'This is a turn code of the game, not a connection code: paste it in the game\u2019s code box. ' +
    'A connection code starts with WHC1. (from the player who starts) or WHA1. (the answer).',
  damaged: 'This connection code is damaged \u2014 ask for it again (copy it whole, in one piece).',
  'wrong-kind-offer':
    'This is an invitation (connection code), but an answer code is expected here. If it is your ' +
    'own, send it to your opponent and paste the answer they send back. If you both started a ' +
    'live game, one of you should join the other\u2019s instead.',
  'wrong-kind-answer':
    'This is an answer code. It goes back to the player who started the live game: they paste it ' +
    'on their page. To join, paste their connection code (WHC1.) here.',
  'version-newer':
    'This connection code comes from a newer version of Waving Hands. Reload this page to update, ' +
    'then ask for a new code.',
  'version-older':
    'This connection code comes from an older version of Waving Hands. Ask your opponent to reload ' +
    'their page and send a new code.',
  'stale-answer':
    'This answer belongs to a different connection code (perhaps an older one). Ask your opponent ' +
    'to paste your latest connection code and send the answer to that.',
  'no-candidates':
    'This device found no network address to offer, so live play cannot start. Is it connected ' +
    'to a network? You can still play by codes.',
  'unsupported-sdp':
    'This browser described its connection in a way these codes cannot carry. Try another ' +
    'browser, or play by codes.',
  'bad-ice-server': 'That is not a STUN server address (expected e.g. stun:stun.example.org:3478).',
};

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
  const message = MESSAGES[key] ?? key;
  return { ok: false, error: detail ? { code, message, detail } : { code, message } };
}

// ---------------------------------------------------------------------------------------------
// bytes

class Writer {
  constructor() {
    this.bytes = [];
  }
  u8(v) {
    this.bytes.push(v & 0xff);
  }
  u16(v) {
    this.bytes.push((v >>> 8) & 0xff, v & 0xff);
  }
  raw(arr) {
    for (const b of arr) this.bytes.push(b);
  }
  done() {
    return Uint8Array.from(this.bytes);
  }
}

// Reading past the end returns null rather than throwing, so the decoder reports "damaged".
class Reader {
  constructor(bytes) {
    this.bytes = bytes;
    this.pos = 0;
  }
  left() {
    return this.bytes.length - this.pos;
  }
  u8() {
    return this.left() >= 1 ? this.bytes[this.pos++] : null;
  }
  u16() {
    if (this.left() < 2) return null;
    const v = (this.bytes[this.pos] << 8) | this.bytes[this.pos + 1];
    this.pos += 2;
    return v;
  }
  raw(n) {
    if (this.left() < n) return null;
    const out = this.bytes.slice(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }
}

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

/** CRC-32 (IEEE) of a byte array, as an unsigned 32-bit integer. */
export function crc32(bytes) {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function asciiBytes(s) {
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i) & 0x7f;
  return out;
}

function asciiString(bytes) {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return s;
}

// 6-bit packing, most significant bit first; the spare bits of the last byte are zero.
function packSixBits(indices) {
  const out = new Uint8Array(Math.ceil((indices.length * 6) / 8));
  let bit = 0;
  for (const v of indices) {
    for (let k = 5; k >= 0; k--, bit++) {
      if ((v >> k) & 1) out[bit >> 3] |= 0x80 >> (bit & 7);
    }
  }
  return out;
}

// Returns null when a spare bit is set: a code has one spelling, so any change of it is caught.
function unpackSixBits(bytes, count) {
  const out = [];
  let bit = 0;
  for (let i = 0; i < count; i++) {
    let v = 0;
    for (let k = 0; k < 6; k++, bit++) v = (v << 1) | ((bytes[bit >> 3] >> (7 - (bit & 7))) & 1);
    out.push(v);
  }
  for (; bit < bytes.length * 8; bit++) if ((bytes[bit >> 3] >> (7 - (bit & 7))) & 1) return null;
  return out;
}

function base64urlEncode(bytes) {
  const idx = [];
  let bit = 0;
  const total = bytes.length * 8;
  while (bit < total) {
    let v = 0;
    for (let k = 0; k < 6; k++, bit++) {
      v = (v << 1) | (bit < total ? (bytes[bit >> 3] >> (7 - (bit & 7))) & 1 : 0);
    }
    idx.push(v);
  }
  return idx.map((i) => B64URL[i]).join('');
}

// Strict: rejects lengths that no byte string encodes to and nonzero spare bits.
function base64urlDecode(text) {
  if (text.length % 4 === 1) return null;
  const idx = [];
  for (const ch of text) {
    const i = B64URL.indexOf(ch);
    if (i < 0) return null;
    idx.push(i);
  }
  const n = Math.floor((text.length * 6) / 8);
  const out = new Uint8Array(n);
  let bit = 0;
  for (const v of idx) {
    for (let k = 5; k >= 0; k--, bit++) {
      const on = (v >> k) & 1;
      if (bit < n * 8) {
        if (on) out[bit >> 3] |= 0x80 >> (bit & 7);
      } else if (on) {
        return null;
      }
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// addresses

function parseIPv4(s) {
  const parts = s.split('.');
  if (parts.length !== 4) return null;
  const out = new Uint8Array(4);
  for (let i = 0; i < 4; i++) {
    if (!/^(0|[1-9][0-9]{0,2})$/.test(parts[i])) return null;
    const v = Number(parts[i]);
    if (v > 255) return null;
    out[i] = v;
  }
  return out;
}

function formatIPv4(b) {
  return `${b[0]}.${b[1]}.${b[2]}.${b[3]}`;
}

function parseIPv6(s) {
  if (s.startsWith('[') && s.endsWith(']')) s = s.slice(1, -1);
  if (!/^[0-9a-fA-F:.]+$/.test(s)) return null;
  if (s.includes('.')) {
    // A trailing dotted quad ("::ffff:192.0.2.1") stands for the last two groups.
    const cut = s.lastIndexOf(':');
    const v4 = parseIPv4(s.slice(cut + 1));
    if (!v4) return null;
    const hi = ((v4[0] << 8) | v4[1]).toString(16);
    const lo = ((v4[2] << 8) | v4[3]).toString(16);
    s = `${s.slice(0, cut + 1)}${hi}:${lo}`;
  }
  const halves = s.split('::');
  if (halves.length > 2) return null;
  const groups = (h) => (h === '' ? [] : h.split(':'));
  const head = groups(halves[0]);
  const rest = halves.length === 2 ? groups(halves[1]) : [];
  for (const g of [...head, ...rest]) if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return null;
  let words;
  if (halves.length === 1) {
    if (head.length !== 8) return null;
    words = head;
  } else {
    if (head.length + rest.length > 7) return null;
    words = [...head, ...new Array(8 - head.length - rest.length).fill('0'), ...rest];
  }
  const out = new Uint8Array(16);
  words.forEach((g, i) => {
    const w = parseInt(g, 16);
    out[2 * i] = w >> 8;
    out[2 * i + 1] = w & 0xff;
  });
  return out;
}

// RFC 5952 text form: lower case, no leading zeros, the longest run of zero groups as "::".
function formatIPv6(b) {
  const words = [];
  for (let i = 0; i < 8; i++) words.push((b[2 * i] << 8) | b[2 * i + 1]);
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8; ) {
    if (words[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && words[j] === 0) j++;
    if (j - i > bestLen) {
      best = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = (ws) => ws.map((w) => w.toString(16)).join(':');
  if (best < 0) return hex(words);
  return `${hex(words.slice(0, best))}::${hex(words.slice(best + bestLen))}`;
}

function hexBytes(hex) {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

function bytesHex(bytes, sep = '') {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join(sep);
}

// ---------------------------------------------------------------------------------------------
// SDP

/**
 * Reads the fields a connection code carries from an SDP; {ok, fields} or an error value.
 * Only the first m-section is read: a live-play connection has exactly one, the data channel.
 */
export function parseSdp(sdp) {
  if (typeof sdp !== 'string') return fail('unsupported-sdp', 'SDP is not a string');
  const lines = sdp.split(/\r?\n/);
  const session = {};
  const media = {};
  const candidates = [];
  let inMedia = 0;
  for (const line of lines) {
    if (line.startsWith('m=')) {
      inMedia++;
      if (inMedia > 1) break;
      continue;
    }
    const target = inMedia ? media : session;
    const m = /^a=([a-zA-Z-]+)(?::(.*))?$/.exec(line.trim());
    if (!m) continue;
    const [, name, value = ''] = m;
    if (name === 'candidate') {
      if (inMedia) candidates.push(value.trim());
    } else if (['ice-ufrag', 'ice-pwd', 'fingerprint', 'setup', 'mid'].includes(name)) {
      if (!(name in target)) target[name] = value.trim();
    }
  }
  const get = (name) => media[name] ?? session[name];
  const ufrag = get('ice-ufrag');
  const pwd = get('ice-pwd');
  const fp = get('fingerprint');
  const setup = get('setup') ?? 'actpass';
  const mid = media.mid ?? '0';
  if (!ufrag || !pwd || !fp) return fail('unsupported-sdp', 'missing ice-ufrag, ice-pwd or fingerprint');
  const fpm = /^(\S+)\s+([0-9A-Fa-f:]+)$/.exec(fp);
  if (!fpm) return fail('unsupported-sdp', 'unreadable fingerprint');
  const alg = fpm[1].toLowerCase();
  const hashIndex = HASHES.findIndex(([name]) => name === alg);
  if (hashIndex < 0) return fail('unsupported-sdp', `fingerprint hash ${alg}`);
  const hex = fpm[2].replace(/:/g, '');
  if (hex.length !== HASHES[hashIndex][1] * 2) return fail('unsupported-sdp', 'fingerprint length');
  const parsed = candidates.map(parseCandidate).filter((c) => c !== null);
  return {
    ok: true,
    fields: {
      ufrag,
      pwd,
      setup,
      mid,
      fingerprint: { alg, bytes: hexBytes(hex) },
      candidates: parsed,
    },
  };
}

// One a=candidate value to {type, transport, address, port, priority}, or null for a candidate a
// code cannot or need not carry (other components, link-local zones, unknown transports).
function parseCandidate(value) {
  const parts = value.split(/\s+/);
  if (parts.length < 8 || parts[6] !== 'typ') return null;
  const [, component, proto, priority, address, port, , type] = parts;
  if (component !== '1') return null;
  if (!TYPES.includes(type)) return null;
  const portNum = Number(port);
  if (!Number.isInteger(portNum) || portNum < 1 || portNum > 65535) return null;
  let transport = proto.toLowerCase();
  if (transport === 'tcp') {
    const i = parts.indexOf('tcptype');
    transport = i >= 0 && parts[i + 1] ? `tcp ${parts[i + 1]}` : 'tcp passive';
  }
  if (!TRANSPORTS.includes(transport)) return null;
  if (address.includes('%')) return null;
  return { type, transport, address, port: portNum, priority: Number(priority) || 0 };
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

// Priorities only order the candidate pairs, so they are rebuilt rather than carried: the RFC
// 8445 type preference, lowered where needed so that they strictly follow the sender's order.
function candidateLines(candidates) {
  let pref = TYPE_PREF.host;
  return candidates.map((c, index) => {
    pref = Math.min(pref, TYPE_PREF[c.type]);
    const priority = pref * 2 ** 24 + (65535 - index) * 2 ** 8 + 255;
    const [proto, tcptype] = c.transport.split(' ');
    let line = `a=candidate:${index + 1} 1 ${proto} ${priority} ${c.address} ${c.port} typ ${c.type}`;
    if (c.type !== 'host') line += ' raddr 0.0.0.0 rport 0';
    if (tcptype) line += ` tcptype ${tcptype}`;
    return line;
  });
}

/** Rebuilds a minimal SDP that browsers accept from code fields (as unpackConnectionCode gives). */
export function buildSdp(fields) {
  const fp = bytesHex(fields.fingerprint.bytes, ':').toUpperCase();
  const lines = [
    'v=0',
    'o=- 1 2 IN IP4 127.0.0.1',
    's=-',
    't=0 0',
    `a=group:BUNDLE ${fields.mid}`,
    'a=msid-semantic: WMS',
    'm=application 9 UDP/DTLS/SCTP webrtc-datachannel',
    'c=IN IP4 0.0.0.0',
    ...candidateLines(fields.candidates),
    'a=end-of-candidates',
    `a=ice-ufrag:${fields.ufrag}`,
    `a=ice-pwd:${fields.pwd}`,
    `a=fingerprint:${fields.fingerprint.alg} ${fp}`,
    `a=setup:${fields.setup}`,
    `a=mid:${fields.mid}`,
    'a=sctp-port:5000',
    'a=max-message-size:262144',
  ];
  return `${lines.join('\r\n')}\r\n`;
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
function readPayload(bytes, kind) {
  const r = new Reader(bytes);
  const flags = r.u8();
  if (flags === null || flags & FLAG_RESERVED) return null;
  const setupIndex = flags & 0x03;
  const hashIndex = (flags >> 2) & 0x03;
  if (setupIndex >= SETUPS.length) return null;
  const setup = SETUPS[setupIndex];
  if (kind === 'answer' && setup === 'actpass') return null;
  const tag = kind === 'answer' ? r.u16() : undefined;
  if (tag === null) return null;
  let ufragLen = DEFAULT_UFRAG_LEN;
  let pwdLen = DEFAULT_PWD_LEN;
  if (!(flags & FLAG_DEFAULT_LENGTHS)) {
    ufragLen = r.u8();
    pwdLen = r.u8();
    if (ufragLen === null || pwdLen === null || ufragLen === 0 || pwdLen === 0) return null;
    // One spelling per code: explicit lengths never repeat the flagged default pair.
    if (ufragLen === DEFAULT_UFRAG_LEN && pwdLen === DEFAULT_PWD_LEN) return null;
  }
  const ufragBytes = r.raw(Math.ceil((ufragLen * 6) / 8));
  const pwdBytes = r.raw(Math.ceil((pwdLen * 6) / 8));
  if (!ufragBytes || !pwdBytes) return null;
  const ufragIdx = unpackSixBits(ufragBytes, ufragLen);
  const pwdIdx = unpackSixBits(pwdBytes, pwdLen);
  if (!ufragIdx || !pwdIdx) return null;
  let mid = '0';
  if (flags & FLAG_MID) {
    const n = r.u8();
    const b = n ? r.raw(n) : null;
    if (!b) return null;
    mid = asciiString(b);
    if (mid === '0' || !TOKEN_RE.test(mid)) return null;
  }
  const [alg, size] = HASHES[hashIndex];
  const fpBytes = r.raw(size);
  if (!fpBytes) return null;
  const candidates = [];
  // One spelling per code: a repeated address must be a back-reference to its first writing,
  // and no candidate may appear twice.
  const written = new Map();
  const seen = new Set();
  while (r.left() > 0) {
    const d = r.u8();
    if (d & 0x80) return null;
    const form = (d >> 4) & 0x07;
    let address;
    if (form === ADDR_IPV4) {
      const b = r.raw(4);
      address = b && formatIPv4(b);
    } else if (form === ADDR_IPV6) {
      const b = r.raw(16);
      address = b && formatIPv6(b);
    } else if (form === ADDR_MDNS) {
      const b = r.raw(16);
      const h = b && bytesHex(b);
      address = h && `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}.local`;
    } else if (form === ADDR_NAME) {
      const n = r.u8();
      const b = n ? r.raw(n) : null;
      address = b && asciiString(b);
      if (address && (!HOSTNAME_RE.test(address) || MDNS_RE.test(address))) return null;
    } else if (form === ADDR_SAME) {
      const i = r.u8();
      address = i !== null && i < candidates.length && written.get(candidates[i].address) === i
        ? candidates[i].address
        : null;
    } else {
      return null;
    }
    const port = r.u16();
    if (!address || !port) return null;
    if (form !== ADDR_SAME) {
      if (written.has(address)) return null;
      written.set(address, candidates.length);
    }
    const c = { type: TYPES[d & 0x03], transport: TRANSPORTS[(d >> 2) & 0x03], address, port };
    const key = `${c.type} ${c.transport} ${address} ${port}`;
    if (seen.has(key)) return null;
    seen.add(key);
    candidates.push(c);
  }
  if (candidates.length === 0) return null;
  return {
    ufrag: ufragIdx.map((i) => ICE_CHARS[i]).join(''),
    pwd: pwdIdx.map((i) => ICE_CHARS[i]).join(''),
    setup,
    mid,
    fingerprint: { alg, bytes: fpBytes },
    candidates,
    offerTag: tag,
  };
}

// Every place in a pasted text where a code may start, as {letter, version, tails}: tails are the
// code's body read up to the first blank, then with each following whitespace-separated piece
// glued on, because chat programs wrap long codes onto several lines.
function codeSightings(text) {
  const out = [];
  const re = /WH([A-Z])(\d{1,3})\./g;
  let m;
  while ((m = re.exec(text)) !== null) {
    const after = text.slice(m.index + m[0].length);
    const pieces = after.split(/\s+/);
    const tails = [];
    let body = '';
    for (let i = 0; i < pieces.length && i < 40; i++) {
      const run = /^[A-Za-z0-9_-]*/.exec(pieces[i])[0];
      if (i > 0 && run.length === 0) break;
      body += run;
      tails.push(body);
      if (run.length !== pieces[i].length) break;
    }
    out.push({ letter: m[1], version: Number(m[2]), tails });
  }
  return out;
}

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

const ICE_URL_RE = /^stuns?:(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(?::(\d{1,5}))?$/;

/**
 * Reads the STUN server field (URLs separated by spaces, commas or new lines) into the
 * RTCPeerConnection iceServers list; {ok, iceServers} or an error value naming the bad entry.
 * Empty text means no servers: the default, for play on one machine or one local network.
 */
export function parseIceServers(text) {
  const entries = (typeof text === 'string' ? text : '').split(/[\s,]+/).filter(Boolean);
  const urls = [];
  for (const e of entries) {
    const m = ICE_URL_RE.exec(e);
    const port = m && m[2] !== undefined ? Number(m[2]) : 3478;
    if (!m || port < 1 || port > 65535) {
      const r = fail('bad-ice-server', e);
      r.error.message =
        `\u201c${e}\u201d is not a STUN server address (expected e.g. stun:stun.example.org:3478).` +
        (/^turns?:/.test(e) ? ' A TURN relay goes in the TURN fields, with its user name and password.' : '');
      return r;
    }
    urls.push(e);
  }
  return { ok: true, iceServers: urls.length ? [{ urls }] : [] };
}
