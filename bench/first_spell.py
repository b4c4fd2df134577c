"""How long a newcomer takes from opening the page to a first spell cast (issue 28); prints a table.

    python3 build.py build --out /tmp/site-learn
    .venv/bin/python bench/first_spell.py --site /tmp/site-learn [--runs 3]

The scripted newcomer opens the page, presses the start screen's "Start the guided duel" (offered
on a first visit), makes P with the left hand in the first lesson and seals; the time runs until
the engine's verdict on that shield is on screen. Each run is a fresh browser context at desktop
(1280x800) and phone (390x844) size:
- first visit: empty caches, no service worker (the engine is fetched and booted from nothing);
- next visit: the same context once the service worker holds the page and the engine kept its
  snapshot, with the player's storage cleared (so the offer is made again).
The site is served on loopback by build.py's server. This is a measurement, not a test: it never
fails on the goal (two minutes).
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
from playwright.sync_api import sync_playwright  # noqa: E402
from sitebuild import machine  # noqa: E402
from sitebuild.machine import CHROMIUM_ARGS  # noqa: E402
from sitebuild.serve import serving  # noqa: E402

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
WAIT_MS = 180_000


def first_spell(page: Any, url: str) -> float:
    """Seconds from navigation to the first lesson's verdict, as the scripted newcomer plays."""
    opened = time.monotonic()
    page.goto(url)
    page.click("[data-testid=learn-invite][data-first=true] [data-testid=open-lessons]",
               timeout=WAIT_MS)
    page.check("[data-testid=gesture-0-L-P]", timeout=WAIT_MS)
    page.click("[data-testid=lesson-seal]")
    page.wait_for_selector("[data-testid=lesson-verdict][data-passed=true]", timeout=WAIT_MS)
    return time.monotonic() - opened


def visits(browser: Any, url: str, viewport: dict[str, int]) -> tuple[float, float]:
    """(first visit, next visit) seconds in one fresh context."""
    context = browser.new_context(viewport=viewport)
    try:
        page = context.new_page()
        first = first_spell(page, url)
        page.wait_for_function("window.__offlineReady && window.__engineSnapshot !== undefined",
                               timeout=WAIT_MS)
        page.evaluate("async () => { await window.__offlineReady; await window.__engineSnapshot; }")
        page.evaluate("() => localStorage.clear()")
        return first, first_spell(page, url)
    finally:
        context.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, required=True, help="a built site (build.py build)")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    times: dict[str, dict[str, list[float]]] = {s: {"first": [], "next": []} for s in SIZES}
    with serving(args.site) as server, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(machine.CHROMIUM),
                                    args=list(CHROMIUM_ARGS), headless=True)
        try:
            for _ in range(args.runs):
                for size, viewport in SIZES.items():
                    first, again = visits(browser, server.url, viewport)
                    times[size]["first"].append(first)
                    times[size]["next"].append(again)
        finally:
            browser.close()
    print(f"first spell cast, seconds from opening the page ({args.runs} runs, loopback)")
    print(f"{'size':8} {'visit':6} {'median':>7} {'min':>6} {'max':>6}")
    for size, by in times.items():
        for visit, xs in by.items():
            print(f"{size:8} {visit:6} {statistics.median(xs):7.1f} {min(xs):6.1f} {max(xs):6.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
