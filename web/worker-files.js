// The engine worker's files (engine-worker.js): fetching, unpacking and checking what the boot
// reads (Pyodide's wasm, the Python library, reference.json), counting the bytes as they travel
// for the boot's progress, and keeping what a first visit unpacked.  A factory, with no effect
// until it is called: its state lives in the closure (compile-ahead.js imports this module).
//
// Every fetch in the worker, Pyodide's included, goes through `siteFetch`: a site file that
// engine-build.js lists arrives through a stream that fails with DamagedFile if it does not
// match, except those the boot reads and checks itself (the wasm, the Python library and
// reference.json).
//
// The wasm and the library unpacked on a first visit are kept in a cache of their own, for
// the next visit and for the service worker, whose install takes them from there as it takes
// an older build's unchanged files (sw.js `unchanged`), and which deletes this cache when it
// activates.  The page is told when they are kept ({type: "kept"}), and sw-register.js installs
// the service worker only then, so that its install finds them.
//
// The wasm is fetched and compiled from the worker's first moment, while Pyodide's scripts
// load: Pyodide itself would ask for it only once they are in, and compile it only once it has
// a snapshot's bytes (docs/build.md, "Boot").  This browser's copy, if it holds one (the
// service worker's, or the one a first visit kept); else the packed file, compiled as it
// downloads and unpacks.  It compiles while the bytes arrive (compileStreaming); a copy of them
// is checked against the build's integrity beside the compiler, and the module is instantiated
// only once they match (worker-boot.js's instantiateStreaming): nothing of it runs before.
// A local copy goes to the compiler as the response itself, not a copy: Chromium keeps the
// compiled code of a wasm read from Cache Storage beside it and reuses it, but only for that
// response's own body (a `new Response(stream)` has none).

import { BUILD } from "./engine-build.js";
import { checkBytes, checking, markDamaged } from "./integrity.js";
import { readWhole } from "./snapshot-store.js";
import { loadDecoder, readAll, unpacking } from "./unpack.js";

export const WASM = "pyodide/pyodide.asm.wasm";

/**
 * `stream`'s bytes; if it fails part way, the rest from `fallback()` (a promise of a stream of
 * the same bytes from the start), whose first bytes, already passed on, are skipped.  A sibling
 * the browser cannot decode fails like a dropped connection; asked for again packed, a damaged
 * file is named by the decoder (web/unpack.js) and a dropped connection fails as one.
 */
function orElse(stream, fallback) {
  const reader = stream.getReader();
  const state = { reader, passed: 0, fellBack: false };
  return new ReadableStream({
    async pull(controller) {
      for (;;) {
        let step;
        try {
          step = await state.reader.read();
        } catch (err) {
          if (state.fellBack) throw err;
          state.fellBack = true;
          state.reader = (await fallback()).getReader();
          state.skip = state.passed;
          continue;
        }
        if (step.done) return controller.close();
        let chunk = step.value;
        if (state.skip > 0) {
          const dropped = Math.min(state.skip, chunk.byteLength);
          state.skip -= dropped;
          chunk = chunk.subarray(dropped);
          if (chunk.byteLength === 0) continue;
        }
        state.passed += chunk.byteLength;
        return controller.enqueue(chunk);
      }
    },
    cancel(reason) {
      return state.reader.cancel(reason);
    },
  });
}

/** Whether `response` came with Content-Encoding: br (the browser has decoded it). */
const encodedAsBrotli = (response) =>
  (response.headers.get("Content-Encoding") ?? "").toLowerCase().split(/\s*,\s*/).includes("br");
const WASM_TYPE = { "Content-Type": "application/wasm" };

/**
 * Start the boot's downloads at once and answer Pyodide's fetches from them.  `site`: the
 * site's URL; `mark(name)`: a timing mark; `progress(stage, fraction, detail)`: the boot's
 * progress to the page.  Returns {siteFetch, fetchChecked, wasmModule, wasmChecked,
 * wasmRequested, libraryUsed, kept}; installs nothing itself (the caller sets self.fetch).
 */
