"""Player-facing stumbles on phones (390x844 and 360x740, touch), each fixed and kept fixed.

Found by the lead and last session's new-player runs:
- in a remote duel the panel above the orders (status, code boxes, the live connection with its
  chat) was ~350 px tall: the right hand's pad stood under the sticky seal bar, so a player had
  to scroll to reach it and could seal without seeing it;
- the start screen's "Begin the duel" stood ~1,300 px down, under every option;
- text that is no record at all (a sentence, a link to another site) pasted into "Import a
  record…" got "The record is not valid JSON (Expecting value: line 1 column 1 (char 0))";
- a duel screen's "Saved duels" button showed the start screen's top, two screens above the list.

Viewport screenshots go to test-output/phone-screens-*.png. Fixtures `server_url`, `browser`,
`shot` come from e2e/conftest.py; remote duels are driven with e2e/remote_play.py.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")

from conftest import Shot, phone_page
from duel_play import start_by_codes, start_hotseat
from playwright.sync_api import ViewportSize
from remote_play import (
    CONNECT_MS,
    STEP_MS,
    act,
    code_to_send,
    connect,
    deliver,
    invite,
    live_browser,
    needs_route,
    paste,
    two_players,
)

__all__ = ["live_browser"]  # remote_play's fixture

ENGINE_MS = 90_000
PHONES: dict[str, ViewportSize] = {
    "390x844": {"width": 390, "height": 844}, "360x740": {"width": 360, "height": 740}}

# The kept phone context every phone size here borrows, resized to the size a test asks for (one
# context of each size would boot the engine from the Python library once per size).
KEPT_PHONE = PHONES["360x740"]
# By default each phone test runs at the smaller phone, where anything that fits at all fits
# least; the larger one is the deep tier's (docs/test-tiers.md).
PHONE_SIZES = [pytest.param("390x844", marks=pytest.mark.deep), "360x740"]

# The element's box in viewport coordinates.
BOX_JS = """(el) => { const r = el.getBoundingClientRect();
  return {top: r.top, bottom: r.bottom, left: r.left, right: r.right}; }"""


@pytest.fixture(params=PHONE_SIZES)
def phone(request: pytest.FixtureRequest, browser: Any) -> Iterator[Any]:
    """A page in a kept phone-sized touch context, at each size in turn; fails on a page
    error."""
    with phone_page(browser, KEPT_PHONE) as page:
        page.set_viewport_size(PHONES[request.param])
        yield page


def open_site(page: Any, server_url: str) -> None:
    """Load the page, wait until the engine answers and the rules box is filled in."""
    page.goto(server_url)
    page.wait_for_function("window.__appReady === true", timeout=ENGINE_MS, polling=100)
    page.wait_for_selector("[data-testid=rule-options]:visible", timeout=ENGINE_MS)


def box(page: Any, selector: str) -> dict[str, float]:
    """The first matching element's box in viewport coordinates."""
    found: dict[str, float] = page.eval_on_selector(selector, BOX_JS)
    return found


def uncovered(page: Any, selector: str) -> bool:
    """Whether a tap at the element's centre reaches it (nothing drawn over it)."""
    hit: bool = page.eval_on_selector(selector, """(el) => {
      const r = el.getBoundingClientRect();
      const top = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
      return Boolean(top) && (top === el || el.contains(top)); }""")
    return hit


def size_of(page: Any) -> str:
    """The viewport as "WxH", for screenshot names."""
    v = page.viewport_size
    return f"{v['width']}x{v['height']}"


def assert_pads_above_the_seal_bar(page: Any, where: str) -> None:
    """Both hands' pads are in the first screen, wholly above the sticky seal bar."""
    page.wait_for_selector("[data-testid=orders-screen]", timeout=STEP_MS)
    page.evaluate("window.scrollTo(0, 0)")
    bar = box(page, "[data-testid=submit-bar]")
    for hand in ("L", "R"):
        pad = box(page, f"[data-testid=hand-0-{hand}]")
        assert pad["top"] >= 0 and pad["bottom"] <= bar["top"] + 1, (
            f"{where}: the {hand} pad {pad} is not above the seal bar {bar}")


# ---------- the start screen ----------


