// Reading connection codes: where a pasted text may hold one, and a checked payload's fields, or
// null when its structure is wrong (a code has one spelling: any change is caught).

import { Reader, asciiString, bytesHex, unpackSixBits } from './bytes.js';
import {
  ADDR_IPV4, ADDR_IPV6, ADDR_MDNS, ADDR_NAME, ADDR_SAME, DEFAULT_PWD_LEN, DEFAULT_UFRAG_LEN, FLAG_DEFAULT_LENGTHS,
  FLAG_MID, FLAG_RESERVED, HOSTNAME_RE, ICE_CHARS, MDNS_RE, TOKEN_RE,
} from './format.js';
import { formatIPv4, formatIPv6 } from './ip.js';
import { HASHES, SETUPS, TRANSPORTS, TYPES } from './sdp.js';

/** readPayload(bytes, kind) -> the fields of a payload whose checksum is verified, or null when its structure is wrong. */
export function readPayload(bytes, kind) {
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

/**
 * codeSightings(text) -> every place in a pasted text where a code may start, as {letter, version,
 * tails}: tails are the code's body read up to the first blank, then with each following
 * whitespace-separated piece glued on, because chat programs wrap long codes onto several lines.
 */
export function codeSightings(text) {
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
