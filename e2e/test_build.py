"""build.py itself: reproducible output, the engine wheel it writes, and `serve` printing its
URL (and how to stop it) with the right types."""

from __future__ import annotations

import base64
import hashlib
import os
import re
import signal
import socket
import subprocess
import sys
import urllib.request
import zipfile
from pathlib import Path

import pytest

# sitebuild/ is at the repository's root, which e2e/conftest.py puts on sys.path.
from sitebuild.common import PYTHON_LIBRARY, ROOT
from sitebuild.serve import SiteServer
from sitebuild.site import build_site, manifest_of
from sitebuild.wheel import engine_wheel


def test_two_builds_give_identical_bytes(site_dir: Path, tmp_path: Path) -> None:
    """A build made here afresh, its Python library too (bytecode compiled by Pyodide under Node,
    so the library's determinism is tested), gives the bytes of the site the other tests use:
    `build.py test` builds that from the same checkout just before (its library from
    .cache/python-lib/ when one was made for the same inputs), as e2e/conftest.py's `site_dir`
    does without $WH_SITE_DIR."""
    built = manifest_of(site_dir)
    fresh = build_site(tmp_path / "a", reuse_library=False)
    assert manifest_of(fresh.root) == fresh.manifest
    differ = sorted(p for p in built.keys() | fresh.manifest.keys()
                    if built.get(p) != fresh.manifest.get(p))  # fmt: skip
    assert not differ, f"{site_dir} and a build of this checkout differ in {differ}"
    assert content_version(site_dir) == fresh.version


def content_version(site: Path) -> str:
    """The content version a built site's sw.js names."""
    found = re.search(r'^const VERSION = "([0-9a-f]+)";$', (site / "sw.js").read_text(), re.M)
    assert found, "sw.js names no VERSION"
    return found[1]


def test_the_python_library_holds_the_engine_as_bytecode(site_dir: Path) -> None:
    """Every module of the engine is in the site's Python library as .pyc, with its package
    data; no source, and (the stdlib's) no module the start-up does not need, e.g. tkinter."""
    package = ROOT / "engine" / "wavinghands"
    modules = {
        f"wavinghands/{p.relative_to(package).as_posix()}c"
        for p in package.rglob("*.py")
        if "__pycache__" not in p.parts
    }
    with zipfile.ZipFile(site_dir / PYTHON_LIBRARY) as library:
        names = set(library.namelist())
        assert modules <= names, sorted(modules - names)
        assert "wavinghands/data/spell_text.json" in names
        assert not [n for n in names if n.endswith(".py")]
        assert "json/__init__.pyc" in names and not [n for n in names if "tkinter" in n]
        assert all(i.compress_type == zipfile.ZIP_STORED for i in library.infolist())


def _interruptible() -> None:
    """In the child: Ctrl-C's default, even where this run was started with it ignored (a
    background job of a script ignores SIGINT, and its children inherit that)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_serve_prints_its_url_and_serves_wasm_as_wasm(site_dir: Path) -> None:
    with subprocess.Popen(
        [sys.executable, str(ROOT / "build.py"), "serve", "--no-build", "--port", "0",
         "--out", str(site_dir)],
        stdout=subprocess.PIPE, text=True, preexec_fn=_interruptible,
    ) as proc:  # fmt: skip
        try:
            assert proc.stdout is not None
            line = proc.stdout.readline()
            url = line.split(" at ", 1)[1].split()[0]
            assert url.startswith("http://127.0.0.1:") and url.endswith("/"), line
            # It says that it holds the terminal and how to stop it.
            note = proc.stdout.readline()
            assert "terminal" in note and "Ctrl-C" in note, note
            with urllib.request.urlopen(url + "pyodide/pyodide.asm.wasm") as response:
                assert response.headers["Content-Type"] == "application/wasm"
            with urllib.request.urlopen(url) as response:
                assert b"<html" in response.read()
            # Ctrl-C stops it cleanly, as the note says.
            proc.send_signal(signal.SIGINT)
            assert proc.wait(timeout=30) == 0
            assert proc.stdout.read().strip() == "Stopped."
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait(timeout=10)


def test_engine_wheel_holds_the_package_installs_and_imports(tmp_path: Path) -> None:
    name, data = engine_wheel()
    assert name == "wavinghands-0.1.0-py3-none-any.whl"
    assert engine_wheel() == (name, data), "the wheel's bytes depend on its content alone"
    wheel = tmp_path / name
    wheel.write_bytes(data)
    package = ROOT / "engine" / "wavinghands"
    sources = {
        f"wavinghands/{p.relative_to(package).as_posix()}"
        for p in package.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"
    }
    with zipfile.ZipFile(wheel) as zf:
        names = zf.namelist()
        assert {n for n in names if ".dist-info/" not in n} == sources
        assert names[-1] == "wavinghands-0.1.0.dist-info/RECORD"
        record = zf.read(names[-1]).decode().splitlines()
        for row in record:
            path, digest, size = row.split(",")
            if path.endswith("/RECORD"):
                continue
            body = zf.read(path)
            expected = base64.urlsafe_b64encode(hashlib.sha256(body).digest()).rstrip(b"=")
            assert digest == "sha256=" + expected.decode() and int(size) == len(body), path
        assert {r.split(",")[0] for r in record} == set(names)
        metadata = zf.read("wavinghands-0.1.0.dist-info/METADATA").decode()
        assert "Name: wavinghands\nVersion: 0.1.0\n" in metadata
    # pip takes it, and the package imports from where pip put it.
    target = tmp_path / "site-packages"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index",
         "--disable-pip-version-check", "--target", str(target), str(wheel)],
        check=True, capture_output=True,
    )  # fmt: skip
    probe = subprocess.run(
        [sys.executable, "-c", "import json, wavinghands, wavinghands.api as a; "
         "print(wavinghands.__file__, json.loads(a.spells())['ok'])"],
        cwd=tmp_path, env=dict(os.environ, PYTHONPATH=str(target)),
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    where, ok = probe.stdout.split()
    assert where.startswith(str(target)) and ok == "True", probe.stdout


def test_the_server_is_silent_when_a_browser_hangs_up(
    site_dir: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    server = SiteServer(site_dir, port=0)
    ours, browser = socket.socketpair()
    try:
        # The browser asks for the 9 MB runtime and hangs up before reading any of it, so the
        # server's writes fail (EPIPE) long before the file is sent.
        browser.sendall(b"GET /pyodide/pyodide.asm.wasm HTTP/1.1\r\nHost: x\r\n\r\n")
        browser.close()
        server.RequestHandlerClass(ours, ("127.0.0.1", 1), server)  # handles it, here and now
        assert capfd.readouterr().err == ""
    finally:
        ours.close()
        server.server_close()
