// The page's only way to the rules engine: a promise-based client of engine-worker.js.
//
//   import { startEngine, call } from "./engine.js";
//   startEngine((stage, fraction) => showProgress(fraction));   // as early as possible
//   const { ok, spells } = await call("spells");
//   const res = await call("new_game", JSON.stringify(params));  // {"ok": false, ...} is a value
//
// Every argument of `call` is a JSON string (the engine's contract); the result is the parsed
// JSON object.  A result {"ok": false, "error": {...}} is returned, not thrown; `call` rejects
// only when the engine could not start or the call itself is broken (unknown function).
//
// Integrity (issue 12, finding 7): the page's modules, this one included, are loaded with the
// integrity index.html gives them; the worker checks every file it fetches; and before the
// engine counts as ready, this module checks the worker's own scripts (they are loaded by
// `new Worker` and `import()`, which take no integrity), against site-integrity.js.  Until then
// nothing the worker says is used; a mismatch ends it and names the damaged file.
//
// `window.__engineReady` is a promise that settles with the engine's boot: tests, benchmarks
// and sw-register.js wait on it.  `window.__engineSnapshot` resolves with what became of the
// snapshot the worker keeps for the next visit ({state: "stored" | "restored" | "unavailable",
// detail}; engine-worker.js), for tests and benchmarks; it never rejects.

import { WORKER_SCRIPTS } from './site-integrity.js';
import { checkBytes } from './integrity.js';
import { STALL_MS, stallTimer } from './stall-timer.js';

/** Resolve once every script the worker runs matches its integrity; else reject (DamagedFile). */
function checkWorkerScripts() {
  return Promise.all(Object.entries(WORKER_SCRIPTS).map(async ([path, expected]) => {
    // The copy the worker has just loaded, from the HTTP cache (or the service worker), with no
    // request: a file of a first visit is fetched once (issue 15).  A copy that is not there is
    // fetched.
    const response = await fetch(new URL(path, import.meta.url), { cache: 'force-cache' });
    if (!response.ok) throw new Error(`Failed to load '${path}': request failed (${response.status})`);
    await checkBytes(path, await response.arrayBuffer(), expected);
  }));
}

/** The page's one client of the engine worker: its state (the worker, the boot, the calls in
 * flight) lives in this closure. */
