"""What the page's own drawing costs per turn and per click of a hot-seat duel (headless Chromium).

    .venv/bin/python bench/render_cost.py --site DIR [--turns 6] [--sizes desktop,phone]
                                          [--motion reduce|no-preference]

A fixed hot-seat duel (each wizard: a shield with the left hand every turn, a magic missile with
the right every second turn, aimed through the target list) is played through the page with
clicks, as a player would: pass the device, pick two gestures, answer the target question, seal.
It runs in the e2e suite's browser, launched as e2e/conftest.py launches it (its CHROMIUM and
CHROMIUM_ARGS; a context made by its `kept_context`, so the page boots the engine from the kept
snapshot, and with its reduced motion unless `--motion` says otherwise), on e2e/serving.py's server.

Per turn (both wizards' screens, from the first wizard's pass screen to the next turn's), the
deltas of:
- the renderer main thread's script, style recalculation and layout time, and all its tasks
  (CDP `Performance.getMetrics`: ScriptDuration, RecalcStyleDuration, LayoutDuration,
  TaskDuration), and paint time (the wall time of the trace's Paint, PrePaint, Layerize and
  PaintImage events: on a loaded machine it includes waits);
- nodes the page's script created (document.createElement / createElementNS / createTextNode,
  counted by an init script), and the elements on the page at the turn's end;
- frames the renderer's compositor drew (the trace's DrawFrame events);
- CPU (user + system, from /proc) of the renderers' main threads, of their engine worker threads
  (Pyodide: the rules, not the drawing), of its other threads (compositor, raster, I/O), and of
  everything (this process, Playwright's driver and the whole browser: e2e/conftest.py's
  `process_tree_cpu`, the figure the suite's per-file table adds up).
Then the same per click on one orders screen (a gesture, the other gesture, a target), and the
CPU of an idle second on an orders screen (a player reading; nothing should run).
Waits are the page's own conditions, observed in the page (a MutationObserver), not Playwright's
polling, which would draw frames of its own.  A measurement, not a test: it asserts nothing
about the figures.  `--site` is a built site (python3 build.py build --out DIR); a build of an
older commit gives the figures before a change, on the same machine, in one run each.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "e2e"))

# The suite's browser and its helpers (importing conftest also makes every context bypass the
# page's policy and prefer reduced motion, as in the suite).
from conftest import (  # noqa: E402
    CHROMIUM,
    CHROMIUM_ARGS,
    DESKTOP,
    WEBRTC_ARGS,
    kept_context,
    process_tree_cpu,
)
from playwright.sync_api import sync_playwright  # noqa: E402
from serving import serving  # noqa: E402

ENGINE_MS = 120_000
PHONE = {"width": 390, "height": 844}
SIZES: dict[str, dict[str, Any]] = {
    "desktop": {"viewport": DESKTOP},
    "phone": {"viewport": PHONE, "device_scale_factor": 2, "has_touch": True, "is_mobile": True},
}
METRICS = ("ScriptDuration", "RecalcStyleDuration", "LayoutDuration", "TaskDuration")
PAINT_EVENTS = ("Paint", "PrePaint", "Layerize", "PaintImage")
TRACE_CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline.frame"]
# Nodes made by the page's script (its helpers build every node through these three).
COUNT_NODES = """(() => {
  const made = { n: 0 };
  Object.defineProperty(window, '__nodesMade', { get: () => made.n });
  for (const name of ['createElement', 'createElementNS', 'createTextNode']) {
    const make = Document.prototype[name];
    Document.prototype[name] = function counted(...args) {
      made.n += 1;
      return make.apply(this, args);
    };
  }
})();"""
# Resolves once `present` matches and `absent` does not (either may be ''), checked at once and
# on every change of the page; refuses after `ms`.
SETTLED = """([present, absent, ms]) => new Promise((resolve, reject) => {
  const holds = () => (!present || document.querySelector(present))
    && (!absent || !document.querySelector(absent));
  if (holds()) { resolve(true); return; }
  const watch = new MutationObserver(() => {
    if (holds()) { watch.disconnect(); clearTimeout(late); resolve(true); }
  });
  const late = setTimeout(() => {
    watch.disconnect();
    reject(new Error(`waited for ${present} / not ${absent}`));
  }, ms);
  watch.observe(document, { subtree: true, childList: true, attributes: true });
})"""
ORDERS = (
    "[data-testid=orders-screen]:has([data-testid=preview][aria-busy=false])"
    ":not(:has([data-animating=true]))"
)
SCREEN = f"[data-testid=pass-screen], {ORDERS}"
CLICKS = ("gesture L", "gesture R", "target")
ELEMENTS = "document.getElementsByTagName('*').length"


def orders_for(wizard: int, turn: int) -> tuple[str, str]:
    """The bench duel's gestures (left, right): a shield every turn, a missile (S, D) every second
    turn; the second wizard's missile a turn later, so one screen of each turn asks a target."""
    return "P", "SD"[(turn + wizard) % 2]


