// What only Pyodide can show, against the built site, under Node.
//
//   node tests/pyodide/run.mjs [--site dist/site] [--wheels ~/.cache/wavinghands/pyodide-test-wheels]
//                              [--python python3] [--deep] [-- PYTEST ARGS]
//
// 1. Every wheel against the site's lock (Pyodide itself checks integrity only when it
//    downloads, not for files it reads from disk in Node).
// 2. The page's boot: the engine answers from the site's Python library alone, and a snapshot
//    of that interpreter (made by the page's own code, web/engine-snapshot.js) restores and
//    answers.
// 3. The site's wheel installs with micropip through the site's lock (the test wheels that
//    build.py fetched into its cache, no network), and imports from site-packages.
// 4. Cross-runtime vectors (tests/pyodide/vectors.py): the same inputs give the same games,
//    records, views, turn codes, opponent moves and error values, byte for byte, computed by
//    the host's CPython (`--python`) and inside Pyodide from the wheel.
// 5. pytest, inside Pyodide, on the files tests/pyodide/in_pyodide.txt lists (each with why it
//    must run there); with --deep, on the whole of tests/ (without tests/pyodide) instead.
// Exits with 0 only if every part passed.

import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

/** The build's cache folder: $WH_CACHE, else $XDG_CACHE_HOME/wavinghands, else ~/.cache/wavinghands. */
function buildCache() {
  if (process.env.WH_CACHE) return process.env.WH_CACHE;
  return path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache"), "wavinghands");
}

/** Parse `--site`, `--wheels`, `--python`, `--deep` and the pytest arguments after `--`. */
function parseArgs(argv) {
  const opts = {
    site: path.join(ROOT, "dist", "site"),
    // The build cache (sitebuild/common.py's cache_dir()), where build.py fetched them.
    wheels: path.join(buildCache(), "pyodide-test-wheels"),
    python: "python3",
    deep: false,
    pytest: [],
  };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--") {
      opts.pytest = argv.slice(i + 1);
      break;
    } else if (argv[i] === "--site") opts.site = path.resolve(argv[++i]);
    else if (argv[i] === "--wheels") opts.wheels = path.resolve(argv[++i]);
    else if (argv[i] === "--python") opts.python = argv[++i];
    else if (argv[i] === "--deep") opts.deep = true;
    else throw new Error(`unknown argument ${argv[i]}`);
  }
  return opts;
}

/** Check every wheel the site's lock lists against its sha256 (Pyodide skips this in Node). */
function verifyLock(pyodideDir) {
  const lock = JSON.parse(readFileSync(path.join(pyodideDir, "pyodide-lock.json"), "utf8"));
  for (const entry of Object.values(lock.packages)) {
    const digest = createHash("sha256").update(readFileSync(path.join(pyodideDir, entry.file_name))).digest("hex");
    if (digest !== entry.sha256) throw new Error(`${entry.file_name}: sha256 ${digest}, lock says ${entry.sha256}`);
  }
  return lock;
}

/**
 * Boot as the page's engine worker does (the site's Python library in place of the stdlib, its
 * integrity checked), with the worker's own code (web/engine-snapshot.js): import the engine,
 * call it, snapshot the interpreter, restore the snapshot in a second one and call that.
 * Returns the milliseconds of the fresh boot and of the restore.
 */
