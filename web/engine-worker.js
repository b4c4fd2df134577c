// The engine's home: a module Web Worker (Pyodide 314 refuses classic workers) that boots
// Pyodide from this site and answers {id, fn, args} with {id, result}, where result is
// wavinghands.api.<fn>(*args), a JSON string.
//
// Messages posted to the page:
//   {type: "progress", stage, fraction, detail}   boot progress, fraction in [0, 1]; for the
//                                         stage "download", detail = {loaded, total} in bytes
//   {type: "scripts-loaded"}              every script of the worker is loaded (engine.js checks them)
//   {type: "reference", json} | {type: "reference", error}   the engine's answers to spells()
//                                         and rulesets() as recorded at build time
//                                         (reference.json), long before the engine is up
//   {type: "ready", timings}              the engine answers calls; timings in ms since start
//   {type: "kept"}                        after "ready": the files this boot unpacked are kept
//                                         for the next visit and the service worker's install
//   {type: "failed", message, detail}     boot failed; message is for the player
//   {type: "snapshot", state, detail}     what became of the local snapshot after the boot:
//                                         "stored" (made and kept for the next visit),
//                                         "restored" (this boot came from one), "unavailable"
//   {id, result} | {id, error}            the answer to one call
//
// Boot (docs/build.md, "Boot"): Pyodide starts with the site's Python library
// (pyodide/python_lib.zip: the stdlib modules Pyodide and the engine import, and the engine,
// compiled to bytecode at build time) in place of the full stdlib, and imports the engine.
// Nothing else is fetched: no snapshot is downloaded.  Once the engine is up and the page has
// left it idle for a moment, the worker imports the engine's late modules (the opponent, remote
// play: wavinghands.api imports them on first use) and snapshots its own interpreter (web/engine-snapshot.js)
// and keeps the snapshot in this browser (web/snapshot-store.js); the next visit restores it,
// which skips Python's start-up and the engine's import.  A stored snapshot that cannot be
// restored is dropped and the boot goes on without it.
//
// Integrity (issue 12, finding 7): every file of the site this worker fetches, Pyodide's own
// fetches included, is checked against the sha256 engine-build.js lists for it (integrity.js),
// on every visit and whatever cache it came from; a damaged one fails the boot with a message
// naming it.  This worker's own scripts and Pyodide's two JS files are checked by engine.js,
// which uses nothing from the engine until they match.  The stored snapshot is made here and
// never fetched: it is trusted as the page's own storage is.

import { BUILD } from "./engine-build.js";
import { checkBytes, checking, damaged, DamagedFile, markDamaged } from "./integrity.js";
import { afterRestore, importLateModules, makeEngineSnapshot, prepareEngine } from "./engine-snapshot.js";
import { readWhole, SnapshotStore } from "./snapshot-store.js";
import { concat, loadDecoder, unpacking } from "./unpack.js";

const started = performance.now();
const SITE = new URL("./", import.meta.url);
const INDEX_URL = new URL("./pyodide/", SITE).href;
const LIBRARY_URL = new URL(BUILD.library.url, SITE).href;
// Names a call may use: plain public functions of wavinghands.api, never dunders.
const CALLABLE = /^[a-z][a-z0-9_]*$/;
// The page's calls come in bursts (a view, a preview); the snapshot is made once none has come
// for this long, so that its ~0.1 s of work does not hold up a call the player waits for.
const SNAPSHOT_AFTER_IDLE_MS = 1000;

// Milliseconds since this module's first line ran; `origin` (the worker's creation) and
// `evaluated` (ms from then to that first line: its script and imports loading) let a page line
// them up with its own clock.
const timings = { origin: performance.timeOrigin, evaluated: Math.round(started) };
const mark = (name) => {
  timings[name] = Math.round(performance.now() - started);
};

// Every fetch in this worker, Pyodide's included, goes through siteFetch: a site file that
// engine-build.js lists arrives through a stream that fails with DamagedFile if it does not
// match, except those the boot reads and checks itself (the wasm, the Python library and
// reference.json).
const WASM = "pyodide/pyodide.asm.wasm";
const WASM_URL = new URL(WASM, SITE).href;
const CHECKED_BY_THE_BOOT = new Set([WASM, BUILD.library.url, BUILD.reference.url]);
const networkFetch = self.fetch.bind(self);
async function siteFetch(input, init) {
  const url = new URL(input instanceof Request ? input.url : input, SITE).href;
  // The wasm is fetched once, at the worker's start (below); Pyodide's fetch of it gets that,
  // and each of its fetches of the library the checked bytes read then.
  if (url === WASM_URL) return (await wasmSource).response;
  if (url === LIBRARY_URL && libraryBytes !== null) {
    return new Response(await libraryBytes, { headers: { "Content-Type": "application/zip" } });
  }
  return checkedFetch(input, init, url);
}
self.fetch = siteFetch;

