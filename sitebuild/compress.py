"""The `.br` siblings static hosts with precompression send in place of the big files."""

from __future__ import annotations

import subprocess

from .common import CACHE, PYTHON_LIBRARY, BuildError, sha256_hex

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
