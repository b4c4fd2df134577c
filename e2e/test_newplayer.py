"""A new player's stumbles at a phone's size (390x844, touch), each fixed and kept fixed.

Found by playing the built page as a new player would (docs/ui.md, "A new player's run"):
- both hands on P surrendered the duel at the first press of Seal, with only a red line
  above the choices to say so;
- the coach named its gestures but left the player to find and tap them;
- a friend's turn-code link opened in a browser that does not hold the duel (a chat app's own
  browser) showed the start screen's top and nothing else: why was said a screen further down;
- a duel left for the start screen was found again only under the whole new-duel form;
- by codes, an answer the rules asked between turns made no code, and the page said only
  "Noted: it goes with your next code, after what the rules ask of you next";
- a friend's code or replay link pasted into "Import a record…" (the only big box in sight)
  was "not valid JSON (Expecting value: line 1 column 1 (char 0))";
- a replay on a phone showed both wizards' views one under the other: every step a long scroll
  to the second, under a button that said "Both side by side";
- live and connected, the side that writes first was told "Waiting for Alice's code (turn 2).
  Paste it here when it comes", beside "Alice is choosing…";
- "Decide" pressed with no answer chosen said only "answer: Paralysis hits Alice: which hand
  is paralysed?";
- nothing said how a turn goes on the page: the masthead's second button was "Keys", a table
  of keyboard shortcuts (on a phone!).

Fixtures `server_url`, `browser` and `shot` come from e2e/conftest.py.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")

import remote_play
from conftest import WEBRTC_ARGS, Shot, phone_page
from duel_play import (
    ENGINE_MS,
    deciding_with_no_answer_says_to_choose_one,
    help_starts_with_how_to_play,
    in_view,
    open_game,
    play_duel,
    record_text,
    replay_shows_one_view_and_both_a_press_away,
    start_by_codes,
    start_hotseat,
    wait_preview,
)

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    """A page in a fresh phone-sized touch context; fails the test on a page error."""
    with phone_page(browser, PHONE) as page:
        yield page


def seal(page: Any, wizard: int, left: str, right: str) -> None:
    """Tap `wizard`'s two gestures, wait for the engine's preview, and press Seal."""
    page.tap(f"[data-testid=gesture-{wizard}-L-{left}]")
    page.tap(f"[data-testid=gesture-{wizard}-R-{right}]")
    wait_preview(page)
    page.tap("[data-testid=submit-orders]")


def start_against_computer(page: Any, coach: bool = False) -> None:
    """Begin a duel against the novice computer, as Alice, and wait for her first orders."""
    page.fill("[data-testid=name-0]", "Alice")
    page.check("[data-testid=mode-computer]")
    page.select_option("[data-testid=opponent-level]", "novice")
    if coach:
        page.check("[data-testid=opponent-coach]")
    page.tap("[data-testid=start-game]")
    page.wait_for_selector("[data-testid=orders-screen][data-turn='1']", timeout=ENGINE_MS)


def surrender(page: Any) -> None:
    """Both hands on P, sealed past the page's question: the duel ends at once."""
    seal(page, 0, "P", "P")
    page.wait_for_selector("[data-testid=confirm-risky]", timeout=ENGINE_MS)
    page.tap("[data-testid=submit-orders]")


# Deep: e2e/test_battle_end.py's test_a_surrender_is_said_at_phone_size asks the same of a
# hot-seat surrender on a phone (docs/test-tiers.md).
@pytest.mark.deep
def test_both_hands_on_p_asks_before_surrendering(phone: Any, server_url: str,
                                                  shot: Shot) -> None:
    # "a pair of P gestures made by both hands at the same time signals your surrender"
    page = phone
    open_game(page, server_url)
    start_against_computer(page)
    seal(page, 0, "P", "P")
    warning = page.wait_for_selector("[data-testid=confirm-risky]", timeout=ENGINE_MS)
    assert "SURRENDERS" in warning.inner_text()
    assert in_view(page, "[data-testid=confirm-risky]"), "the question is out of sight"
    assert page.locator("[data-testid=orders-screen][data-turn='1']").count() == 1, "sealed"
    assert page.inner_text("[data-testid=submit-orders]") == "Seal anyway"
    shot(page, "newplayer-surrender-asked", full_page=False)
    # Changing a hand withdraws the question; going back to P-P and pressing twice surrenders.
    page.tap("[data-testid=gesture-0-R-W]")
    wait_preview(page)
    assert page.locator("[data-testid=confirm-risky]").count() == 0
    page.tap("[data-testid=gesture-0-R-P]")
    wait_preview(page)
    page.tap("[data-testid=submit-orders]")
    page.wait_for_selector("[data-testid=confirm-risky]", timeout=ENGINE_MS)
    page.tap("[data-testid=submit-orders]")
    page.wait_for_selector("[data-testid=game-over]", timeout=ENGINE_MS)
    assert "surrendered" in page.inner_text("[data-testid=result-how]")