def descendants(root: int) -> list[int]:
    """Process ids below `root` (it included)."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                parents[int(entry)] = int(
                    Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[1]
                )
            except OSError:
                continue
    tree, grew = {root}, True
    while grew:
        below = {pid for pid, ppid in parents.items() if ppid in tree} - tree
        tree |= below
        grew = bool(below)
    return sorted(tree)


def _ticks(stat: str) -> tuple[str, int]:
    """(thread or process name, utime + stime ticks) from a /proc .../stat line."""
    name = stat[stat.index("(") + 1 : stat.rindex(")")]
    fields = stat.rsplit(")", 1)[1].split()
    return name, int(fields[11]) + int(fields[12])


def renderer_cpu() -> dict[str, float]:
    """CPU seconds so far of the browser's renderer processes (their main threads, the engine's
    worker threads, the rest: compositor, raster, I/O, and threads ended meanwhile, through the
    process total) and of its GPU process (the display compositor: frames drawn)."""
    tick = os.sysconf("SC_CLK_TCK")
    out = {"main": 0.0, "worker": 0.0, "other": 0.0, "gpu": 0.0}
    for pid in descendants(os.getpid()):
        try:
            kind = Path(f"/proc/{pid}/cmdline").read_bytes()
            _, total = _ticks(Path(f"/proc/{pid}/stat").read_text())
            if b"--type=gpu-process" in kind:
                out["gpu"] += total / tick
            if b"--type=renderer" not in kind:
                continue
            threads = {
                task.name: _ticks((task / "stat").read_text())
                for task in Path(f"/proc/{pid}/task").iterdir()
            }
        except OSError:
            continue
        main = threads[str(pid)][1] if str(pid) in threads else 0
        worker = sum(t for name, t in threads.values() if name.startswith("DedicatedWorker"))
        out["main"] += main / tick
        out["worker"] += worker / tick
        out["other"] += (total - main - worker) / tick
    return out


@dataclass
class Mark:
    """What the counters said at one moment."""

    name: str
    metrics: dict[str, float]
    cpu: dict[str, float]
    nodes: int
    elements: int


@dataclass
class Probe:
    """Marks taken on one page; the trace's events are split between consecutive marks."""

    page: Any
    cdp: Any
    marks: list[Mark] = field(default_factory=list)

    def mark(self, name: str) -> Mark:
        """Read every counter now, and put `name` in the trace."""
        self.page.evaluate("(name) => console.timeStamp(name)", f"wh-mark {name}")
        got = {m["name"]: m["value"] for m in self.cdp.send("Performance.getMetrics")["metrics"]}
        cpu = renderer_cpu()
        cpu["all"] = process_tree_cpu()
        nodes, elements = self.page.evaluate(f"[window.__nodesMade, {ELEMENTS}]")
        mark = Mark(name, {k: got.get(k, 0.0) for k in METRICS}, cpu, nodes, elements)
        self.marks.append(mark)
        return mark


def trace_windows(trace: bytes, spans: dict[str, tuple[str, str]]) -> dict[str, dict[str, float]]:
    """Per span (label -> (from mark, to mark)): frames drawn and paint ms between the marks."""
    events = json.loads(trace)
    events = events["traceEvents"] if isinstance(events, dict) else events
    at = {}
    for e in events:
        message = (e.get("args", {}).get("data") or {}).get("message", "")
        if e.get("name") == "TimeStamp" and message.startswith("wh-mark "):
            at[message[len("wh-mark ") :]] = e["ts"]
    timed = sorted(
        (e["ts"], e.get("name"), e.get("dur", 0))
        for e in events
        if "ts" in e and e.get("name") in ("DrawFrame", *PAINT_EVENTS)
    )
    out: dict[str, dict[str, float]] = {}
    for label, (first, last) in spans.items():
        if first not in at or last not in at:
            continue
        inside = [(name, dur) for ts, name, dur in timed if at[first] <= ts < at[last]]
        out[label] = {
            "frames": sum(1 for name, _ in inside if name == "DrawFrame"),
            "paint": sum(dur for name, dur in inside if name in PAINT_EVENTS) / 1000,
        }
    return out


