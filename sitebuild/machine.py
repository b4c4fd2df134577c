"""What a machine needs before it can build and test: Debian's packages (Node.js, npm,
Chromium, the network lab's tools) and .venv/ with the dev tools (a link to the user's shared
one for a fresh clone)."""

from __future__ import annotations

import fcntl
import os
import shutil
import sys
import tomllib
from pathlib import Path

from .common import CACHE, ROOT, BuildError, run, sha256_hex

CHROMIUM = Path("/usr/bin/chromium")
# The same Chromium without the browser's windowing and profile machinery (Debian's
# chromium-headless-shell, the binary itself rather than its shell wrapper): the browser tests
# run on it, as Playwright's own headless mode does, at about two thirds of the CPU.
HEADLESS_SHELL = Path("/usr/lib/chromium/chromium-headless-shell")
# How every headless Chromium of the tests and benchmarks starts: without the networking switches
# Chromium keeps dialling Google's hosts, which a closed network refuses; --no-sandbox because the
# tests run as root.
CHROMIUM_ARGS = (
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
)  # fmt: skip


VENV = ROOT / ".venv"
# What .venv/ was last filled for (the interpreter, then the dev extra's requirements).
VENV_STAMP = VENV / "wavinghands-dev.txt"


def debian_packages_missing(*, for_tests: bool) -> list[str]:
    """The Debian packages that building (and, for_tests, testing) needs and are not there.

    Node.js and npm: `npm pack`, the Python library, the in-Pyodide and JS tests.  Chromium's
    headless shell: the browser tests; Chromium itself: the benchmarks and the network lab's
    homes.  iproute2, coturn, iptables: e2e/test_netplay.py's network lab (run as root).
    """
    wanted = [("nodejs", "node"), ("npm", "npm")]
    if for_tests:
        # coturn is the lab's STUN and TURN server, iptables the home routers' NAT.
        wanted += [("iproute2", "ip"), ("coturn", "turnserver"), ("iptables", "iptables")]
    missing = [package for package, command in wanted if not shutil.which(command)]
    if for_tests:
        browsers = [("chromium", CHROMIUM), ("chromium-headless-shell", HEADLESS_SHELL)]
        missing += [package for package, path in browsers if not path.exists()]
    return missing


def apt_install(packages: list[str]) -> None:
    """Install Debian packages (apt-get update first, as a fresh machine's lists are empty)."""
    if os.geteuid() != 0 or not shutil.which("apt-get"):
        raise BuildError(f"missing {packages}; install them with apt-get (needs root)")
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    run(["apt-get", "update", "-q"], env=env, quiet=True)
    run(["apt-get", "install", "-y", "-q", "--no-install-recommends", *packages], env=env,
        quiet=True)  # fmt: skip


def dev_requirements() -> list[str]:
    """pyproject.toml's dev extra: every tool the checks run."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return list(project["optional-dependencies"]["dev"])


def dev_venv() -> Path:
    """.venv/ holding the dev extra, made or brought up to date; returns its python.

    The system Python is never touched.  The engine is not installed there: tests/ and e2e/
    put this checkout's engine/ on sys.path themselves.  A checkout without .venv/ gets a link
    to the user's shared one for the same interpreter and requirements (the build cache's
    venvs/<key>/, made once per machine, as pre-commit keeps its environments), so a fresh
    clone installs nothing; a .venv/ folder of the checkout's own is brought up to date in
    place.  An unchanged stamp skips pip.
    """
    wanted = "\n".join([sys.version, *dev_requirements()]) + "\n"
    key = sha256_hex(f"{Path(sys.executable).resolve()}\n{wanted}".encode())[:16]
    shared = CACHE / "venvs" / key
    if VENV.is_symlink():
        if VENV.exists() and VENV.resolve() == shared.resolve():
            _filled_venv(shared, wanted)
            return VENV / "bin" / "python"
        # Another interpreter or requirements (never change a shared venv other checkouts use),
        # or the shared one it named went with the cache: link to the right one.
        VENV.unlink()
    elif VENV.exists():
        return _filled_venv(VENV, wanted)
    shared.parent.mkdir(parents=True, exist_ok=True)
    # One maker at a time (two fresh clones may start at once); the other then finds it filled.
    with open(shared.with_name(f"{key}.lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        _filled_venv(shared, wanted)
    VENV.symlink_to(shared, target_is_directory=True)
    return VENV / "bin" / "python"


def _filled_venv(venv: Path, wanted: str) -> Path:
    """`venv` made (or remade for another interpreter) and filled with the dev extra unless
    its stamp already says `wanted`; returns its python."""
    python = venv / "bin" / "python"
    stamp_file = venv / VENV_STAMP.name
    stamp = stamp_file.read_text() if stamp_file.exists() else ""
    if python.exists() and stamp == wanted:
        return python
    if not python.exists() or stamp.split("\n", 1)[0] != sys.version:
        try:
            run([sys.executable, "-m", "venv", "--clear", str(venv)], quiet=True)
        except BuildError as exc:
            hint = "(a Debian python3 needs: apt-get install python3-venv)"
            raise BuildError(f"{exc}\n{hint}") from exc
    run([str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
         *dev_requirements()], quiet=True)  # fmt: skip
    stamp_file.write_text(wanted)
    return python
