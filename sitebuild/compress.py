"""The site's packed files (the wasm and the Python library, brotli-compressed inside the site,
unpacked by the engine worker with a vendored decoder) and the `.br` siblings static hosts with
precompression send in place of the big files (docs/hosting.md)."""

from __future__ import annotations

import gzip
import subprocess

from .common import (
    CACHE,
    PYTHON_LIBRARY,
    REFERENCE,
    BuildError,
    atomic_write,
    sha256_hex,
    sri_sha256,
)
from .pins import (
    DECODER_INTEGRITY,
    DECODER_PACKAGE,
    DECODER_VERSION,
    package_file,
    vendored_module,
)

# The files no host compresses well enough on its own: the library is a stored zip (no host
# compresses a zip; 4.2 MB as it is, 1.18 MB packed) and the wasm goes out as gzip at best (3.55
# MB on the fly, 2.77 MB packed).  Each is shipped beside its packed form `<file>.br` (also the
# sibling precompressing hosts send for it), which is what the engine worker asks for.
PACKED = ("pyodide/pyodide.asm.wasm", PYTHON_LIBRARY)
PACKED_SUFFIX = ".br"
# The decoder (pins.DECODER_PACKAGE): its ES module, and its wasm gzipped (the browser's own
# DecompressionStream inflates it; 208 KB, 99 KB gzipped), so that it travels small on every
# host, as the packed files do.
DECODER_SCRIPT = "vendor/brotli-dec.mjs"
DECODER_WASM = "vendor/brotli-dec.wasm.gz"
# The decoder package's files they are made from.
DECODER_MODULE_PATH = "pkg/brotli_dec_wasm.js"
DECODER_WASM_PATH = "pkg/brotli_dec_wasm_bg.wasm"
# A packed file's first bytes that say a host has unpacked it already (web/unpack.js).
HEAD_BYTES = 4

# Big files that static hosts with precompression (nginx `brotli_static`, Caddy `precompressed`)
# can send brotli-compressed: a `.br` sibling is written beside each.  Hosts without it ignore
# the siblings and gzip on the fly or send the file as it is.  The Python library and the wheel
# are stored zips, not deflated, so they gain the most (the library 3.8 MB -> ~1.1 MB, where
# deflating each member would give ~1.6 MB: brotli sees across the members).
# reference.json's sibling is also the engine worker's probe: a host that sends it as br sends
# the wasm's and the library's siblings too, and the worker asks for those by name
# (web/worker-files.js).
PRECOMPRESSED = (
    "pyodide/pyodide.asm.wasm", "pyodide/pyodide.asm.mjs", PYTHON_LIBRARY, "pyodide/wavinghands-",
    REFERENCE,
)  # fmt: skip


def brotli(data: bytes, quality: int = 11) -> bytes:
    """Brotli with a 16 MB window, by Node's zlib (cached in the build cache's brotli/, by the
    input's hash); `quality` 11, the
    smallest and slowest (~20 s for the wasm), unless told (tests packing a damaged file)."""
    cached = CACHE / "brotli" / f"{sha256_hex(data)}{'' if quality == 11 else f'-q{quality}'}.br"
    if cached.exists():
        return cached.read_bytes()
    script = (
        "const z = require('zlib'); const input = require('fs').readFileSync(0);"
        "process.stdout.write(z.brotliCompressSync(input, { params: {"
        f"[z.constants.BROTLI_PARAM_QUALITY]: {int(quality)}, [z.constants.BROTLI_PARAM_LGWIN]: 24,"
        "[z.constants.BROTLI_PARAM_SIZE_HINT]: input.length } }));"
    )
    proc = subprocess.run(["node", "-e", script], input=data, capture_output=True, check=False)
    if proc.returncode != 0:
        raise BuildError(f"brotli compression failed: {proc.stderr.decode(errors='replace')}")
    atomic_write(cached, proc.stdout)
    return proc.stdout


def precompressed_siblings(files: dict[str, bytes]) -> dict[str, bytes]:
    """The `.br` siblings of the PRECOMPRESSED files (never requested by name, never precached)."""
    return {
        f"{rel}.br": brotli(data)
        for rel, data in sorted(files.items())
        if any(rel == p or (p.endswith("-") and rel.startswith(p)) for p in PRECOMPRESSED)
    }


def packed_files(files: dict[str, bytes]) -> dict[str, bytes]:
    """The PACKED files' packed forms (`<file>.br`), and the decoder's two files."""
    packed = {f"{rel}{PACKED_SUFFIX}": brotli(files[rel]) for rel in PACKED}
    for rel in PACKED:
        if packed[f"{rel}{PACKED_SUFFIX}"][:HEAD_BYTES] == files[rel][:HEAD_BYTES]:
            raise BuildError(f"{rel}: its packed form begins as it does (web/unpack.js)")
    wasm = package_file(DECODER_PACKAGE, DECODER_VERSION, DECODER_INTEGRITY, DECODER_WASM_PATH)
    packed[DECODER_WASM] = gzip.compress(wasm, 9, mtime=0)
    packed[DECODER_SCRIPT] = vendored_module(
        DECODER_PACKAGE, DECODER_VERSION, DECODER_INTEGRITY, DECODER_MODULE_PATH, "LICENSE-MIT.txt"
    )
    return packed


def packed_entry(files: dict[str, bytes], rel: str) -> dict[str, object]:
    """What the engine worker needs to fetch and unpack a PACKED file: its packed form's site
    path and size, and the first bytes of the file itself (engine-build.js)."""
    url = f"{rel}{PACKED_SUFFIX}"
    return {"url": url, "size": len(files[url]), "head": files[rel][:HEAD_BYTES].hex()}


def decoder_entry(files: dict[str, bytes]) -> dict[str, object]:
    """The decoder's wasm for engine-build.js: its site path and size (gzipped, as it travels)
    and the integrity of the wasm itself (checked before it is instantiated)."""
    data = files[DECODER_WASM]
    return {"url": DECODER_WASM, "size": len(data), "integrity": sri_sha256(gzip.decompress(data))}
