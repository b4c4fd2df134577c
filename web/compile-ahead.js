// A short-lived module worker that compiles the engine worker's scripts once, right after the
// service worker has cached them, so that the first later visit finds V8's code cache for them.
//
// Chromium keeps a script's compiled code beside its copy in Cache Storage only once the script
// has run from there: without this, the first warm visit compiled Pyodide's 1.25 MB
// `pyodide.asm.mjs` from its source (and wrote its code cache) on the engine's boot path, and
// only the visits after it were spared that (docs/build.md, "A first visit", ninth round).
// sw-register.js starts this worker once the page is controlled by a service worker it has just
// installed, after checking these files' integrity, and ends it when it answers.
//
// Only side-effect-free modules are imported (engine-worker.js itself would boot the engine):
// their evaluation defines functions and constants, nothing runs.
import "./pyodide/pyodide.asm.mjs";
import "./pyodide/pyodide.mjs";
import "./engine-build.js";
import "./worker-boot.js";
import "./worker-files.js";
import "./integrity.js";
import "./engine-snapshot.js";
import "./snapshot-store.js";
import "./unpack.js";
import "./vendor/brotli-dec.mjs";

postMessage("compiled");
