"""Help that teaches the game, and the coach that explains (issue 28), as a newcomer meets them
at desktop (1280x800) and phone (390x844) size: Help opens from the start screen's "How to
play" and finds each topic the issue names (the goal, the gestures, the notation, shields and
stabs, monsters, the order of a turn), each with the facts the rules text gives; the coach,
asked in a duel against the computer, lists its plan.

Fixtures `server_url`, `browser` and `shot` come from e2e/conftest.py.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")

from conftest import Shot
from duel_play import ENGINE_MS, help_starts_with_how_to_play, sized_page

# Each topic's test id, and words it must hold (the rules text's facts).
TOPICS = {
    "help-goal": ["15 or more", "draw", "P with both hands at once"],
    "help-gestures": ["wiggled fingers", "both hands", "one knife", "F-F-F", "F-S-S-D-D"],
    "help-notation": ["(w", "W with the left and W with the right", "P-P-(w-(s", "lower-case"],
    "help-shields": ["stops stabs, missiles and monsters", "counter-spell", "W-W-S", "1 damage"],
    "help-monsters": ["goblin", "S-F-W", "attacks in the turn it is summoned"],
    "help-turn": ["in secret", "revealed together", "at once", "15 or more"],
}


# Deep at desktop size: Help is one dialog of the same words at every size (the phone's run
# reads every topic).
@pytest.fixture(params=[pytest.param("desktop", marks=pytest.mark.deep), "phone"])
def player(request: Any, browser: Any) -> Iterator[tuple[str, Any]]:
    """A fresh page at desktop or phone size; fails the test on a page error."""
    with sized_page(browser, request.param) as page:
        yield request.param, page


def test_help_teaches_each_topic(player: tuple[str, Any], server_url: str, shot: Shot) -> None:
    size, page = player
    page.goto(server_url)
    page.wait_for_function("window.__appReady === true", timeout=ENGINE_MS)
    page.click("[data-testid=learn-help]")
    help_box = page.wait_for_selector("[data-testid=help]")
    # It starts with how to play, in the page's own words (e2e/test_newplayer.py's
    # test_help_starts_with_how_to_play asks the same from the masthead's button: deep).
    help_starts_with_how_to_play(page)
    for testid, facts in TOPICS.items():
        topic = page.locator(f"[data-testid=help] [data-testid={testid}]")
        assert topic.count() == 1, testid
        if topic.get_attribute("open") is None:
            topic.locator("summary").click()
        text = topic.inner_text()
        for fact in facts:
            assert fact in text, (testid, fact)
    assert "Puzzles" in help_box.inner_text() or page.locator("[data-testid=help-puzzles]").count()
    page.locator("[data-testid=help-turn]").scroll_into_view_if_needed()
    shot(page, f"learn-help-{size}", full_page=False)
    page.click("[data-testid=help-close]")
    page.wait_for_selector("[data-testid=help]", state="detached")


def test_the_coach_lists_its_plan(page: Any, server_url: str, shot: Shot) -> None:
    page.goto(server_url)
    page.wait_for_function("window.__appReady === true", timeout=ENGINE_MS)
    page.fill("[data-testid=name-0]", "Alice")
    page.fill("[data-testid=name-1]", "Hal")
    page.check("[data-testid=mode-computer]")
    page.check("[data-testid=opponent-coach]")
    page.click("[data-testid=start-game]")
    page.wait_for_selector("[data-testid=orders-screen]", timeout=ENGINE_MS)
    page.click("[data-testid=coach-ask]")
    plan = page.wait_for_selector("[data-testid=coach-plan]", timeout=ENGINE_MS)
    lines = plan.inner_text().strip().splitlines()
    assert lines and all(line.strip().endswith((".", ")")) for line in lines), lines
    shot(page, "learn-coach-plan")
