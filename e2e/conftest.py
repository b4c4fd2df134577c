"""Fixtures for the browser tests: the built site on a local server and Debian's Chromium.

- `site_dir` (session): the built site; $WH_SITE_DIR when `build.py test` already built it,
  otherwise this builds dist/site/ first.
- `site_server` / `server_url` (session): that folder served by build.py's server on a free
  port of 127.0.0.1 (correct MIME types); `server_url` ends with a slash.
- `launch_chromium` (module): a factory `launch_chromium(extra_args=()) -> Browser` for
  Chromium at /usr/bin/chromium (Playwright cannot download its own browser here).  Module
  scope because Playwright's sync API allows one instance at a time per thread.
- `browser` (module), `context` and `page` (function): a fresh context per test, so storage,
  caches and service workers never leak from one test into another.
- `shot(page, name)`: save a screenshot under test-output/ for a person to look at.

At the end of a run it prints where the time went (per file: tests, seconds, engine downloads,
i.e. requests for Pyodide's wasm, one per engine booted in a fresh origin or context) and, for
each failed test, a `WAITED` line: its name, the line of the test that failed and what it was
waiting on (Playwright's call log, or e2e/waiting.py's condition), which build.py test repeats
at its very end.

The site's Content-Security-Policy (build.py) forbids evaluating strings, and Playwright polled a
`wait_for_function` predicate by evaluating it in the page: under the policy the poll failed with
an EvalError (Playwright 1.65 polls under the policy without one).  So every browser context the
suite opens bypasses the page's policy (`bypass_csp=True` unless a test says otherwise), and
e2e/test_integrity.py opens its own contexts with the policy enforced and checks that nothing is
refused.  The engine worker's policy comes from the server's header and is enforced either way.
`wait_for_function` does not await a promise its predicate returns (the promise is truthy, so the
wait ends at once): state only an async read gives is polled with e2e/waiting.py's `poll`.
"""

from __future__ import annotations

import os
import re
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
OUTPUT = ROOT / "test-output"
CHROMIUM = "/usr/bin/chromium"
# For WebRTC tests: let candidates carry the real loopback address instead of an mDNS name.
WEBRTC_ARGS = ("--disable-features=WebRtcHideLocalIpsWithMdns",)

sys.path.insert(0, str(ROOT))
# A plain import: without Playwright these tests must fail, not quietly skip
# (`python3 build.py test` installs it from the dev extra).
from playwright import sync_api  # noqa: E402

# sitebuild/ lives at the top of the repository; other modules take CHROMIUM_ARGS from here.
from sitebuild.common import DEFAULT_OUT  # noqa: E402
from sitebuild.machine import CHROMIUM_ARGS as CHROMIUM_ARGS  # noqa: E402
from sitebuild.serve import SiteHandler, SiteServer, serving  # noqa: E402
from sitebuild.site import build_site  # noqa: E402

# `expect(...)` without a timeout of its own waits 5 s by default: too little for anything the
# engine answers on a machine at load 12 (CI runs three suites on two cores).  The wait still
# ends as soon as the condition holds.
EXPECT_MS = 30_000
sync_api.expect.set_options(timeout=EXPECT_MS)


def _bypassing_csp(method: Callable[..., Any]) -> Callable[..., Any]:
    """`method` (a way to open a browser context) with `bypass_csp=True` unless given."""

    def opened(self: Any, *args: Any, **kwargs: Any) -> Any:
        kwargs.setdefault("bypass_csp", True)
        return method(self, *args, **kwargs)

    return opened


# Every context of the suite, however it is opened (see the module's docstring).
for _cls, _name in ((sync_api.Browser, "new_context"), (sync_api.Browser, "new_page"),
                    (sync_api.BrowserType, "launch_persistent_context")):  # fmt: skip
    setattr(_cls, _name, _bypassing_csp(getattr(_cls, _name)))


# Engine downloads: requests for Pyodide's wasm to any of the suite's servers (conftest's, and
# e2e/serving.py's per-test ones, which subclass the same handler).
# (A page asks for the packed form, `.br`; the service worker may ask for the wasm itself.)
ENGINE_WASM = ("/pyodide/pyodide.asm.wasm.br", "/pyodide/pyodide.asm.wasm")
_downloads = [0]
_downloads_lock = threading.Lock()
_serve_get = SiteHandler.do_GET


def _counting_get(self: SiteHandler) -> None:
    """SiteHandler.do_GET, counting the requests for the engine's wasm."""
    if self.path.split("?")[0] in ENGINE_WASM:
        with _downloads_lock:
            _downloads[0] += 1
    _serve_get(self)


SiteHandler.do_GET = _counting_get  # type: ignore[method-assign, assignment]


@pytest.fixture(autouse=True)
def _engine_downloads(request: pytest.FixtureRequest) -> Iterator[None]:
    """Record how many times the test made a browser download the engine's wasm."""
    before = _downloads[0]
    yield
    request.node.user_properties.append(("engine downloads", _downloads[0] - before))


