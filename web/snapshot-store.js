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
// (13.6 MB).  Reading it back is copying those pages into a zeroed buffer while the wasm
// compiles (`read`); a gzipped copy (CompressionStream, 5.1 MB) took 280-380 ms to read and
// inflate (DecompressionStream) in this machine's Chromium (docs/build.md, "Boot").  The body is
// read whole and at once (`readWhole`), not as a stream: a stream's chunks each wait for a turn
// of the worker's thread, which Pyodide's start-up keeps busy, and at a load of 15 the read took
// 250-1250 ms as a stream against 90-240 ms whole (docs/build.md, "A first visit", ninth round).

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
   * are all in it and rejects if the body is longer or shorter than its bitmap says.  The body
   * (13.6 MB) is held only until its pages are copied.  Throws at once if the response records
   * no length or another layout.
   */
  read(response) {
    const length = Number(response.headers.get(LENGTH_HEADER));
    const format = response.headers.get(FORMAT_HEADER);
    if (!Number.isSafeInteger(length) || length <= 0 || format !== FORMAT || !response.body) {
      throw new Error(`the stored snapshot is not one this page reads (length ${response.headers.get(LENGTH_HEADER)}, format ${format})`);
    }
    const bytes = new Uint8Array(length);
    return { bytes, filled: readWhole(response).then((body) => fill(body, bytes)) };
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
 * A response's whole body as bytes, read in one go: in a worker, its Blob read synchronously
 * (FileReaderSync; a response from Cache Storage is a Blob already, so nothing is copied on the
 * way), else `arrayBuffer()`.  Blocks a worker's thread for the read (some 10 ms per 10 MB on
 * this machine); a stream would hold it up as long, in a chunk per turn of its event loop.
 */
export async function readWhole(response) {
  if (typeof FileReaderSync === "function") {
    const blob = await response.blob();
    return new Uint8Array(new FileReaderSync().readAsArrayBuffer(blob));
  }
  return new Uint8Array(await response.arrayBuffer());
}

/**
 * Copy a body `withoutZeroPages` made into `bytes` (zeroed, the snapshot's length): its bitmap
 * first, then the pages it marks, in order, each run of consecutive ones copied as one.  Throws
 * unless the body holds exactly that.
 */
function fill(body, bytes) {
  const pages = Math.ceil(bytes.length / PAGE);
  const bitmapLength = Math.ceil(pages / 8);
  if (body.length < bitmapLength) throw new Error("the stored snapshot is cut short: pages are missing");
  const bitmap = body.subarray(0, bitmapLength);
  const kept = (page) => bitmap[page >> 3] & (1 << (page & 7));
  let from = bitmapLength;
  for (let page = 0; page < pages; ) {
    if (!kept(page)) {
      page++;
      continue;
    }
    const first = page;
    while (page < pages && kept(page)) page++;
    const at = first * PAGE;
    const n = Math.min(page * PAGE, bytes.length) - at;
    if (from + n > body.length) throw new Error("the stored snapshot is cut short: pages are missing");
    bytes.set(body.subarray(from, from + n), at);
    from += n;
  }
  if (from !== body.length) throw new Error("the stored snapshot has more bytes than its bitmap of pages says");
}
