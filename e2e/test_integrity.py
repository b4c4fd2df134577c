"""The site under its own Content-Security-Policy, and damaged files (issue 12, finding 7).

These tests open their contexts with the policy enforced (`bypass_csp=False`; the rest of the
suite bypasses it, see e2e/conftest.py) and so wait with locators only: Playwright polls a
`wait_for_function` predicate by evaluating it in the page, which the policy refuses.  A
violation in the page is caught by an init script (init scripts run before the page's own and
are not subject to its policy); one in the engine worker, which the page's listener cannot see,
reaches the server through the policy's `report-uri` (build.py's server sends it).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from boot_play import (
    ENGINE_MS,
    WATCH_VIOLATIONS_JS,
    boot_timings,
    copy_site,
    engine_status,
    flipped,
    kept_snapshot,
    offline_ready,
    ready_page,
    strict_context,
    violations,
)
from playwright.sync_api import expect
from remote_play import (
    STEP_MS,
    code_to_send,
    invite,
    live_browser,
    needs_route,
    paste,
    write_orders,
)
from serving import Served, serving

# sitebuild/ is at the repository's root, which e2e/conftest.py puts on sys.path.
from sitebuild.common import PYTHON_LIBRARY, sri_sha256
from sitebuild.compress import PACKED, PACKED_SUFFIX, brotli
from sitebuild.integrity import content_security_policy
from waiting import poll

__all__ = ["live_browser", "strict_context"]  # fixtures of remote_play and boot_play

# A damaged file must be named well before this; the boot itself takes a few seconds here.
DAMAGE_MS = 60_000
EXAMPLE_DUEL = Path(__file__).resolve().parent.parent / "docs" / "examples" / "example-duel.json"

@pytest.fixture
def site(site_dir: Path) -> Iterator[Served]:
    """The built site on its own port, served by a server that keeps the policy reports it
    gets."""
    with serving(site_dir) as served:
        yield served


def play_first_turn(page: Any) -> None:
    """Start a hot-seat duel and seal both wizards' orders for turn 1, through the page."""
    page.fill("[data-testid=name-0]", "Ann")
    page.fill("[data-testid=name-1]", "Bo")
    page.check("[data-testid=mode-hotseat]")
    page.click("[data-testid=start-game]")
    for wizard in (0, 1):
        page.click("[data-testid=pass-ready]", timeout=ENGINE_MS)
        orders = page.locator(f"[data-testid=orders-screen][data-wizard='{wizard}'][data-turn='1']")
        expect(orders).to_be_visible(timeout=ENGINE_MS)
        page.check("[data-testid=gesture-0-L-P]")
        page.check("[data-testid=gesture-0-R-W]")
        expect(page.locator("[data-testid=preview]")).to_have_attribute(
            "aria-busy", "false", timeout=ENGINE_MS
        )
        page.click("[data-testid=submit-orders]")
        expect(orders).to_have_count(0, timeout=ENGINE_MS)
    # Turn 2 opens on the next wizard's orders, behind a pass screen or not.
    turn_two = page.locator("[data-testid=orders-screen][data-turn='2']")
    pass_screen = page.get_by_test_id("pass-screen")
    expect(turn_two.or_(pass_screen)).to_be_visible(timeout=ENGINE_MS)
    if pass_screen.count():
        page.click("[data-testid=pass-ready]")
    expect(turn_two).to_be_visible(timeout=ENGINE_MS)


