"""How fast the built site is in headless Chromium; prints a table.

    python3 bench/browser_bench.py [--cold 3] [--warm 5] [--turns 50] [--site DIR]

- shell interactive: navigation start until the interface can take input: the page's
  `performance.mark("shell-interactive")` if it sets one, else the first appearance of the start
  (or resume) screen.
- engine ready, cold: a fresh browser context (empty caches, no service worker), navigation start
  until engine.js's `engine-ready` mark; warm: the same context reloaded after the service worker
  has cached the site and the engine worker has kept its snapshot (a warm boot restores it).
- one turn: the round trip of one `step` call from the page (JSON in, worker, Python, JSON out),
  median over --turns turns of computer-versus-computer duels (`ai_input` for every actor).
- site bytes: every file of the build, and what a first visit's boot downloads.

Goals (issue 3): shell <= 300 ms, engine ready <= 1500 ms cold and <= 600 ms warm, turn <= 5 ms.
This is a measurement, not a test: it never fails on a goal.  Other work on the machine shows
up in the figures; the load average is printed with them.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from playwright.sync_api import sync_playwright  # noqa: E402
from sitebuild import machine  # noqa: E402
from sitebuild.common import DEFAULT_OUT  # noqa: E402
from sitebuild.machine import CHROMIUM_ARGS  # noqa: E402
from sitebuild.serve import serving  # noqa: E402
from sitebuild.site import build_site, manifest_of  # noqa: E402

CHROMIUM = str(machine.CHROMIUM)
ARGS = list(CHROMIUM_ARGS)
SHELL_SELECTOR = "[data-testid=start-screen], [data-testid=resume-screen]"

# Installed before any page script: note when the interface first shows.
OBSERVE_SHELL = """(() => {
  const seen = () => {
    if (window.__shellSeenAt === undefined && document.querySelector(SELECTOR)) {
      window.__shellSeenAt = performance.now();
    }
  };
  new MutationObserver(seen).observe(document, { childList: true, subtree: true });
})();""".replace("SELECTOR", repr(SHELL_SELECTOR))

COLLECT = """async () => {
  const until = async (test) => { while (!test()) await new Promise((r) => setTimeout(r, 5)); };
  await until(() => performance.getEntriesByName('engine-ready').length > 0);
  await until(() => window.__shellSeenAt !== undefined ||
                    performance.getEntriesByName('shell-interactive').length > 0);
  const ready = performance.getEntriesByName('engine-ready')[0];
  const mark = performance.getEntriesByName('shell-interactive')[0];
  return {
    shell: mark ? mark.startTime : window.__shellSeenAt,
    ready: ready.startTime,
    worker: ready.detail,
  };
}"""

TURNS = """async (count) => {
  const { call } = await import('./engine.js');
  const times = [];
  let game = null;
  let duels = 0;
  while (times.length < count) {
    if (game === null) {
      const bytes = crypto.getRandomValues(new Uint8Array(16));
      const seed = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
      const made = await call('new_game', JSON.stringify({ names: ['A', 'B'], ruleset: {}, seed }));
      if (!made.ok) throw new Error(JSON.stringify(made.error));
      game = made.game;
      duels += 1;
    }
    const gameText = JSON.stringify(game);
    const seen = await call('view', gameText, '0');
    if (!seen.ok) throw new Error(JSON.stringify(seen.error));
    const phase = seen.view.phase;
    if (phase.kind === 'over') { game = null; continue; }
    const inputs = {};
    for (const actor of phase.actors) {
      const chosen = await call('ai_input', gameText, String(actor));
      if (!chosen.ok) throw new Error(JSON.stringify(chosen.error));
      inputs[actor] = chosen.input;
    }
    const t0 = performance.now();
    const stepped = await call('step', gameText, JSON.stringify(inputs));
    times.push(performance.now() - t0);
    if (!stepped.ok) throw new Error(JSON.stringify(stepped.error));
    game = stepped.game;
  }
  return { times, duels };
}"""


def cold_visit(browser: Any, url: str) -> tuple[Any, Any, dict[str, Any], int]:
    """A first visit in a fresh context: (context, page, boot figures, bytes fetched)."""
    context = browser.new_context()
    page = context.new_page()
    page.add_init_script(OBSERVE_SHELL)
    fetched: list[int] = []

    def count(response: Any) -> None:
        fetched.append(int(response.headers.get("content-length", 0)))

    page.on("response", count)
    page.goto(url)
    figures = page.evaluate(COLLECT)
    page.remove_listener("response", count)
    return context, page, figures, sum(fetched)


def measure(url: str, cold_runs: int, warm_runs: int, turns: int) -> dict[str, Any]:
    """Run the browser measurements against a served site."""
    cold: list[dict[str, Any]] = []
    warm: list[dict[str, Any]] = []
    first_visit_bytes: list[int] = []
    result: dict[str, Any] = {"times": [], "duels": 0}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            for run in range(cold_runs):
                context, page, figures, fetched = cold_visit(browser, url)
                cold.append(figures)
                first_visit_bytes.append(fetched)
                if run == cold_runs - 1:
                    page.evaluate("window.__offlineReady")
                    page.evaluate("window.__engineSnapshot")  # warm boots restore it
                    for _ in range(warm_runs):
                        page.goto(url)
                        warm.append(page.evaluate(COLLECT))
                    result = page.evaluate(TURNS, turns)
                context.close()
        finally:
            browser.close()
    return {
        "cold": cold,
        "warm": warm,
        "steps": result["times"],
        "duels": result["duels"],
        "first_visit_bytes": max(first_visit_bytes, default=0),
    }


def fmt(values: list[float]) -> str:
    """median (min-max) in ms."""
    if not values:
        return "-"
    return f"{statistics.median(values):7.1f}   ({min(values):.1f}-{max(values):.1f})"


def main() -> int:
    """Build (unless --site), serve, measure and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cold", type=int, default=3, help="fresh-context boots")
    parser.add_argument("--warm", type=int, default=5, help="reloads after caching")
    parser.add_argument("--turns", type=int, default=50, help="step calls to time")
    parser.add_argument("--site", type=Path, help="an existing build (default: build now)")
    args = parser.parse_args()
    root = args.site.resolve() if args.site else build_site(DEFAULT_OUT).root
    with serving(root) as server:
        results = measure(server.url, args.cold, args.warm, args.turns)
    files = manifest_of(root)
    site_bytes = sum((root / f).stat().st_size for f in files)
    big = sorted(files, key=lambda f: (root / f).stat().st_size, reverse=True)[:4]

    cold, warm = results["cold"], results["warm"]
    rows = [
        ("shell interactive, cold", fmt([r["shell"] for r in cold]), "<= 300"),
        ("shell interactive, warm", fmt([r["shell"] for r in warm]), "<= 300"),
        ("engine ready, cold", fmt([r["ready"] for r in cold]), "<= 1500"),
        ("engine ready, warm", fmt([r["ready"] for r in warm]), "<= 600"),
        (f"one turn (step), {len(results['steps'])} turns", fmt(results["steps"]), "<= 5"),
    ]
    print(f"\nbrowser benchmark: Chromium headless, {os.cpu_count()} cores, "
          f"load average {os.getloadavg()[0]:.2f}; {len(cold)} cold / {len(warm)} warm boots, "
          f"{results['duels']} duels")  # fmt: skip
    print(f"{'measure':<34}{'median ms   (min-max)':<30}goal ms")
    for name, value, goal in rows:
        print(f"{name:<34}{value:<30}{goal}")
    print("\nworker timeline, ms since the worker started (median):")
    for label, runs in (("cold", cold), ("warm", warm)):
        keys = ["snapshot", "script", "wasm", "pyodide", "engine", "ready"]
        parts = []
        for key in keys:
            values = [r["worker"][key] for r in runs if key in r["worker"]]
            if values:
                parts.append(f"{key} {statistics.median(values):.0f}")
        paths = sorted({r["worker"].get("path", "?") for r in runs})
        print(f"  {label}: {', '.join(parts)}  (boot path: {'/'.join(paths)})")
    print(f"\nsite: {site_bytes:,} bytes in {len(files)} files; a first visit's boot fetched "
          f"{results['first_visit_bytes']:,} bytes")  # fmt: skip
    for name in big:
        print(f"  {name}: {(root / name).stat().st_size:,}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
