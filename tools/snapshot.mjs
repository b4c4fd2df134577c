// Make the engine's Pyodide memory snapshot at build time (called by build.py).
//
//   node tools/snapshot.mjs PYODIDE_DIR ENGINE_WHEEL OUT_FILE
//
// Boots the site's own Pyodide under Node, unpacks the engine wheel into site-packages,
// imports wavinghands.api (plus what the worker needs right after a restore), collects garbage,
// zeroes the freed memory and writes pyodide.makeMemorySnapshot() to OUT_FILE.  Restoring it in the browser skips the interpreter's
// start-up and the engine's import, which is most of a boot (docs/build.md has the numbers).
//
// The snapshot is the wasm heap, so the same inputs must give the same bytes: the clock and
// the random source that Pyodide and Python read while booting are replaced by fixed,
// deterministic ones here.  The worker reseeds Python's `random` after every restore so no
// two sessions share a random sequence.

import nodeCrypto from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

// Must match what engine-worker.js expects to find in a restored interpreter.
const WHEEL_PATH = "/tmp/engine.whl";
const PRELOAD = ["zipfile", "importlib", "random", "json", "wavinghands.api"];

/** A small deterministic byte generator (an LCG) standing in for the OS random source. */
function deterministicFill() {
  let state = 0x2545f491;
  return (view) => {
    const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
    for (let i = 0; i < bytes.length; i++) {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      bytes[i] = state >>> 24;
    }
    return view;
  };
}

async function main() {
  const [pyodideDir, wheelFile, outFile] = process.argv.slice(2);
  if (!outFile) throw new Error("usage: node tools/snapshot.mjs PYODIDE_DIR ENGINE_WHEEL OUT_FILE");
  const fill = deterministicFill();
  nodeCrypto.randomFillSync = fill;
  globalThis.crypto.getRandomValues = fill;
  let clock = 0;
  performance.now = () => (clock += 0.001);
  Date.now = () => 315532800000;

  const { loadPyodide } = await import(pathToFileURL(path.join(pyodideDir, "pyodide.mjs")).href);
  const pyodide = await loadPyodide({
    indexURL: path.resolve(pyodideDir) + path.sep,
    _makeSnapshot: true,
    // Fixed, so the checkout's path (argv[1]) does not end up in the heap.
    _sysExecutable: "python",
    env: { PYTHONDONTWRITEBYTECODE: "1" },
  });
  pyodide.FS.writeFile(WHEEL_PATH, readFileSync(wheelFile));
  pyodide.runPython(`
import importlib, sys, zipfile
site_packages = next(p for p in sys.path if p.endswith("site-packages"))
with zipfile.ZipFile(${JSON.stringify(WHEEL_PATH)}) as wheel:
    wheel.extractall(site_packages)
importlib.invalidate_caches()
for name in ${JSON.stringify(PRELOAD)}:
    importlib.import_module(name)
# The page asks for the spell table first; whatever the engine caches for it is then ready.
sys.modules["wavinghands.api"].spells()
del wheel, site_packages, name
`);
  pyodide.FS.unlink(WHEEL_PATH);
  pyodide.runPython("import gc; gc.collect()");
  const cleared = clearFreeMemory(pyodide._module);
  console.log(`snapshot: ${cleared.toLocaleString("en")} bytes of freed memory zeroed`);
  writeFileSync(outFile, pyodide.makeMemorySnapshot());
}

/**
 * Zero what the heap no longer uses, so it compresses to nothing: the payload of every free
 * dlmalloc chunk (left holding whatever was freed there: parsed sources, decompressed zip
 * members) and the memory above the break.  Chunk headers and free-list links stay intact.
 * Pyodide's CPython allocates every object with malloc (no pymalloc arenas), so this reaches
 * all freed memory.  The walk is checked to end exactly at the break; if it does not, nothing
 * is touched.  Returns the number of bytes zeroed.
 */
function clearFreeMemory(module) {
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
  if (chunk !== end) {
    console.warn(`snapshot: the heap walk stopped at ${chunk}, not at the break ${end}; nothing zeroed`);
    return 0;
  }
  let cleared = heap.length - end;
  heap.fill(0, end);
  for (const [from, to] of free) {
    heap.fill(0, from, to);
    cleared += to - from;
  }
  return cleared;
}

main().catch((err) => {
  console.error(`snapshot failed: ${err.stack || err}`);
  process.exit(1);
});
