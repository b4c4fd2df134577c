"""The computer opponent's wait as the page sees it, in Chromium: from the page asking its engine
worker for the opponent's orders to the answer arriving.

    python3 bench/opponent_page.py [--site dist/site] [--level strong] [--duels 3]
                                   [--turns 30] [--deadline MS] [--cap 1500] [--progress]

Serves the built site (build.py's server), starts `--duels` duels against the computer at
`--level` through the start screen and plays them through the UI as e2e/test_computer.py does
(the person casts missiles with the right hand; a decision takes its first option), up to
`--turns` turns each.  Every `ai_input` call between the page and its worker is timed by a
wrapper around `Worker.prototype.postMessage`, installed before the page's scripts run: from
the message posted to the answer's `message` event, with whether the search was cut and the
deadline the page passed (`--deadline` replaces the page's AI_DEADLINE_MS in every call, to
try another without a build).  Prints the distribution of the wait, how many waits passed
`--cap` (issue 13: 1.5 s), the cut moves, the longest gap between animation frames while the
"thinking" screen shows, and the load average (a wall-time figure: other work on the machine
counts in it).  A measurement, not a test: it never fails.
"""

from __future__ import annotations

import argparse
import json
import os
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

ENGINE_MS = 90_000
RIGHT = ("S", "D")  # the person's missiles, as e2e/test_computer.py plays them

# Installed before any page script: every ai_input call to the engine worker, timed from the
# page's side, and the frame gaps while the thinking screen shows.
WATCH = """((deadline) => {
  window.__ai = [];
  window.__gaps = [];
  const post = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (msg, ...rest) {
    if (msg && msg.fn === "ai_input") {
      if (deadline !== null) {
        msg = { ...msg, args: [...msg.args.slice(0, 3), JSON.stringify(deadline)] };
      }
      const given = JSON.parse(msg.args[3] ?? "null");
      const call = { asked: performance.now(), deadline: given };
      window.__ai.push(call);
      const answered = (event) => {
        if (!event.data || event.data.id !== msg.id) return;
        call.wait = performance.now() - call.asked;
        try { call.cut = JSON.parse(event.data.result).cut === true; } catch { call.cut = null; }
        this.removeEventListener("message", answered);
      };
      this.addEventListener("message", answered);
    }
    return post.call(this, msg, ...rest);
  };
  let last = performance.now();
  const tick = (now) => {
    if (document.querySelector("[data-testid=thinking]") !== null) window.__gaps.push(now - last);
    last = now;
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})(%s);"""

SETTLED = ("[data-testid=orders-screen], [data-testid=game-over], "
           "[data-testid=decision-screen], [data-testid=failure-screen]")


def play(page: Any, url: str, level: str, turns: int, say: Any) -> None:
    """One duel against the computer through the UI, up to `turns` turns."""
    page.goto(url)
    page.wait_for_function("window.__appReady === true", timeout=ENGINE_MS)
    page.fill("[data-testid=name-0]", "Alice")
    page.fill("[data-testid=name-1]", "Hal")
    page.check("[data-testid=mode-computer]")
    page.select_option("[data-testid=opponent-level]", level)
    page.click("[data-testid=start-game]")
    played = 0
    while played < turns:
        kind = page.wait_for_selector(SETTLED, timeout=ENGINE_MS).get_attribute("data-testid")
        if kind == "game-over":
            break
        if kind == "failure-screen":
            raise SystemExit(page.inner_text("[data-testid=failure-screen]"))
        if kind == "decision-screen":
            page.locator("[data-testid=decision-screen] input[type=radio]").first.check()
            page.click("[data-testid=submit-decision]")
            page.wait_for_selector("[data-testid=decision-screen]", state="detached",
                                   timeout=ENGINE_MS)
            continue
        turn = int(page.locator("[data-testid=orders-screen]").get_attribute("data-turn"))
        for hand, gesture in (("L", "nothing"), ("R", RIGHT[turn % 2])):
            for choice in (gesture, "nothing"):
                button = page.locator(f"[data-testid=gesture-0-{hand}-{choice}]")
                if button.count() and button.is_enabled():
                    button.check()
                    break
        page.wait_for_selector("[data-testid=preview][aria-busy=false]")
        page.click("[data-testid=submit-orders]")
        page.wait_for_function(
            "t => !document.querySelector(`[data-testid=orders-screen][data-turn='${t}']`)",
            arg=turn, timeout=ENGINE_MS)
        played += 1
        say(f"  turn {turn}: {page.evaluate('window.__ai.length')} calls so far")


