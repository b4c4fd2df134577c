"""The built site in Chromium: the engine boots in its worker, answers, and survives going offline.

These tests talk to the engine through web/engine.js (imported into the page), so they check
the runtime plumbing (worker, Python library, the snapshot the page keeps, service worker,
integrity checks) whatever the interface looks like.

A first visit boots Pyodide from the site's Python library and downloads no snapshot; once the
engine is up the worker snapshots its interpreter and keeps it in Cache Storage, and the next
visit restores that (docs/build.md, "Boot").
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from boot_play import (
    ENGINE_MS,
    ENGINE_S,
    awaited,
    boot,
    boot_finished,
    kept_snapshot,
    offline_ready,
    served_copy,
    wait_for_caches,
)
from conftest import CHROMIUM, CHROMIUM_ARGS
from serving import LIBRARY_EITHER_NAME, Served, boot_name, rewrite_site, serving

# sitebuild/ is at the repository's root, which e2e/conftest.py puts on sys.path.
from sitebuild.boot import SNAPSHOT_INPUTS, engine_id
from sitebuild.common import PYTHON_LIBRARY
from sitebuild.compress import PACKED_SUFFIX
from sitebuild.pins import MICROPIP_REQUIREMENT
from sitebuild.serve import SiteHandler
from sitebuild.serviceworker import service_worker
from waiting import settled

# A test that watches the boot itself from a first visit on, or routes the engine's files, has a
# fresh context (marked so); one that needs only an engine that answers has a kept one, which
# restores its snapshot (e2e/conftest.py, kept_context).
first_visit = pytest.mark.first_visit
# Run only under WH_DEEP=1: docs/test-tiers.md names the default tests that catch the same bugs.
deep = pytest.mark.deep

CALL_JS = """async ([fn, args]) => {
  const { call } = (await import('./app.js')).modules['engine.js'];
  try {
    return { value: await call(fn, ...args) };
  } catch (err) {
    return { thrown: err.message };
  }
}"""


def build_info(site: Path) -> dict[str, Any]:
    """The BUILD object of a built site's engine-build.js."""
    text = (site / "engine-build.js").read_text()
    info: dict[str, Any] = json.loads(text.split("export const BUILD = ", 1)[1].rstrip()[:-1])
    return info


def snapshot_cache(site: Path, url: str) -> str:
    """The name of the cache the engine worker keeps the snapshot of `site`'s engine in."""
    return f"wavinghands-snapshot-{build_info(site)['engineId']} {url}"


def call(page: Any, fn: str, *args: str) -> dict[str, Any]:
    """Call the engine from the page: {"value": result} or {"thrown": message}."""
    result: dict[str, Any] = settled(page, CALL_JS, [fn, list(args)], timeout_s=ENGINE_S,
                                      what=f"the engine's answer to {fn}")
    return result


def assert_a_first_visit(
    page: Any, result: dict[str, Any], requested: list[str], site_dir: Path, server_url: str
) -> None:
    """What a first visit's boot (`result`; `requested`: the URLs the page and its worker asked
    for) did: Python started afresh from the Python library, and the engine kept a snapshot."""
    assert result["ok"], result
    timings = result["timings"]
    assert timings["path"] == "fresh", timings
    assert page.evaluate("performance.getEntriesByName('engine-ready').length") == 1
    kept = kept_snapshot(page)
    assert kept["state"] == "stored" and kept["detail"]["bytes"] > 10_000_000, kept
    assert snapshot_cache(site_dir, server_url) in page.evaluate("caches.keys()")
    # Nothing but the Python library stands in for the stdlib; no snapshot, no wheel is fetched.
    # The library and the wasm travel packed (sitebuild/compress.py): asked for packed, with the
    # decoder's wasm, or by name from a server that sends their siblings (the same bytes).
    names = {url.rsplit("/", 1)[1] for url in requested}
    own = {"python_lib.zip", "pyodide.asm.wasm"}
    packed = {name + PACKED_SUFFIX for name in own} | {"brotli-dec.wasm.gz"}
    expected = packed if boot_name(PYTHON_LIBRARY).endswith(PACKED_SUFFIX) else own
    assert expected <= names, requested
    assert not names & ((own | packed) - expected), requested
    # Each travels once (test_the_packed_files_travel_packed_on_either_kind_of_host counts them
    # on a server of each kind).
    asked = [url.rsplit("/", 1)[1].split("?")[0] for url in requested]
    assert [asked.count(name) for name in sorted(expected)] == [1] * len(expected), requested
    unwanted = (".zst", ".whl", "python_stdlib.zip", "snapshot")
    assert not [u for u in requested if u.endswith(unwanted)], requested


