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
//   {type: "failed", message, detail}     boot failed; message is for the player
//   {id, result} | {id, error}            the answer to one call
//
// Boot, fast path: restore the memory snapshot that build.py made (interpreter started, engine
// imported; its static part stored as a difference from the wasm's own starting memory;
// zstd-compressed), then
// lay the engine wheel's files out in site-packages for anything read from
// disk later.  This
// skips Python's start-up and the engine's import, most of a cold boot (docs/build.md).
// Fallback, if the snapshot cannot be used: a normal Pyodide boot that installs the engine wheel
// through Pyodide's package loader from pyodide-lock.json (sha256 checked).  micropip is not
// needed for a wheel without dependencies, so neither path loads it.
//
// Integrity (issue 12, finding 7): every file of the site this worker fetches, Pyodide's own
// fetches included, is checked against the sha256 engine-build.js lists for it (integrity.js),
// on every visit and whatever cache it came from; a damaged one fails the boot with a message
// naming it (no fallback: the fallback would hide it).  This worker's own scripts and Pyodide's
// two JS files are checked by engine.js, which uses nothing from the engine until they match.

import { BUILD } from "./engine-build.js";
import { xorDataSegments } from "./wasm-data.js";
import { checkBytes, checking, damaged, DamagedFile } from "./integrity.js";

const started = performance.now();
const SITE = new URL("./", import.meta.url);
const INDEX_URL = new URL("./pyodide/", SITE).href;
const ENGINE_PACKAGE = "wavinghands";
// The snapshot boot's stdlib: a zip archive with no entries (just its end-of-central-directory
// record), answered by siteFetch below without a request (a data: URL would need `connect-src
// data:` in the site's Content-Security-Policy).
const NO_STDLIB = new URL("./pyodide/no-stdlib.zip", SITE).href;
const EMPTY_ZIP = Uint8Array.from(atob("UEsFBgAAAAAAAAAAAAAAAAAAAAAAAA=="), (c) => c.charCodeAt(0));
// Names a call may use: plain public functions of wavinghands.api, never dunders.
const CALLABLE = /^[a-z][a-z0-9_]*$/;

// Milliseconds since this worker started; `origin` lets a page line them up with its own clock.
const timings = { origin: performance.timeOrigin };
const mark = (name) => {
  timings[name] = Math.round(performance.now() - started);
};

// Every fetch in this worker, Pyodide's included, goes through siteFetch: a site file that
// engine-build.js lists arrives through a stream that fails with DamagedFile if it does not match,
// except the big three the boot keeps a copy of anyway and checks itself (no second copy, and
// the wasm's streaming compilation is not held up by the check).
const WASM = "pyodide/pyodide.asm.wasm";
const CHECKED_BY_THE_BOOT = new Set([WASM, BUILD.snapshot.url, BUILD.wheel.url, BUILD.reference.url]);
const networkFetch = self.fetch.bind(self);
async function siteFetch(input, init) {
  const url = new URL(input instanceof Request ? input.url : input, SITE).href;
  if (url === NO_STDLIB) return new Response(EMPTY_ZIP, { headers: { "content-type": "application/zip" } });
  if (url.startsWith("data:")) return dataResponse(url);
  const response = await networkFetch(input, init);
  const path = url.startsWith(SITE.href) ? url.slice(SITE.href.length) : null;
  const expected = path === null || CHECKED_BY_THE_BOOT.has(path) ? undefined : BUILD.files[path];
  if (expected === undefined || !response.ok || !response.body) return response;
  const { status, statusText, headers } = response;
  return new Response(response.body.pipeThrough(checking(path, expected)), { status, statusText, headers });
}
self.fetch = siteFetch;

/**
 * A data: URL's bytes, decoded here: vendor/zstddec.mjs fetches its own wasm from one, and the
 * site's policy lets fetch() reach the site only (`connect-src 'self'`).  The bytes are part of
 * a checked script, so decoding them widens nothing.
 */
