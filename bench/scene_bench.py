"""What the battle scene costs (issue 27), in headless Chromium on this machine; prints a table.

    python3 bench/scene_bench.py --site DIR [--base-site DIR] [--turns 3]

- frames during an animated turn: a hot-seat duel (both wizards summon a goblin, then stab) is
  played to turn `--turns` + 1; on each orders screen that animates the turn before, every
  animation frame's gap is recorded from the scene's first step until it stops
  (`data-animating=false`): the longest gap and the 95th percentile, and the animation's length.
- the scene's draw time: the page's `scene-draw` User Timing measures (web/ui/scene/scene.js),
  median and longest, over every scene drawn.
- bytes added to a first visit: the size over the wire (a `.br` sibling, else gzip level 6) of
  the page's first-visit text files against `--base-site` (a build of the commit before the
  scene), summed; without a base only the page's total is printed.
This is a measurement, not a test: it never fails on a goal (<= 4 s per ordinary turn; <= 100 kB
added to a first visit, over the wire).
"""

from __future__ import annotations

import argparse
import gzip
import os
import statistics
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "e2e")]
from duel_play import open_game, play_duel, play_turn, start_hotseat  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402
from sitebuild import machine  # noqa: E402
from sitebuild.machine import CHROMIUM_ARGS  # noqa: E402
from sitebuild.serve import serving  # noqa: E402

ENGINE_MS = 120_000
SCRIPT = {0: ["S-", "F-", "W-", ">-", ">-", ">-"], 1: ["S-", "F-", "W-", "->", "->", "->"]}
# Every animation frame's gap while the scene animates (page-side, so no round trip counts).
WATCH = """() => {
  window.__frames = [];
  let last = null;
  const tick = (now) => {
    const scene = document.querySelector('[data-testid=battle-scene][data-animating=true]');
    if (scene && last !== null) window.__frames.push(now - last);
    last = scene ? now : null;
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}"""
FIRST_VISIT = ("index.html", "app.js", "style.css", "sw-register.js")


def percentile(values: list[float], p: float) -> float:
    """The p-th percentile (nearest rank)."""
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, round(p / 100 * len(ordered)) - 1))]


def play(page: Any, turns: int) -> tuple[list[float], list[float], list[float]]:
    """Play the duel; return the frame gaps and each animation's length, and the draw times."""
    gaps: list[float] = []
    lengths: list[float] = []

    def write(page: Any, wizard: int, turn: int) -> bool:
        if turn > turns + 1:
            return True
        if page.locator("[data-testid=scene-replay]:not([hidden])").count():
            page.evaluate("() => { window.__frames = []; }")
            started = page.evaluate("() => performance.now()")
            page.wait_for_selector("[data-testid=battle-scene][data-animating=false]",
                                   timeout=ENGINE_MS)
            lengths.append(page.evaluate("() => performance.now()") - started)
            gaps.extend(page.evaluate("() => window.__frames"))
        play_turn(page, SCRIPT[wizard][turn - 1])
        return False

    play_duel(page, write, screens=8 * turns)
    draws = page.evaluate(
        "() => performance.getEntriesByName('scene-draw').map((e) => e.duration)")
    return gaps, lengths, draws


def first_visit_bytes(site: Path) -> dict[str, int]:
    """Each first-visit text file's size over the wire: its .br sibling, else gzipped at level 6
    (as a static host gzips on the fly: bench/first_visit.py)."""
    out = {}
    for name in FIRST_VISIT:
        br = site / f"{name}.br"
        plain = site / name
        if br.exists():
            out[name] = br.stat().st_size
        elif plain.exists():
            out[name] = len(gzip.compress(plain.read_bytes(), compresslevel=6))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", type=Path, required=True)
    parser.add_argument("--base-site", type=Path)
    parser.add_argument("--turns", type=int, default=5)
    args = parser.parse_args()
    with serving(args.site) as server, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(machine.CHROMIUM),
                                     args=list(CHROMIUM_ARGS), headless=True)
        page = browser.new_page(viewport={"width": 1280, "height": 800}, bypass_csp=True)
        open_game(page, server.url)
        page.evaluate(WATCH)
        start_hotseat(page)
        gaps, lengths, draws = play(page, args.turns)
        browser.close()
    print(f"load average: {os.getloadavg()[0]:.1f} (2 cores)")
    if gaps:
        print(f"frames during animated turns: {len(gaps)} gaps over {len(lengths)} turns; "
              f"longest {max(gaps):.0f} ms, p95 {percentile(gaps, 95):.0f} ms, "
              f"median {statistics.median(gaps):.1f} ms")
        print(f"animation length per turn: {', '.join(f'{x:.0f}' for x in lengths)} ms")
    if draws:
        print(f"scene draw: median {statistics.median(draws):.2f} ms, longest {max(draws):.2f} ms "
              f"over {len(draws)} scenes")
    now = first_visit_bytes(args.site)
    print(f"first-visit text files (brotli): {sum(now.values()):,} bytes {now}")
    if args.base_site:
        base = first_visit_bytes(args.base_site)
        added = sum(now.values()) - sum(base.values())
        print(f"bytes added to a first visit against {args.base_site}: {added:,} "
              f"({', '.join(f'{k} {now.get(k, 0) - base.get(k, 0):+,}' for k in now)})")


if __name__ == "__main__":
    main()