def test_begin_the_duel_is_on_the_first_screen(phone: Any, server_url: str, shot: Shot) -> None:
    page = phone
    open_site(page, server_url)
    assert page.evaluate("window.scrollY") == 0
    height = page.evaluate("window.innerHeight")
    begin = box(page, "[data-testid=start-game]")
    assert begin["top"] >= 0 and begin["bottom"] <= height, f"Begin the duel is at {begin}"
    assert uncovered(page, "[data-testid=start-game]")
    # The form it submits starts on the same screen: the names and the first mode are in sight.
    assert box(page, "[data-testid=name-0]")["bottom"] <= begin["top"]
    shot(page, f"phone-screens-start-{size_of(page)}", full_page=False)
    # It stays in reach further down the form too (the rules, the last options).
    page.locator("[data-testid=rule-options]").scroll_into_view_if_needed()
    begin = box(page, "[data-testid=start-game]")
    assert begin["top"] >= 0 and begin["bottom"] <= height, f"scrolled: Begin is at {begin}"
    assert uncovered(page, "[data-testid=start-game]")
    page.fill("[data-testid=name-0]", "Alice")
    page.fill("[data-testid=name-1]", "Bob")
    page.tap("[data-testid=start-game]")
    page.wait_for_selector("[data-testid=pass-screen]", timeout=ENGINE_MS)


def test_the_page_does_not_jump_once_the_engine_is_ready(phone: Any, server_url: str) -> None:
    """The masthead's status row ("Rules engine ready") was hidden 2.5 s after the engine came
    up: on a phone everything below moved up a row then, under a finger already on a button."""
    page = phone
    open_site(page, server_url)
    before = box(page, "[data-testid=name-0]")
    page.wait_for_function("document.getElementById('engine-status').hidden", timeout=10_000,
                           polling=100)
    after = box(page, "[data-testid=name-0]")
    assert after["top"] == before["top"], f"the page moved from {before} to {after}"


# ---------- the import box ----------


def import_error(page: Any, text: str) -> str:
    """Paste text into "Import a record…", submit, and return the error it shows."""
    if not page.locator("dialog[data-testid=import]").count():
        page.tap("[data-testid=import-record]")
    page.fill("[data-testid=import-text]", text)
    page.tap("[data-testid=import-submit]")
    error = page.wait_for_selector("[data-testid=import-error]:visible", timeout=ENGINE_MS)
    said: str = error.inner_text()
    return said


def test_the_import_box_says_what_it_takes(phone: Any, server_url: str, shot: Shot) -> None:
    page = phone
    open_site(page, server_url)
    said = import_error(page, "Here is our duel from yesterday, can you load it?")
    assert "JSON" not in said, said
    assert "This is not a duel record" in said and "“Here is our duel from yesterday" in said
    assert "“Export the record”" in said, "what the box takes"
    assert "Nothing was imported" in said
    shot(page, f"phone-screens-import-sentence-{size_of(page)}", full_page=False)
    said = import_error(page, "https://example.com/games/duel?id=42")
    assert "JSON" not in said, said
    assert "link to a web page (example.com)" in said and "“Export the record”" in said
    # A record cut short on its way (a phone's copy of part of it): not "Expecting ',' delimiter".
    said = import_error(page, '{"format": "wavinghands-record", "version": 1, "names": ["Al')
    assert "JSON" not in said and "delimiter" not in said, said
    assert "incomplete" in said and "paste it whole" in said
    # The dialog still holds what was pasted: nothing is lost.
    assert page.input_value("[data-testid=import-text]").startswith('{"format"')


def test_a_paste_that_is_no_code_says_what_the_box_takes(phone: Any, server_url: str,
                                                         shot: Shot) -> None:
    page = phone
    open_site(page, server_url)
    start_by_codes(page, tap=True)
    # The duel's own box, waiting for the friend's first code.
    paste(page, "Sure! Send me your move when you are ready")
    error = page.wait_for_selector("[data-testid=remote-error][data-code=not-a-code]",
                                   timeout=STEP_MS)
    said = error.inner_text()
    assert said.startswith("This is not a Waving Hands code"), said
    assert "damaged" not in said and "“Sure! Send me your move" in said
    assert "It reads “Sure!" in said
    assert "Paste the code your opponent sent you (it begins WH1.)" in said
    shot(page, f"phone-screens-paste-sentence-{size_of(page)}", full_page=False)
    paste(page, "https://example.com/chat/42")
    page.wait_for_function("""() => (document.querySelector('[data-testid=remote-error]')
      ?.textContent || '').includes('example.com')""", timeout=STEP_MS, polling=100)
    assert "a link to a web page (example.com)" in page.inner_text("[data-testid=remote-error]")
    # The start screen's box says the same of a link to another site.
    page.tap("[data-testid=leave-duel]")
    page.fill("[data-testid=join-text]", "https://example.com/chat/42")
    page.tap("[data-testid=join-text-apply]")
    error = page.wait_for_selector("[data-testid=join-error]:visible", timeout=STEP_MS)
    assert "a link to a web page (example.com)" in error.inner_text(), error.inner_text()


