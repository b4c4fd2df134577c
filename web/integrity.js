// Integrity of the site's own files (issue 12, finding 7): every file the engine boots from is
// checked against the sha256 that build.py wrote down for it, on every visit, wherever its
// bytes came from (the network, the HTTP cache or the service worker's cache).  A mismatch is a
// `DamagedFile` that names the file (the page says what to do); the damaged copy is dropped from this
// deployment's Cache Storage so that a reload fetches it afresh instead of failing again.
//
// Used by engine-worker.js (Pyodide's runtime files, the library, the decoder: unpack.js) and engine.js (the
// worker's own scripts).  boot-guard.js does the same for the page's modules, on its own: it
// must work when a module such as this one is the damaged file.

/** The SRI form (`sha256-<base64>`) of some bytes (an ArrayBuffer or a typed array). */
export async function integrityOf(bytes) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  let binary = "";
  for (const byte of digest) binary += String.fromCharCode(byte);
  return `sha256-${btoa(binary)}`;
}

/** A file whose bytes do not match the integrity build.py recorded for it: code 'damaged', the
 * page says it in words by its path (web/ui/words/screens.js, 'boot-failed-damaged'). */
export class DamagedFile extends Error {
  constructor(path, expected, actual) {
    super(`the game's file "${path}" arrived damaged`);
    this.name = "DamagedFile";
    this.code = "damaged";
    this.path = path;
    this.detail = `${path}: expected ${expected}, got ${actual}`;
  }
}

/** Throw DamagedFile unless `bytes` match `expected`; `path` is the file's site path. `found`
 * (the caller's list, e.g. the worker's boot's: worker-files.js) gets every DamagedFile, first
 * first: a boot that fails for another reason on the way (a decompressor or compiler choking on
 * the same bytes) reports the damaged file instead. */
export async function checkBytes(path, bytes, expected, found = []) {
  const actual = await integrityOf(bytes);
  if (actual !== expected) {
    const error = new DamagedFile(path, expected, actual);
    found.push(error);
    await forgetCachedCopy(path);
    throw error;
  }
}

/** A DamagedFile for `path`, recorded in `found` (as checkBytes) and its cached copies dropped in
 * the background (`actual`: what was found instead, for the detail); returned, not thrown. */
export function markDamaged(path, expected, actual, found = []) {
  const error = new DamagedFile(path, expected, actual);
  found.push(error);
  forgetCachedCopy(path);
  return error;
}

/**
 * A pass-through stream that keeps a copy of what flows through it and, at its end, errors with
 * DamagedFile (recorded in `found`) instead of closing if the whole does not match `expected`: a consumer that reads
 * to the end (a decompressor, WebAssembly's streaming compiler) fails rather than finishing.
 */
export function checking(path, expected, found = []) {
  const chunks = [];
  let length = 0;
  return new TransformStream({
    transform(chunk, controller) {
      chunks.push(chunk);
      length += chunk.byteLength;
      controller.enqueue(chunk);
    },
    async flush(controller) {
      const whole = new Uint8Array(length);
      let offset = 0;
      for (const chunk of chunks) {
        whole.set(chunk, offset);
        offset += chunk.byteLength;
      }
      chunks.length = 0;
      try {
        await checkBytes(path, whole, expected, found);
      } catch (err) {
        controller.error(err);
      }
    },
  });
}

/**
 * Drop a damaged file from this deployment's service-worker caches (whose names end with the
 * site's scope, see sw.js): a reload fetches it afresh, and sw.js puts a good copy back on that
 * navigation (offline play needs it).  Not here: the reload the message asks for would cancel
 * this context's download.
 */
export async function forgetCachedCopy(path) {
  const site = new URL("./", import.meta.url).href;
  const url = new URL(path, site).href;
  try {
    if (self.caches) {
      for (const name of await caches.keys()) {
        if (!name.startsWith("wavinghands-") || !name.endsWith(` ${site}`)) continue;
        await (await caches.open(name)).delete(url);
      }
    }
  } catch {
    // Best effort: the message already tells the player to reload.
  }
}
