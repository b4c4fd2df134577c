"""A whole hot-seat duel at a phone's 375x812, through the page only (issue 16, phones).

On every orders screen: the gesture buttons are in the first screenful when it opens (not below
the outcome, board and log), and once the gestures are picked the page does not scroll sideways
and every question the engine asks is in view above the sticky seal bar, which also lists the
answers that will be sealed.  Viewport
screenshots of each step go to test-output/phone-duel-*.png for a person to look at.

Fixtures `server_url`, `browser` and `shot` come from e2e/conftest.py.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")

from conftest import Shot, phone_page, screenshot
from duel_play import (
    ENGINE_MS,
    HOTSEAT_SCRIPT,
    open_game,
    play_duel,
    play_turn,
    script_row,
    start_hotseat,
    wait_preview,
)

PHONE = {"width": 375, "height": 812}
# The kept phone context this test borrows (e2e/test_phone_screens.py's smaller phone; a touch
# context of a size of its own would boot the engine from the Python library), resized to PHONE.
KEPT_PHONE = {"width": 360, "height": 740}
ROOT = Path(__file__).resolve().parent.parent


def box(page: Any, selector: str) -> dict[str, float]:
    """The element's box in viewport coordinates."""
    found: dict[str, float] = page.eval_on_selector(
        selector, "el => { const r = el.getBoundingClientRect(); "
        "return {top: r.top, bottom: r.bottom, height: r.height}; }")
    return found


def test_phone_hotseat_duel(browser: Any, server_url: str, shot: Shot) -> None:
    with phone_page(browser, KEPT_PHONE) as page:
        page.set_viewport_size(PHONE)
        play_a_phone_duel(page, server_url, shot)


def play_a_phone_duel(page: Any, server_url: str, shot: Shot) -> None:
    """The duel of duel_play's HOTSEAT_SCRIPT at PHONE's size, checking every orders screen."""
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    open_game(page, server_url)
    start_hotseat(page)
    asked = 0

    def write(page: Any, wizard: int, turn: int) -> None:
        wait_preview(page)
        # What a player acts on comes first: the left hand's buttons are on the first screen.
        assert page.evaluate("window.scrollY") == 0
        pad = box(page, "[data-testid=hand-0-L]")
        assert pad["top"] < PHONE["height"] - 120, f"turn {turn}: the pads start at {pad}"
        shot(page, f"phone-duel-t{turn:02d}-w{wizard}-a-arrive", full_page=False)

        def questions_in_view(page: Any) -> None:
            nonlocal asked
            # Nothing on the orders screen makes the page scroll sideways.
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= PHONE["width"], f"turn {turn}: the page scrolls sideways ({width}px)"
            if page.locator("[data-testid=questions]").count():
                asked += 1
                questions = box(page, "[data-testid=questions]")
                bar = box(page, "[data-testid=submit-bar]")
                assert questions["bottom"] <= bar["top"] + 1, (
                    f"turn {turn}: a question hides under the seal bar ({questions}, {bar})")
                assert questions["top"] >= 0, f"turn {turn}: a question is above the screen"
                summary = page.inner_text("[data-testid=seal-summary]")
                assert "→" in summary, "the seal bar lists the answers being sealed"
            shot(page, f"phone-duel-t{turn:02d}-w{wizard}-b-ready", full_page=False)
            if turn in (5, 9):
                shot(page, f"phone-duel-t{turn:02d}-w{wizard}-c-whole")  # histories, log
                name = f"phone-duel-t{turn:02d}-w{wizard}-d-histories.png"
                screenshot(page.locator("[data-testid=histories]"), ROOT / "test-output" / name)

        play_turn(page, script_row(HOTSEAT_SCRIPT, wizard, turn), questions_in_view)

    # (A question between turns would fail the duel: the script asks none.)
    play_duel(page, write, decide=None)
    assert asked >= 2, "the scripted duel asks questions on several turns"
    page.wait_for_selector("[data-testid=result-title]", timeout=ENGINE_MS)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page scrolls sideways ({width}px)"
    shot(page, "phone-duel-z-over", full_page=False)
    shot(page, "phone-duel-z-over-whole")
    assert not errors, errors