def picked(page: Any) -> dict[str, str]:
    """The first gesture set's picked buttons: hand -> slug (F, P, ..., stab, nothing)."""
    ids: list[str] = page.eval_on_selector_all(
        "input[data-testid^=gesture-0-]:checked", "els => els.map((e) => e.dataset.testid)")
    return {t.split("-")[2]: t.split("-", 3)[3] for t in ids}


# Deep: e2e/test_learn_coach.py's "Use these gestures" seals at once only with the coach's
# gestures on the pads (docs/test-tiers.md).
@pytest.mark.deep
def test_the_coachs_gestures_are_taken_with_one_tap(phone: Any, server_url: str,
                                                    shot: Shot) -> None:
    # The coach named two gestures and left the player to find and tap them on the pads.
    page = phone
    open_game(page, server_url)
    start_against_computer(page, coach=True)
    wait_preview(page)
    assert picked(page) == {}
    page.tap("[data-testid=coach-ask]")
    page.wait_for_selector("[data-testid=coach-why]", timeout=ENGINE_MS)
    said = page.inner_text("[data-testid=coach-gestures]")  # "Left: W (wave), Right: W (wave)"
    page.tap("[data-testid=coach-use]")
    wait_preview(page)
    hands = picked(page)
    assert set(hands) == {"L", "R"}, hands
    for hand, word in (("L", "Left"), ("R", "Right")):
        slug = hands[hand]
        words = slug if slug in ("stab", "nothing") else f"{slug} ("
        assert f"{word}: {words}" in said, (said, hands)
    # The preview follows the new gestures: each hand has a line of what it builds.
    assert "Choose a gesture" not in page.inner_text("[data-testid=preview]")
    shot(page, "newplayer-coach-used", full_page=False)
    page.tap("[data-testid=submit-orders]")
    page.wait_for_selector("[data-testid=orders-screen][data-turn='1']", state="detached",
                           timeout=ENGINE_MS)


# Deep: what the page says is tests/js/newplayer-words.test.mjs's (docs/test-tiers.md).
@pytest.mark.deep
def test_a_code_link_for_a_duel_kept_elsewhere_says_so_in_view(browser: Any, server_url: str,
                                                                 shot: Shot) -> None:
    # Alice and Bob in browsers of their own (kept contexts: remote_play.two_players); Bob's
    # code opened in a third, a phone's, that never saw the invitation.
    with remote_play.two_players(browser, server_url) as players, \
            phone_page(browser, PHONE) as elsewhere:
        host, guest = players[0], players[1]
        host.check("[data-testid=mode-codes]")
        host.fill("[data-testid=name-0]", "Alice")
        host.click("[data-testid=start-game]")
        host.wait_for_selector("[data-testid=remote-code]", timeout=ENGINE_MS)
        guest.goto(host.inner_text("[data-testid=remote-code-link]").strip())
        guest.fill("[data-testid=accept-name]", "Bob")
        guest.click("[data-testid=accept-submit]")
        guest.wait_for_selector("[data-testid=orders-screen]", timeout=ENGINE_MS)
        guest.click("[data-testid=gesture-0-L-F]")
        guest.click("[data-testid=gesture-0-R-nothing]")
        wait_preview(guest)
        guest.click("[data-testid=submit-orders]")
        guest.wait_for_selector("[data-testid=remote-code-link]", timeout=ENGINE_MS)
        link = guest.inner_text("[data-testid=remote-code-link]").strip()
        # Bob's own code opened in a browser that never saw the invitation.
        open_game(elsewhere, server_url)
        elsewhere.goto(link)
        error = elsewhere.wait_for_selector("[data-testid=join-error]:visible", timeout=ENGINE_MS)
        assert "not saved in this browser" in error.inner_text()
        assert "chat app" in error.inner_text()
        elsewhere.wait_for_function(
            "() => { const r = document.querySelector('[data-testid=join-error]')"
            ".getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; }",
            timeout=ENGINE_MS)
        shot(elsewhere, "newplayer-code-elsewhere", full_page=False)


