// Where the engine's import goes in the site's own Pyodide (under Node), as the page boots it:
//
//   node bench/engine_import.mjs [--site dist/site] [--module wavinghands.api] [--top 25] [--runs 3]
//
// Boots Pyodide from the site's Python library (pyodide/python_lib.zip, as web/engine-worker.js
// does), then imports the module with every module's execution timed (a meta-path finder wraps
// each loader's exec_module; "self" excludes the modules it imported on the way, like
// `python -X importtime`).  Reports, per run in a fresh interpreter: loadPyodide's ms (and CPU ms,
// which count the wasm's compilation in V8's threads too), its modules and how many of them the
// library's sitecustomize left unrun (tools/lazy_start.py), the
// import's wall ms and this process's CPU ms meanwhile (less swayed by other processes on a
// loaded machine), how many modules it loaded, and the slowest modules by self time.  Timings
// depend on load: quote /proc/loadavg beside them.
//
// Each run also splits loadPyodide's CPU ms into its phases ("phases"): Pyodide's JavaScript
// up to the wasm's instantiation, the instantiation (with compilation, in Node), Emscripten's
// set-up of the dynamically linked module (`receiveInstance`), the file system, Python's own
// start (`main`: Py_Initialize, `site`, the library's sitecustomize) and Pyodide's start-up
// after it (`finalizeBootstrap`: its C core and Python packages).  Run under
// `node --single-threaded --liftoff-only` for CPU figures that other processes hardly sway (no
// background compilation or tiering, whose threads would count too): the cold-boot work of
// docs/build.md ("A first visit", ninth round).

import path from "node:path";
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

function parseArgs(argv) {
  const opts = { site: "dist/site", module: "wavinghands.api", top: 25, runs: 3 };
  for (let i = 0; i < argv.length; i++) {
    const key = argv[i].replace(/^--/, "");
    if (!(key in opts)) throw new Error(`unknown argument ${argv[i]}`);
    opts[key] = typeof opts[key] === "number" ? Number(argv[++i]) : argv[++i];
  }
  return opts;
}

