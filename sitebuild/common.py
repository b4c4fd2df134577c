"""What every part of the build shares: the checkout's paths, the site's fixed layout, the
build's error, running a command, and the hashes."""

from __future__ import annotations

import base64
import hashlib
import os
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

# The checkout: sitebuild/ sits at its top, beside build.py.
ROOT = Path(__file__).resolve().parent.parent


def cache_dir() -> Path:
    """Where the pinned downloads and what is made from them alone (Pyodide unpacked, brotli,
    the Python library by its inputs) are kept: $WH_CACHE, else $XDG_CACHE_HOME/wavinghands,
    else ~/.cache/wavinghands.  One per user, shared by every checkout of the machine, as pip's
    is: a fresh clone builds without the network and without compressing again.  Every entry is
    checked against its pin or named by the hash of its inputs, and written whole (atomic_write)."""
    if os.environ.get("WH_CACHE"):
        return Path(os.environ["WH_CACHE"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "wavinghands"


CACHE = cache_dir()
DEFAULT_OUT = ROOT / "dist" / "site"
WEB = ROOT / "web"

# Every timestamp that ends up in an artefact (zip entries, file mtimes) is this one, so the
# bytes depend on content alone.  1980-01-01 is the earliest date a zip entry can hold.
SOURCE_DATE_EPOCH = 315532800
ZIP_DATE = (1980, 1, 1, 0, 0, 0)

# The site's Python library: the stdlib modules Pyodide and the engine import, and the engine,
# compiled to bytecode (tools/python_lib.mjs); the page's `stdLibURL`.
PYTHON_LIBRARY = "pyodide/python_lib.zip"
# The engine's answers to spells() and rulesets(), recorded at build time (engine_reference).
REFERENCE = "reference.json"


class BuildError(RuntimeError):
    """A build step failed; the message says which and why."""


def log(msg: str) -> None:
    """Print a progress line of the build (flushed, so it interleaves with child output)."""
    print(f"[build] {msg}", flush=True)


def run(cmd: Sequence[str], *, quiet: bool = False, **kwargs: Any) -> None:
    """Run a command, echoing it; raise BuildError when it fails.

    quiet: keep its output to show only if it fails (tools that chatter on success).
    """
    print("$ " + " ".join(str(c) for c in cmd), flush=True)
    if quiet:
        kwargs.update(stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    proc = subprocess.run(list(cmd), text=True, check=False, **kwargs)
    if proc.returncode != 0:
        if quiet:
            print(proc.stdout, flush=True)
        raise BuildError(f"command failed ({proc.returncode}): {' '.join(map(str, cmd))}")


def sha256_hex(data: bytes) -> str:
    """Hex sha256 of some bytes."""
    return hashlib.sha256(data).hexdigest()


def sri_sha512(data: bytes) -> str:
    """The `sha512-<base64>` form npm publishes as `dist.integrity`."""
    return "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()


def sri_sha256(data: bytes) -> str:
    """The `sha256-<base64>` form that fetch()'s `integrity` option takes."""
    return "sha256-" + base64.b64encode(hashlib.sha256(data).digest()).decode()


def atomic_write(path: Path, data: bytes) -> None:
    """Write `data` to `path` whole or not at all (a temporary file beside it, renamed), so two
    builds filling the shared cache at once never read each other's half-written file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def swap_in(staging: Path, target: Path) -> None:
    """Put the folder `staging` in the place of `target` (any old one removed), between two
    renames, so a reader sees the old folder or the new one, whole, and no mixture."""
    old = target.with_name(f".{target.name}.old.{os.getpid()}")
    shutil.rmtree(old, ignore_errors=True)
    if target.exists():
        target.rename(old)
    staging.rename(target)
    shutil.rmtree(old, ignore_errors=True)