async function checkPageBoot(loadPyodide, site, pyodideDir) {
  const build = readFileSync(path.join(site, "engine-build.js"), "utf8");
  const info = JSON.parse(build.slice(build.indexOf("{"), build.lastIndexOf("}") + 1));
  const library = path.join(site, info.library.url);
  const digest = `sha256-${createHash("sha256").update(readFileSync(library)).digest("base64")}`;
  if (digest !== info.library.integrity) throw new Error(`${info.library.url}: ${digest}, engine-build.js says ${info.library.integrity}`);
  const shared = await import(pathToFileURL(path.join(site, "engine-snapshot.js")).href);
  const options = { indexURL: pyodideDir + path.sep, stdLibURL: library, env: { PYTHONDONTWRITEBYTECODE: "1" } };
  const answers = (api) => {
    const spells = JSON.parse(api.spells());
    const game = JSON.parse(api.new_game(JSON.stringify({ names: ["A", "B"], seed: "00112233" })));
    if (!spells.ok || !game.ok) {
      const failed = spells.ok ? { new_game: game } : { spells };
      throw new Error(`the engine does not answer: ${JSON.stringify(failed).slice(0, 300)}`);
    }
  };
  const t0 = performance.now();
  const fresh = await loadPyodide({ ...options, _makeSnapshot: true });
  answers(shared.prepareEngine(fresh));
  const booted = performance.now() - t0;
  // The boot leaves the engine's late modules (the opponent, remote play) for the worker's idle
  // step, and every dataclass of the engine ran the code the library stores for it.
  const late = () => fresh.runPython("import sys, wavinghands.api as api; [m in sys.modules for m in api.LATE_MODULES]").toJs();
  if (late().some(Boolean)) throw new Error(`the engine's import loaded a late module: ${late()}`);
  if (fresh.runPython("import wavinghands.precompiled as p; p.STORED") === 0) {
    throw new Error("the site's Python library holds no stored dataclass code (tools/python_lib.mjs)");
  }
  // The library's sitecustomize (tools/lazy_start.py) left what Pyodide's start-up imports but
  // the page never uses unrun, through the engine's import.
  // (Those the start-up imports are there unrun; the others it now never imports at all.)
  const run = fresh.runPython(`
import sys, sitecustomize as s
[n for n in s.LAZY if n in sys.modules and not s.is_lazy(sys.modules[n])] + [
    n + " (not imported)" for n in ("asyncio", "pyodide.webloop", "traceback", "pyodide._package_loader") if n not in sys.modules]
`).toJs();
  if (run.length > 0) throw new Error(`modules the start-up should leave unrun: ${run}`);
  shared.importLateModules(fresh);
  if (!late().every(Boolean)) throw new Error(`importLateModules left some out: ${late()}`);
  // Every module of the engine imports from the library alone (the worker has nothing else).
  fresh.runPython(`
import importlib, pkgutil, wavinghands
for info in pkgutil.walk_packages(wavinghands.__path__, "wavinghands."):
    if not info.name.endswith("__main__"):
        importlib.import_module(info.name)
`);
  const snapshot = shared.makeEngineSnapshot(fresh);
  const t1 = performance.now();
  const restored = await loadPyodide({ ...options, _loadSnapshot: snapshot });
  shared.afterRestore(restored);
  answers(shared.prepareEngine(restored));
  const restoredMs = performance.now() - t1;
  // A restore runs none of the deferred modules: what it would touch ran before the snapshot
  // (lazy_start.BEFORE_SNAPSHOT), once, instead of on every warm boot.
  const unrun = (py) => JSON.stringify(py.runPython("import sys, sitecustomize as s\n[n for n in s.LAZY if n in sys.modules and s.is_lazy(sys.modules[n])]").toJs());
  if (unrun(restored) !== unrun(fresh)) {
    throw new Error(`the restore ran deferred modules: unrun ${unrun(restored)}, in the snapshot ${unrun(fresh)}`);
  }
  // The deferred modules still work once touched, in the restored interpreter (read from the
  // library then): an error prints, asyncio comes with Pyodide's event loop, as an eager
  // start-up installs it, and the package loader with its own paths.
  const loop = await restored.runPythonAsync(`
import contextlib, io, sys
printed = io.StringIO()
with contextlib.redirect_stderr(printed):
    try:
        1 / 0
    except ZeroDivisionError:
        sys.excepthook(*sys.exc_info())  # Pyodide's, through a traceback not run yet
import asyncio, time
await asyncio.sleep(0)
import pyodide._package_loader as packages
("ZeroDivisionError" in printed.getvalue(),
 type(asyncio.get_event_loop()).__name__, hasattr(time.sleep, "__wrapped__"), "ssl" in sys.modules,
 type(packages.SITE_PACKAGES).__name__, str(packages.get_install_dir()) == str(packages.SITE_PACKAGES))
`);
  const expected = [true, "WebLoop", true, true, "PosixPath", true];
  if (JSON.stringify(loop.toJs()) !== JSON.stringify(expected)) {
    throw new Error(`asyncio and the package loader, run after the start-up, are not as Pyodide sets them up: ${loop.toJs()}`);
  }
  return { booted, restored: restoredMs };
}

