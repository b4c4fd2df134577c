"""Fixtures for the browser tests: the built site on a local server and Debian's Chromium.

- `site_dir` (session): the built site; $WH_SITE_DIR when `build.py test` already built it,
  otherwise this builds dist/site/ first.
- `site_server` / `server_url` (session): that folder served by build.py's server on a free
  port of 127.0.0.1 (correct MIME types); `server_url` ends with a slash.
- `playwright` (session): the worker's one Playwright (its sync API allows one instance at a
  time per thread); `launch_chromium` (session): a factory `launch_chromium(extra_args=()) ->
  Browser` for Debian's Chromium headless shell (Playwright cannot download its own browser here),
  one browser per set of arguments for the worker's whole run.
- `browser` (session); `context` (function): a fresh context; `page` (function): a page in a
  kept context (`kept_context`: the site visited once, so its service worker and the engine's
  snapshot are there, nothing of the player's storage) unless the test is marked `first_visit`
  or asks for `context` too.  `phone_page` and e2e/remote_play.py's `two_players` lend kept
  contexts the same way.  A fresh context boots the engine from the Python library and keeps a
  snapshot (about 5 s of CPU); a kept one restores the snapshot (about 2 s).
- `shot(page, name)`: save a screenshot under test-output/ for a person to look at.

At the end of a run it prints where the time went (per file: tests, wall and CPU seconds,
engine downloads, i.e. requests for Pyodide's wasm, one per engine booted in a fresh origin or
context) and, for each failed test, a `WAITED` line: its name, the line of the test that failed
and what it was waiting on (Playwright's call log, or e2e/waiting.py's condition), which
build.py test repeats at its very end.

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

import contextlib
import os
import re
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
OUTPUT = ROOT / "test-output"
# For WebRTC tests: let candidates carry the real loopback address instead of an mDNS name.
WEBRTC_ARGS = ("--disable-features=WebRtcHideLocalIpsWithMdns",)

sys.path.insert(0, str(ROOT))
# A plain import: without Playwright these tests must fail, not quietly skip
# (`python3 build.py test` installs it from the dev extra).
from playwright import sync_api  # noqa: E402

# sitebuild/ lives at the top of the repository; other modules take CHROMIUM_ARGS from here.
from sitebuild.common import DEFAULT_OUT  # noqa: E402
from sitebuild.machine import CHROMIUM_ARGS as MACHINE_ARGS  # noqa: E402
from sitebuild.machine import HEADLESS_SHELL  # noqa: E402
from sitebuild.serve import SiteHandler, SiteServer, serving  # noqa: E402
from sitebuild.site import build_site  # noqa: E402
from waiting import settled  # noqa: E402

# How the suite's browsers start (the network lab's too): sitebuild/machine.py's switches, and
# V8 kept at its baseline WebAssembly compiler (Liftoff).  Chromium otherwise recompiles the hot
# functions of Pyodide's 10 MB wasm with its optimising compiler in every renderer the suite
# opens (test_hotseat.py's two longest tests: 8.2 s of 42.5 s of CPU in those compiler threads;
# 3.0 s of 35.9 s with this switch, the engine's own thread 6.4 -> 6.8 s).  Both compilers run
# the same WebAssembly to the same results; only the benchmarks (bench/), which time what a
# player waits for, run V8 as a player's browser does.
CHROMIUM_ARGS = (*MACHINE_ARGS, "--js-flags=--liftoff-only")
# Debian's Chromium headless shell (sitebuild/machine.py), or the browser $WH_CHROMIUM names
# (e.g. /usr/bin/chromium, the whole browser).
CHROMIUM = os.environ.get("WH_CHROMIUM", str(HEADLESS_SHELL))

# `expect(...)` without a timeout of its own waits 5 s by default: too little for anything the
# engine answers on a machine at load 12 (CI runs three suites on two cores).  The wait still
# ends as soon as the condition holds.
EXPECT_MS = 30_000
sync_api.expect.set_options(timeout=EXPECT_MS)


# Contexts prefer reduced motion unless a test asks otherwise (e2e/test_battle_animation.py
# does): the battle scene then shows a turn's steps still, one by one, instead of animating
# them, and Chromium draws far fewer frames (test_remote_codes.py and test_computer.py: 130 ->
# 109 s of CPU).  What the animation itself does is test_battle_animation.py's to check.
REDUCED_MOTION = "reduce"


def _bypassing_csp(method: Callable[..., Any]) -> Callable[..., Any]:
    """`method` (a way to open a browser context) with `bypass_csp=True` and REDUCED_MOTION
    unless given."""

    def opened(self: Any, *args: Any, **kwargs: Any) -> Any:
        kwargs.setdefault("bypass_csp", True)
        kwargs.setdefault("reduced_motion", REDUCED_MOTION)
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


def pytest_configure(config: pytest.Config) -> None:
    """Register the suite's markers."""
    config.addinivalue_line(
        "markers", "first_visit: the test's `page` is in a fresh context (no service worker, no "
        "kept snapshot), not a kept one",
    )  # fmt: skip
    config.addinivalue_line("markers", DEEP_MARKER)


