"""The engine's wheel (made with the standard library alone) and the pyodide-lock.json that
lists the wheels the site ships."""

from __future__ import annotations

import base64
import hashlib
import io
import json
import re
import tomllib
import zipfile

from .common import ROOT, ZIP_DATE, BuildError, sha256_hex


def normalised_zip(data: bytes) -> bytes:
    """Rewrite a wheel with fixed timestamps, permissions and order (RECORD last), uncompressed.

    Stored rather than deflated so that engine-worker.js can lay the files out in Pyodide's
    file system with a few lines of JS and no decompression on the boot's critical path.
    """
    src = zipfile.ZipFile(io.BytesIO(data))

    def order(name: str) -> tuple[bool, bool, str]:
        top = name.split("/", 1)[0]
        return (top.endswith(".dist-info"), name.endswith(".dist-info/RECORD"), name)

    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as dst:
        for name in sorted(src.namelist(), key=order):
            if name.endswith("/"):
                continue  # directories are implied by the files' paths
            info = zipfile.ZipInfo(name, date_time=ZIP_DATE)
            info.create_system = 3  # unix, so the mode bits below are honoured
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_STORED
            dst.writestr(info, src.read(name))
    return out.getvalue()


def engine_wheel() -> tuple[str, bytes]:
    """The engine's py3-none-any wheel, made with the standard library alone: (name, bytes).

    A pure-Python wheel is a zip of the package plus three small files (PEP 427), so no build
    backend is needed: `build` and `serve` install nothing.  What goes in is what pyproject.toml
    declares (the package under engine/, its package data); the bytes depend on content alone.
    """
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    name, version = project["name"], project["version"]
    if project.get("dependencies"):
        raise BuildError("the engine wheel is built without dependencies; pyproject.toml has some")
    package = ROOT / "engine" / name
    data_globs = ("py.typed", "data/*.json")  # [tool.setuptools.package-data] in pyproject.toml
    files = sorted({*package.rglob("*.py"), *(f for g in data_globs for f in package.glob(g))})
    contents = {
        f.relative_to(package.parent).as_posix(): f.read_bytes()
        for f in files
        if "__pycache__" not in f.parts
    }
    dist_info = f"{name}-{version}.dist-info"
    contents[f"{dist_info}/METADATA"] = "".join(
        f"{key}: {value}\n"
        for key, value in (
            ("Metadata-Version", "2.1"),
            ("Name", name),
            ("Version", version),
            ("Summary", project["description"]),
            ("License", project["license"]["text"]),
            ("Requires-Python", project["requires-python"]),
        )
    ).encode()
    contents[f"{dist_info}/WHEEL"] = (
        b"Wheel-Version: 1.0\nGenerator: build.py\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    )
    contents[f"{dist_info}/top_level.txt"] = f"{name}\n".encode()

    def digest(data: bytes) -> str:
        return base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()

    record = [f"{path},sha256={digest(data)},{len(data)}" for path, data in contents.items()]
    contents[f"{dist_info}/RECORD"] = "\n".join([*record, f"{dist_info}/RECORD,,", ""]).encode()
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as wheel:
        for path, data in contents.items():
            wheel.writestr(path, data)
    return f"{name}-{version}-py3-none-any.whl", normalised_zip(out.getvalue())


def engine_wheel_path(files: dict[str, bytes]) -> str:
    """The site path of the engine wheel among the site's files."""
    (path,) = (p for p in files if re.fullmatch(r"pyodide/wavinghands-[^/]+\.whl", p))
    return path


def lock_entry(base: dict[str, object], file_name: str, data: bytes) -> dict[str, object]:
    """A pyodide-lock package entry for a shipped pure-Python wheel."""
    name, version = file_name.split("-")[:2]
    entry: dict[str, object] = {
        "depends": [],
        "file_name": file_name,
        "imports": [name],
        "install_dir": "site",
        "name": name,
        "package_type": "package",
        "sha256": sha256_hex(data),
        "tool": {},
        "unvendored_tests": False,
        "version": version,
    }
    entry.update({k: v for k, v in base.items() if k in ("depends", "imports")})
    return entry


def make_lock(shipped_lock: dict[str, object], wheels: dict[str, bytes]) -> bytes:
    """pyodide-lock.json listing exactly the wheels the site ships, with their real sha256.

    Pyodide's own lock points at its CDN and gives micropip a sha256 that differs from the
    PyPI wheel's, so it cannot be used as it is.
    """
    packages = shipped_lock["packages"]
    assert isinstance(packages, dict)
    entries = {}
    for file_name, data in sorted(wheels.items()):
        name = file_name.split("-")[0]
        entries[name] = lock_entry(packages.get(name, {}), file_name, data)
    lock = {"info": shipped_lock["info"], "packages": entries}
    return (json.dumps(lock, indent=1, sort_keys=True) + "\n").encode()
