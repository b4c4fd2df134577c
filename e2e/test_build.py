"""build.py itself: reproducible output, and `serve` printing its URL with the right types."""

from __future__ import annotations

import subprocess
import sys
import urllib.request
from pathlib import Path

import build  # the repository root is on sys.path (e2e/conftest.py)


def test_two_builds_give_identical_bytes(tmp_path: Path) -> None:
    # The second build makes its snapshot afresh, so the snapshot's determinism is tested too.
    first = build.build_site(tmp_path / "a")
    second = build.build_site(tmp_path / "b", reuse_snapshot=False)
    assert build.manifest_of(first.root) == build.manifest_of(second.root)
    assert first.version == second.version
    assert build.manifest_of(first.root) == first.manifest


def test_serve_prints_its_url_and_serves_wasm_as_wasm(site_dir: Path) -> None:
    with subprocess.Popen(
        [sys.executable, str(build.ROOT / "build.py"), "serve", "--no-build", "--port", "0",
         "--out", str(site_dir)],
        stdout=subprocess.PIPE, text=True,
    ) as proc:  # fmt: skip
        try:
            assert proc.stdout is not None
            line = proc.stdout.readline()
            url = line.split(" at ", 1)[1].split()[0]
            assert url.startswith("http://127.0.0.1:") and url.endswith("/"), line
            with urllib.request.urlopen(url + "pyodide/pyodide.asm.wasm") as response:
                assert response.headers["Content-Type"] == "application/wasm"
            with urllib.request.urlopen(url) as response:
                assert b"<html" in response.read()
        finally:
            proc.terminate()
            proc.wait(timeout=10)
