"""Integrity and policy: the site's Content-Security-Policy, the integrity manifest of its
files, and site-integrity.js (what engine.js checks the engine worker's scripts against)."""

from __future__ import annotations

import json
import re

from .common import BuildError, sri_sha256

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
    "engine-worker.js", "worker-boot.js", "worker-files.js", "engine-build.js", "integrity.js",
    "engine-snapshot.js",
    "snapshot-store.js", "unpack.js", "vendor/brotli-dec.mjs", "pyodide/pyodide.mjs",
    "pyodide/pyodide.asm.mjs",
)  # fmt: skip
# A short-lived module worker sw-register.js starts after the service worker's install: it
# imports the engine worker's scripts (all but engine-worker.js, each listed in WORKER_SCRIPTS)
# once from the service worker's cache, so that V8 keeps their code cache for the next visit.
COMPILE_AHEAD = "compile-ahead.js"


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
