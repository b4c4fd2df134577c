"""What one turn costs on the page as a duel grows (issue 24, bug 10), in headless Chromium.

    python3 bench/turn_cost_page.py --site DIR [--at 5,50,100,200,300] [--turns 3]

For each turn N of `--at`: the duel of bench/turn_cost.py (shields and magic missiles, never
ending) is played in CPython up to turn N, its record imported on the page (hot-seat), and then
`--turns` turns are played through the page's own forms.  Measured per turn: from the click that
seals the turn's last orders until the next turn's orders form is on the screen (the engine's
step and views, and drawing), median over the turns; and the page's element count on that
form.  `--site` is a built site (python3 build.py build --out DIR); another build (e.g. of an
older commit) gives the figures before a change, on the same machine.  Not a test.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "engine"))
sys.path.insert(0, str(ROOT / "bench"))

from playwright.sync_api import sync_playwright  # noqa: E402
from sitebuild import machine  # noqa: E402
from sitebuild.machine import CHROMIUM_ARGS  # noqa: E402
from sitebuild.serve import serving  # noqa: E402
from turn_cost import inputs_for  # noqa: E402

from wavinghands import api  # noqa: E402

ENGINE_MS = 180_000
SLUG = {">": "stab", "-": "nothing"}
ELEMENTS = "document.getElementsByTagName('*').length"


def record_at(turn: int) -> str:
    """The bench duel's record when turn `turn`'s orders are to be written."""
    params = {"names": ["Ann", "Bob"], "seed": "5eed5eed5eed5eed"}
    game = json.loads(api.new_game(json.dumps(params)))["game"]
    while game["turn"] < turn:
        game = json.loads(api.step(json.dumps(game), json.dumps(inputs_for(game))))["game"]
    return json.dumps(json.loads(api.export_record(json.dumps(game)))["record"])


def write_orders(page: Any, turn: int) -> None:
    """Write the bench duel's orders at the form (the same for both wizards), not sealed."""
    right = "S" if turn % 2 else "D"
    page.check("[data-testid=gesture-0-L-P]")
    page.check(f"[data-testid=gesture-0-R-{right}]")
    page.wait_for_selector("[data-testid=preview][aria-busy=false]", timeout=ENGINE_MS)


def seal(page: Any, wizard: int, turn: int) -> None:
    """Seal the orders written and wait until that form has gone."""
    page.click("[data-testid=submit-orders]")
    page.wait_for_selector(f"[data-testid=orders-screen][data-wizard='{wizard}']"
                           f"[data-turn='{turn}']", state="detached", timeout=ENGINE_MS)


def the_form(page: Any) -> tuple[int, int]:
    """Pass the device if asked; (wizard, turn) of the orders form then on the screen."""
    shown = page.wait_for_selector("[data-testid=pass-screen], [data-testid=orders-screen]",
                                   timeout=ENGINE_MS)
    if shown.get_attribute("data-testid") == "pass-screen":
        page.click("[data-testid=pass-ready]")
        shown = page.wait_for_selector("[data-testid=orders-screen]", timeout=ENGINE_MS)
    return int(shown.get_attribute("data-wizard")), int(shown.get_attribute("data-turn"))


def measure_at(browser: Any, url: str, turn: int, turns: int) -> dict[str, float]:
    """Import the duel at `turn` and time `turns` turns through the page."""
    context = browser.new_context(bypass_csp=True, viewport={"width": 1200, "height": 900})
    page = context.new_page()
    try:
        page.goto(url)
        page.wait_for_function("window.__appReady === true", timeout=ENGINE_MS)
        page.click("[data-testid=import-record]")
        page.fill("[data-testid=import-text]", record_at(turn))
        page.click("[data-testid=import-submit]")
        times, elements = [], []
        wizard, now = the_form(page)
        for _ in range(turns):
            write_orders(page, now)  # the first wizard's
            seal(page, wizard, now)
            wizard, again = the_form(page)
            assert again == now, (again, now)
            write_orders(page, now)  # the second's: sealing it resolves the turn
            t0 = time.perf_counter()
            page.click("[data-testid=submit-orders]")
            page.wait_for_selector(f"[data-testid=orders-screen][data-turn='{now + 1}'], "
                                   "[data-testid=pass-screen]", timeout=ENGINE_MS)
            times.append((time.perf_counter() - t0) * 1000)
            wizard, now = the_form(page)
            elements.append(page.evaluate(ELEMENTS))
        return {"turn": turn, "turn_ms": statistics.median(times), "elements": max(elements)}
    except Exception:
        page.screenshot(path=str(ROOT / "test-output" / f"turn-cost-page-{turn}.png"))
        raise
    finally:
        context.close()


def main() -> int:
    """Serve the site, measure, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, required=True)
    parser.add_argument("--at", default="5,50,100,200,300")
    parser.add_argument("--turns", type=int, default=3)
    args = parser.parse_args()
    with serving(args.site.resolve()) as server, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(machine.CHROMIUM),
                                    args=list(CHROMIUM_ARGS), headless=True)
        try:
            rows = [measure_at(browser, server.url, int(t), args.turns)
                    for t in args.at.split(",")]
        finally:
            browser.close()
    print(f"site: {args.site}  load average {os.getloadavg()[0]:.1f}  ({args.turns} turns each)")
    print("turn | a turn on the page, ms (median) | elements on the orders form")
    for r in rows:
        print(f"{r['turn']:4d} | {r['turn_ms']:8.0f} | {r['elements']:.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
