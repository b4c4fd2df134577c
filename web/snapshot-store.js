// Where the engine worker keeps the memory snapshot it made of its own interpreter (web/engine-
// snapshot.js), so that the next visit restores it instead of starting Python: this browser's
// Cache Storage, in a cache of its own per engine build ("wavinghands-snapshot-<engine id>
// <site>"), which sw.js keeps while its build is current and deletes with the build.  The
// snapshot is made here, by this page, so it is trusted as the page's own storage is (nothing
// fetched is used without its integrity; this is never fetched).  Still, a stored copy that is
// not whole (a write cut short, a disk full) is found out by its length, and one Pyodide refuses
// is dropped by the worker, which then boots without it.
//
// Stored without its zero pages, not compressed.  The snapshot is the interpreter's whole wasm
// memory, 31.5 MB, of which over half is 4 KB pages of zeros (memory above the heap's top, and
// freed blocks): the body kept is a bitmap of the pages that are not all zeros, then those pages
// (13.6 MB).  Reading it back is copying those pages into a zeroed buffer, as they arrive and
// while the wasm compiles (`read`); a gzipped copy (CompressionStream, 5.1 MB) took 280-380 ms
// to read and inflate (DecompressionStream) in this machine's Chromium (docs/build.md, "Boot").

// The request URL the snapshot is kept under (never fetched from the network).
const KEY = "engine.snapshot";
const PREFIX = "wavinghands-snapshot-";
// The snapshot's own length (the body is shorter: its zero pages are left out).
const LENGTH_HEADER = "x-snapshot-length";
// How the body is laid out; a body in another layout is not read.
const FORMAT_HEADER = "x-snapshot-format";
const PAGE = 4096;
const FORMAT = `nonzero-pages-${PAGE}`;

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
    if (!this.available) return null;
    return (await caches.match(this.key, { cacheName: this.cacheName })) ?? null;
  }

  /**
   * Start reading a response `find` gave: returns at once `bytes`, a zeroed buffer of the
   * snapshot's length (Pyodide needs only that length to size the interpreter's memory, so the
   * wasm compiles while the bytes arrive), and `filled`, which resolves once the stored pages
   * are all in it and rejects if the body is longer or shorter than its bitmap says.  The pages
   * are copied in as they come: the snapshot is never held twice.  Throws at once if the
   * response records no length or another layout.
   */
  read(response) {
    const length = Number(response.headers.get(LENGTH_HEADER));
    const format = response.headers.get(FORMAT_HEADER);
    if (!Number.isSafeInteger(length) || length <= 0 || format !== FORMAT || !response.body) {
      throw new Error(`the stored snapshot is not one this page reads (length ${response.headers.get(LENGTH_HEADER)}, format ${format})`);
    }
    const bytes = new Uint8Array(length);
    return { bytes, filled: fill(response.body, bytes) };
  }

  /** Keep `bytes` as this build's snapshot, and drop every other build's; resolves with the bytes kept. */
  async write(bytes) {
    const body = withoutZeroPages(bytes);
    const headers = {
      "content-type": "application/octet-stream",
      [LENGTH_HEADER]: String(bytes.length),
      [FORMAT_HEADER]: FORMAT,
    };
    await (await caches.open(this.cacheName)).put(this.key, new Response(body, { headers }));
    await this.dropOthers();
    return body.size;
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

/** Whether `page` (a view of at most PAGE bytes) holds only zeros. */
function isZero(page) {
  // Four bytes at a time where the view is aligned (the snapshot's own buffer is).
  const words = page.byteOffset % 4 === 0 ? Math.floor(page.length / 4) : 0;
  const asWords = new Uint32Array(page.buffer, page.byteOffset, words);
  for (let i = 0; i < words; i++) if (asWords[i] !== 0) return false;
  for (let i = words * 4; i < page.length; i++) if (page[i] !== 0) return false;
  return true;
}

/** The body kept for `bytes`: a bitmap of its pages that are not all zeros, then those pages. */
function withoutZeroPages(bytes) {
  const pages = Math.ceil(bytes.length / PAGE);
  const bitmap = new Uint8Array(Math.ceil(pages / 8));
  const parts = [bitmap];
  for (let p = 0; p < pages; p++) {
    const page = bytes.subarray(p * PAGE, Math.min((p + 1) * PAGE, bytes.length));
    if (isZero(page)) continue;
    bitmap[p >> 3] |= 1 << (p & 7);
    parts.push(page);
  }
  return new Blob(parts);
}

/**
 * Read a body `withoutZeroPages` made into `bytes` (zeroed, the snapshot's length): its bitmap
 * first, then the pages it marks, in order, each run of consecutive ones copied as one.
 * Rejects unless the body holds exactly that.
 */
async function fill(body, bytes) {
  const pages = Math.ceil(bytes.length / PAGE);
  const bitmap = new Uint8Array(Math.ceil(pages / 8));
  const kept = (page) => bitmap[page >> 3] & (1 << (page & 7));
  let bitmapRead = 0;
  // The run of kept pages being filled: where its next byte goes, where it ends, and the first
  // page after it.
  let at = 0;
  let end = 0;
  let next = 0;
  const nextRun = () => {
    while (next < pages && !kept(next)) next++;
    at = next * PAGE;
    while (next < pages && kept(next)) next++;
    end = Math.min(next * PAGE, bytes.length);
  };
  const reader = body.getReader();
  const fail = (message) => {
    reader.cancel().catch(() => {});
    return new Error(`the stored snapshot ${message}`);
  };
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    let i = 0;
    if (bitmapRead < bitmap.length) {
      i = Math.min(bitmap.length - bitmapRead, value.length);
      bitmap.set(value.subarray(0, i), bitmapRead);
      bitmapRead += i;
      if (bitmapRead === bitmap.length) nextRun();
    }
    while (i < value.length) {
      if (at >= end) throw fail("has more bytes than its bitmap of pages says");
      const n = Math.min(end - at, value.length - i);
      bytes.set(value.subarray(i, i + n), at);
      at += n;
      i += n;
      if (at === end) nextRun();
    }
  }
  if (bitmapRead < bitmap.length || at < end) throw fail("is cut short: pages are missing");
}
