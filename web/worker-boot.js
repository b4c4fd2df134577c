// The engine worker's boot (engine-worker.js): Pyodide started from the files worker-files.js
// fetches and checks, from the snapshot this browser keeps or afresh, and a failure sorted into
// a code the page says as a sentence a player can act on.  A factory, with no effect until it is called (compile-ahead.js
// imports this module).
//
// Boot (docs/build.md, "Boot"): Pyodide starts with the site's Python library
// (pyodide/python_lib.zip: the stdlib modules Pyodide and the engine import, and the engine,
// compiled to bytecode at build time) in place of the full stdlib, and imports the engine.
// Nothing else is fetched: no snapshot is downloaded.  A stored snapshot that cannot be
// restored is dropped and the boot goes on without it.

import { BUILD } from "./engine-build.js";
import { DamagedFile } from "./integrity.js";
import { afterRestore, prepareEngine } from "./engine-snapshot.js";

/**
 * A boot failure by its code, with the technical detail: the page says it in words
 * (web/ui/words/screens.js, 'boot-failed-<code>'; this worker cannot import ui/). Codes:
 * 'wasm' (no WebAssembly), 'download' (a file could not be fetched), 'mismatch' (the files do not
 * match each other), 'server' (the wasm served with the wrong type), 'internal' (a fault in the
 * game itself), 'damaged' (a file of the site arrived damaged: `path` names it).
 */
export class BootError extends Error {
  constructor(code, detail) {
    super(`the engine did not start (${code})`);
    this.code = code;
    this.detail = detail;
  }
}

/** A failure's own text: its stack, or an exit's status, or what it says of itself. */
function describe(err) {
  if (err && err.stack) return String(err.stack);
  if (err && err.name === "ExitStatus") return `Python exited with status ${err.status}`;
  const text = String(err);
  return text === "[object Object]" ? (JSON.stringify(err) ?? text) : text;
}

/**
 * What Python prints while it starts, kept for a failed boot's detail: a fatal error in its own
 * start-up (say, a module its initialisation needs is missing) is printed, and Emscripten then
 * rejects with a bare ExitStatus (its text was "[object Object]").  Returns the lines kept.
 */
function keepStartupErrors() {
  const lines = [];
  const consoleError = console.error.bind(console);
  console.error = (...args) => {
    consoleError(...args);
    if (lines.length < 40) lines.push(args.map(String).join(" "));
  };
  return lines;
}

/**
 * Pyodide reports a failed wasm instantiation (wrong MIME type, truncated file) only through
 * console.warn and then waits forever, so that warning itself must end the boot: the promise
 * returned rejects then (with the damaged wasm's DamagedFile once `wasmChecked` names it).
 */
function instantiationFailure(wasmChecked) {
  const failed = {};
  const promise = new Promise((_, reject) => {
    failed.reject = reject;
  });
  promise.catch(() => {});
  const consoleWarn = console.warn.bind(console);
  console.warn = (...args) => {
    consoleWarn(...args);
    if (failed.warnings !== undefined) {
      failed.warnings.push(args.map(String).join(" "));
    } else if (String(args[0]).includes("wasm instantiation failed")) {
      failed.warnings = [];
      // The cause follows in a second warning; let it arrive before failing.
      setTimeout(() => {
        const detail = `wasm instantiation failed: ${failed.warnings.join("; ")}`;
        const failure = new BootError(/mime|content-type/i.test(detail) ? 'server' : 'mismatch', detail);
        // A damaged wasm may fail to compile before its check has read the last byte: wait
        // for the check (a few seconds at most), to name the file.
        const checked = Promise.race([wasmChecked, new Promise((resolve) => setTimeout(resolve, 5000))]);
        checked.then(
          () => failed.reject(failure),
          (err) => failed.reject(err instanceof DamagedFile ? err : failure),
        );
      }, 0);
    }
  };
  return promise;
}

/**
 * The engine's boot, started: `files` (worker-files.js's bootFiles), `store` (a SnapshotStore)
 * and `storedSnapshot` (its find(), under way), `mark`, `progress` and the worker's `timings`
 * (its `path` is set here).  Returns {booted: a promise of {pyodide, api}, explain(err): the
 * BootError a failure is shown as}.
 */