const PROFILE = `
import importlib.abc, sys, time

class _Timed(importlib.abc.MetaPathFinder):
    """Wraps every found module's exec_module with a timer (self and total ms)."""
    def __init__(self):
        self.rows, self.stack = [], []
    def find_spec(self, name, path, target=None):
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(name, path, target)
            if spec is not None:
                break
        else:
            return None
        loader = spec.loader
        if loader is None or not hasattr(loader, "exec_module"):
            return spec
        run, rows, stack = loader.exec_module, self.rows, self.stack
        class Loader:
            def __getattr__(_, attr):
                return getattr(loader, attr)
            def create_module(_, spec):
                return loader.create_module(spec)
            def exec_module(_, module):
                stack.append(0.0)
                t0 = time.perf_counter()
                try:
                    run(module)
                finally:
                    total = time.perf_counter() - t0
                    inner = stack.pop()
                    if stack:
                        stack[-1] += total
                    rows.append((name, (total - inner) * 1000, total * 1000))
        spec.loader = Loader()
        return spec

_timed = _Timed()
sys.meta_path.insert(0, _timed)

# How many of the texts dataclasses runs came compiled from the library (wavinghands/precompiled.py
# hands exec a code object) and how many were compiled now (a text); dataclasses finds exec in
# builtins unless precompiled.py gave it its own, which calls builtins.exec too.
import builtins
from types import CodeType
_texts = {"stored": 0, "compiled": 0}
def _exec_counted(source, *rest, _run=builtins.exec):
    if isinstance(source, str) and source.startswith("def __create_fn__("):
        _texts["compiled"] += 1
    elif isinstance(source, CodeType) and any(
            isinstance(c, CodeType) and c.co_name == "__create_fn__" for c in source.co_consts):
        _texts["stored"] += 1
    return _run(source, *rest)
builtins.exec = _exec_counted
`;

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const site = path.resolve(opts.site);
  const build = readFileSync(path.join(site, "engine-build.js"), "utf8");
  const info = JSON.parse(build.slice(build.indexOf("{"), build.lastIndexOf("}") + 1));
  const pyodideDir = path.join(site, "pyodide");
  const { loadPyodide } = await import(pathToFileURL(path.join(pyodideDir, "pyodide.mjs")).href);
  const runtime = await import(pathToFileURL(path.join(pyodideDir, "pyodide.asm.mjs")).href);
  const cpuMs = () => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  };
  const instantiate = WebAssembly.instantiate;
  let marks = {};
  WebAssembly.instantiate = async (...args) => {
    marks.instantiating ??= cpuMs();
    const result = await instantiate(...args);
    marks.instantiated ??= cpuMs();
    return result;
  };
  for (let run = 1; run <= opts.runs; run++) {
    const t0 = performance.now();
    const bootCpu = process.cpuUsage();
    marks = { start: cpuMs() };
    const pyodide = await loadPyodide({
      indexURL: pyodideDir + path.sep,
      stdLibURL: path.join(site, info.library.url),
      env: { PYTHONDONTWRITEBYTECODE: "1" },
      _makeSnapshot: true, // as the page's first visit
      createPyodideModule: async (settings) => {
        settings.preRun = [...[settings.preRun ?? []].flat(), () => (marks.preRun = cpuMs())];
        settings.onRuntimeInitialized = () => (marks.runtime = cpuMs());
        const module = await runtime.default(settings);
        marks.main = cpuMs();
        return module;
      },
    });
    marks.loaded = cpuMs();
    const started = performance.now() - t0;
    const booted = process.cpuUsage(bootCpu);
    const span = (a, b) => Math.round(marks[b] - marks[a]);
    console.log(`run ${run} phases, CPU ms: JavaScript ${span("start", "instantiating")}, instantiate ${span("instantiating", "instantiated")}, dynamic linking ${span("instantiated", "preRun")}, file system ${span("preRun", "runtime")}, Python's main ${span("runtime", "main")}, Pyodide's start-up ${span("main", "loaded")}`);
    const before = pyodide.runPython("import sys; len(sys.modules)");
    // Modules the library's sitecustomize (tools/lazy_start.py) left unrun so far.
    const lazy = pyodide.runPython("s = sys.modules.get('sitecustomize'); sum(map(s.is_lazy, list(sys.modules.values()))) if hasattr(s, 'is_lazy') else 0");
    pyodide.runPython(PROFILE);
    const t1 = performance.now();
    const cpu = process.cpuUsage();
    pyodide.pyimport(opts.module);
    const imported = performance.now() - t1;
    const { user, system } = process.cpuUsage(cpu);
    const rows = pyodide.runPython("_timed.rows").toJs();
    const texts = JSON.parse(pyodide.runPython("import json; json.dumps(_texts)"));
    pyodide.runPython("builtins.exec = _exec_counted.__kwdefaults__['_run']");
    const after = pyodide.runPython("len(sys.modules)");
    const self = rows.reduce((s, r) => s + r[1], 0);
    const bootMs = (booted.user + booted.system) / 1000;
    console.log(`run ${run}: loadPyodide ${started.toFixed(0)} ms (CPU ${bootMs.toFixed(0)} ms, wasm compilation included; ${before} modules, ${lazy} of them not run yet); import ${opts.module} ${imported.toFixed(0)} ms (CPU ${((user + system) / 1000).toFixed(0)} ms), ${after - before} modules (${self.toFixed(0)} ms in their bodies); dataclass methods: ${texts.stored} classes' stored, ${texts.compiled} compiled`);
    if (run === opts.runs) {
      console.log("  self ms  total ms  module");
      for (const [name, s, t] of rows.sort((a, b) => b[1] - a[1]).slice(0, opts.top)) {
        console.log(`  ${s.toFixed(1).padStart(7)}  ${t.toFixed(1).padStart(8)}  ${name}`);
      }
    }
  }
}

main().catch((err) => {
  console.error(err.stack || err);
  process.exit(1);
});
