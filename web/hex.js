// Bytes as hex digits, and fresh random ones: the one helper for ids, nonces and digests.

/** hex(bytes, sep?) -> the bytes as two lower-case hex digits each, joined by sep ('' unless given). */
export function hex(bytes, sep = '') {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join(sep);
}

/** randomHex(n) -> 2n hex digits of this device's randomness (crypto.getRandomValues). */
export function randomHex(n) {
  return hex(crypto.getRandomValues(new Uint8Array(n)));
}
