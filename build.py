#!/usr/bin/env python3
"""Build, serve and test the Waving Hands static site; see docs/build.md.

    python3 build.py build [--out DIR]     write the self-contained site (default dist/site/)
    python3 build.py serve [--port N]      build, then serve it on http://127.0.0.1:N/ (blocks)
    python3 build.py test [--skip-e2e]     fill .venv/ with the dev tools, then run every check

Only the standard library is imported at module level: `build` and `serve` need nothing else,
and `test` must be able to start on a fresh machine before anything has been installed.
"""

from __future__ import annotations

import argparse
import base64
import concurrent.futures
import contextlib
import hashlib
import http.server
import io
import json
import math
import os
import re
import shutil
import struct
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
import tomllib
import zipfile
import zlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent
CACHE = ROOT / ".cache"
DEFAULT_OUT = ROOT / "dist" / "site"
WEB = ROOT / "web"

# The one Pyodide release the site ships.  The integrity string is the registry's published
# `dist.integrity`; it is re-checked against the registry whenever the tarball is downloaded,
# and against the cached tarball on every build so an offline build is verified too.
PYODIDE_VERSION = "314.0.7"
PYODIDE_INTEGRITY = "sha512-0YvXxEhfEdpLfb/XkM2BFAeMROq0iMUX2bzzH9pOttyMcWkwq+HbE5uyuGD82LN7y2q+SNvi/6V5JEsOlD2R1A=="  # noqa: E501
# What the browser needs from the npm package; type stubs, source maps and demo pages stay out.
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")
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

# micropip as published on PyPI (the hash is the one PyPI's index publishes; pip checks it).
MICROPIP_REQUIREMENT = (
    "micropip==0.11.1 "
    "--hash=sha256:768de165adb8e66906039d8fec4127a57f522dfdf8e6fbff877a4616941ecfd3"
)
MICROPIP_WHEEL = "micropip-0.11.1-py3-none-any.whl"
# Pyodide 314 runs CPython 3.14; wheels fetched for it are selected for that interpreter.
PYODIDE_PYTHON = "3.14"

# The QR code generator the page draws codes and links with (web/remote.js), vendored from npm at
# build time into the site as vendor/uqr.mjs, pinned like the Pyodide tarball.
QR_PACKAGE = "uqr"
QR_VERSION = "0.1.3"
QR_INTEGRITY = "sha512-0rjE8iEJe4YmT9TOhwsZtqCMRLc5DXZUI2UEYUUg63ikBkqqE5EYWaI0etFe/5KUcmcYwLih2RND1kq+hrUJXA=="  # noqa: E501
QR_SITE_PATH = "vendor/uqr.mjs"

# Wheels the engine's test suite needs inside Pyodide (pinned with hashes; fetched at build
# time into .cache, never at test run time).
PYODIDE_TEST_REQUIREMENTS = ROOT / "tests" / "pyodide" / "requirements.txt"

# Every timestamp that ends up in an artefact (zip entries, file mtimes) is this one, so the
# bytes depend on content alone.  1980-01-01 is the earliest date a zip entry can hold.
SOURCE_DATE_EPOCH = 315532800
ZIP_DATE = (1980, 1, 1, 0, 0, 0)

MIME_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".wasm": "application/wasm",  # any other type makes Pyodide hang without a word
    ".zip": "application/zip",
    ".whl": "application/zip",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".webmanifest": "application/manifest+json",
    ".txt": "text/plain; charset=utf-8",
}

# Shipped but left out of the service worker's precache, fetched only if something asks: the
# page boots from the site's Python library (PYTHON_LIBRARY, which holds the engine too), so it
# needs neither the full stdlib archive nor a wheel; they are there for micropip, the tests and
# anyone installing packages by hand.
NOT_PRECACHED = re.compile(r"pyodide/(python_stdlib\.zip|[^/]+\.whl)")

CHROMIUM = Path("/usr/bin/chromium")
# How every headless Chromium of the tests and benchmarks starts: without the networking switches
# Chromium keeps dialling Google's hosts, which a closed network refuses; --no-sandbox because the
# tests run as root.
CHROMIUM_ARGS = (
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
)  # fmt: skip
# The site's Python library: the stdlib modules Pyodide and the engine import, and the engine,
# compiled to bytecode (tools/python_lib.mjs); the page's `stdLibURL`.
PYTHON_LIBRARY = "pyodide/python_lib.zip"
# The engine's answers to spells() and rulesets(), recorded at build time (engine_reference).
REFERENCE = "reference.json"

# The site's Content-Security-Policy (issue 12, finding 7; docs/build.md says what hosts send).
# Nothing inline, no eval: WebAssembly needs only 'wasm-unsafe-eval' (Pyodide compiles its wasm;
# it never evaluates JS strings on the engine's path).  connect-src covers fetch() in the page,
# the engine worker and the service worker; WebRTC's ICE traffic (STUN, TURN, the peer) is not
# governed by any directive (docs/webrtc.md).  img-src data: is the favicon in index.html.
CSP_DIRECTIVES = (
    ("default-src", "'none'"),
    ("script-src", "'self' 'wasm-unsafe-eval'"),
    ("style-src", "'self'"),
    ("img-src", "'self' data:"),
    ("connect-src", "'self'"),
    ("worker-src", "'self'"),
    ("manifest-src", "'self'"),
    ("base-uri", "'none'"),
    ("form-action", "'none'"),
    ("object-src", "'none'"),
    ("frame-ancestors", "'none'"),  # obeyed only in a header, never in a <meta> tag
)
# What a <meta http-equiv> tag may carry: all but frame-ancestors (and report-uri, sandbox).
HEADER_ONLY_DIRECTIVES = frozenset({"frame-ancestors"})


def content_security_policy(*, meta: bool = False) -> str:
    """The site's policy as a header value; `meta`: the part a <meta> tag can carry."""
    return "; ".join(
        f"{name} {value}"
        for name, value in CSP_DIRECTIVES
        if not (meta and name in HEADER_ONLY_DIRECTIVES)
    )


# The scripts the engine worker runs: `new Worker` and `import()` take no integrity, so
# engine.js checks these against site-integrity.js before it uses the engine.  A module the
# worker imports must be listed here (build_site checks engine-worker.js's imports).
WORKER_SCRIPTS = (
    "engine-worker.js", "engine-build.js", "integrity.js", "engine-snapshot.js",
    "snapshot-store.js", "pyodide/pyodide.mjs", "pyodide/pyodide.asm.mjs",
)  # fmt: skip
# A short-lived module worker sw-register.js starts after the service worker's install: it
# imports the engine worker's scripts (all but engine-worker.js, each listed in WORKER_SCRIPTS)
# once from the service worker's cache, so that V8 keeps their code cache for the next visit.
COMPILE_AHEAD = "compile-ahead.js"
# Classic scripts index.html runs first, in this order, before its stylesheet and modules:
# boot-guard.js names a page script that failed its integrity, engine-start.js starts the engine
# worker (engine.js takes it over).  build.py writes their tags, with their integrity.
EARLY_SCRIPTS = ("boot-guard.js", "engine-start.js")
# Worker-side modules and early classic scripts: the page never imports them, so index.html
# does not preload them.
NOT_PAGE_MODULES = frozenset(
    {"sw.js", COMPILE_AHEAD, *EARLY_SCRIPTS, *WORKER_SCRIPTS} - {"integrity.js"}
)
# The page loads its modules bundled: each of these entries with every page module it imports,
# in one file at the entry's own path (bundled_page).  One file, where there were some 35: on a
# warm visit each module cost a request answered from the service worker's cache and the
# module map's work, about 100 ms of CPU in all among the browser's processes, beside the
# engine's boot on a 2-core machine (docs/build.md, "A first visit", tenth round).  web/ keeps
# the modules as written; the site serves them too (tests import one afresh), unprecached.
PAGE_BUNDLES = ("app.js", "sw-register.js")
# Page modules the bundles import at run time instead of holding: the worker scripts' integrity
# list, written after the bundles' sources (a change of the worker needs no new bundle), and the
# QR code library remote.js loads on first use.  index.html preloads them with their integrity.
PAGE_EXTERNAL = ("site-integrity.js", QR_SITE_PATH)
# esbuild, the bundler: npm's esbuild-wasm (WebAssembly, one package for every platform, run by
# Node.js), pinned like the Pyodide tarball.
BUNDLER_PACKAGE = "esbuild-wasm"
BUNDLER_VERSION = "0.28.2"
BUNDLER_INTEGRITY = "sha512-GccVwhv3mmOUVQHCQm2Ox/rby8n/EqUwvZxE6Pjfikrq/lWw9g9WX/u9EykWnpot3Ko6j426DgQdea2xWKIAQA=="  # noqa: E501
# The first line of each bundle.
BUNDLE_BANNER = "// The page's modules, bundled by build.py (esbuild): web/ holds them as written."
# What app.js's bundle exports besides running the app: each page module it holds, by site path.
BUNDLE_MODULES_EXPORT = "modules"


