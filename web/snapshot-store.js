// Where the engine worker keeps the memory snapshot it made of its own interpreter (web/engine-
// snapshot.js), so that the next visit restores it instead of starting Python: this browser's
// Cache Storage, in a cache of its own per engine build ("wavinghands-snapshot-<engine id>
// <site>"), which sw.js keeps while its build is current and deletes with the build.  The
// snapshot is made here, by this page, so it is trusted as the page's own storage is (nothing
// fetched is used without its integrity; this is never fetched).  Still, a stored copy that is
// not whole (a write cut short, a disk full) is found out by its length, and one Pyodide refuses
// is dropped by the worker, which then boots without it.
//
// Stored as it is, not compressed: 31 MB of Cache Storage, read back in 50-130 ms (while the
// wasm compiles: see `read`), where a gzipped copy (CompressionStream, 5.1 MB) took 280-380 ms to read
// and inflate (DecompressionStream) in this machine's Chromium (docs/build.md, "Boot").

// The request URL the snapshot is kept under (never fetched from the network).
const KEY = "engine.snapshot";
const PREFIX = "wavinghands-snapshot-";
const LENGTH_HEADER = "x-snapshot-length";

/** The stored snapshot of one engine build, for the site at `site` (its scope URL). */
export class SnapshotStore {
  constructor(site, engineId) {
    this.site = site;
    this.cacheName = `${PREFIX}${engineId} ${site}`;
    this.key = new URL(KEY, site).href;
  }

  /** Whether this browser can keep one (Cache Storage is there only in secure contexts). */
  get available() {
    return typeof caches === "object" && caches !== null;
  }

  /** The stored snapshot's response, or null when there is none (or no storage). */
  async find() {
    if (!this.available || !(await caches.has(this.cacheName))) return null;
    return (await (await caches.open(this.cacheName)).match(this.key)) ?? null;
  }

  /**
   * Start reading a response `find` gave: returns at once `bytes`, a buffer of the length written
   * (Pyodide needs only that length to size the interpreter's memory, so the wasm compiles while
   * the bytes arrive), and `filled`, which resolves once the stored bytes are all in it and
   * rejects if they are more or fewer than were written.  Read into that buffer as they come:
   * the snapshot is never held twice.  Throws at once if the response records no length.
   */
  read(response) {
    const length = Number(response.headers.get(LENGTH_HEADER));
    if (!Number.isSafeInteger(length) || length <= 0 || !response.body) {
      throw new Error(`the stored snapshot records no length (${response.headers.get(LENGTH_HEADER)})`);
    }
    const bytes = new Uint8Array(length);
    return { bytes, filled: fill(response.body, bytes) };
  }

  /** Keep `bytes` as this build's snapshot, and drop every other build's. */
  async write(bytes) {
    const headers = { "content-type": "application/octet-stream", [LENGTH_HEADER]: String(bytes.length) };
    await (await caches.open(this.cacheName)).put(this.key, new Response(bytes, { headers }));
    await this.dropOthers();
  }

  /** Drop this build's snapshot (it could not be restored). */
  async drop() {
    if (this.available) await caches.delete(this.cacheName);
  }

  /** Drop the snapshots of this site's other builds. */
  async dropOthers() {
    if (!this.available) return;
    for (const name of await caches.keys()) {
      if (name.startsWith(PREFIX) && name.endsWith(` ${this.site}`) && name !== this.cacheName) {
        await caches.delete(name);
      }
    }
  }
}

/**
 * Read `body` into `bytes`, which it must fill exactly; rejects otherwise.  Chunk by chunk (a
 * BYOB reader would detach `bytes`'s buffer, which Pyodide already holds).
 */
async function fill(body, bytes) {
  const reader = body.getReader();
  let offset = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (offset + value.byteLength > bytes.length) {
      reader.cancel().catch(() => {});
      throw new Error(`the stored snapshot has more than the ${bytes.length} bytes written`);
    }
    bytes.set(value, offset);
    offset += value.byteLength;
  }
  if (offset !== bytes.length) throw new Error(`the stored snapshot has ${offset} bytes, ${bytes.length} were written`);
}
