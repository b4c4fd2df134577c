"""What a first visit costs over the wire, measured at the server; prints a table.

    python3 bench/first_visit.py [--site DIR]... [--loopback-runs 3] [--loopback-only] [--json OUT]
    python3 bench/first_visit.py --site DIR [--site DIR2 ...] --profile 5

With several sites, the loopback visits take turns between them (so that the machine's load
hits them alike).  Each loopback boot also reports the browser's CPU until engine-ready (every
process under Playwright, from /proc): on a shared machine the figure to compare, where wall
times follow the load.  `--loopback-only` skips the throttled visit.

`--profile N` skips the throttled visit and times N warm loopback boots per site (`--cold`:
cold ones, each in a fresh context; the sites taking turns, so load hits them alike), each
traced: a timeline from navigation start to `engine-ready`, the CPU of each kind of thread, the
page's steps (HTML, module scripts, worker script) and the engine worker's own marks and fetches
(engine-worker.js `timings`), as medians.

The built site is served the way common static hosts serve it:
- a file with a precompressed sibling (`X.br`, `X.gz`) is sent as that sibling when the browser
  accepts the encoding (nginx `brotli_static`/`gzip_static`, Caddy `precompressed`);
- otherwise text types and wasm (text/*, JavaScript, JSON, SVG, the manifest, application/wasm)
  are gzipped on the fly at level 6 (nginx, Netlify, Cloudflare, GitHub Pages); zips, wheels,
  PNGs and `.gz` files go out as they are;
- `Cache-Control: public, max-age=0, must-revalidate` with a strong ETag (Netlify's default), so
  a revalidation costs a 304 and no body.

Bytes are counted at the server (response bodies as sent, after compression), so the page, its
module worker and the service worker are all seen.  The throttled link is 10 Mbit/s shared by
every response together, with 40 ms before each response starts; "loopback" is the same server
unthrottled.  Scenarios, each in a fresh browser context (empty caches, no service worker):
- cold: navigation until engine.js's `engine-ready` mark; then everything fetched until the
  service worker has precached the site (`window.__offlineReady`) and the engine worker has
  kept its snapshot for the next visit (`window.__engineSnapshot`) counts too;
- warm: the same context reloaded once the service worker is in control (its boot restores the
  kept snapshot) and the page has compiled the engine worker's scripts ahead
  (`window.__compiledAhead`, sw-register.js), as a player's next visit would find them.

This is a measurement, not a test: it never fails on a goal (issue 15: <= 5 MB on a first visit,
each file once, engine ready <= 6 s throttled; loopback <= ~1.1 s cold, <= 0.5 s warm).
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import hashlib
import http.server
import json
import os
import statistics
import sys
import threading
import time
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from playwright.sync_api import sync_playwright  # noqa: E402
from sitebuild import machine  # noqa: E402
from sitebuild.common import DEFAULT_OUT  # noqa: E402
from sitebuild.machine import CHROMIUM_ARGS  # noqa: E402
from sitebuild.serve import MIME_TYPES  # noqa: E402
from sitebuild.site import build_site  # noqa: E402

CHROMIUM = str(machine.CHROMIUM)
ARGS = list(CHROMIUM_ARGS)
COMPRESSIBLE = ("text/", "application/javascript", "application/json", "image/svg+xml",
                "application/manifest+json", "application/wasm")  # fmt: skip
GZIP_LEVEL = 6
CHUNK = 16 * 1024
BOOT_TIMEOUT_MS = 180_000


class Link:
    """A shared link: `rate` bits per second for all responses together, `latency` s each."""

    def __init__(self, rate_bps: float | None, latency_s: float) -> None:
        """rate_bps None means unthrottled (loopback)."""
        self.rate = rate_bps
        self.latency = latency_s
        self._lock = threading.Lock()
        self._free_at = 0.0

    def first_byte(self) -> None:
        """Wait out the latency before a response starts."""
        if self.latency:
            time.sleep(self.latency)

    def send(self, n: int) -> None:
        """Wait until n more bytes have had their turn on the shared link."""
        if self.rate is None:
            return
        with self._lock:
            start = max(time.monotonic(), self._free_at)
            self._free_at = start + n * 8 / self.rate
            done = self._free_at
        delay = done - time.monotonic()
        if delay > 0:
            time.sleep(delay)


@dataclass
class Tally:
    """Bytes and requests per path, as seen by the server."""

    bytes: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    requests: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    not_modified: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    encodings: dict[str, str] = field(default_factory=dict)
    accept: set[str] = field(default_factory=set)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def reset(self) -> None:
        """Forget everything counted so far."""
        with self.lock:
            self.bytes.clear()
            self.requests.clear()
            self.not_modified.clear()
            self.encodings.clear()

    def snapshot(self) -> dict[str, Any]:
        """A plain copy of the counts."""
        with self.lock:
            return {
                "bytes": dict(self.bytes),
                "requests": dict(self.requests),
                "not_modified": dict(self.not_modified),
                "encodings": dict(self.encodings),
            }


def make_server(
    root: Path, link: Link, tally: Tally, precompressed: bool = True
) -> http.server.ThreadingHTTPServer:
    """A static-host-like server for `root` on a free port of 127.0.0.1 (`precompressed`:
    send `X.br`/`X.gz` siblings when the browser accepts them)."""
    gz_cache: dict[Path, bytes] = {}

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: object) -> None:
            """Quiet."""

        def do_GET(self) -> None:
            """Serve one file, compressed as a static host would, through the throttled link."""
            rel = unquote(urlsplit(self.path).path).lstrip("/") or "index.html"
            if rel.endswith("/"):
                rel += "index.html"
            path = (root / rel).resolve()
            link.first_byte()
            with tally.lock:
                tally.requests[rel] += 1
                tally.accept.add(self.headers.get("Accept-Encoding", ""))
            if not path.is_file() or root.resolve() not in path.parents:
                self._reply(404, b"not found", "text/plain", {})
                return
            mime = MIME_TYPES.get(path.suffix, "application/octet-stream")
            offered = self.headers.get("Accept-Encoding", "").split(",")
            accepted = {e.split(";")[0].strip() for e in offered}
            body, encoding = path.read_bytes(), ""
            for enc, suffix in (("br", ".br"), ("gzip", ".gz")):
                sibling = path.with_name(path.name + suffix)
                if precompressed and enc in accepted and sibling.is_file():
                    body, encoding = sibling.read_bytes(), enc
                    break
            else:
                if "gzip" in accepted and mime.startswith(COMPRESSIBLE):
                    if path not in gz_cache:
                        gz_cache[path] = gzip.compress(body, GZIP_LEVEL, mtime=0)
                    body, encoding = gz_cache[path], "gzip"
            etag = '"' + hashlib.sha256(body).hexdigest()[:20] + '"'
            headers = {"ETag": etag, "Cache-Control": "public, max-age=0, must-revalidate",
                       "Vary": "Accept-Encoding"}  # fmt: skip
            if encoding:
                headers["Content-Encoding"] = encoding
            if self.headers.get("If-None-Match") == etag:
                with tally.lock:
                    tally.not_modified[rel] += 1
                self._reply(304, b"", mime, headers)
                return
            with tally.lock:
                tally.encodings[rel] = encoding or "identity"
            self._reply(200, body, mime, headers)
            with tally.lock:
                tally.bytes[rel] += len(body)

        def _reply(self, status: int, body: bytes, mime: str, headers: dict[str, str]) -> None:
            self.send_response(status)
            self.send_header("Content-Type", mime)
            for key, value in headers.items():
                self.send_header(key, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            try:
                for i in range(0, len(body), CHUNK):
                    piece = body[i : i + CHUNK]
                    link.send(len(piece))
                    self.wfile.write(piece)
            except (BrokenPipeError, ConnectionResetError):
                pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    return server


# Waits for engine-ready; also keeps the progress line's last "Fetching ... of ... MB" (the
# bytes the page says it fetched, to hold against those the server counted).  Woken by the
# mark and by the line's changes, not by a timer: a poll every 10 ms cost the page's thread
# ~90 ms of CPU over a cold boot under load, which the figures would count as the boot's.
READY = """async (timeout) => {
  const status = () => document.querySelector('[data-testid=engine-status]');
  let progress = null;
  const look = () => {
    const box = status();
    const said = box ? box.textContent : '';
    if (box && box.dataset.state === 'error') throw new Error('engine failed: ' + said);
    if (said.includes(' MB')) progress = said.trim();
  };
  await new Promise((resolve, reject) => {
    const done = () => performance.getEntriesByName('engine-ready').length > 0;
    const watchers = [];
    const stop = (fn, arg) => {
      for (const w of watchers) w.disconnect();
      clearTimeout(timer);
      fn(arg);
    };
    const check = () => {
      try {
        look();
      } catch (err) {
        stop(reject, err);
        return;
      }
      if (done()) stop(resolve);
    };
    const timer = setTimeout(() => stop(reject, new Error('engine not ready in time')), timeout);
    const marks = new PerformanceObserver(check);
    marks.observe({ type: 'mark' });
    watchers.push(marks);
    const lines = new MutationObserver(check);
    const watchLine = () => {
      const box = status();
      const all = { subtree: true, childList: true, characterData: true, attributes: true };
      if (box) lines.observe(box, all);
      else setTimeout(watchLine, 50);
    };
    watchLine();
    watchers.push(lines);
    check();
  });
  const ready = performance.getEntriesByName('engine-ready')[0];
  return { ready: ready.startTime, worker: ready.detail, progress };
}"""


# The engine worker's scripts compiled once from the service worker's cache after a first
# visit (sw-register.js), so that the warm visit finds their code cache; null on builds without.
COMPILED_AHEAD = "window.__compiledAhead ?? null"


def visit(browser: Any, url: str, tally: Tally) -> dict[str, Any]:
    """One cold visit and one warm reload in a fresh context; figures and server counts."""
    context = browser.new_context()
    try:
        page = context.new_page()
        tally.reset()
        t0 = time.monotonic()
        cpu0 = browser_ticks()
        page.goto(url)
        cold = page.evaluate(READY, BOOT_TIMEOUT_MS)
        cold["cpu_ms"] = browser_cpu_ms(cpu0)
        at_ready = tally.snapshot()
        page.evaluate("window.__offlineReady")
        cold["offline_ready_s"] = time.monotonic() - t0
        cold["snapshot"] = page.evaluate("window.__engineSnapshot")
        cold["compiled_ahead"] = page.evaluate(COMPILED_AHEAD)
        cold_total = tally.snapshot()
        tally.reset()
        cpu0 = browser_ticks()
        page.reload()
        warm = page.evaluate(READY, BOOT_TIMEOUT_MS)
        warm["cpu_ms"] = browser_cpu_ms(cpu0)
        # Let anything the warm page starts after ready (e.g. an update check) reach the server.
        page.wait_for_timeout(300)
        warm_total = tally.snapshot()
    finally:
        context.close()
    return {"cold": cold, "at_ready": at_ready, "cold_total": cold_total,
            "warm": warm, "warm_total": warm_total}  # fmt: skip


# The warm page's timeline: its navigation, its scripts' fetches, engine-ready and the worker's
# marks, all in ms since navigation start (the worker's marks moved onto the page's clock).
PAGE_TIMELINE = """() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const ready = performance.getEntriesByName('engine-ready')[0];
  const out = { html: nav.responseEnd, domInteractive: nav.domInteractive,
                domContentLoaded: nav.domContentLoadedEventEnd, ready: ready.startTime };
  const site = new URL('./', location.href).href;
  for (const r of performance.getEntriesByType('resource')) {
    const name = r.name.startsWith(site) ? r.name.slice(site.length) : r.name;
    out['page fetch ' + name] = r.responseEnd;
  }
  const worker = ready.detail;
  // The worker's marks count from its module's first line, `evaluated` ms after its creation.
  const shift = worker.origin - performance.timeOrigin;
  const body = shift + (worker.evaluated ?? 0);
  for (const [key, value] of Object.entries(worker)) {
    if (typeof value !== 'number' || key === 'origin' || key === 'evaluated') continue;
    out['worker ' + key] = value + body;
  }
  out['worker started'] = shift;
  out['worker evaluated'] = body;
  return out;
}"""

WORKER_FETCHES = """(shift) => {
  const out = {};
  const site = new URL('./', location.href).href;
  for (const r of performance.getEntriesByType('resource')) {
    const name = r.name.startsWith(site) ? r.name.slice(site.length) : r.name;
    out['worker fetch ' + name] = r.responseEnd + shift;
  }
  return out;
}"""


def warm_profile(browser: Any, url: str) -> dict[str, float]:
    """One warm loopback boot in a fresh context (after a cold one that kept a snapshot)."""
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(url)
        page.evaluate(READY, BOOT_TIMEOUT_MS)
        page.evaluate("window.__offlineReady")
        page.evaluate("window.__engineSnapshot")
        page.evaluate(COMPILED_AHEAD)
        browser.start_tracing(page=page, categories=TRACE_CATEGORIES)
        try:
            before = browser_ticks()
            page.reload()
            page.evaluate(READY, BOOT_TIMEOUT_MS)
            spent = browser_cpu_ms(before)
        finally:
            trace = browser.stop_tracing()
        timeline: dict[str, float] = page.evaluate(PAGE_TIMELINE)
        for worker in page.workers:
            timeline |= worker.evaluate(WORKER_FETCHES, timeline["worker started"])
        timeline |= thread_cpu_ms(trace)
        timeline["cpu browser processes"] = spent
    finally:
        context.close()
    return timeline


# Trace categories whose top-level tasks carry their thread's CPU time (`tdur`).
TRACE_CATEGORIES = ["toplevel", "disabled-by-default-devtools.timeline", "v8.execute"]
TOP_LEVEL_TASKS = {"ThreadControllerImpl::RunTask", "RunTask", "ThreadPool_RunTask"}


def thread_cpu_ms(trace: bytes) -> dict[str, float]:
    """CPU ms each kind of thread spent in top-level tasks over a Chromium trace: `cpu worker`
    (the engine's dedicated worker), `cpu page` (renderer main threads), `cpu thread pool`
    (background threads: V8's wasm compilation, ...).  Thread time is load-proof where wall
    time is not: a descheduled thread accrues none."""
    events = json.loads(trace)
    events = events.get("traceEvents", events) if isinstance(events, dict) else events
    names = {(e["pid"], e["tid"]): e["args"]["name"] for e in events
             if e.get("ph") == "M" and e.get("name") == "thread_name"}  # fmt: skip
    kinds = {"DedicatedWorker thread": "cpu worker", "CrRendererMain": "cpu page"}
    spans: dict[tuple[int, int], list[tuple[float, float, float]]] = defaultdict(list)
    for e in events:
        if e.get("ph") == "X" and e.get("name") in TOP_LEVEL_TASKS and "tdur" in e:
            spans[(e["pid"], e["tid"])].append((e["ts"], e["ts"] + e.get("dur", 0), e["tdur"]))
    out: dict[str, float] = defaultdict(float)
    for thread, tasks in spans.items():
        name = names.get(thread, "")
        kind = kinds.get(name, "cpu thread pool" if name.startswith("ThreadPool") else "cpu other")
        end = -1.0
        for start, stop, cpu in sorted(tasks):
            if start >= end:  # (a task nested in another is counted in it)
                out[kind] += cpu / 1000
                out["cpu total"] += cpu / 1000
                end = stop
    return dict(out)


def browser_ticks() -> dict[int, int]:
    """CPU clock ticks (user + system) used so far by each of this process's descendants: the
    Playwright driver and every process of the browser (browser, GPU, network, renderers).
    Walks /proc's children lists."""
    ticks: dict[int, int] = {}
    below = [os.getpid()]
    while below:
        pid = below.pop()
        try:
            for task in Path(f"/proc/{pid}/task").iterdir():
                below += [int(child) for child in (task / "children").read_text().split()]
            if pid != os.getpid():
                stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
                ticks[pid] = int(stat[11]) + int(stat[12])  # utime, stime
        except OSError:
            continue  # (it ended meanwhile)
    return ticks


def browser_cpu_ms(since: dict[int, int]) -> float:
    """CPU ms the browser's processes used since `since` (browser_ticks()), for a
    whole-machine view of a boot beside the trace's per-thread one.  A process that ended
    meanwhile is not counted (a closed context's renderer: its last moments are lost)."""
    now = browser_ticks()
    spent = sum(max(0, ticks - since.get(pid, 0)) for pid, ticks in now.items())
    return spent * 1000 / os.sysconf("SC_CLK_TCK")


def cold_profile(browser: Any, url: str) -> dict[str, float]:
    """One cold loopback boot in a fresh context (empty caches, no service worker), its timeline
    and the CPU ms of its threads until the engine was ready (thread_cpu_ms)."""
    context = browser.new_context()
    try:
        page = context.new_page()
        browser.start_tracing(page=page, categories=TRACE_CATEGORIES)
        try:
            before = browser_ticks()
            page.goto(url)
            page.evaluate(READY, BOOT_TIMEOUT_MS)
            spent = browser_cpu_ms(before)
        finally:
            trace = browser.stop_tracing()
        timeline: dict[str, float] = page.evaluate(PAGE_TIMELINE)
        for worker in page.workers:
            timeline |= worker.evaluate(WORKER_FETCHES, timeline["worker started"])
        timeline |= thread_cpu_ms(trace)
        timeline["cpu browser processes"] = spent
    finally:
        context.close()
    return timeline


@contextlib.contextmanager
def loopback_sites(
    roots: list[Path], precompressed: bool
) -> Iterator[tuple[Any, list[tuple[Path, str, Tally]]]]:
    """An unthrottled server per site and one browser for the block: (browser, [(root, url,
    tally)]), so that the sites can take turns and the machine's load hits them alike."""
    tallies = [Tally() for _ in roots]
    servers = [make_server(root, Link(None, 0.0), tally, precompressed)
               for root, tally in zip(roots, tallies, strict=True)]  # fmt: skip
    for server in servers:
        threading.Thread(target=server.serve_forever, daemon=True).start()
    sites = [(root, f"http://127.0.0.1:{server.server_address[1]}/", tally)
             for root, server, tally in zip(roots, servers, tallies, strict=True)]  # fmt: skip
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
            try:
                yield browser, sites
            finally:
                browser.close()
    finally:
        for server in servers:
            server.shutdown()
            server.server_close()


def profile(
    roots: list[Path], runs: int, precompressed: bool, cold: bool = False
) -> dict[str, list[dict[str, float]]]:
    """`runs` warm (or `cold`) loopback boots per site, the sites taking turns; their timelines."""
    timelines: dict[str, list[dict[str, float]]] = {str(root): [] for root in roots}
    with loopback_sites(roots, precompressed) as (browser, sites):
        for i in range(runs):
            for root, url, _ in sites:
                timeline = (cold_profile if cold else warm_profile)(browser, url)
                timelines[str(root)].append(timeline)
                print(f"  [{i + 1}/{runs}] {root}: ready at {timeline['ready']:.0f} ms", flush=True)
    return timelines


def report_profile(timelines: dict[str, list[dict[str, float]]], cold: bool = False) -> None:
    """Print each step's median time since navigation start, one column per site."""
    keys = {k for runs in timelines.values() for t in runs for k in t}
    cpu = sorted(k for k in keys if k.startswith("cpu "))
    steps = sorted(keys - set(cpu),
                   key=lambda k: statistics.median(
                       [t[k] for runs in timelines.values() for t in runs if k in t]))  # fmt: skip
    names = list(timelines)
    runs = min(len(r) for r in timelines.values())
    kind = "cold" if cold else "warm"
    print(f"\n{kind} loopback boot, ms since navigation start (median of {runs}; "
          "worker marks: engine-worker.js)")  # fmt: skip
    for i, name in enumerate(names):
        print(f"  [{i}] {name}")
    print(f"{'step':<48}" + "".join(f"{f'[{i}]':>10}" for i in range(len(names))))

    def row(step: str) -> None:
        """One step's median for each site, '-' where it has none."""
        cells = []
        for name in names:
            values = [t[step] for t in timelines[name] if step in t]
            cells.append(f"{statistics.median(values):>10.0f}" if values else f"{'-':>10}")
        print(f"{step[:47]:<48}" + "".join(cells))

    for step in steps:
        row(step)
    if cpu:
        print("thread CPU ms until engine-ready (median; Chromium trace, load-proof where the "
              "above is not)")  # fmt: skip
    for step in cpu:
        row(step)
    for name in names:
        ready = [t["ready"] for t in timelines[name]]
        print(f"engine ready [{names.index(name)}]: median {statistics.median(ready):.0f} ms "
              f"({min(ready):.0f}-{max(ready):.0f})")  # fmt: skip
    print(f"(load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}, {os.cpu_count()} cores)")


def run(
    root: Path, rate: float | None, latency: float, runs: int, precompressed: bool
) -> list[dict[str, Any]]:
    """`runs` visits against a server with the given link."""
    tally = Tally()
    server = make_server(root, Link(rate, latency), tally, precompressed)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
            try:
                results = [visit(browser, url, tally) for _ in range(runs)]
            finally:
                browser.close()
    finally:
        server.shutdown()
        server.server_close()
    results[0]["accept_encoding"] = sorted(tally.accept)
    return results


def loopback_turns(
    roots: list[Path], runs: int, precompressed: bool
) -> dict[str, list[dict[str, Any]]]:
    """`runs` unthrottled visits per site in one browser, the sites taking turns."""
    results: dict[str, list[dict[str, Any]]] = {str(root): [] for root in roots}
    with loopback_sites(roots, precompressed) as (browser, sites):
        for _ in range(runs):
            for root, url, tally in sites:
                results[str(root)].append(visit(browser, url, tally))
    return results


def mb(n: float) -> str:
    """Bytes as MB with two decimals."""
    return f"{n / 1e6:.2f} MB"


def snapshot_kept(cold: dict[str, Any]) -> str:
    """What the engine worker did with its snapshot after a first visit, briefly."""
    kept = cold.get("snapshot") or {}
    detail = kept.get("detail")
    if kept.get("state") == "stored" and isinstance(detail, dict):
        kept = f" ({mb(detail['keptBytes'])} kept)" if "keptBytes" in detail else ""
        return f"{mb(detail['bytes'])}{kept}, {detail['madeMs']}+{detail['storedMs']} ms"
    return str(kept.get("state", "-"))


def report(throttled: dict[str, Any], loopback: list[dict[str, Any]], root: Path) -> None:
    """Print the per-file table and the summary."""
    total = throttled["cold_total"]
    at_ready = throttled["at_ready"]
    files = sorted(set(total["requests"]) | set(total["bytes"]),
                   key=lambda f: -total["bytes"].get(f, 0))  # fmt: skip
    print(f"\nfirst visit over 10 Mbit/s + 40 ms; Accept-Encoding {throttled['accept_encoding']}")
    print(f"{'file':<44}{'on disk':>12}{'sent':>12}{'requests':>10}  encoding")
    for f in files:
        disk = (root / f).stat().st_size if (root / f).is_file() else 0
        reqs = total["requests"].get(f, 0)
        n304 = total["not_modified"].get(f, 0)
        print(f"{f:<44}{disk:>12,}{total['bytes'].get(f, 0):>12,}"
              f"{reqs:>7}{f' ({n304} x 304)' if n304 else '':<9}"
              f"  {total['encodings'].get(f, '-')}")  # fmt: skip
    cold_bytes = sum(total["bytes"].values())
    print(f"\n{'measure':<52}{'value':>16}")
    rows = [
        ("bytes until engine ready (throttled)", mb(sum(at_ready["bytes"].values()))),
        ("bytes on a first visit, precache included", mb(cold_bytes)),
        ("requests on a first visit (304s among them)",
         f"{sum(total['requests'].values())} ({sum(total['not_modified'].values())})"),
        ("files fetched more than once",
         str(sum(1 for f, n in total["requests"].items() if n > 1))),
        ("engine ready, cold, throttled", f"{throttled['cold']['ready'] / 1000:.2f} s"),
        ("the progress line's last count, cold, throttled",
         str(throttled["cold"].get("progress")).replace("Fetching the rules engine: ", "")),
        ("offline-ready (precache done), cold, throttled",
         f"{throttled['cold']['offline_ready_s']:.2f} s"),
        ("engine ready, warm, throttled", f"{throttled['warm']['ready'] / 1000:.2f} s"),
        ("bytes on a warm visit (throttled)", mb(sum(throttled["warm_total"]["bytes"].values()))),
        ("the snapshot kept after the first visit", snapshot_kept(throttled["cold"])),
        ("how the warm visit booted", throttled["warm"]["worker"].get("path", "?")),
        ("requests on a warm visit", str(sum(throttled["warm_total"]["requests"].values()))),
    ]  # fmt: skip
    for name, value in rows:
        print(f"{name:<52}{value:>16}")
    report_loopback(loopback)


def report_loopback(loopback: list[dict[str, Any]]) -> None:
    """Print the loopback visits' medians: engine-ready and the browser's CPU, cold and warm."""
    rows = []
    if loopback:
        cold = [r["cold"]["ready"] for r in loopback]
        warm = [r["warm"]["ready"] for r in loopback]
        cold_cpu = [r["cold"]["cpu_ms"] for r in loopback]
        warm_cpu = [r["warm"]["cpu_ms"] for r in loopback]
        rows += [
            (f"engine ready, cold, loopback (median of {len(cold)})",
             f"{statistics.median(cold):.0f} ms ({min(cold):.0f}-{max(cold):.0f})"),
            (f"engine ready, warm, loopback (median of {len(warm)})",
             f"{statistics.median(warm):.0f} ms ({min(warm):.0f}-{max(warm):.0f})"),
            ("browser CPU until ready, cold, loopback (median)",
             f"{statistics.median(cold_cpu):.0f} ms ({min(cold_cpu):.0f}-{max(cold_cpu):.0f})"),
            ("browser CPU until ready, warm, loopback (median)",
             f"{statistics.median(warm_cpu):.0f} ms ({min(warm_cpu):.0f}-{max(warm_cpu):.0f})"),
        ]  # fmt: skip
    for name, value in rows:
        print(f"{name:<52}{value:>16}")
    print(f"(load average {os.getloadavg()[0]:.2f}, {os.cpu_count()} cores)")


def main() -> int:
    """Build (unless --site), then measure the throttled and the loopback visits."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--site",
        type=Path,
        action="append",
        help="an existing build (default: build now); repeat to compare builds",
    )
    parser.add_argument(
        "--profile",
        type=int,
        metavar="N",
        help="only N warm loopback boots per site, with their timeline",
    )
    parser.add_argument(
        "--cold",
        action="store_true",
        help="with --profile: cold boots (a fresh context each, nothing cached) instead of warm",
    )
    parser.add_argument("--loopback-runs", type=int, default=3, help="unthrottled visits")
    parser.add_argument(
        "--loopback-only",
        action="store_true",
        help="skip the throttled visit (quicker; the loopback rows and their CPU only)",
    )
    parser.add_argument("--json", type=Path, help="also write the raw figures here")
    parser.add_argument(
        "--no-precompressed",
        action="store_true",
        help="a host that ignores .br/.gz siblings (gzip on the fly only)",
    )
    args = parser.parse_args()
    roots = [site.resolve() for site in args.site] if args.site else [build_site(DEFAULT_OUT).root]
    pre = not args.no_precompressed
    if args.profile:
        timelines = profile(roots, args.profile, pre, cold=args.cold)
        report_profile(timelines, cold=args.cold)
        if args.json:
            args.json.write_text(json.dumps(timelines, indent=1))
        return 0
    figures: dict[str, dict[str, Any]] = {}
    turns = loopback_turns(roots, args.loopback_runs, pre) if args.loopback_runs else {}
    for root in roots:
        loopback = turns.get(str(root), [])
        if args.loopback_only:
            print(f"\n== {root}")
            report_loopback(loopback)
            figures[str(root)] = {"loopback": loopback}
            continue
        throttled = run(root, 10e6, 0.040, 1, pre)[0]
        print(
            f"\n== {root}\nserver: {'precompressed siblings when present, else ' if pre else ''}"
            "gzip -6 on the fly for text types and wasm"
        )
        report(throttled, loopback, root)
        figures[str(root)] = {"throttled": throttled, "loopback": loopback}
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
