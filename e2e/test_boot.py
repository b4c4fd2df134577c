"""The built site in Chromium: the engine boots in its worker, answers, and survives going offline.

These tests talk to the engine through web/engine.js (imported into the page), so they check
the runtime plumbing (worker, snapshot, wheel, service worker, integrity checks) whatever the
interface looks like.
"""

from __future__ import annotations

import base64
import hashlib
import http.server
import json
import shutil
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import build  # the repository root is on sys.path (e2e/conftest.py)

ENGINE_MS = 90_000

# Resolves with the worker's boot timings once the engine answers; rejects with the player-facing
# message when it cannot start (engine.js keeps this promise on window.__engineReady).
BOOT_JS = """async () => {
  const { startEngine } = await import('./engine.js');
  try {
    return { ok: true, timings: await startEngine() };
  } catch (err) {
    return { ok: false, message: err.message, detail: String(err.detail) };
  }
}"""

CALL_JS = """async ([fn, args]) => {
  const { call } = await import('./engine.js');
  try {
    return { value: await call(fn, ...args) };
  } catch (err) {
    return { thrown: err.message };
  }
}"""


def boot(page: Any, url: str) -> dict[str, Any]:
    """Open the page and wait for the engine's boot to finish, either way."""
    page.goto(url)
    result: dict[str, Any] = page.evaluate(BOOT_JS)
    return result


def call(page: Any, fn: str, *args: str) -> dict[str, Any]:
    """Call the engine from the page: {"value": result} or {"thrown": message}."""
    result: dict[str, Any] = page.evaluate(CALL_JS, [fn, list(args)])
    return result


def test_page_opens_and_engine_boots_from_its_snapshot(
    page: Any, server_url: str, shot: Callable[..., Path]
) -> None:
    result = boot(page, server_url)
    assert result["ok"], result
    timings = result["timings"]
    assert timings["path"] == "snapshot", timings
    assert timings["snapshotSource"] == "download", "a first visit has nothing cached"
    assert page.evaluate("performance.getEntriesByName('engine-ready').length") == 1
    shot(page, "boot-ready")


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
    context: Any, page: Any, server_url: str, shot: Callable[..., Path]
) -> None:
    assert boot(page, server_url)["ok"]
    page.wait_for_function("window.__offlineReady", timeout=ENGINE_MS)
    page.evaluate("window.__offlineReady")  # rejects if the service worker failed to install
    context.set_offline(True)
    try:
        again = boot(page, server_url)
        assert again["ok"], again
        # The second boot reads the snapshot the service worker kept inflated.
        assert again["timings"]["snapshotSource"] == "inflated", again
        spells = call(page, "spells")["value"]
        assert spells["ok"] is True
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


def test_falls_back_to_a_full_boot_without_the_snapshot(page: Any, server_url: str) -> None:
    page.route("**/engine.snapshot.gz", lambda route: route.fulfill(status=404, body="gone"))
    result = boot(page, server_url)
    assert result["ok"], result
    assert result["timings"]["path"] == "full"
    assert call(page, "spells")["value"]["ok"] is True


