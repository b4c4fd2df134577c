"""The first visit prepares the next (docs/build.md, "Offline" and "A first visit", ninth round).

Once the service worker a first visit installed controls the page, sw-register.js checks
compile-ahead.js and the engine worker's scripts it imports against site-integrity.js and runs it
once in a short-lived worker, so that Chromium keeps V8's code cache beside their copies in the
service worker's cache; the next visit's engine boot then compiles none of them.  These tests
run under the page's policy (see e2e/test_integrity.py, whose helpers they share).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from serving import serving
from test_hostile import ENGINE_CACHES
from test_integrity import (
    ENGINE_MS,
    WATCH_VIOLATIONS_JS,
    boot_timings,
    copy_site,
    flipped,
    ready_page,
    violations,
)

AHEAD = "compile-ahead.js"


@pytest.fixture
def strict_context(browser: Any) -> Iterator[Any]:
    """A fresh context that enforces the page's policy and records its violations."""
    ctx = browser.new_context(viewport={"width": 1200, "height": 900}, bypass_csp=False)
    ctx.add_init_script(WATCH_VIOLATIONS_JS)
    yield ctx
    ctx.close()


def workers_seen(context: Any) -> dict[str, list[Any]]:
    """Every worker the context's pages start from now on, by file name: {"started", "closed"}."""
    seen: dict[str, list[Any]] = {"started": [], "closed": []}

    def started(worker: Any) -> None:
        seen["started"].append(worker.url.rsplit("/", 1)[-1])
        worker.on("close", lambda w: seen["closed"].append(w.url.rsplit("/", 1)[-1]))

    context.on("page", lambda page: page.on("worker", started))
    return seen


def wait_until(condition: Callable[[], bool], page: Any, timeout_ms: int) -> None:
    """Wait (bounded) until `condition()` holds, letting Playwright deliver its events."""
    deadline = time.monotonic() + timeout_ms / 1000
    while not condition():
        assert time.monotonic() < deadline, "condition not met in time"
        page.wait_for_timeout(50)


def test_a_first_visit_compiles_the_engine_scripts_ahead_once(
    strict_context: Any, site_dir: Path
) -> None:
    """The first visit runs compile-ahead.js once its service worker controls the page and
    ends it; the next visit, answered by that service worker, restores the kept snapshot and
    compiles nothing ahead."""
    seen = workers_seen(strict_context)
    with serving(site_dir) as site:
        page = ready_page(strict_context, site.url)
        page.evaluate("window.__offlineReady")
        assert page.evaluate("window.__compiledAhead") == "compiled"
        assert seen["started"].count(AHEAD) == 1, seen
        wait_until(lambda: AHEAD in seen["closed"], page, ENGINE_MS)  # ended, not left running
        assert page.evaluate("window.__engineSnapshot")["state"] == "stored"
        page.reload()
        assert boot_timings(page)["path"] == "snapshot"
        assert page.evaluate("window.__compiledAhead") == "skipped"
        assert seen["started"].count(AHEAD) == 1, seen
        assert violations(page, site) == []


def test_a_damaged_script_is_never_compiled_ahead(
    strict_context: Any, site_dir: Path, tmp_path: Path
) -> None:
    """A site whose compile-ahead.js does not match its integrity: the service worker's install
    refuses it (as any damaged file) and leaves no partial cache, so nothing is compiled ahead
    and no worker is started for it; the engine, which does not need it, plays on."""
    original = (site_dir / AHEAD).read_bytes()
    assert original[:2] == b"//"
    seen = workers_seen(strict_context)
    with serving(copy_site(site_dir, tmp_path / "site", {AHEAD: flipped(original, 3)})) as site:
        page = ready_page(strict_context, site.url)
        assert boot_timings(page)["path"] == "fresh"
        refused = page.evaluate("window.__offlineReady.then(() => 'installed', (e) => e.message)")
        assert refused == "the offline copy could not be saved", refused
        # The failed install left no cache holding the files it did get (the engine's own
        # caches are not the precache): e2e/test_hostile.py's first test, by another file.
        names = page.evaluate("caches.keys()")
        assert [n for n in names if not n.startswith(ENGINE_CACHES)] == [], names
        assert page.evaluate("window.__compiledAhead") == "skipped"
        assert AHEAD not in seen["started"], seen
        assert violations(page, site) == []
