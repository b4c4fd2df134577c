"""By codes, the player waiting for a code drafts the next turn (issue 11): the code's arrival
is the only wait.

Two browser contexts play by codes (the test carries the codes). While one side waits for the
code that resolves the turn it sealed, its page shows the next turn's orders form as a draft; the
draft survives a reload, is on the real form when the code comes, and can be sealed early (it
then goes by itself with the reply when nothing changed). In the second test the result (a
paralysis the opponent casts) changes a drafted gesture of orders sealed early: they are not
sent, and the page says what changed and why.
Screenshots go to test-output/remote-draft-*.png.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")

from conftest import Shot
from duel_play import gesture_pad
from remote_play import (
    STEP_MS,
    act,
    code_to_send,
    deliver,
    invite,
    screen_state,
    two_players,
    wait_changed,
)

DRAFT = "[data-testid=orders-screen][data-draft=true]"


@pytest.fixture
def players(browser: Any, server_url: str) -> Iterator[dict[int, Any]]:
    """Host 0 and guest 1, each in its own context, on the start screen; no page errors."""
    with two_players(browser, server_url) as pages:
        yield pages


def gesture(page: Any, hand: str, g: str) -> Any:
    """The radio button of gesture g for hand L or R of the first gesture set."""
    return page.locator(gesture_pad(hand, g))


def draft(page: Any, pair: str) -> None:
    """Pick a pair of gestures on the form shown (the draft), and wait for its preview."""
    for hand, g in zip("LR", pair, strict=True):
        gesture(page, hand, g).check()
    page.wait_for_selector("[data-testid=preview][aria-busy=false]", timeout=STEP_MS)


def drafting(page: Any, turn: int) -> None:
    """Wait until the page offers the draft of `turn` while it waits for a code."""
    page.wait_for_selector(f"{DRAFT}[data-turn='{turn}']", timeout=STEP_MS)
    assert (screen_state(page) or {}).get("state") == "waiting"


@pytest.mark.deep
def test_the_waiting_player_drafts_and_the_draft_is_on_the_form_when_the_code_comes(
    players: dict[int, Any], shot: Shot
) -> None:
    host, guest = players[0], players[1]
    invite(host, guest, "codes")
    act(guest)  # turn 1, sealed: the acceptance; now the guest waits for Alice's code
    drafting(guest, 2)
    assert "turn 2" in guest.inner_text("[data-testid=draft-note]")
    draft(guest, "FP")
    # What Alice could complete next rests on her unseen turn-1 gestures: not known, not "nothing".
    assert "Not known until Alice" in guest.inner_text("[data-testid=opponent-next]")
    shot(guest, "remote-draft-while-waiting")
    # The draft is kept with the saved duel: a reload finds it on the form.
    guest.reload()
    drafting(guest, 2)
    assert gesture(guest, "L", "F").is_checked() and gesture(guest, "R", "P").is_checked()

    deliver(host, code_to_send(guest))
    act(host)  # turn 1 in plain; the host waits for the guest's reveal and drafts turn 2 too
    drafting(host, 2)
    draft(host, "SW")
    host.click("[data-testid=submit-orders]")  # "Seal early"
    host.wait_for_selector("[data-testid=early-sealed]", timeout=STEP_MS)
    assert host.locator("[data-testid=remote-screen][data-early='2']").count() == 1
    # Kept over a reload; "Change them" opens the draft again, as it was, to seal again.
    host.reload()
    host.wait_for_selector("[data-testid=early-sealed]", timeout=STEP_MS)
    host.click("[data-testid=unseal-early]")
    drafting(host, 2)
    assert gesture(host, "L", "S").is_checked() and gesture(host, "R", "W").is_checked()
    host.wait_for_selector("[data-testid=preview][aria-busy=false]", timeout=STEP_MS)
    host.click("[data-testid=submit-orders]")
    host.wait_for_selector("[data-testid=early-sealed]", timeout=STEP_MS)

    # Alice's code comes: turn 1 resolves, and the drafted gestures are on the real form.
    deliver(guest, code_to_send(host))
    state = screen_state(guest) or {}
    got = (state.get("state"), state.get("need"), state.get("turn"))
    assert got == ("your_input", "orders", "2"), got
    assert guest.locator(DRAFT).count() == 0
    assert gesture(guest, "L", "F").is_checked() and gesture(guest, "R", "P").is_checked()
    assert "as you left it" in guest.inner_text("[data-testid=draft-changes]")
    shot(guest, "remote-draft-carried")
    guest.wait_for_selector("[data-testid=preview][aria-busy=false]", timeout=STEP_MS)
    before = screen_state(guest)
    guest.click("[data-testid=submit-orders]")
    wait_changed(guest, before)
    assert (screen_state(guest) or {}).get("state") == "waiting"

    # The guest's code reaches Alice: her orders sealed early go by themselves, with her reply.
    sent = int((screen_state(host) or {})["sent"])
    deliver(host, code_to_send(guest))
    host.wait_for_function(
        "(n) => Number(document.querySelector('[data-testid=remote-screen]').dataset.sent) > n",
        arg=sent,
        timeout=STEP_MS,
    )
    state = screen_state(host) or {}
    assert state.get("state") == "waiting" and state.get("turn") == "2", state
    assert "sealed early" in host.inner_text("[data-testid=remote-panel]")
    assert "turn 2" in host.inner_text("[data-testid=sealed-orders]")
    # And that reply is an ordinary code: the guest applies it and turn 2 resolves.
    deliver(guest, code_to_send(host))
    assert int((screen_state(guest) or {})["turn"]) >= 3


@pytest.mark.deep
def test_a_result_that_paralyses_a_drafted_hand_is_said_on_the_form(
    players: dict[int, Any], shot: Shot
) -> None:
    # The scripted duel (e2e/remote_play.py): Bob's F-F-F paralyses one of Alice's hands after
    # turn 3, his decision. Alice drafts turn 4 while she waits for that code.
    host, guest = players[0], players[1]
    invite(host, guest, "codes")
    act(guest)
    for _ in range(2):  # turns 1 and 2: host answers in plain, guest reveals and commits
        deliver(host, code_to_send(guest))
        act(host)
        deliver(guest, code_to_send(host))
        act(guest)
    deliver(host, code_to_send(guest))
    act(host)  # turn 3 in plain (left F, right S); now Alice waits
    drafting(host, 4)
    draft(host, "PW")
    host.click("[data-testid=submit-orders]")  # sealed early: it must not go as it is
    host.wait_for_selector("[data-testid=early-sealed]", timeout=STEP_MS)
    sent = (screen_state(host) or {}).get("sent")
    deliver(guest, code_to_send(host))
    assert act(guest) == "decision"  # which of Alice's hands is paralysed
    assert act(guest) == "orders"  # Bob's turn 4
    deliver(host, code_to_send(guest))
    # The result changed the orders sealed early: they wait on the form, nothing was sent.
    state = screen_state(host) or {}
    assert (state.get("state"), state.get("turn")) == ("your_input", "4"), state
    assert state.get("sent") == sent
    changes = host.locator("[data-testid=draft-changes]")
    said = changes.inner_text()
    assert changes.locator("li[data-code=paralysis]").count() == 1, said
    assert "paralysed" in said and "not the" in said and "not sealed by itself" in said, said
    # The paralysed hand shows the gesture the rules force; the other keeps the draft.
    field = changes.locator("li[data-code=paralysis]").get_attribute("data-field")
    hand, other = ("L", "R") if field == "gestures.0.0" else ("R", "L")
    assert not gesture(host, hand, "PW"[0 if hand == "L" else 1]).is_checked()
    assert gesture(host, other, "PW"[0 if other == "L" else 1]).is_checked()
    shot(host, "remote-draft-paralysed")
