// Make the site's Python library at build time (called by build.py):
//
//   node tools/python_lib.mjs PYODIDE_DIR ENGINE_WHEEL OUT_ZIP
//
// The page boots Pyodide with this archive in place of python_stdlib.zip (its `stdLibURL`): the
// standard-library modules Pyodide's own start-up and the engine import, and the engine itself,
// all compiled to bytecode by the site's own Pyodide, so a first visit downloads ~1 MB (brotli)
// instead of 2.5 MB and compiles no Python source while it boots (docs/build.md, "Boot").
//
// Which modules: this script boots the site's Pyodide under Node with the full stdlib, installs
// the engine wheel, imports every module of the engine and every module any of its files names
// in an import statement (late imports inside functions too, found by reading the source), asks
// it for its spell table once, and takes every module then loaded from the stdlib archive.  A
// module imported later anyway and not in the archive fails with a plain ImportError, never
// with wrong code; tests/pyodide/run.mjs boots from the archive and runs the engine.
//
// It also records the source texts `dataclasses` compiles for the engine's classes while they
// are imported, and stores their code in the archive (wavinghands/dataclass_code.marshal), which
// wavinghands/precompiled.py hands to dataclasses in the page in place of compiling them: over
// half of the engine's import in wasm (docs/build.md, "Boot").
//
// It also holds `sitecustomize`, compiled from tools/lazy_start.py: Python's `site` imports it
// while the interpreter starts, and it defers the modules Pyodide's own start-up imports but the
// page never uses (asyncio and its event loop, ssl, socket, subprocess, logging, traceback, ...)
// until their first use (docs/build.md, "Boot").  They stay in the archive for that use.
//
// The archive is a stored zip (the site also ships a brotli sibling) of unchecked hash-based
// .pyc files (PEP 552: loaded without their source) plus the engine's package data, entries in
// sorted order with a fixed date.  The stdlib is compiled with -OO (no docstrings or asserts:
// nothing in the page reads them), the engine at level 0, so it keeps its asserts and
// docstrings and behaves exactly as under CPython.  PYTHONHASHSEED=0 keeps the order of set
// constants, and so the bytes, the same from build to build.

import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const WHEEL_PATH = "/tmp/engine.whl";
const ARCHIVE_PATH = "/tmp/python_lib.zip";
// Becomes the archive's sitecustomize (build.py counts it among the archive's inputs).
const LAZY_START = fileURLToPath(new URL("./lazy_start.py", import.meta.url));

async function main() {
  const [pyodideDir, wheelFile, outFile] = process.argv.slice(2);
  if (!outFile) throw new Error("usage: node tools/python_lib.mjs PYODIDE_DIR ENGINE_WHEEL OUT_ZIP");
  const { loadPyodide } = await import(pathToFileURL(path.join(pyodideDir, "pyodide.mjs")).href);
  const pyodide = await loadPyodide({
    indexURL: path.resolve(pyodideDir) + path.sep,
    env: { PYTHONDONTWRITEBYTECODE: "1", PYTHONHASHSEED: "0" },
  });
  pyodide.FS.writeFile(WHEEL_PATH, readFileSync(wheelFile));
  pyodide.FS.writeFile("/tmp/lazy_start.py", readFileSync(LAZY_START));
  const summary = pyodide.runPython(`
import ast, importlib, importlib.util, pkgutil, sys, zipfile

STDLIB = next(p for p in sys.path if p.endswith(".zip"))
wheel = zipfile.ZipFile(${JSON.stringify(WHEEL_PATH)})
site_packages = next(p for p in sys.path if p.endswith("site-packages"))
wheel.extractall(site_packages)
importlib.invalidate_caches()

# Record the source texts dataclasses compiles while the engine is imported (its methods), and
# what they compile to, for wavinghands/precompiled.py.  exec of a text compiles it with the
# interpreter's optimization level and, as called from dataclasses (no __future__ imports),
# no inherited flags: so does this.
import builtins, dataclasses
dataclass_code = {}
def recording_exec(source, globals, locals):
    if isinstance(source, str):
        dataclass_code[source] = compile(source, "<string>", "exec", dont_inherit=True)
    builtins.exec(source, globals, locals)
dataclasses.exec = recording_exec

import wavinghands
engine_files = [n for n in wheel.namelist() if n.startswith("wavinghands/")]
# Every module of the engine, and every module any engine file names in an import statement
# ("from a import b" names a, and a.b if that is a module).
named, maybe_modules = set(), set()
for name in engine_files:
    if name.endswith(".py"):
        for node in ast.walk(ast.parse(wheel.read(name))):
            if isinstance(node, ast.Import):
                named.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                named.add(node.module)
                maybe_modules.update(f"{node.module}.{alias.name}" for alias in node.names)
for info in pkgutil.walk_packages(wavinghands.__path__, "wavinghands."):
    named.add(info.name)
for name in sorted(named | maybe_modules):
    if name.endswith("__main__"):
        continue  # the command line's, never the page's
    try:
        importlib.import_module(name)
    except ModuleNotFoundError:
        if name not in maybe_modules:
            raise
# The page asks for the spell table first: whatever that imports on the way is needed too.
sys.modules["wavinghands.api"].spells()

stdlib = zipfile.ZipFile(STDLIB)
used = sorted({
    module.__spec__.origin[len(STDLIB) + 1:]
    for module in list(sys.modules.values())
    if getattr(module, "__spec__", None) and (module.__spec__.origin or "").startswith(STDLIB + "/")
})

def pyc(source, path, optimize):
    code = compile(source, path, "exec", optimize=optimize, dont_inherit=True)
    return importlib._bootstrap_external._code_to_hash_pyc(code, importlib.util.source_hash(source), checked=False)

entries = {name + "c": pyc(stdlib.read(name), f"{STDLIB}/{name}", 2) for name in used}
for name in engine_files:
    data = wheel.read(name)
    if name.endswith(".py"):
        entries[name + "c"] = pyc(data, f"{STDLIB}/{name}", 0)
    elif not name.endswith("py.typed"):
        entries[name] = data
del dataclasses.exec
from wavinghands import precompiled
entries["wavinghands/" + precompiled.CODE_FILE] = precompiled.dump(dataclass_code)
with open("/tmp/lazy_start.py", "rb") as source:
    entries["sitecustomize.pyc"] = pyc(source.read(), f"{STDLIB}/sitecustomize.py", 0)
with zipfile.ZipFile(${JSON.stringify(ARCHIVE_PATH)}, "w", zipfile.ZIP_STORED) as archive:
    for name in sorted(entries):
        info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
        info.create_system = 3
        info.external_attr = 0o644 << 16
        archive.writestr(info, entries[name])
f"{len(used)} stdlib modules, {len(entries) - len(used)} engine files, {len(dataclass_code)} dataclasses' methods compiled"
`);
  writeFileSync(outFile, pyodide.FS.readFile(ARCHIVE_PATH));
  console.log(`python library: ${summary}`);
}

main().catch((err) => {
  console.error(`python library failed: ${err.stack || err}`);
  process.exit(1);
});