def settle(page: Any, present: str, absent: str = "") -> None:
    """Wait, in the page, until `present` matches and `absent` does not."""
    page.evaluate(SETTLED, [present, absent, ENGINE_MS])


def current(page: Any) -> tuple[str, int, int]:
    """Pass the wait until a screen settles; (its test id, wizard, turn) (pass screen: -1, -1)."""
    settle(page, SCREEN)
    screen = page.locator("[data-testid=orders-screen]")
    if not screen.count():
        return "pass", -1, -1
    return (
        "orders",
        int(screen.get_attribute("data-wizard")),
        int(screen.get_attribute("data-turn")),
    )


def write_orders(page: Any, probe: Probe | None, wizard: int, turn: int) -> None:
    """Click the wizard's two gestures and answer the missile's target; a mark after each when
    `probe` is given (the per-click table)."""
    left, right = orders_for(wizard, turn)
    for hand, gesture in (("L", left), ("R", right)):
        page.check(f"[data-testid=gesture-0-{hand}-{gesture}]")
        settle(page, "[data-testid=preview][aria-busy=false]")
        if probe:
            probe.mark(f"gesture {hand}")
    target = page.locator("[data-testid=target-0-R]")
    if right == "D" and target.count():
        page.select_option("[data-testid=target-0-R]", f"W{1 - wizard}")
        settle(page, "[data-testid=preview][aria-busy=false]")
        if probe:
            probe.mark("target")


def seal(page: Any, wizard: int, turn: int) -> None:
    """Seal the orders written; wait until their form has gone."""
    page.click("[data-testid=submit-orders]")
    settle(page, "", f"[data-testid=orders-screen][data-wizard='{wizard}'][data-turn='{turn}']")


@contextmanager
def duel_page(browser: Any, url: str, size: str, motion: str) -> Iterator[Any]:
    """A page of a kept context of `size`, the start screen shown and the engine ready."""
    with kept_context(
        browser, url, init_script=COUNT_NODES, reduced_motion=motion, **SIZES[size]
    ) as context:
        page = context.new_page()
        page.on("pageerror", lambda e: print(f"[pageerror] {e}", file=sys.stderr))
        page.goto(url)
        page.wait_for_function("window.__appReady === true", timeout=ENGINE_MS, polling=100)
        yield page


def to_orders(page: Any) -> tuple[int, int]:
    """Take the device when passed; (wizard, turn) of the orders screen then settled."""
    kind, wizard, turn = current(page)
    if kind == "pass":
        page.click("[data-testid=pass-ready]")
        settle(page, ORDERS, "[data-testid=pass-screen]")
        kind, wizard, turn = current(page)
    return wizard, turn


def play(browser: Any, url: str, size: str, motion: str, turns: int) -> dict[str, Any]:
    """The duel at one size; returns its marks, the trace's windows and an idle second's CPU."""
    with duel_page(browser, url, size, motion) as page:
        cdp = page.context.new_cdp_session(page)
        cdp.send("Performance.enable", {"timeDomain": "threadTicks"})
        probe = Probe(page, cdp)
        page.fill("[data-testid=name-0]", "Ann")
        page.fill("[data-testid=name-1]", "Bob")
        page.check("[data-testid=mode-hotseat]")
        browser.start_tracing(page=page, categories=TRACE_CATEGORIES)
        probe.mark("start")
        page.click("[data-testid=start-game]")
        for turn in range(1, turns + 1):
            for screen in range(2):
                wizard, now = to_orders(page)
                assert now == turn, (now, turn)
                # The per-click table: the second turn's first screen (its missile is completed).
                timed = turn == 2 and screen == 0
                if timed:
                    probe.mark("click start")
                write_orders(page, probe if timed else None, wizard, turn)
                seal(page, wizard, turn)
            current(page)
            probe.mark(f"turn {turn}")
        # An idle second on the next orders screen (a player reading it).
        to_orders(page)
        before = probe.mark("idle start")
        time.sleep(1.0)
        after = probe.mark("idle")
        trace = browser.stop_tracing()
        names = [m.name for m in probe.marks]
        spans = {
            f"turn {t}": ("start" if t == 1 else f"turn {t - 1}", f"turn {t}")
            for t in range(1, turns + 1)
        }
        spans |= {n: (names[i - 1], n) for i, n in enumerate(names) if n in CLICKS}
        spans["idle"] = ("idle start", "idle")
        windows = trace_windows(trace, spans)
        return {
            "marks": probe.marks,
            "windows": windows,
            "idle": delta(before, after, windows.get("idle", {})),
        }


