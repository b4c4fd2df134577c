"""sw.js: web/sw.js with the content version, the kept engine's identity and the precache list."""

from __future__ import annotations

import json
import re
from pathlib import Path

from .boot import engine_id
from .common import WEB, sha256_hex, sri_sha256
from .page import page_sources

# Shipped but left out of the service worker's precache, fetched only if something asks: the
# page boots from the site's Python library (PYTHON_LIBRARY, which holds the engine too), so it
# needs neither the full stdlib archive nor a wheel; they are there for micropip, the tests and
# anyone installing packages by hand.  Nor the brotli decoder's wasm: only a boot that unpacks a
# packed file loads it, and after a first visit the wasm and the library are kept unpacked (a
# host that sends the siblings never needs it at all: precaching it cost such a first visit 0.1 MB).
NOT_PRECACHED = re.compile(r"pyodide/(python_stdlib\.zip|[^/]+\.whl)|vendor/brotli-dec\.wasm\.gz")


def service_worker(files: dict[str, bytes], web: Path = WEB) -> tuple[str, bytes]:
    """sw.js (from `web`) with the precache list and the content version written in:
    (version, bytes)."""
    template = (web / "sw.js").read_text()
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