function engineClient() {
  let worker = null;
  let bootPromise = null;
  let nextId = 1;
  const pending = new Map();
  const listeners = new Set();
  let lastProgress = { stage: "waiting", fraction: 0 };

  // The engine's answers to spells() and rulesets() as recorded at build time, which the worker
  // sends first (reference.json); rejected if it cannot, or if the worker does not start.
  let settleReference;
  const referencePromise = new Promise((resolve, reject) => {
    settleReference = { resolve, reject };
  });
  referencePromise.catch(() => {});

  let settleReady;
  const readyPromise = new Promise((resolve, reject) => {
    settleReady = { resolve, reject };
  });
  // A failed boot is reported through startEngine's own promise; this copy must not also raise
  // an "unhandled rejection" on pages that never look at it.
  readyPromise.catch(() => {});
  if (typeof window !== "undefined") window.__engineReady = readyPromise;

  let settleSnapshot;
  const snapshotPromise = new Promise((resolve) => {
    settleSnapshot = resolve;
  });
  if (typeof window !== "undefined") window.__engineSnapshot = snapshotPromise;

  // Resolves once the worker has kept what its boot unpacked (or the boot failed): sw-register.js
  // installs the service worker after it, so that the install takes those files rather than
  // downloading them whole.  Never rejects.
  let settleKept;
  const keptPromise = new Promise((resolve) => {
    settleKept = resolve;
  });
  if (typeof window !== "undefined") window.__engineFilesKept = keptPromise;

  /**
   * The worker engine-start.js started at the top of index.html, with the events it has sent so
   * far ({worker, events}); null where that script did not run (then startEngine starts one).
   */
  function launchedWorker() {
    const launch = typeof window !== "undefined" ? window.__engineLaunch : undefined;
    return launch && typeof launch.take === "function" ? launch.take() : null;
  }

  /** Start the engine worker (once); resolves with boot timings, rejects with an Error whose code the page says (failNow). */
  function startEngine(onProgress) {
    if (onProgress) {
      listeners.add(onProgress);
      onProgress(lastProgress.stage, lastProgress.fraction, lastProgress.detail);
    }
    if (bootPromise) return bootPromise;
    bootPromise = new Promise((resolve, reject) => {
      // The check of the worker's scripts, started as soon as the worker has loaded them.
      let scriptsChecked = null;
      // A failure is an Error with a code (worker-boot.js's, or this file's: 'timeout',
      // 'no-module-workers', 'unchecked', 'unloadable'), its detail and a damaged file's path;
      // the page says it in words (web/ui/words/screens.js, 'boot-failed-<code>').
      const failNow = (code, detail, path = undefined) => {
        const err = Object.assign(new Error(`the engine did not start (${code}${path ? `: ${path}` : ''})`), { code, detail, path });
        if (worker) worker.terminate();
        for (const { reject: rej } of pending.values()) rej(err);
        pending.clear();
        settleReference.reject(err);
        settleSnapshot({ state: "unavailable", detail: "the engine did not start" });
        settleKept();
        reject(err);
      };
      // A worker that failed may have failed on a damaged script of its own: say so if it did.
      const fail = (code, detail, path = undefined) => {
        checkWorkerScripts().then(
          () => failNow(code, detail, path),
          (err) => (err.path ? failNow(err.code, err.detail, err.path) : failNow(code, detail, path)),
        );
      };
      // A boot is hung once its worker has said nothing for STALL_MS (stall-timer.js).
      const said = { last: "nothing yet" };
      // (The browser tests set a shorter quiet on the page, to see a hung boot called one.)
      const stallMs = typeof window !== "undefined" && Number.isFinite(window.__engineStallMs) ? window.__engineStallMs : STALL_MS;
      const timer = stallTimer(stallMs, (quietMs) =>
        fail("timeout", `no word from the engine worker for ${Math.round(quietMs / 1000)} s; its last: ${said.last}`));
      let early;
      try {
        early = launchedWorker() ?? { worker: new Worker(new URL("./engine-worker.js", import.meta.url), { type: "module" }), events: [] };
      } catch (err) {
        timer.stop();
        fail("no-module-workers", String(err));
        return;
      }
      worker = early.worker;
      const onMessage = (event) => {
        const msg = event.data;
        timer.poke();
        said.last = msg.type === "mark" ? `the step ${msg.name}` : msg.type === "progress" ? `progress ${msg.stage}` : String(msg.type ?? "an answer");
        if (msg.type === "progress") {
          lastProgress = { stage: msg.stage, fraction: msg.fraction, detail: msg.detail };
          for (const fn of listeners) fn(msg.stage, msg.fraction, msg.detail);
        } else if (msg.type === "mark") {
          // How far the worker's boot got, on the page's timeline (a hung boot is read there).
          performance.mark(`engine-worker ${msg.name}`, { detail: msg.ms });
        } else if (msg.type === "scripts-loaded") {
          scriptsChecked = checkWorkerScripts();
          scriptsChecked.catch(() => {});
        } else if (msg.type === "kept") {
          settleKept();
        } else if (msg.type === "snapshot") {
          settleSnapshot({ state: msg.state, detail: msg.detail });
        } else if (msg.type === "reference") {
          if (msg.error !== undefined) settleReference.reject(new Error(msg.error));
          else settleReference.resolve(JSON.parse(msg.json));
        } else if (msg.type === "ready") {
          (scriptsChecked ?? checkWorkerScripts()).then(() => {
            timer.stop();
            performance.mark("engine-ready", { detail: msg.timings });
            resolve(msg.timings);
          }, (err) => {
            timer.stop();
            failNow(err.path ? err.code : 'unchecked', err.detail || String(err), err.path);
          });
        } else if (msg.type === "failed") {
          timer.stop();
          fail(msg.code, msg.detail, msg.path);
        } else if (pending.has(msg.id)) {
          const { resolve: res, reject: rej, fn } = pending.get(msg.id);
          pending.delete(msg.id);
          if (msg.error !== undefined) rej(new Error(`engine call ${fn} failed: ${msg.error}`));
          else res(JSON.parse(msg.result));
        }
      };
      const onError = (event) => {
        timer.stop();
        event.preventDefault();
        fail("unloadable", event.message || "worker error");
      };
      // What the worker said before this module took it over comes first, in the same task as the
      // handlers' installation, so nothing is lost or seen twice.
      worker.onmessage = onMessage;
      worker.onerror = onError;
      for (const event of early.events) (event.type === "error" ? onError : onMessage)(event);
    });
    bootPromise.then(settleReady.resolve, settleReady.reject);
    return bootPromise;
  }

  /** The engine's recorded {spells, rulesets} answers (reference.json), available before the engine is. */
  function recordedReference() {
    if (!bootPromise) startEngine();
    return referencePromise;
  }

  /** Call api.<fn>(...jsonStrings) in the engine; resolves with the parsed JSON result object. */
  function call(fn, ...args) {
    if (!bootPromise) startEngine();
    return bootPromise.then(
      () =>
        new Promise((resolve, reject) => {
          const id = nextId++;
          pending.set(id, { resolve, reject, fn });
          worker.postMessage({ id, fn, args });
        }),
    );
  }

  return { startEngine, recordedReference, call };
}

const client = engineClient();
/** Start the engine worker (once); resolves with boot timings, rejects with an Error whose code the page says (failNow). */
export const startEngine = client.startEngine;
/** The engine's recorded {spells, rulesets} answers (reference.json), available before the engine is. */
export const recordedReference = client.recordedReference;
/** Call api.<fn>(...jsonStrings) in the engine; resolves with the parsed JSON result object. */
export const call = client.call;
