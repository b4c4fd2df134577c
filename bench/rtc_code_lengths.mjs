// Connection-code lengths against the SDP they replace, for typical SDPs (tests/js/rtc-samples.mjs).
// Run: node bench/rtc_code_lengths.mjs [--json]
// A measurement, not a test: it prints numbers and asserts nothing.

import { connectionLink, packConnectionCode } from '../web/transport/codec/code.js';
import { SAMPLES } from '../tests/js/rtc-samples.mjs';

// A plausible address for a published copy of the page; links are this much longer than codes.
const BASE = 'https://example.github.io/wavinghands/';
const MDNS = /^[0-9a-f-]{36}\.local$/;

const rows = SAMPLES.map((s) => {
  const r = packConnectionCode(s.sdp, s.kind, { offerSdp: s.offer });
  if (!r.ok) throw new Error(`${s.name}: ${r.error.message}`);
  const kinds = {};
  for (const c of r.candidates) {
    const k = MDNS.test(c.address) ? 'mdns' : c.address.includes(':') ? 'ipv6' : /^[\d.]+$/.test(c.address) ? 'ipv4' : 'name';
    const label = `${c.type}/${k}${c.transport === 'udp' ? '' : '/tcp'}`;
    kinds[label] = (kinds[label] ?? 0) + 1;
  }
  return {
    sample: s.name,
    kind: s.kind,
    sdp_chars: s.sdp.length,
    code_chars: r.code.length,
    link_chars: connectionLink(r.code, BASE).length,
    candidates: Object.entries(kinds).map(([k, n]) => (n > 1 ? `${n}\u00d7${k}` : k)).join(' '),
  };
});

if (process.argv.includes('--json')) {
  console.log(JSON.stringify(rows, null, 2));
} else {
  const cols = ['sample', 'kind', 'sdp_chars', 'code_chars', 'link_chars', 'candidates'];
  const width = cols.map((c) => Math.max(c.length, ...rows.map((r) => String(r[c]).length)));
  const line = (vals) => vals.map((v, i) => String(v).padEnd(width[i])).join('  ').trimEnd();
  console.log(line(cols));
  console.log(line(width.map((w) => '-'.repeat(w))));
  for (const r of rows) console.log(line(cols.map((c) => r[c])));
  console.log(`\nlink base: ${BASE}`);
}
