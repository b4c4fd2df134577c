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
 * prepareEngine: garbage collected first, and with `clearFree` every free byte zeroed (so that
 * a compressor squeezes it to nothing; see clearFreeMemory).  Returns its bytes.
 */
export function makeEngineSnapshot(pyodide, { clearFree = false } = {}) {
  pyodide.runPython("import gc; gc.collect()");
  if (clearFree) clearFreeMemory(pyodide._module);
  return pyodide.makeMemorySnapshot();
}

/**
 * Zero what the heap no longer uses: the payload of every free dlmalloc chunk (left holding
 * whatever was freed there) and the memory above the break.  Chunk headers and free-list links
 * stay intact.  Pyodide's CPython allocates every object with malloc (no pymalloc arenas), so
 * this reaches all freed memory.  The walk is checked to end exactly at the break; if it does
 * not, nothing is touched.  Returns the number of bytes zeroed.
 */
export function clearFreeMemory(module) {
  const heap = module.HEAPU8;
  const words = new Uint32Array(heap.buffer);
  const start = module.___heap_base;
  const end = module._sbrk(0);
  // A free chunk keeps prev_foot, head, fd, bk and (tree chunks) child[2], parent, index.
  const KEEP = 32;
  const free = [];
  let chunk = start;
  while (chunk < end) {
    const head = words[(chunk + 4) >> 2];
    const size = head & ~7;
    if (size < 16 || chunk + size > end) break;
    if (!(head & 2) && size > KEEP) free.push([chunk + KEEP, chunk + size]);
    chunk += size;
  }
  if (chunk !== end) return 0;
  let cleared = heap.length - end;
  heap.fill(0, end);
  for (const [from, to] of free) {
    heap.fill(0, from, to);
    cleared += to - from;
  }
  return cleared;
}
