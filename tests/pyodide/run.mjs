// Run the engine's test suite inside Pyodide under Node, against the built site.
//
//   node tests/pyodide/run.mjs [--site dist/site] [--wheels .cache/pyodide-test-wheels] [-- PYTEST ARGS]
//
// It boots the site's own Pyodide with the site's own pyodide-lock.json, loads micropip from
// it (sha256-checked; a failed check only reaches the error callback, so it is turned into a
// failure here), has micropip install the site's engine wheel and the test wheels that build.py
// fetched into .cache (no network), then runs pytest on tests/ (without tests/pyodide) and
// exits with pytest's status.

import { existsSync, readdirSync } from "node:fs";
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

  const t0 = performance.now();
  const { loadPyodide } = await import(pathToFileURL(path.join(pyodideDir, "pyodide.mjs")).href);
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
  const lock = JSON.parse(pyodide.FS.readFile("/site/pyodide-lock.json", { encoding: "utf8" }));
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
