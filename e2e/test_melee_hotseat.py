"""A melee on one device through the real page in Debian's Chromium, engine in Pyodide.

Four seats, two of them computers (strong and novice), played to the end through the UI: the
two players hand the device to each other, each sees every wizard in compact rows with his own
first, a stab's target list names every wizard, and once both players have surrendered the
computers fight on alone until the engine says who won.  At a phone's size (390x844) the table
of five wizards fits the width.  Screenshots go to test-output/melee-*.png for a person to look
at.  Fixtures come from e2e/conftest.py.
"""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")

from conftest import Shot, phone_page
from duel_play import ENGINE_MS, SETTLED, open_game, play_duel, replay_to_the_end, seal
from melee_play import pick_orders

MAX_TURNS = 200  # the computers' fight after both players surrendered: thinking screens only
# The turn the saved melee has reached (the saved list's summary), to see the computers' fight
# go on while no screen settles.
SAVED_TURN = ("() => Math.max(0, ...JSON.parse(localStorage.getItem('wavinghands:v1:index') "
              "|| '[]').map((d) => d.turn || 0))")
NAMES = ("Ann", "Bob", "Cat", "Dan")
# The players' orders per turn (left, right): a W and a stab whose list names every wizard,
# then a surrender ("PP", asked for twice), so the computers' fight (the test's cost: each turn
# one strong and one novice move in the page's engine) starts on the second turn.
SCRIPT = {1: "W>", 2: "PP"}


def start_melee(page: Any, names: tuple[str, ...], players: tuple[str, ...]) -> None:
    """Fill the start screen for a melee: the names, and who plays each seat after the first."""
    page.fill("[data-testid=name-0]", names[0])
    page.fill("[data-testid=name-1]", names[1])
    page.check("[data-testid=mode-melee]")
    page.select_option("[data-testid=melee-count]", str(len(names)))
    for seat, name in enumerate(names[2:], start=2):
        page.fill(f"[data-testid=melee-name-{seat}]", name)
    for seat, who in enumerate(players, start=1):
        page.select_option(f"[data-testid=melee-player-{seat}]", who)
    page.click("[data-testid=start-game]")


def wait_screen(page: Any) -> str:
    """Wait for the next settled screen and return its test id; while the computers play turn
    after turn alone, each new turn saved is progress (each turn must come within ENGINE_MS)."""
    turn = -1
    for _ in range(MAX_TURNS):
        page.wait_for_function(
            f"(turn) => document.querySelector(`{SETTLED}`) || ({SAVED_TURN})() > turn",
            arg=turn, timeout=ENGINE_MS, polling=100)
        settled = page.query_selector(SETTLED)
        if settled is not None:
            testid: str = settled.get_attribute("data-testid")
            return testid
        turn = page.evaluate(SAVED_TURN)
    raise AssertionError(f"no screen settled in {MAX_TURNS} turns")


def write(page: Any, wizard: int, turn: int) -> None:
    """The player's scripted orders for the turn, sealed (a surrender confirmed); a stab's
    list names every other wizard."""
    pair = SCRIPT.get(turn, "PP")
    pick_orders(page, pair, wizard, NAMES)
    seal(page, surrender=pair == "PP")


def test_a_four_seat_melee_with_two_computers_plays_to_its_end(page: Any, server_url: str,
                                                               shot: Shot) -> None:
    page.set_viewport_size({"width": 1280, "height": 800})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    open_game(page, server_url)
    page.check("[data-testid=mode-melee]")
    shot(page, "melee-start")
    start_melee(page, NAMES, ("human", "strong", "novice"))
    written: list[tuple[int, int]] = []
    shots: set[str] = set()

    def pass_shot(page: Any) -> None:
        if not written:
            shot(page, "melee-pass", full_page=False)

    def write_checked(page: Any, wizard: int, turn: int) -> None:
        assert wizard in (0, 1), "only the players' seats are drawn"
        rows = page.locator("[data-testid=melee-table] li.melee-row")
        assert rows.count() == 4
        assert rows.first.get_attribute("data-testid") == f"melee-row-{wizard}"
        assert "(you)" in rows.first.inner_text()
        for name in NAMES:
            assert name in page.inner_text("[data-testid=melee-table]")
        if turn == 2 and "desktop" not in shots:
            shot(page, "melee-orders-desktop")
            shots.add("desktop")
        write(page, wizard, turn)
        written.append((wizard, turn))

    play_duel(page, write_checked, screens=40, wait=wait_screen, on_pass=pass_shot)
    title = page.inner_text("[data-testid=result-title]")
    assert title in ("Cat wins the melee", "Dan wins the melee") or \
        title.startswith("A draw between"), title
    assert "surrender" in page.inner_text("[data-testid=game-over]")
    assert {w for w, _ in written} == {0, 1}
    shot(page, "melee-over")
    # The end is compact: a screen and a half at 1280x800, not pages of cards.
    tall = page.evaluate("document.documentElement.scrollHeight")
    assert tall <= 1300, f"the end screen is {tall}px tall"
    # Replay: every wizard's view offered, to the end.
    ending = replay_to_the_end(page, 4, perspective=2)
    assert title.split(" wins")[0] in ending or "draw" in ending.lower(), (title, ending)
    shot(page, "melee-replay")
    page.click("[data-testid=home-link]")
    page.wait_for_selector("[data-testid=start-screen]")
    assert "Ann, Bob, Cat and Dan" in page.inner_text("[data-testid=saved-games]")
    assert not errors, errors


def test_the_melee_table_fits_a_phone(browser: Any, server_url: str, shot: Shot) -> None:
    with phone_page(browser, {"width": 390, "height": 844}) as page:
        open_game(page, server_url)
        start_melee(page, ("Ann", "Bob", "Cat", "Dan", "Eve"),
                    ("novice", "novice", "novice", "novice"))
        assert wait_screen(page) == "orders-screen"
        rows = page.locator("[data-testid=melee-table] li.melee-row")
        assert rows.count() == 5
        assert rows.first.get_attribute("data-testid") == "melee-row-0"
        wide = page.evaluate("document.documentElement.scrollWidth")
        assert wide <= 390, f"the page is {wide}px wide on a 390px phone"
        shot(page, "melee-orders-phone", full_page=False)
        write(page, 0, 1)
        page.wait_for_selector("[data-testid=orders-screen][data-turn='2']", timeout=ENGINE_MS)
        assert "W" in page.inner_text("[data-testid=melee-row-0]")
        shot(page, "melee-orders-phone-turn2")
