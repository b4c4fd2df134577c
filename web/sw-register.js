// Registers sw.js, the service worker that makes the game work offline after one visit.
// Include once from index.html:  <script type="module" src="sw-register.js"></script>
//
// Registration waits until the engine has booted (or failed), so that filling the offline
// cache (the whole site, mostly Pyodide) does not compete with the first boot for bandwidth
// and CPU.  `window.__offlineReady` resolves once the page is controlled by an activated
// service worker, i.e. once a reload would work with no network.
//
// On a first visit, the service worker this page installed has just cached the engine worker's
// scripts: they are then compiled once from that cache (compile-ahead.js), so that the next
// visit's engine boot finds V8's code cache for them.  `window.__compiledAhead` resolves when that is done (with
// "compiled", "checked-only" or "skipped": nothing was installed here); it never rejects.

import { COMPILE_AHEAD } from './site-integrity.js';
import { checkBytes } from './integrity.js';

const REGISTER_FALLBACK_MS = 10_000;
// Whether a service worker (of this build or an older one) answered this page's own load.
const hadController = "serviceWorker" in navigator && Boolean(navigator.serviceWorker.controller);
// compile-ahead.js answers within a second on an idle machine; past this it is ended unanswered.
const COMPILE_AHEAD_TIMEOUT_MS = 30_000;
// How long compile-ahead.js lives on after it answered (see compileAhead).
const CODE_CACHE_WRITE_MS = 1000;

/**
 * Resolve after the engine's boot settles (engine.js gives up on one silent for a minute), or after
 * a fallback delay on pages without it.  Not sooner on a slow boot: the service worker's install
 * takes the wasm and the library the first boot unpacked once the engine worker has kept them
 * (`window.__engineFilesKept`, engine.js), and fetched them itself, whole (up to 8 MB more),
 * when it started first.
 */
async function engineSettled() {
  if (!window.__engineReady) return new Promise((resolve) => setTimeout(resolve, REGISTER_FALLBACK_MS));
  await window.__engineReady.catch(() => {});
  await window.__engineFilesKept;
}

/** Resolve when `worker` activates; reject if it is discarded (e.g. a file failed its check). */
function activation(worker) {
  return new Promise((resolve, reject) => {
    const check = () => {
      if (worker.state === "activated") resolve();
      else if (worker.state === "redundant") reject(new Error("the offline copy could not be saved"));
    };
    worker.addEventListener("statechange", check);
    check();
  });
}

/**
 * Register the service worker; resolves when it controls this page (with whether it was
 * installed meanwhile), rejects if it cannot.
 */
async function registerServiceWorker() {
  if (!("serviceWorker" in navigator)) throw new Error("this browser has no service workers");
  await engineSettled();
  const registration = await navigator.serviceWorker.register(new URL("./sw.js", import.meta.url), {
    scope: "./",
  });
  const pending = registration.installing || registration.waiting;
  if (pending) await activation(pending);
  if (!navigator.serviceWorker.controller) {
    // sw.js claims its clients on activation; the event may still be on its way.
    await new Promise((resolve) =>
      navigator.serviceWorker.addEventListener("controllerchange", resolve, { once: true }),
    );
  }
  return { installed: Boolean(pending) };
}

/**
 * Run compile-ahead.js once in a worker of this (now controlled) page, after checking it and
 * every script it imports against site-integrity.js: its imports come from the service worker's
 * cache, which keeps V8's code cache for them from this run on.  Resolves with "compiled", or
 * "checked-only" when the worker did not answer in time; rejects with DamagedFile (naming the
 * file; integrity.js also drops the cached copy, which sw.js puts back on the next navigation).
 */
async function compileAhead() {
  await Promise.all(Object.entries(COMPILE_AHEAD).map(async ([path, expected]) => {
    const response = await fetch(new URL(path, import.meta.url));
    if (!response.ok) throw new Error(`Failed to load '${path}': request failed (${response.status})`);
    await checkBytes(path, await response.arrayBuffer(), expected);
  }));
  const worker = new Worker(new URL("./compile-ahead.js", import.meta.url), { type: "module" });
  try {
    return await new Promise((resolve, reject) => {
      const timer = setTimeout(() => resolve("checked-only"), COMPILE_AHEAD_TIMEOUT_MS);
      worker.onmessage = () => {
        clearTimeout(timer);
        // Chromium writes the code cache after the compile, by a message of its own from the
        // worker's thread: ending the worker at once loses it.
        setTimeout(() => resolve("compiled"), CODE_CACHE_WRITE_MS);
      };
      worker.onerror = (event) => {
        clearTimeout(timer);
        event.preventDefault();
        reject(new Error(`compile-ahead.js failed: ${event.message || "worker error"}`));
      };
    });
  } finally {
    worker.terminate();
  }
}

// A new build: the browser finds a changed sw.js when the page is opened; its worker installs
// beside this page and takes over (sw.js skips waiting).  This page keeps running the version it
// loaded, with its engine already started, so a duel in progress goes on; it is only told that
// the next start will bring the new version (`wavinghands:update-ready`, window.__updateReady).
if ("serviceWorker" in navigator) {
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    if (!hadController || window.__updateReady) return;
    window.__updateReady = true;
    window.dispatchEvent(new CustomEvent("wavinghands:update-ready"));
  });
}

const registered = registerServiceWorker();
window.__offlineReady = registered.then(() => undefined);
window.__offlineReady.catch((err) => console.warn("offline play unavailable:", err.message));
// Only a first visit (no service worker answered its load) compiles ahead.  After an update the
// open page is the old build, whose integrity list does not match the new build's files, and
// the next visit, served from the new cache, writes their code cache itself.
window.__compiledAhead = registered.then(
  ({ installed }) => (installed && !hadController ? compileAhead() : "skipped"),
  () => "skipped",
).catch((err) => {
  // Only the next visit is slower for it; a damaged file is named by the engine's own check.
  console.warn("the engine's scripts could not be compiled ahead:", err.message);
  return `failed: ${err.message}`;
});
