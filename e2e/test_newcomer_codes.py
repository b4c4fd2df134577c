"""What tripped the newcomer by codes (issue 28, "What tripped the newcomer", bug 3), as two
players meet it: the host could not draft turn 1 while the invitation was out; the page waiting
for a code said "Bob — turn 2 ORDERS" while turn 1 was unresolved; the draft's histories lost
the "↳ Shield" notes. The test failed on the page before the fix.

Fixtures `browser`, `server_url` and `shot` come from e2e/conftest.py; the two players from
e2e/remote_play.py.
"""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")

from conftest import Shot
from remote_play import (
    NAMES,
    STEP_MS,
    accept,
    act,
    begin,
    code_to_send,
    deliver,
    join,
    screen_state,
    two_players,
    wait_changed,
)

DRAFT = "[data-testid=orders-screen][data-draft=true]"


def heading(page: Any) -> str:
    """The screen's heading and its tag, as read (lower case: the tag is drawn in capitals)."""
    tag = page.inner_text("[data-testid=phase-tag]")
    said: str = page.inner_text(".duel-head h1") + " | " + tag
    return said.lower()


def test_3_the_host_drafts_turn_1_and_a_draft_says_what_it_waits_for(
        browser: Any, server_url: str, shot: Shot) -> None:
    with two_players(browser, server_url) as players:
        host, guest = players[0], players[1]
        begin(host, "codes", NAMES[0])
        host.wait_for_selector("[data-testid=remote-code]", timeout=STEP_MS)
        # The invitation is out: the host drafts turn 1 meanwhile (a shield with the left hand).
        host.wait_for_selector(f"{DRAFT}[data-turn='1']", timeout=STEP_MS)
        assert "invitation" in heading(host) and "draft of turn 1" in heading(host), heading(host)
        host.check("[data-testid=gesture-0-L-P]")
        host.check("[data-testid=gesture-0-R-nothing]")
        host.wait_for_selector("[data-testid=preview][aria-busy=false]", timeout=STEP_MS)
        shot(host, "newcomer-codes-invitation-draft")

        join(guest, code_to_send(host))
        accept(guest, NAMES[1])
        act(guest)  # turn 1 sealed with the acceptance; Alice's code for turn 1 is awaited
        guest.wait_for_selector(f"{DRAFT}[data-turn='2']", timeout=STEP_MS)
        said = heading(guest)
        assert "turn 1" in said and "waiting" in said and "draft of turn 2" in said, said
        assert "orders" not in said, said

        # The acceptance reaches the host: the turn-1 draft is on the real form.
        deliver(host, code_to_send(guest))
        state = screen_state(host) or {}
        assert (state.get("state"), state.get("turn")) == ("your_input", "1"), state
        assert host.locator(DRAFT).count() == 0
        assert host.is_checked("[data-testid=gesture-0-L-P]")
        assert "as you left it" in host.inner_text("[data-testid=draft-changes]")
        host.wait_for_selector("[data-testid=preview][aria-busy=false]", timeout=STEP_MS)
        before = screen_state(host)
        host.click("[data-testid=submit-orders]")
        wait_changed(host, before)

        # Turn 1 resolves on the guest's side with Alice's shield; his histories say so, and
        # so do the draft's once he has sealed turn 2.
        deliver(guest, code_to_send(host))
        assert guest.locator("[data-testid=orders-screen] >> text=↳").count() >= 1
        act(guest)
        guest.wait_for_selector(f"{DRAFT}[data-turn='3']", timeout=STEP_MS)
        assert guest.locator(f"{DRAFT} >> text=↳").count() >= 1
        assert "turn 2" in heading(guest), heading(guest)
        shot(guest, "newcomer-codes-draft-notes")
