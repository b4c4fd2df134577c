"""What tripped the newcomer (issue 28, "What tripped the newcomer"), each as a player meets it.
Every test here failed on the page before its fix.

Fixtures `server_url`, `browser`, `page` and `shot` come from e2e/conftest.py.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")

from conftest import Shot, phone_page
from duel_play import (
    ENGINE_MS,
    deciding_with_no_answer_says_to_choose_one,
    import_record,
    open_game,
    orders_of,
    play_duel,
    record_text,
    replay_shows_one_view_and_both_a_press_away,
    sized_page,
    start_hotseat,
    wait_left,
    wait_preview,
)

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "docs" / "examples" / "example-duel.json"
DESKTOP = {"width": 1280, "height": 800}

# How much of a control the start screen's "Begin the duel" bar covers, in pixels of height.
COVERED_JS = """(testid) => {
  const r = document.querySelector(`[data-testid=${testid}]`).getBoundingClientRect();
  const bar = document.querySelector('[data-testid=start-actions]').getBoundingClientRect();
  return Math.max(0, Math.min(r.bottom, bar.bottom, innerHeight) - Math.max(r.top, bar.top, 0));
}"""


def import_the_example(page: Any) -> None:
    """From the start screen, import docs/examples/example-duel.json, a finished duel, checking
    what the import dialog says it does and that the replay opens at its first step."""
    page.click("[data-testid=import-record]")
    said = page.inner_text("[data-testid=import]")
    assert "opens on its result" not in said
    assert "a finished duel opens in its replay, at the start" in said, said
    page.set_input_files("[data-testid=import-file]", str(EXAMPLE))
    page.wait_for_function("!document.querySelector('[data-testid=import-submit]').disabled")
    page.click("[data-testid=import-submit]")
    replay = page.wait_for_selector("[data-testid=replay-screen]", timeout=ENGINE_MS)
    assert replay.get_attribute("data-step") == "0"


def test_2_the_begin_bar_never_covers_the_paste_box(browser: Any, server_url: str,
                                                    shot: Shot) -> None:
    # 1280x800: scrolling down the start screen a wheel notch at a time, the sticky "Begin the
    # duel" bar sat over the paste box and its Open button.
    with sized_page(browser, "desktop") as page:  # (1280x800)
        open_game(page, server_url)
        page.mouse.move(400, 400)
        covered = []
        for _ in range(20):
            covered += [(page.evaluate("scrollY"), testid, page.evaluate(COVERED_JS, testid))
                        for testid in ("join-text", "join-text-apply")]
            page.mouse.wheel(0, 100)
            page.wait_for_function("y => scrollY !== y || scrollY + innerHeight >= "
                                   "document.documentElement.scrollHeight - 1",
                                   arg=covered[-1][0])
        assert [c for c in covered if c[2] > 0] == []
        page.evaluate("document.querySelector('[data-testid=join-box]').scrollIntoView()")
        shot(page, "newcomer-paste-box-desktop", full_page=False)


# Deep: test_5_the_storage_note_is_in_plain_words imports the same way and asks the same
# (docs/test-tiers.md).
@pytest.mark.deep
def test_4_the_import_dialog_says_what_an_import_does(page: Any, server_url: str) -> None:
    # It said a finished duel "opens on its result", and the replay opened at its first step.
    open_game(page, server_url)
    import_the_example(page)


def test_5_the_storage_note_is_in_plain_words(page: Any, server_url: str) -> None:
    # It read "a KB here is 1,024 characters ... 27.8 MB, of up to 10,268 MB the browser allows".
    open_game(page, server_url)
    # What the dialog says an import does, and does (test_4_..., deep, asks the same).
    import_the_example(page)
    page.click("[data-testid=leave-duel]")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=storage-quota]')?.textContent.includes('MB')",
        timeout=ENGINE_MS)
    note = page.inner_text("[data-testid=storage-use]")
    for jargon in ("1,024", "characters", "of up to", "quota", "10,"):
        assert jargon not in note, note
    assert note.startswith("Saved duels take ") and "about 5 MB" in note, note
    assert "works offline" in note, note


# Every piece of text in sight smaller than 12 px: [font size, its text], at most 10.
SMALL_TEXT_JS = """() => {
  const small = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent.trim();
    const el = node.parentElement;
    if (!text || !el || el.closest('.visually-hidden, [hidden], [aria-hidden=true] svg')) continue;
    const style = getComputedStyle(el);
    const box = el.getBoundingClientRect();
    if (style.visibility === 'hidden' || !box.width || !box.height) continue;
    const size = parseFloat(style.fontSize);
    if (size < 12) small.push([size, text.slice(0, 40)]);
  }
  return small.slice(0, 10);
}"""


def test_8_on_a_phone_no_text_is_under_12_px_and_the_replay_buttons_keep_one_line(
        browser: Any, server_url: str, shot: Shot) -> None:
    # Gesture labels were 9.9 px and history notes 11.8 px; the replay's "▶|" wrapped alone.
    with phone_page(browser, {"width": 390, "height": 844}) as page:
        open_game(page, server_url)
        assert page.evaluate(SMALL_TEXT_JS) == []
        page.click("[data-testid=import-record]")
        page.set_input_files("[data-testid=import-file]", str(EXAMPLE))
        page.wait_for_function("!document.querySelector('[data-testid=import-submit]').disabled")
        page.click("[data-testid=import-submit]")
        page.wait_for_selector("[data-testid=replay-screen]", timeout=ENGINE_MS)
        page.click("[data-testid=replay-last]")
        page.wait_for_selector("[data-testid=replay-result]", timeout=ENGINE_MS)
        assert page.evaluate(SMALL_TEXT_JS) == []
        tops = page.evaluate("""() => ['first', 'prev', 'next', 'last'].map((step) => Math.round(
            document.querySelector(`[data-testid=replay-${step}]`).getBoundingClientRect().top))""")
        assert len(tops) == 4 and len(set(tops)) == 1, tops
        text = page.inner_text("[data-testid=replay-last]")
        assert "\n" not in text.strip(), text
        shot(page, "newcomer-replay-phone", full_page=False)
        # One view on a phone, the player's own, and both a tap away (e2e/test_newplayer.py's
        # test_a_replay_on_a_phone_shows_one_view_and_both_a_tap_away, deep, asks it of a duel's).
        page.click("[data-testid=replay-first]")
        page.wait_for_selector("[data-testid=replay-screen][data-step='0']", timeout=ENGINE_MS)
        replay_shows_one_view_and_both_a_press_away(page)
        # A duel's orders screen, with history notes ("↳ Shield") and the gesture pads.
        page.click("[data-testid=leave-duel]")
        page.check("[data-testid=mode-computer]")
        page.click("[data-testid=start-game]")
        page.wait_for_selector("[data-testid=orders-screen]", timeout=ENGINE_MS)
        page.check("[data-testid=gesture-0-L-P]")
        page.check("[data-testid=gesture-0-R-nothing]")
        page.wait_for_selector("[data-testid=preview][aria-busy=false]", timeout=ENGINE_MS)
        page.click("[data-testid=submit-orders]")
        page.wait_for_selector("[data-testid=orders-screen][data-turn='2']", timeout=ENGINE_MS)
        assert page.locator("text=↳").count() >= 1
        assert page.evaluate(SMALL_TEXT_JS) == []
        shot(page, "newcomer-orders-phone")


def computer_duel(page: Any, server_url: str, level: str | None = None) -> None:
    """From the start screen, a duel against the computer (at `level`), on its first orders."""
    open_game(page, server_url)
    page.check("[data-testid=mode-computer]")
    if level:
        page.select_option("[data-testid=opponent-level]", level)
    page.click("[data-testid=start-game]")
    page.wait_for_selector("[data-testid=orders-screen]", timeout=ENGINE_MS)


def arrows_move_on_the_pad(page: Any) -> None:
    """On the left hand's 4x2 pad, F checked: Arrow-Down moves down (to D), Arrow-Up back, and
    Arrow-Right along the row (to P), the focus following."""
    page.check("[data-testid=gesture-0-L-F]")
    page.focus("[data-testid=gesture-0-L-F]")
    page.keyboard.press("ArrowDown")
    assert page.is_checked("[data-testid=gesture-0-L-D]")
    assert page.evaluate("document.activeElement.dataset.testid") == "gesture-0-L-D"
    page.keyboard.press("ArrowUp")
    assert page.is_checked("[data-testid=gesture-0-L-F]")
    page.keyboard.press("ArrowRight")  # along the row, as before
    assert page.is_checked("[data-testid=gesture-0-L-P]")


# Deep: test_6_enter_on_a_target_list_moves_on presses the same keys first (docs/test-tiers.md).
@pytest.mark.deep
def test_6_arrow_down_on_the_gesture_pad_moves_down(page: Any, server_url: str) -> None:
    # The 4x2 pad: Arrow-Down on F moved right (to P), as a radio group's arrows do.
    computer_duel(page, server_url)
    arrows_move_on_the_pad(page)


def hotseat_orders(page: Any, left: str, right: str) -> tuple[int, int]:
    """On the orders screen in sight: pick both hands, preview, seal; (wizard, turn)."""
    page.wait_for_selector("[data-testid=orders-screen]", timeout=ENGINE_MS)
    wizard, turn = orders_of(page)
    page.check(f"[data-testid=gesture-0-L-{left}]")
    page.check(f"[data-testid=gesture-0-R-{right}]")
    wait_preview(page)
    page.click("[data-testid=submit-orders]")
    wait_left(page, wizard, turn)
    return wizard, turn


def play_hotseat(page: Any, server_url: str, gestures: dict[int, str], orders: int,
                 record: str | None = None) -> str:
    """A hot-seat duel of Alice and Bob from the start screen (or `record`, a record of its first
    turns, imported as one): passes the device when asked and seals `orders` orders
    (gestures[wizard]: the left hand's, the right does nothing); returns the screen it stopped
    on (a decision stops it early)."""
    open_game(page, server_url)
    if record is None:
        start_hotseat(page)
    else:
        import_record(page, record)
    sealed = 0

    def write(page: Any, wizard: int, turn: int) -> bool:
        nonlocal sealed
        if sealed == orders:
            return True
        hotseat_orders(page, gestures[wizard], "nothing")
        sealed += 1
        return False

    return play_duel(page, write, stop_at=("decision-screen", "game-over"))


def test_1_a_reload_while_bob_writes_comes_back_to_bob(page: Any, server_url: str,
                                                       shot: Shot) -> None:
    # Hot-seat, turn 6: Bob writes first (the device stays with whoever wrote last); a reload
    # showed "Pass the device to Alice", and then her form.
    # Turns 1 to 4 imported (the device goes to Alice first), turn 5 written: Bob wrote last.
    play_hotseat(page, server_url, {0: "nothing", 1: "nothing"}, 2, record_text([("--", "--")] * 4))
    bob = page.wait_for_selector("[data-testid=orders-screen][data-turn='6']", timeout=ENGINE_MS)
    assert bob.get_attribute("data-wizard") == "1"
    page.check("[data-testid=gesture-0-L-S]")
    page.check("[data-testid=gesture-0-R-W]")
    page.wait_for_selector("[data-testid=preview][aria-busy=false]", timeout=ENGINE_MS)
    page.reload()
    page.wait_for_function("window.__appReady === true", timeout=ENGINE_MS)
    back = page.wait_for_selector("[data-testid=pass-screen], [data-testid=orders-screen]",
                                  timeout=ENGINE_MS)
    said = back.inner_text()
    assert back.get_attribute("data-testid") == "orders-screen", said
    assert (back.get_attribute("data-wizard"), back.get_attribute("data-turn")) == ("1", "6")
    assert page.is_checked("[data-testid=gesture-0-L-S]")
    assert page.is_checked("[data-testid=gesture-0-R-W]")
    assert "Alice" not in page.inner_text("h2"), page.inner_text("h2")
    shot(page, "newcomer-hotseat-reload", full_page=False)
    # Bob seals; only now is the device passed to Alice, for her turn 6.
    hotseat_orders(page, "S", "W")
    page.wait_for_selector("[data-testid=pass-screen]", timeout=ENGINE_MS)
    assert "Alice" in page.inner_text("#pass-title")


def test_6_enter_on_a_target_list_moves_on(page: Any, server_url: str) -> None:
    # Enter on a focused list (whom a stab goes at) opened the list instead of moving on.
    computer_duel(page, server_url, "novice")
    # The computer's level is shown (test_7_the_computers_level_is_shown_in_the_duel, deep).
    said = page.inner_text("[data-testid=computer-level]")
    assert "novice" in said.lower() and "computer" in said, said
    # Arrow-Down on the 4x2 pad moves down (test_6_arrow_down_on_the_gesture_pad_moves_down, deep).
    arrows_move_on_the_pad(page)
    page.check("[data-testid=gesture-0-L-stab]")
    page.check("[data-testid=gesture-0-R-P]")
    page.wait_for_selector("[data-testid=preview][aria-busy=false]", timeout=ENGINE_MS)
    target = page.locator("[data-testid=stab-target-0]")
    chosen = target.input_value()
    target.focus()
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.dataset.testid") == "submit-orders"
    assert target.input_value() == chosen
    assert page.locator("[data-testid=orders-screen][data-turn='1']").count() == 1
    page.keyboard.press("Enter")  # on the seal button, Enter seals
    page.wait_for_selector("[data-testid=orders-screen][data-turn='2']", timeout=ENGINE_MS)


# Deep: test_6_enter_on_a_target_list_moves_on reads the same line (docs/test-tiers.md).
@pytest.mark.deep
def test_7_the_computers_level_is_shown_in_the_duel(page: Any, server_url: str) -> None:
    # Nothing on the orders screen said how strong the computer was.
    computer_duel(page, server_url, "novice")
    said = page.inner_text("[data-testid=computer-level]")
    assert "novice" in said.lower() and "computer" in said, said


# Deep: the offline mark is seen by default in the phone walk of
# test_8_every_learning_screen_and_the_decision_box_on_a_phone, and the page opening with the
# network cut in e2e/test_boot.py (docs/test-tiers.md); this one takes a first visit.
@pytest.mark.deep
def test_7_the_page_says_once_it_works_offline(browser: Any, server_url: str,
                                               shot: Shot) -> None:
    # No sign said the page works with no connection; it says so once the service worker
    # holds everything, and the page then opens with the network cut.
    context = browser.new_context(viewport=DESKTOP)
    try:
        page = context.new_page()
        open_game(page, server_url)
        page.wait_for_selector("[data-testid=offline-ready]", state="visible", timeout=ENGINE_MS)
        assert "offline" in page.inner_text("[data-testid=offline-ready]").lower()
        shot(page, "newcomer-offline-sign", full_page=False)
        context.set_offline(True)
        page.reload()
        open_game(page, server_url)
        page.wait_for_selector("[data-testid=offline-ready]", state="visible", timeout=ENGINE_MS)
    finally:
        context.close()


# Every fieldset's legend on screen that straddles the fieldset's top border (the border is drawn
# through a legend that sits on it; one that wraps onto two lines is cut by it): their texts.
STRADDLING_JS = """() => [...document.querySelectorAll('fieldset > legend')].filter((legend) => {
  const box = legend.getBoundingClientRect();
  const set = legend.parentElement;
  if (!box.width || legend.closest('[hidden]')) return false;
  const border = parseFloat(getComputedStyle(set).borderTopWidth);
  return border > 0 && box.top < set.getBoundingClientRect().top + border
    && box.height > 1.5 * parseFloat(getComputedStyle(legend).lineHeight || '16');
}).map((legend) => legend.textContent.slice(0, 60))"""


def test_8_every_learning_screen_and_the_decision_box_on_a_phone(
        browser: Any, server_url: str, shot: Shot) -> None:
    # Help, the lessons, the puzzles and a duel's decision at 390x844: no text under 12 px, and
    # no legend of a question (the decision's, the puzzle's list of spells) broken across its
    # box's border; the offline mark (its tick alone on a phone) keeps the masthead on one row.
    with phone_page(browser, {"width": 390, "height": 844}) as page:
        open_game(page, server_url)
        page.wait_for_selector("[data-testid=offline-ready]", state="visible", timeout=ENGINE_MS)
        tops = page.evaluate("""() => ['home-link', 'open-reference', 'open-help']
            .map((id) => document.querySelector(`[data-testid=${id}]`)
              .getBoundingClientRect().top)""")
        assert max(tops) - min(tops) < 20, tops
        page.click("[data-testid=open-help]")
        page.wait_for_selector("[data-testid=help]")
        for topic in ("help-gestures", "help-notation", "help-shields", "help-turn"):
            page.locator(f"[data-testid={topic}] summary").click()
        assert page.evaluate(SMALL_TEXT_JS) == []
        page.click("[data-testid=help-close]")
        page.click("[data-testid=open-lessons]")
        page.wait_for_selector("[data-testid=lesson-pads]", timeout=ENGINE_MS)
        assert page.evaluate(SMALL_TEXT_JS) == []
        page.click("[data-testid=lessons-back]")
        page.wait_for_selector("[data-testid=lesson-list]")
        assert page.evaluate(SMALL_TEXT_JS) == []
        page.click("[data-testid=home-link]")  # (back to the start screen, no reload)
        page.wait_for_selector("[data-testid=start-screen]", timeout=ENGINE_MS)
        page.click("[data-testid=open-puzzles]")
        page.wait_for_selector("[data-testid=puzzle-today]", timeout=ENGINE_MS)
        assert page.evaluate(SMALL_TEXT_JS) == []
        page.click("[data-testid=puzzle-std-foresee-1]")
        page.wait_for_selector("[data-testid=puzzle-spells]")
        assert page.evaluate(SMALL_TEXT_JS) == [] and page.evaluate(STRADDLING_JS) == []
        # Hot-seat: Alice's paralysis (F-F-F, left hand) asks her which of Bob's hands it holds,
        # on the decision screen.
        first_two = record_text([("F-", "--")] * 2)  # turns 1 and 2 imported, turn 3 written
        assert play_hotseat(page, server_url, {0: "F", 1: "nothing"}, 12, first_two) == \
            "decision-screen"
        page.wait_for_selector("[data-testid=decision-screen][data-wizard='0']")
        assert "which hand" in page.inner_text("[data-testid=decision-screen] legend")
        assert page.evaluate(SMALL_TEXT_JS) == []
        assert page.evaluate(STRADDLING_JS) == []
        page.locator("[data-testid=decision-screen] fieldset").first.scroll_into_view_if_needed()
        shot(page, "newcomer-decision-phone", full_page=False)
        # Decide with no answer chosen says to choose one (e2e/test_newplayer.py's
        # test_deciding_with_no_answer_says_to_choose_one, deep, asks it of Bob's).
        deciding_with_no_answer_says_to_choose_one(page)