class BuildError(RuntimeError):
    """A build step failed; the message says which and why."""


def log(msg: str) -> None:
    """Print a progress line of the build (flushed, so it interleaves with child output)."""
    print(f"[build] {msg}", flush=True)


def run(cmd: Sequence[str], *, quiet: bool = False, **kwargs: Any) -> None:
    """Run a command, echoing it; raise BuildError when it fails.

    quiet: keep its output to show only if it fails (tools that chatter on success).
    """
    print("$ " + " ".join(str(c) for c in cmd), flush=True)
    if quiet:
        kwargs.update(stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    proc = subprocess.run(list(cmd), text=True, check=False, **kwargs)
    if proc.returncode != 0:
        if quiet:
            print(proc.stdout, flush=True)
        raise BuildError(f"command failed ({proc.returncode}): {' '.join(map(str, cmd))}")


def sha256_hex(data: bytes) -> str:
    """Hex sha256 of some bytes."""
    return hashlib.sha256(data).hexdigest()


def sri_sha512(data: bytes) -> str:
    """The `sha512-<base64>` form npm publishes as `dist.integrity`."""
    return "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()


# --------------------------------------------------------------------------------------------
# Downloads (cached under .cache/)
# --------------------------------------------------------------------------------------------


def npm_tarball(package: str, version: str, integrity: str) -> Path:
    """The verified npm tarball of package@version, downloaded once into .cache/npm/.

    Before the download the registry must publish exactly the pinned `integrity`; the cached
    tarball is checked against it on every build, so an offline build is verified too.
    """
    dest_dir = CACHE / "npm"
    tgz = dest_dir / f"{package}-{version}.tgz"
    if not tgz.exists():
        dest_dir.mkdir(parents=True, exist_ok=True)
        spec = f"{package}@{version}"
        published = subprocess.run(
            ["npm", "view", spec, "dist.integrity"], capture_output=True, text=True, check=False
        )
        if published.returncode != 0:
            raise BuildError(f"npm view {spec} failed: {published.stderr.strip()}")
        if published.stdout.strip() != integrity:
            raise BuildError(
                f"the registry publishes {published.stdout.strip()!r} for {spec}, "
                f"but build.py pins {integrity!r}"
            )
        with tempfile.TemporaryDirectory(dir=dest_dir) as tmp:
            run(["npm", "pack", spec, "--pack-destination", tmp], quiet=True)
            (Path(tmp) / tgz.name).replace(tgz)
    if sri_sha512(tgz.read_bytes()) != integrity:
        tgz.unlink()
        raise BuildError(f"{tgz} does not match the pinned integrity; deleted, build again")
    return tgz


def pyodide_dist() -> Path:
    """The unpacked Pyodide package (only PYODIDE_FILES and its lock), in .cache/."""
    target = CACHE / f"pyodide-{PYODIDE_VERSION}"
    stamp = target / ".integrity"
    if stamp.exists() and stamp.read_text() == PYODIDE_INTEGRITY:
        return target
    tgz = npm_tarball("pyodide", PYODIDE_VERSION, PYODIDE_INTEGRITY)
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir(parents=True)
    wanted = {f"package/{name}" for name in (*PYODIDE_FILES, "pyodide-lock.json")}
    with tarfile.open(tgz, "r:gz") as tar:
        for member in tar.getmembers():
            if member.name in wanted and member.isfile():
                src = tar.extractfile(member)
                assert src is not None
                (target / Path(member.name).name).write_bytes(src.read())
    missing = [n for n in wanted if not (target / Path(n).name).exists()]
    if missing:
        raise BuildError(f"the Pyodide tarball lacks {missing}")
    stamp.write_text(PYODIDE_INTEGRITY)
    return target


def bundler() -> Path:
    """esbuild's command-line script (BUNDLER_PACKAGE, run with `node`), unpacked into .cache/."""
    target = CACHE / f"{BUNDLER_PACKAGE}-{BUNDLER_VERSION}"
    stamp = target / ".integrity"
    if not (stamp.exists() and stamp.read_text() == BUNDLER_INTEGRITY):
        tgz = npm_tarball(BUNDLER_PACKAGE, BUNDLER_VERSION, BUNDLER_INTEGRITY)
        shutil.rmtree(target, ignore_errors=True)
        with tarfile.open(tgz, "r:gz") as tar:
            tar.extractall(target, filter="data")
        stamp.write_text(BUNDLER_INTEGRITY)
    return target / "package" / "bin" / "esbuild"


def pip_download(requirements: str, dest: Path) -> None:
    """Fetch pure-Python wheels for Pyodide's interpreter into dest, checking pinned hashes."""
    dest.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as req:
        req.write(requirements)
    try:
        run(
            [
                sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
                "--require-hashes", "--only-binary=:all:", "--python-version", PYODIDE_PYTHON,
                "--implementation", "py", "--abi", "none", "--platform", "any",
                "-r", req.name, "-d", str(dest),
            ],
            quiet=True,
        )  # fmt: skip
    finally:
        os.unlink(req.name)


def micropip_wheel() -> Path:
    """micropip's wheel from PyPI, hash-checked, cached in .cache/pypi/."""
    dest = CACHE / "pypi"
    wheel = dest / MICROPIP_WHEEL
    pinned = MICROPIP_REQUIREMENT.split("sha256:")[1]
    if not wheel.exists() or sha256_hex(wheel.read_bytes()) != pinned:
        pip_download(MICROPIP_REQUIREMENT + "\n", dest)
    if sha256_hex(wheel.read_bytes()) != pinned:
        raise BuildError(f"{wheel} does not match its pinned sha256")
    return wheel


def pyodide_test_wheels() -> list[Path]:
    """pytest, hypothesis and their dependencies for the in-Pyodide test run, in .cache/."""
    dest = CACHE / "pyodide-test-wheels"
    text = PYODIDE_TEST_REQUIREMENTS.read_text()
    pins = dict(re.findall(r"^([A-Za-z0-9_.-]+)==\S+.*?--hash=sha256:([0-9a-f]{64})", text, re.M))

    def present() -> list[Path]:
        found = {sha256_hex(p.read_bytes()): p for p in dest.glob("*.whl")}
        return [found[h] for h in pins.values() if h in found]

    if len(present()) != len(pins):
        pip_download(text, dest)
    wheels = present()
    if len(wheels) != len(pins):
        raise BuildError(f"{dest} lacks wheels pinned in {PYODIDE_TEST_REQUIREMENTS}")
    return sorted(wheels)


# --------------------------------------------------------------------------------------------
# The engine wheel
# --------------------------------------------------------------------------------------------


def normalised_zip(data: bytes) -> bytes:
    """Rewrite a wheel with fixed timestamps, permissions and order (RECORD last), uncompressed.

    Stored rather than deflated so that engine-worker.js can lay the files out in Pyodide's
    file system with a few lines of JS and no decompression on the boot's critical path.
    """
    src = zipfile.ZipFile(io.BytesIO(data))

    def order(name: str) -> tuple[bool, bool, str]:
        top = name.split("/", 1)[0]
        return (top.endswith(".dist-info"), name.endswith(".dist-info/RECORD"), name)

    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as dst:
        for name in sorted(src.namelist(), key=order):
            if name.endswith("/"):
                continue  # directories are implied by the files' paths
            info = zipfile.ZipInfo(name, date_time=ZIP_DATE)
            info.create_system = 3  # unix, so the mode bits below are honoured
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_STORED
            dst.writestr(info, src.read(name))
    return out.getvalue()


def engine_wheel() -> tuple[str, bytes]:
    """The engine's py3-none-any wheel, made with the standard library alone: (name, bytes).

    A pure-Python wheel is a zip of the package plus three small files (PEP 427), so no build
    backend is needed: `build` and `serve` install nothing.  What goes in is what pyproject.toml
    declares (the package under engine/, its package data); the bytes depend on content alone.
    """
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    name, version = project["name"], project["version"]
    if project.get("dependencies"):
        raise BuildError("the engine wheel is built without dependencies; pyproject.toml has some")
    package = ROOT / "engine" / name
    data_globs = ("py.typed", "data/*.json")  # [tool.setuptools.package-data] in pyproject.toml
    files = sorted({*package.rglob("*.py"), *(f for g in data_globs for f in package.glob(g))})
    contents = {
        f.relative_to(package.parent).as_posix(): f.read_bytes()
        for f in files
        if "__pycache__" not in f.parts
    }
    dist_info = f"{name}-{version}.dist-info"
    contents[f"{dist_info}/METADATA"] = "".join(
        f"{key}: {value}\n"
        for key, value in (
            ("Metadata-Version", "2.1"),
            ("Name", name),
            ("Version", version),
            ("Summary", project["description"]),
            ("License", project["license"]["text"]),
            ("Requires-Python", project["requires-python"]),
        )
    ).encode()
    contents[f"{dist_info}/WHEEL"] = (
        b"Wheel-Version: 1.0\nGenerator: build.py\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    )
    contents[f"{dist_info}/top_level.txt"] = f"{name}\n".encode()

    def digest(data: bytes) -> str:
        return base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()

    record = [f"{path},sha256={digest(data)},{len(data)}" for path, data in contents.items()]
    contents[f"{dist_info}/RECORD"] = "\n".join([*record, f"{dist_info}/RECORD,,", ""]).encode()
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as wheel:
        for path, data in contents.items():
            wheel.writestr(path, data)
    return f"{name}-{version}-py3-none-any.whl", normalised_zip(out.getvalue())


# --------------------------------------------------------------------------------------------
# The site
# --------------------------------------------------------------------------------------------


def lock_entry(base: dict[str, object], file_name: str, data: bytes) -> dict[str, object]:
    """A pyodide-lock package entry for a shipped pure-Python wheel."""
    name, version = file_name.split("-")[:2]
    entry: dict[str, object] = {
        "depends": [],
        "file_name": file_name,
        "imports": [name],
        "install_dir": "site",
        "name": name,
        "package_type": "package",
        "sha256": sha256_hex(data),
        "tool": {},
        "unvendored_tests": False,
        "version": version,
    }
    entry.update({k: v for k, v in base.items() if k in ("depends", "imports")})
    return entry


def make_lock(shipped_lock: dict[str, object], wheels: dict[str, bytes]) -> bytes:
    """pyodide-lock.json listing exactly the wheels the site ships, with their real sha256.

    Pyodide's own lock points at its CDN and gives micropip a sha256 that differs from the
    PyPI wheel's, so it cannot be used as it is.
    """
    packages = shipped_lock["packages"]
    assert isinstance(packages, dict)
    entries = {}
    for file_name, data in sorted(wheels.items()):
        name = file_name.split("-")[0]
        entries[name] = lock_entry(packages.get(name, {}), file_name, data)
    lock = {"info": shipped_lock["info"], "packages": entries}
    return (json.dumps(lock, indent=1, sort_keys=True) + "\n").encode()


@dataclass(frozen=True)
class Site:
    """What a build produced: its folder, its content version and its file manifest."""

    root: Path
    version: str
    manifest: dict[str, str]  # relative path -> sha256, for every file including sw.js

    @property
    def size(self) -> int:
        """Total bytes of the site."""
        return sum((self.root / p).stat().st_size for p in self.manifest)


def source_files() -> dict[str, bytes]:
    """Every file the site ships but the Python library and what depends on it, by site path."""
    files: dict[str, bytes] = {}
    for path in sorted(WEB.rglob("*")):
        rel = path.relative_to(WEB).as_posix()
        if path.is_file() and "__pycache__" not in rel and rel != "sw.js":
            files[rel] = path.read_bytes()
    if "index.html" not in files:
        raise BuildError("web/index.html is missing")
    for size in ICON_SIZES:
        files[f"icons/icon-{size}.png"] = app_icon(size)
    files["ice.json"] = site_ice_config()
    files[REFERENCE] = engine_reference()
    files[QR_SITE_PATH] = vendored_module(QR_PACKAGE, QR_VERSION, QR_INTEGRITY, "dist/index.mjs")
    pyo = pyodide_dist()
    for name in PYODIDE_FILES:
        files[f"pyodide/{name}"] = (pyo / name).read_bytes()
    runtime = f"pyodide/{PYODIDE_RUNTIME_SCRIPT}"
    files[runtime] = COMPILE_HINT + compile_wrappers_once(files[runtime])
    wheel_name, wheel_bytes = engine_wheel()
    wheels = {wheel_name: wheel_bytes, MICROPIP_WHEEL: micropip_wheel().read_bytes()}
    for name, data in wheels.items():
        files[f"pyodide/{name}"] = data
    shipped = json.loads((pyo / "pyodide-lock.json").read_text())
    files["pyodide/pyodide-lock.json"] = make_lock(shipped, wheels)
    return files


def compile_wrappers_once(runtime: bytes) -> bytes:
    """Pyodide's runtime script, its table wrappers compiled once per signature."""
    if runtime.count(WRAPPER_COMPILE) != 1:
        raise BuildError(
            f"{PYODIDE_RUNTIME_SCRIPT}: Emscripten's wrapper compilation is not where expected"
        )
    return runtime.replace(WRAPPER_COMPILE, WRAPPER_COMPILE_ONCE)


# The app icon (web app manifest): the site's sigil colours, a ring with a dot, full-bleed so
# that it also works as a "maskable" icon (everything inside the central 80 % circle).
ICON_SIZES = (192, 512)
ICON_BACKGROUND = (0x7A, 0x2A, 0x21)
ICON_INK = (0xF3, 0xEA, 0xD3)


def png(width: int, height: int, rows: Sequence[bytes]) -> bytes:
    """A truecolour PNG (8-bit RGB, no interlace) from raw RGB rows; same rows, same bytes."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    raw = b"".join(b"\x00" + row for row in rows)  # filter type 0 on every row
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )


def app_icon(size: int) -> bytes:
    """The app icon as a PNG of size x size pixels, anti-aliased by distance to each edge."""
    centre = size / 2
    ring_radius, ring_half_width, dot_radius = 0.27 * size, 0.045 * size, 0.085 * size

    def ink(x: float, y: float) -> float:
        d = math.hypot(x - centre, y - centre)
        ring = ring_half_width - abs(d - ring_radius)
        dot = dot_radius - d
        return min(1.0, max(0.0, max(ring, dot) + 0.5))  # coverage of a one-pixel edge

    rows = []
    for y in range(size):
        row = bytearray()
        for x in range(size):
            a = ink(x + 0.5, y + 0.5)
            mix = zip(ICON_BACKGROUND, ICON_INK, strict=True)
            row += bytes(round(back + (ink_ - back) * a) for back, ink_ in mix)
        rows.append(bytes(row))
    return png(size, size, rows)


def vendored_module(package: str, version: str, integrity: str, module_path: str) -> bytes:
    """One ES module of a pinned npm package for the site, its licence in a leading comment."""
    with tarfile.open(npm_tarball(package, version, integrity)) as tar:
        module = tar.extractfile(f"package/{module_path}")
        licence = tar.extractfile("package/LICENSE")
        if module is None or licence is None:
            raise BuildError(f"{package}@{version}: {module_path} or LICENSE is missing")
        code, text = module.read(), licence.read().decode("utf-8").replace("*/", "* /")
    header = f"/* {package} {version}, vendored by build.py from npm (integrity-pinned).\n\n"
    return (header + text.strip() + "\n*/\n").encode("utf-8") + code


def site_ice_config() -> bytes:
    """The site's ice.json (docs/webrtc.md): $WH_ICE_JSON if set, else web/ice.json; checked to be
    a JSON object, so a typo fails the build rather than every live connection."""
    given = os.environ.get("WH_ICE_JSON")
    path = Path(given) if given else WEB / "ice.json"
    try:
        data = path.read_bytes()
        value = json.loads(data)
    except (OSError, ValueError) as e:
        raise BuildError(f"{path}: not a readable JSON file ({e})") from e
    if not isinstance(value, dict) or not set(value) <= {"stun", "turn"}:
        raise BuildError(f'{path}: expected an object with "stun" and "turn" (docs/webrtc.md)')
    return data


def engine_reference() -> bytes:
    """reference.json: {"spells": api.spells(), "rulesets": api.rulesets(), "books": {name:
    api.spells({"name": name}) for every ruleset}}, as the engine answers them, so that the page
    shows every ruleset's spell reference and the new-duel options while the engine is still
    downloading.  Asked of the checkout's engine under this Python (the engine is pure Python,
    so CPython answers as Pyodide would); nothing is written by hand."""
    script = (
        "import json, sys\n"
        "sys.path.insert(0, sys.argv[1])\n"
        "from wavinghands import api\n"
        "listed = json.loads(api.rulesets())\n"
        "books = {r['name']: json.loads(api.spells(json.dumps({'name': r['name']})))\n"
        "         for r in listed.get('rulesets', [])}\n"
        "answers = {'spells': json.loads(api.spells()), 'rulesets': listed, 'books': books}\n"
        "print(json.dumps(answers, sort_keys=True, separators=(',', ':'), ensure_ascii=False))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", script, str(ROOT / "engine")],
        capture_output=True, text=True, encoding="utf-8", check=False,
    )  # fmt: skip
    if proc.returncode != 0:
        raise BuildError(f"the engine could not list its spells and rulesets:\n{proc.stderr}")
    answers = json.loads(proc.stdout)
    asked = {"spells()": answers["spells"], "rulesets()": answers["rulesets"]}
    asked.update({f"spells({name!r})": book for name, book in answers["books"].items()})
    for name, answer in asked.items():
        if answer.get("ok") is not True:
            raise BuildError(f"the engine's {name} answered {answer!r}")
    return proc.stdout.encode("utf-8")


def engine_wheel_path(files: dict[str, bytes]) -> str:
    """The site path of the engine wheel among the site's files."""
    (path,) = (p for p in files if re.fullmatch(r"pyodide/wavinghands-[^/]+\.whl", p))
    return path


def python_library(files: dict[str, bytes], *, reuse: bool = True) -> bytes:
    """The site's Python library (a stored zip of .pyc files and the engine's package data): the
    stdlib modules Pyodide's start-up and the engine import, the engine, and a sitecustomize
    that defers what the page never uses (tools/lazy_start.py).

    Made by tools/python_lib.mjs under Node with exactly the runtime and wheel the site ships
    (bytecode is the interpreter's own: CPython 3.14 in wasm); cached in .cache/python-lib/ by
    its inputs; `reuse=False` makes it afresh even so.
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
    cached.parent.mkdir(parents=True, exist_ok=True)
    cached.write_bytes(data)
    # Each engine change leaves a ~4 MB archive behind; a few recent ones are enough.
    for old in sorted(cached.parent.glob("*.zip"), key=lambda p: p.stat().st_mtime)[:-4]:
        old.unlink()
    return data


# Big files that static hosts with precompression (nginx `brotli_static`, Caddy `precompressed`)
# can send brotli-compressed: a `.br` sibling is written beside each.  Hosts without it ignore
# the siblings and gzip on the fly or send the file as it is.  The Python library and the wheel
# are stored zips, not deflated, so they gain the most (the library 3.8 MB -> ~1.1 MB, where
# deflating each member would give ~1.6 MB: brotli sees across the members).
PRECOMPRESSED = (
    "pyodide/pyodide.asm.wasm", "pyodide/pyodide.asm.mjs", PYTHON_LIBRARY, "pyodide/wavinghands-",
)  # fmt: skip


def brotli(data: bytes) -> bytes:
    """Brotli at quality 11 with a 16 MB window, by Node's zlib (cached in .cache/brotli/)."""
    cached = CACHE / "brotli" / f"{sha256_hex(data)}.br"
    if cached.exists():
        return cached.read_bytes()
    script = (
        "const z = require('zlib'); const input = require('fs').readFileSync(0);"
        "process.stdout.write(z.brotliCompressSync(input, { params: {"
        "[z.constants.BROTLI_PARAM_QUALITY]: 11, [z.constants.BROTLI_PARAM_LGWIN]: 24,"
        "[z.constants.BROTLI_PARAM_SIZE_HINT]: input.length } }));"
    )
    proc = subprocess.run(["node", "-e", script], input=data, capture_output=True, check=False)
    if proc.returncode != 0:
        raise BuildError(f"brotli compression failed: {proc.stderr.decode(errors='replace')}")
    cached.parent.mkdir(parents=True, exist_ok=True)
    cached.write_bytes(proc.stdout)
    return proc.stdout


def precompressed_siblings(files: dict[str, bytes]) -> dict[str, bytes]:
    """The `.br` siblings of the PRECOMPRESSED files (never requested by name, never precached)."""
    return {
        f"{rel}.br": brotli(data)
        for rel, data in sorted(files.items())
        if any(rel == p or (p.endswith("-") and rel.startswith(p)) for p in PRECOMPRESSED)
    }


def sri_sha256(data: bytes) -> str:
    """The `sha256-<base64>` form that fetch()'s `integrity` option takes."""
    return "sha256-" + base64.b64encode(hashlib.sha256(data).digest()).decode()


def integrity_manifest(files: dict[str, bytes]) -> dict[str, str]:
    """The integrity (`sha256-<base64>`) of every file a browser may request by name: all of
    `files` but the `.br` siblings (hosts send them in place of their originals)."""
    return {rel: sri_sha256(data) for rel, data in sorted(files.items()) if not rel.endswith(".br")}


def site_integrity_module(files: dict[str, bytes]) -> bytes:
    """site-integrity.js: the integrity of every script the engine worker runs (engine.js)."""
    missing = [path for path in WORKER_SCRIPTS if path not in files]
    if missing:
        raise BuildError(f"WORKER_SCRIPTS lists files the site does not have: {missing}")
    worker = files["engine-worker.js"].decode()
    imported = re.findall(r"""(?:\bfrom\s*|\bimport\s*\(\s*)["']\./([^"']+)["']""", worker)
    if unlisted := sorted(set(imported) - set(WORKER_SCRIPTS)):
        raise BuildError(f"engine-worker.js imports {unlisted}: add them to WORKER_SCRIPTS")
    ahead = files[COMPILE_AHEAD].decode()
    compiled = re.findall(r"""\bimport\s*["']\./([^"']+)["']""", ahead)
    if unlisted := sorted(set(compiled) - (set(WORKER_SCRIPTS) - {"engine-worker.js"})):
        raise BuildError(f"{COMPILE_AHEAD} imports {unlisted}, not side-effect-free worker scripts")
    manifest = integrity_manifest(files)
    scripts = {path: manifest[path] for path in WORKER_SCRIPTS}
    ahead_scripts = {path: manifest[path] for path in [COMPILE_AHEAD, *compiled]}
    return (
        "// Written by build.py: the integrity of each script the engine worker runs; engine.js\n"
        "// checks them before it uses the engine (they load without integrity of their own).\n"
        f"export const WORKER_SCRIPTS = {json.dumps(scripts, indent=1)};\n"
        f"// {COMPILE_AHEAD} and its imports (sw-register.js checks them before it starts it).\n"
        f"export const COMPILE_AHEAD = {json.dumps(ahead_scripts, indent=1)};\n"
    ).encode()


def page_modules(files: dict[str, bytes]) -> list[str]:
    """The site's JS modules the page may import (everything but worker-side scripts)."""
    return sorted(
        rel for rel in files
        if rel.endswith((".js", ".mjs")) and rel not in NOT_PAGE_MODULES
        and not rel.startswith("pyodide/")
    )  # fmt: skip


def page_sources(files: dict[str, bytes]) -> list[str]:
    """The page modules the bundles hold (PAGE_BUNDLES): served as written, never loaded by the
    page itself, so not precached (the worker's own scripts among them excepted)."""
    loaded = {*PAGE_BUNDLES, *PAGE_EXTERNAL, *WORKER_SCRIPTS}
    return [rel for rel in page_modules(files) if rel not in loaded]


def app_entry(held: list[str]) -> str:
    """The source esbuild bundles as app.js: app.js itself, and `modules` for the rest."""
    lines = [
        "// Built by build.py: app.js and the page modules it imports, in one file (web/ holds",
        f"// them as written).  `{BUNDLE_MODULES_EXPORT}`: each of them by its site path, the very",
        "// instances the page runs, for tests and the browser's console.",
        'import "./app.js";',
    ]
    lines += [f"import * as m{i} from {json.dumps('./' + rel)};" for i, rel in enumerate(held)]
    entries = "".join(f"\n  {json.dumps(rel)}: m{i}," for i, rel in enumerate(held))
    lines.append(f"export const {BUNDLE_MODULES_EXPORT} = Object.freeze({{{entries}\n}});")
    return "\n".join(lines) + "\n"


def bundled_page(files: dict[str, bytes]) -> dict[str, bytes]:
    """PAGE_BUNDLES, each bundled by esbuild with the page modules it imports (PAGE_EXTERNAL
    left to load at run time); app.js's bundle holds every page source (page_sources)."""
    # Every page source, and the page's instance of the one worker script it imports (integrity.js).
    held = page_sources(files) + [rel for rel in page_modules(files) if rel in WORKER_SCRIPTS]
    with tempfile.TemporaryDirectory() as tmp:
        src, out = Path(tmp, "src"), Path(tmp, "out")
        for rel in page_modules(files):
            (src / rel).parent.mkdir(parents=True, exist_ok=True)
            (src / rel).write_bytes(files[rel])
        (src / "page-entry.js").write_text(app_entry(sorted(held)))
        entries = {"app": "page-entry.js", "sw-register": "sw-register.js"}
        if sorted(f"{name}.js" for name in entries) != sorted(PAGE_BUNDLES):
            raise BuildError("bundled_page's entries are not PAGE_BUNDLES")
        run(
            [
                "node", str(bundler()), *(f"{name}=./{entry}" for name, entry in entries.items()),
                "--bundle", "--format=esm", "--charset=utf8", "--log-level=warning",
                f"--outdir={out}", f"--metafile={Path(tmp, 'meta.json')}",
                *(f"--external:./{rel}" for rel in PAGE_EXTERNAL),
                f"--banner:js={BUNDLE_BANNER}",
            ],
            cwd=src, quiet=True,
        )  # fmt: skip
        meta = json.loads(Path(tmp, "meta.json").read_text())
        bundles = {f"{name}.js": (out / f"{name}.js").read_bytes() for name in entries}
    inputs = {rel for output in meta["outputs"].values() for rel in output["inputs"]}
    if missing := sorted(set(held) - inputs):
        raise BuildError(f"app.js's bundle does not hold {missing}")
    if inside := sorted(inputs & set(PAGE_EXTERNAL)):
        raise BuildError(f"the page's bundles hold {inside}, which must load on their own")
    return bundles


MODULE_TAG = re.compile(
    r"""<(?:link rel="modulepreload" href|script type="module" src)="\./([^"]+)"(?=[ >])"""
)


def page_html(files: dict[str, bytes]) -> bytes:
    """index.html with the site's policy in a <meta> tag and integrity on every module.

    Each module the page loads gets the integrity of its bytes: on its `<script type=module>` or
    its `<link rel=modulepreload>`, which Chromium uses for the later `import` of the same URL
    (the module map keeps the preloaded, checked module).  The page loads PAGE_BUNDLES and
    PAGE_EXTERNAL; those index.html does not list are preloaded after its own list.
    EARLY_SCRIPTS come first, before the stylesheet (a script after it would wait for it).
    Inline script, inline style and event-handler attributes are refused (the policy forbids them).
    """
    html = files["index.html"].decode()
    if re.search(r"<script(?![^>]*\ssrc=)[^>]*>|\sstyle=|\son[a-z]+=", html):
        raise BuildError("web/index.html: inline script, style= or on*= (the CSP forbids them)")
    manifest = integrity_manifest(files)
    modules = [rel for rel in (*PAGE_BUNDLES, *PAGE_EXTERNAL) if rel in files]
    listed = set(MODULE_TAG.findall(html))
    scripts = set(re.findall(r'<script[^>]*\ssrc="\./([^"]+)"', html))
    if early := sorted(scripts & set(EARLY_SCRIPTS)):
        raise BuildError(f"web/index.html loads {early} itself: build.py writes their tags first")
    if unknown := sorted(listed - set(modules)):
        raise BuildError(f"web/index.html loads {unknown}: the page loads only {modules}")
    html = MODULE_TAG.sub(lambda m: f'{m[0]} integrity="{manifest[m[1]]}"', html)
    preloads = "".join(
        f'  <link rel="modulepreload" href="./{rel}" integrity="{manifest[rel]}">\n'
        for rel in modules if rel not in listed
    )  # fmt: skip
    first_script = html.index('  <script type="module"')
    html = html[:first_script] + preloads + html[first_script:]
    head = re.search(r"<meta charset=[^>]*>\n", html)
    if head is None:
        raise BuildError("web/index.html: no <meta charset> to put the policy after")
    policy = content_security_policy(meta=True)
    guard = "".join(
        f'  <script src="./{path}" integrity="{manifest[path]}"></script>\n'
        for path in EARLY_SCRIPTS
    )
    meta = f'  <meta http-equiv="Content-Security-Policy" content="{policy}">\n'
    first_link = html.index("  <link ")
    html = html[: head.end()] + meta + html[head.end() : first_link] + guard + html[first_link:]
    return html.encode()


# What a snapshot the page makes of its own interpreter depends on (web/engine-snapshot.js): the
# runtime, the Python library (the engine is in it) and the worker's code that prepares the
# interpreter.  Their hash names the snapshot's cache, so a build that changes any of them
# drops the old snapshot and one that changes none keeps it (web/snapshot-store.js, sw.js).
SNAPSHOT_INPUTS = (
    "pyodide/pyodide.mjs", "pyodide/pyodide.asm.mjs", "pyodide/pyodide.asm.wasm", PYTHON_LIBRARY,
    "engine-worker.js", "engine-snapshot.js", "snapshot-store.js",
)  # fmt: skip


def engine_id(files: dict[str, bytes]) -> str:
    """The identity of the engine a page snapshots: a hash of SNAPSHOT_INPUTS."""
    return sha256_hex(b"".join(sha256_hex(files[p]).encode() for p in SNAPSHOT_INPUTS))[:16]


def engine_build_module(files: dict[str, bytes]) -> bytes:
    """engine-build.js: what engine-worker.js boots from, with the integrity of every file."""
    build = {
        "pyodide": PYODIDE_VERSION,
        "engineId": engine_id(files),
        "wasm": {
            "integrity": sri_sha256(files["pyodide/pyodide.asm.wasm"]),
            "size": len(files["pyodide/pyodide.asm.wasm"]),
        },
        "library": {
            "url": PYTHON_LIBRARY,
            "integrity": sri_sha256(files[PYTHON_LIBRARY]),
            "size": len(files[PYTHON_LIBRARY]),
        },
        "reference": {
            "url": REFERENCE,
            "integrity": sri_sha256(files[REFERENCE]),
            "size": len(files[REFERENCE]),
        },
        # Every other file the worker may fetch (Pyodide's own fetches go through its check).
        "files": integrity_manifest({k: v for k, v in files.items() if k != "index.html"}),
    }
    return (
        "// Written by build.py: the files engine-worker.js boots from (and the page's recorded\n"
        "// reference), with their integrity.\n"
        f"export const BUILD = {json.dumps(build, indent=1, sort_keys=True)};\n"
    ).encode()


def service_worker(files: dict[str, bytes]) -> tuple[str, bytes]:
    """sw.js with the precache list and the content version written in: (version, bytes)."""
    template = (WEB / "sw.js").read_text()
    manifest = {rel: sha256_hex(data) for rel, data in sorted(files.items())}
    version = sha256_hex(json.dumps(manifest, sort_keys=True).encode())[:16]
    unloaded = set(page_sources(files))
    precache = [
        [rel, sri_sha256(data)]
        for rel, data in sorted(files.items())
        if not NOT_PRECACHED.fullmatch(rel) and not rel.endswith(".br") and rel not in unloaded
    ]
    header = (
        "// Written by build.py from web/sw.js: the site's content version, the identity of the\n"
        "// engine whose stored snapshot to keep, and every file the page's boot needs, to\n"
        "// precache with its integrity.\n"
        f"const VERSION = {json.dumps(version)};\n"
        f"const ENGINE_ID = {json.dumps(engine_id(files))};\n"
        f"const PRECACHE = {json.dumps(precache, indent=1)};\n"
    )
    return version, (header + template).encode()


def build_site(out: Path = DEFAULT_OUT, *, reuse_library: bool = True) -> Site:
    """Build the whole static site into `out` (replaced atomically) and return its manifest."""
    out = out.resolve()
    files = source_files()
    files[PYTHON_LIBRARY] = python_library(files, reuse=reuse_library)
    files["engine-build.js"] = engine_build_module(files)
    files.update(bundled_page(files))
    files.update(precompressed_siblings(files))
    # Integrity, inside out: the worker's scripts in site-integrity.js, every page module in
    # index.html, every file in sw.js's precache list.
    files["site-integrity.js"] = site_integrity_module(files)
    files["index.html"] = page_html(files)
    version, sw = service_worker(files)
    files["sw.js"] = sw
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".site-", dir=out.parent))
    try:
        for rel, data in sorted(files.items()):
            dest = staging / rel
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.write_bytes(data)
            os.chmod(dest, 0o644)
        for path in sorted(staging.rglob("*"), reverse=True):
            os.utime(path, (SOURCE_DATE_EPOCH, SOURCE_DATE_EPOCH))
        os.chmod(staging, 0o755)
        os.utime(staging, (SOURCE_DATE_EPOCH, SOURCE_DATE_EPOCH))
        old = out.with_name(out.name + ".old")
        shutil.rmtree(old, ignore_errors=True)
        if out.exists():
            out.rename(old)
        staging.rename(out)
        shutil.rmtree(old, ignore_errors=True)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    site = Site(out, version, {rel: sha256_hex(data) for rel, data in sorted(files.items())})
    log(f"site {version}: {len(files)} files, {site.size:,} bytes in {out}")
    return site