def test_the_page_boots_plays_exports_and_imports_under_its_policy(
    strict_context: Any, site: Served, tmp_path: Path
) -> None:
    page = ready_page(strict_context, site.url)
    assert boot_timings(page)["path"] == "fresh"
    play_first_turn(page)
    # Export the unfinished duel from the saved list, then import the file it downloads.
    page.click("[data-testid=leave-duel]")
    saved = page.locator("[data-testid=saved-games] [data-testid^=export-]")
    saved.first.click()
    text = page.get_by_test_id("export-text")
    expect(text).to_have_value(re.compile("wavinghands-record"), timeout=ENGINE_MS)
    with page.expect_download() as download:
        page.click("[data-testid=export-download]")
    record = tmp_path / "record.json"
    download.value.save_as(str(record))
    assert "wavinghands-record" in record.read_text()
    page.click("[data-testid=export-close]")
    page.click("[data-testid=import-record]")
    page.set_input_files("[data-testid=import-file]", str(record))
    expect(page.get_by_test_id("import-text")).to_have_value(re.compile("wavinghands-record"))
    page.click("[data-testid=import-submit]")
    imported = page.locator("[data-testid=pass-screen], [data-testid=orders-screen]")
    expect(imported.first).to_be_visible(timeout=ENGINE_MS)
    # A finished duel's record replays in the viewer.
    assert kept_snapshot(page)["state"] == "stored"
    page.goto(site.url)  # a second visit: it resumes the duel, the way home is one click
    # Its engine restores the snapshot the first visit kept, under the policy too.
    expect(engine_status(page)).to_have_attribute("data-state", "ready", timeout=ENGINE_MS)
    assert boot_timings(page)["path"] == "snapshot"
    page.get_by_role("button", name="Back to the start screen").click()
    page.click("[data-testid=import-record]")
    page.set_input_files("[data-testid=import-file]", str(EXAMPLE_DUEL))
    expect(page.get_by_test_id("import-text")).to_have_value(re.compile("wavinghands-record"))
    page.click("[data-testid=import-submit]")
    page.click("[data-testid=replay-last]", timeout=ENGINE_MS)
    expect(page.get_by_test_id("replay-result")).to_be_visible(timeout=ENGINE_MS)
    assert violations(page, site) == []


@pytest.mark.deep
def test_the_boot_from_the_kept_snapshot_runs_under_the_policy(
    strict_context: Any, site: Served
) -> None:
    """The first visit's worker snapshots its interpreter and keeps it; the next visit restores
    it: both under the policy."""
    page = ready_page(strict_context, site.url)
    status = engine_status(page)
    assert kept_snapshot(page)["state"] == "stored"
    page.reload()
    expect(status).to_have_attribute("data-state", "ready", timeout=ENGINE_MS)
    assert boot_timings(page)["path"] == "snapshot"
    page.check("[data-testid=mode-hotseat]")
    page.click("[data-testid=start-game]")
    page.click("[data-testid=pass-ready]", timeout=ENGINE_MS)
    expect(page.get_by_test_id("orders-screen")).to_be_visible(timeout=ENGINE_MS)
    assert violations(page, site) == []


def test_the_worker_is_under_the_policy_and_its_violations_are_reported(
    strict_context: Any, site: Served
) -> None:
    """The check above would miss a violation in the worker if its reports never arrived.

    The engine worker is under its policy from its first moment (engine-start.js starts it at
    the top of the page; its policy is its script's header), so its engine need not start here:
    the wasm is held back, and nothing is compiled or booted meanwhile."""
    page = strict_context.new_page()
    held: list[Any] = []
    page.route("**/pyodide.asm.wasm*", lambda route: held.append(route))
    with page.expect_worker(lambda w: w.url.endswith("/engine-worker.js"), timeout=ENGINE_MS) as w:
        page.goto(site.url)
    worker = w.value
    refused = worker.evaluate(  # another origin (nothing listens there)
        "fetch('http://127.0.0.2:9/').then(() => 'fetched', (e) => 'refused: ' + e.message)"
    )
    assert refused.startswith("refused"), refused
    # The browser sends the report on its own time: bounded generously, it ends when it comes.
    assert site.reported.wait(timeout=ENGINE_MS / 1000), "no report of the refused fetch came"
    assert [r["violated-directive"] for r in site.reports] == ["connect-src"], site.reports
    assert page.evaluate("window.__violations") == [], "the page itself broke no rule"


def test_frame_ancestors_and_the_policy_are_sent_as_a_header(site: Served, page: Any) -> None:
    response = page.request.get(site.url)
    header = response.headers["content-security-policy"]
    assert "frame-ancestors 'none'" in header
    assert content_security_policy() in header
    html = response.text()
    meta = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', html)
    assert meta and meta[1] == content_security_policy(meta=True)
    assert "frame-ancestors" not in meta[1] and "'unsafe-eval'" not in header
    assert "<script>" not in html and " style=" not in html


