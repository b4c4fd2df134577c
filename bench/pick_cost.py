"""What one gesture pick costs the page's main thread early and late in a hot-seat duel, with its
storage work counted apart from the rest (headless Chromium).

    .venv/bin/python bench/pick_cost.py --site DIR [--late 30] [--picks 8] [--sizes desktop,phone]

A hot-seat duel (each wizard: a shield with the left hand, a wave with the right, every turn; no
one is ever hurt) is played through the page with clicks, as a player would (pass the device,
pick two gestures, seal), up to turn `--late`. On the first orders screen of turn 1 and of turn
`--late`, `--picks` gestures are picked one after another (the left hand's P, D, P, ... with the
right hand's W last, so the screen ends on the duel's orders), each waited on until its preview
has come; per pick, the deltas of:
- the renderer main thread's tasks, script, style recalculation and layout time (CDP
  `Performance.getMetrics`: TaskDuration, ScriptDuration, RecalcStyleDuration, LayoutDuration);
- the page's storage work: the time inside localStorage's getItem / setItem / removeItem and in
  the JSON.stringify that made a text then stored, or the JSON.parse of a text just read (an
  init script wraps them and counts; the rest of the script time is the pick's own logic, the
  engine's preview and the drawing), with the number of storage calls and characters written.
It runs in the e2e suite's browser, launched as e2e/conftest.py launches it (a `kept_context`, so
the page boots the engine from the kept snapshot), on e2e/serving.py's server. Waits are the
page's own conditions, observed in the page. A measurement, not a test: it asserts nothing about
the figures. `--site` is a built site (python3 build.py build --out DIR); a build of an older
commit gives the figures before a change, on the same machine.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "e2e"))

from conftest import CHROMIUM, CHROMIUM_ARGS, kept_context  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402
from render_cost import ENGINE_MS, ORDERS, SCREEN, SIZES, seal, settle  # noqa: E402
from serving import serving  # noqa: E402

METRICS = ("TaskDuration", "ScriptDuration", "RecalcStyleDuration", "LayoutDuration")
# Counts the page's storage work: localStorage's own calls, plus the JSON text made for a write
# (the last JSON.stringify, when setItem is given that very text) or read back (JSON.parse of
# the text getItem has just returned).
COUNT_STORAGE = """(() => {
  const acc = { ms: 0, calls: 0, written: 0 };
  Object.defineProperty(window, '__storageWork', { get: () => ({ ...acc }) });
  const now = () => performance.now();
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  let made = { text: null, ms: 0 };
  let got = null;
  JSON.stringify = function timed(...args) {
    const t = now();
    const text = stringify.apply(this, args);
    made = { text, ms: now() - t };
    return text;
  };
  JSON.parse = function timed(text, ...rest) {
    const t = now();
    const value = parse.call(this, text, ...rest);
    if (got !== null && text === got) acc.ms += now() - t;
    got = null;
    return value;
  };
  const proto = Storage.prototype;
  for (const name of ['getItem', 'setItem', 'removeItem']) {
    const call = proto[name];
    proto[name] = function counted(...args) {
      const t = now();
      const out = call.apply(this, args);
      acc.ms += now() - t;
      acc.calls += 1;
      if (name === 'setItem') {
        acc.written += String(args[1]).length;
        if (made.text !== null && args[1] === made.text) acc.ms += made.ms;
        made = { text: null, ms: 0 };
      }
      if (name === 'getItem') got = out;
      return out;
    };
  }
})();"""
# The calls one pick made before this page kept drafts apart (storage.js's saveGame and
# setCurrentGameId at 569e569), replayed `n` times on the duel saved now, each with a new time
# so that every write changes the text: the mean ms of one, timed as a whole (the page's timers
# are coarse, 0.1 ms, and one pick's calls are few).
REPLAY_SAVE = """(n) => {
  const key = Object.keys(localStorage).find((k) => k.startsWith('wavinghands:v1:game:'));
  const index = 'wavinghands:v1:index';
  const current = 'wavinghands:v1:current';
  const duel = JSON.parse(localStorage.getItem(key));
  const keepGame = localStorage.getItem(key);
  const keepIndex = localStorage.getItem(index);
  const t = performance.now();
  for (let i = 0; i < n; i += 1) {
    localStorage.getItem(key);
    localStorage.setItem(key, JSON.stringify({ ...duel, updatedAt: i }));
    const list = JSON.parse(localStorage.getItem(index)).filter((g) => g.id !== duel.id);
    list.push({ id: duel.id, mode: duel.mode, updatedAt: i, ...duel.summary });
    localStorage.setItem(index, JSON.stringify(list));
    JSON.parse(localStorage.getItem(current));
    localStorage.setItem(current, JSON.stringify(duel.id));
  }
  const ms = (performance.now() - t) / n;
  localStorage.setItem(key, keepGame);
  localStorage.setItem(index, keepIndex);
  return ms;
}"""
PREVIEWED = "[data-testid=preview][aria-busy=false]"


def to_orders(page: Any) -> tuple[int, int]:
    """Take the device when passed; (wizard, turn) of the orders screen then settled."""
    settle(page, SCREEN)
    if page.locator("[data-testid=pass-screen]").count():
        page.click("[data-testid=pass-ready]")
        settle(page, ORDERS, "[data-testid=pass-screen]")
    screen = page.locator("[data-testid=orders-screen]")
    return int(screen.get_attribute("data-wizard")), int(screen.get_attribute("data-turn"))


def pick(page: Any, hand: str, gesture: str) -> None:
    """Pick one gesture of the first row and wait for its preview."""
    page.check(f"[data-testid=gesture-0-{hand}-{gesture}]")
    settle(page, PREVIEWED)


def counters(page: Any, cdp: Any) -> dict[str, float]:
    """The main thread's metrics (ms) and the storage counters now."""
    got = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
    out = {k: got.get(k, 0.0) * 1000 for k in METRICS}
    work = page.evaluate("window.__storageWork")
    return out | {"storage": work["ms"], "calls": work["calls"], "written": work["written"]}