def delta(a: Mark, b: Mark, window: dict[str, float]) -> dict[str, float]:
    """One row: b minus a (ms), the window's frames and paint."""
    row = {k: (b.metrics[k] - a.metrics[k]) * 1000 for k in METRICS}
    row |= {
        f"cpu {k}": (b.cpu[k] - a.cpu[k]) * 1000 for k in ("main", "worker", "other", "gpu", "all")
    }
    row |= {"nodes": b.nodes - a.nodes, "elements": b.elements, **window}
    return row


HEAD = (
    "script | style | layout | paint | tasks | main CPU | worker CPU | other renderer CPU | "
    "GPU process CPU | all CPU | nodes made | elements | frames"
)
COLUMNS = (
    "ScriptDuration",
    "RecalcStyleDuration",
    "LayoutDuration",
    "paint",
    "TaskDuration",
    "cpu main",
    "cpu worker",
    "cpu other",
    "cpu gpu",
    "cpu all",
    "nodes",
    "elements",
    "frames",
)


def line(label: str, row: dict[str, float]) -> str:
    """A table row (ms, counts)."""
    return f"| {label} | " + " | ".join(f"{row.get(c, 0):.0f}" for c in COLUMNS) + " |"


def report(size: str, result: dict[str, Any]) -> list[str]:
    """The tables of one size."""
    marks: list[Mark] = result["marks"]
    by = {m.name: m for m in marks}
    windows = result["windows"]
    turn_rows = [
        delta(
            by["start" if t == 1 else f"turn {t - 1}"],
            by[f"turn {t}"],
            windows.get(f"turn {t}", {}),
        )
        for t in range(1, len([m for m in marks if m.name.startswith("turn ")]) + 1)
    ]
    out = [
        f"\n{size}: per turn (ms; counts)\n",
        f"| turn | {HEAD} |",
        "|" + "---|" * (len(COLUMNS) + 1),
    ]
    out += [line(str(t), row) for t, row in enumerate(turn_rows, 1)]
    later = turn_rows[1:] or turn_rows
    out.append(
        line(
            "median (turns 2+)", {c: statistics.median(r.get(c, 0) for r in later) for c in COLUMNS}
        )
    )
    out += [
        f"\n{size}: per click on turn 2's first orders screen (ms; counts)\n",
        f"| click | {HEAD} |",
        "|" + "---|" * (len(COLUMNS) + 1),
    ]
    names = [m.name for m in marks]
    for name in CLICKS:
        if name in names:
            i = names.index(name)
            out.append(line(name, delta(marks[i - 1], marks[i], windows.get(name, {}))))
    out += [
        f"\n{size}: an idle second on the next orders screen (ms; counts)\n",
        f"| | {HEAD} |",
        "|" + "---|" * (len(COLUMNS) + 1),
        line("idle 1 s", result["idle"]),
    ]
    return out


def main() -> int:
    """Serve the site, play the duel at each size, print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, required=True)
    parser.add_argument("--turns", type=int, default=6)
    parser.add_argument("--sizes", default="desktop,phone")
    parser.add_argument("--motion", default="reduce", choices=("reduce", "no-preference"))
    args = parser.parse_args()
    lines = [
        f"site: {args.site}  turns: {args.turns}  motion: {args.motion}  "
        f"load average {os.getloadavg()[0]:.1f}"
    ]
    with serving(args.site.resolve()) as server, sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=[*CHROMIUM_ARGS, *WEBRTC_ARGS]
        )
        try:
            for size in args.sizes.split(","):
                lines += report(size, play(browser, server.url, size, args.motion, args.turns))
        finally:
            browser.close()
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