/** siteFetch's own fetch (`url`: the absolute URL of `input`), checked. */
async function checkedFetch(input, init, url) {
  const response = await networkFetch(input, init);
  const path = url.startsWith(SITE.href) ? url.slice(SITE.href.length) : null;
  const expected = path === null || CHECKED_BY_THE_BOOT.has(path) ? undefined : BUILD.files[path];
  if (expected === undefined || !response.ok || !response.body) return response;
  const { status, statusText, headers } = response;
  const body = response.body.pipeThrough(checking(path, expected));
  return new Response(body, { status, statusText, headers });
}

// The wasm and the library unpacked on a first visit are kept in a cache of their own, for
// the next visit and for the service worker, whose install takes them from there as it takes
// an older build's unchanged files (sw.js `unchanged`), and which deletes this cache when it
// activates.  The page is told when they are kept ({type: "kept"}), and sw-register.js installs
// the service worker only then, so that its install finds them.
const UNPACKED_CACHE = `wavinghands-unpacked ${SITE.href}`;
const keeping = [];

/** Keep `bytes` (checked) as the file at `url` in UNPACKED_CACHE, in the background. */
function keepUnpacked(url, bytes, type) {
  if (typeof caches !== "object" || caches === null) return;
  const headers = { "Content-Type": type, "Content-Length": String(bytes.length) };
  keeping.push(
    caches
      .open(UNPACKED_CACHE)
      .then((cache) => cache.put(url, new Response(bytes, { headers })))
      .catch((err) => console.warn(`the unpacked ${url} could not be kept (storage full?):`, err)),
  );
}

/** This browser's copy of `entry`'s file (the service worker's, or one this worker kept): a
 * response, or null when there is none.  Its bytes are checked by the caller. */
async function localCopy(entry) {
  if (typeof caches !== "object" || caches === null) return null;
  const hit = await caches.match(new URL(entry.url, SITE).href).catch(() => undefined);
  return hit && hit.ok && hit.body ? hit : null;
}

// The brotli decoder, loaded once, by the first packed file that needs it (unpack.js).
let decoder = null;
function decoderLoaded() {
  if (decoder === null) {
    download.total += BUILD.decoder.size;
    decoder = loadDecoder(BUILD.decoder, (url) => networkFetch(new URL(url, SITE)), received);
  }
  return decoder;
}

/** A packed file's bytes as they download and unpack (`entry`: BUILD.wasm or BUILD.library):
 * counted on the wire, then decoded; its check is the caller's. */
async function unpackedBody(entry) {
  const [response] = await Promise.all([networkFetch(new URL(entry.packed.url, SITE)), decoderLoaded()]);
  if (!response.ok || !response.body) {
    throw new Error(`Failed to load '${entry.packed.url}': request failed (${response.status})`);
  }
  return response.body.pipeThrough(counting()).pipeThrough(unpacking(entry));
}

/**
 * The Python library's bytes, checked: the copy this browser holds (read whole: readWhole, its
 * Blob at once, where a body arrives a chunk per turn of this worker's busy thread), else the
 * packed file, downloaded, unpacked, checked and kept.  A damaged copy is named (and dropped
 * from the caches, so that a reload fetches it), as the wasm's is.
 */
async function libraryChecked(entry) {
  const hit = await localCopy(entry);
  if (hit !== null) {
    const bytes = await readWhole(hit);
    await checkBytes(entry.url, bytes, entry.integrity);
    notOnTheWire(entry.packed.size);
    mark("library");
    return bytes;
  }
  const chunks = [];
  let length = 0;
  const reader = (await unpackedBody(entry)).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    length += value.byteLength;
  }
  const bytes = concat(chunks, length);
  await checkBytes(entry.url, bytes, entry.integrity);
  mark("library");
  keepUnpacked(LIBRARY_URL, bytes, "application/zip");
  return bytes;
}

const progress = (stage, fraction, detail) => postMessage({ type: "progress", stage, fraction, detail });

