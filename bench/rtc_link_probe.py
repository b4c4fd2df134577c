"""What a crafted `#rtc=` link makes the page send, before and after the player's click.

    python3 bench/rtc_link_probe.py [--site dist/site] [--seconds 8]

Issue 12, finding 3: a link whose connection offer names an address and port of its author's
choosing made the page send STUN binding requests there with no click (135 in 8 s). Here the
"author" is a UDP socket on 127.0.0.1 (nothing leaves this machine): the offer names its port,
a fresh Chromium context opens the link, and the socket counts the datagrams that reach it for
`--seconds` while the page shows what it shows; then the player clicks "Connect live" (when the
page asks) and the socket counts again. Printed: the datagrams before and after the click, and
whether the page asked. The STUN field is cleared first, as a player who wants no third party
would, so only the link's address is contacted. Needs the built site and Chromium.
"""

from __future__ import annotations

import argparse
import socket
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "e2e"))

from conftest import CHROMIUM, CHROMIUM_ARGS, WEBRTC_ARGS  # noqa: E402
from playwright import sync_api  # noqa: E402
from remote_play import open_site  # noqa: E402
from sitebuild.serve import serving  # noqa: E402


def crafted_sdp(port: int) -> str:
    """An offer whose one candidate is 127.0.0.1:port."""
    return "\r\n".join([
        "v=0", "o=- 4 2 IN IP4 127.0.0.1", "s=-", "t=0 0", "a=group:BUNDLE 0",
        "m=application 9 UDP/DTLS/SCTP webrtc-datachannel", "c=IN IP4 0.0.0.0",
        f"a=candidate:1 1 udp 2122260223 127.0.0.1 {port} typ host generation 0",
        "a=ice-ufrag:Zx9+", "a=ice-pwd:abcdefghijklmnopqrstuv/+",
        "a=fingerprint:sha-256 " + ":".join(f"{i * 7 % 256:02X}" for i in range(32)),
        "a=setup:actpass", "a=mid:0", "a=sctp-port:5000", "",
    ])


def count_for(sock: socket.socket, seconds: float) -> int:
    """Datagrams that reach the socket within `seconds`."""
    n = 0
    end = time.monotonic() + seconds
    while (left := end - time.monotonic()) > 0:
        sock.settimeout(left)
        try:
            sock.recvfrom(2048)
        except TimeoutError:
            break
        n += 1
    return n


def run(site: Path, seconds: float) -> dict[str, Any]:
    """Open the crafted link; count datagrams before and after the click."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock, serving(site) as server, \
            sync_api.sync_playwright() as playwright:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=[*CHROMIUM_ARGS, *WEBRTC_ARGS], headless=True)
        try:
            helper = browser.new_context().new_page()
            open_site(helper, server.url)
            offer = helper.evaluate(
                "async (sdp) => (await import('./transport/codec/code.js'))"
                ".packConnectionCode(sdp, 'offer').code", crafted_sdp(port))
            ctx = browser.new_context()
            page = ctx.new_page()
            open_site(page, server.url)
            # No STUN server: only the link's own address may be contacted.
            page.evaluate("async () => (await import('./storage.js')).saveSetting('stun', '')")
            page.close()
            page = ctx.new_page()
            open_site(page, f"{server.url}#rtc={offer}")
            before = count_for(sock, seconds)
            asked = page.locator("[data-testid=connect-live]").count() > 0
            after = None
            if asked:
                page.click("[data-testid=connect-live]")
                after = count_for(sock, seconds)
            return {"port": port, "before": before, "asked": asked, "after": after}
        finally:
            browser.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", type=Path, default=ROOT / "dist" / "site")
    parser.add_argument("--seconds", type=float, default=8.0)
    args = parser.parse_args()
    r = run(args.site, args.seconds)
    print(f"datagrams to the link's address in {args.seconds:g} s before any click: {r['before']}")
    print(f"the page asked before connecting: {'yes' if r['asked'] else 'no'}")
    if r["after"] is not None:
        print(f"after the click on 'Connect live', in {args.seconds:g} s: {r['after']}")


if __name__ == "__main__":
    main()
