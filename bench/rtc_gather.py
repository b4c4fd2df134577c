"""How long a page takes to make its connection code, by STUN set-up (issue 24, bug 3).

Builds the network lab (e2e/netlab.py: root, ip, iptables, coturn) and, in home "a" (an ordinary
NAT), times web/transport/webrtc.js's startHost() three times per set-up: the page's default STUN
servers (which the lab cannot reach: their names do not resolve), the lab's one STUN address, and
no STUN server. Prints the median milliseconds of each and what the code carries.

    sudo python3 bench/rtc_gather.py [--site dist/site]

A figure of one machine at one moment, quoted in docs/webrtc.md; never a test.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "e2e"))

from conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from netlab import STUN_IPS, Lab, why_no_lab  # noqa: E402

TIME_JS = """async (servers) => {
  const m = await import('./transport/webrtc.js');
  const t0 = performance.now();
  const r = await m.startHost({ iceServers: servers });
  const ms = performance.now() - t0;
  if (r.ok) r.transport.close();
  return { ms, ok: r.ok, code: r.ok ? r.code.length : r.error.code };
}"""

DEFAULTS = [
    "stun:stun.l.google.com:19302",
    "stun:stun1.l.google.com:19302",
    "stun:stun.cloudflare.com:3478",
]
SETUPS: dict[str, list[dict[str, Any]]] = {
    "default STUN servers (unreachable)": [{"urls": DEFAULTS}],
    "one lab STUN address": [{"urls": [f"stun:{STUN_IPS[0]}:3478"]}],
    "no STUN server": [],
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--site", type=Path, default=ROOT / "dist" / "site")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    if why := why_no_lab():
        sys.exit(f"no lab here: {why}")
    from playwright.sync_api import sync_playwright

    lab = Lab(args.site.resolve(), ROOT)
    try:
        lab.build()
        flags = [*CHROMIUM_ARGS, f"--unsafely-treat-insecure-origin-as-secure={lab.site_url[:-1]}"]
        with sync_playwright() as p:
            wrapper = lab.chromium_wrapper("a", CHROMIUM)
            browser = p.chromium.launch(executable_path=wrapper, args=flags)
            page = browser.new_page()
            page.goto(lab.site_url)
            print(f"site: {args.site}")
            for name, servers in SETUPS.items():
                runs = [page.evaluate(TIME_JS, servers) for _ in range(args.runs)]
                median = statistics.median(r["ms"] for r in runs)
                print(f"{name:38} {median:7.0f} ms  (code: {runs[-1]['code']})")
            browser.close()
    finally:
        lab.close()


if __name__ == "__main__":
    main()