export function startBoot({ site, files, store, storedSnapshot, mark, progress, timings }) {
  const startupErrors = keepStartupErrors();
  const instantiationFailed = instantiationFailure(files.wasmChecked);
  const { damaged } = files; // the damaged files this boot found (worker-files.js)

  WebAssembly.instantiateStreaming = async (source, imports) => {
    // `source` is Pyodide's fetch of the wasm: the response compiled by worker-files.js.
    Promise.resolve(source).catch(() => {});
    const module = await files.wasmModule;
    await files.wasmChecked; // nothing of the wasm runs before its bytes match
    const instance = await WebAssembly.instantiate(module, imports);
    mark("instantiated");
    return { instance, module };
  };

  // Pyodide's scripts start loading now, in parallel with the stored snapshot's lookup; its
  // runtime script (1.25 MB to compile) once the wasm's request is out (worker-files.js).
  const pyodideScript = import("./pyodide/pyodide.mjs");
  const pyodideRuntime = files.wasmRequested.then(() => import("./pyodide/pyodide.asm.mjs")).then((module) => {
    mark("script");
    return module;
  });
  for (const p of [pyodideScript, pyodideRuntime]) p.catch(() => {});
  // Every script this worker runs is loaded now: engine.js checks them while the boot goes on.
  Promise.all([pyodideScript, pyodideRuntime]).then(() => postMessage({ type: "scripts-loaded" }), () => {});

  /** Sort a low-level failure into one of the player-facing explanations. */
  function explain(err) {
    // A damaged file found on the way explains whatever failed after it (a decompressor, the
    // wasm compiler or Python choking on the same bytes).
    if (damaged.length > 0) return Object.assign(new BootError('damaged', damaged[0].detail), { path: damaged[0].path });
    if (err instanceof BootError) return err;
    const text = describe(err);
    if (/integrity|sha256|digest/i.test(text)) return new BootError('mismatch', text);
    if (/fetch|network|Failed to load|request failed|NetworkError/i.test(text)) {
      return new BootError('download', text);
    }
    const printed = startupErrors.join("\n").trim();
    return new BootError('internal', printed ? `${text}\n(printed while starting:)\n${printed}` : text);
  }

  /**
   * loadPyodide's options shared by both paths; `extra` adds the path's own.  `beforeRestore`,
   * if given, is a promise the wasm's instantiation waits for before Pyodide restores a snapshot.
   */
  async function startPyodide(extra, beforeRestore = undefined) {
    const { loadPyodide } = await pyodideScript;
    const pyodide = await Promise.race([
      loadPyodide({
        indexURL: new URL("./pyodide/", site).href,
        // The site's Python library in place of python_stdlib.zip (tools/python_lib.mjs).
        stdLibURL: files.libraryUrl,
        env: { PYTHONDONTWRITEBYTECODE: "1" },
        stdout: (line) => console.log(line),
        stderr: (line) => console.error(line),
        // loadPyodide fetches the wasm before it asks for the runtime script, already on its way.
        createPyodideModule: async (settings) => {
          const module = await (await pyodideRuntime).default(settings);
          mark("wasm");
          await beforeRestore;
          return module;
        },
        ...extra,
      }),
      instantiationFailed,
    ]);
    mark("loaded");
    await files.wasmChecked; // rejects if the wasm was damaged
    // A restored interpreter starts without reading its library, so Pyodide lets a failed
    // fetch of it pass (a fresh one fails on it): the engine would come up and fail on its
    // first read.
    if (damaged.length > 0) throw damaged[0];
    // (Pyodide writes it as /lib/pythonXY.zip; asked of the file system, not of Python, which
    // would compile a line on the warm path.)
    const libraryThere = pyodide.FS.readdir("/lib").some((name) => /^python\d+\.zip$/.test(name));
    if (!libraryThere) throw new BootError('download', `Failed to load '${BUILD.library.url}'`);
    mark("pyodide");
    progress("engine", 0.85);
    return pyodide;
  }

  /** Restore the snapshot this browser keeps (a response from store.find()); the engine's module. */
  async function bootFromStoredSnapshot(stored) {
    // Pyodide sizes the interpreter's memory from the snapshot's length and copies its bytes
    // in only after the wasm is compiled and instantiated: it gets the buffer at once, and the
    // instantiation waits for the bytes, which are read meanwhile.
    const { bytes, filled } = store.read(stored);
    const read = filled.then(() => mark("snapshot"));
    read.catch(() => {});
    const pyodide = await startPyodide({ _loadSnapshot: Promise.resolve(bytes) }, read);
    // Its bytes are in the interpreter's memory now; Pyodide keeps the buffer (in its options)
    // for as long as the worker lives: give its 31 MB back.
    if (typeof bytes.buffer.transfer === "function") bytes.buffer.transfer(0);
    // The snapshot froze one random state; draw a fresh one.
    afterRestore(pyodide);
    const api = prepareEngine(pyodide);
    mark("engine");
    return { pyodide, api };
  }

  /** Start Python and import the engine; the interpreter can be snapshotted when `snapshotting`. */
  async function bootFresh(snapshotting) {
    const pyodide = await startPyodide({ _makeSnapshot: snapshotting });
    const api = prepareEngine(pyodide);
    mark("engine");
    return { pyodide, api };
  }

  async function boot() {
    if (typeof WebAssembly !== "object") throw new BootError('wasm', "no WebAssembly object");
    progress("runtime", 0.05);
    const stored = await storedSnapshot;
    mark("found");
    if (stored !== null) {
      try {
        timings.path = "snapshot";
        return await bootFromStoredSnapshot(stored);
      } catch (err) {
        // A damaged file of the site is named, whichever path found it.
        if (err instanceof BootError || err instanceof DamagedFile || damaged.length > 0) throw err;
        console.warn("the stored engine snapshot could not be restored; dropped, booting without it:", err);
        timings.snapshotDropped = String(err && err.message ? err.message : err);
        await store.drop().catch(() => {});
      }
    }
    timings.path = "fresh";
    return await bootFresh(store.available);
  }

  return { booted: boot(), explain };
}