function dataResponse(url) {
  const comma = url.indexOf(",");
  const meta = url.slice("data:".length, comma);
  const body = url.slice(comma + 1);
  const bytes = meta.endsWith(";base64")
    ? Uint8Array.from(atob(body), (c) => c.charCodeAt(0))
    : new TextEncoder().encode(decodeURIComponent(body));
  return new Response(bytes, { headers: { "content-type": meta.replace(/;base64$/, "") || "text/plain" } });
}

const progress = (stage, fraction, detail) => postMessage({ type: "progress", stage, fraction, detail });

// Honest progress on a first visit: bytes of the snapshot boot's three big files received so far,
// out of their sizes as built (engine-build.js).  Reported as {loaded, total} with the fraction.
const download = {
  loaded: 0,
  total: BUILD.wasm.size + BUILD.snapshot.downloadSize + BUILD.wheel.size + BUILD.reference.size,
};
let lastReport = 0;
function received(bytes) {
  download.loaded += bytes;
  const now = performance.now();
  if (now - lastReport < 100 && download.loaded < download.total) return;
  lastReport = now;
  const share = Math.min(1, download.loaded / download.total);
  progress("download", 0.05 + 0.55 * share, { ...download });
}

/** A pass-through stream that counts what flows through it as received. */
const counting = () =>
  new TransformStream({
    transform(chunk, controller) {
      received(chunk.byteLength);
      controller.enqueue(chunk);
    },
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

/** Sort a low-level failure into one of the player-facing explanations. */
function explain(err) {
  // A damaged file found on the way explains whatever failed after it (a decompressor, the
  // wasm compiler or Python choking on the same bytes).
  if (damaged.length > 0) return Object.assign(new BootError(damaged[0].message, damaged[0].detail), { path: damaged[0].path });
  if (err instanceof BootError) return err;
  const text = String(err && err.stack ? err.stack : err);
  if (/integrity|sha256|digest/i.test(text)) return new BootError(SAY.mismatch, text);
  if (/fetch|network|Failed to load|request failed|NetworkError/i.test(text)) {
    return new BootError(SAY.download, text);
  }
  return new BootError(SAY.internal, text);
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
      const checked = Promise.race([wasmBytes, new Promise((resolve) => setTimeout(resolve, 5000))]);
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
 * Each chunk goes to `onChunk` as it arrives (and is counted as received), so a caller can work
 * on it during the download.  Checked here rather than with fetch's `integrity` option, which
 * holds the whole body back until the file is complete and fails like any network error.
 */
async function fetchChecked(entry, onChunk = () => {}) {
  const response = await fetch(new URL(entry.url, SITE));
  if (!response.ok) throw new Error(`Failed to load '${entry.url}': request failed (${response.status})`);
  const reader = response.body.getReader();
  const chunks = [];
  let length = 0;
  // A damaged file may break its consumer (the zstd decoder) before its last byte: keep
  // reading, check, and name the damaged file rather than report the consumer's error.
  let consumerError = null;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received(value.byteLength);
    chunks.push(value);
    length += value.byteLength;
    if (consumerError === null) {
      try {
        await onChunk(value);
      } catch (err) {
        consumerError = err;
      }
    }
  }
  const bytes = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  await checkBytes(entry.url, bytes, entry.integrity);
  if (consumerError !== null) throw consumerError;
  return { bytes, response };
}

// The snapshot's decoder (vendor/zstddec.mjs, zstd's own decoder in wasm): loaded and compiled
// while the snapshot downloads.  Browsers inflate only gzip and deflate themselves, and zstd
// makes the biggest file of a first visit ~30 % smaller than gzip does (docs/build.md).
const zstdDecoder = import(new URL(BUILD.decoder.url, SITE).href).then(async ({ ZSTDDecoder }) => {
  const decoder = new ZSTDDecoder();
  await decoder.init();
  return decoder;
});
zstdDecoder.catch(() => {});

// Network chunks can be a few KB; the decoder is fed at least this many bytes at a time, since
// each input costs it a copy into its memory and a round of calls.
const BATCH = 256 * 1024;

/**
 * Decompress a zstd stream into `target` as its chunks arrive (`push`), so that decoding overlaps
 * the download; `end()` checks that `target` came out exactly full.  zstddec's streaming decoder
 * is a generator that pulls compressed chunks from an iterable whenever it has used up one; it
 * is stepped only while a chunk is queued (or the input has ended), so it never asks for input
 * that has not arrived.  Its own memory stays at zstd's window (a few MB).
 */
function zstdInto(decoder, target) {
  const queue = [];
  let ended = false;
  let offset = 0;
  const input = {
    [Symbol.iterator]: () => ({
      next() {
        if (queue.length) return { value: queue.shift(), done: false };
        if (ended) return { value: undefined, done: true };
        throw new Error("zstd decoder stepped without input");
      },
    }),
  };
  const output = decoder.decodeStreaming(input);
  const step = () => {
    const { done, value } = output.next();
    if (done) return true;
    if (offset + value.length > target.length) throw new Error("snapshot larger than announced");
    target.set(value, offset);
    offset += value.length;
    return false;
  };
  let pending = [];
  let pendingBytes = 0;
  const feed = () => {
    const batch = new Uint8Array(pendingBytes);
    let at = 0;
    for (const chunk of pending) {
      batch.set(chunk, at);
      at += chunk.length;
    }
    pending = [];
    pendingBytes = 0;
    queue.push(batch);
    while (queue.length) step();
  };
  return {
    push(chunk) {
      pending.push(chunk);
      pendingBytes += chunk.length;
      if (pendingBytes >= BATCH) feed();
    },
    end() {
      if (pendingBytes) feed();
      ended = true;
      while (!step());
      if (offset !== target.length) throw new Error("snapshot shorter than announced");
    },
  };
}

/** Fill `target` with the snapshot (after one visit from the service worker's cache), decoded
 * as it downloads; resolves once its integrity is checked. */
async function loadSnapshot(target) {
  let inflater = null;
  const { response } = await fetchChecked(BUILD.snapshot, async (chunk) => {
    inflater ??= zstdInto(await zstdDecoder, target);
    inflater.push(chunk);
  });
  mark("snapshotFetched");
  if (inflater === null) throw new Error("snapshot: empty file");
  inflater.end();
  // Where it came from, for tests and benchmarks: a response the service worker handled has a
  // workerStart in its resource timing.
  const entry = performance.getEntriesByName(response.url).at(-1);
  timings.snapshotSource = entry && entry.workerStart > 0 ? "service worker" : "network";
  mark("snapshot");
  progress("runtime", 0.6);
}

/** The (name, bytes) of every file in a zip whose entries are stored uncompressed. */
function storedZipEntries(zip) {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  let eocd = zip.length - 22;
  while (eocd >= 0 && view.getUint32(eocd, true) !== 0x06054b50) eocd--;
  if (eocd < 0) throw new Error("engine wheel: not a zip file");
  const count = view.getUint16(eocd + 10, true);
  let p = view.getUint32(eocd + 16, true);
  const decoder = new TextDecoder();
  const entries = [];
  for (let i = 0; i < count; i++) {
    if (view.getUint32(p, true) !== 0x02014b50) throw new Error("engine wheel: bad central directory");
    const method = view.getUint16(p + 10, true);
    const size = view.getUint32(p + 20, true);
    const nameLength = view.getUint16(p + 28, true);
    const local = view.getUint32(p + 42, true);
    const name = decoder.decode(zip.subarray(p + 46, p + 46 + nameLength));
    if (method !== 0) throw new Error(`engine wheel: ${name} is compressed`);
    const data = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    entries.push([name, zip.subarray(data, data + size)]);
    p += 46 + nameLength + view.getUint16(p + 30, true) + view.getUint16(p + 32, true);
  }
  return entries;
}

/** The engine wheel's bytes; a mismatch with its recorded sha256 is a player-facing failure. */
async function fetchWheel() {
  try {
    return (await fetchChecked(BUILD.wheel)).bytes;
  } catch (err) {
    // The fallback boot could not fix a damaged wheel (it installs the same file): say so.
    throw err;
  }
}

// Pyodide compiles pyodide.asm.wasm while it downloads (instantiateStreaming); a copy of its
// bytes is kept for the snapshot, whose static memory needs the wasm's data segments added back
// (web/wasm-data.js).  The copy is checked against the build's integrity; both boot paths wait
// for that check before the engine counts as ready.
let keepWasm;
const wasmBytes = new Promise((resolve, reject) => {
  keepWasm = { resolve, reject };
});
wasmBytes.catch(() => {});
const instantiateStreaming = WebAssembly.instantiateStreaming;
WebAssembly.instantiateStreaming = async (source, imports) => {
  let response;
  try {
    response = await source;
  } catch (err) {
    keepWasm.reject(err); // the download failed: nothing to keep or check
    throw err;
  }
  if (!response.body) {
    keepWasm.reject(new Error(`${WASM}: a response without a body`));
    return instantiateStreaming(response, imports);
  }
  const [forCompiler, forSnapshot] = response.body.tee();
  new Response(forSnapshot.pipeThrough(counting()))
    .arrayBuffer()
    .then(async (buffer) => {
      if (!response.ok) throw new Error(`Failed to load '${WASM}': request failed (${response.status})`);
      await checkBytes(WASM, buffer, BUILD.files[WASM]);
      keepWasm.resolve(new Uint8Array(buffer));
    })
    .catch(keepWasm.reject);
  const { status, statusText, headers } = response;
  return instantiateStreaming(new Response(forCompiler, { status, statusText, headers }), imports);
};

// The recorded answers first (a few KB), so the page can show the rules while the rest arrives.
// Fetched here, where engine-build.js is already loaded, rather than by the page, which would
// have to load engine-build.js a second time to know its integrity.
fetchChecked(BUILD.reference).then(
  ({ bytes }) => postMessage({ type: "reference", json: new TextDecoder().decode(bytes) }),
  (err) => postMessage({ type: "reference", error: String(err && err.message ? err.message : err) }),
);

// Both downloads start now, in parallel with loading Pyodide's own scripts and wasm.
const snapshot = new Uint8Array(BUILD.snapshot.size);
const snapshotLoaded = loadSnapshot(snapshot);
const wheelBytes = fetchWheel();
const pyodideScript = import("./pyodide/pyodide.mjs");
const pyodideRuntime = import("./pyodide/pyodide.asm.mjs").then((module) => {
  mark("script");
  return module;
});
for (const p of [snapshotLoaded, wheelBytes, pyodideScript, pyodideRuntime]) p.catch(() => {});
// Every script this worker runs is loaded now: engine.js checks them while the boot goes on.
Promise.all([pyodideScript, pyodideRuntime]).then(() => postMessage({ type: "scripts-loaded" }), () => {});

const pyodideOptions = () => ({
  indexURL: INDEX_URL,
  env: { PYTHONDONTWRITEBYTECODE: "1" },
  stdout: (line) => console.log(line),
  stderr: (line) => console.error(line),
});

/** Boot from the build's memory snapshot; returns the restored engine module. */
async function bootFromSnapshot() {
  const { loadPyodide } = await pyodideScript;
  const pyodide = await Promise.race([
    loadPyodide({
      ...pyodideOptions(),
      // Pyodide only needs the snapshot's size before compiling the wasm, and its bytes after;
      // handing over the buffer at once and waiting for its contents only once the module is
      // built lets the download and the wasm compilation overlap.  Likewise loadPyodide starts
      // fetching the wasm and the stdlib before it asks for the runtime script, which is
      // already on its way.
      _loadSnapshot: snapshot,
      createPyodideModule: async (settings) => {
        const module = await (await pyodideRuntime).default(settings);
        mark("wasm");
        await snapshotLoaded;
        // The build stored the static memory XORed with the wasm's data segments: add them back.
        xorDataSegments(await wasmBytes, snapshot.subarray(BUILD.snapshot.memoryOffset));
        mark("segments");
        return module;
      },
      // The same executable name the snapshot was made with (tools/snapshot.mjs).
      _sysExecutable: "python",
      // The snapshot already holds every module the engine imports (tools/snapshot.mjs), so
      // this path needs no stdlib: an empty archive spares a first visit 2.5 MB.  A module
      // imported later anyway fails with a plain ImportError, never with a wrong module.
      stdLibURL: NO_STDLIB,
    }),
    instantiationFailed,
  ]);
  mark("pyodide");
  progress("engine", 0.85);
  // The interpreter already imported the engine; its files go back on disk for anything it
  // reads later (package data, modules imported lazily).
  const { FS } = pyodide;
  const sitePackages = pyodide.runPython('next(p for p in __import__("sys").path if p.endswith("site-packages"))');
  for (const [name, data] of storedZipEntries(await wheelBytes)) {
    const path = `${sitePackages}/${name}`;
    FS.mkdirTree(path.slice(0, path.lastIndexOf("/")));
    FS.writeFile(path, data);
  }
  // The snapshot froze one random state for every visitor; draw a fresh one.
  pyodide.runPython("import random; random.seed()");
  mark("wheel");
  return pyodide.pyimport("wavinghands.api");
}

/** Boot Pyodide from scratch and install the wheel from the lock file; slower, no snapshot. */
async function bootWithoutSnapshot() {
  const { loadPyodide } = await pyodideScript;
  // `packages` fetches and checks the wheel while the interpreter starts; a failed check only
  // reaches an error callback, so loadedPackages is checked afterwards.
  const pyodide = await Promise.race([
    loadPyodide({ ...pyodideOptions(), packages: [ENGINE_PACKAGE] }),
    instantiationFailed,
  ]);
  await Promise.all([wasmBytes, wheelBytes]); // each rejects if its file was damaged
  mark("pyodide");
  progress("engine", 0.85);
  if (!pyodide.loadedPackages[ENGINE_PACKAGE]) {
    // The boot-time load swallowed its error; a second, explicit load reports the reason.
    const errors = [];
    await pyodide.loadPackage(ENGINE_PACKAGE, {
      messageCallback: () => {},
      errorCallback: (msg) => errors.push(msg),
    });
    if (!pyodide.loadedPackages[ENGINE_PACKAGE]) {
      const detail = errors.join("\n") || "the engine package did not install";
      throw new BootError(/integrity|sha256|hash/i.test(detail) ? SAY.mismatch : SAY.download, detail);
    }
  }
  mark("wheel");
  return pyodide.pyimport("wavinghands.api");
}

async function boot() {
  if (typeof WebAssembly !== "object") throw new BootError(SAY.wasm, "no WebAssembly object");
  progress("runtime", 0.05);
  try {
    timings.path = "snapshot";
    return await bootFromSnapshot();
  } catch (err) {
    if (err instanceof DamagedFile && err.path === BUILD.snapshot.url) {
      // The fallback does without the snapshot (issue 15); the page names it (issue 12.7). Its
      // cached copy is already dropped, so a reload fetches it again.
      timings.damaged = err.path;
      damaged.splice(0);
    } else if (err instanceof BootError || err instanceof DamagedFile || damaged.length > 0) {
      throw err;
    }
    console.warn("engine snapshot unusable, booting without it:", err);
    timings.path = "full";
    return await bootWithoutSnapshot();
  }
}

const ready = boot().then(
  (api) => {
    mark("ready");
    progress("ready", 1);
    postMessage({ type: "ready", timings });
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
