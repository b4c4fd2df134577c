// Unit tests of where the engine worker keeps its snapshot (web/snapshot-store.js) under Node:
// `node --test tests/js/`.  Cache Storage is replaced by an in-memory stand-in with the same
// calls (has, open, keys, delete, match; a cache's match and put).

import assert from 'node:assert/strict';
import { afterEach, beforeEach, test } from 'node:test';

import { SnapshotStore } from '../../web/snapshot-store.js';

class MemoryCaches {
  constructor() { this.stores = new Map(); }
  async has(name) { return this.stores.has(name); }
  async keys() { return [...this.stores.keys()]; }
  async delete(name) { return this.stores.delete(name); }
  async match(url, { cacheName }) { return this.stores.get(cacheName)?.get(url)?.clone(); }
  async open(name) {
    if (!this.stores.has(name)) this.stores.set(name, new Map());
    const entries = this.stores.get(name);
    return {
      match: async (url) => entries.get(url)?.clone(),
      put: async (url, response) => { entries.set(url, response); },
    };
  }
}

const SITE = 'https://example.test/game/';

beforeEach(() => { globalThis.caches = new MemoryCaches(); });
afterEach(() => { delete globalThis.caches; });

const PAGE = 4096;

/** A snapshot-like buffer: pages of bytes and pages of zeros, and a last partial page. */
function sample() {
  const bytes = new Uint8Array(5 * PAGE + 100);
  for (let i = 0; i < PAGE; i++) bytes[i] = i % 251 || 1; // page 0
  bytes[2 * PAGE + 7] = 9; // page 2, mostly zeros
  bytes[3 * PAGE] = 3; // page 3, just after it
  bytes[5 * PAGE + 99] = 5; // the partial last page; pages 1 and 4 stay zeros
  return bytes;
}

/** What `read` gives for the stored snapshot, once its bytes are in. */
async function readBack(store) {
  const { bytes, filled } = store.read(await store.find());
  await filled;
  return bytes;
}

test('a written snapshot is found and read back whole, kept without its zero pages', async () => {
  const store = new SnapshotStore(SITE, 'abc');
  assert.equal(await store.find(), null);
  const bytes = sample();
  const kept = await store.write(bytes);
  // The bitmap (one byte for six pages), then pages 0, 2, 3 and the last one (100 bytes).
  assert.equal(kept, 1 + 3 * PAGE + 100);
  assert.deepEqual(await caches.keys(), [`wavinghands-snapshot-abc ${SITE}`]);
  assert.deepEqual(await readBack(store), bytes);
});

test('a snapshot of zeros only, or of no zeros, reads back whole', async () => {
  const store = new SnapshotStore(SITE, 'abc');
  for (const bytes of [new Uint8Array(3 * PAGE), Uint8Array.from({ length: 2 * PAGE + 5 }, (_, i) => (i % 7) + 1)]) {
    await store.write(bytes);
    assert.deepEqual(await readBack(store), bytes);
  }
});

/** Replace the stored body (its headers kept), as a write cut short or a damaged disk would. */
async function replaceBody(store, body) {
  const kept = await store.find();
  await (await caches.open(store.cacheName)).put(store.key, new Response(body, { headers: kept.headers }));
}

test('a stored copy that is not whole is refused', async () => {
  const store = new SnapshotStore(SITE, 'abc');
  await store.write(sample());
  const whole = new Uint8Array(await (await store.find()).arrayBuffer());
  await replaceBody(store, whole.slice(0, 2 * PAGE));
  await assert.rejects(readBack(store), /cut short/);
  const padded = new Uint8Array(whole.length + 1);
  padded.set(whole);
  await replaceBody(store, padded);
  await assert.rejects(readBack(store), /more bytes than its bitmap/);
  await replaceBody(store, new Uint8Array(whole.length)); // zeros: a bitmap of no pages
  await assert.rejects(readBack(store), /more bytes than its bitmap/);
  await store.drop();
  assert.equal(await store.find(), null);
});

test('a stored copy in another layout, or with no length, is not read', () => {
  const store = new SnapshotStore(SITE, 'abc');
  const length = String(5 * PAGE + 100);
  for (const headers of [
    { 'x-snapshot-length': length }, // the layout of builds that kept every byte
    { 'x-snapshot-length': length, 'x-snapshot-format': 'gzip' },
    { 'x-snapshot-format': 'nonzero-pages-4096' },
  ]) {
    assert.throws(() => store.read(new Response(new Uint8Array(10), { headers })), /not one this page reads/);
  }
});

test("writing drops this site's other builds' snapshots and nobody else's", async () => {
  const other = 'https://example.test/other-game/';
  await new SnapshotStore(SITE, 'old').write(new Uint8Array(10));
  await new SnapshotStore(other, 'old').write(new Uint8Array(10));
  await caches.open(`wavinghands-1234 ${SITE}`); // the service worker's cache of the site
  await new SnapshotStore(SITE, 'new').write(new Uint8Array(10));
  assert.deepEqual((await caches.keys()).sort(), [
    `wavinghands-1234 ${SITE}`,
    `wavinghands-snapshot-new ${SITE}`,
    `wavinghands-snapshot-old ${other}`,
  ]);
});

test('without Cache Storage there is nothing to find and nothing to drop', async () => {
  delete globalThis.caches;
  const store = new SnapshotStore(SITE, 'abc');
  assert.equal(store.available, false);
  assert.equal(await store.find(), null);
  await store.drop();
  await store.dropOthers();
});
