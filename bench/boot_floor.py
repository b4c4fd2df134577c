"""The floor under the page's boot: the same runtime, library and engine with no page around them.

    python3 bench/boot_floor.py [--site DIR] [--runs 7]

A bare page, served from memory beside the built site's `pyodide/` folder, starts Pyodide on its
own main thread, with the site's Python library (`python_lib.zip`, the engine in it) as its
standard library, and imports `wavinghands.api`: no engine worker, no integrity checks, no
packed files (the wasm and the library as they are, nothing compressed), no service worker, no
app.  Each run is a fresh browser context (empty caches):
- cold: Python started afresh, the engine imported (a first visit's work, less the page's);
- warm: the page reloaded twice (the wasm's compiled code cached after the first) and, on the
  second, Pyodide restores the memory snapshot the cold boot kept in Cache Storage and finds
  the engine's module in it (a later visit's work, less the page's).
Every file is sent with `Cache-Control: max-age=3600`, so a reload asks the server for nothing.

Ready is the page's clock when the engine's module is in hand (ms since navigation start, as
bench/first_visit.py's `engine-ready`); CPU is every browser process's (from /proc).  Run it
beside `bench/first_visit.py --loopback-only` in the same window: the difference is what the page
adds to the runtime's own start.  A measurement, not a test: it never fails on a figure.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import os
import statistics
import sys
import threading
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from first_visit import browser_cpu_ms, browser_ticks  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402
from sitebuild import machine  # noqa: E402
from sitebuild.common import DEFAULT_OUT  # noqa: E402
from sitebuild.machine import CHROMIUM_ARGS  # noqa: E402

TIMEOUT_MS = 120_000
# The boot, as a module (the page's own script, or a worker's): `done(floor)` reports it.
BOOT = """import { loadPyodide } from "./pyodide/pyodide.mjs";
const here = (path) => new URL(path, self.location.href).href;
const options = { indexURL: here("./pyodide/"), stdLibURL: here("./pyodide/python_lib.zip"),
                  env: { PYTHONDONTWRITEBYTECODE: "1" } };
const cache = await caches.open("boot-floor");
const kept = await cache.match("snapshot");
const snapshot = kept ? new Uint8Array(await kept.arrayBuffer()) : null;
const pyodide = await loadPyodide(
  snapshot ? { ...options, _loadSnapshot: snapshot } : { ...options, _makeSnapshot: true });
pyodide.pyimport("wavinghands.api");
done({ path: snapshot ? "snapshot" : "fresh" });
if (!snapshot) {
  await cache.put("snapshot", new Response(pyodide.makeMemorySnapshot()));
  done({ kept: true });
}
"""
# The boot on the page's main thread; the ready time is the page's clock when the engine is in.
MAIN_PAGE = f"""<!doctype html><meta charset=utf-8><title>boot floor</title>
<script type="module">
const done = (news) => {{ window.__floor = {{ ready: performance.now(), ...news }}; }};
{BOOT}
</script>
""".replace("done({ kept: true })", "window.__kept = true").encode()
# The boot in a module worker, as the site runs its engine; ready when the page hears of it.
WORKER_PAGE = b"""<!doctype html><meta charset=utf-8><title>boot floor (worker)</title>
<script type="module">
const worker = new Worker("./floor-worker.mjs", { type: "module" });
worker.onmessage = ({ data }) => {
  if (data.kept) window.__kept = true;
  else window.__floor = { ready: performance.now(), ...data };
};
</script>
"""
WORKER = ("const done = (news) => postMessage(news);\n" + BOOT).encode()
FILES = {"/": MAIN_PAGE, "/worker.html": WORKER_PAGE, "/floor-worker.mjs": WORKER}


class FloorHandler(http.server.SimpleHTTPRequestHandler):
    """The bare pages (FILES), the site's `pyodide/` folder below them, cached for an hour."""

    def guess_type(self, path: str | os.PathLike[str]) -> str:
        """Pyodide's scripts as JavaScript, its wasm as wasm (compiled as it streams)."""
        name = os.fspath(path)
        if name.endswith(".mjs"):
            return "text/javascript"
        if name.endswith(".wasm"):
            return "application/wasm"
        return super().guess_type(path)

    def do_GET(self) -> None:
        """The page, or a file of `pyodide/`."""
        body = FILES.get(self.path.split("?")[0])
        if body is not None:
            kind = "text/javascript" if self.path.endswith(".mjs") else "text/html; charset=utf-8"
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        super().do_GET()

    def end_headers(self) -> None:
        """Every response may be reused for an hour: a reload asks the server for nothing."""
        self.send_header("Cache-Control", "max-age=3600")
        super().end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: the figures are the output."""


def boots(site: Path, runs: int, page_path: str) -> dict[str, list[float]]:
    """`runs` cold and warm boots of the bare page at `page_path`; ready (ms) and browser CPU
    (ms) of each."""
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(FloorHandler, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}{page_path}"
    figures: dict[str, list[float]] = {"cold": [], "cold_cpu": [], "warm": [], "warm_cpu": []}
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(
                executable_path=str(machine.CHROMIUM), args=list(CHROMIUM_ARGS), headless=True)
            try:
                for _ in range(runs):
                    context = browser.new_context()
                    try:
                        page = context.new_page()
                        for kind, loads in (("cold", 1), ("warm", 2)):
                            for _ in range(loads):
                                before = browser_ticks()
                                page.reload() if kind == "warm" else page.goto(url)
                                page.wait_for_function("window.__floor", timeout=TIMEOUT_MS)
                                spent = browser_cpu_ms(before)
                                floor = page.evaluate("window.__floor")
                                if kind == "cold":
                                    page.wait_for_function("window.__kept", timeout=TIMEOUT_MS)
                            expected = "fresh" if kind == "cold" else "snapshot"
                            if floor["path"] != expected:
                                raise SystemExit(f"a {kind} boot took the {floor['path']} path")
                            figures[kind].append(floor["ready"])
                            figures[f"{kind}_cpu"].append(spent)
                    finally:
                        context.close()
            finally:
                browser.close()
    finally:
        server.shutdown()
        server.server_close()
    return figures


def main() -> int:
    """Measure and print the floor's figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--site", type=Path, default=DEFAULT_OUT / "site",
        help="a built site (python3 build.py build --out DIR): its pyodide/",
    )  # fmt: skip
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    if not (args.site / "pyodide" / "python_lib.zip").is_file():
        raise SystemExit(f"no built site at {args.site} (python3 build.py build --out DIR)")
    for where, page_path in (("the page's main thread", "/"), ("a module worker", "/worker.html")):
        figures = boots(args.site, args.runs, page_path)
        print(f"== the bare runtime on {where}: {args.site}/pyodide, nothing checked or packed")
        report(figures)
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"(load average {load}, {os.cpu_count()} cores)")
    return 0


def report(figures: dict[str, list[float]]) -> None:
    """Print the medians and ranges of one kind of boot's figures."""
    for kind, label in (("cold", "engine ready, cold, loopback"),
                        ("warm", "engine ready, warm, loopback")):  # fmt: skip
        for key, what in ((kind, label), (f"{kind}_cpu", f"browser CPU until ready, {kind}")):
            values = figures[key]
            line = f"{what} (median of {len(values)})"
            print(f"{line:<52}{statistics.median(values):>5.0f} ms "
                  f"({min(values):.0f}-{max(values):.0f})")  # fmt: skip


if __name__ == "__main__":
    sys.exit(main())