def test_a_duel_left_for_the_start_screen_is_offered_at_its_top(phone: Any, server_url: str,
                                                                  shot: Shot) -> None:
    page = phone
    open_game(page, server_url)
    start_hotseat(page, tap=True)
    page.tap("[data-testid=pass-ready]")
    page.wait_for_selector("[data-testid=orders-screen][data-wizard='0']", timeout=ENGINE_MS)
    seal(page, 0, "F", "W")
    page.wait_for_selector("[data-testid=pass-screen]", timeout=ENGINE_MS)
    # Alice has sealed; the friends stop for now and come back later.
    page.get_by_text("Back to the start screen").tap()
    page.wait_for_selector("[data-testid=start-screen]")
    page.reload()
    page.wait_for_function("window.__appReady === true", timeout=ENGINE_MS)
    resume = page.locator("[data-testid^=continue-]")
    assert resume.count() == 1
    assert "Alice vs Bob" in resume.inner_text() and "turn 1" in resume.inner_text()
    assert page.evaluate("window.scrollY") == 0
    assert in_view(page, "[data-testid^=continue-]"), "the duel in progress is out of sight"
    shot(page, "newplayer-in-progress", full_page=False)
    resume.tap()
    # Bob's turn to write, Alice's orders kept.
    page.wait_for_selector("[data-testid=pass-screen]", timeout=ENGINE_MS)
    assert "Bob" in page.inner_text("#pass-title")


# Deep: e2e/test_learn_help.py's test_help_teaches_each_topic[phone] asks the same
# (docs/test-tiers.md).
@pytest.mark.deep
def test_help_starts_with_how_to_play(phone: Any, server_url: str, shot: Shot) -> None:
    page = phone
    open_game(page, server_url)
    page.get_by_test_id("open-help").tap()
    page.locator("dialog[data-testid=help]").wait_for()
    help_starts_with_how_to_play(page)
    shot(page, "newplayer-help", full_page=False)


# Deep: what the page says is tests/js/newplayer-words.test.mjs's (docs/test-tiers.md).
@pytest.mark.deep
def test_an_answer_that_makes_no_code_says_where_it_goes(browser: Any, server_url: str) -> None:
    # remote_play's script: Bob's paralysis asks him which of Alice's hands, after turn 3; his
    # answer travels with his orders for turn 4.
    notes: list[str] = []

    def after(w: int, need: str) -> None:
        if need == "decision":
            page = players[w]
            note = page.locator("[data-testid=remote-note]")
            notes.append(note.inner_text() if note.count() else "(no note)")

    with remote_play.two_players(browser, server_url) as players:
        remote_play.invite(players[0], players[1], "codes")

        def carry(w: int) -> None:
            remote_play.deliver(players[1 - w], remote_play.code_to_send(players[w]))

        remote_play.play(players, carry, {0: 1, 1: 0}, until=lambda: bool(notes), on_step=after)
    note = notes[0]
    assert "Noted: it goes with your next code" not in note
    assert note.startswith("Your answer is noted."), note
    assert "no code to send yet" in note and "Alice" in note, note
    assert "your orders for the next turn" in note, note


def import_text(page: Any, text: str) -> None:
    """Open "Import a record…" on the start screen, paste `text` and press Load."""
    page.tap("[data-testid=import-record]")
    page.fill("[data-testid=import-text]", text)
    page.tap("[data-testid=import-submit]")


def test_a_code_or_replay_link_pasted_as_a_record_is_understood(phone: Any,
                                                                server_url: str) -> None:
    page = phone
    open_game(page, server_url)
    # An invitation of one's own makes a real code to paste.
    start_by_codes(page, tap=True)
    code = page.inner_text("[data-testid=remote-code]").strip()
    page.tap("[data-testid=leave-duel]")
    import_text(page, code)
    error = page.wait_for_selector("[data-testid=import-error]:visible", timeout=ENGINE_MS)
    assert "not valid JSON" not in error.inner_text()
    assert "code from a friend" in error.inner_text(), error.inner_text()
    assert "Got a code or a link from a friend?" in error.inner_text()
    page.keyboard.press("Escape")
    # A finished duel's replay link, pasted there too, opens the replay.
    page.check("[data-testid=mode-computer]")
    page.tap("[data-testid=start-game]")
    page.wait_for_selector("[data-testid=orders-screen]", timeout=ENGINE_MS)
    surrender(page)
    page.tap("[data-testid=replay-open]")
    page.tap("[data-testid=replay-copy-link]")
    link = page.input_value("[data-testid=replay-link]")
    page.tap("[data-testid=leave-duel]")
    import_text(page, link)
    page.wait_for_selector("[data-testid=replay-screen]", timeout=ENGINE_MS)
    page.wait_for_selector("dialog[data-testid=import]", state="detached", timeout=ENGINE_MS)


