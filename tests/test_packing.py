"""The site's packed files (sitebuild/compress.py) and the server's precompressed mode (issue 30).

What unpacks them in the browser (web/unpack.js) is tested there: e2e/test_boot.py and
e2e/test_integrity.py boot from them and damage them.
"""

from __future__ import annotations

import gzip
import http.client
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
# The build's own tests need the host (Node, sockets): `build.py test --deep` runs tests/ inside
# Pyodide too, where they have nothing to check.
pytestmark = pytest.mark.skipif(sys.platform == "emscripten", reason="the build runs on the host")

from sitebuild import compress  # noqa: E402
from sitebuild.common import PYTHON_LIBRARY, sri_sha256  # noqa: E402
from sitebuild.serve import SiteHandler, SiteServer  # noqa: E402


def brotli_decompress(data: bytes) -> bytes:
    """Node's zlib, the other side of compress.brotli."""
    script = "const z = require('zlib'); const i = require('fs').readFileSync(0);"
    script += "process.stdout.write(z.brotliDecompressSync(i));"
    done = subprocess.run(["node", "-e", script], input=data, capture_output=True, check=True)
    return done.stdout


def test_the_packed_files_unpack_to_the_files_and_say_how_they_begin() -> None:
    files = {rel: f"{rel} ".encode() * 500 for rel in compress.PACKED}
    packed = compress.packed_files(files)
    for rel in compress.PACKED:
        form = packed[rel + compress.PACKED_SUFFIX]
        assert brotli_decompress(form) == files[rel] and len(form) < len(files[rel]) // 10
        entry = compress.packed_entry({**files, **packed}, rel)
        assert entry == {"url": rel + ".br", "size": len(form), "head": files[rel][:4].hex()}


def test_the_decoder_ships_as_its_module_and_its_gzipped_wasm_with_the_wasm_s_integrity() -> None:
    packed = compress.packed_files({rel: b"x" * 100 for rel in compress.PACKED})
    module = packed[compress.DECODER_SCRIPT].decode()
    assert module.startswith("/* brotli-dec-wasm 2.3.2, vendored by build.py")
    assert "export{h as initSync" in module and "Permission is hereby granted" in module
    wasm = gzip.decompress(packed[compress.DECODER_WASM])
    assert wasm[:4] == b"\0asm"
    entry = compress.decoder_entry(packed)
    assert entry == {
        "url": compress.DECODER_WASM,
        "size": len(packed[compress.DECODER_WASM]),
        "integrity": sri_sha256(wasm),
    }


@pytest.fixture
def site(tmp_path: Path) -> Iterator[tuple[Path, str]]:
    """A folder with a file and its .br sibling, served by the site's server."""
    (tmp_path / "lib.zip").write_bytes(b"PK whole")
    (tmp_path / "lib.zip.br").write_bytes(b"packed")
    server = SiteServer(tmp_path, port=0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield tmp_path, f"127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def get(host: str, path: str, accept: str) -> tuple[bytes, str | None, str | None]:
    """GET path with Accept-Encoding `accept`: (body, Content-Encoding, Content-Type)."""
    conn = http.client.HTTPConnection(host)
    conn.request("GET", path, headers={"Accept-Encoding": accept})
    response = conn.getresponse()
    body = response.read()
    conn.close()
    return body, response.getheader("Content-Encoding"), response.getheader("Content-Type")


def test_the_server_sends_a_sibling_only_in_its_precompressed_mode(
    site: tuple[Path, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, host = site
    assert get(host, "/lib.zip", "gzip, br") == (b"PK whole", None, "application/zip")
    monkeypatch.setattr(SiteHandler, "precompressed", True)
    assert get(host, "/lib.zip", "gzip, br") == (b"packed", "br", "application/zip")
    assert get(host, "/lib.zip", "gzip") == (b"PK whole", None, "application/zip")
    # A packed file asked for by name goes out as it is, never with an encoding.
    assert get(host, "/lib.zip.br", "gzip, br") == (b"packed", None, "application/octet-stream")


def test_the_library_is_one_of_the_packed_files() -> None:
    assert PYTHON_LIBRARY in compress.PACKED and "pyodide/pyodide.asm.wasm" in compress.PACKED