# e2e/test_boot.py's test_site_works_offline_after_first_visit checks the same first visit.
@deep
@first_visit
def test_a_first_visit_boots_without_a_snapshot_and_keeps_one(
    page: Any, server_url: str, site_dir: Path, shot: Callable[..., Path]
) -> None:
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    result = boot(page, server_url)
    assert_a_first_visit(page, result, requested, site_dir, server_url)
    shot(page, "boot-ready")


@deep
@first_visit
def test_the_next_visit_restores_the_kept_snapshot(page: Any, server_url: str) -> None:
    assert boot(page, server_url)["ok"]
    assert kept_snapshot(page)["state"] == "stored"
    again = boot(page, server_url)
    assert again["ok"], again
    assert again["timings"]["path"] == "snapshot", again
    assert "snapshotDropped" not in again["timings"], again
    assert kept_snapshot(page)["state"] == "restored"
    assert call(page, "spells")["value"]["ok"] is True


# How the browser answered each of the site's files the page read: PerformanceResourceTiming's
# workerFinalSourceType is "cache" for a static route of sw.js, "fetch-event" for its fetch handler.
SOURCES_JS = """() => Object.fromEntries(performance.getEntriesByType('resource')
  .filter((r) => r.name.startsWith(location.origin))
  .map((r) => [new URL(r.name).pathname.slice(1), r.workerFinalSourceType ?? null]))"""


def assert_a_later_visit(page: Any) -> None:
    """What a later visit's boot (the page booted again, its service worker installed) did:
    engine.js took over the engine worker engine-start.js started (no second worker), the
    service worker's static routes answered the page's files from its cache."""
    assert page.evaluate("window.__engineLaunch.taken") is True
    assert page.evaluate("window.__engineLaunch.take()") is None  # handed over once only
    assert len(page.workers) == 1
    sources = page.evaluate(SOURCES_JS)
    for path in ("engine-start.js", "app.js", "site-integrity.js", "style.css"):
        assert sources.get(path) == "cache", (path, sources)
    assert call(page, "spells")["value"]["ok"] is True


# e2e/test_boot.py's test_site_works_offline_after_first_visit checks the same of its later
# visits (offline).
@deep
@first_visit
def test_a_later_visit_starts_the_engine_first_and_reads_the_site_by_static_routes(
    page: Any, server_url: str
) -> None:
    """engine-start.js starts the engine worker from the top of index.html and engine.js takes
    that one over (no second worker); the service worker's static routes answer the page's
    files from its cache, and the visit restores the kept snapshot (docs/build.md, "Offline")."""
    assert boot(page, server_url)["ok"]
    offline_ready(page)
    assert kept_snapshot(page)["state"] == "stored"
    page.reload()
    again: dict[str, Any] = boot_finished(page)
    assert again["ok"] and again["timings"]["path"] == "snapshot", again
    assert_a_later_visit(page)


# engine.js taking over a worker engine-start.js started (a stand-in here, so the order is
# certain): what it said before the takeover reaches the page first, in order, then what follows.
TAKEOVER_JS = """async () => {
  const worker = { postMessage() {}, terminate() {} };
  const events = [
    { type: 'message', data: { type: 'progress', stage: 'download', fraction: 0.25 } },
    { type: 'message', data: { type: 'reference', json: '{"early": true}' } },
  ];
  window.__engineLaunch = { take: () => ({ worker, events }) };
  const engine = await import('./engine.js?takeover');  // a fresh copy of the module
  const seen = [];
  engine.startEngine((stage, fraction) => seen.push([stage, fraction])).catch(() => {});
  const reference = await engine.recordedReference();
  const later = { type: 'progress', stage: 'engine', fraction: 0.85 };
  worker.onmessage({ type: 'message', data: later });
  return { seen, reference };
}"""


def test_engine_js_takes_over_the_early_worker_with_what_it_said_meanwhile(
    page: Any, server_url: str
) -> None:
    assert boot(page, server_url)["ok"]
    taken = settled(page, TAKEOVER_JS, timeout_s=ENGINE_S,
                    what="the taken-over worker's recorded reference")
    assert taken["reference"] == {"early": True}, taken
    assert taken["seen"] == [["waiting", 0], ["download", 0.25], ["engine", 0.85]], taken


