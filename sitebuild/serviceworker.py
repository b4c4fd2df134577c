"""sw.js: web/sw.js with the content version, the kept engine's identity and the precache list."""

from __future__ import annotations

import functools
import json
import re
import tempfile
from pathlib import Path

from .boot import engine_id
from .common import WEB, run, sha256_hex, sri_sha256
from .compress import (
    DECODER_SCRIPT,
    DECODER_WASM,
    PACKED,
    PACKED_SUFFIX,
    decoder_entry,
    packed_entry,
)
from .page import page_sources
from .pins import bundler

# Shipped but left out of the service worker's precache, fetched only if something asks: the
# page boots from the site's Python library (PYTHON_LIBRARY, which holds the engine too), so it
# needs neither the full stdlib archive nor a wheel; they are there for micropip, the tests and
# anyone installing packages by hand.  Nor the brotli decoder's wasm: only a boot that unpacks a
# packed file loads it, and after a first visit the wasm and the library are kept unpacked (a
# host that sends the siblings never needs it at all: precaching it cost such a first visit 0.1 MB).
NOT_PRECACHED = re.compile(r"pyodide/(python_stdlib\.zip|[^/]+\.whl)|vendor/brotli-dec\.wasm\.gz")


# The unpacking an update's install needs (web/unpack.js and what it imports), bundled by esbuild
# into sw.js itself, a classic script (module service workers are too recent: Firefox 147), as
# `self.swUnpack`: a new build's wasm or library then travels packed, as on a first visit,
# instead of whole (the library: 4.5 MB on a host that does not send the `.br` siblings).
UNPACK_SOURCES = ("unpack.js", "integrity.js", DECODER_SCRIPT)
UNPACK_ENTRY = (
    'import { loadDecoder, readAll, unpacking } from "./unpack.js";\n'
    "self.swUnpack = { loadDecoder, readAll, unpacking };\n"
)


@functools.lru_cache(maxsize=4)
def unpack_bundle(sources: tuple[bytes, ...]) -> str:
    """UNPACK_SOURCES (their bytes, in order) bundled into one classic script, the decoder's
    licence first (esbuild keeps only `/*!` comments)."""
    with tempfile.TemporaryDirectory() as tmp:
        for rel, data in zip(UNPACK_SOURCES, sources, strict=True):
            (Path(tmp) / rel).parent.mkdir(parents=True, exist_ok=True)
            (Path(tmp) / rel).write_bytes(data)
        (Path(tmp) / "entry.js").write_text(UNPACK_ENTRY)
        run(
            [
                "node", str(bundler()), "entry.js", "--bundle", "--format=iife",
                "--charset=utf8", "--log-level=warning", "--outfile=out.js",
                # integrity.js names this deployment's caches by its own URL: sw.js's scope.
                "--define:import.meta.url=self.location.href",
            ],
            cwd=tmp, quiet=True,
        )  # fmt: skip
        bundle = (Path(tmp) / "out.js").read_text()
    licence = re.match(r"/\*.*?\*/\n", sources[2].decode(), re.DOTALL)
    return (licence[0] if licence else "") + bundle


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
    # (A site without the decoder, say a test's few files, fetches every file as it is.)
    if all(rel in files for rel in (*UNPACK_SOURCES, DECODER_WASM)):
        packed = {
            rel: packed_entry(files, rel) for rel in PACKED if f"{rel}{PACKED_SUFFIX}" in files
        }
        header += (
            "// The files that travel packed (`url`), unpacked by `DECODER` (web/unpack.js).\n"
            f"const PACKED = {json.dumps(packed)};\n"
            f"const DECODER = {json.dumps(decoder_entry(files))};\n"
        )
        unpack = unpack_bundle(tuple(files[rel] for rel in UNPACK_SOURCES))
    else:
        header += "const PACKED = {};\nconst DECODER = null;\n"
        unpack = ""
    return version, (header + unpack + template).encode()
