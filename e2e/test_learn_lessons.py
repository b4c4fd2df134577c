"""The guided first duel (issue 28), played as a newcomer would at desktop (1280x800) and phone
(390x844) size: the first visit offers it, its first click opens the first lesson, every lesson
is played turn by turn on the real engine and checked by it, with what happened explained; the
last lesson begins a whole duel against the novice with the coach. Progress survives a reload;
any lesson can be skipped or played again; Help offers the lessons too.

The time from opening the page to the first spell cast (the first lesson's shield checked) is
printed, not asserted (a figure for the issue's closing note: the goal is two minutes).

Fixtures `server_url`, `browser` and `shot` come from e2e/conftest.py.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")

from conftest import Shot
from duel_play import gesture_pad, sized_page

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "engine"))
from wavinghands import lessons  # (the lessons' own data: what a player is asked)

ENGINE_MS = 90_000
CHECKED = [lesson for lesson in lessons.all_lessons() if not lesson.duel]


# Deep at desktop size: the lessons' flow is one at every size (the phone plays it through, and
# test_progress_is_kept_and_lessons_are_skipped_or_played_again plays lessons at a desktop's).
@pytest.fixture(params=[pytest.param("desktop", marks=pytest.mark.deep), "phone"])
def newcomer(request: Any, browser: Any) -> Iterator[tuple[str, Any]]:
    """A fresh page (nothing saved) at desktop or phone size; fails the test on a page error."""
    with sized_page(browser, request.param) as page:
        yield request.param, page


def title_is(page: Any, title: str) -> None:
    """Wait for the lesson with this title."""
    page.wait_for_selector(f"[data-testid=lesson-title]:has-text('{title}')", timeout=ENGINE_MS)


def verdict(page: Any, passed: str) -> Any:
    """Wait for the engine's verdict on the lesson ("true" or "false")."""
    return page.wait_for_selector(f"[data-testid=lesson-verdict][data-passed={passed}]",
                                  timeout=ENGINE_MS)


def make(page: Any, left: str, right: str) -> None:
    """Pick one turn's gestures on the lesson's pads, as a player clicks them."""
    for hand, gesture in (("L", left), ("R", right)):
        page.check(gesture_pad(hand, gesture))


def play_lesson(page: Any, lesson: lessons.Lesson) -> str:
    """Play a lesson's intended gestures turn by turn; the verdict's text once it passed."""
    title_is(page, lesson.title)
    assert lesson.try_ in page.inner_text("[data-testid=lesson-try]")
    for n, (left, right) in enumerate(lesson.play, start=1):
        if len(lesson.play) > 1:
            assert f"turn {n} of {len(lesson.play)}" in page.inner_text("[data-testid=lesson-turn]")
        make(page, left, right)
        page.click("[data-testid=lesson-seal]")
        if n < len(lesson.play):  # the next turn: the turn's log shown, the pads empty again
            page.wait_for_selector(f"[data-testid=lesson-turn]:has-text('turn {n + 1} of')",
                                   timeout=ENGINE_MS)
            assert page.locator("[data-testid=lesson-log] li").count() >= 1
            assert page.is_checked("[data-testid=gesture-0-L-nothing]")
    box = page.wait_for_selector("[data-testid=lesson-verdict]", timeout=ENGINE_MS)
    text: str = box.inner_text()
    assert box.get_attribute("data-passed") == "true", text
    assert lesson.explain in text
    return text


