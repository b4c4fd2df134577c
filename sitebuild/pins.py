"""The pinned third-party inputs (npm tarballs, PyPI wheels) and their fetching into the build
cache (common.cache_dir()):
nothing is downloaded unless its pin is known, and every cached copy is re-checked."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from .common import CACHE, ROOT, BuildError, run, sha256_hex, sri_sha512, swap_in

# The one Pyodide release the site ships.  The integrity string is the registry's published
# `dist.integrity`; it is re-checked against the registry whenever the tarball is downloaded,
# and against the cached tarball on every build so an offline build is verified too.
PYODIDE_VERSION = "314.0.7"
PYODIDE_INTEGRITY = "sha512-0YvXxEhfEdpLfb/XkM2BFAeMROq0iMUX2bzzH9pOttyMcWkwq+HbE5uyuGD82LN7y2q+SNvi/6V5JEsOlD2R1A=="  # noqa: E501
# What the browser needs from the npm package; type stubs, source maps and demo pages stay out.
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")


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

# The brotli decoder the engine worker unpacks the site's packed files with (web/unpack.js;
# Chromium's DecompressionStream has no brotli): Rust's brotli-decompressor compiled to wasm,
# with wasm-bindgen's ES module, vendored from npm at build time, pinned like the Pyodide
# tarball (sitebuild/compress.py).
DECODER_PACKAGE = "brotli-dec-wasm"
DECODER_VERSION = "2.3.2"
DECODER_INTEGRITY = "sha512-5H+k8eVLIJY6B4olN2HP9QzJAxcplf0jV7mWnkpxvOSeUE9Npg3dQ2pgLn30a9MUFHNro1iSmtdu6VNdlb+TIw=="  # noqa: E501

# Wheels the engine's test suite needs inside Pyodide (pinned with hashes; fetched at build
# time into .cache, never at test run time).
PYODIDE_TEST_REQUIREMENTS = ROOT / "tests" / "pyodide" / "requirements.txt"


# esbuild, the bundler: npm's esbuild-wasm (WebAssembly, one package for every platform, run by
# Node.js), pinned like the Pyodide tarball.
BUNDLER_PACKAGE = "esbuild-wasm"
BUNDLER_VERSION = "0.28.2"
BUNDLER_INTEGRITY = "sha512-GccVwhv3mmOUVQHCQm2Ox/rby8n/EqUwvZxE6Pjfikrq/lWw9g9WX/u9EykWnpot3Ko6j426DgQdea2xWKIAQA=="  # noqa: E501


def npm_tarball(package: str, version: str, integrity: str) -> Path:
    """The verified npm tarball of package@version, downloaded once into the cache's npm/.

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
    """The unpacked Pyodide package (only PYODIDE_FILES and its lock), in the cache."""
    target = CACHE / f"pyodide-{PYODIDE_VERSION}"
    stamp = target / ".integrity"
    if stamp.exists() and stamp.read_text() == PYODIDE_INTEGRITY:
        return target
    tgz = npm_tarball("pyodide", PYODIDE_VERSION, PYODIDE_INTEGRITY)
    wanted = {f"package/{name}" for name in (*PYODIDE_FILES, "pyodide-lock.json")}
    with _filled_whole(target) as part:
        with tarfile.open(tgz, "r:gz") as tar:
            for member in tar.getmembers():
                if member.name in wanted and member.isfile():
                    src = tar.extractfile(member)
                    assert src is not None
                    (part / Path(member.name).name).write_bytes(src.read())
        missing = [n for n in wanted if not (part / Path(n).name).exists()]
        if missing:
            raise BuildError(f"the Pyodide tarball lacks {missing}")
        (part / ".integrity").write_text(PYODIDE_INTEGRITY)
    return target


@contextmanager
def _filled_whole(target: Path) -> Iterator[Path]:
    """A fresh folder to fill in place of `target`, which takes its place only once the block
    ends without an error (another build may be reading or filling the shared cache too)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    part = Path(tempfile.mkdtemp(dir=target.parent, prefix=f".{target.name}."))
    try:
        yield part
        swap_in(part, target)
    finally:
        shutil.rmtree(part, ignore_errors=True)


def bundler() -> Path:
    """esbuild's command-line script (BUNDLER_PACKAGE, run with `node`), unpacked into the cache."""
    target = CACHE / f"{BUNDLER_PACKAGE}-{BUNDLER_VERSION}"
    stamp = target / ".integrity"
    if not (stamp.exists() and stamp.read_text() == BUNDLER_INTEGRITY):
        tgz = npm_tarball(BUNDLER_PACKAGE, BUNDLER_VERSION, BUNDLER_INTEGRITY)
        with _filled_whole(target) as part:
            with tarfile.open(tgz, "r:gz") as tar:
                tar.extractall(part, filter="data")
            (part / ".integrity").write_text(BUNDLER_INTEGRITY)
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
    """micropip's wheel from PyPI, hash-checked, cached in the cache's pypi/."""
    dest = CACHE / "pypi"
    wheel = dest / MICROPIP_WHEEL
    pinned = MICROPIP_REQUIREMENT.split("sha256:")[1]
    if not wheel.exists() or sha256_hex(wheel.read_bytes()) != pinned:
        pip_download(MICROPIP_REQUIREMENT + "\n", dest)
    if sha256_hex(wheel.read_bytes()) != pinned:
        raise BuildError(f"{wheel} does not match its pinned sha256")
    return wheel


def pyodide_test_wheels() -> list[Path]:
    """pytest, hypothesis and their dependencies for the in-Pyodide test run, in the cache."""
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


def package_file(package: str, version: str, integrity: str, path: str) -> bytes:
    """One file of a pinned npm package (`path` inside its `package/` folder)."""
    with tarfile.open(npm_tarball(package, version, integrity)) as tar:
        member = tar.extractfile(f"package/{path}")
        if member is None:
            raise BuildError(f"{package}@{version}: {path} is missing")
        return member.read()


def vendored_module(
    package: str, version: str, integrity: str, module_path: str, licence: str = "LICENSE"
) -> bytes:
    """One ES module of a pinned npm package for the site, its licence (the package's file
    `licence`) in a leading comment."""
    code = package_file(package, version, integrity, module_path)
    text = package_file(package, version, integrity, licence).decode("utf-8").replace("*/", "* /")
    header = f"/* {package} {version}, vendored by build.py from npm (integrity-pinned).\n\n"
    return (header + text.strip() + "\n*/\n").encode("utf-8") + code
