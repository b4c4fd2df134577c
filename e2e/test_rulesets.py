"""The Warlocks ruleset wherever a player meets it, through the real page (issue 14).

- The start screen offers every ruleset the engine registers (Bartle's first), at desktop and
  phone width; the choice is remembered, and the spell reference follows it.
- A hot-seat Warlocks duel: Alice weaves maladroitness (D-S-F, a Warlocks spell), the reference
  shows it, Bob is maladroit the next turn (the engine says so while he writes his orders) and
  surrenders with both hands; the saved duel and its record keep the rules.
- A duel by codes whose invitation carries the Warlocks ruleset: the guest sees the rules before
  accepting and plays under them to the end; an invitation to rules this page does not know is
  refused in words.

Screenshots go to shots/ (not committed) for a person to look at.
"""

from __future__ import annotations

import contextlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")

import conftest
import remote_play
from duel_play import choose_ruleset, gesture_pad, play_duel, seal
from remote_play import (
    ENGINE_MS,
    STEP_MS,
    accept,
    code_to_send,
    deliver,
    open_site,
    play,
    remote_screen,
    two_players,
)

ROOT = Path(__file__).resolve().parent.parent
SHOTS = ROOT / "shots"
# Both duels: Alice's left hand weaves maladroitness over turns 1-3 while Bob waits; on turn 4
# Bob must make one gesture with both hands, and makes P with both: he surrenders.
MALADROIT_SCRIPT = {0: ["D-", "S-", "F-", "--"], 1: ["--", "--", "--", "PP"]}
# The kept touch context of e2e/test_phone_screens.py's smaller phone.
KEPT_PHONE = {"width": 360, "height": 740}
# The phone's size the start screen is checked at.
PHONE = {"width": 375, "height": 740}


def snap(page: Any, name: str, full_page: bool = True) -> None:
    """A screenshot under shots/<name>.png (unless WH_SHOTS=0, e2e/conftest.py)."""
    conftest.screenshot(page, SHOTS / f"{name}.png", full_page=full_page)


def open_reference(page: Any) -> Any:
    """Open the spell reference; the dialog once its book is drawn."""
    page.click("[data-testid=open-reference]")
    return page.wait_for_selector("dialog[data-testid=reference] .ref-table", timeout=STEP_MS)


def close_reference(page: Any) -> None:
    page.click("[data-testid=reference-close]")
    page.wait_for_selector("dialog[data-testid=reference]", state="detached")


def reference_has(page: Any, key: str, title: str) -> bool:
    """The open reference's title names these rules, and it describes the spell `key`."""
    dialog = page.locator("dialog[data-testid=reference]")
    assert title in dialog.inner_text(), dialog.inner_text()[:200]
    page.click("[data-testid=reference-tab-spells]")
    return bool(page.locator(f"[data-testid=ref-spell-{key}]").count() == 1)


# The phone's run is deep: the desktop run checks the start screen at the phone's width too (the
# layout follows the width, web/style.css), and the rest is the same flow (docs/test-tiers.md).
@pytest.mark.parametrize("size", [(1200, 900), pytest.param((375, 740), marks=pytest.mark.deep)],
                         ids=["desktop", "phone"])
def test_the_start_screen_chooses_the_rules_and_remembers(
    browser: Any, server_url: str, size: tuple[int, int]
) -> None:
    # A kept context (e2e/conftest.py): the desktop one `page` lends, or the touch phone one of
    # e2e/test_phone_screens.py resized to this size; a context of a shape of its own would boot
    # the engine from the Python library.
    with contextlib.ExitStack() as stack:
        if size[0] < 500:
            page = stack.enter_context(conftest.phone_page(browser, KEPT_PHONE))
        else:
            page = stack.enter_context(
                conftest.kept_context(browser, server_url, viewport=conftest.DESKTOP)).new_page()
        page.set_viewport_size({"width": size[0], "height": size[1]})
        start_screen_chooses_the_rules(page, server_url, size)