# Replace the kept snapshot's bytes (`how`: "truncated" keeps half of them, "garbage" as many
# zero bytes as there were, "padded" adds a page of them), as a write cut short or a damaged
# disk would leave them.
BREAK_SNAPSHOT_JS = """async ([name, how]) => {
  const cache = await caches.open(name);
  const key = (await cache.keys())[0];
  const kept = await cache.match(key);
  const bytes = new Uint8Array(await kept.arrayBuffer());
  const broken = {
    truncated: bytes.slice(0, bytes.length >> 1),
    garbage: new Uint8Array(bytes.length),
    padded: new Uint8Array(bytes.length + 4096),
  }[how];
  if (how === 'padded') broken.set(bytes);
  await cache.put(key, new Response(broken, { headers: kept.headers }));
  return broken.length;
}"""


# The three break the same way for the worker (web/snapshot-store.js refuses a body longer or
# shorter than its bitmap says: tests/js/snapshot-store.test.mjs); one runs by default.  In a
# kept context (its first boot restores the snapshot the context kept, where a first visit would
# start Python to make one): the test leaves it a whole snapshot again, as it checks.
@pytest.mark.parametrize(
    "how", ["truncated", pytest.param("garbage", marks=deep), pytest.param("padded", marks=deep)]
)
def test_a_broken_kept_snapshot_is_dropped_and_the_page_boots_anyway(
    how: str, page: Any, server_url: str, site_dir: Path
) -> None:
    assert boot(page, server_url)["ok"]
    assert kept_snapshot(page)["state"] in ("stored", "restored")
    assert page.evaluate(BREAK_SNAPSHOT_JS, [snapshot_cache(site_dir, server_url), how]) > 0
    again = boot(page, server_url)
    assert again["ok"], again
    assert again["timings"]["path"] == "fresh", again
    assert again["timings"]["snapshotDropped"], again
    assert call(page, "spells")["value"]["ok"] is True
    # A whole one replaces it, and the visit after restores that.
    assert kept_snapshot(page)["state"] == "stored"
    third = boot(page, server_url)
    assert third["ok"] and third["timings"]["path"] == "snapshot", third


def test_engine_call_round_trip(page: Any, server_url: str) -> None:
    assert boot(page, server_url)["ok"]
    spells = call(page, "spells")["value"]
    assert spells["ok"] is True
    assert len(spells["spells"]) > 30
    # An engine error is a value, never a rejection.
    bad = call(page, "new_game", "not json")
    assert "value" in bad and bad["value"]["ok"] is False, bad
    assert set(bad["value"]["error"]) >= {"code", "message"}
    # A call the engine does not have is the caller's bug: that one rejects.
    assert "not an engine function" in call(page, "__class__")["thrown"]
    assert "not an engine function" in call(page, "no_such_function")["thrown"]


def test_site_works_offline_after_first_visit(
    context: Any, page: Any, server_url: str, site_dir: Path, shot: Callable[..., Path]
) -> None:
    """A first visit (what it fetches, the snapshot it keeps, a whole duel in the interpreter it
    started), then later visits offline: each restores the kept snapshot from the files the
    service worker's static routes answer, in the engine worker engine-start.js started.  One
    first visit for what the deep tests test_a_first_visit_boots_without_a_snapshot_and_keeps_one,
    test_the_python_library_holds_what_a_duel_needs[fresh] and (online)
    test_a_later_visit_starts_the_engine_first_and_reads_the_site_by_static_routes check
    on first visits of their own."""
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    page.add_init_script(WATCH_STATUS_JS)
    first = boot(page, server_url)
    assert_a_first_visit(page, first, list(requested), site_dir, server_url)
    assert_the_library_plays_a_duel(page, requested)
    page.wait_for_function("window.__offlineReady", timeout=ENGINE_MS)
    offline_ready(page)  # fails if the service worker failed to install
    assert kept_snapshot(page)["state"] == "stored"
    context.set_offline(True)
    try:
        again = boot(page, server_url)
        assert again["ok"], again
        # The second boot restores the kept snapshot, its files from the service worker's cache.
        assert again["timings"]["path"] == "snapshot", again
        spells = call(page, "spells")["value"]
        assert spells["ok"] is True
        assert_a_later_visit(page)
        # A link into the game with a query (e.g. a turn code) opens offline too.
        assert boot(page, server_url + "?code=abc")["ok"]
        shot(page, "boot-offline")
    finally:
        context.set_offline(False)


def test_mime_types(page: Any, server_url: str) -> None:
    expected = {
        "pyodide/pyodide.asm.wasm": "application/wasm",
        "pyodide/pyodide.mjs": "text/javascript",
        "pyodide/pyodide.asm.mjs": "text/javascript",
        "engine-worker.js": "text/javascript",
        "index.html": "text/html",
        "pyodide/pyodide-lock.json": "application/json",
    }
    for path, mime in expected.items():
        response = page.request.get(server_url + path)
        assert response.ok, path
        assert response.headers["content-type"].split(";")[0] == mime, path


