// Make the engine's Pyodide memory snapshot at build time (called by build.py).
//
//   node tools/snapshot.mjs PYODIDE_DIR ENGINE_WHEEL OUT_FILE
//
// Boots the site's own Pyodide under Node, unpacks the engine wheel into site-packages,
// imports wavinghands.api (plus what the worker needs right after a restore), collects garbage,
// zeroes the freed memory and writes pyodide.makeMemorySnapshot() to OUT_FILE, its static
// memory XORed with the wasm's data segments (OUT_FILE.json says where the memory starts).  Restoring it in the browser skips the interpreter's
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
import { xorDataSegments } from "../web/wasm-data.js";

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
    // -OO for Pyodide's own ~190 modules: their docstrings (and asserts) are ~8 % of the
    // compressed snapshot and nothing in the page reads them.  The engine is compiled without
    // it below, so it keeps its asserts and docstrings and runs exactly as under CPython.
    env: { PYTHONDONTWRITEBYTECODE: "1", PYTHONOPTIMIZE: "2" },
  });
  pyodide.FS.writeFile(WHEEL_PATH, readFileSync(wheelFile));
  pyodide.runPython(`
import importlib, sys, zipfile
site_packages = next(p for p in sys.path if p.endswith("site-packages"))
with zipfile.ZipFile(${JSON.stringify(WHEEL_PATH)}) as wheel:
    wheel.extractall(site_packages)
importlib.invalidate_caches()
# Files on disk (the engine's) are compiled at optimisation level 0 whatever the interpreter's
# -OO says: asserts and docstrings stay as in CPython.  Restored after the imports.
from importlib.machinery import SourceFileLoader
unoptimised = SourceFileLoader.source_to_code
SourceFileLoader.source_to_code = lambda self, data, path, *, _optimize=-1: unoptimised(self, data, path, _optimize=0)
for name in ${JSON.stringify(PRELOAD)}:
    importlib.import_module(name)
# Every module of the engine, and so every stdlib module any of them imports: the page boots
# from the snapshot without the stdlib archive, so nothing may be left to import later.
import pkgutil, wavinghands
for info in pkgutil.walk_packages(wavinghands.__path__, "wavinghands."):
    if not info.name.endswith("__main__"):
        importlib.import_module(info.name)
SourceFileLoader.source_to_code = unoptimised
if not sys.modules["wavinghands.api"].spells.__doc__:  # (an assert would be compiled away)
    raise RuntimeError("the engine was compiled with -OO")
# The page asks for the spell table first; whatever the engine caches for it is then ready.
sys.modules["wavinghands.api"].spells()
del wheel, site_packages, name, info, pkgutil, wavinghands, SourceFileLoader, unoptimised
`);
  pyodide.FS.unlink(WHEEL_PATH);
  pyodide.runPython("import gc; gc.collect()");
  const cleared = clearFreeMemory(pyodide._module);
  console.log(`snapshot: ${cleared.toLocaleString("en")} bytes of freed memory zeroed`);
  const snapshot = pyodide.makeMemorySnapshot();
  // The static memory is mostly the wasm's own data segments, which the browser already has:
  // stored XORed with them it compresses to almost nothing (web/wasm-data.js).  The worker
  // needs to know where the memory image starts (after Pyodide's header).
  const offset = new Uint32Array(snapshot.buffer, snapshot.byteOffset, 2)[1];
  xorDataSegments(readFileSync(path.join(pyodideDir, "pyodide.asm.wasm")), snapshot.subarray(offset));
  writeFileSync(outFile, snapshot);
  writeFileSync(`${outFile}.json`, JSON.stringify({ offset, size: snapshot.length }));
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
