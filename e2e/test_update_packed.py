"""An update whose Python library changed (the engine is in it) fetches the library packed, as a
first visit does, on either kind of host: the new build's service worker asks a host that sends
the `.br` siblings for it by its own name (a HEAD request says the host sends it packed), and
any other host for its packed form, which it unpacks itself (web/sw.js, web/unpack.js bundled
into it); it never fetches the 4.5 MB library whole.  The next visit boots from what it kept.
"""

from __future__ import annotations

import http.server
import io
import shutil
import threading
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from serving import rewrite_site

# sitebuild/ is at the repository's root, which e2e/conftest.py puts on sys.path.
from sitebuild.common import PYTHON_LIBRARY
from sitebuild.compress import DECODER_WASM, PACKED_SUFFIX, brotli
from sitebuild.serve import SiteHandler

ENGINE_MS = 90_000
PACKED_LIBRARY = PYTHON_LIBRARY + PACKED_SUFFIX

BOOT_JS = """async () => {
  const { startEngine } = (await import('./app.js')).modules['engine.js'];
  try {
    return { ok: true, timings: await startEngine() };
  } catch (err) {
    return { ok: false, message: err.message, detail: String(err.detail) };
  }
}"""


@dataclass
class Recorded:
    """A served copy of the site and the requests its server answered: (method, site path)."""

    root: Path
    url: str = ""
    requests: list[tuple[str, str]] = field(default_factory=list)

    def asked(self, method: str = "GET") -> list[str]:
        """The site paths asked for with `method`, in order."""
        return [path for verb, path in self.requests if verb == method]


@pytest.fixture
def recorded_site(site_dir: Path, tmp_path: Path) -> Iterator[Recorded]:
    """A copy of the built site (which the test changes) on a port of its own, served as
    $WH_SERVE_PRECOMPRESSED says, every request recorded with its method."""
    site = Recorded(tmp_path / "site")
    shutil.copytree(site_dir, site.root)

    class Handler(SiteHandler):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, directory=str(site.root), **kwargs)

        def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
            site.requests.append((self.command, self.path.split("?")[0].lstrip("/")))
            super().log_request(code, size)

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    site.url = f"http://127.0.0.1:{server.server_address[1]}/"
    try:
        yield site
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def boot(page: Any, url: str) -> dict[str, Any]:
    """Open the page and wait for the engine's boot to finish, either way."""
    page.goto(url)
    result: dict[str, Any] = page.evaluate(BOOT_JS)
    return result


def changed_library(root: Path) -> bytes:
    """The site's Python library with one more member: a new engine, as far as any check can
    tell (its hash, the engine's identity), that still boots."""
    data = io.BytesIO((root / PYTHON_LIBRARY).read_bytes())
    with zipfile.ZipFile(data, "a") as archive:
        archive.writestr("wavinghands_next_build.txt", "the next build\n")
    return data.getvalue()


def wait_for_only_cache(page: Any, name: str) -> None:
    """Wait until the page's origin holds the cache `name` and no other: the new build's
    service worker has installed (its cache whole) and activated (the old build's and its
    engine's snapshot deleted)."""
    # wait_for_function does not await a promise: each poll reads the names the previous found.
    page.wait_for_function(
        """(name) => {
            caches.keys().then((keys) => { window.__cacheNames = JSON.stringify(keys); });
            return window.__cacheNames === JSON.stringify([name]);
        }""",
        arg=name, polling=100, timeout=ENGINE_MS,
    )  # fmt: skip


def test_an_update_with_a_new_library_fetches_it_packed(
    browser: Any, recorded_site: Recorded
) -> None:
    """The library changed: the new build's service worker fetches it as packed as a first
    visit does (by its own name from a host that sends the siblings, else its packed form and
    the decoder), never whole, and the next visit boots the new engine from what it kept."""
    root, url = recorded_site.root, recorded_site.url
    context = browser.new_context()
    try:
        page = context.new_page()
        assert boot(page, url)["ok"]
        page.evaluate("window.__offlineReady")
        library = changed_library(root)
        version = rewrite_site(
            root, {PYTHON_LIBRARY: library, PACKED_LIBRARY: brotli(library, quality=5)}
        )
        recorded_site.requests.clear()
        page.goto(url)
        wait_for_only_cache(page, f"wavinghands-{version} {url}")
        asked = recorded_site.asked()
        if SiteHandler.precompressed:
            # The host sends python_lib.zip.br for python_lib.zip: asked for by name, once.
            assert asked.count(PYTHON_LIBRARY) == 1 and PACKED_LIBRARY not in asked, asked
            assert DECODER_WASM not in asked, asked
        else:
            assert asked.count(PACKED_LIBRARY) == 1 and PYTHON_LIBRARY not in asked, asked
            assert DECODER_WASM in asked, asked
        assert PYTHON_LIBRARY in recorded_site.asked("HEAD"), recorded_site.requests
        # Pyodide's runtime did not change: taken from the old build's cache, not fetched.
        assert not [path for path in asked if path.startswith("pyodide/pyodide.asm")], asked
        # The next visit boots the new engine from the service worker's copy alone.
        recorded_site.requests.clear()
        result = boot(page, url)
        assert result["ok"] and result["timings"]["path"] == "fresh", result
        assert not [path for path in recorded_site.asked() if path.startswith("pyodide/")], (
            recorded_site.requests
        )
    finally:
        context.close()