# Per test file: [tests, seconds (setup + call + teardown), engine downloads]; filled on the
# controlling process from every worker's reports.
_BY_FILE: dict[str, list[float]] = {}
_WAITED: list[str] = []
# What a failed wait says it waited on: Playwright's call log, its own timeout line, an
# `expect` and e2e/waiting.py's poll.
_WAIT_LINE = re.compile(
    r"(waiting for .*|Timeout \d+ms exceeded.*|Expect .*|waited [\d.]+ s for .*)"
)


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Add each test's time and downloads to its file's row; note a failure's wait."""
    row = _BY_FILE.setdefault(report.nodeid.split("::")[0], [0, 0.0, 0])
    row[1] += report.duration
    if report.when == "call":
        row[0] += 1
    if report.when == "teardown":  # the fixture's count reaches the teardown's report only
        row[2] += sum(int(str(v)) for k, v in report.user_properties if k == "engine downloads")
    if report.failed:
        text = report.longreprtext
        waits = list(dict.fromkeys(m.strip() for m in _WAIT_LINE.findall(text)))
        # The traceback's entries in e2e/, outermost first: the test's own line (which names
        # what a helper such as wait_until was asked to wait for), then the innermost one.
        frames: list[str] = []
        pointed = ""  # the `>` line of the traceback entry being read
        for line in text.splitlines():
            if line.startswith(">"):
                pointed = line[1:].strip()
            elif (where := re.match(r"(e2e/\S+\.py:\d+): ", line)) and pointed:
                frames.append(f"{where[1]} `{pointed}`")
            if re.match(r"\S+\.py:\d+: ", line):
                pointed = ""
        at = f"at {frames[0]}" if frames else "(no line of e2e/ in the traceback)"
        if len(frames) > 1:
            at += f", in {frames[-1]}"
        waited = "; ".join(waits[:4]) or "no wait named (an assertion or an error)"
        _WAITED.append(f"WAITED {report.nodeid} ({report.when}) {at}: {waited}")


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Where the time went, per file, and each failed test's wait."""
    if not _BY_FILE:
        return
    write = terminalreporter.write_line
    write("")
    write("e2e time per file (seconds summed over workers; engine downloads = wasm requests):")
    rows = sorted(_BY_FILE.items(), key=lambda item: -item[1][1])
    total = [sum(row[i] for _, row in rows) for i in range(3)]
    for path, (tests, seconds, downloads) in [*rows, ("(all)", total)]:
        write(f"  {seconds:7.1f} s  {tests:3.0f} tests  {downloads:3.0f} engine downloads  {path}")
    for line in _WAITED:
        write(line)


@pytest.fixture(scope="session")
def site_dir() -> Path:
    """The built site folder (built now unless $WH_SITE_DIR names a fresh build)."""
    given = os.environ.get("WH_SITE_DIR")
    if given:
        return Path(given)
    return build_site(DEFAULT_OUT).root


@pytest.fixture(scope="session")
def site_server(site_dir: Path) -> Iterator[SiteServer]:
    """build.py's static server on a free port, for the whole session."""
    with serving(site_dir) as server:
        yield server


@pytest.fixture(scope="session")
def server_url(site_server: SiteServer) -> str:
    """The site's base URL, e.g. http://127.0.0.1:41234/."""
    return site_server.url


@pytest.fixture(scope="module")
def launch_chromium() -> Iterator[Callable[..., Any]]:
    """A factory for headless Chromium browsers, all closed when the module ends."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"Chromium is missing at {CHROMIUM}: run `python3 build.py test` to install it")
    with sync_api.sync_playwright() as playwright:
        browsers: list[Any] = []

        def launch(extra_args: Sequence[str] = ()) -> Any:
            browser = playwright.chromium.launch(
                executable_path=CHROMIUM, args=[*CHROMIUM_ARGS, *extra_args], headless=True
            )
            browsers.append(browser)
            return browser

        # Tests that need a persistent profile (installability) reach Playwright through here.
        launch.playwright = playwright  # type: ignore[attr-defined]
        try:
            yield launch
        finally:
            for browser in browsers:
                browser.close()


@pytest.fixture(scope="module")
def browser(launch_chromium: Callable[..., Any]) -> Any:
    """One headless Chromium for the module's tests."""
    return launch_chromium()


@pytest.fixture
def context(browser: Any) -> Iterator[Any]:
    """A fresh, isolated browser context (empty storage, no service worker) per test."""
    ctx = browser.new_context(viewport={"width": 1200, "height": 900})
    yield ctx
    ctx.close()


@pytest.fixture
def page(context: Any) -> Any:
    """A page in the test's own context; console errors are echoed to help diagnose failures."""
    pg = context.new_page()
    pg.on("console", lambda m: print(f"[console.{m.type}] {m.text}") if m.type == "error" else None)
    pg.on("pageerror", lambda e: print(f"[pageerror] {e}"))
    return pg


def save_shot(page: Any, name: str, *, full_page: bool = True) -> Path:
    """Save a screenshot as test-output/<name>.png and return its path."""
    OUTPUT.mkdir(exist_ok=True)
    path = OUTPUT / f"{name}.png"
    page.screenshot(path=str(path), full_page=full_page, animations="disabled")
    return path


# The `shot` fixture's type: shot(page, name, full_page=True) -> the screenshot's path.
Shot = Callable[..., Path]


@pytest.fixture
def shot() -> Shot:
    """`shot(page, name)` saves test-output/<name>.png."""
    return save_shot


@contextmanager
def phone_page(browser: Any, viewport: Any) -> Iterator[Any]:
    """A page in a fresh touch context of `viewport`'s size (a phone's); on leaving, the context
    is closed and the test fails if the page raised an error meanwhile."""
    ctx = browser.new_context(viewport=viewport, device_scale_factor=2, has_touch=True,
                              is_mobile=True)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        yield page
        assert not errors, errors
    finally:
        ctx.close()