def timed_picks(page: Any, cdp: Any, count: int) -> list[dict[str, float]]:
    """`count` picks on the orders screen shown, each one's deltas; ends on the duel's orders."""
    # The right hand picks S, the left changes its mind (D, P, ...: ending on P), then the right
    # hand picks W: every pick changes the form, whatever it showed (`count` is even).
    plan = [("R", "S"), *[("L", g) for g in ["D", "P"] * (count // 2 - 1)], ("R", "W")]
    rows = []
    for hand, gesture in plan:
        before = counters(page, cdp)
        pick(page, hand, gesture)
        after = counters(page, cdp)
        rows.append({k: after[k] - before[k] for k in after})
    return rows


def saved_sizes(page: Any) -> list[tuple[str, int]]:
    """The page's saved entries now: (kind: game, index, drafts, ..., characters of its text)."""
    return [
        (kind, size)
        for kind, size in page.evaluate(
            "Object.keys(localStorage).filter((k) => k.startsWith('wavinghands:'))"
            ".map((k) => [k.split(':')[2], localStorage.getItem(k).length])"
        )
    ]


@contextmanager
def duel_page(browser: Any, url: str, size: str) -> Iterator[Any]:
    """A page of a kept context of `size`, the start screen shown and the engine ready."""
    with kept_context(browser, url, init_script=COUNT_STORAGE, **SIZES[size]) as context:
        page = context.new_page()
        page.on("pageerror", lambda e: print(f"[pageerror] {e}", file=sys.stderr))
        page.goto(url)
        page.wait_for_function("window.__appReady === true", timeout=ENGINE_MS, polling=100)
        yield page


def play(
    browser: Any, url: str, size: str, late: int, picks: int, rates: list[float]
) -> dict[tuple[int, float], Any]:
    """The duel at one size: {(turn, CPU slowdown): (per-pick rows, the saved entries'
    characters, a whole-duel save replayed)}; the picks at each slowdown in turn (CDP's CPU
    throttling, on the timed picks only: 4 is about a mid-range phone)."""
    out: dict[tuple[int, float], Any] = {}
    with duel_page(browser, url, size) as page:
        cdp = page.context.new_cdp_session(page)
        cdp.send("Performance.enable", {"timeDomain": "threadTicks"})
        isolated = page.evaluate("window.crossOriginIsolated")
        # Not isolated: the page's timers step by 0.1 ms (5 us when isolated).
        print(f"{size}: crossOriginIsolated {isolated}", file=sys.stderr)
        for seat, name in enumerate(("Ann", "Bob")):
            page.fill(f"[data-testid=name-{seat}]", name)
        page.check("[data-testid=mode-hotseat]")
        page.click("[data-testid=start-game]")
        # Two orders screens a turn (the wizards' in turn); the first of a measured turn is timed.
        for screen in range(2 * late):
            turn = screen // 2 + 1
            wizard, shown = to_orders(page)
            assert shown == turn, (shown, turn)
            if screen % 2 == 0 and turn in (1, late):
                for rate in rates:
                    cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
                    rows = timed_picks(page, cdp, picks)
                    out[turn, rate] = (rows, saved_sizes(page), page.evaluate(REPLAY_SAVE, 200))
                cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
            else:
                pick(page, "L", "P")
                pick(page, "R", "W")
            seal(page, wizard, turn)
    return out


LABELS = (
    ("TaskDuration", "tasks"),
    ("ScriptDuration", "script"),
    ("RecalcStyleDuration", "style"),
    ("LayoutDuration", "layout"),
    ("storage", "storage work"),
    ("calls", "storage calls"),
    ("written", "chars written"),
)


def report(size: str, result: dict[tuple[int, float], Any]) -> list[str]:
    """One size's table: per measured turn, the median pick (and the largest storage work)."""
    out = [
        f"\n{size}: per pick, median of the picks on the turn's first orders screen (ms; counts)\n",
        "| turn | CPU slowdown | "
        + " | ".join(label for _, label in LABELS)
        + " | max storage work | a whole-duel save replayed"
        + " | saved entries (chars) |",
        "|" + "---|" * (len(LABELS) + 5),
    ]
    for (turn, rate), (rows, sizes, replayed) in sorted(result.items()):
        medians = [statistics.median(r[k] for r in rows) for k, _ in LABELS]
        cells = [f"{v:.2f}" if i < 5 else f"{v:.0f}" for i, v in enumerate(medians)]
        entries = ", ".join(f"{k} {n}" for k, n in sorted(sizes))
        worst = max(r["storage"] for r in rows)
        out.append(
            f"| {turn} | {rate:g}x | "
            + " | ".join(cells)
            + f" | {worst:.2f} | {replayed:.3f} | {entries} |"
        )
    return out


def main() -> int:
    """Serve the site, play the duel at each size, print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, required=True)
    parser.add_argument("--late", type=int, default=30)
    parser.add_argument("--picks", type=int, default=8)
    parser.add_argument("--sizes", default="desktop")
    parser.add_argument("--slowdowns", default="1,4", help="CPU throttling of the timed picks")
    args = parser.parse_args()
    if args.picks < 4 or args.picks % 2:
        parser.error("--picks is an even number, 4 or more")
    rates = [float(r) for r in args.slowdowns.split(",")]
    lines = [
        f"site: {args.site}  late turn: {args.late}  picks: {args.picks}  "
        f"load average {os.getloadavg()[0]:.1f}"
    ]
    with serving(args.site.resolve()) as server, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=[*CHROMIUM_ARGS])
        try:
            sizes = args.sizes.split(",")
            results = {s: play(browser, server.url, s, args.late, args.picks, rates) for s in sizes}
        finally:
            browser.close()
    tables = [row for size, result in results.items() for row in report(size, result)]
    print("\n".join([*lines, *tables]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
