"""An update whose Python library changed (the engine is in it) fetches the library packed, as a
first visit does, on either kind of host: the new build's service worker asks a host that sends
the `.br` siblings for it by its own name (a HEAD request says the host sends it packed), and
any other host for its packed form, which it unpacks itself (web/sw.js, web/unpack.js bundled
into it); it never fetches the 4.5 MB library whole.  The next visit boots from what it kept.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from boot_play import boot, offline_ready, served_copy, wait_for_caches
from serving import Served, rewrite_site

# sitebuild/ is at the repository's root, which e2e/conftest.py puts on sys.path.
from sitebuild.common import PYTHON_LIBRARY
from sitebuild.compress import DECODER_WASM, PACKED_SUFFIX, brotli
from sitebuild.serve import SiteHandler

PACKED_LIBRARY = PYTHON_LIBRARY + PACKED_SUFFIX


def asked(site: Served, method: str = "GET") -> list[str]:
    """The site paths `site`'s server was asked for with `method`, in order."""
    return [
        path.split("?")[0].lstrip("/")
        for verb, path in zip(site.methods, site.fetched, strict=True)
        if verb == method
    ]


@pytest.fixture
def own_site(site_dir: Path, tmp_path: Path) -> Iterator[Served]:
    """A copy of the built site that the test changes, on a port of its own, served as
    $WH_SERVE_PRECOMPRESSED says."""
    yield from served_copy(site_dir, tmp_path / "site")


def changed_library(root: Path) -> bytes:
    """The site's Python library with one more member: a new engine, as far as any check can
    tell (its hash, the engine's identity), that still boots."""
    data = io.BytesIO((root / PYTHON_LIBRARY).read_bytes())
    with zipfile.ZipFile(data, "a") as archive:
        archive.writestr("wavinghands_next_build.txt", "the next build\n")
    return data.getvalue()


def test_an_update_with_a_new_library_fetches_it_packed(browser: Any, own_site: Served) -> None:
    """The library changed: the new build's service worker fetches it as packed as a first
    visit does (by its own name from a host that sends the siblings, else its packed form and
    the decoder), never whole, and the next visit boots the new engine from what it kept."""
    root, url = own_site.root, own_site.url
    context = browser.new_context()
    try:
        page = context.new_page()
        assert boot(page, url)["ok"]
        offline_ready(page)
        library = changed_library(root)
        version = rewrite_site(
            root, {PYTHON_LIBRARY: library, PACKED_LIBRARY: brotli(library, quality=5)}
        )
        own_site.fetched.clear()
        own_site.methods.clear()
        page.goto(url)
        # Its install done (its cache whole) and activated (the old build's caches and the old
        # engine's snapshot deleted).
        wait_for_caches(page, [f"wavinghands-{version} {url}"])
        got = asked(own_site)
        if SiteHandler.precompressed:
            # The host sends python_lib.zip.br for python_lib.zip: asked for by name, once.
            assert got.count(PYTHON_LIBRARY) == 1 and PACKED_LIBRARY not in got, got
            assert DECODER_WASM not in got, got
        else:
            assert got.count(PACKED_LIBRARY) == 1 and PYTHON_LIBRARY not in got, got
            assert DECODER_WASM in got, got
        assert PYTHON_LIBRARY in asked(own_site, "HEAD"), own_site.fetched
        # Pyodide's runtime did not change: taken from the old build's cache, not fetched.
        assert not [path for path in got if path.startswith("pyodide/pyodide.asm")], got
        # The next visit boots the new engine from the service worker's copy alone.
        own_site.fetched.clear()
        own_site.methods.clear()
        result = boot(page, url)
        assert result["ok"] and result["timings"]["path"] == "fresh", result
        assert not [path for path in asked(own_site) if path.startswith("pyodide/")], (
            own_site.fetched
        )
    finally:
        context.close()
