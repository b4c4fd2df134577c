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

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "docs" / "examples" / "example-duel.json"
ENGINE_MS = 90_000
DESKTOP = {"width": 1280, "height": 800}

# How much of a control the start screen's "Begin the duel" bar covers, in pixels of height.
COVERED_JS = """(testid) => {
  const r = document.querySelector(`[data-testid=${testid}]`).getBoundingClientRect();
  const bar = document.querySelector('[data-testid=start-actions]').getBoundingClientRect();
  return Math.max(0, Math.min(r.bottom, bar.bottom, innerHeight) - Math.max(r.top, bar.top, 0));
}"""


def open_start(page: Any, server_url: str) -> None:
    page.goto(server_url)
    page.wait_for_selector("[data-testid=start-screen]", timeout=ENGINE_MS)
    page.wait_for_function("window.__appReady === true", timeout=ENGINE_MS)


def test_2_the_begin_bar_never_covers_the_paste_box(browser: Any, server_url: str,
                                                    shot: Shot) -> None:
    # 1280x800: scrolling down the start screen a wheel notch at a time, the sticky "Begin the
    # duel" bar sat over the paste box and its Open button.
    with phone_page(browser, DESKTOP) as page:
        open_start(page, server_url)
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


def test_4_the_import_dialog_says_what_an_import_does(page: Any, server_url: str) -> None:
    # It said a finished duel "opens on its result", and the replay opened at its first step.
    open_start(page, server_url)
    page.click("[data-testid=import-record]")
    said = page.inner_text("[data-testid=import]")
    assert "opens on its result" not in said
    assert "a finished duel opens in its replay, at the start" in said, said
    page.set_input_files("[data-testid=import-file]", str(EXAMPLE))
    page.wait_for_function("!document.querySelector('[data-testid=import-submit]').disabled")
    page.click("[data-testid=import-submit]")
    replay = page.wait_for_selector("[data-testid=replay-screen]", timeout=ENGINE_MS)
    assert replay.get_attribute("data-step") == "0"


def test_5_the_storage_note_is_in_plain_words(page: Any, server_url: str) -> None:
    # It read "a KB here is 1,024 characters ... 27.8 MB, of up to 10,268 MB the browser allows".
    open_start(page, server_url)
    page.click("[data-testid=import-record]")
    page.set_input_files("[data-testid=import-file]", str(EXAMPLE))
    page.wait_for_function("!document.querySelector('[data-testid=import-submit]').disabled")
    page.click("[data-testid=import-submit]")
    page.wait_for_selector("[data-testid=replay-screen]", timeout=ENGINE_MS)
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
        open_start(page, server_url)
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


def test_6_arrow_down_on_the_gesture_pad_moves_down(page: Any, server_url: str) -> None:
    # The 4x2 pad: Arrow-Down on F moved right (to P), as a radio group's arrows do.
    open_start(page, server_url)
    page.check("[data-testid=mode-computer]")
    page.click("[data-testid=start-game]")
    page.wait_for_selector("[data-testid=orders-screen]", timeout=ENGINE_MS)
    page.check("[data-testid=gesture-0-L-F]")
    page.focus("[data-testid=gesture-0-L-F]")
    page.keyboard.press("ArrowDown")
    assert page.is_checked("[data-testid=gesture-0-L-D]")
    assert page.evaluate("document.activeElement.dataset.testid") == "gesture-0-L-D"
    page.keyboard.press("ArrowUp")
    assert page.is_checked("[data-testid=gesture-0-L-F]")
    page.keyboard.press("ArrowRight")  # along the row, as before
    assert page.is_checked("[data-testid=gesture-0-L-P]")
