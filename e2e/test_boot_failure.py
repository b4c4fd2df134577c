"""A Python failure while the engine starts reaches the page at once, in plain words.

Each test serves a copy of the built site whose Python library was changed to fail (the engine's
import raising, Python unable to start), with the integrity chain rebuilt around the changed
library (engine-build.js, site-integrity.js, index.html, sw.js, as build.py writes them:
e2e/serving.py's rewrite_site), so the failure is Python's and not a damaged file.  The page's
status line must say that the engine could not start ("a fault in the game") and offer a
reload, and name Python's own failure, not the hung boot engine.js reports a minute after the
worker's last word (web/stall-timer.js).
"""

from __future__ import annotations

import io
import os
import shutil
import time
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from boot_play import boot_failure_detail
from serving import rewrite_site, serving

# sitebuild/ is at the repository's root, which e2e/conftest.py puts on sys.path.
from sitebuild.common import PYTHON_LIBRARY
from sitebuild.compress import PACKED_SUFFIX, brotli

# A failure must be reported at once: a cold boot here takes 1-10 s, and several times that on a
# machine at load 12 (CI runs three suites on two cores).  A failure left to engine.js's stall
# timer (a minute after the worker's last word) would come within this bound, but as a hung
# boot: the sentence and the detail checked below are not that one's.
REPORTED_WITHIN_S = 120

# The page's own status line (web/app.js): "error" once the boot failed, with a Reload button.
FAILED = "[data-testid=engine-status][data-state=error]"

# What each failure's detail must name (not "[object Object]").
DETAIL_SAYS = {
    "engine_import_raises": "injected: the engine failed to import",
    "python_cannot_start": "No module named 'encodings'",
    "_pyodide/_base.py_raises": "injected: this module fails",
    "pyodide/__init__.py_raises": "injected: this module fails",
}


def with_library(root: Path, change: Callable[[dict[str, bytes]], None]) -> None:
    """Rewrite the built site at `root` with its Python library's members changed by `change`
    (a dict of member name -> bytes, edited in place), integrity chain included."""
    with zipfile.ZipFile(root / PYTHON_LIBRARY) as archive:
        members = {name: archive.read(name) for name in archive.namelist()}
    change(members)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as archive:
        for name in sorted(members):
            archive.writestr(name, members[name])
    library = out.getvalue()
    # Its packed form, which the page asks for (packed quickly: only what it unpacks to matters).
    rewrite_site(root, {PYTHON_LIBRARY: library,
                        PYTHON_LIBRARY + PACKED_SUFFIX: brotli(library, quality=5)})  # fmt: skip


def engine_import_raises(members: dict[str, bytes]) -> None:
    """The engine's api module raises when imported (as a bug at import time would)."""
    del members["wavinghands/api.pyc"]
    members["wavinghands/api.py"] = b"raise RuntimeError('injected: the engine failed to import')\n"


def python_cannot_start(members: dict[str, bytes]) -> None:
    """No `encodings` package: Python's own initialisation fails (a fatal error, exit 1)."""
    for name in [n for n in members if n.startswith("encodings/")]:
        del members[name]


def raising(member: str) -> Callable[[dict[str, bytes]], None]:
    """A module of the library (`member`, its source path) that raises when imported."""

    def change(members: dict[str, bytes]) -> None:
        del members[member + "c"]
        members[member] = b"raise RuntimeError('injected: this module fails')\n"

    change.__name__ = f"{member}_raises"
    return change


# Both of Pyodide's own modules fail inside loadPyodide alike: one of them runs by default.
@pytest.mark.parametrize(
    "failure",
    [engine_import_raises, python_cannot_start, raising("_pyodide/_base.py"),
     pytest.param(raising("pyodide/__init__.py"), marks=pytest.mark.deep)],
    ids=lambda f: f.__name__,
)  # fmt: skip
def test_a_python_failure_while_starting_is_reported_at_once(
    failure: Callable[[dict[str, bytes]], None], browser: Any, site_dir: Path, tmp_path: Path
) -> None:
    """The player reads that the engine could not start (and may reload), not a status line
    that says it is loading until engine.js calls the boot hung."""
    root = tmp_path / "site"
    shutil.copytree(site_dir, root, copy_function=os.link)  # rewrite_site writes new files
    with_library(root, failure)
    with serving(root) as served:
        context = browser.new_context()
        try:
            page = context.new_page()
            started = time.monotonic()
            page.goto(served.url)
            status = page.locator(FAILED)
            status.wait_for(timeout=REPORTED_WITHIN_S * 1000)
            waited = time.monotonic() - started
            text = status.inner_text()
            reload_offered = page.locator(f"{FAILED} button").inner_text()
            detail = boot_failure_detail(page)
        finally:
            context.close()
    assert waited < REPORTED_WITHIN_S, waited
    assert "could not start" in text and "fault in the game" in text, text
    assert reload_offered == "Reload"
    assert failure.__name__ in DETAIL_SAYS, failure
    assert DETAIL_SAYS[failure.__name__] in detail, detail
