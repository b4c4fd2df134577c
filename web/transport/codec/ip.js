// IP addresses for the connection codes: the text forms browsers write in candidates, read into
// bytes and written back canonically (RFC 5952 for IPv6), so that a code has one spelling.

/** parseIPv4(s) -> 4 bytes of a dotted quad (no leading zeros), or null. */
export function parseIPv4(s) {
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

/** formatIPv4(bytes) -> the dotted quad. */
export function formatIPv4(b) {
  return `${b[0]}.${b[1]}.${b[2]}.${b[3]}`;
}

/** parseIPv6(s) -> 16 bytes of an IPv6 address (bracketed, compressed or with a dotted quad), or null. */
export function parseIPv6(s) {
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

/** formatIPv6(bytes) -> RFC 5952 text: lower case, no leading zeros, the longest run of zero groups as "::". */
export function formatIPv6(b) {
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
