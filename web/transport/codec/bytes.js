// Bytes for the connection codes (codec/code.js): a writer and a reader of big-endian fields,
// CRC-32, ASCII, 6-bit packing of ICE characters, strict base64url and hex. Pure; runs under Node.
// Hand-written rather than taken from npm: docs/webrtc.md ("Libraries") says what was weighed.

const B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** Writer: appends bytes, 16-bit fields big-endian; done() -> Uint8Array. */
export class Writer {
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

/** Reader: reads fields in order; past the end it returns null rather than throwing (the decoder reports "damaged"). */
export class Reader {
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

/** asciiBytes(s) -> the 7-bit bytes of an ASCII string. */
export function asciiBytes(s) {
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i) & 0x7f;
  return out;
}

/** asciiString(bytes) -> the string of those character codes. */
export function asciiString(bytes) {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return s;
}

/** packSixBits(indices) -> 6-bit values packed most significant bit first; the spare bits of the last byte are zero. */
export function packSixBits(indices) {
  const out = new Uint8Array(Math.ceil((indices.length * 6) / 8));
  let bit = 0;
  for (const v of indices) {
    for (let k = 5; k >= 0; k--, bit++) {
      if ((v >> k) & 1) out[bit >> 3] |= 0x80 >> (bit & 7);
    }
  }
  return out;
}

/** unpackSixBits(bytes, count) -> count 6-bit values, or null when a spare bit is set (a code has one spelling). */
export function unpackSixBits(bytes, count) {
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

/** base64urlEncode(bytes) -> base64url text without padding. */
export function base64urlEncode(bytes) {
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

/** base64urlDecode(text) -> bytes, or null: strict, it rejects lengths no byte string encodes to and nonzero spare bits. */
export function base64urlDecode(text) {
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

/** hexBytes(hex) -> the bytes of an even-length hex string. */
export function hexBytes(hex) {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** bytesHex(bytes, sep) -> lower-case hex, pairs joined by sep. */
export function bytesHex(bytes, sep = '') {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join(sep);
}
