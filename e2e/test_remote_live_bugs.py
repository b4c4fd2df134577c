"""Live remote play keeps what the player did (issue 24, bugs 1, 5 and 6), through the real page.

1. Picks on the form "write your orders now, Alice seals first" survive Alice's commitment.
5. After a decision phase, both players' next forms open at once (no turn costs the sum of both
   players' thinking).
6. A code that came live while the storage was full is never dropped: its "Try again" outlives
   chat lines arriving meanwhile, and once there is room it applies and the duel goes on.

Same set-up as e2e/test_live.py (two contexts on this machine, one code each way by hand).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")

from remote_play import (
    FILL_JS,
    FREE_JS,
    STEP_MS,
    act,
    connect,
    live_browser,
    needs_route,
    remote_screen,
    screen_state,
    two_players,
    write_decision,
    write_orders,
)

__all__ = ["live_browser"]  # remote_play's fixture, for `players`

ORDERS = "[data-testid=orders-screen]"


@pytest.fixture
def players(live_browser: Any, server_url: str) -> Iterator[dict[int, Any]]:
    """Two players in their own contexts, both on the start screen with the engine ready."""
    with two_players(live_browser, server_url) as pages:
        yield pages


def form_turn(page: Any) -> int | None:
    """The turn of the orders form on display, or None."""
    screen = page.locator(ORDERS)
    return int(screen.get_attribute("data-turn") or "0") if screen.count() else None


def both_on_form(pages: dict[int, Any], turn: int) -> None:
    """Answer every decision the rules ask (nobody writes orders), until both sides show turn
    `turn`'s orders form; fails if one side never gets it."""
    deadline = time.monotonic() + STEP_MS / 1000
    while True:
        for page in pages.values():
            if page.locator("[data-testid=decision-screen]").count():
                write_decision(page)
                page.wait_for_selector(
                    "[data-testid=decision-screen]", state="detached", timeout=STEP_MS
                )
        if all(form_turn(page) == turn for page in pages.values()):
            return
        if time.monotonic() > deadline:
            raise AssertionError(
                f"turn {turn}: the forms shown are {[form_turn(p) for p in pages.values()]}, "
                f"screens {[screen_state(p) for p in pages.values()]}"
            )
        pages[0].wait_for_timeout(100)


# Deep: the screen's identity that keeps the form is tests/js/remote-screen-key.test.mjs's
# (docs/test-tiers.md).
@pytest.mark.deep
@needs_route
def test_picks_made_before_the_opponent_seals_survive_their_commitment(
    players: dict[int, Any],
) -> None:
    host, guest = players[0], players[1]
    connect(players)
    act(host)  # turn 1: the guest's orders came with its acceptance
    both_on_form(players, 2)
    # Turn 2: the host speaks first; the guest writes meanwhile ("Alice seals first").
    assert remote_screen(guest)["state"] == "waiting"
    # The name is isolated in the sentence (U+2068 ... U+2069: ui/words/text.js isolate).
    assert "\u2068Alice\u2069 seals first" in guest.inner_text("[data-testid=remote-status]")
    guest.locator("[data-testid=gesture-0-L-W]").check()
    guest.locator("[data-testid=gesture-0-R-D]").check()
    write_orders(host)
    guest.wait_for_selector("[data-testid=remote-screen][data-state=your_input]", timeout=STEP_MS)
    assert form_turn(guest) == 2
    assert guest.locator("[data-testid=gesture-0-L-W]").is_checked()
    assert guest.locator("[data-testid=gesture-0-R-D]").is_checked()


@pytest.mark.deep
@needs_route
def test_after_a_decision_both_next_forms_open_at_once(players: dict[int, Any]) -> None:
    connect(players)
    act(players[0])  # turn 1
    # The script makes the guest decide after turn 3 and the host after turn 4.
    for turn in range(2, 6):
        both_on_form(players, turn)
        for page in players.values():
            if (screen_state(page) or {}).get("state") == "your_input" or form_turn(page) == turn:
                write_orders(page)
        for page in players.values():
            page.wait_for_selector(
                f"{ORDERS}[data-turn='{turn}']", state="detached", timeout=STEP_MS
            )
    both_on_form(players, 6)


@needs_route
def test_a_live_code_that_cannot_be_saved_is_kept_until_it_can(players: dict[int, Any]) -> None:
    host, guest = players[0], players[1]
    connect(players)
    assert guest.evaluate(FILL_JS) > 0
    act(host)  # turn 1: its code reaches a guest whose storage is full
    retry = guest.locator("[data-testid=retry-unsaved]")
    retry.wait_for(timeout=STEP_MS)
    assert "apply the code again" in guest.inner_text("[data-testid=remote-error]")
    # A chat line arriving now does not take the way to apply the code away.
    host.fill("[data-testid=chat-text]", "Your move?")
    host.press("[data-testid=chat-text]", "Enter")
    guest.locator("[data-testid=log-chat][data-from=them]", has_text="Your move?").wait_for(
        state="attached", timeout=STEP_MS
    )
    assert retry.is_visible()
    assert "apply the code again" in guest.inner_text("[data-testid=remote-error]")
    guest.evaluate(FREE_JS)
    retry.click()
    # Applied: the duel goes on for both, and the chat line is kept.
    both_on_form(players, 2)
    assert guest.locator("[data-testid=remote-error]").count() == 0
