"""The boot tests' helpers (e2e/test_boot.py, test_hostile.py, test_integrity.py, test_warm_boot.py,
test_update_packed.py): opening the site and awaiting its engine's boot, what the engine kept, the
caches its origin holds, and sites of their own under the page's policy.

Every promise of the page awaited here is bounded (e2e/waiting.py's `settled`): an engine that
never answers fails the test in ENGINE_MS, saying what it waited for, instead of holding the run.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect
from serving import Served, serving
from waiting import settled

# The longest the engine may take to boot or answer on a loaded machine.
ENGINE_MS = 90_000
ENGINE_S = ENGINE_MS / 1000

# Resolves with the worker's boot timings once the engine answers; rejects with the player-facing
# message when it cannot start (engine.js keeps this promise on window.__engineReady).
BOOT_JS = """async () => {
  const { startEngine } = (await import('./app.js')).modules['engine.js'];
  try {
    return { ok: true, timings: await startEngine() };
  } catch (err) {
    return { ok: false, message: err.message, detail: String(err.detail) };
  }
}"""

# The cache the engine keeps its snapshot in is its own, apart from the service worker's.
SNAPSHOT_CACHE = "wavinghands-snapshot-"
# The engine worker keeps the packed runtime's unpacked bytes apart (web/engine-worker.js,
# UNPACKED_CACHE): like the snapshot, that is not the precache.
ENGINE_CACHES = (SNAPSHOT_CACHE, "wavinghands-unpacked ")

# Every `securitypolicyviolation` in the page, from before its first script runs.
WATCH_VIOLATIONS_JS = """
window.__violations = [];
document.addEventListener('securitypolicyviolation', (e) => {
  const where = `${e.sourceFile}:${e.lineNumber}`;
  window.__violations.push(`${e.violatedDirective} ${e.blockedURI} ${where}`);
});
"""


def boot(page: Any, url: str) -> dict[str, Any]:
    """Open the page and wait (at most ENGINE_MS) for the engine's boot to finish, either way."""
    page.goto(url)
    return boot_finished(page)


def boot_finished(page: Any) -> dict[str, Any]:
    """The open page's engine boot (BOOT_JS), awaited at most ENGINE_MS."""
    result: dict[str, Any] = settled(page, BOOT_JS, timeout_s=ENGINE_S,
                                     what="the engine's boot (startEngine) to finish")  # fmt: skip
    return result


def awaited(page: Any, promise: str) -> Any:
    """What the page's promise `promise` (a JS expression, e.g. "window.__engineReady") settles
    to, awaited at most ENGINE_MS (then the test fails naming it); a rejection raises."""
    return settled(page, f"() => {promise}", timeout_s=ENGINE_S, what=promise)


def kept_snapshot(page: Any) -> dict[str, Any]:
    """What the engine worker did with its snapshot after this boot (engine.js's promise)."""
    result: dict[str, Any] = awaited(page, "window.__engineSnapshot")
    return result


def boot_timings(page: Any) -> dict[str, Any]:
    """The engine's boot timings, or {"failed": message} (engine.js's promise)."""
    result: dict[str, Any] = awaited(
        page, "window.__engineReady.then((t) => t, (e) => ({ failed: e.message }))")
    return result


def boot_failure_detail(page: Any) -> str:
    """The technical detail of the engine's failed boot (engine.js's window.__engineReady,
    rejected), or "ready" if it booted."""
    detail: str = awaited(
        page, "window.__engineReady.then(() => 'ready', (err) => String(err.detail))")
    return detail


def offline_outcome(page: Any) -> str:
    """How sw-register.js's window.__offlineReady settled: "ok" (the service worker installed),
    or "failed: " and why not."""
    outcome: str = awaited(
        page, "window.__offlineReady.then(() => 'ok', (err) => `failed: ${err.message}`)")
    return outcome


def offline_ready(page: Any) -> None:
    """Wait until the service worker is installed (window.__offlineReady); fail if it was not."""
    outcome = offline_outcome(page)
    assert outcome == "ok", f"the service worker did not install: {outcome}"


def compiled_ahead(page: Any) -> str:
    """What sw-register.js's first visit did about compile-ahead.js: "compiled" or "skipped"."""
    said: str = awaited(page, "window.__compiledAhead")
    return said


def wait_for_caches(page: Any, wanted: list[str]) -> None:
    """Wait until the page's origin holds exactly the caches `wanted` (sorted names)."""
    # wait_for_function does not await a promise, so each poll starts a read of the cache
    # names and tests what the previous one found.
    page.wait_for_function(
        """(wanted) => {
            caches.keys().then((keys) => { window.__cacheNames = JSON.stringify(keys.sort()); });
            return window.__cacheNames === JSON.stringify(wanted);
        }""",
        arg=wanted, polling=100, timeout=ENGINE_MS,
    )  # fmt: skip
    assert sorted(page.evaluate("caches.keys()")) == wanted


def served_copy(site_dir: Path, root: Path) -> Iterator[Served]:
    """A copy of the built site at `root` that a test may change, served on a port of its own
    (as $WH_SERVE_PRECOMPRESSED says): a new origin, with no service worker or cache from other
    tests.  For a fixture to yield from."""
    shutil.copytree(site_dir, root)
    with serving(root) as served:
        yield served


# ---------- under the page's policy (e2e/test_integrity.py, test_warm_boot.py) ----------


@pytest.fixture
def strict_context(browser: Any) -> Iterator[Any]:
    """A fresh context that enforces the page's policy and records its violations."""
    ctx = browser.new_context(viewport={"width": 1200, "height": 900}, bypass_csp=False)
    ctx.add_init_script(WATCH_VIOLATIONS_JS)
    yield ctx
    ctx.close()


def copy_site(site_dir: Path, dest: Path, damage: dict[str, bytes] | None = None) -> Path:
    """A copy of the site (hard links, so it is quick) with some files replaced."""
    shutil.copytree(site_dir, dest, copy_function=os.link)
    for rel, data in (damage or {}).items():
        (dest / rel).unlink()  # a new file: the hard link's original stays whole
        (dest / rel).write_bytes(data)
    return dest


def flipped(data: bytes, at: int) -> bytes:
    """`data` with one bit of one byte changed (a letter's case in a comment, for a script)."""
    out = bytearray(data)
    out[at] ^= 0x20
    return bytes(out)


def engine_status(page: Any) -> Any:
    """The page's engine status line (its data-state: loading, ready or error)."""
    return page.get_by_test_id("engine-status")


def ready_page(context: Any, url: str) -> Any:
    """A new page of the site at `url`, once its engine says it is ready."""
    page = context.new_page()
    page.goto(url)
    expect(engine_status(page)).to_have_attribute("data-state", "ready", timeout=ENGINE_MS)
    return page


def violations(page: Any, site: Served) -> list[str]:
    """Every violation seen so far: the page's events and the server's reports."""
    seen: list[str] = page.evaluate("window.__violations")
    return seen + [json.dumps(r, sort_keys=True) for r in site.reports]
