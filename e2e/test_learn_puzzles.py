"""Puzzles on the page (issue 28), as a player meets them at desktop (1280x800) and phone
(390x844) size: reached from the masthead and from Help; the puzzle of the day; a wrong answer
refuted by the engine with Morgana's reply and the turn's log; a hint; the right answer solved;
a "what can she complete next?" puzzle answered by ticking spells.

Fixtures `server_url`, `browser` and `shot` come from e2e/conftest.py.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")

from conftest import Shot
from duel_play import sized_page

ENGINE_MS = 90_000


# Deep at phone size: a puzzle is refuted and solved by the same flow at every size (the
# desktop's run), and test_newcomer.py's phone walk opens a puzzle at 390x844.
@pytest.fixture(params=["desktop", pytest.param("phone", marks=pytest.mark.deep)])
def player(request: Any, browser: Any) -> Iterator[tuple[str, Any]]:
    """A fresh page at desktop or phone size; fails the test on a page error."""
    with sized_page(browser, request.param) as page:
        yield request.param, page


def open_puzzles(page: Any, server_url: str) -> None:
    page.goto(server_url)
    page.wait_for_function("window.__appReady === true", timeout=ENGINE_MS)
    page.click("[data-testid=open-puzzles]")
    page.wait_for_selector("[data-testid=puzzle-today]", timeout=ENGINE_MS)


def test_a_puzzle_is_refuted_then_solved(player: tuple[str, Any], server_url: str,
                                          shot: Shot) -> None:
    size, page = player
    open_puzzles(page, server_url)
    assert page.locator("[data-testid=puzzles-standard] .puzzle-pick").count() >= 15
    assert page.locator("[data-testid=puzzles-warlocks] .puzzle-pick").count() >= 15
    shot(page, f"learn-puzzles-list-{size}")
    page.click("[data-testid=puzzle-std-survive-counter]")
    page.wait_for_selector("[data-testid=puzzle-title]")
    assert "Survive" in page.inner_text("[data-testid=puzzle-question]")
    assert page.locator("[data-testid=histories]").count() == 1
    # A shield does not stop lightning: the engine says how Morgana beats it.
    page.click("[data-testid=gesture-0-L-P]")
    page.click("[data-testid=puzzle-check]")
    verdict = page.wait_for_selector("[data-testid=puzzle-verdict][data-solved=false]",
                                     timeout=ENGINE_MS)
    assert "Lightning" in verdict.inner_text()
    page.click("[data-testid=puzzle-hint]")
    assert "lightning" in page.inner_text("[data-testid=puzzle-hints]").lower()
    shot(page, f"learn-puzzle-refuted-{size}")
    page.click("[data-testid=gesture-0-L-S]")
    page.click("[data-testid=puzzle-check]")
    solved = page.wait_for_selector("[data-testid=puzzle-verdict][data-solved=true]",
                                    timeout=ENGINE_MS)
    assert "counter-spell" in solved.inner_text()
    shot(page, f"learn-puzzle-solved-{size}")


def test_foresee_and_the_way_back(page: Any, server_url: str) -> None:
    open_puzzles(page, server_url)
    page.click("[data-testid=puzzle-std-foresee-1]")
    page.wait_for_selector("[data-testid=puzzle-spells]")
    for key in ("shield", "missile"):
        page.check(f"[data-testid=puzzle-spell-{key}]")
    page.click("[data-testid=puzzle-check]")
    verdict = page.wait_for_selector("[data-testid=puzzle-verdict][data-solved=false]",
                                     timeout=ENGINE_MS)
    assert "Cause heavy wounds" in verdict.inner_text()
    page.check("[data-testid=puzzle-spell-cause_heavy_wounds]")
    page.click("[data-testid=puzzle-check]")
    page.wait_for_selector("[data-testid=puzzle-verdict][data-solved=true]", timeout=ENGINE_MS)
    page.click("[data-testid=puzzle-show]")
    assert "Missile" in page.inner_text("[data-testid=puzzle-answer]")
    page.click("[data-testid=puzzle-back]")
    page.wait_for_selector("[data-testid=puzzle-today]")
    page.click("[data-testid=puzzles-home]")
    page.wait_for_selector("[data-testid=start-screen]")


def test_help_leads_to_the_puzzle_of_the_day(page: Any, server_url: str) -> None:
    page.goto(server_url)
    page.wait_for_function("window.__appReady === true", timeout=ENGINE_MS)
    page.click("[data-testid=open-help]")
    page.click("[data-testid=help-puzzles]")
    page.wait_for_selector("[data-testid=puzzles-screen]")
    assert page.locator("dialog[open]").count() == 0
    page.click("[data-testid=puzzle-today]", timeout=ENGINE_MS)
    title = page.wait_for_selector("[data-testid=puzzle-title]").inner_text()
    assert title.strip()
