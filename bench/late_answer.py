"""How long the connection answer may wait in a chat: two homes behind ordinary NATs, live.

    python3 bench/late_answer.py --delay 300 [--delay 60 ...] [--site dist/site]

Builds e2e/netlab.py's network (root, ip, iptables and coturn needed), opens the page in home
"a" (host) and home "b" (guest), trades the invitation and the acceptance as players do (one code
each way, the acceptance carrying the connection answer), then holds the acceptance "in a chat"
for each `--delay` seconds before the host pastes it. Printed per delay: what the guest's page
said just before the paste, the seconds from the paste until both sides are connected, and
whether a turn was then played live. Not a test (a five-minute wait has no place in CI); the
60 s case is also e2e/test_netplay.py's. Needs the built site (`python3 build.py build`).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "e2e"))

from conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from netlab import Lab, why_no_lab  # noqa: E402
from playwright import sync_api  # noqa: E402
from remote_play import CONNECT_MS, live_status, paste, wait_live  # noqa: E402
from test_netplay import connected_and_one_turn_live, invite_and_accept, player_opener  # noqa: E402


def one_delay(open_one: Any, delay: float) -> dict[str, Any]:
    """Trade the codes, hold the answer `delay` seconds, paste it; what happened."""
    host, guest = open_one("a"), open_one("b")
    back = invite_and_accept(host, guest)
    made = time.monotonic()
    guest.wait_for_timeout(delay * 1000)
    before = {
        "guest_status": live_status(guest),
        "guest_says": " ".join(guest.inner_text("[data-testid=live-panel]").split())[:160],
    }
    pasted = time.monotonic()
    paste(host, back)
    wait_live(host, "connected", CONNECT_MS)
    wait_live(guest, "connected", CONNECT_MS)
    connected = time.monotonic() - pasted
    connected_and_one_turn_live(host, guest)
    return {
        **before,
        "waited_s": pasted - made,
        "connect_s": connected,
        "turn_live": True,
    }


def main() -> int:
    """Run each delay in turn and print what it gave."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--delay", type=float, action="append", help="seconds (repeatable)")
    ap.add_argument("--site", type=Path, default=ROOT / "dist" / "site")
    args = ap.parse_args()
    delays = args.delay or [300.0]
    why = why_no_lab()
    if why:
        print(f"no network lab here: {why}", file=sys.stderr)
        return 2
    if not (args.site / "index.html").exists():
        print(f"no built site at {args.site}: run `python3 build.py build` first", file=sys.stderr)
        return 2
    lab = Lab(args.site, ROOT)
    failed = 0
    try:
        lab.build()
        cli = [*CHROMIUM_ARGS, f"--unsafely-treat-insecure-origin-as-secure={lab.site_url[:-1]}"]
        with sync_api.sync_playwright() as playwright:
            homes = {
                home: playwright.chromium.launch(
                    executable_path=lab.chromium_wrapper(home, CHROMIUM), args=cli, headless=True
                )
                for home in ("a", "b")
            }
            try:
                for delay in delays:
                    contexts: list[Any] = []
                    errors: list[str] = []
                    try:
                        got = one_delay(player_opener(lab, homes, contexts, errors), delay)
                        print(
                            f"answer after {got['waited_s']:.0f} s: guest was "
                            f"{got['guest_status']!r} ({got['guest_says']!r}); connected "
                            f"{got['connect_s']:.2f} s after the paste; a turn played live",
                            flush=True,
                        )
                    except Exception as exc:
                        failed += 1
                        print(f"answer after {delay:.0f} s: FAILED: {exc}", flush=True)
                    finally:
                        if errors:
                            print(f"  page errors: {errors}", flush=True)
                        for ctx in contexts:
                            ctx.close()
            finally:
                for browser in homes.values():
                    browser.close()
    finally:
        lab.close()
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
