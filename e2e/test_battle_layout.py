"""The duel's layout with the battle scene (issue 27) at 1280x800, 1440x900 and 390x844, in every
mode a player writes orders in: hot-seat, against the computer, by codes and live (the guest).

- A wide screen (1100 px and more): the scene stands beside the orders, a whole picture whose
  every word is drawn at 12 px or more; both hands' pads start under the heading, wholly above
  the sticky seal bar, on the first screen.
- A phone (390x844): the scene is a strip above the pads, both pads above the seal bar (a live
  guest's turn 2: the first).
Each is checked on turn 1 and on turn 2 (under the result card of turn 1, the animation of the
turn running). Screenshots go to test-output/battle-layout-*.png.

Fixtures `server_url`, `browser`, `launch_chromium` and `shot` come from e2e/conftest.py;
remote duels are driven with e2e/remote_play.py, the live connection too (its `connect`).
"""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")

from conftest import Shot
from duel_play import open_game, play_turn, sized_page, to_orders
from remote_play import STEP_MS, act, connect, invite, live_browser, needs_route, two_players

__all__ = ["live_browser"]  # remote_play's fixture

SIZES = {"1280x800": (1280, 800), "1440x900": (1440, 900), "390x844": (390, 844)}

# Where the scene, the orders, both pads and the seal bar are on the first screen, and the size
# each word of the scene is drawn at (CSS px).
LAYOUT_JS = """() => {
  const box = (el) => { const r = el.getBoundingClientRect();
    return { top: r.top, bottom: r.bottom, left: r.left, right: r.right }; };
  const scene = document.querySelector('[data-testid=orders-screen] [data-testid=battle-scene]');
  const words = [...scene.querySelectorAll('svg text')].filter((x) => x.getBBox().width > 0
    && getComputedStyle(x).display !== 'none' && !x.closest('.scene-fx'))
    .map((x) => [x.textContent, parseFloat(getComputedStyle(x).fontSize) * x.getScreenCTM().a]);
  return { scene: box(scene), orders: box(document.querySelector('.duel-orders')),
           left: box(document.querySelector('[data-testid=hand-0-L]')),
           right: box(document.querySelector('[data-testid=hand-0-R]')),
           bar: box(document.querySelector('[data-testid=submit-bar]')), words,
           height: innerHeight };
}"""


def check_layout(page: Any, where: str, shot: Shot | None = None, phone_pads: int = 2) -> None:
    """At each size: the scene beside (wide) or above (phone) the orders, both pads above the seal
    bar on the first screen (a phone: the first `phone_pads`), and the scene's words 12 px or
    more wherever they are drawn."""
    for size, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_selector("[data-testid=orders-screen] [data-testid=battle-scene]",
                               timeout=STEP_MS)
        page.evaluate("window.scrollTo(0, 0)")
        at = page.evaluate(LAYOUT_JS)
        told = f"{where} at {size}: {at}"
        if shot:
            shot(page, f"battle-layout-{where}-{size}", full_page=False)
        for pad in (at["left"], at["right"])[:2 if width >= 1100 else phone_pads]:
            assert pad["top"] >= 0 and pad["bottom"] <= at["bar"]["top"] + 1, told
        assert at["bar"]["bottom"] <= at["height"] + 1, told
        if width >= 1100:
            assert at["scene"]["right"] <= at["orders"]["left"], told
            scene = at["scene"]
            assert scene["top"] < 200 and scene["bottom"] - scene["top"] > 180, told
            assert at["words"] and min(px for _, px in at["words"]) >= 12, told
        else:
            assert at["scene"]["bottom"] <= at["left"]["top"], told
            assert not at["words"], told  # a strip draws no words (they would be 5-8 px)


@pytest.mark.parametrize("mode", ["hotseat", "computer"])
def test_local_duels(browser: Any, server_url: str, shot: Shot, mode: str) -> None:
    with sized_page(browser, "desktop") as page:  # (check_layout sets each size)
        open_game(page, server_url)
        page.fill("[data-testid=name-0]", "Alice")
        if mode == "hotseat":
            page.fill("[data-testid=name-1]", "Bob")
        page.check(f"[data-testid=mode-{mode}]")
        page.click("[data-testid=start-game]")
        to_orders(page)
        check_layout(page, f"{mode}-turn1", shot)
        play_turn(page, "--")
        if mode == "hotseat":
            to_orders(page)
            play_turn(page, "--")
        assert to_orders(page)[1] == 2
        page.wait_for_selector("[data-testid=outcome]")
        check_layout(page, f"{mode}-turn2", shot)


# Deep: the orders screen's layout is one in every mode (test_local_duels checks it);
# docs/test-tiers.md.
@pytest.mark.deep
def test_a_duel_by_codes(browser: Any, server_url: str, shot: Shot) -> None:
    with two_players(browser, server_url) as pages:
        host, guest = pages[0], pages[1]
        invite(host, guest, "codes")
        check_layout(guest, "codes-guest-turn1", shot)


# Deep: the orders screen's layout is one in every mode (test_local_duels checks it);
# docs/test-tiers.md.
@pytest.mark.deep
@needs_route
def test_a_live_duel(live_browser: Any, server_url: str, shot: Shot) -> None:
    with two_players(live_browser, server_url) as pages:
        host, guest = pages[0], pages[1]
        connect(pages)
        check_layout(host, "live-host-turn1")
        act(host)
        guest.wait_for_selector("[data-testid=orders-screen][data-turn='2']", timeout=STEP_MS)
        # (a phone: under the live status, the result card and the scene the right pad starts
        # under the seal bar, as it did before the wide layout: e2e/test_phone_screens.py asks
        # the same there, the pads starting on the first screen)
        check_layout(guest, "live-guest-turn2", shot, phone_pads=1)
