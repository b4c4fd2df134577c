"""Reading a duel (issue 16, "Phone and reading"): annotated gesture histories, the battle log
open in place, the printable account, and the replay viewer (from a finished saved duel, an
imported record, and a link holding a record).

Fixtures `server_url`, `browser`, `page` and `shot` come from e2e/conftest.py.
"""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")

from conftest import Shot
from duel_play import ENGINE_MS, finished_record, import_record, open_game


def step_is(page: Any, step: int) -> None:
    page.wait_for_selector(f"[data-testid=replay-screen][data-step='{step}']",
                           timeout=ENGINE_MS)


def test_replay_an_imported_record_step_by_step(page: Any, server_url: str, shot: Shot) -> None:
    record = finished_record()
    open_game(page, server_url)
    import_record(page, record, mode=None)
    step_is(page, 0)
    steps = int(page.get_attribute("[data-testid=replay-screen]", "data-steps"))
    assert steps >= 6
    assert page.is_disabled("[data-testid=replay-prev]")
    # Forward by button and by key; both wizards side by side by default.
    page.click("[data-testid=replay-next]")
    step_is(page, 1)
    page.keyboard.press("ArrowRight")
    step_is(page, 2)
    assert page.locator("[data-testid=replay-side-0]").count() == 1
    assert page.locator("[data-testid=replay-side-1]").count() == 1
    # Turn 2: Alice's S-D completed a missile; her history marks the gestures and names it.
    cast = page.locator("[data-testid=replay-side-1] [data-testid=cast-0-1]")
    assert "Missile" in cast.inner_text() and "S-D" in cast.inner_text()
    marked = "[data-testid=replay-side-1] [data-testid=history-0] td.in-spell"
    assert page.locator(marked).count() == 2
    assert "Missile" in page.inner_text("[data-testid=replay-events-1]")
    # One wizard's view only; back one step.
    page.click("[data-testid=replay-perspective-1]")
    page.wait_for_selector("[data-testid=replay-side-0]", state="detached")
    page.keyboard.press("ArrowLeft")
    step_is(page, 1)
    page.keyboard.press("End")
    step_is(page, steps - 1)
    assert "Alice wins" in page.inner_text("[data-testid=replay-result]")
    # After the paralysis, Bob's right hand is marked as forced.
    assert page.locator("[data-testid=history-1] td.forced").count() >= 1
    shot(page, "replay-last")
    page.emulate_media(media="print")
    shot(page, "replay-print")
    assert not page.is_visible("[data-testid=replay-next]"), "controls are not printed"
    assert page.is_visible("[data-testid=replay-print-log-1]"), "the whole account is printed"
    page.emulate_media(media="screen")

    # The link holds the record: a fresh page (of the same kept context) opens the same replay.
    page.click("[data-testid=replay-copy-link]")
    link = page.input_value("[data-testid=replay-link]")
    assert "#replay=" in link and len(link) < 4000
    other = page.context.new_page()
    other.goto(link)
    other.wait_for_selector("[data-testid=replay-screen][data-step='0']", timeout=ENGINE_MS)
    other.click("[data-testid=replay-last]")
    other.wait_for_selector("[data-testid=replay-result]", timeout=ENGINE_MS)
    assert "Alice wins" in other.inner_text("[data-testid=replay-result]")
    other.close()


def test_a_finished_saved_duel_offers_its_replay_and_the_log_reads_in_place(
    page: Any, server_url: str, shot: Shot
) -> None:
    open_game(page, server_url)
    import_record(page, finished_record(), mode=None)
    step_is(page, 0)
    page.click("[data-testid=leave-duel]")
    page.wait_for_selector("[data-testid=start-screen]")
    page.locator("[data-testid=saved-games] button", has_text="View").first.click()
    page.wait_for_selector("[data-testid=game-over]", timeout=ENGINE_MS)
    # The battle log is open and not boxed in a scrolling area.
    panel = page.locator("[data-testid=log-panel]")
    assert panel.get_attribute("open") is not None
    overflow = page.eval_on_selector("[data-testid=log-panel] .log-whole",
                                     "el => getComputedStyle(el).overflowY")
    assert overflow == "visible"
    page.click("[data-testid=replay-open]")
    step_is(page, 0)