/**
 * A folder of the build's cache that hypothesis keeps its storage in between runs (its
 * HYPOTHESIS_STORAGE_DIRECTORY, as .hypothesis/ is for pytest tests/ in CPython), named by
 * Pyodide's runtime: above all its Unicode tables (hypothesis.internal.charmap: the categories
 * and the code points UTF-8 can encode, computed over every code point when missing, some 3 s
 * of CPU in wasm, stored under the Unicode version's name), besides its example database.
 */
function keptBetweenRuns(pyodideDir) {
  const hash = createHash("sha256");
  for (const file of ["pyodide.asm.wasm", "python_stdlib.zip"]) hash.update(readFileSync(path.join(pyodideDir, file)));
  const dir = path.join(buildCache(), "pyodide-test-kept", hash.digest("hex").slice(0, 16));
  mkdirSync(path.join(dir, "hypothesis"), { recursive: true });
  return dir;
}

/** This process's CPU seconds so far (user + system): a figure a loaded machine barely moves. */
function cpuSeconds() {
  const { user, system } = process.cpuUsage();
  return ((user + system) / 1e6).toFixed(1);
}

/** Load one package from the lock file, failing loudly where Pyodide only calls back. */
async function loadLocked(pyodide, name) {
  const errors = [];
  await pyodide.loadPackage(name, { messageCallback: () => {}, errorCallback: (m) => errors.push(m) });
  if (errors.length || !pyodide.loadedPackages[name]) {
    throw new Error(`loading ${name} from the site's lock failed:\n${errors.join("\n")}`);
  }
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const pyodideDir = path.join(opts.site, "pyodide");
  if (!existsSync(path.join(pyodideDir, "pyodide-lock.json"))) {
    throw new Error(`${opts.site} is not a built site (run python3 build.py build)`);
  }
  const wheels = readdirSync(opts.wheels).filter((f) => f.endsWith(".whl")).sort();
  if (wheels.length === 0) throw new Error(`no test wheels in ${opts.wheels} (build.py test fetches them)`);

  // The host's side of the vectors, computed while Pyodide boots.
  const host = hostVectors(opts.python);
  host.catch(() => {}); // awaited below; a failure there is reported there
  verifyLock(pyodideDir);
  const { loadPyodide } = await import(pathToFileURL(path.join(pyodideDir, "pyodide.mjs")).href);
  const page = await checkPageBoot(loadPyodide, opts.site, pyodideDir);
  console.log(
    `the page's boot: engine answering in ${page.booted.toFixed(0)} ms from the site's Python library, ` +
      `in ${page.restored.toFixed(0)} ms from a snapshot of that interpreter (CPU so far ${cpuSeconds()} s)`,
  );

  const t0 = performance.now();
  const pyodide = await loadPyodide({
    indexURL: pyodideDir + path.sep,
    // Bytecode written through the host mount would land in the work tree.  Hypothesis keeps
    // its Unicode tables between runs (keptBetweenRuns).
    env: { PYTHONDONTWRITEBYTECODE: "1", HYPOTHESIS_STORAGE_DIRECTORY: "/kept/hypothesis" },
  });
  const booted = performance.now();
  pyodide.mountNodeFS("/kept", keptBetweenRuns(pyodideDir));
  await loadLocked(pyodide, "micropip");

  pyodide.mountNodeFS("/site", pyodideDir);
  pyodide.mountNodeFS("/wheels", opts.wheels);
  pyodide.mountNodeFS("/repo", ROOT);
  const lock = verifyLock(pyodideDir);
  const engineWheel = lock.packages.wavinghands.file_name;
  pyodide.globals.set("WHEELS", pyodide.toPy([`emfs:/site/${engineWheel}`, ...wheels.map((w) => `emfs:/wheels/${w}`)]));
  await pyodide.runPythonAsync(`
import micropip
# deps=False: every dependency is one of the pinned wheels; nothing may be looked up online.
await micropip.install(list(WHEELS), deps=False)
`);
  const installed = performance.now();
  console.log(
    `Pyodide ${pyodide.version} (Python ${pyodide.runPython("import platform; platform.python_version()")}): ` +
      `booted in ${(booted - t0).toFixed(0)} ms, micropip + ${wheels.length + 1} wheels in ${(installed - booted).toFixed(0)} ms ` +
      `(CPU so far ${cpuSeconds()} s)`,
  );
  await pyodide.runPythonAsync(`
import os, wavinghands
# The wheel under test, not a source tree that happened to be on sys.path.
assert all("site-packages" in p for p in wavinghands.__path__), list(wavinghands.__path__)
os.chdir("/tmp")
`);

  const vectorsFailed = await compareVectors(pyodide, await host);
  const files = opts.deep ? ["/repo/tests"] : chosenFiles().map((f) => `/repo/tests/${f}`);
  pyodide.globals.set("PYTEST_ARGS", pyodide.toPy([...files, ...opts.pytest]));
  // --deep: the deep tier too (the tests marked deep, tests/conftest.py), as in CPython.
  if (opts.deep) await pyodide.runPythonAsync(`import os; os.environ["WH_DEEP"] = "1"`);
  const status = await pyodide.runPythonAsync(`
import pytest
# fd-level capture needs dup2 on real descriptors, which Pyodide's stdout is not.
int(pytest.main([
    "--rootdir=/repo", "-c", "/repo/pyproject.toml",
    "--ignore=/repo/tests/pyodide", "-p", "no:cacheprovider", "--capture=sys",
    # The build's own machinery (a subprocess runner, Unix resource limits) runs in CPython only.
    "--ignore=/repo/tests/test_sitebuild.py",
    *PYTEST_ARGS,
]))
`);
  return status || (vectorsFailed ? 1 : 0);
}