def test_a_newcomer_plays_the_whole_guided_duel(newcomer: tuple[str, Any], server_url: str,
                                                shot: Shot) -> None:
    size, page = newcomer
    opened = time.monotonic()
    page.goto(server_url)
    offer = page.wait_for_selector("[data-testid=learn-invite][data-first=true]", timeout=ENGINE_MS)
    assert "New to Waving Hands?" in offer.inner_text()
    shot(page, f"learn-lessons-offer-{size}", full_page=False)
    page.click("[data-testid=open-lessons]")
    first = CHECKED[0]
    page.wait_for_selector("[data-testid=lesson-pads]", timeout=ENGINE_MS)
    shot(page, f"learn-lesson-first-{size}")
    make(page, *first.play[0])
    page.click("[data-testid=lesson-seal]")
    text = verdict(page, "true").inner_text()
    first_spell = time.monotonic() - opened
    assert "Shield" in text
    print(f"\n{size}: first spell cast {first_spell:.1f} s after opening the page "
          "(scripted newcomer: offer, first lesson, P, seal)")
    shot(page, f"learn-lesson-passed-{size}")
    page.click("[data-testid=lesson-next]")
    for lesson in CHECKED[1:]:
        play_lesson(page, lesson)
        if lesson.id == "overlap":
            shot(page, f"learn-lesson-overlap-{size}")
        page.click("[data-testid=lesson-next]")
    # The last lesson: a whole duel against the novice, with the coach.
    page.wait_for_selector("[data-testid=lesson-duel]", timeout=ENGINE_MS)
    assert "novice" in page.inner_text("[data-testid=lesson-duel]")
    page.click("[data-testid=lesson-duel]")
    screen = page.wait_for_selector("[data-testid=orders-screen]", timeout=ENGINE_MS)
    assert page.locator("[data-testid=coach]").count() == 1
    turn = screen.get_attribute("data-turn")
    make(page, "P", "-")
    page.wait_for_selector("[data-testid=preview][aria-busy=false]")
    page.click("[data-testid=submit-orders]")
    page.wait_for_function(
        "t => document.querySelector(`[data-testid=orders-screen]:not([data-turn='${t}']), "
        "[data-testid=decision-screen], [data-testid=game-over]`)", arg=turn, timeout=ENGINE_MS)
    shot(page, f"learn-lesson-duel-{size}")
    whole = time.monotonic() - opened
    print(f"{size}: the whole guided duel up to its last lesson's duel in {whole:.1f} s")


def test_progress_is_kept_and_lessons_are_skipped_or_played_again(page: Any,
                                                                  server_url: str) -> None:
    page.goto(server_url)
    page.wait_for_function("window.__appReady === true", timeout=ENGINE_MS)
    # Help offers the guided duel too.
    page.click("[data-testid=open-help]")
    page.click("[data-testid=help-lessons]")
    play_lesson(page, CHECKED[0])
    page.click("[data-testid=lesson-next]")
    title_is(page, CHECKED[1].title)
    page.click("[data-testid=lesson-skip]")
    # A wrong try: the engine says what did not happen, and the lesson can be tried again.
    lesson = CHECKED[2]
    title_is(page, lesson.title)
    for _ in lesson.play:
        page.click("[data-testid=lesson-seal]")
        page.wait_for_selector(
            "[data-testid=lesson-seal]:not([disabled]), [data-testid=lesson-verdict]",
            timeout=ENGINE_MS)
    failed = verdict(page, "false")
    assert lesson.hint in failed.inner_text()
    page.click("[data-testid=lesson-retry]")
    play_lesson(page, lesson)
    # A reload: the start screen no longer offers the first visit's card; the list remembers.
    page.reload()
    page.wait_for_selector("[data-testid=learn-invite]:not([data-first])", timeout=ENGINE_MS)
    page.click("[data-testid=open-lessons]")
    page.wait_for_selector("[data-testid=lesson-list]", timeout=ENGINE_MS)
    marks = {x.id: page.locator(f"li:has(> [data-testid=lesson-{x.id}])").get_attribute("data-done")
             for x in CHECKED[:4]}
    assert marks == {CHECKED[0].id: "passed", CHECKED[1].id: "skipped", CHECKED[2].id: "passed",
                     CHECKED[3].id: "no"}
    page.click("[data-testid=lessons-continue]")  # the first lesson neither passed nor skipped
    title_is(page, CHECKED[3].title)
    # Played again from the list: a passed lesson opens from its start.
    page.click("[data-testid=lessons-back]")
    page.click(f"[data-testid=lesson-{CHECKED[0].id}]")
    play_lesson(page, CHECKED[0])