export function bootFiles(site, mark, progress) {
  const libraryUrl = new URL(BUILD.library.url, site).href;
  const wasmUrl = new URL(WASM, site).href;
  const checkedByTheBoot = new Set([WASM, BUILD.library.url, BUILD.reference.url]);
  const networkFetch = self.fetch.bind(self);
  const unpackedCache = `wavinghands-unpacked ${site.href}`;
  const keeping = [];
  // Every damaged file this boot found, first first (integrity.js): it explains what failed after it.
  const damaged = [];

  // Honest progress on a first visit: bytes of the boot's files received so far, as they
  // travel (the packed wasm and library, the decoder, reference.json), out of their sizes as
  // built (engine-build.js).  What this browser already holds does not travel: it leaves the
  // total; the decoder joins it when a packed file needs it.  Reported as {loaded, total}.
  // Once every byte is in, the stage is "starting" (the engine starts from them: the line
  // says so, where it went on saying "4.2 of 4.2 MB" for as long as the start took).
  const download = {
    loaded: 0,
    total: BUILD.wasm.packed.size + BUILD.library.packed.size + BUILD.reference.size,
  };
  const reported = { at: 0, complete: false };
  const received = (bytes) => {
    download.loaded += bytes;
    const complete = download.loaded >= download.total;
    if (complete && reported.complete) return;
    const now = performance.now();
    if (now - reported.at < 100 && !complete) return;
    reported.at = now;
    reported.complete = complete;
    const share = Math.min(1, download.loaded / download.total);
    progress("download", 0.05 + 0.55 * share, { ...download });
    // (The same sum as a whole download's: 0.6 would be less, by a rounding, and not shown.)
    if (complete) progress("starting", 0.05 + 0.55);
  };
  /** `bytes` of a file this browser holds need not travel: the total shrinks. */
  const notOnTheWire = (bytes) => {
    download.total -= bytes;
    received(0);
  };
  /**
   * A pass-through stream that counts what flows through it as received.  With `travelled`
   * (the bytes that travel for the whole stream), the chunks are the host's decoded bytes: each
   * counts for its share of `travelled`, `share` being travelled per decoded byte, and the end
   * settles the count to `travelled` exactly.
   */
  const counting = (share = 1, travelled = undefined) => {
    const counted = { bytes: 0 };
    return new TransformStream({
      transform(chunk, controller) {
        const bytes = Math.round(chunk.byteLength * share);
        counted.bytes += bytes;
        received(bytes);
        controller.enqueue(chunk);
      },
      flush() {
        if (travelled !== undefined) received(travelled - counted.bytes);
      },
    });
  };

  // Whether this host sends the build's `.br` siblings itself (nginx `brotli_static`, Caddy
  // `precompressed`: docs/hosting.md).  Such a host, asked for the wasm or the library by its
  // own name, sends its packed form with Content-Encoding: br, the same bytes that would travel
  // for the packed file, and the browser decodes them natively, off this thread, where the
  // vendored decoder costs this thread ~0.2 s of CPU on a cold boot.  Told by reference.json,
  // asked for first of all and given a sibling for this: sent as br and exactly as long as its
  // sibling, it was the sibling (a host that brotlis on the fly, at its own quality, sends
  // another length, and may not compress a zip at all).  Elsewhere the wasm's own name would
  // bring 3.6 MB of gzip, so the packed files are asked for by their packed names.
  const referenceUrl = new URL(BUILD.reference.url, site);
  const reference = networkFetch(referenceUrl);
  const hostUnpacks = reference.then(
    async (response) => {
      if (!response.ok || !encodedAsBrotli(response)) return false;
      await response.clone().arrayBuffer(); // the record of its fetch is complete once it is read
      const timing = performance.getEntriesByName(referenceUrl.href).at(-1);
      return timing !== undefined && timing.encodedBodySize === BUILD.reference.sibling;
    },
    () => false,
  );
  hostUnpacks.catch(() => {});

  /** Keep `bytes` (checked) as the file at `url` in the unpacked cache, in the background. */
  function keepUnpacked(url, bytes, type) {
    if (typeof caches !== "object" || caches === null) return;
    const headers = { "Content-Type": type, "Content-Length": String(bytes.length) };
    keeping.push(
      caches
        .open(unpackedCache)
        .then((cache) => cache.put(url, new Response(bytes, { headers })))
        .catch((err) => console.warn(`the unpacked ${url} could not be kept (storage full?):`, err)),
    );
  }

  /** This browser's copy of `entry`'s file (the service worker's, or one this worker kept): a
   * response, or null when there is none.  Its bytes are checked by the caller. */
  async function localCopy(entry) {
    if (typeof caches !== "object" || caches === null) return null;
    const hit = await caches.match(new URL(entry.url, site).href).catch(() => undefined);
    return hit && hit.ok && hit.body ? hit : null;
  }

  // The brotli decoder, loaded once, by the first packed file that needs it (unpack.js).
  const decoder = { loading: null };
  const decoderLoaded = () => {
    if (decoder.loading === null) {
      download.total += BUILD.decoder.size;
      decoder.loading = loadDecoder(BUILD.decoder, (url) => networkFetch(new URL(url, site)), received, damaged);
    }
    return decoder.loading;
  };

  /** A packed file's bytes as they download and unpack (`entry`: BUILD.wasm or BUILD.library):
   * counted on the wire, then decoded (by the browser where the host sends the sibling, else by
   * the vendored decoder); its check is the caller's. */
  async function unpackedBody(entry, requested = () => {}) {
    if (await hostUnpacks) {
      const asked = networkFetch(new URL(entry.url, site));
      requested();
      const response = await asked.catch(() => null);
      if (response !== null && response.ok && response.body && encodedAsBrotli(response)) {
        const decoded = response.body.pipeThrough(counting(entry.packed.size / entry.size, entry.packed.size));
        return orElse(decoded, () => packedBody(entry));
      }
      // Not as the probe promised (say, a host that compresses only text on the fly): the
      // packed file, and nothing more of this one.
      if (response !== null && response.body) response.body.cancel().catch(() => {});
    }
    return packedBody(entry, requested);
  }

  /** A packed file's bytes as they download by its packed name and unpack here;
   * `requested()` is called once the request is on its way. */
  async function packedBody(entry, requested = () => {}) {
    const asked = networkFetch(new URL(entry.packed.url, site));
    requested();
    const [response] = await Promise.all([asked, decoderLoaded()]);
    if (!response.ok || !response.body) {
      throw new Error(`Failed to load '${entry.packed.url}': request failed (${response.status})`);
    }
    return response.body.pipeThrough(counting()).pipeThrough(unpacking(entry, damaged));
  }

  /**
   * The Python library's bytes, checked: the copy this browser holds (read whole: readWhole,
   * its Blob at once, where a body arrives a chunk per turn of this worker's busy thread), else
   * the packed file, downloaded, unpacked, checked and kept.  A damaged copy is named (and
   * dropped from the caches, so that a reload fetches it), as the wasm's is.
   */
  async function libraryChecked(entry) {
    const hit = await localCopy(entry);
    if (hit !== null) {
      const bytes = await readWhole(hit);
      await checkBytes(entry.url, bytes, entry.integrity, damaged);
      notOnTheWire(entry.packed.size);
      mark("library");
      return bytes;
    }
    const bytes = await readAll(new Response(await unpackedBody(entry)), () => {});
    await checkBytes(entry.url, bytes, entry.integrity, damaged);
    mark("library");
    keepUnpacked(libraryUrl, bytes, "application/zip");
    return bytes;
  }

  /**
   * Fetch one of the files engine-build.js lists and check it against its integrity: resolves
   * with its bytes and the response once they match, rejects otherwise (DamagedFile, naming
   * it).  Checked here rather than with fetch's `integrity` option, which fails like any
   * network error.
   */
  async function fetchChecked(entry) {
    const url = new URL(entry.url, site);
    // reference.json was asked for at once, above (the probe).
    const response = entry === BUILD.reference ? await reference : await fetch(url);
    if (!response.ok) throw new Error(`Failed to load '${entry.url}': request failed (${response.status})`);
    const bytes = await readAll(response, received);
    // A host may have compressed it on the way: what travelled is the body as encoded, which
    // the browser's record of the fetch gives (the line counted it as it arrived, unpacked).
    const timing = performance.getEntriesByName(url.href).at(-1);
    if (timing && timing.encodedBodySize > 0) {
      download.loaded += timing.encodedBodySize - bytes.length;
      notOnTheWire(bytes.length - timing.encodedBodySize);
    }
    await checkBytes(entry.url, bytes, entry.integrity, damaged);
    return { bytes, response };
  }

  /** The bytes of `copy` (a clone of the wasm's response, for its check), read beside the
   * compiler: the browser reads a local copy whole itself; a download is collected as it
   * unpacks (the clone keeps what arrives until it is read). */
  async function wholeCopy(copy, local) {
    if (local) return new Uint8Array(await copy.arrayBuffer());
    const bytes = new Uint8Array(BUILD.wasm.size);
    let length = 0;
    const reader = copy.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (length + value.byteLength > bytes.length) throw markDamaged(WASM, BUILD.files[WASM], "a longer file", damaged);
      bytes.set(value, length);
      length += value.byteLength;
    }
    return length === bytes.length ? bytes : bytes.subarray(0, length);
  }

  const settleWasm = {};
  const wasmChecked = new Promise((resolve, reject) => Object.assign(settleWasm, { resolve, reject }));
  wasmChecked.catch(() => {});
  // Resolves once the wasm's bytes are on their way (a local copy found, or its request made):
  // worker-boot.js compiles Pyodide's runtime script only then, because on a first visit that
  // compile holds this thread for ~0.2 s, and the request made after it would wait as long.
  const settleRequested = {};
  const wasmRequested = new Promise((resolve) => {
    settleRequested.resolve = resolve;
  });
  const wasmSource = (async () => {
    const hit = await localCopy(BUILD.wasm);
    if (hit !== null) {
      notOnTheWire(BUILD.wasm.packed.size);
      return { response: hit, local: true };
    }
    const body = await unpackedBody(BUILD.wasm, settleRequested.resolve);
    return { response: new Response(body, { headers: WASM_TYPE }), local: false };
  })();
  wasmSource.finally(settleRequested.resolve).catch(() => {});
  const wasmModule = wasmSource.then(
    ({ response, local }) => {
      mark("wasmResponse");
      wholeCopy(response.clone(), local)
        .then(async (bytes) => {
          await checkBytes(WASM, bytes, BUILD.files[WASM], damaged);
          if (!local) keepUnpacked(wasmUrl, bytes, WASM_TYPE["Content-Type"]);
          settleWasm.resolve();
        })
        .catch(settleWasm.reject);
      return WebAssembly.compileStreaming(response);
    },
    (err) => {
      settleWasm.reject(err); // the download failed: nothing to check
      throw err;
    },
  );
  wasmModule.then(() => mark("compiled"), () => {});

  // The Python library is asked for from the worker's start too: Pyodide waits for it before
  // it restores a snapshot (its start-up holds on it), and would ask for it only once its
  // scripts are in.  Every fetch of it Pyodide makes during the boot gets these bytes.
  const library = { bytes: libraryChecked(BUILD.library) };
  library.bytes.catch(() => {}); // Pyodide's fetch reports a failure

  /** siteFetch's own fetch (`url`: the absolute URL of `input`), checked. */
  async function checkedFetch(input, init, url) {
    const response = await networkFetch(input, init);
    const path = url.startsWith(site.href) ? url.slice(site.href.length) : null;
    const expected = path === null || checkedByTheBoot.has(path) ? undefined : BUILD.files[path];
    if (expected === undefined || !response.ok || !response.body) return response;
    const { status, statusText, headers } = response;
    const body = response.body.pipeThrough(checking(path, expected, damaged));
    return new Response(body, { status, statusText, headers });
  }

  /** The worker's fetch: the wasm compiled above, the library's checked bytes, else checked. */
  async function siteFetch(input, init) {
    const url = new URL(input instanceof Request ? input.url : input, site).href;
    if (url === wasmUrl) return (await wasmSource).response;
    if (url === libraryUrl && library.bytes !== null) {
      return new Response(await library.bytes, { headers: { "Content-Type": "application/zip" } });
    }
    return checkedFetch(input, init, url);
  }

  return {
    damaged,
    siteFetch,
    fetchChecked,
    wasmModule,
    wasmChecked,
    wasmRequested,
    libraryUrl,
    /** Pyodide has the library in its file system now: let its bytes go. */
    libraryUsed: () => {
      library.bytes = null;
    },
    /** Resolves once every file this boot unpacked is kept (or could not be). */
    kept: () => Promise.all(keeping),
  };
}