def start_screen_chooses_the_rules(page: Any, server_url: str, size: tuple[int, int]) -> None:
    """The start screen's rules box at this size: Bartle's first, the choice followed by the
    options and the reference, remembered after a duel was started with it."""
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    open_site(page, server_url)
    box = page.wait_for_selector("[data-testid=rule-options]:visible", timeout=ENGINE_MS)
    names = page.eval_on_selector_all("[data-testid=rule-options] input[type=radio]",
                                      "(xs) => xs.map((x) => x.value)")
    assert names[0] == "standard" and "warlocks" in names
    assert page.is_checked("[data-testid=ruleset-standard]")  # Bartle's is the default
    assert page.locator("[data-testid=option-withhold]").count() == 1
    assert reference_has_now(page, "confusion", "Waving Hands")
    choose_ruleset(page, "warlocks")
    # Warlocks offers no withhold option: the switches are the chosen ruleset's.
    page.wait_for_selector("[data-testid=option-withhold]", state="detached")
    wide = size[0] > 500
    scroll = page.evaluate("() => document.documentElement.scrollWidth")
    assert scroll <= size[0], f"the start screen scrolls sideways ({scroll}px)"
    if wide:  # and at the phone's width
        page.set_viewport_size(PHONE)
        scroll = page.evaluate("() => document.documentElement.scrollWidth")
        assert scroll <= PHONE["width"], f"at 375 px the start screen scrolls sideways ({scroll}px)"
        page.set_viewport_size({"width": size[0], "height": size[1]})
    box.scroll_into_view_if_needed()
    snap(page, f"rules-chooser-{'desktop' if wide else 'phone'}", full_page=not wide)
    # The reference on the start screen is the chosen rules' book.
    open_reference(page)
    assert reference_has(page, "maladroitness", "Warlocks")
    snap(page, f"rules-reference-{'desktop' if wide else 'phone'}", full_page=False)
    close_reference(page)
    # Remembered: the next visit preselects Warlocks once a duel was started with it.
    page.fill("[data-testid=name-0]", "Alice")
    page.fill("[data-testid=name-1]", "Bob")
    page.check("[data-testid=mode-hotseat]")
    page.click("[data-testid=start-game]")
    page.wait_for_selector("[data-testid=pass-screen]", timeout=ENGINE_MS)
    page.click("[data-testid=home-link]")
    page.wait_for_selector("[data-testid=ruleset-warlocks]", timeout=ENGINE_MS)
    assert page.is_checked("[data-testid=ruleset-warlocks]")
    page.reload()
    page.wait_for_selector("[data-testid=ruleset-warlocks]", timeout=ENGINE_MS)
    assert page.is_checked("[data-testid=ruleset-warlocks]")
    assert not errors, errors


def reference_has_now(page: Any, key: str, title: str) -> bool:
    """Open the reference, check it, and close it again."""
    open_reference(page)
    found = reference_has(page, key, title)
    close_reference(page)
    return found


def write(page: Any, pair: str) -> None:
    """Click a gesture pair on the orders screen (a hand the rules fix keeps its gesture)."""
    for hand, gesture in zip("LR", pair, strict=True):
        button = page.locator(gesture_pad(hand, gesture))
        if button.is_enabled():
            button.check()
    page.wait_for_selector("[data-testid=preview][aria-busy=false]", timeout=STEP_MS)


