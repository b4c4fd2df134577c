"""engine-build.js: what the engine worker boots from, with its integrity, and the identity of
the engine whose snapshot a page keeps."""

from __future__ import annotations

import json

from .common import PYTHON_LIBRARY, REFERENCE, sha256_hex, sri_sha256
from .compress import brotli, decoder_entry, packed_entry
from .integrity import integrity_manifest
from .pins import PYODIDE_VERSION

# What a snapshot the page makes of its own interpreter depends on (web/engine-snapshot.js): the
# runtime, the Python library (the engine is in it) and the worker's code that prepares the
# interpreter.  Their hash names the snapshot's cache, so a build that changes any of them
# drops the old snapshot and one that changes none keeps it (web/snapshot-store.js, sw.js).
SNAPSHOT_INPUTS = (
    "pyodide/pyodide.mjs", "pyodide/pyodide.asm.mjs", "pyodide/pyodide.asm.wasm", PYTHON_LIBRARY,
    "engine-worker.js", "engine-snapshot.js", "snapshot-store.js",
)  # fmt: skip


WASM = "pyodide/pyodide.asm.wasm"


def engine_id(files: dict[str, bytes]) -> str:
    """The identity of the engine a page snapshots: a hash of SNAPSHOT_INPUTS."""
    return sha256_hex(b"".join(sha256_hex(files[p]).encode() for p in SNAPSHOT_INPUTS))[:16]


def engine_build_module(files: dict[str, bytes]) -> bytes:
    """engine-build.js: what engine-worker.js boots from, with the integrity of every file."""
    build = {
        "pyodide": PYODIDE_VERSION,
        "engineId": engine_id(files),
        # The two packed files (the worker fetches `packed.url` and unpacks it) and the decoder.
        "wasm": {
            "url": WASM,
            "integrity": sri_sha256(files[WASM]),
            "size": len(files[WASM]),
            "packed": packed_entry(files, WASM),
        },
        "library": {
            "url": PYTHON_LIBRARY,
            "integrity": sri_sha256(files[PYTHON_LIBRARY]),
            "size": len(files[PYTHON_LIBRARY]),
            "packed": packed_entry(files, PYTHON_LIBRARY),
        },
        "decoder": decoder_entry(files),
        "reference": {
            "url": REFERENCE,
            "integrity": sri_sha256(files[REFERENCE]),
            "size": len(files[REFERENCE]),
            # The length of its `.br` sibling: a host that sends exactly that many bytes sends
            # the build's siblings (the worker then asks for the wasm and library by name).
            "sibling": len(brotli(files[REFERENCE])),
        },
        # Every other file the worker may fetch (Pyodide's own fetches go through its check).
        "files": integrity_manifest({k: v for k, v in files.items() if k != "index.html"}),
    }
    return (
        "// Written by build.py: the files engine-worker.js boots from (and the page's recorded\n"
        "// reference), with their integrity.\n"
        f"export const BUILD = {json.dumps(build, indent=1, sort_keys=True)};\n"
    ).encode()