# The deep tier: a test marked `deep` runs only under WH_DEEP=1 (`python3 build.py test
# --deep`); docs/test-tiers.md names, for each, the default tests that catch its kind of bug.
DEEP_MARKER = ("deep: runs only under WH_DEEP=1 (build.py test --deep); docs/test-tiers.md says "
               "which default tests catch its kind of bug")  # fmt: skip
DEEP = bool(os.environ.get("WH_DEEP"))


# The modules that take longest (the per-file table below: the boot tests each boot afresh),
# started first so that the two pytest-xdist workers (--dist loadfile) finish together.  (The
# network lab, test_netplay.py, runs as a step of its own in `build.py test`.)
LONGEST_FIRST = ("test_boot.py", "test_hotseat.py", "test_live.py")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Leave out the `deep` tests unless DEEP; put LONGEST_FIRST's modules first, in that
    order; the rest keep theirs."""
    if not DEEP:
        deep = [item for item in items if item.get_closest_marker("deep")]
        if deep:
            config.hook.pytest_deselected(items=deep)
            items[:] = [item for item in items if not item.get_closest_marker("deep")]

    def rank(item: pytest.Item) -> int:
        name = item.path.name
        return LONGEST_FIRST.index(name) if name in LONGEST_FIRST else len(LONGEST_FIRST)

    items.sort(key=rank)  # stable: each module's tests keep their order


def process_tree_cpu(root: int | None = None) -> float:
    """CPU seconds (user + system) used so far by process `root` (this one by default) and
    everything below it (Playwright's driver, Chromium and its renderers), reaped ones too."""
    tick = os.sysconf("SC_CLK_TCK")
    procs: dict[int, tuple[int, int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue  # gone meanwhile
            # ppid; utime + stime + cutime + cstime (children reaped by it)
            procs[int(entry)] = (int(fields[1]), sum(int(f) for f in fields[11:15]))
    tree = {root or os.getpid()}
    grew = True
    while grew:
        below = {pid for pid, (ppid, _) in procs.items() if ppid in tree} - tree
        tree |= below
        grew = bool(below)
    return sum(procs[pid][1] for pid in tree if pid in procs) / tick


# What each test cost, from before its first fixture is set up to after its last is torn down:
# a module's or the session's fixtures (a kept context's boot, a shared page, the browser) are
# set up within their first test's setup and torn down within their last test's teardown, so
# they count there, not nowhere (a function-scoped fixture would start counting after them).
_COST_AT_SETUP = pytest.StashKey[tuple[int, float]]()


@pytest.hookimpl(hookwrapper=True, tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> Iterator[None]:
    """Note the engine downloads and CPU so far, before any of the test's fixtures."""
    item.stash[_COST_AT_SETUP] = (_downloads[0], process_tree_cpu())
    yield


@pytest.hookimpl(hookwrapper=True, tryfirst=True)
def pytest_runtest_teardown(item: pytest.Item) -> Iterator[None]:
    """Record how many times the test made a browser download the engine's wasm, and the CPU
    it cost (this worker and its browsers), its fixtures' set-up and teardown included."""
    before_teardown = process_tree_cpu()
    yield
    downloads, cpu = item.stash.get(_COST_AT_SETUP, (_downloads[0], before_teardown))
    # The last test's teardown closes the browsers, whose CPU then leaves the tree of processes.
    spent = max(process_tree_cpu(), before_teardown) - cpu
    item.user_properties.append(("engine downloads", _downloads[0] - downloads))
    item.user_properties.append(("cpu", round(spent, 2)))


# Per test file: [tests, seconds (setup + call + teardown), engine downloads, CPU seconds]; filled
# on the controlling process from every worker's reports.
_BY_FILE: dict[str, list[float]] = {}
_WAITED: list[str] = []
# What a failed wait says it waited on: Playwright's call log, its own timeout line, an
# `expect` and e2e/waiting.py's poll.
_WAIT_LINE = re.compile(
    r"(waiting for .*|Timeout \d+ms exceeded.*|Expect .*|waited [\d.]+ s for .*)"
)


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Add each test's time and downloads to its file's row; note a failure's wait."""
    row = _BY_FILE.setdefault(report.nodeid.split("::")[0], [0, 0.0, 0, 0.0])
    row[1] += report.duration
    if report.when == "call":
        row[0] += 1
    if report.when == "teardown":  # the fixture's count reaches the teardown's report only
        row[2] += sum(int(str(v)) for k, v in report.user_properties if k == "engine downloads")
        row[3] += sum(float(str(v)) for k, v in report.user_properties if k == "cpu")
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
    write("e2e time per file (wall and CPU seconds summed over workers, the CPU of the worker and"
          " its browsers, each test's module and session fixtures included; engine downloads ="
          " wasm requests):")
    rows = sorted(_BY_FILE.items(), key=lambda item: -item[1][1])
    total = [sum(row[i] for _, row in rows) for i in range(4)]
    for path, (tests, seconds, downloads, cpu) in [*rows, ("(all)", total)]:
        write(f"  {seconds:7.1f} s  {cpu:6.1f} s CPU  {tests:3.0f} tests  {downloads:3.0f} engine"
              f" downloads  {path}")
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
        SESSION_URL[0] = server.url
        yield server


@pytest.fixture(scope="session")
def server_url(site_server: SiteServer) -> str:
    """The site's base URL, e.g. http://127.0.0.1:41234/."""
    return site_server.url


@pytest.fixture(scope="session")
def playwright() -> Iterator[Any]:
    """The worker's one Playwright (its sync API allows one instance at a time per thread, so
    every module, e2e/test_netplay.py's and e2e/test_webrtc.py's too, launches through this)."""
    with sync_api.sync_playwright() as started:
        yield started


@pytest.fixture(scope="session")
def launch_chromium(playwright: Any) -> Iterator[Callable[..., Any]]:
    """A factory for headless Chromium (CHROMIUM), one browser per set of extra
    arguments for the whole worker (a launch costs a second of CPU), all closed at its end."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"Chromium is missing at {CHROMIUM}: run `python3 build.py test` to install it")
    browsers: dict[tuple[str, ...], Any] = {}

    def launch(extra_args: Sequence[str] = ()) -> Any:
        args = (*CHROMIUM_ARGS, *extra_args)
        if args not in browsers or not browsers[args].is_connected():
            browsers[args] = playwright.chromium.launch(
                executable_path=CHROMIUM, args=list(args), headless=True
            )
        return browsers[args]

    # Tests that need a persistent profile (installability) reach Playwright through here.
    launch.playwright = playwright  # type: ignore[attr-defined]
    try:
        yield launch
    finally:
        for browser in browsers.values():
            browser.close()


@pytest.fixture(scope="session")
def browser(launch_chromium: Callable[..., Any], site_server: SiteServer) -> Any:
    """One headless Chromium for the worker's tests (the site's server is up first, so kept
    contexts can be made from any fixture).  It runs with WEBRTC_ARGS, so the live tests'
    `launch_chromium(WEBRTC_ARGS)` is this same browser and their kept contexts are the same
    pool as every other test's (one browser and one set of primed contexts per worker)."""
    return launch_chromium(WEBRTC_ARGS)


DESKTOP: sync_api.ViewportSize = {"width": 1200, "height": 900}
# The parts of an origin's storage a kept context loses between tests: all but the service
# worker and Cache Storage (the precache and the engine's kept snapshot).  Session storage
# belongs to a page, and each test's pages are closed.
PLAYER_STORAGE = "cookies,local_storage,indexeddb,file_systems,websql,shader_cache"
# The first visit's work, waited on: the engine answers, its snapshot is kept, the service
# worker is active.
PRIMED_JS = """async () => {
  const kept = await window.__engineSnapshot;
  await navigator.serviceWorker.ready;
  return kept && kept.state;
}"""
# Its bound: a first visit's boot and snapshot on a loaded machine (the tests' ENGINE_MS).
PRIMED_S = 90
# The session server's URL, once it is up (kept contexts are of its origin).
SESSION_URL = [""]


@dataclass
class _Kept:
    """A browser context that has visited the site once, lent to one test at a time."""

    context: Any
    origin: str
    busy: bool = False
    strangers: set[str] = field(default_factory=set)  # other origins its pages reached
    # A blank page kept open with a DevTools session on it, to clear the origin's storage
    # between tests (a new blank page each time costs 0.2-0.6 s of CPU).
    cleaner: Any = None
    cleaner_cdp: Any = None


_KEPT: dict[tuple[Any, ...], list[_Kept]] = {}


@contextmanager
def kept_context(browser: Any, url: str, *, init_script: str | None = None,
                 permissions: Sequence[str] = (), **options: Any) -> Iterator[Any]:  # fmt: skip
    """A context of `browser` (made with `options`) that has already visited `url`'s site once:
    its service worker is installed and the engine's snapshot kept, so the test's first page
    boots the engine from the snapshot (about 2 s of CPU) instead of from the Python library
    and snapshotting it (about 5 s).  Nothing else carries over: between tests its pages are
    closed and the origin's player storage (local storage, IndexedDB, cookies) is cleared, and a
    context whose pages reached another origin is closed rather than lent again.  An
    `init_script` (a probe the test reads) and `permissions` are the context's from its making
    on, its first visit included, and lent only to tests that ask for the same.  A test that
    must see a first visit (no service worker, no snapshot), routes the engine's requests, or
    changes the context otherwise (offline, later init scripts) takes a fresh context instead."""
    origin = url.rstrip("/")
    if not origin:
        raise RuntimeError("kept_context needs the session's site server (the `browser` fixture)")
    shape = (init_script, tuple(permissions), repr(sorted(options.items())))
    pool = _KEPT.setdefault((id(browser), origin, *shape), [])
    kept = next((k for k in pool if not k.busy), None)
    if kept is None:
        kept = _Kept(browser.new_context(**options), origin)
        if permissions:
            kept.context.grant_permissions(list(permissions))
        if init_script is not None:
            kept.context.add_init_script(init_script)
        kept.context.on("request", lambda r, k=kept: _note_stranger(k, r.url))
        primer = kept.context.new_page()
        primer.goto(url)
        state = settled(primer, PRIMED_JS, timeout_s=PRIMED_S,
                        what="the kept context's first visit (its snapshot kept, its worker ready)")
        primer.close()
        assert state == "stored", f"the kept context's first visit kept no snapshot: {state}"
        pool.append(kept)
    kept.busy = True
    try:
        yield kept.context
    finally:
        for open_page in kept.context.pages:
            if open_page is not kept.cleaner:
                open_page.close()
        if kept.strangers:
            pool.remove(kept)
            kept.context.close()
        else:
            _clear_player_storage(kept)
            kept.busy = False


def _note_stranger(kept: _Kept, url: str) -> None:
    """Remember an origin other than the kept one that a page of `kept` requested."""
    if url.startswith("http") and not url.startswith(kept.origin + "/"):
        kept.strangers.add(url.split("/", 3)[2])


def _clear_player_storage(kept: _Kept) -> None:
    """Clear PLAYER_STORAGE of the kept origin (DevTools' Storage domain, from the context's
    blank page, opened the first time; once the test's pages are closed)."""
    if kept.cleaner is None or kept.cleaner.is_closed():
        kept.cleaner = kept.context.new_page()
        kept.cleaner_cdp = kept.context.new_cdp_session(kept.cleaner)
    kept.cleaner_cdp.send("Storage.clearDataForOrigin",
                          {"origin": kept.origin, "storageTypes": PLAYER_STORAGE})  # fmt: skip


@pytest.fixture
def context(browser: Any) -> Iterator[Any]:
    """A fresh, isolated browser context (empty storage, no service worker) per test."""
    ctx = browser.new_context(viewport=DESKTOP)
    yield ctx
    ctx.close()


@pytest.fixture
def page(request: pytest.FixtureRequest, browser: Any, server_url: str) -> Iterator[Any]:
    """A page for the test: in a kept context (see `kept_context`) unless the test is marked
    `first_visit` or asks for `context` too (then in that fresh context); console errors are
    echoed to help diagnose failures."""
    fresh = request.node.get_closest_marker("first_visit") or "context" in request.fixturenames
    with contextlib.ExitStack() as stack:
        if fresh:
            ctx = request.getfixturevalue("context")
        else:
            ctx = stack.enter_context(kept_context(browser, server_url, viewport=DESKTOP))
        pg = ctx.new_page()
        pg.on("console",
              lambda m: print(f"[console.{m.type}] {m.text}") if m.type == "error" else None)
        pg.on("pageerror", lambda e: print(f"[pageerror] {e}"))
        yield pg


# Screenshots are for a person to look at, and cost 0.2-1 s of CPU each (about 150 in a run):
# `python3 build.py test` sets WH_SHOTS=0 (not under --deep), a pytest run of its own takes them.
SHOTS_WANTED = os.environ.get("WH_SHOTS", "1") != "0"


def screenshot(page: Any, path: Path, **options: Any) -> Path:
    """`page.screenshot(path=path, **options)` unless WH_SHOTS=0 (then nothing); returns `path`."""
    if SHOTS_WANTED:
        path.parent.mkdir(exist_ok=True)
        page.screenshot(path=str(path), **options)
    return path


def save_shot(page: Any, name: str, *, full_page: bool = True) -> Path:
    """Save a screenshot as test-output/<name>.png (unless WH_SHOTS=0) and return its path."""
    return screenshot(page, OUTPUT / f"{name}.png", full_page=full_page, animations="disabled")


# The `shot` fixture's type: shot(page, name, full_page=True) -> the screenshot's path.
Shot = Callable[..., Path]


@pytest.fixture
def shot() -> Shot:
    """`shot(page, name)` saves test-output/<name>.png."""
    return save_shot


@contextmanager
def phone_page(browser: Any, viewport: Any) -> Iterator[Any]:
    """A page in a touch context of `viewport`'s size (a phone's), kept (see `kept_context`); on
    leaving, the test fails if the page raised an error meanwhile."""
    options = dict(viewport=viewport, device_scale_factor=2, has_touch=True, is_mobile=True)
    with kept_context(browser, SESSION_URL[0], **options) as ctx:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        yield page
        assert not errors, errors
