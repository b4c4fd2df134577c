"""A live duel between two scripted players with fixed thinking times, through the real page.

    python3 bench/live_turn_bench.py [--think 2.0 3.0] [--turns 6] [--site dist/site]

Two Chromium contexts on this machine connect live (one code each way, as in e2e/test_live.py),
then each player waits its fixed "thinking" time after its orders screen for a turn appears, and
seals (the e2e driver's scripted gestures). A turn's wall time runs from the first moment either
player could write its orders to the first moment either could write the next turn's. Decisions
the rules ask mid-turn are answered at once (the script's duel has two). Printed: each turn and
the median, against max(thinking) (both choose at the same time) and the sum (taking turns).
Needs the built site (`python3 build.py build`) and Chromium.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "e2e"))

from conftest import CHROMIUM, CHROMIUM_ARGS, WEBRTC_ARGS  # noqa: E402
from playwright import sync_api  # noqa: E402
from remote_play import connect, open_site, write_decision, write_orders  # noqa: E402
from sitebuild.serve import serving  # noqa: E402

POLL_S = 0.02


def orders_turn(page: Any) -> int | None:
    """The turn of the orders screen this side may seal now (its own move, or sealed ahead)."""
    return page.evaluate(
        """() => {
          const s = document.querySelector('[data-testid=orders-screen]');
          const r = document.querySelector('[data-testid=remote-screen]');
          if (!s || !r || r.dataset.queued) return null;
          return Number(s.dataset.turn);
        }"""
    )


def run(site: Path, think: tuple[float, float], turns: int) -> dict[str, Any]:
    """Play `turns` turns live; return the wall time of each turn."""
    with serving(site) as server, sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=[*CHROMIUM_ARGS, *WEBRTC_ARGS], headless=True
        )
        try:
            contexts = [
                browser.new_context(viewport={"width": 1200, "height": 900}) for _ in (0, 1)
            ]
            pages = {w: contexts[w].new_page() for w in (0, 1)}
            for page in pages.values():
                open_site(page, server.url)
            connect(pages)  # the guest has sealed turn 1 to connect: timing starts at turn 2
            first_seen: dict[int, float] = {}
            seen: dict[tuple[int, int], float] = {}
            done: set[tuple[int, int]] = set()
            deadline = time.monotonic() + turns * (sum(think) + 30)
            while len(first_seen) < turns + 2 and time.monotonic() < deadline:
                for w in (0, 1):
                    if pages[w].locator("[data-testid=decision-screen]").count():
                        write_decision(pages[w])  # what the rules ask mid-turn: no thinking
                        gone = "[data-testid=decision-screen]"
                        pages[w].wait_for_selector(gone, state="detached")
                        continue
                    t = orders_turn(pages[w])
                    if t is None or (w, t) in done:
                        continue
                    if t < 2:  # the host's turn 1, before timing starts: at once
                        write_orders(pages[w])
                        done.add((w, t))
                        continue
                    now = time.monotonic()
                    seen.setdefault((w, t), now)
                    first_seen.setdefault(t, now)
                    if now - seen[(w, t)] >= think[w]:
                        write_orders(pages[w])
                        done.add((w, t))
                time.sleep(POLL_S)
            walls = [
                first_seen[t + 1] - first_seen[t] for t in sorted(first_seen) if t + 1 in first_seen
            ]
            return {"walls": walls[:turns]}
        finally:
            browser.close()


def main() -> int:
    """Run the benchmark and print the table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--think", nargs=2, type=float, default=(2.0, 3.0), metavar=("HOST_S", "GUEST_S")
    )
    ap.add_argument("--turns", type=int, default=6)
    ap.add_argument("--site", type=Path, default=ROOT / "dist" / "site")
    args = ap.parse_args()
    if not (args.site / "index.html").exists():
        print(f"no built site at {args.site}: run `python3 build.py build` first", file=sys.stderr)
        return 2
    think = (args.think[0], args.think[1])
    walls = run(args.site, think, args.turns)["walls"]
    if not walls:
        print("no turn was timed", file=sys.stderr)
        return 1
    print(
        f"thinking: host {think[0]:.1f} s, guest {think[1]:.1f} s; "
        f"max {max(think):.1f} s, sum {sum(think):.1f} s"
    )
    for i, wall in enumerate(walls, start=2):
        print(f"turn {i}: {wall:.2f} s")
    median = statistics.median(walls)
    print(
        f"median turn wall time {median:.2f} s = max(thinking) + {median - max(think):.2f} s "
        f"(sum of thinking would be {sum(think):.1f} s)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
