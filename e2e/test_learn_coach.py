"""The coach and a charmed hand (issue 28), in the real page: Alice has charmed Bob's right hand
(charm person, P-S-D-F) in a duel against the computer with the coach on; "Use these gestures"
puts the coach's gestures on her pads AND its gesture for Bob's charmed hand in the charm
question, so that sealing works at once. Before the fix the charmed hand stayed empty and sealing
failed with "write the gesture for Bob's right hand".

Fixtures `server_url`, `page` and `shot` come from e2e/conftest.py.
"""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")

from conftest import Shot
from duel_play import ENGINE_MS, import_record, open_game, record_text, wait_preview


def test_use_these_gestures_writes_the_charmed_hand_too(page: Any, server_url: str,
                                                        shot: Shot) -> None:
    open_game(page, server_url)
    page.evaluate("localStorage.setItem('wavinghands:v1:setting:coach', 'true')")
    import_record(page, record_text([("P-", "--"), ("S-", "--"), ("D-", "--"), ("F-", "-S")],
                                    decisions={4: {"charm:W1": "R"}}), mode="computer")
    screen = page.wait_for_selector("[data-testid=orders-screen]", timeout=ENGINE_MS)
    turn = screen.get_attribute("data-turn")
    assert page.locator("[data-testid=charm-gesture]").count() == 1
    page.click("[data-testid=coach-ask]")
    page.wait_for_selector("[data-testid=coach-use]", timeout=ENGINE_MS)
    plan = page.inner_text("[data-testid=coach]")
    assert "Bob" in plan and "right hand" in plan, plan
    page.click("[data-testid=coach-use]")
    wait_preview(page)
    charm = page.input_value("[data-testid=charm-gesture]")
    assert charm, "the coach's gesture for Bob's charmed hand is written"
    assert f"Write {charm}" in plan or charm in plan
    shot(page, "learn-coach-charm")
    page.click("[data-testid=submit-orders]")  # sealed at once: the turn is played
    page.wait_for_selector(f"[data-testid=orders-screen][data-turn='{turn}']", state="detached",
                           timeout=ENGINE_MS)