# e2e/test_integrity.py names a damaged library (both of its forms) by default.
@deep
@first_visit
def test_a_damaged_python_library_is_reported_in_plain_words(
    page: Any, server_url: str, site_dir: Path, shot: Callable[..., Path]
) -> None:
    # The library travels packed (sitebuild/compress.py): its packed form arrives damaged, by
    # either name (a server that sends siblings is asked by its own name first; a reply without
    # Content-Encoding: br has the worker ask for the packed name).
    library = site_dir / (PYTHON_LIBRARY + PACKED_SUFFIX)
    damaged = bytearray(library.read_bytes())
    damaged[len(damaged) // 2] ^= 0xFF
    page.route(LIBRARY_EITHER_NAME, lambda route: route.fulfill(status=200, body=bytes(damaged)))
    result = boot(page, server_url)
    assert not result["ok"]
    assert "damaged" in result["message"] and PYTHON_LIBRARY in result["message"], result
    shot(page, "boot-damaged")


MICROPIP_JS = """async ([wheelUrl]) => {
  const { loadPyodide } = await import('./pyodide/pyodide.mjs');
  const pyodide = await loadPyodide({ indexURL: new URL('./pyodide/', location).href });
  const errors = [];
  await pyodide.loadPackage('micropip', { errorCallback: (m) => errors.push(m) });
  if (!pyodide.loadedPackages.micropip) return { errors };
  pyodide.globals.set('WHEEL', new URL(wheelUrl, location).href);
  const spells = await pyodide.runPythonAsync(`
import micropip
await micropip.install(WHEEL)
import wavinghands.api
wavinghands.api.spells()
`);
  return { errors, spells: JSON.parse(spells).ok, channel: pyodide.loadedPackages.micropip };
}"""


# A same-origin page with no script: the micropip tests load their own Pyodide into it.  On the
# site's own page the engine worker boots a second Pyodide in the same renderer at the same time
# (two wasm heaps, two interpreters starting at once), which is what once made this test's
# renderer die ("Target crashed") on a loaded CI machine.
BLANK_PAGE = "micropip-probe.html"


def open_blank_page(page: Any, server_url: str) -> None:
    """Open an empty page of the site's origin: no app, so no engine worker beside our Pyodide."""
    page.route(
        f"**/{BLANK_PAGE}",
        lambda route: route.fulfill(
            status=200, content_type="text/html", body="<!doctype html><title>probe</title>"
        ),
    )
    page.goto(server_url + BLANK_PAGE)


@deep
@first_visit
def test_micropip_loads_from_the_lock_and_installs_the_engine(
    page: Any, server_url: str, site_dir: Path
) -> None:
    """The site's lock file lets Pyodide load micropip offline, integrity-checked."""
    lock = json.loads((site_dir / "pyodide" / "pyodide-lock.json").read_text())
    wheel = "pyodide/" + lock["packages"]["wavinghands"]["file_name"]
    open_blank_page(page, server_url)
    result = settled(page, MICROPIP_JS, [wheel], timeout_s=ENGINE_S,
                     what="Pyodide to load micropip and install the wheel")
    assert result["errors"] == [], result
    assert result["spells"] is True
    # The only Pyodide in this renderer was the test's own: no engine worker started beside it.
    assert page.workers == [], [w.url for w in page.workers]


@deep
@first_visit
def test_a_lock_that_does_not_match_micropip_is_refused(
    page: Any, server_url: str, site_dir: Path
) -> None:
    """A wrong sha256 only reaches Pyodide's error callback; it must not load regardless."""
    lock = json.loads((site_dir / "pyodide" / "pyodide-lock.json").read_text())
    lock["packages"]["micropip"]["sha256"] = "0" * 64
    page.route("**/pyodide-lock.json", lambda route: route.fulfill(json=lock))
    open_blank_page(page, server_url)
    result = settled(page, MICROPIP_JS, ["unused.whl"], timeout_s=ENGINE_S,
                     what="Pyodide to load micropip")
    assert result["errors"], result
    assert "spells" not in result


def test_lock_and_build_manifest_match_the_shipped_files(site_dir: Path) -> None:
    lock = json.loads((site_dir / "pyodide" / "pyodide-lock.json").read_text())
    assert set(lock["packages"]) == {"micropip", "wavinghands"}
    for entry in lock["packages"].values():
        data = (site_dir / "pyodide" / entry["file_name"]).read_bytes()
        assert hashlib.sha256(data).hexdigest() == entry["sha256"], entry["name"]
    # micropip is PyPI's wheel, not the one Pyodide's own lock describes.
    assert lock["packages"]["micropip"]["sha256"] == MICROPIP_REQUIREMENT.split(":")[-1]
    info = build_info(site_dir)
    for part in ("wasm", "library", "reference"):
        data = (site_dir / info[part]["url"]).read_bytes()
        digest = base64.b64encode(hashlib.sha256(data).digest()).decode()
        assert info[part]["integrity"] == f"sha256-{digest}", part
        assert info[part]["size"] == len(data), part
    # What travels of the wasm and the library: their packed forms, which unpack to them.
    for part in ("wasm", "library"):
        packed = info[part]["packed"]
        data = (site_dir / packed["url"]).read_bytes()
        assert packed["size"] == len(data) and packed["url"] == info[part]["url"] + PACKED_SUFFIX
        head = (site_dir / info[part]["url"]).read_bytes()[:4].hex()
        assert packed["head"] == head != data[:4].hex(), part
    assert info["engineId"] == engine_id(
        {rel: (site_dir / rel).read_bytes() for rel in SNAPSHOT_INPUTS}
    )


# test_a_host_that_unpacks_the_packed_files_itself_does_not_matter's host types the wasm
# application/octet-stream, and the wasm the worker compiles is typed by the worker alike.
@deep
@first_visit
def test_a_host_that_types_the_wasm_wrongly_does_not_matter(page: Any, server_url: str) -> None:
    """A wasm served with any type but application/wasm cannot be compiled as it streams; the
    worker compiles the wasm it unpacks from the packed form, typed by itself, so a host's types
    for `.wasm` and `.br` do not matter (the wasm itself is not even asked for)."""
    asked: list[str] = []

    def wrong_type(route: Any) -> None:
        asked.append(route.request.url)
        response = route.fetch()
        route.fulfill(response=response, headers={**response.headers, "content-type": "text/plain"})

    page.route("**/pyodide.asm.wasm*", wrong_type)
    result = boot(page, server_url)
    assert result["ok"], result
    # Asked for by the name this server's kind of host calls for; a server that sends siblings
    # may be asked for the packed form after it (a reply the route passed on without its
    # Content-Encoding), never anything else.
    names = [url.rsplit("/", 1)[1] for url in asked]
    assert names[0] == boot_name("pyodide/pyodide.asm.wasm"), names
    assert names[1:] in ([], ["pyodide.asm.wasm" + PACKED_SUFFIX]), names


@first_visit
def test_a_host_that_unpacks_the_packed_files_itself_does_not_matter(
    page: Any, server_url: str, site_dir: Path
) -> None:
    """A host that sends `X.br` with `Content-Encoding: br` of its own has the browser hand the
    page the file itself: recognised by its first bytes (engine-build.js), used as it is."""

    def answer(whole: bytes) -> Callable[[Any], None]:
        return lambda route: route.fulfill(body=whole, content_type="application/octet-stream")

    for rel in ("pyodide/pyodide.asm.wasm", PYTHON_LIBRARY):
        page.route(f"**/{rel}{PACKED_SUFFIX}", answer((site_dir / rel).read_bytes()))
    result = boot(page, server_url)
    assert result["ok"] and result["timings"]["path"] == "fresh", result


# The suite's own server is of one kind ($WH_SERVE_PRECOMPRESSED, by default a host that only
# gzips): test_site_works_offline_after_first_visit's first visit asks it for the same files,
# once each, so that kind's case runs under WH_DEEP; the other kind's runs by default.
@pytest.mark.parametrize(
    "precompressed",
    [pytest.param(False, marks=deep if not SiteHandler.precompressed else ()),
     pytest.param(True, marks=deep if SiteHandler.precompressed else ())],
)  # fmt: skip
def test_the_packed_files_travel_packed_on_either_kind_of_host(
    precompressed: bool, browser: Any, site_dir: Path
) -> None:
    """A host that sends the build's `.br` siblings is asked for the wasm and the library by
    their own names (the browser unpacks them; reference.json's sibling told the worker so); a
    host that only gzips on the fly is asked for the packed files, which the worker unpacks.
    Either way each travels once, packed, and the engine boots."""
    context = browser.new_context()
    try:
        with serving(site_dir, precompressed=precompressed) as served:
            result = boot(context.new_page(), served.url)
            assert result["ok"], result
            asked = [path.split("?")[0].lstrip("/") for path in served.fetched]
    finally:
        context.close()
    for rel in ("pyodide/pyodide.asm.wasm", PYTHON_LIBRARY):
        by_name, packed = asked.count(rel), asked.count(rel + PACKED_SUFFIX)
        assert (by_name, packed) == ((1, 0) if precompressed else (0, 1)), (rel, asked)
    assert ("vendor/brotli-dec.wasm.gz" in asked) is not precompressed, asked


SAVE_DUEL_JS = """async () => {
  const { call } = (await import('./app.js')).modules['engine.js'];
  const storage = (await import('./app.js')).modules['store/storage.js'];
  const params = { names: ['Ann', 'Bo'], ruleset: {}, seed: 'fedcba9876543210' };
  const made = await call('new_game', JSON.stringify(params));
  if (!made.ok) throw new Error(JSON.stringify(made.error));
  const id = storage.newGameId();
  storage.saveGame({ id, mode: 'hotseat', game: made.game, summary: { names: ['Ann', 'Bo'] } });
  return { id, game: JSON.stringify(made.game) };
}"""

LOAD_DUEL_JS = """async (id) => {
  const storage = (await import('./app.js')).modules['store/storage.js'];
  const saved = storage.loadGame(id);
  return saved ? JSON.stringify(saved.game) : null;
}"""


def first_visit_with_a_saved_duel(page: Any, url: str) -> dict[str, Any]:
    """Boot the site at `url`, wait until the service worker holds every file and the engine
    has kept its snapshot, then save a duel: that duel ({"id", "game"}), read back whole."""
    assert boot(page, url)["ok"]
    offline_ready(page)
    assert kept_snapshot(page)["state"] == "stored"
    saved: dict[str, Any] = settled(page, SAVE_DUEL_JS, timeout_s=ENGINE_S,
                                    what="the engine's new duel, saved")
    assert page.evaluate(LOAD_DUEL_JS, saved["id"]) == saved["game"] != "null"
    return saved


@pytest.fixture
def own_site(site_dir: Path, tmp_path: Path) -> Iterator[Served]:
    """A copy of the built site that the test may change (tmp_path/site), served on a port of
    its own: a new origin, with no service worker or cache from other tests."""
    yield from served_copy(site_dir, tmp_path / "site")


def test_an_update_downloads_only_the_files_that_changed(browser: Any, own_site: Served) -> None:
    """A new build's service worker reuses the unchanged files it already holds, the open page
    says a new version is ready, and a duel saved before the update is still there after it.
    The engine did not change, so the snapshot kept for it stays and the next visit restores it."""
    root, url, fetched = own_site.root, own_site.url, own_site.fetched
    context = browser.new_context()
    try:
        page = context.new_page()
        saved = first_visit_with_a_saved_duel(page, url)
        # The next build: one stylesheet changed, hence a new sw.js.
        css = root / "style.css"
        css.write_bytes(css.read_bytes() + b"\n/* next build */\n")
        files = {
            p.relative_to(root).as_posix(): p.read_bytes()
            for p in root.rglob("*")
            if p.is_file() and p.name != "sw.js"
        }
        version, sw = service_worker(files)
        (root / "sw.js").write_bytes(sw)
        fetched.clear()
        page.goto(url)
        # The browser checks sw.js on navigation (and sw-register.js registers it again); the
        # new worker installs, activates and deletes the old cache.
        wanted = sorted([f"wavinghands-{version} {url}", snapshot_cache(root, url)])
        wait_for_caches(page, wanted)
        assert "/style.css" in fetched, fetched
        assert not any(path.startswith("/pyodide/") for path in fetched), fetched
        # The page that was open when the new version took over says so, and keeps running.
        page.wait_for_selector("[data-testid=update-ready]", timeout=ENGINE_MS)
        assert call(page, "spells")["value"]["ok"] is True
        page.click("[data-testid=update-reload]")
        page.wait_for_function("window.__appReady === true", timeout=ENGINE_MS)
        assert page.evaluate(LOAD_DUEL_JS, saved["id"]) == saved["game"]
        # The page the reload opened booted its engine (no need of another visit to see how).
        again = boot_finished(page)
        assert again["ok"] and again["timings"]["path"] == "snapshot", again
    finally:
        context.close()


def test_a_new_engine_replaces_the_kept_snapshot_and_keeps_the_saved_duel(
    browser: Any, own_site: Served
) -> None:
    """A build whose engine changed (here the worker's snapshot code, one of the engine's
    identity's inputs): its service worker deletes the old build's cache and the snapshot kept
    for the old engine; the next visit starts Python afresh and keeps a snapshot of the new one;
    a duel saved under the old build is still there."""
    root, url = own_site.root, own_site.url
    context = browser.new_context()
    try:
        page = context.new_page()
        saved = first_visit_with_a_saved_duel(page, url)
        old_snapshot, old_engine = snapshot_cache(root, url), build_info(root)["engineId"]
        own_site.fetched.clear()
        # The next build: the snapshot code changed by a comment (e2e/serving.py's rewrite_site
        # writes what build_site would write around it).
        code = (root / "engine-snapshot.js").read_bytes() + b"\n// next build\n"
        version = rewrite_site(root, {"engine-snapshot.js": code})
        assert build_info(root)["engineId"] != old_engine
        page.goto(url)
        wanted = sorted([f"wavinghands-{version} {url}"])
        wait_for_caches(page, wanted)  # the old snapshot went with the old build
        # The new build's service worker took the unchanged files from the old one's cache
        # (Pyodide's ~14 MB among them) and downloaded the changed one.
        assert "/engine-snapshot.js" in own_site.fetched, own_site.fetched
        assert not any(path.startswith("/pyodide/") for path in own_site.fetched), own_site.fetched
        assert old_snapshot not in page.evaluate("caches.keys()")
        page.wait_for_selector("[data-testid=update-ready]", timeout=ENGINE_MS)
        page.click("[data-testid=update-reload]")
        page.wait_for_function("window.__appReady === true", timeout=ENGINE_MS)
        assert page.evaluate(LOAD_DUEL_JS, saved["id"]) == saved["game"]
        result = awaited(page, "window.__engineReady")
        assert result["path"] == "fresh", result
        assert kept_snapshot(page)["state"] == "stored"
        wanted.append(snapshot_cache(root, url))
        wait_for_caches(page, sorted(wanted))
    finally:
        context.close()


def test_the_page_is_installable(
    launch_chromium: Any, server_url: str, site_dir: Path, tmp_path: Path
) -> None:
    """A web app manifest with 192 and 512 px PNG icons: Chromium finds nothing missing.

    In a persistent profile: Chromium never offers installation in an incognito one, which is
    what Playwright's ordinary contexts are."""
    manifest = json.loads((site_dir / "manifest.webmanifest").read_text())
    assert manifest["display"] == "standalone" and manifest["start_url"] == "./"
    for icon in manifest["icons"]:
        data = (site_dir / icon["src"]).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n", icon
        width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
        assert f"{width}x{height}" == icon["sizes"], icon
    context = launch_chromium.playwright.chromium.launch_persistent_context(
        str(tmp_path / "profile"), executable_path=CHROMIUM, args=list(CHROMIUM_ARGS), headless=True
    )
    try:
        page = context.new_page()
        assert boot(page, server_url)["ok"]
        offline_ready(page)
        cdp = context.new_cdp_session(page)
        errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
        assert errors == [], errors
        assert cdp.send("Page.getAppManifest")["errors"] == []
    finally:
        context.close()


# Every text the engine status line shows, in order (installed before the page's scripts).
WATCH_STATUS_JS = """(() => {
  window.__statusTexts = [];
  new MutationObserver(() => {
    const el = document.querySelector('.engine-status-text');
    const text = el && el.textContent;
    if (text && window.__statusTexts.at(-1) !== text) window.__statusTexts.push(text);
  }).observe(document, { childList: true, subtree: true, characterData: true });
})();"""

# Computer against computer for `turns` steps, then wizard 0 surrenders (both hands P) and
# the duel is over; then the record round trip of the finished duel: most of the engine's code
# runs in the interpreter (its AI, the rules, the record), every module a duel imports included
# (CPython: the modules imported after 6 such steps are those after 60).  Phases other than
# orders (a choice the rules ask for) are the computer's either side.
PLAY_JS = """async (turns) => {
  const { call } = (await import('./app.js')).modules['engine.js'];
  const params = { names: ['A', 'B'], ruleset: {}, seed: '0123456789abcdef' };
  const made = await call('new_game', JSON.stringify(params));
  if (!made.ok) return { error: made.error };
  let game = made.game;
  let steps = 0;
  for (; steps < turns + 5; steps++) {
    const text = JSON.stringify(game);
    const seen = await call('view', text, '0');
    if (!seen.ok) return { error: seen.error };
    if (seen.view.phase.kind === 'over') break;
    const inputs = {};
    for (const actor of seen.view.phase.actors) {
      if (steps >= turns && actor === 0 && seen.view.phase.kind === 'orders') {
        inputs[actor] = { gestures: [['P', 'P']] };  // the surrender
        continue;
      }
      const chosen = await call('ai_input', text, String(actor));
      if (!chosen.ok) return { error: chosen.error };
      inputs[actor] = chosen.input;
    }
    const stepped = await call('step', text, JSON.stringify(inputs));
    if (!stepped.ok) return { error: stepped.error };
    game = stepped.game;
  }
  const over = (await call('view', JSON.stringify(game), '0')).view.phase.kind === 'over';
  const record = await call('export_record', JSON.stringify(game));
  if (!record.ok) return { error: record.error };
  const again = await call('import_record', JSON.stringify(record.record));
  return { steps, over, imported: again.ok, error: again.ok ? null : again.error };
}"""


def assert_the_library_plays_a_duel(page: Any, requested: list[str]) -> None:
    """The engine just booted in `page` (WATCH_STATUS_JS installed; `requested`: the URLs asked
    for) counted its files' bytes and plays a whole duel and its record's round trip, with no
    python_stdlib.zip fetched."""
    # Progress in bytes while the files come in, ending at their full size.
    texts = page.evaluate("window.__statusTexts")
    fetching = [t for t in texts if t.startswith("Fetching the rules engine:")]
    assert fetching, texts
    assert re.fullmatch(r"Fetching the rules engine: ([\d.]+) of \1 MB…", fetching[-1]), fetching
    played = settled(page, PLAY_JS, 6, timeout_s=ENGINE_S, what="six turns played by the engine")
    assert played["error"] is None and played["imported"] is True, played
    assert played["steps"] > 2 and played["over"] is True, played
    assert not [url for url in requested if url.endswith("python_stdlib.zip")], requested


# Every default duel in a kept context (e2e/conftest.py's `page`) plays in an interpreter
# restored from the kept snapshot: the snapshot's case runs under WH_DEEP; the fresh one's first
# visit is test_site_works_offline_after_first_visit's by default.
@first_visit
@pytest.mark.parametrize(
    "visit", [pytest.param("fresh", marks=deep), pytest.param("snapshot", marks=deep)]
)
def test_the_python_library_holds_what_a_duel_needs(visit: str, page: Any, server_url: str) -> None:
    """The Python library holds every module the engine imports: python_stdlib.zip is not
    fetched, and a whole duel (the computer's turns, then a surrender) plus its record round
    trip work, in the interpreter a first visit starts and in one restored from its snapshot."""
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    page.add_init_script(WATCH_STATUS_JS)
    if visit == "snapshot":
        assert boot(page, server_url)["ok"] and kept_snapshot(page)["state"] == "stored"
    result = boot(page, server_url)
    assert result["ok"] and result["timings"]["path"] == visit, result
    assert_the_library_plays_a_duel(page, requested)


@first_visit
def test_reference_and_rule_options_work_while_the_engine_downloads(
    page: Any, server_url: str, shot: Callable[..., Path]
) -> None:
    """The start screen's rule options and the spell reference come from reference.json (the
    engine's own answers, recorded at build time), so they work before the engine is up; the
    status line counts bytes meanwhile."""
    stalled: list[Any] = []
    # The Python library never arrives, so the engine stays at its download for the whole test
    # (nor does the wasm, whose compiling would only cost CPU meanwhile).
    page.route(LIBRARY_EITHER_NAME, lambda route: stalled.append(route))
    page.route("**/pyodide.asm.wasm*", lambda route: stalled.append(route))
    page.goto(server_url)
    page.wait_for_selector("[data-testid=rule-options]:not([hidden]) input", timeout=ENGINE_MS)
    page.wait_for_function(
        """() => /^Fetching the rules engine: [\\d.]+ of [\\d.]+ MB…$/.test(
             document.querySelector('.engine-status-text')?.textContent ?? '')""",
        timeout=ENGINE_MS,
    )
    page.click("[data-testid=open-reference]")
    dialog = page.locator("dialog[data-testid=reference]")
    dialog.wait_for()
    page.fill("[data-testid=reference-search]", "fireball")
    dialog.locator("button", has_text="Fireball").first.click()
    page.wait_for_selector("[data-testid=ref-spell-fireball]")
    assert "ball of fire" in page.inner_text("[data-testid=ref-spell-fireball]")
    shot(page, "reference-before-engine", full_page=False)
    # Every ruleset's book came with reference.json: Warlocks' too, engine or no engine.
    page.click("[data-testid=reference-close]")
    page.wait_for_selector("dialog[data-testid=reference]", state="detached")
    page.check("[data-testid=ruleset-warlocks]")
    page.click("[data-testid=open-reference]")
    page.fill("[data-testid=reference-search]", "maladroit")
    dialog.locator("button", has_text="Maladroitness").first.click()
    page.wait_for_selector("[data-testid=ref-spell-maladroitness]")
    # All of that without the engine: its Python library is still held back.
    assert [r for r in stalled if "python_lib" in r.request.url], "the library was never asked for"
    assert page.evaluate("performance.getEntriesByName('engine-ready').length") == 0
    assert page.get_attribute("[data-testid=engine-status]", "data-state") == "loading"