def test_damaged_engine_wheel_is_reported_in_plain_words(
    page: Any, server_url: str, site_dir: Path, shot: Callable[..., Path]
) -> None:
    lock = json.loads((site_dir / "pyodide" / "pyodide-lock.json").read_text())
    wheel = site_dir / "pyodide" / lock["packages"]["wavinghands"]["file_name"]
    damaged = bytearray(wheel.read_bytes())
    damaged[len(damaged) // 2] ^= 0xFF
    page.route(f"**/{wheel.name}", lambda route: route.fulfill(status=200, body=bytes(damaged)))
    result = boot(page, server_url)
    assert not result["ok"]
    assert "damaged" in result["message"], result
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


def test_micropip_loads_from_the_lock_and_installs_the_engine(
    page: Any, server_url: str, site_dir: Path
) -> None:
    """The site's lock file lets Pyodide load micropip offline, integrity-checked."""
    lock = json.loads((site_dir / "pyodide" / "pyodide-lock.json").read_text())
    wheel = "pyodide/" + lock["packages"]["wavinghands"]["file_name"]
    page.goto(server_url)
    result = page.evaluate(MICROPIP_JS, [wheel])
    assert result["errors"] == [], result
    assert result["spells"] is True


def test_a_lock_that_does_not_match_micropip_is_refused(
    page: Any, server_url: str, site_dir: Path
) -> None:
    """A wrong sha256 only reaches Pyodide's error callback; it must not load regardless."""
    lock = json.loads((site_dir / "pyodide" / "pyodide-lock.json").read_text())
    lock["packages"]["micropip"]["sha256"] = "0" * 64
    page.route("**/pyodide-lock.json", lambda route: route.fulfill(json=lock))
    page.goto(server_url)
    result = page.evaluate(MICROPIP_JS, ["unused.whl"])
    assert result["errors"], result
    assert "spells" not in result


def test_lock_and_build_manifest_match_the_shipped_files(site_dir: Path) -> None:
    lock = json.loads((site_dir / "pyodide" / "pyodide-lock.json").read_text())
    assert set(lock["packages"]) == {"micropip", "wavinghands"}
    for entry in lock["packages"].values():
        data = (site_dir / "pyodide" / entry["file_name"]).read_bytes()
        assert hashlib.sha256(data).hexdigest() == entry["sha256"], entry["name"]
    # micropip is PyPI's wheel, not the one Pyodide's own lock describes.
    assert lock["packages"]["micropip"]["sha256"] == build.MICROPIP_REQUIREMENT.split(":")[-1]
    text = (site_dir / "engine-build.js").read_text()
    info = json.loads(text.split("export const BUILD = ", 1)[1].rstrip().rstrip(";"))
    for part in ("wheel", "snapshot"):
        data = (site_dir / info[part]["url"]).read_bytes()
        digest = base64.b64encode(hashlib.sha256(data).digest()).decode()
        assert info[part]["integrity"] == f"sha256-{digest}", part



def test_wasm_served_with_the_wrong_type_is_reported_not_hung(page: Any, server_url: str) -> None:
    """With any type but application/wasm Pyodide would wait forever; the worker says why."""

    def wrong_type(route: Any) -> None:
        response = route.fetch()
        route.fulfill(response=response, headers={**response.headers, "content-type": "text/plain"})

    page.route("**/pyodide.asm.wasm", wrong_type)
    result = boot(page, server_url)
    assert not result["ok"]
    assert "wrong type" in result["message"], result


def test_an_update_downloads_only_the_files_that_changed(
    browser: Any, site_dir: Path, tmp_path: Path
) -> None:
    """A new build's service worker reuses the unchanged files it already holds."""
    root = tmp_path / "site"
    shutil.copytree(site_dir, root)
    fetched: list[str] = []

    class Counting(build.SiteHandler):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, directory=str(root), **kwargs)

        def log_message(self, format: str, *args: object) -> None:
            fetched.append(self.path)

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Counting)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    context = browser.new_context()
    try:
        page = context.new_page()
        assert boot(page, url)["ok"]
        page.evaluate("window.__offlineReady")
        # The next build: one stylesheet changed, hence a new sw.js.
        css = root / "style.css"
        css.write_bytes(css.read_bytes() + b"\n/* next build */\n")
        files = {
            p.relative_to(root).as_posix(): p.read_bytes()
            for p in root.rglob("*")
            if p.is_file() and p.name != "sw.js"
        }
        version, sw = build.service_worker(files)
        (root / "sw.js").write_bytes(sw)
        fetched.clear()
        page.goto(url)
        # The browser checks sw.js on navigation (and sw-register.js registers it again); the
        # new worker installs, activates and deletes the old cache.
        wanted = [f"wavinghands-{version}"]
        # wait_for_function does not await a promise, so each poll starts a read of the cache
        # names and tests what the previous one found.
        page.wait_for_function(
            """(wanted) => {
                caches.keys().then((keys) => { window.__cacheNames = JSON.stringify(keys); });
                return window.__cacheNames === JSON.stringify(wanted);
            }""",
            arg=wanted, polling=100, timeout=ENGINE_MS,
        )  # fmt: skip
        assert page.evaluate("caches.keys()") == wanted
        assert "/style.css" in fetched, fetched
        assert not any(path.startswith("/pyodide/") for path in fetched), fetched
    finally:
        context.close()
        server.shutdown()
        server.server_close()