def manifest_of(root: Path) -> dict[str, str]:
    """sha256 of every file under root (relative posix path -> hex), to compare two builds."""
    return {
        p.relative_to(root).as_posix(): sha256_hex(p.read_bytes())
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


# --------------------------------------------------------------------------------------------
# Serving
# --------------------------------------------------------------------------------------------


_ETAGS: dict[tuple[str, int, int, int], str] = {}


def file_etag(path: str) -> str:
    """A strong ETag for a file: its content's sha256 (cached while the file is unchanged)."""
    st = os.stat(path)
    key = (path, st.st_ino, st.st_size, st.st_mtime_ns)
    if key not in _ETAGS:
        _ETAGS[key] = f'"{sha256_hex(Path(path).read_bytes())[:32]}"'
    return _ETAGS[key]


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    """Static files with the MIME types Pyodide needs and no stale-cache surprises."""

    extensions_map = {"": "application/octet-stream", **MIME_TYPES}  # noqa: RUF012
    etag: str | None = None

    def send_head(self) -> Any:
        """Serve a file with its ETag; a request that already holds it (If-None-Match) gets 304.
        With `no-cache` a browser revalidates every time: a repeated request (engine.js checking
        the worker's scripts) costs a round trip, not the file again."""
        path = self.translate_path(self.path)
        self.etag = None
        if os.path.isfile(path):
            self.etag = file_etag(path)
            if self.etag in (self.headers.get("If-None-Match") or ""):
                self.send_response(http.HTTPStatus.NOT_MODIFIED)
                self.end_headers()
                return None
        return super().send_head()

    # Where browsers send reports of what the policy blocked (only this server has the endpoint,
    # so the policy docs/build.md gives hosts leaves report-uri out).
    CSP_REPORT_PATH = "/csp-report"

    def end_headers(self) -> None:
        """Ask browsers to revalidate every time: the service worker does the offline caching.
        Every response carries the site's policy: a worker's scripts get theirs from their own
        response (the page's <meta> tag does not reach a worker), and only a header can say
        frame-ancestors."""
        self.send_header("Cache-Control", "no-cache")
        if self.etag is not None:
            self.send_header("ETag", self.etag)
        policy = content_security_policy()
        self.send_header("Content-Security-Policy", f"{policy}; report-uri {self.CSP_REPORT_PATH}")
        super().end_headers()

    def do_POST(self) -> None:
        """Take a browser's report of a Content-Security-Policy violation (see csp_violation)."""
        if self.path != self.CSP_REPORT_PATH:
            self.send_error(405)
            return
        length = min(int(self.headers.get("Content-Length") or 0), 65536)
        try:
            report = json.loads(self.rfile.read(length))["csp-report"]
        except (ValueError, KeyError, TypeError):
            report = {"unreadable": True}
        self.csp_violation(report)
        self.send_response(204)
        self.end_headers()

    def csp_violation(self, report: dict[str, Any]) -> None:
        """Say what the policy blocked, on stderr: a violation is a bug of the site."""
        what = [report.get(k) for k in ("violated-directive", "blocked-uri", "source-file")]
        print(f"CSP violation: {what}", file=sys.stderr, flush=True)

    def send_header(self, keyword: str, value: str) -> None:
        """Drop Last-Modified: every built file has the same fixed mtime, so it would mislead."""
        if keyword.lower() != "last-modified":
            super().send_header(keyword, value)

    def handle(self) -> None:
        """Serve the connection; a browser that hangs up mid-response (it navigated away, closed
        the page, cancelled a fetch) lost nothing, so that ends it without a traceback."""
        try:
            super().handle()
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True

    def log_message(self, format: str, *args: object) -> None:
        """Stay quiet unless WH_SERVER_LOG is set; tests and benchmarks would drown in it."""
        if os.environ.get("WH_SERVER_LOG"):
            super().log_message(format, *args)


class SiteServer(http.server.ThreadingHTTPServer):
    """A threaded static server for one site folder."""

    daemon_threads = True

    def __init__(self, root: Path, host: str = "127.0.0.1", port: int = 8000) -> None:
        """Bind to host:port (port 0 picks a free one) serving `root`."""
        directory = str(root)

        class Handler(SiteHandler):
            def __init__(self, *args: object, **kwargs: object) -> None:
                super().__init__(*args, directory=directory, **kwargs)  # type: ignore[arg-type]

        super().__init__((host, port), Handler)

    @property
    def url(self) -> str:
        """The base URL, with a trailing slash."""
        host, port = self.server_address[:2]
        return f"http://{host!s}:{port}/"


@contextlib.contextmanager
def serving(root: Path, port: int = 0) -> Iterator[SiteServer]:
    """Serve `root` in a background thread for the duration of the block."""
    server = SiteServer(root, port=port)
    thread = threading.Thread(target=server.serve_forever, name="site-server", daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def cmd_serve(args: argparse.Namespace) -> int:
    """`serve`: build, then serve until interrupted."""
    site = build_site(Path(args.out)) if not args.no_build else None
    root = site.root if site else Path(args.out).resolve()
    try:
        server = SiteServer(root, port=args.port)
    except OSError as exc:
        raise BuildError(f"cannot listen on 127.0.0.1:{args.port}: {exc}") from exc
    try:
        print(f"Serving {root} at {server.url}", flush=True)
        print("This terminal stays busy while the site is served; Ctrl-C stops it.", flush=True)
        server.serve_forever()
    except KeyboardInterrupt:
        print("Stopped.", flush=True)
    finally:
        server.server_close()
    return 0


# --------------------------------------------------------------------------------------------
# Testing
# --------------------------------------------------------------------------------------------


VENV = ROOT / ".venv"
# What .venv/ was last filled for (the interpreter, then the dev extra's requirements).
VENV_STAMP = VENV / "wavinghands-dev.txt"


STARTED = time.monotonic()
# Steps run side by side; one lock keeps their lines whole.
OUTPUT_LOCK = threading.Lock()


def progress(msg: str) -> None:
    """Print a progress line of `test`, stamped with the seconds since the command started."""
    with OUTPUT_LOCK:
        print(f"[test {time.monotonic() - STARTED:6.1f}s] {msg}", flush=True)


def debian_packages_missing(*, for_tests: bool) -> list[str]:
    """The Debian packages that building (and, for_tests, testing) needs and are not there.

    Node.js and npm: `npm pack`, the Python library, the in-Pyodide and JS tests.  Chromium: the
    browser tests.  iproute2, coturn, iptables: e2e/test_netplay.py's network lab (run as root).
    """
    wanted = [("nodejs", "node"), ("npm", "npm")]
    if for_tests:
        # coturn is the lab's STUN and TURN server, iptables the home routers' NAT.
        wanted += [("iproute2", "ip"), ("coturn", "turnserver"), ("iptables", "iptables")]
    missing = [package for package, command in wanted if not shutil.which(command)]
    if for_tests and not CHROMIUM.exists():
        missing.append("chromium")
    return missing


def apt_install(packages: list[str]) -> None:
    """Install Debian packages (apt-get update first, as a fresh machine's lists are empty)."""
    if os.geteuid() != 0 or not shutil.which("apt-get"):
        raise BuildError(f"missing {packages}; install them with apt-get (needs root)")
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    run(["apt-get", "update", "-q"], env=env, quiet=True)
    run(["apt-get", "install", "-y", "-q", "--no-install-recommends", *packages], env=env,
        quiet=True)  # fmt: skip


def dev_requirements() -> list[str]:
    """pyproject.toml's dev extra: every tool the checks run."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return list(project["optional-dependencies"]["dev"])


def dev_venv() -> Path:
    """.venv/ holding the dev extra, made or brought up to date; returns its python.

    The system Python is never touched.  The engine is not installed there: tests/ and e2e/
    put this checkout's engine/ on sys.path themselves.  An unchanged stamp skips pip.
    """
    python = VENV / "bin" / "python"
    wanted = "\n".join([sys.version, *dev_requirements()]) + "\n"
    stamp = VENV_STAMP.read_text() if VENV_STAMP.exists() else ""
    if python.exists() and stamp == wanted:
        return python
    if not python.exists() or stamp.split("\n", 1)[0] != sys.version:
        try:
            run([sys.executable, "-m", "venv", "--clear", str(VENV)], quiet=True)
        except BuildError as exc:
            hint = "(a Debian python3 needs: apt-get install python3-venv)"
            raise BuildError(f"{exc}\n{hint}") from exc
    run([str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
         *dev_requirements()], quiet=True)  # fmt: skip
    VENV_STAMP.write_text(wanted)
    return python


@contextlib.contextmanager
def timed(what: str) -> Iterator[None]:
    """Report when a set-up step starts and how long it took."""
    started = time.monotonic()
    progress(f"{what} ...")
    yield
    progress(f"{what}: done in {time.monotonic() - started:.1f}s")


@dataclass
class StepResult:
    """Outcome of one test step, for the closing summary."""

    name: str
    ok: bool
    summary: str
    seconds: float  # wall time
    cpu_seconds: float  # user + system time of the step's processes


# pytest's closing line ("12 passed, 1 skipped in 3.2s"), or node --test's "# pass 29" counts.
PYTEST_SUMMARY = re.compile(
    r"(\d+ (passed|failed|errors?|skipped|xfailed|xpassed|deselected)|no tests ran)"
)
NODE_COUNT = re.compile(r"^# (tests|pass|fail|skipped) (\d+)$")


@dataclass(frozen=True)
class Step:
    """One check: its name, its command, and the set-up it must wait for before it starts."""

    name: str
    cmd: Sequence[str]
    needs: tuple[concurrent.futures.Future[None], ...] = ()


def run_step(step: Step, env: dict[str, str]) -> StepResult:
    """Run one check, streaming its output line by line under its name; keep its summary."""
    try:
        for need in step.needs:
            need.result()
    except BuildError as exc:
        progress(f"{step.name}: not run, its set-up failed")
        return StepResult(step.name, False, f"not run: {exc}", 0.0, 0.0)
    progress(f"{step.name}: started  ({' '.join(step.cmd)})")
    started = time.monotonic()
    proc = subprocess.Popen(
        list(step.cmd), cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        text=True,
    )  # fmt: skip
    assert proc.stdout is not None
    summary = ""
    node_counts: dict[str, str] = {}
    for line in proc.stdout:
        with OUTPUT_LOCK:
            sys.stdout.write(f"{step.name} | {line}")
            sys.stdout.flush()
        if PYTEST_SUMMARY.search(line):
            summary = line.strip().strip("=").strip()
        elif match := NODE_COUNT.match(line.strip()):
            node_counts[match[1]] = match[2]
    # wait4 rather than wait: the CPU time of the step and everything it started, a figure that
    # depends far less than the wall time on what else the machine is doing.
    _, status, usage = os.wait4(proc.pid, 0)
    code = proc.returncode = os.waitstatus_to_exitcode(status)
    if node_counts and not summary:
        summary = ", ".join(f"{v} {k}" for k, v in node_counts.items())
    seconds = time.monotonic() - started
    summary = summary or ("ok" if code == 0 else f"exit {code}")
    result = StepResult(step.name, code == 0, summary, seconds, usage.ru_utime + usage.ru_stime)
    progress(f"{step.name}: {'PASS' if result.ok else 'FAIL'} in {seconds:.1f}s, "
             f"CPU {result.cpu_seconds:.1f}s  ({result.summary})")  # fmt: skip
    return result


def run_steps(steps: Sequence[Step], env: dict[str, str], workers: int) -> list[StepResult]:
    """Run the steps on `workers` threads, each taking the next step not yet started when it is
    free (so a long step on one never leaves the other idle); results in the steps' order."""
    queue = iter(enumerate(steps))
    lock = threading.Lock()
    results: dict[int, StepResult] = {}

    def worker() -> None:
        while True:
            with lock:
                index, step = next(queue, (-1, None))
            if step is None:
                return
            results[index] = run_step(step, env)

    with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:
        for future in [pool.submit(worker) for _ in range(workers)]:
            future.result()
    return [results[i] for i in range(len(steps))]


def cmd_test(args: argparse.Namespace) -> int:
    """`test`: install prerequisites, build, then run every check; non-zero if any fails."""
    install = not args.no_install
    venv_python = VENV / "bin" / "python"
    py = str(venv_python if install or venv_python.exists() else Path(sys.executable))

    def debian() -> None:
        if install and (missing := debian_packages_missing(for_tests=True)):
            with timed(f"apt-get install {' '.join(missing)}"):
                apt_install(missing)

    def venv() -> None:
        if install:
            with timed("dev tools in .venv/ (pip install of pyproject.toml's dev extra)"):
                dev_venv()

    # Set-up: Debian's packages, the venv and the site build are independent, so they run side
    # by side; each check then waits only for what it uses (the in-Pyodide and JS tests need
    # no venv, so they start as soon as the site is built).
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as setup:
        debian_ready, venv_ready = setup.submit(debian), setup.submit(venv)
        if not (shutil.which("node") and shutil.which("npm")):
            debian_ready.result()
        with timed("site build"):
            site = build_site(DEFAULT_OUT)
        with timed("Pyodide test wheels"):
            pyodide_test_wheels()  # fetched now so the in-Pyodide run needs no network
        env = dict(os.environ, WH_SITE_DIR=str(site.root), PYTHONDONTWRITEBYTECODE="1")
        # Two at a time, for two cores, in this order.  The in-Pyodide and JS tests need only
        # the site, so they start while pip may still be busy.  The browser tests mostly wait
        # on Chromium (boots, connections, timeouts), so they run beside the CPU-bound checks,
        # over two pytest-xdist workers, a module each (a module shares one browser;
        # --dist loadfile keeps it whole); --verbosity=1: a line per browser test.
        e2e = [py, "-m", "pytest", "e2e", "-p", "no:cacheprovider", "--verbosity=1",
               "-n", "2", "--dist", "loadfile"]  # fmt: skip
        pyodide = ["node", "tests/pyodide/run.mjs", "--site", str(site.root)]
        # pyproject's strict set (the engine, build.py, tests/), and e2e/ apart: its module
        # names repeat tests/'s (conftest, test_hostile, test_rulesets).
        mypy = [py, "-m", "mypy"]
        tests = [py, "-m", "pytest", "tests", "-p", "no:cacheprovider"]
        steps = [
            Step("tests in Pyodide (Node)", pyodide),
            Step("pytest e2e/", e2e, (debian_ready, venv_ready)),
            Step("pytest tests/", tests, (venv_ready,)),
            Step("mypy --strict", mypy, (venv_ready,)),
            Step("mypy --strict e2e/", [*mypy, "e2e"], (venv_ready,)),
            Step("ruff", [py, "-m", "ruff", "check", "."], (venv_ready,)),
            Step("JS unit tests (Node)", ["node", "--test", "tests/js/"]),
        ]
        if args.skip_e2e:
            steps = [step for step in steps if step.name != "pytest e2e/"]
        results = run_steps(steps, env, workers=2)
    print("\n===== summary (wall and CPU seconds per step)", flush=True)
    for r in results:
        verdict = "PASS" if r.ok else "FAIL"
        times = f"{r.seconds:6.1f}s {r.cpu_seconds:6.1f}s"
        print(f"{verdict}  {r.name:<26} {times}  {r.summary}", flush=True)
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    progress(f"all steps finished; load average {load} (1, 5, 15 min)")
    # One closing line over every runner, in the plain form CI reads ("N passed, N failed").
    passed = sum(_count(r.summary, ("passed", "pass")) for r in results)
    failed = sum(_count(r.summary, ("failed", "fail")) for r in results) + sum(
        1 for r in results if not r.ok and not _count(r.summary, ("failed", "fail"))
    )
    print(f"total: {passed} passed, {failed} failed", flush=True)
    return 0 if all(r.ok for r in results) else 1


def _count(summary: str, words: tuple[str, ...]) -> int:
    """The number before any of `words` in a runner's summary ("535 passed", "29 pass")."""
    total = 0
    for m in re.finditer(r"(\d+) (\w+)", summary):
        if m.group(2) in words:
            total += int(m.group(1))
    return total


# --------------------------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(prog="build.py", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p_build = sub.add_parser("build", help="write the static site")
    p_build.add_argument("--out", default=str(DEFAULT_OUT), help="output folder")
    p_serve = sub.add_parser("serve", help="build, then serve on 127.0.0.1")
    p_serve.add_argument("--out", default=str(DEFAULT_OUT), help="site folder")
    p_serve.add_argument("--port", type=int, default=8000)
    p_serve.add_argument("--no-build", action="store_true", help="serve the existing build")
    p_test = sub.add_parser("test", help="install prerequisites and run every test")
    p_test.add_argument("--skip-e2e", action="store_true", help="leave out the browser tests")
    p_test.add_argument("--no-install", action="store_true", help="assume prerequisites exist")
    args = parser.parse_args(argv)
    try:
        # Building needs Python's standard library, Node.js and npm: nothing from PyPI.
        building = args.command in ("build", "serve") and not getattr(args, "no_build", False)
        if building and (missing := debian_packages_missing(for_tests=False)):
            apt_install(missing)
        if args.command == "build":
            build_site(Path(args.out))
            return 0
        if args.command == "serve":
            return cmd_serve(args)
        return cmd_test(args)
    except BuildError as exc:
        print(f"build.py: error: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