// Honest progress on a first visit: bytes of the boot's files received so far, as they travel
// (the packed wasm and library, the decoder, reference.json), out of their sizes as built
// (engine-build.js).  What this browser already holds does not travel: it leaves the total; the
// decoder joins it when a packed file needs it.
// Reported as {loaded, total} with the fraction.
const download = {
  loaded: 0,
  total: BUILD.wasm.packed.size + BUILD.library.packed.size + BUILD.reference.size,
};
let lastReport = 0;
/** `bytes` of a file this browser holds need not travel: the total shrinks. */
function notOnTheWire(bytes) {
  download.total -= bytes;
  received(0);
}
function received(bytes) {
  download.loaded += bytes;
  const now = performance.now();
  if (now - lastReport < 100 && download.loaded < download.total) return;
  lastReport = now;
  const share = Math.min(1, download.loaded / download.total);
  progress("download", 0.05 + 0.55 * share, { ...download });
}

/** A pass-through stream that counts what flows through it as received; `done` at its end. */
const counting = (done = () => {}) =>
  new TransformStream({
    transform(chunk, controller) {
      received(chunk.byteLength);
      controller.enqueue(chunk);
    },
    flush: done,
  });

/** A boot failure with a sentence a player can act on, and the technical detail. */
class BootError extends Error {
  constructor(message, detail) {
    super(message);
    this.detail = detail;
  }
}

const SAY = {
  wasm: "This browser cannot run the game engine: it needs WebAssembly, which is missing or switched off.",
  download:
    "The game's files could not be downloaded. Check the connection and reload the page; after one complete visit the game also works offline.",
  mismatch:
    "The game's files do not match each other. Reload the page; if this keeps happening, clear this site's data in the browser settings.",
  server:
    "This site serves the game engine's file with the wrong type, so the browser cannot start it. (For the site's owner: .wasm files must be served as application/wasm.)",
  internal: "The game engine failed to start because of a fault in the game itself. Reload the page to try again.",
};

// What Python printed while it started, for a failed boot's detail: a fatal error in its own
// start-up (say, a module its initialisation needs is missing) is printed, and Emscripten then
// rejects with a bare ExitStatus (its text was "[object Object]").
const startupErrors = [];
const consoleError = console.error.bind(console);
console.error = (...args) => {
  consoleError(...args);
  if (startupErrors.length < 40) startupErrors.push(args.map(String).join(" "));
};

/** A failure's own text: its stack, or an exit's status, or what it says of itself. */
function describe(err) {
  if (err && err.stack) return String(err.stack);
  if (err && err.name === "ExitStatus") return `Python exited with status ${err.status}`;
  const text = String(err);
  return text === "[object Object]" ? (JSON.stringify(err) ?? text) : text;
}

/** The detail of a failure that is not a file's: its text and what was printed meanwhile. */
function withPrinted(text) {
  const printed = startupErrors.join("\n").trim();
  return printed ? `${text}\n(printed while starting:)\n${printed}` : text;
}

/** Sort a low-level failure into one of the player-facing explanations. */
function explain(err) {
  // A damaged file found on the way explains whatever failed after it (a decompressor, the
  // wasm compiler or Python choking on the same bytes).
  if (damaged.length > 0) return Object.assign(new BootError(damaged[0].message, damaged[0].detail), { path: damaged[0].path });
  if (err instanceof BootError) return err;
  const text = describe(err);
  if (/integrity|sha256|digest/i.test(text)) return new BootError(SAY.mismatch, text);
  if (/fetch|network|Failed to load|request failed|NetworkError/i.test(text)) {
    return new BootError(SAY.download, text);
  }
  return new BootError(SAY.internal, withPrinted(text));
}

// Pyodide reports a failed wasm instantiation (wrong MIME type, truncated file) only through
// console.warn and then waits forever, so that warning itself must end the boot.
let failInstantiation = () => {};
const instantiationFailed = new Promise((_, reject) => {
  failInstantiation = reject;
});
instantiationFailed.catch(() => {});
const consoleWarn = console.warn.bind(console);
let instantiationWarnings = null;
console.warn = (...args) => {
  consoleWarn(...args);
  if (instantiationWarnings !== null) {
    instantiationWarnings.push(args.map(String).join(" "));
  } else if (String(args[0]).includes("wasm instantiation failed")) {
    instantiationWarnings = [];
    // The cause follows in a second warning; let it arrive before failing.
    setTimeout(() => {
      const detail = `wasm instantiation failed: ${instantiationWarnings.join("; ")}`;
      const say = /mime|content-type/i.test(detail) ? SAY.server : SAY.mismatch;
      const failure = new BootError(say, detail);
      // A damaged wasm may fail to compile before its check has read the last byte: wait for
      // the check (a few seconds at most), to name the file.
      const checked = Promise.race([wasmChecked, new Promise((resolve) => setTimeout(resolve, 5000))]);
      checked.then(
        () => failInstantiation(failure),
        (err) => failInstantiation(err instanceof DamagedFile ? err : failure),
      );
    }, 0);
  }
};