# Deep: e2e/test_newcomer.py's
# test_8_on_a_phone_no_text_is_under_12_px_and_the_replay_buttons_keep_one_line asks the same of
# a replay on a phone (docs/test-tiers.md).
@pytest.mark.deep
def test_a_replay_on_a_phone_shows_one_view_and_both_a_tap_away(phone: Any,
                                                                 server_url: str) -> None:
    page = phone
    open_game(page, server_url)
    start_against_computer(page)
    seal(page, 0, "S", "D")
    page.wait_for_selector("[data-testid=orders-screen][data-turn='2']", timeout=ENGINE_MS)
    surrender(page)
    page.tap("[data-testid=replay-open]")
    page.wait_for_selector("[data-testid=replay-screen]", timeout=ENGINE_MS)
    # Alice's own view (the person's), alone.
    replay_shows_one_view_and_both_a_press_away(page, tap=True)


# Deep: what the page says is tests/js/newplayer-words.test.mjs's (docs/test-tiers.md).
@pytest.mark.deep
def test_live_the_status_never_asks_to_paste_what_comes_by_itself(
        launch_chromium: Any, server_url: str, shot: Shot) -> None:
    browser = launch_chromium(WEBRTC_ARGS)
    contexts = [browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
                for _ in range(2)]
    try:
        players = {}
        for w, ctx in enumerate(contexts):
            players[w] = ctx.new_page()
            open_game(players[w], server_url)
        host, guest = players[0], players[1]
        remote_play.connect(players, by_link=True)
        remote_play.act(host)  # turn 1 resolves; Bob writes turn 2 while Alice commits first
        guest.wait_for_selector("[data-testid=orders-screen][data-turn='2']", timeout=ENGINE_MS)
        said = guest.inner_text("[data-testid=remote-status]")
        assert "Paste" not in said, said
        assert "write your orders now" in said and "by themselves" in said, said
        shot(guest, "newplayer-live-ahead", full_page=False)
        remote_play.write_orders(guest)
        guest.wait_for_selector("[data-testid=remote-screen][data-queued=true]", timeout=ENGINE_MS)
        said = guest.inner_text("[data-testid=remote-status]")
        assert "Paste" not in said and "comes by itself" in said, said
    finally:
        for ctx in contexts:
            ctx.close()


# Bob's F-F-F paralyses one of Alice's hands after turn 3: he is asked which (a decision).
PARALYSIS_SCRIPT = {0: ["DF", "FS", "FS"], 1: ["F-", "F-", "F-"]}


# Deep: e2e/test_newcomer.py's test_8_every_learning_screen_and_the_decision_box_on_a_phone
# presses Decide with no answer too (docs/test-tiers.md).
@pytest.mark.deep
def test_deciding_with_no_answer_says_to_choose_one(phone: Any, server_url: str) -> None:
    page = phone
    open_game(page, server_url)
    # Turns 1 and 2 imported as a hot-seat duel's record; turn 3 written here.
    page.tap("[data-testid=import-record]")
    page.fill("[data-testid=import-text]", record_text(
        [(PARALYSIS_SCRIPT[0][t], PARALYSIS_SCRIPT[1][t]) for t in range(2)]))
    page.select_option("[data-testid=import-mode]", "hotseat")
    page.tap("[data-testid=import-submit]")
    slug = {"-": "nothing"}

    def write(page: Any, wizard: int, turn: int) -> None:
        row = PARALYSIS_SCRIPT[wizard][turn - 1]
        left, right = row[0], row[1]
        page.tap(f"[data-testid=gesture-0-L-{slug.get(left, left)}]")
        page.tap(f"[data-testid=gesture-0-R-{slug.get(right, right)}]")
        wait_preview(page)
        page.tap("[data-testid=submit-orders]")

    assert play_duel(page, write, stop_at=("decision-screen",), screens=12, tap=True) == \
        "decision-screen", "no decision was asked"
    deciding_with_no_answer_says_to_choose_one(page, tap=True)
