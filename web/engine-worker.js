// The engine's home: a module Web Worker (Pyodide 314 refuses classic workers) that boots
// Pyodide from this site, installs the engine wheel listed in the site's pyodide-lock.json and
// answers {id, fn, args} with {id, result}, where result is api.<fn>(*args) as a JSON string.
//
// Messages posted to the page:
//   {type: "progress", stage, fraction}   boot progress, fraction in [0, 1]
//   {type: "ready", timings}              the engine answers calls; timings in ms since start
//   {type: "failed", message, detail}     boot failed; message is for the player
//   {id, result} | {id, error}            the answer to one call
//
// The wheel is loaded through Pyodide's own package loader from the lock file (sha256 checked),
// not through micropip: micropip would cost a second package load and a resolver run on every
// boot for a wheel with no dependencies.  docs/build.md has the measurements.

import { loadPyodide } from "./pyodide/pyodide.mjs";

const started = performance.now();
const INDEX_URL = new URL("./pyodide/", import.meta.url).href;
const ENGINE_PACKAGE = "wavinghands";
// Names a call may use: plain public functions of wavinghands.api, never dunders.
const CALLABLE = /^[a-z][a-z0-9_]*$/;

// Milliseconds since the page's navigation started would need the page's time origin; the
// worker's own origin plus its offset is sent instead, so a benchmark can line both up.
const timings = { origin: performance.timeOrigin };
const mark = (name) => {
  timings[name] = Math.round(performance.now() - started);
};

const progress = (stage, fraction) => postMessage({ type: "progress", stage, fraction });

/** A boot failure with a sentence a player can act on, and the technical detail. */
class BootError extends Error {
  constructor(message, detail) {
    super(message);
    this.detail = detail;
  }
}

const SAY = {
  wasm: "This browser cannot run the game engine: it needs WebAssembly, which is missing or switched off.",
  download:
    "The game's files could not be downloaded. Check the connection and reload the page; after one complete visit the game also works offline.",
  damaged:
    "Some of the game's files arrived damaged or do not match each other. Reload the page; if this keeps happening, clear this site's data in the browser settings.",
  server:
    "This site serves the game engine's file with the wrong type, so the browser cannot start it. (For the site's owner: .wasm files must be served as application/wasm.)",
  internal: "The game engine failed to start because of a fault in the game itself. Reload the page to try again.",
};

/** Sort a low-level failure into one of the player-facing explanations. */
function explain(err) {
  if (err instanceof BootError) return err;
  const text = String(err && err.stack ? err.stack : err);
  if (/fetch|network|Failed to load|request failed|NetworkError/i.test(text)) {
    return new BootError(SAY.download, text);
  }
  return new BootError(SAY.internal, text);
}

// Pyodide reports a failed wasm instantiation (wrong MIME type, truncated file) only through
// console.warn and then waits forever, so that warning itself must end the boot.
let failInstantiation = () => {};
const instantiationFailed = new Promise((_, reject) => {
  failInstantiation = reject;
});
const consoleWarn = console.warn.bind(console);
let instantiationWarnings = null;
console.warn = (...args) => {
  consoleWarn(...args);
  if (instantiationWarnings !== null) {
    instantiationWarnings.push(args.map(String).join(" "));
  } else if (String(args[0]).includes("wasm instantiation failed")) {
    instantiationWarnings = [];
    // The cause follows in a second warning; let it arrive before failing.
    setTimeout(() => {
      const detail = `wasm instantiation failed: ${instantiationWarnings.join("; ")}`;
      failInstantiation(new BootError(/mime|content-type/i.test(detail) ? SAY.server : SAY.damaged, detail));
    }, 0);
  }
};

async function boot() {
  if (typeof WebAssembly !== "object") throw new BootError(SAY.wasm, "no WebAssembly object");
  progress("runtime", 0.05);
  const packageErrors = [];
  // `packages` starts the wheel's download and sha256 check while the interpreter boots; a
  // failed check only reaches the error callback, so loadedPackages is checked afterwards.
  const pyodide = await Promise.race([
    loadPyodide({
      indexURL: INDEX_URL,
      packages: [ENGINE_PACKAGE],
      env: { PYTHONDONTWRITEBYTECODE: "1" },
      stdout: (line) => console.log(line),
      stderr: (line) => console.error(line),
    }),
    instantiationFailed,
  ]);
  mark("pyodide");
  progress("python", 0.8);
  if (!pyodide.loadedPackages[ENGINE_PACKAGE]) {
    // The boot-time load swallowed its error; a second, explicit load reports the reason.
    await pyodide.loadPackage(ENGINE_PACKAGE, {
      messageCallback: () => {},
      errorCallback: (msg) => packageErrors.push(msg),
    });
    if (!pyodide.loadedPackages[ENGINE_PACKAGE]) {
      const detail = packageErrors.join("\n") || "the engine package did not install";
      const damaged = /integrity|sha256|hash/i.test(detail);
      throw new BootError(damaged ? SAY.damaged : SAY.download, detail);
    }
  }
  mark("wheel");
  progress("engine", 0.9);
  const api = pyodide.pyimport("wavinghands.api");
  mark("import");
  return api;
}

const ready = boot().then(
  (api) => {
    mark("ready");
    progress("ready", 1);
    postMessage({ type: "ready", timings });
    return api;
  },
  (err) => {
    const failure = explain(err);
    console.error("engine boot failed:", failure.detail);
    postMessage({ type: "failed", message: failure.message, detail: String(failure.detail) });
    return null;
  },
);

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

self.onmessage = async (event) => {
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
