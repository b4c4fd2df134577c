// Run the engine's test suite inside Pyodide under Node, against the built site.
//
//   node tests/pyodide/run.mjs [--site dist/site] [--wheels .cache/pyodide-test-wheels] [-- PYTEST ARGS]
//
// First it checks what the browser will rely on: every wheel against the site's lock (Pyodide
// itself checks integrity only when it downloads, not for files it reads from disk in Node),
// and that the engine snapshot restores and answers.  Then it boots the site's own Pyodide,
// loads micropip through the site's lock (a failed load only reaches the error callback, so it
// is turned into a failure here), has micropip install the site's engine wheel and the test
// wheels that build.py fetched into .cache (no network), runs pytest on tests/ (without
// tests/pyodide) and exits with pytest's status.

import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

/** Parse `--site`, `--wheels` and the pytest arguments after `--`. */
function parseArgs(argv) {
  const opts = {
    site: path.join(ROOT, "dist", "site"),
    wheels: path.join(ROOT, ".cache", "pyodide-test-wheels"),
    pytest: [],
  };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--") {
      opts.pytest = argv.slice(i + 1);
      break;
    } else if (argv[i] === "--site") opts.site = path.resolve(argv[++i]);
    else if (argv[i] === "--wheels") opts.wheels = path.resolve(argv[++i]);
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

/** Restore the site's engine snapshot and call the engine once, as the browser's worker does. */
async function checkSnapshot(loadPyodide, site, pyodideDir) {
  const build = readFileSync(path.join(site, "engine-build.js"), "utf8");
  const info = JSON.parse(build.slice(build.indexOf("{"), build.lastIndexOf("}") + 1));
  // Decoded by the site's own vendored zstd decoder, as the worker decodes it.
  const { ZSTDDecoder } = await import(pathToFileURL(path.join(site, info.decoder.url)).href);
  const decoder = new ZSTDDecoder();
  await decoder.init();
  const parts = [...decoder.decodeStreaming([readFileSync(path.join(site, info.snapshot.url))])];
  const snapshot = Buffer.concat(parts);
  if (snapshot.length !== info.snapshot.size) throw new Error("snapshot size differs from engine-build.js");
  const t0 = performance.now();
  // As the worker does: the static memory was stored XORed with the wasm's data segments, and
  // the restored interpreter gets an empty stdlib archive (the snapshot holds what it imports).
  const { xorDataSegments } = await import(pathToFileURL(path.join(site, "wasm-data.js")).href);
  xorDataSegments(readFileSync(path.join(pyodideDir, "pyodide.asm.wasm")), snapshot.subarray(info.snapshot.memoryOffset));
  const emptyZip = path.join(mkdtempSync(path.join(tmpdir(), "wh-stdlib-")), "empty.zip");
  writeFileSync(emptyZip, Buffer.from("UEsFBgAAAAAAAAAAAAAAAAAAAAAAAA==", "base64"));
  const pyodide = await loadPyodide({
    indexURL: pyodideDir + path.sep,
    _loadSnapshot: snapshot,
    _sysExecutable: "python",
    stdLibURL: emptyZip,
  });
  const loaded = pyodide.runPython('import sys; "wavinghands.api" in sys.modules');
  // As the worker does: the engine's files go back on disk for what it reads later.
  pyodide.FS.writeFile("/tmp/engine.whl", readFileSync(path.join(site, info.wheel.url)));
  pyodide.runPython(`
import sys, zipfile
zipfile.ZipFile("/tmp/engine.whl").extractall(next(p for p in sys.path if p.endswith("site-packages")))
`);
  const spells = JSON.parse(pyodide.runPython("import wavinghands.api; wavinghands.api.spells()"));
  if (!loaded || !spells.ok) throw new Error("the restored snapshot does not hold a working engine");
  return performance.now() - t0;
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

  verifyLock(pyodideDir);
  const { loadPyodide } = await import(pathToFileURL(path.join(pyodideDir, "pyodide.mjs")).href);
  const restoreMs = await checkSnapshot(loadPyodide, opts.site, pyodideDir);
  console.log(`engine snapshot restored and answering in ${restoreMs.toFixed(0)} ms`);

  const t0 = performance.now();
  const pyodide = await loadPyodide({
    indexURL: pyodideDir + path.sep,
    // Bytecode written through the host mount would land in the work tree.
    env: { PYTHONDONTWRITEBYTECODE: "1", HYPOTHESIS_STORAGE_DIRECTORY: "/tmp/.hypothesis" },
  });
  const booted = performance.now();
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
      `booted in ${(booted - t0).toFixed(0)} ms, micropip + ${wheels.length + 1} wheels in ${(installed - booted).toFixed(0)} ms`,
  );

  pyodide.globals.set("PYTEST_ARGS", pyodide.toPy(opts.pytest));
  const status = await pyodide.runPythonAsync(`
import os, sys
import pytest
import wavinghands
# The wheel under test, not a source tree that happened to be on sys.path.
assert all("site-packages" in p for p in wavinghands.__path__), list(wavinghands.__path__)
os.chdir("/tmp")
# fd-level capture needs dup2 on real descriptors, which Pyodide's stdout is not.
int(pytest.main([
    "/repo/tests", "--rootdir=/repo", "-c", "/repo/pyproject.toml",
    "--ignore=/repo/tests/pyodide", "-p", "no:cacheprovider", "--capture=sys",
    *PYTEST_ARGS,
]))
`);
  return status;
}

main().then(
  (status) => process.exit(status),
  (err) => {
    console.error(`tests in Pyodide could not run: ${err.stack || err}`);
    process.exit(2);
  },
);
