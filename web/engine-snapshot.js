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

/** After a restore: the snapshot froze the random state of the interpreter it was made from. */
export function afterRestore(pyodide) {
  pyodide.runPython("import random; random.seed()");
}

/**
 * The snapshot of an interpreter started with `_makeSnapshot: true` and prepared by
 * prepareEngine, garbage collected first.  Returns its bytes (the whole wasm memory, ~31 MB).
 * Freed memory is left as it is: the snapshot is stored uncompressed (web/snapshot-store.js),
 * so zeroing it (as the build-time snapshot once did, to help zstd) would buy nothing.
 */
export function makeEngineSnapshot(pyodide) {
  pyodide.runPython("import gc; gc.collect()");
  return pyodide.makeMemorySnapshot();
}
