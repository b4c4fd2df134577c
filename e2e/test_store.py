"""The duel store's bugs (issue 24: 7, 8, 9), each as a player meets it.

7. Two tabs of one duel could seal at once and show two different codes; sending one broke the
   duel (`reveal-mismatch`). Now one tab writes a duel at a time (Web Locks): the second tab says
   the duel is open elsewhere, and taking it over stops the first, which says so.
8. A saved duel whose text was damaged was listed as "0.0 KB / Resume"; one damaged in structure
   was resumed on every reload (the failure screen each time). Now the list says what it could
   not read, offers no Resume, and a reload never resumes it.
9. A `#replay=` link that inflates far beyond any record was inflated whole before the limit
   applied. Now inflating stops at the limit, the link is refused in words, and its hash cleared.

Fixtures `browser`, `page`, `server_url` and `shot` come from e2e/conftest.py; the remote duel's
driver is e2e/remote_play.py.
"""

from __future__ import annotations

import base64
import json
import zlib
from typing import Any

import pytest
from conftest import Shot
from remote_play import ENGINE_MS, STEP_MS, invite, open_site, two_players

pytest.importorskip("playwright.sync_api")

# A saved duel planted as the page saves one (index entry + record), with the given record text.
PLANT_JS = """({ id, text, current }) => {
  const index = JSON.parse(localStorage.getItem('wavinghands:v1:index') || '[]');
  index.push({ id, mode: 'hotseat', updatedAt: Date.now(), title: 'Ann vs Bo', names: ['Ann', 'Bo'],
               turn: 3, over: false });
  localStorage.setItem('wavinghands:v1:index', JSON.stringify(index));
  localStorage.setItem(`wavinghands:v1:game:${id}`, text);
  if (current) localStorage.setItem('wavinghands:v1:current', JSON.stringify(id));
}"""


def test_a_second_tab_of_a_duel_says_so_and_can_take_it_over(browser: Any, server_url: str,
                                                              shot: Shot) -> None:
    """Bug 7: the guest's duel by codes, open in a second tab of the same browser."""
    with two_players(browser, server_url) as players:
        invite(players[0], players[1], "codes")
        first = players[1]
        first.wait_for_selector("[data-testid=orders-screen]", timeout=STEP_MS)
        second = first.context.new_page()
        open_site(second, server_url)
        second.wait_for_selector("[data-testid=tab-elsewhere]", timeout=STEP_MS)
        assert second.locator("[data-testid=orders-screen]").count() == 0
        assert "open in another tab" in second.inner_text("[data-testid=tab-elsewhere]")
        shot(second, "store-tab-elsewhere")
        second.set_viewport_size({"width": 390, "height": 844})
        shot(second, "store-tab-elsewhere-phone")
        second.click("[data-testid=tab-take-over]")
        second.wait_for_selector("[data-testid=orders-screen]", timeout=STEP_MS)
        first.wait_for_selector("[data-testid=tab-taken-over]", timeout=STEP_MS)
        assert first.locator("[data-testid=orders-screen]").count() == 0
        shot(first, "store-tab-taken-over")


def test_a_damaged_saved_duel_is_named_and_never_resumed(page: Any, server_url: str,
                                                         shot: Shot) -> None:
    """Bug 8: one duel's text is not JSON, another's game is not a game and is the one a reload
    would resume."""
    # Planted from a document of the site's origin that is not the page (no app, no engine): the
    # page then opens once, on them.
    page.goto(server_url + "manifest.webmanifest")
    page.evaluate(PLANT_JS, {"id": "text1", "text": '{"id":"text1","game":{"tu', "current": False})
    broken = json.dumps({"id": "shape1", "mode": "hotseat", "seats": ["human", "human"],
                         "game": {"format": "wavinghands-game", "turn": "three"}, "pending": {},
                         "summary": {"title": "Cy vs Di", "turn": 3, "over": False}})
    page.evaluate(PLANT_JS, {"id": "shape1", "text": broken, "current": True})
    page.goto(server_url)
    page.wait_for_function("window.__appReady === true", timeout=ENGINE_MS)
    page.wait_for_selector("[data-testid=start-screen] [data-testid=damaged-shape1]",
                           timeout=STEP_MS)
    assert page.locator("[data-testid=failure-screen]").count() == 0
    for duel in ("text1", "shape1"):
        assert "could not be read" in page.inner_text(f"[data-testid=damaged-{duel}]")
        assert page.locator(f"[data-testid=resume-{duel}]").count() == 0
        assert page.locator(f"[data-testid=continue-{duel}]").count() == 0
    shot(page, "store-damaged-duels")
    page.set_viewport_size({"width": 390, "height": 844})
    page.locator("[data-testid=damaged-shape1]").scroll_into_view_if_needed()
    shot(page, "store-damaged-duels-phone")
    page.set_viewport_size({"width": 1280, "height": 800})
    page.reload()
    page.wait_for_function("window.__appReady === true", timeout=ENGINE_MS)
    page.wait_for_selector("[data-testid=start-screen]", timeout=STEP_MS)
    assert page.locator("[data-testid=resume-screen], [data-testid=failure-screen]").count() == 0
    # Deleting tidies it away.
    page.click("[data-testid=delete-text1]")
    page.click("[data-testid=confirm-delete-text1]")
    page.wait_for_selector("[data-testid=saved-text1]", state="detached", timeout=STEP_MS)


def bomb(chars: int) -> str:
    """A '#replay=' payload: deflate-raw of `chars` spaces, base64url (a few hundred to a thousand
    times smaller than what it inflates to)."""
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    block = b" " * 1_000_000
    packed = b"".join(packer.compress(block) for _ in range(chars // len(block))) + packer.flush()
    return base64.urlsafe_b64encode(packed).decode().rstrip("=")


def test_a_replay_link_too_big_to_be_a_record_is_refused_and_cleared(page: Any,
                                                                     server_url: str) -> None:
    """Bug 9: a link inflating to 40 M characters, ten times the most any text may be."""
    page.goto(f"{server_url}#replay={bomb(40_000_000)}")
    message = page.wait_for_selector(".toast.error", timeout=ENGINE_MS).inner_text()
    assert "more than any record can be" in message, message
    page.wait_for_selector("[data-testid=start-screen]", timeout=STEP_MS)
    assert page.evaluate("location.hash") == ""