/**
 * Fetch one of the files engine-build.js lists and check it against its integrity: resolves with
 * its bytes and the response once they match, rejects otherwise (DamagedFile, naming it).
 * Checked here rather than with fetch's `integrity` option, which fails like any network error.
 */
async function fetchChecked(entry) {
  const url = new URL(entry.url, SITE);
  const response = await fetch(url);
  if (!response.ok) throw new Error(`Failed to load '${entry.url}': request failed (${response.status})`);
  const reader = response.body.getReader();
  const chunks = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received(value.byteLength);
    chunks.push(value);
    length += value.byteLength;
  }
  // A host may have compressed it on the way: what travelled is the body as encoded, which the
  // browser's record of the fetch gives (the line counted it as it arrived, unpacked).
  const timing = performance.getEntriesByName(url.href).at(-1);
  if (timing && timing.encodedBodySize > 0) {
    download.loaded += timing.encodedBodySize - length;
    notOnTheWire(length - timing.encodedBodySize);
  }
  const bytes = concat(chunks, length);
  await checkBytes(entry.url, bytes, entry.integrity);
  return { bytes, response };
}

// The kept snapshot is looked up first of all (a later visit's boot waits for it).
const store = new SnapshotStore(SITE.href, BUILD.engineId);
const storedSnapshot = store.find().catch((err) => {
  console.warn("the stored engine snapshot could not be read:", err);
  return null;
});