/** The host CPython's vectors (tests/pyodide/vectors.py): a promise of their JSON text. */
function hostVectors(python) {
  return new Promise((resolve, reject) => {
    const script = path.join(ROOT, "tests", "pyodide", "vectors.py");
    const child = spawn(python, [script], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "inherit"],
      env: { ...process.env, PYTHONDONTWRITEBYTECODE: "1" },
    });
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (chunk) => (out += chunk));
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0 ? resolve(out) : reject(new Error(`${python} tests/pyodide/vectors.py exited with ${code}`)),
    );
  });
}

/** Compute the vectors inside Pyodide and compare them with the host's; true if they differ. */
async function compareVectors(pyodide, hostJson) {
  const t0 = performance.now();
  pyodide.globals.set("HOST_VECTORS", hostJson);
  const [count, difference] = (
    await pyodide.runPythonAsync(`
import json, sys
sys.path.insert(0, "/repo/tests/pyodide")
import vectors
host, here = json.loads(HOST_VECTORS), vectors.vectors()
[len(host), vectors.first_difference(host, here)]
`)
  ).toJs();
  const ms = (performance.now() - t0).toFixed(0);
  if (difference !== undefined && difference !== null) {
    console.log(`FAILED cross-runtime vectors (tests/pyodide/vectors.py): ${difference}`);
    console.log("(the site's wheel must be built from this checkout's engine: python3 build.py build)");
    return true;
  }
  console.log(`cross-runtime vectors: ${count} the same in CPython and Pyodide (${ms} ms in Pyodide; CPU so far ${cpuSeconds()} s)`);
  return false;
}

/** The test files tests/pyodide/in_pyodide.txt lists (one a line, after the comments) that this
 * checkout has; a listed file not there yet is named and skipped. */
function chosenFiles() {
  const listed = readFileSync(path.join(ROOT, "tests", "pyodide", "in_pyodide.txt"), "utf8")
    .split("\n")
    .map((line) => line.replace(/#.*/, "").trim())
    .filter(Boolean);
  const missing = listed.filter((f) => !existsSync(path.join(ROOT, "tests", f)));
  if (missing.length) console.log(`in_pyodide.txt lists ${missing.join(", ")}: not in this checkout, skipped`);
  return listed.filter((f) => !missing.includes(f));
}

main().then(
  (status) => process.exit(status),
  (err) => {
    // "FAILED": build.py test lists the line among the failures at its end.
    console.error(`FAILED tests in Pyodide could not run: ${err.stack || err}`);
    process.exit(2);
  },
);