def spread(values: list[float]) -> str:
    """Median, 90th and 99th percentile and worst of milliseconds."""
    if not values:
        return "none"
    vs = sorted(values)

    def at(q: float) -> float:
        return vs[min(len(vs) - 1, int(len(vs) * q))]
    return (f"median {at(0.5):.0f} ms, 90th percentile {at(0.9):.0f} ms, 99th percentile "
            f"{at(0.99):.0f} ms, worst {vs[-1]:.0f} ms")


def main() -> None:
    """Play the duels and print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--site", type=Path, default=ROOT / "dist" / "site")
    ap.add_argument("--level", default="strong")
    ap.add_argument("--duels", type=int, default=3)
    ap.add_argument("--turns", type=int, default=30)
    ap.add_argument("--deadline", type=float, default=None,
                    help="milliseconds: replaces the page's AI_DEADLINE_MS in every call")
    ap.add_argument("--cap", type=float, default=1500.0, help="milliseconds a wait may take")
    ap.add_argument("--progress", action="store_true")
    args = ap.parse_args()

    def say(line: str) -> None:
        if args.progress:
            print(line, file=sys.stderr, flush=True)
    if not (args.site / "index.html").exists():
        raise SystemExit(f"{args.site} is not a built site (python3 build.py build)")
    calls: list[dict[str, Any]] = []
    gaps: list[float] = []
    loads = [os.getloadavg()[0]]
    start = time.monotonic()
    with serving(args.site) as server, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(machine.CHROMIUM),
                                     args=list(CHROMIUM_ARGS), headless=True)
        for k in range(args.duels):
            context = browser.new_context(viewport={"width": 1200, "height": 900},
                                          bypass_csp=True)
            page = context.new_page()
            page.add_init_script(WATCH % json.dumps(args.deadline))
            play(page, server.url, args.level, args.turns, say)
            seen = page.evaluate("window.__ai")
            calls += [c for c in seen if "wait" in c]
            gaps += page.evaluate("window.__gaps")
            loads.append(os.getloadavg()[0])
            say(f"duel {k}: {len(seen)} calls")
            context.close()
        browser.close()
    waits = [c["wait"] for c in calls]
    cut = [c["wait"] for c in calls if c.get("cut")]
    deadlines = sorted({c["deadline"] for c in calls if c.get("deadline") is not None})
    over = [c["wait"] - c["deadline"] for c in calls if c.get("cut") and c.get("deadline")]
    print(f"{args.level} in Chromium (the page's engine worker), {len(calls)} ai_input calls "
          f"in {args.duels} duels, {time.monotonic() - start:.0f} s; load average "
          f"{min(loads):.1f}-{max(loads):.1f}; the page's deadline {deadlines} ms")
    print(f"  wait, page asks to answer arrives: {spread(waits)}")
    print(f"  waits over {args.cap:.0f} ms: {sum(1 for w in waits if w > args.cap)} of "
          f"{len(waits)}")
    print(f"  cut by the deadline: {len(cut)} of {len(calls)}; their wait: {spread(cut)}")
    print(f"  wait - deadline, cut moves: {spread(over)}")
    print(f"  longest frame gap while thinking: {max(gaps, default=0):.0f} ms over {len(gaps)} "
          f"frames")


if __name__ == "__main__":
    main()