// The wasm is fetched and compiled from the worker's first moment, while Pyodide's scripts
// load: Pyodide itself would ask for it only once they are in, and compile it only once it has
// a snapshot's bytes (docs/build.md, "Boot").  This browser's copy, if it holds one (the
// service worker's, or the one a first visit kept); else the packed file, compiled as it
// downloads and unpacks.  It compiles while the bytes arrive (compileStreaming); a copy of them
// is checked against the build's integrity beside the compiler, and the module is instantiated
// only once they match (instantiateStreaming below): nothing of it runs before.  Pyodide's own
// fetch of the wasm gets the response compiled here, and its instantiateStreaming instantiates
// the module compiled here (a fallback boot after a dropped snapshot instantiates it again).
// A local copy goes to the compiler as the response itself, not a copy: Chromium keeps the
// compiled code of a wasm read from Cache Storage beside it and reuses it, but only for that
// response's own body (a `new Response(stream)` has none).
let settleWasm;
const wasmChecked = new Promise((resolve, reject) => {
  settleWasm = { resolve, reject };
});
wasmChecked.catch(() => {});
const WASM_TYPE = { "Content-Type": "application/wasm" };
const wasmSource = (async () => {
  const hit = await localCopy(BUILD.wasm);
  if (hit !== null) {
    notOnTheWire(BUILD.wasm.packed.size);
    return { response: hit, local: true };
  }
  const body = await unpackedBody(BUILD.wasm);
  return { response: new Response(body, { headers: WASM_TYPE }), local: false };
})();
const wasmModule = wasmSource.then(
  ({ response, local }) => {
    mark("wasmResponse");
    wholeCopy(response.clone(), local)
      .then(async (bytes) => {
        await checkBytes(WASM, bytes, BUILD.files[WASM]);
        if (!local) keepUnpacked(WASM_URL, bytes, WASM_TYPE["Content-Type"]);
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
    if (length + value.byteLength > bytes.length) throw markDamaged(WASM, BUILD.files[WASM], "a longer file");
    bytes.set(value, length);
    length += value.byteLength;
  }
  return length === bytes.length ? bytes : bytes.subarray(0, length);
}

// The Python library is asked for from the worker's start too: Pyodide waits for it before it
// restores a snapshot (its start-up holds on it), and would ask for it only once its scripts are
// in.  Every fetch of it Pyodide makes during the boot gets these bytes (siteFetch).
let libraryBytes = libraryChecked(BUILD.library);
libraryBytes.catch(() => {}); // Pyodide's fetch reports a failure
WebAssembly.instantiateStreaming = async (source, imports) => {
  // `source` is Pyodide's fetch of the wasm: the response compiled above (siteFetch).
  Promise.resolve(source).catch(() => {});
  const module = await wasmModule;
  await wasmChecked; // nothing of the wasm runs before its bytes match
  const instance = await WebAssembly.instantiate(module, imports);
  mark("instantiated");
  return { instance, module };
};

// The recorded answers first (a few KB), so the page can show the rules while the rest arrives.
// Fetched here, where engine-build.js is already loaded, rather than by the page, which would
// have to load engine-build.js a second time to know its integrity.
fetchChecked(BUILD.reference).then(
  ({ bytes }) => postMessage({ type: "reference", json: new TextDecoder().decode(bytes) }),
  (err) => postMessage({ type: "reference", error: String(err && err.message ? err.message : err) }),
);

// Pyodide's scripts start loading now, in parallel with the stored snapshot's lookup.
const pyodideScript = import("./pyodide/pyodide.mjs");
const pyodideRuntime = import("./pyodide/pyodide.asm.mjs").then((module) => {
  mark("script");
  return module;
});
for (const p of [pyodideScript, pyodideRuntime]) p.catch(() => {});
// Every script this worker runs is loaded now: engine.js checks them while the boot goes on.
Promise.all([pyodideScript, pyodideRuntime]).then(() => postMessage({ type: "scripts-loaded" }), () => {});

/**
 * loadPyodide's options shared by both paths; `extra` adds the path's own.  `beforeRestore`, if
 * given, is a promise the wasm's instantiation waits for before Pyodide restores a snapshot.
 */
async function startPyodide(extra, beforeRestore = undefined) {
  const { loadPyodide } = await pyodideScript;
  const pyodide = await Promise.race([
    loadPyodide({
      indexURL: INDEX_URL,
      // The site's Python library in place of python_stdlib.zip (tools/python_lib.mjs).
      stdLibURL: LIBRARY_URL,
      env: { PYTHONDONTWRITEBYTECODE: "1" },
      stdout: (line) => console.log(line),
      stderr: (line) => console.error(line),
      // loadPyodide fetches the wasm before it asks for the runtime script, already on its way.
      createPyodideModule: async (settings) => {
        const module = await (await pyodideRuntime).default(settings);
        mark("wasm");
        await beforeRestore;
        return module;
      },
      ...extra,
    }),
    instantiationFailed,
  ]);
  mark("loaded");
  await wasmChecked; // rejects if the wasm was damaged
  // A restored interpreter starts without reading its library, so Pyodide lets a failed fetch
  // of it pass (a fresh one fails on it): the engine would come up and fail on its first read.
  if (damaged.length > 0) throw damaged[0];
  // (Pyodide writes it as /lib/pythonXY.zip; asked of the file system, not of Python, which
  // would compile a line on the warm path.)
  const libraryThere = pyodide.FS.readdir("/lib").some((name) => /^python\d+\.zip$/.test(name));
  if (!libraryThere) throw new BootError(SAY.download, `Failed to load '${BUILD.library.url}'`);
  mark("pyodide");
  progress("engine", 0.85);
  return pyodide;
}

/** Restore the snapshot this browser keeps (a response from store.find()); the engine's module. */
async function bootFromStoredSnapshot(stored) {
  // Pyodide sizes the interpreter's memory from the snapshot's length and copies its bytes in
  // only after the wasm is compiled and instantiated: it gets the buffer at once, and the
  // instantiation waits for the bytes, which are read meanwhile.
  const { bytes, filled } = store.read(stored);
  const read = filled.then(() => mark("snapshot"));
  read.catch(() => {});
  const pyodide = await startPyodide({ _loadSnapshot: Promise.resolve(bytes) }, read);
  // Its bytes are in the interpreter's memory now; Pyodide keeps the buffer (in its options) for
  // as long as the worker lives: give its 31 MB back.
  if (typeof bytes.buffer.transfer === "function") bytes.buffer.transfer(0);
  // The snapshot froze one random state; draw a fresh one.
  afterRestore(pyodide);
  const api = prepareEngine(pyodide);
  mark("engine");
  return { pyodide, api };
}

/** Start Python and import the engine; the interpreter can be snapshotted when `snapshotting`. */
async function bootFresh(snapshotting) {
  const pyodide = await startPyodide({ _makeSnapshot: snapshotting });
  const api = prepareEngine(pyodide);
  mark("engine");
  return { pyodide, api };
}

async function boot() {
  if (typeof WebAssembly !== "object") throw new BootError(SAY.wasm, "no WebAssembly object");
  progress("runtime", 0.05);
  const stored = await storedSnapshot;
  mark("found");
  if (stored !== null) {
    try {
      timings.path = "snapshot";
      return await bootFromStoredSnapshot(stored);
    } catch (err) {
      // A damaged file of the site is named, whichever path found it.
      if (err instanceof BootError || err instanceof DamagedFile || damaged.length > 0) throw err;
      console.warn("the stored engine snapshot could not be restored; dropped, booting without it:", err);
      timings.snapshotDropped = String(err && err.message ? err.message : err);
      await store.drop().catch(() => {});
    }
  }
  timings.path = "fresh";
  return await bootFresh(store.available);
}

// When the last call came; the snapshot waits for a quiet moment (SNAPSHOT_AFTER_IDLE_MS).
let lastCall = performance.now();

/** Run `work` once the page has left the engine idle for SNAPSHOT_AFTER_IDLE_MS. */
function whenIdle(work) {
  const wait = SNAPSHOT_AFTER_IDLE_MS - (performance.now() - lastCall);
  if (wait > 0) setTimeout(() => whenIdle(work), wait);
  else work();
}

/** Import the modules the engine imports on first use, so no call the player waits for does. */
function importLate(pyodide) {
  try {
    importLateModules(pyodide);
  } catch (err) {
    // The call that needs them will import them itself, and report the failure as its own.
    console.warn("the engine's late modules could not be imported while idle:", err);
  }
}

/** After a fresh boot, idle: snapshot the interpreter (late modules imported) and keep it. */
function snapshotNow(pyodide) {
  const t0 = performance.now();
  let bytes;
  try {
    bytes = makeEngineSnapshot(pyodide);
  } catch (err) {
    console.warn("the engine's snapshot could not be made; every visit starts Python afresh:", err);
    postMessage({ type: "snapshot", state: "unavailable", detail: String(err && err.message ? err.message : err) });
    return;
  }
  const made = performance.now() - t0;
  store.write(bytes).then(
    (kept) => postMessage({ type: "snapshot", state: "stored", detail: { bytes: bytes.length, keptBytes: kept, madeMs: Math.round(made), storedMs: Math.round(performance.now() - t0 - made) } }),
    (err) => {
      console.warn("the engine's snapshot could not be kept (storage full?):", err);
      postMessage({ type: "snapshot", state: "unavailable", detail: String(err && err.message ? err.message : err) });
    },
  );
}

const ready = boot().then(
  async ({ pyodide, api }) => {
    libraryBytes = null; // Pyodide has it in its file system
    mark("ready");
    progress("ready", 1);
    postMessage({ type: "ready", timings });
    // sw-register.js installs the service worker once they are kept (keepUnpacked).
    Promise.all(keeping).then(() => postMessage({ type: "kept" }));
    if (timings.path === "snapshot") {
      postMessage({ type: "snapshot", state: "restored" });
      store.dropOthers().catch(() => {});
    } else if (store.available) {
      whenIdle(() => snapshotNow(pyodide));
    } else {
      whenIdle(() => importLate(pyodide));
      postMessage({ type: "snapshot", state: "unavailable", detail: "this browser keeps no Cache Storage here" });
    }
    return api;
  },
  (err) => {
    const failure = explain(err);
    console.error("engine boot failed:", failure.detail);
    postMessage({ type: "failed", message: failure.message, detail: String(failure.detail), damaged: failure.path });
    return null;
  },
);

/** Call api.<fn>(...args) and return its JSON string; throws for bad calls or Python faults. */
function invoke(api, fn, args) {
  if (typeof fn !== "string" || !CALLABLE.test(fn)) throw new Error(`not an engine function: ${fn}`);
  if (!Array.isArray(args) || !args.every((a) => typeof a === "string")) {
    throw new Error(`arguments of ${fn} must be JSON strings`);
  }
  const f = api[fn];
  if (f === undefined) throw new Error(`not an engine function: ${fn}`);
  try {
    const result = f(...args);
    if (typeof result !== "string") throw new Error(`${fn} did not return a JSON string`);
    return result;
  } finally {
    if (f && typeof f.destroy === "function") f.destroy();
  }
}

self.onmessage = async (event) => {
  lastCall = performance.now();
  const { id, fn, args } = event.data || {};
  const api = await ready;
  if (api === null) {
    postMessage({ id, error: "the engine did not start" });
    return;
  }
  try {
    postMessage({ id, result: invoke(api, fn, args ?? []) });
  } catch (err) {
    postMessage({ id, error: String(err && err.message ? err.message : err) });
  }
};
