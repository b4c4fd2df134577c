"""The first visit prepares the next (docs/build.md, "Offline" and "A first visit", ninth round).

Once the service worker a first visit installed controls the page, sw-register.js checks
compile-ahead.js and the engine worker's scripts it imports against site-integrity.js and runs it
once in a short-lived worker, so that Chromium keeps V8's code cache beside their copies in the
service worker's cache; the next visit's engine boot then compiles none of them.  These tests
run under the page's policy (see e2e/test_integrity.py; both take their helpers from
e2e/boot_play.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from boot_play import (
    ENGINE_CACHES,
    ENGINE_MS,
    boot_timings,
    compiled_ahead,
    copy_site,
    flipped,
    kept_snapshot,
    offline_outcome,
    offline_ready,
    ready_page,
    strict_context,
    violations,
)
from serving import serving
from waiting import poll

__all__ = ["strict_context"]  # boot_play's fixture, these tests' context

AHEAD = "compile-ahead.js"


def workers_seen(context: Any) -> dict[str, list[Any]]:
    """Every worker the context's pages start from now on, by file name: {"started", "closed"}."""
    seen: dict[str, list[Any]] = {"started": [], "closed": []}

    def started(worker: Any) -> None:
        seen["started"].append(worker.url.rsplit("/", 1)[-1])
        worker.on("close", lambda w: seen["closed"].append(w.url.rsplit("/", 1)[-1]))

    context.on("page", lambda page: page.on("worker", started))
    return seen


def test_a_first_visit_compiles_the_engine_scripts_ahead_once(
    strict_context: Any, site_dir: Path
) -> None:
    """The first visit runs compile-ahead.js once its service worker controls the page and
    ends it; the next visit, answered by that service worker, restores the kept snapshot and
    compiles nothing ahead."""
    seen = workers_seen(strict_context)
    with serving(site_dir) as site:
        page = ready_page(strict_context, site.url)
        offline_ready(page)
        assert compiled_ahead(page) == "compiled"
        assert seen["started"].count(AHEAD) == 1, seen
        # Ended, not left running (the pauses let Playwright deliver the worker's "close").
        poll(lambda: list(seen["closed"]), lambda closed: AHEAD in closed,
             timeout_s=ENGINE_MS / 1000, what=f"the worker running {AHEAD} to end",
             pause=lambda s: page.wait_for_timeout(s * 1000))
        assert kept_snapshot(page)["state"] == "stored"
        page.reload()
        assert boot_timings(page)["path"] == "snapshot"
        assert compiled_ahead(page) == "skipped"
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
        refused = offline_outcome(page)
        assert refused == "failed: the offline copy could not be saved", refused
        # The failed install left no cache holding the files it did get (the engine's own
        # caches are not the precache): e2e/test_hostile.py's first test, by another file.
        names = page.evaluate("caches.keys()")
        assert [n for n in names if not n.startswith(ENGINE_CACHES)] == [], names
        assert compiled_ahead(page) == "skipped"
        assert AHEAD not in seen["started"], seen
        assert violations(page, site) == []
