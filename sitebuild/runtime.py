"""What the site ships of Pyodide's runtime beyond the npm package's files: the runtime script
patched for V8's code cache and Emscripten's wrappers, and the site's Python library."""

from __future__ import annotations

import tempfile
from pathlib import Path

from .common import CACHE, ROOT, BuildError, atomic_write, run, sha256_hex
from .pins import PYODIDE_FILES
from .wheel import engine_wheel_path

# Pyodide's runtime script: one function (`_createPyodideModule`, 1.25 MB) holding Emscripten's
# glue and Pyodide's JavaScript.  V8 compiles a function only when it is first called, so the
# code cache a visit keeps of this script (web/compile-ahead.js) held little more than that
# function's name, and every warm boot parsed and compiled it and the functions it calls
# (~100 ms of the engine worker's CPU).  V8's explicit compile hint (this magic comment on the
# script's first line, Chromium 136 on; a comment to any other engine) compiles every function
# of the file at once, so the code cache holds them all: a first visit pays ~20 ms more CPU,
# beside the wasm's compilation; a warm boot ~50 ms less (docs/build.md, "A first visit").
PYODIDE_RUNTIME_SCRIPT = "pyodide.asm.mjs"
COMPILE_HINT = b"//# allFunctionsCalledOnLoad\n"
# Emscripten's dynamic linker puts each of the ~260 JavaScript functions the wasm takes the
# address of into the function table through a wrapper: a one-function wasm module compiled and
# instantiated for it alone, every boot, on the engine worker's thread (~15 ms of compiling on a
# warm boot).  The module depends only on the function's signature (some 20 of them), so the
# runtime script is patched to compile one per signature and instantiate that for each function.
WRAPPER_COMPILE = b"var module=new WebAssembly.Module(bytes);"
WRAPPER_COMPILE_ONCE = (
    b"var module=(convertJsFunctionToWasm.bySignature??=new Map).get(sig);"
    b"if(!module){module=new WebAssembly.Module(bytes);"
    b"convertJsFunctionToWasm.bySignature.set(sig,module)}"
)


def compile_wrappers_once(runtime: bytes) -> bytes:
    """Pyodide's runtime script, its table wrappers compiled once per signature."""
    if runtime.count(WRAPPER_COMPILE) != 1:
        raise BuildError(
            f"{PYODIDE_RUNTIME_SCRIPT}: Emscripten's wrapper compilation is not where expected"
        )
    return runtime.replace(WRAPPER_COMPILE, WRAPPER_COMPILE_ONCE)


def python_library(files: dict[str, bytes], *, reuse: bool = True) -> bytes:
    """The site's Python library (a stored zip of .pyc files and the engine's package data): the
    stdlib modules Pyodide's start-up and the engine import, the engine, and a sitecustomize
    that defers what the page never uses (tools/lazy_start.py).

    Made by tools/python_lib.mjs under Node with exactly the runtime and wheel the site ships
    (bytecode is the interpreter's own: CPython 3.14 in wasm); cached in the build cache's
    python-lib/ by its inputs; `reuse=False` makes it afresh even so.
    """
    wheel = engine_wheel_path(files)
    script = ROOT / "tools" / "python_lib.mjs"
    lazy_start = ROOT / "tools" / "lazy_start.py"  # the archive's sitecustomize
    inputs = [files[f"pyodide/{n}"] for n in PYODIDE_FILES]
    inputs += [files[wheel], script.read_bytes(), lazy_start.read_bytes()]
    key = sha256_hex(b"".join(sha256_hex(d).encode() for d in inputs))
    cached = CACHE / "python-lib" / f"{key}.zip"
    if reuse and cached.exists():
        return cached.read_bytes()
    with tempfile.TemporaryDirectory(prefix="wh-python-lib-") as tmp:
        pyo = Path(tmp) / "pyodide"
        pyo.mkdir()
        for rel, data in files.items():
            if rel.startswith("pyodide/"):
                (pyo / rel.removeprefix("pyodide/")).write_bytes(data)
        out = Path(tmp) / "python_lib.zip"
        run(["node", str(script), str(pyo), str(pyo / Path(wheel).name), str(out)])
        data = out.read_bytes()
    atomic_write(cached, data)
    # Each engine change leaves a ~4 MB archive behind; a few recent ones (of every checkout
    # sharing the cache) are enough.
    for old in sorted(cached.parent.glob("*.zip"), key=lambda p: p.stat().st_mtime)[:-8]:
        old.unlink(missing_ok=True)
    return data
