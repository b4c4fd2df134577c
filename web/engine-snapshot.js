// The engine's interpreter, prepared and snapshotted: shared by the engine worker (which makes the
// snapshot in the browser after a first visit's boot, docs/build.md "Boot") and by
// tests/pyodide/run.mjs (which makes one under Node and checks that it restores and answers), so
// the two cannot drift apart.
//
// A snapshot is Pyodide's `makeMemorySnapshot()`: the interpreter's whole wasm memory with the
// engine imported.  Restoring it skips Python's start-up and the engine's import.  Pyodide
// makes one only of an interpreter started with `_makeSnapshot: true`, and only while Python
// holds no JavaScript object it cannot name again (the engine holds none: JSON strings in and out).

/** The module the page calls (wavinghands.api). */
export const ENGINE_MODULE = "wavinghands.api";

/** Import the engine into a started interpreter and return its api module (a PyProxy). */
export function prepareEngine(pyodide) {
  return pyodide.pyimport(ENGINE_MODULE);
}

/**
 * Import what the engine imports only on first use (wavinghands.api.LATE_MODULES: the computer
 * opponent, remote play), so that no later call pays for it.  The worker calls this once the
 * page leaves the engine idle after a fresh boot, and makeEngineSnapshot before it snapshots,
 * so a restored interpreter already holds every module.
 */
export function importLateModules(pyodide) {
  pyodide.runPython("import importlib, wavinghands.api as api\nfor name in api.LATE_MODULES: importlib.import_module(name)");
}

/** After a restore: the snapshot froze the random state of the interpreter it was made from. */
export function afterRestore(pyodide) {
  pyodide.runPython("import random; random.seed()");
}

/**
 * The snapshot of an interpreter started with `_makeSnapshot: true` and prepared by
 * prepareEngine, with the late modules imported (importLateModules) and garbage collected first.  Returns its bytes (the whole wasm memory, ~31 MB).
 * Freed memory is left as it is: the snapshot is stored uncompressed (web/snapshot-store.js),
 * so zeroing it (as the build-time snapshot once did, to help zstd) would buy nothing.
 */
export function makeEngineSnapshot(pyodide) {
  importLateModules(pyodide);
  // What a restore would run on every warm boot runs once, now (tools/lazy_start.py,
  // BEFORE_SNAPSHOT); an interpreter without the site's library has no such sitecustomize.
  pyodide.runPython("import sys\ns = sys.modules.get('sitecustomize')\nif hasattr(s, 'before_snapshot'): s.before_snapshot()");
  pyodide.runPython("import gc; gc.collect()");
  return pyodide.makeMemorySnapshot();
}