# ---------- "Saved duels" on a duel screen ----------


def test_saved_duels_on_a_duel_screen_shows_the_list(phone: Any, server_url: str,
                                                     shot: Shot) -> None:
    page = phone
    open_site(page, server_url)
    start_hotseat(page, tap=True)
    page.tap("[data-testid=pass-ready]", timeout=ENGINE_MS)
    page.wait_for_selector("[data-testid=orders-screen]", timeout=ENGINE_MS)
    assert page.inner_text("[data-testid=leave-duel]") == "Saved duels"
    page.tap("[data-testid=leave-duel]")
    page.wait_for_selector("[data-testid=start-screen]")
    # The list, not the top of the new-duel form: its heading and this duel are in sight.
    page.wait_for_function("""() => {
      const t = document.querySelector('#saved-title');
      const r = t && t.getBoundingClientRect();
      return Boolean(r) && r.top >= 0 && r.bottom <= window.innerHeight; }""", timeout=5_000,
                           polling=100)
    entry = page.locator("[data-testid=saved-games] li", has_text="Alice vs Bob")
    assert entry.count() == 1
    top = entry.evaluate(BOX_JS)
    assert top["top"] < page.evaluate("window.innerHeight"), f"the duel's entry is at {top}"
    assert page.evaluate("document.activeElement.id") == "saved-title"
    shot(page, f"phone-screens-saved-{size_of(page)}", full_page=False)


# ---------- a hot-seat turn under what happened ----------


def seal(page: Any, left: str, right: str) -> None:
    """Pick a gesture for each hand on the first pad set and seal them."""
    turn = page.get_attribute("[data-testid=orders-screen]", "data-turn")
    wizard = page.get_attribute("[data-testid=orders-screen]", "data-wizard")
    page.tap(f"[data-testid=gesture-0-L-{left}]")
    page.tap(f"[data-testid=gesture-0-R-{right}]")
    page.wait_for_selector("[data-testid=preview][aria-busy=false]", timeout=ENGINE_MS)
    page.tap("[data-testid=submit-orders]")
    page.wait_for_selector(
        f"[data-testid=orders-screen][data-turn='{turn}'][data-wizard='{wizard}']",
        state="detached", timeout=ENGINE_MS)


def test_under_what_happened_both_pads_are_above_the_seal_bar(phone: Any, server_url: str,
                                                              shot: Shot) -> None:
    """Turn 2 of a hot-seat duel opens with last turn's short account (open): the masthead, the
    heading and the account leave room for both pads above the seal bar, and the account does
    not repeat the turn its title names."""
    page = phone
    open_site(page, server_url)
    page.fill("[data-testid=name-0]", "Alice")
    page.fill("[data-testid=name-1]", "Bob")
    page.tap("[data-testid=start-game]")
    page.tap("[data-testid=pass-ready]", timeout=ENGINE_MS)
    page.wait_for_selector("[data-testid=orders-screen][data-wizard='0']", timeout=ENGINE_MS)
    seal(page, "S", "D")
    page.tap("[data-testid=pass-ready]", timeout=ENGINE_MS)
    page.wait_for_selector("[data-testid=orders-screen][data-wizard='1']", timeout=ENGINE_MS)
    seal(page, "P", "W")
    page.wait_for_selector("[data-testid=orders-screen][data-turn='2']", timeout=ENGINE_MS)
    outcome = page.wait_for_selector("[data-testid=outcome]", timeout=STEP_MS)
    assert "What happened in turn 1" in outcome.inner_text()
    lines = page.eval_on_selector_all("[data-testid=outcome] > ul > li",
                                      "(xs) => xs.map((x) => x.innerText)")
    assert len(lines) == 2 and all("turn" not in line for line in lines), lines
    assert_pads_above_the_seal_bar(page, "hot-seat, turn 2")
    account = box(page, "[data-testid=outcome]")
    assert account["bottom"] <= box(page, "[data-testid=hand-0-L]")["top"]
    shot(page, f"phone-screens-hotseat-t2-{size_of(page)}", full_page=False)


