// The engine's home: a module Web Worker (Pyodide 314 refuses classic workers) that boots
// Pyodide from this site and answers {id, fn, args} with {id, result}, where result is
// wavinghands.api.<fn>(*args), a JSON string.
//
// Messages posted to the page:
//   {type: "progress", stage, fraction, detail}   boot progress, fraction in [0, 1]; for the
//                                         stage "download", detail = {loaded, total} in bytes
//   {type: "scripts-loaded"}              every script of the worker is loaded (engine.js checks them)
//   {type: "mark", name, ms}              a step of the boot reached (timings[name], below)
//   {type: "reference", json} | {type: "reference", error}   the engine's answers to spells()
//                                         and rulesets() as recorded at build time
//                                         (reference.json), long before the engine is up
//   {type: "ready", timings}              the engine answers calls; timings in ms since start
//   {type: "kept"}                        after "ready": the files this boot unpacked are kept
//                                         for the next visit and the service worker's install
//   {type: "failed", code, detail, path}  boot failed: worker-boot.js's BootError code (the page
//                                         says it), path: the damaged file's, if one was
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
//
// Its parts: worker-files.js fetches, unpacks, checks and keeps the boot's files; worker-boot.js
// starts Pyodide from them (or from the kept snapshot) and explains a failure; this module runs
// them, answers the calls and snapshots the interpreter when the page leaves it idle.

import { BUILD } from "./engine-build.js";
import { startBoot } from "./worker-boot.js";
import { bootFiles } from "./worker-files.js";
import { importLateModules, makeEngineSnapshot } from "./engine-snapshot.js";
import { SnapshotStore } from "./snapshot-store.js";

// Names a call may use: plain public functions of wavinghands.api, never dunders.
const CALLABLE = /^[a-z][a-z0-9_]*$/;
// The page's calls come in bursts (a view, a preview); the snapshot is made once none has come
// for this long, so that its ~0.1 s of work does not hold up a call the player waits for.
const SNAPSHOT_AFTER_IDLE_MS = 1000;

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

/** Import the modules the engine imports on first use, so no call the player waits for does. */
function importLate(pyodide) {
  try {
    importLateModules(pyodide);
  } catch (err) {
    // The call that needs them will import them itself, and report the failure as its own.
    console.warn("the engine's late modules could not be imported while idle:", err);
  }
}

/** After a fresh boot, idle: snapshot the interpreter (late modules imported) and keep it in `store`. */
function snapshotNow(pyodide, store) {
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

/** The worker: boots the engine at once and answers the page's calls; its state in this closure. */
function runWorker() {
  const started = performance.now();
  const site = new URL("./", import.meta.url);
  // Milliseconds since this function began; `origin` (the worker's creation) and `evaluated`
  // (ms from then to that moment: its script and imports loading) let a page line them up
  // with its own clock.
  const timings = { origin: performance.timeOrigin, evaluated: Math.round(started) };
  const mark = (name) => {
    timings[name] = Math.round(performance.now() - started);
    // Also as it happens: a boot that never ends shows on the page's timeline how far it got.
    postMessage({ type: "mark", name, ms: timings[name] });
    // And on this worker's own timeline, where a Chromium trace shows it beside the thread's
    // CPU (bench/first_visit.py's trace).
    performance.mark(`engine ${name}`);
  };
  // The line only moves forward: a count settled late (a file's size on the wire, known once
  // it is in) never takes it back from a later stage.
  const shown = { fraction: 0 };
  const progress = (stage, fraction, detail) => {
    if (fraction < shown.fraction) return;
    shown.fraction = fraction;
    postMessage({ type: "progress", stage, fraction, detail });
  };

  // The kept snapshot is looked up first of all (a later visit's boot waits for it).
  const store = new SnapshotStore(site.href, BUILD.engineId);
  const storedSnapshot = store.find().catch((err) => {
    console.warn("the stored engine snapshot could not be read:", err);
    return null;
  });
  const files = bootFiles(site, mark, progress);
  self.fetch = files.siteFetch;

  // The recorded answers first (a few KB), so the page can show the rules while the rest
  // arrives.  Fetched here, where engine-build.js is already loaded, rather than by the page,
  // which would have to load engine-build.js a second time to know its integrity.
  files.fetchChecked(BUILD.reference).then(
    ({ bytes }) => postMessage({ type: "reference", json: new TextDecoder().decode(bytes) }),
    (err) => postMessage({ type: "reference", error: String(err && err.message ? err.message : err) }),
  );

  const { booted, explain } = startBoot({ site, files, store, storedSnapshot, mark, progress, timings });
  // When the last call came; the snapshot waits for a quiet moment (SNAPSHOT_AFTER_IDLE_MS).
  const calls = { last: performance.now() };
  const whenIdle = (work) => {
    const wait = SNAPSHOT_AFTER_IDLE_MS - (performance.now() - calls.last);
    if (wait > 0) setTimeout(() => whenIdle(work), wait);
    else work();
  };

  const ready = booted.then(
    async ({ pyodide, api }) => {
      files.libraryUsed(); // Pyodide has it in its file system
      mark("ready");
      progress("ready", 1);
      postMessage({ type: "ready", timings });
      // sw-register.js installs the service worker once they are kept (worker-files.js).
      files.kept().then(() => postMessage({ type: "kept" }));
      if (timings.path === "snapshot") {
        postMessage({ type: "snapshot", state: "restored" });
        store.dropOthers().catch(() => {});
      } else if (store.available) {
        whenIdle(() => snapshotNow(pyodide, store));
      } else {
        whenIdle(() => importLate(pyodide));
        postMessage({ type: "snapshot", state: "unavailable", detail: "this browser keeps no Cache Storage here" });
      }
      return api;
    },
    (err) => {
      const failure = explain(err);
      console.error("engine boot failed:", failure.detail);
      postMessage({ type: "failed", code: failure.code, detail: String(failure.detail), path: failure.path });
      return null;
    },
  );

  self.onmessage = async (event) => {
    calls.last = performance.now();
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
}

runWorker();
