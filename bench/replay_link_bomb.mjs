// What a hostile '#replay=' link costs the page (issue 24, bug 9): a link of ~400 KB that inflates
// to 400 M characters, read the old way (inflate it all, then apply the length limit) and the way
// web/flows/replay.js reads it (stop inflating at the limit). Prints the link's size, and for each
// way the wall time and the heap's growth. `node bench/replay_link_bomb.mjs [millions]`.

import { deflateRawSync } from 'node:zlib';

const { unpackRecord } = await import('../web/flows/replay.js');
const { MAX_TEXT_CHARS } = await import('../web/limits.js');

const millions = Number(process.argv[2] || 400);
const packed = deflateRawSync(Buffer.alloc(millions * 1e6, 32), { level: 9 })
  .toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

// The page before: inflate everything, then compare the length with the limit.
async function inflateAll(link) {
  const b64 = link.replace(/-/g, '+').replace(/_/g, '/');
  const bytes = Uint8Array.from(atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4)), (c) => c.charCodeAt(0));
  const text = await new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate-raw'))).text();
  return text.length > MAX_TEXT_CHARS ? { ok: false, length: text.length } : { ok: true };
}

async function measure(label, read) {
  globalThis.gc?.();
  const before = process.memoryUsage().heapUsed;
  let peak = before;
  const sampler = setInterval(() => { peak = Math.max(peak, process.memoryUsage().heapUsed); }, 5);
  const start = performance.now();
  const answer = await read(packed);
  const ms = performance.now() - start;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().heapUsed);
  console.log(`${label}: ${ms.toFixed(0)} ms, peak JS heap ${((peak - before) / 1e6).toFixed(0)} MB above the start, refused: ${!answer.ok}`);
}

console.log(`link: ${(packed.length / 1024).toFixed(0)} KB of base64url, inflating to ${millions} M characters; limit ${MAX_TEXT_CHARS.toLocaleString('en')}`);
// The new way first: the old one leaves hundreds of megabytes to collect.
await measure('stop at the limit (flows/replay.js)', (link) => unpackRecord(link));
await measure('inflate all, then limit (before)', inflateAll);