# ---------- remote duels: the panel above the orders ----------


@pytest.fixture(params=PHONE_SIZES)
def phones(request: pytest.FixtureRequest, browser: Any, server_url: str
           ) -> Iterator[dict[int, Any]]:
    """Two players (each in a context of its own) at a phone's size, on the start screen."""
    with two_players(browser, server_url) as pages:
        for page in pages.values():
            page.set_viewport_size(PHONES[request.param])
        yield pages


def test_by_codes_both_pads_are_above_the_seal_bar(phones: dict[int, Any], shot: Shot) -> None:
    host, guest = phones[0], phones[1]
    invite(host, guest, "codes")
    # The guest's first orders: the panel keeps the status on top, the boxes go under the orders.
    assert_pads_above_the_seal_bar(guest, "guest, turn 1")
    assert guest.is_visible("[data-testid=remote-status]")
    assert box(guest, "[data-testid=remote-status]")["bottom"] <= box(
        guest, "[data-testid=hand-0-L]")["top"]
    assert box(guest, "[data-testid=live-panel]")["top"] >= box(
        guest, "[data-testid=submit-orders]")["bottom"], "the live offer is under the orders"
    shot(guest, f"phone-screens-codes-guest-{size_of(guest)}", full_page=False)
    # The code the guest owes is shown first once sealed (waiting, with the next turn's draft).
    act(guest)
    guest.wait_for_selector("[data-testid=remote-code]", timeout=STEP_MS)
    code = box(guest, "[data-testid=remote-code]")
    assert code["top"] < guest.evaluate("window.innerHeight"), f"the code to send is at {code}"
    # The host pastes it: the note that it was applied, then both pads above the bar.
    deliver(host, code_to_send(guest))
    host.wait_for_selector("[data-testid=remote-note]", timeout=STEP_MS)
    assert_pads_above_the_seal_bar(host, "host, turn 1")
    note = box(host, "[data-testid=remote-note]")
    assert note["bottom"] <= box(host, "[data-testid=hand-0-L]")["top"]
    shot(host, f"phone-screens-codes-host-{size_of(host)}", full_page=False)


