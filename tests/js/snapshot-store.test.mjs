// Unit tests of where the engine worker keeps its snapshot (web/snapshot-store.js) under Node:
// `node --test tests/js/`.  Cache Storage is replaced by an in-memory stand-in with the same
// calls (has, open, keys, delete; a cache's match and put).

import assert from 'node:assert/strict';
import { afterEach, beforeEach, test } from 'node:test';

import { SnapshotStore } from '../../web/snapshot-store.js';

class MemoryCaches {
  constructor() { this.stores = new Map(); }
  async has(name) { return this.stores.has(name); }
  async keys() { return [...this.stores.keys()]; }
  async delete(name) { return this.stores.delete(name); }
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

test('a written snapshot is found and read back whole', async () => {
  const store = new SnapshotStore(SITE, 'abc');
  assert.equal(await store.find(), null);
  const bytes = Uint8Array.from({ length: 1000 }, (_, i) => i % 251);
  await store.write(bytes);
  assert.deepEqual(await caches.keys(), [`wavinghands-snapshot-abc ${SITE}`]);
  const found = await store.find();
  assert.deepEqual(await store.bytes(found), bytes);
});

test('a stored copy that is not whole is refused', async () => {
  const store = new SnapshotStore(SITE, 'abc');
  await store.write(new Uint8Array(1000));
  const kept = await store.find();
  const cache = await caches.open(store.cacheName);
  await cache.put(store.key, new Response(new Uint8Array(400), { headers: kept.headers }));
  await assert.rejects(store.bytes(await store.find()), /400 bytes, 1000 were written/);
  await store.drop();
  assert.equal(await store.find(), null);
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