def test_a_hotseat_warlocks_duel_to_the_end(page: Any, server_url: str) -> None:
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    open_site(page, server_url)
    choose_ruleset(page, "warlocks")
    page.fill("[data-testid=name-0]", "Alice")
    page.fill("[data-testid=name-1]", "Bob")
    page.check("[data-testid=mode-hotseat]")
    page.click("[data-testid=start-game]")
    saw_maladroit = False

    def orders(page: Any, wizard: int, turn: int) -> None:
        nonlocal saw_maladroit
        pair = MALADROIT_SCRIPT[wizard][turn - 1]
        write(page, pair)
        if wizard == 0 and turn == 3:
            # The duel's reference is Warlocks': the spell Alice completes is in it.
            assert "Maladroitness" in page.inner_text("[data-testid=preview]")
            open_reference(page)
            assert reference_has(page, "maladroitness", "Warlocks")
            page.click("[data-testid=reference-tab-forward]")
            assert "D-S-F" in page.inner_text("dialog[data-testid=reference]")
            snap(page, "warlocks-reference-in-duel", full_page=False)
            close_reference(page)
        if wizard == 1 and turn == 4:
            warnings = page.inner_text("[data-testid=warnings]")
            assert "maladroit" in warnings, warnings  # Warlocks' rule, said while he writes
            saw_maladroit = True
            snap(page, "warlocks-maladroit-orders")
        seal(page, surrender=pair == "PP")  # a surrender takes a second press

    play_duel(page, orders, screens=20, decide=None)
    assert saw_maladroit
    assert page.inner_text("[data-testid=result-title]") == "Alice wins"
    assert "surrender" in page.inner_text("[data-testid=result-how]").lower()
    log = page.inner_text("[data-testid=battle-log]")
    assert "Maladroitness" in log
    snap(page, "warlocks-game-over")
    # The saved duel and its record keep the rules.
    page.click("[data-testid=export-record]")
    record = json.loads(page.input_value("[data-testid=export-text]"))
    assert record["ruleset"]["name"] == "warlocks"
    page.click("[data-testid=export-close]")
    saved = page.evaluate("() => Object.values(localStorage).filter((v) => v.includes("
                          "'\"name\":\"warlocks\"')).length")
    assert saved >= 1
    assert not errors, errors


@pytest.fixture
def players(browser: Any) -> Iterator[dict[int, Any]]:
    """Two players, each in their own browser context (own storage), host 0 and guest 1."""
    with two_players(browser) as pages:
        yield pages


def test_a_warlocks_duel_by_codes(
    players: dict[int, Any], server_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    host, guest = players[0], players[1]
    monkeypatch.setattr(remote_play, "SCRIPT", MALADROIT_SCRIPT)
    open_site(host, server_url)
    open_site(guest, server_url)
    choose_ruleset(host, "warlocks")
    host.check("[data-testid=mode-codes]")
    host.fill("[data-testid=name-0]", "Alice")
    host.click("[data-testid=start-game]")
    host.wait_for_selector("[data-testid=remote-code]", timeout=STEP_MS)
    invitation = code_to_send(host)
    # The guest sees the rules before accepting.
    guest.fill("[data-testid=join-text]", invitation)
    guest.click("[data-testid=join-text-apply]")
    rules = guest.wait_for_selector("[data-testid=accept-rules]", timeout=STEP_MS).inner_text()
    assert rules.startswith("Rules: Warlocks"), rules
    snap(guest, "warlocks-invitation", full_page=False)
    accept(guest, "Bob")
    # The guest's reference is the duel's: Warlocks.
    open_reference(guest)
    assert reference_has(guest, "maladroitness", "Warlocks")
    close_reference(guest)

    def carry(w: int) -> None:
        deliver(players[1 - w], code_to_send(players[w]))

    # The host's invitation has reached the guest; the guest's first code is still to come.
    play(players, carry, {0: 1, 1: 0})
    for page in (host, guest):
        assert remote_screen(page)["state"] == "over"
        assert page.inner_text("[data-testid=result-title]") == "Alice wins"
        assert "Maladroitness" in page.inner_text("[data-testid=battle-log]")
    snap(guest, "warlocks-codes-over")


def test_an_invitation_to_unknown_rules_is_refused_in_words(page: Any, server_url: str) -> None:
    sys.path.insert(0, str(ROOT / "engine"))
    try:
        from wavinghands.remote import codes
    finally:
        sys.path.remove(str(ROOT / "engine"))
    newer = codes.encode_message(codes.Message(codes.MsgType.INVITE, 0, b"\1\2\3\4", 0, 0,
                                               "orders", name="Carol",
                                               ruleset={"name": "warlocks-2099"}))
    open_site(page, server_url)
    page.fill("[data-testid=join-text]", newer)
    page.click("[data-testid=join-text-apply]")
    error = page.wait_for_selector("[data-testid=join-error]:visible", timeout=STEP_MS)
    text = error.inner_text()
    assert "Carol's duel" in text and "'warlocks-2099'" in text and "Reload" in text, text
    assert page.locator("[data-testid=accept-name]").count() == 0
    snap(page, "unknown-rules-invitation", full_page=False)