@needs_route
def test_live_both_pads_are_above_the_seal_bar(live_browser: Any, server_url: str,
                                               shot: Shot) -> None:
    with two_players(live_browser, server_url) as pages:
        host, guest = pages[0], pages[1]
        for page in pages.values():
            page.set_viewport_size(PHONES["360x740"])
        connect(pages)
        # The host writes turn 1 with the guest's orders sealed: the opponent's state is on top,
        # the connection itself (chat box, "End the live connection") under the orders.
        assert_pads_above_the_seal_bar(host, "host, turn 1, live")
        host.wait_for_selector("[data-testid=live-glance][data-peer=sealed]", timeout=CONNECT_MS)
        assert box(host, "[data-testid=live-glance]")["bottom"] <= box(
            host, "[data-testid=hand-0-L]")["top"]
        assert box(host, "[data-testid=live-panel]")["top"] >= box(
            host, "[data-testid=submit-orders]")["bottom"]
        shot(host, "phone-screens-live-host-360x740", full_page=False)
        # A chat line said meanwhile is read on top, and "Reply" brings the box.
        guest.wait_for_selector("[data-testid=chat-text]", timeout=STEP_MS)
        guest.fill("[data-testid=chat-text]", "Your move, wizard")
        guest.press("[data-testid=chat-text]", "Enter")
        host.wait_for_selector("[data-testid=live-glance] .chat-last", timeout=STEP_MS)
        assert "Your move, wizard" in host.inner_text("[data-testid=live-glance]")
        assert_pads_above_the_seal_bar(host, "host, turn 1, with a chat line")
        host.click("[data-testid=live-glance-chat]")
        assert host.evaluate("document.activeElement.dataset.testid") == "chat-text"
        chat = box(host, "[data-testid=chat-text]")
        assert chat["top"] >= 0 and chat["bottom"] <= host.evaluate("window.innerHeight")
        host.evaluate("window.scrollTo(0, 0)")
        act(host)
        guest.wait_for_selector("[data-testid=orders-screen][data-turn='2']", timeout=STEP_MS)
        guest.evaluate("window.scrollTo(0, 0)")
        shot(guest, "phone-screens-live-guest-t2-360x740", full_page=False)
        # Under what happened in turn 1 (open: it is short), the pads still start on screen.
        pad = box(guest, "[data-testid=hand-0-L]")
        assert pad["top"] < PHONES["360x740"]["height"] - 120, f"turn 2: the pads start at {pad}"
        # A desktop's 1280x800 (e2e/test_battle_layout.py): the scene and the status beside the
        # pads, which are above the seal bar; the last chat line is read on the first screen,
        # and its Reply brings the chat box, which follows the orders, into view.
        guest.set_viewport_size({"width": 1280, "height": 800})
        assert_pads_above_the_seal_bar(guest, "guest, turn 2, 1280x800")
        glance = box(guest, "[data-testid=live-glance]")
        assert glance["top"] >= 0 and glance["bottom"] <= 800, f"the live glance is at {glance}"
        assert "Your move, wizard" in guest.inner_text("[data-testid=live-glance]")
        shot(guest, "phone-screens-live-guest-t2-1280x800", full_page=False)
        guest.click("[data-testid=live-glance-chat]")
        assert guest.evaluate("document.activeElement.dataset.testid") == "chat-text"
        chat = box(guest, "[data-testid=chat-text]")
        assert chat["top"] >= 0 and chat["bottom"] <= 800, f"the chat box is at {chat}"


# ---------- tap targets ----------

# Every control a finger can reach on the screen now, with a box under 44 CSS px either way (an
# input inside its label counts with the label's box; a closed fold's content is not reachable).
SMALL_TARGETS_JS = """() => [...document.querySelectorAll(
    'button, a[href], input, select, textarea, summary')].filter((el) => {
  if (!el.checkVisibility({ visibilityProperty: true, opacityProperty: false })) return false;
  const r = (el.closest('label') || el).getBoundingClientRect();
  if (r.bottom <= 0 || r.width === 0) return false;   // e.g. the skip link, above the page
  return r.height < 44 || r.width < 44;
}).map((el) => {
  const r = (el.closest('label') || el).getBoundingClientRect();
  const name = el.dataset.testid || el.textContent.trim().slice(0, 30);
  return `${name}: ${Math.round(r.width)}x${Math.round(r.height)}`;
})"""


def small_targets(page: Any) -> list[str]:
    """The controls on screen smaller than a fingertip (see SMALL_TARGETS_JS)."""
    found: list[str] = page.evaluate(SMALL_TARGETS_JS)
    return found


def test_every_control_is_a_fingertip_wide(phone: Any, server_url: str) -> None:
    page = phone
    open_site(page, server_url)
    page.locator("[data-testid=live-settings] > summary").tap()
    assert small_targets(page) == [], "start screen"
    page.fill("[data-testid=name-0]", "Alice")
    page.fill("[data-testid=name-1]", "Bob")
    page.tap("[data-testid=start-game]")
    page.tap("[data-testid=pass-ready]", timeout=ENGINE_MS)
    page.wait_for_selector("[data-testid=orders-screen]", timeout=ENGINE_MS)
    page.tap("[data-testid=gesture-0-L-S]")
    page.tap("[data-testid=gesture-0-R-D]")
    # What the gestures do, with its "N more under way" folds.
    page.wait_for_selector("[data-testid=preview] details", timeout=ENGINE_MS)
    assert small_targets(page) == [], "orders screen"
    page.tap("[data-testid=open-reference]")
    page.wait_for_selector("dialog[data-testid=reference]")
    assert small_targets(page) == [], "spell reference"
    page.keyboard.press("Escape")
    page.wait_for_selector("dialog[data-testid=reference]", state="detached")
    page.tap("[data-testid=open-help]")
    page.wait_for_selector("dialog[open]")
    assert small_targets(page) == [], "help"