# Each damaged file: (site path, where to flip a bit: an offset, None for the middle, or bytes
# whose last byte to flip).  Scripts are damaged inside their leading comment, so they still
# parse: only integrity can tell.  The wasm is damaged in a string its Python reads first (the
# name of the `encodings` module), so that it still compiles and would run.  A packed
# file (the wasm, the library) is damaged in both its forms, its packed one packed again from
# the damaged file, so that the host sends the damage whichever it sends.
DAMAGED: dict[str, int | bytes | None] = {
    "app.js": 3,
    "site-integrity.js": 3,
    "engine-worker.js": 3,
    "pyodide/pyodide.asm.wasm": b"\0encodings\0",
    PYTHON_LIBRARY: None,
}


def damaged_copy(site_dir: Path, path: str, at: int | bytes | None) -> dict[str, bytes]:
    """The files to replace in a copy of the site for one flipped bit in `path` (see DAMAGED),
    its packed form included."""
    original = (site_dir / path).read_bytes()
    if isinstance(at, bytes):
        at = original.index(at) + len(at) - 2  # the last letter between the zero bytes
    damaged = flipped(original, len(original) // 2 if at is None else at)
    damage = {path: damaged}
    if path in PACKED:
        # Packed quickly: only the bytes it unpacks to matter here.
        damage[path + PACKED_SUFFIX] = brotli(damaged, quality=5)
    return damage


# app.js and site-integrity.js are two of the page's modules index.html lists with their
# integrity: boot-guard.js names either alike, so site-integrity.js's case runs under WH_DEEP.
@pytest.mark.parametrize(
    "path",
    [pytest.param(p, marks=pytest.mark.deep) if p == "site-integrity.js" else p for p in DAMAGED],
)
def test_a_damaged_file_is_named_not_waited_on(
    path: str, strict_context: Any, site_dir: Path, tmp_path: Path
) -> None:
    at = DAMAGED[path]
    if isinstance(at, int):
        assert (site_dir / path).read_bytes()[:2] == b"//", f"{path} should start with a comment"
    damage = damaged_copy(site_dir, path, at)
    with serving(copy_site(site_dir, tmp_path / "site", damage)) as served:
        page = strict_context.new_page()
        printed: list[str] = []
        page.on("console", lambda message: printed.append(message.text))
        page.goto(served.url)
        status = engine_status(page)
        expect(status).to_have_attribute("data-state", "error", timeout=DAMAGE_MS)
        expect(status).to_contain_text(f'"{path}"')
        expect(status).to_contain_text("damaged")
        expect(status).not_to_contain_text("Preparing the spellbook")
        expect(status.get_by_role("button", name="Reload")).to_be_visible()
        if path in ("app.js", "site-integrity.js"):
            # The damaged module never ran: the app did not start.
            assert page.evaluate("window.__appReady === undefined")
        if path == "pyodide/pyodide.asm.wasm":
            # Nothing of the damaged wasm ran: it was never instantiated, so Python never
            # started (it used to, and died on an "encodingz" module before the check named
            # the file).
            assert not [line for line in printed if "Python" in line], printed
        assert violations(page, served) == []


@pytest.mark.parametrize("precompressed", [False, True])
def test_a_packed_file_that_does_not_unpack_is_named(
    precompressed: bool, strict_context: Any, site_dir: Path, tmp_path: Path
) -> None:
    """One flipped bit in the packed library (the file itself is whole): the decoder refuses it
    or it unpacks to other bytes; either way the file is named.  Where the host sends it as the
    library's `.br` sibling, the browser fails to decode it like a dropped connection: the
    worker asks for it packed and its decoder names it."""
    packed = PYTHON_LIBRARY + PACKED_SUFFIX
    original = (site_dir / packed).read_bytes()
    damage = {packed: flipped(original, len(original) // 2)}
    root = copy_site(site_dir, tmp_path / "site", damage)
    with serving(root, precompressed=precompressed) as served:
        page = strict_context.new_page()
        page.goto(served.url)
        status = engine_status(page)
        expect(status).to_have_attribute("data-state", "error", timeout=DAMAGE_MS)
        expect(status).to_contain_text(f'"{PYTHON_LIBRARY}"')
        expect(status).to_contain_text("damaged")


# Damage one file's copy in the service worker's cache (one bit; a script's in its comment).
DAMAGE_CACHED_JS = """async ([path, at]) => {
  const url = new URL(path, location.href).href;
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    const hit = await cache.match(url);
    if (!hit) continue;
    const bytes = new Uint8Array(await hit.arrayBuffer());
    bytes[at === null ? bytes.length >> 1 : at] ^= 0x20;
    await cache.put(url, new Response(bytes, { headers: hit.headers }));
    return true;
  }
  return false;
}"""


# The integrity of the service worker's copy of a file (null if it holds none).
CACHED_INTEGRITY_JS = """async (path) => {
  const hit = await caches.match(new URL(path, location.href).href);
  if (!hit) return null;
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', await hit.arrayBuffer()));
  return 'sha256-' + btoa(String.fromCharCode(...digest));
}"""


# The engine worker checks the wasm and the library alike (web/worker-files.js): the wasm's
# case runs by default, the library's under WH_DEEP; the page's own scripts are boot-guard.js's.
@pytest.mark.parametrize(
    "path",
    ["app.js", "pyodide/pyodide.asm.wasm", pytest.param(PYTHON_LIBRARY, marks=pytest.mark.deep)],
)
def test_a_damaged_cached_copy_is_named_dropped_and_fetched_again(
    path: str, strict_context: Any, site: Served
) -> None:
    """A second visit reads every file from the service worker's cache (and restores the kept
    snapshot): a damaged copy there is named all the same."""
    page = ready_page(strict_context, site.url)
    status = engine_status(page)
    offline_ready(page)  # the service worker holds every file now
    assert kept_snapshot(page)["state"] == "stored"
    assert page.evaluate(DAMAGE_CACHED_JS, [path, 3 if path.endswith(".js") else None])
    page.reload()
    expect(status).to_have_attribute("data-state", "error", timeout=DAMAGE_MS)
    expect(status).to_contain_text(f'"{path}"')
    # The damaged copy is gone from the cache: the next visit fetches it and plays, and the
    # service worker keeps the good copy again (offline play needs it).
    page.reload()
    expect(status).to_have_attribute("data-state", "ready", timeout=ENGINE_MS)
    # The service worker puts the good copy back in the background, on that navigation: poll
    # its cache (wait_for_function would not await the read, see e2e/waiting.py).
    whole = sri_sha256((site.root / path).read_bytes())
    poll(
        lambda: page.evaluate(CACHED_INTEGRITY_JS, path),
        lambda cached: cached == whole,
        timeout_s=ENGINE_MS / 1000,
        what=f"the service worker's cache to hold a whole {path} again",
    )
    assert violations(page, site) == []


@needs_route
def test_two_pages_go_live_under_the_policy(live_browser: Any, site: Served) -> None:
    """The invitation carries the offer, the guest's turn-1 code the answer; then the host's
    turn-1 code travels over the data channel and both pages reach turn 2, with no violation."""
    contexts = [
        live_browser.new_context(viewport={"width": 1200, "height": 900}, bypass_csp=False)
        for _ in (0, 1)
    ]
    try:
        host, guest = (ctx.new_page() for ctx in contexts)
        for ctx in contexts:
            ctx.add_init_script(WATCH_VIOLATIONS_JS)
        for page in (host, guest):
            page.goto(site.url)
            expect(page.get_by_test_id("engine-status")).to_have_attribute(
                "data-state", "ready", timeout=ENGINE_MS
            )
        invite(host, guest, "live")
        write_orders(guest)
        guest_screen = guest.get_by_test_id("remote-screen")
        expect(guest_screen).not_to_have_attribute("data-state", "your_input", timeout=STEP_MS)
        guest.wait_for_selector("[data-testid=live-bundled]", timeout=STEP_MS)
        paste(host, code_to_send(guest))
        for page in (host, guest):
            page.wait_for_selector("[data-testid=live-panel][data-status=connected]",
                                   timeout=STEP_MS)  # fmt: skip
        host_screen = host.get_by_test_id("remote-screen")
        expect(host_screen).to_have_attribute("data-state", "your_input", timeout=STEP_MS)
        write_orders(host)  # its code goes over the channel: nothing is carried by hand
        for screen in (host_screen, guest_screen):
            expect(screen).to_have_attribute("data-turn", "2", timeout=STEP_MS)
        assert violations(host, site) == [] and violations(guest, site) == []
    finally:
        for ctx in contexts:
            ctx.close()
