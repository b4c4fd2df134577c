"""The end says how it ended (issue 27), through the real page in Debian's Chromium.

A hot-seat duel (e2e/test_hotseat.py's script: Alice's lightning bolts and fireball against
Bob's missiles), its first eight turns imported as a record, is played to its end (Alice's
blow on turn 9) through the UI; the end card then names the decisive blow
in one sentence, draws both wizards' health over the turns, and offers Rematch, Replay, Share
the replay link and Export.  The shared link opens the same duel's replay.  A surrender (P P on
turn 1) is said as one, once, and its chart's two lines, one on the other, both show.
Screenshots at desktop and phone size go to test-output/.

Fixtures `server_url`, `browser`, `page` and `shot` come from e2e/conftest.py.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")

from conftest import Shot, phone_page
from duel_play import (
    ENGINE_MS,
    HOTSEAT_SCRIPT,
    import_hotseat,
    in_view,
    open_game,
    pick,
    play_duel,
    record_text,
    scripted,
    seal,
    shared_replay_link,
    start_hotseat,
    wait_preview,
)

# The scripted duel's turns before its last (duel_play.HOTSEAT_SCRIPT: Bob falls on turn 9);
# Alice's stab on turn 8 goes at Bob.
BEFORE_THE_KILL = 8

# "Alice\u2019s lightning bolt killed Bob on turn 9." (names isolated by U+2068 / U+2069)
BLOW = re.compile("^\u2068?(Alice|Bob)\u2069?\u2019s [a-z ]+ killed \u2068?(Alice|Bob)\u2069? "
                  "on turn \\d+\\.$")


def end_card(page: Any) -> dict[str, Any]:
    """What the end card says: the sentence, the chart's label, its lines, the buttons."""
    page.wait_for_selector("[data-testid=end-blow]", timeout=ENGINE_MS)
    return {
        "blow": page.inner_text("[data-testid=end-blow]").strip(),
        "chart": page.get_attribute("[data-testid=health-chart]", "aria-label") or "",
        "lines": page.locator("[data-testid=health-chart] polyline").count(),
        "buttons": [b.get_attribute("data-testid") for b in
                    page.locator(".result .actions button").all()],
    }


def test_the_end_names_the_decisive_blow_and_shares_the_replay(
        page: Any, server_url: str, shot: Shot) -> None:
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    open_game(page, server_url)
    turns = list(zip(HOTSEAT_SCRIPT[0], HOTSEAT_SCRIPT[1], strict=True))[:BEFORE_THE_KILL]
    import_hotseat(page, record_text(turns, extra={BEFORE_THE_KILL: {"stab": "W1"}}))
    play_duel(page, scripted(HOTSEAT_SCRIPT), decide=None)
    card = end_card(page)
    assert BLOW.match(card["blow"]), card
    loser = BLOW.match(card["blow"]).group(2)  # type: ignore[union-attr]
    assert page.inner_text("[data-testid=result-title]") == \
        f"{'Alice' if loser == 'Bob' else 'Bob'} wins"
    assert card["lines"] == 2 and "Alice ended with" in card["chart"].replace("\u2068", "") \
        .replace("\u2069", ""), card
    for wanted in ("rematch", "replay-open", "share-replay", "export-record", "new-duel"):
        assert wanted in card["buttons"], card
    shot(page, "battle-end-desktop")
    link = shared_replay_link(page)
    # The link opens this duel's replay, in a fresh page.
    other = page.context.new_page()
    other.goto(link)
    other.wait_for_selector("[data-testid=replay-screen]", timeout=ENGINE_MS)
    other.close()
    assert not errors, errors


def ask_before_surrendering(page: Any) -> None:
    """Both hands on P pressed once: the page asks first, in sight; changing a hand withdraws
    the question, and P-P again asks again (e2e/test_newplayer.py's
    test_both_hands_on_p_asks_before_surrendering, deep, asks it against the computer)."""
    # "a pair of P gestures made by both hands at the same time signals your surrender"
    warning = page.wait_for_selector("[data-testid=confirm-risky]", timeout=ENGINE_MS)
    assert "SURRENDERS" in warning.inner_text()
    assert in_view(page, "[data-testid=confirm-risky]"), "the question is out of sight"
    assert page.locator("[data-testid=orders-screen][data-turn='1']").count() == 1, "sealed"
    assert page.inner_text("[data-testid=submit-orders]") == "Seal anyway"
    page.check("[data-testid=gesture-0-R-W]")
    page.wait_for_selector("[data-testid=preview][aria-busy=false]", timeout=ENGINE_MS)
    assert page.locator("[data-testid=confirm-risky]").count() == 0
    page.check("[data-testid=gesture-0-R-P]")
    page.wait_for_selector("[data-testid=preview][aria-busy=false]", timeout=ENGINE_MS)
    page.click("[data-testid=submit-orders]")
    page.wait_for_selector("[data-testid=confirm-risky]", timeout=ENGINE_MS)


def test_a_surrender_is_said_at_phone_size(browser: Any, server_url: str, shot: Shot) -> None:
    with phone_page(browser, {"width": 390, "height": 844}) as page:
        open_game(page, server_url)
        start_hotseat(page)

        def write(page: Any, wizard: int, turn: int) -> None:
            pick(page, ("P", "P") if wizard == 1 else ("-", "-"))
            wait_preview(page)
            page.click("[data-testid=submit-orders]")
            if wizard == 1:  # a surrender takes a second press
                ask_before_surrendering(page)
                seal(page)

        play_duel(page, write, screens=8)
        card = end_card(page)
        assert card["blow"].replace("\u2068", "").replace("\u2069", "") == \
            "Bob surrendered on turn 1.", card
        # Said once: the sentence takes the place of the short "Bob surrendered" line.
        result = page.inner_text(".result")
        assert result.count("surrendered") == 1, result
        # Both lines lie on each other (14 health each, turns 0 and 1): the second is dashed
        # over the first, so both colours show.
        dashes = page.eval_on_selector_all(
            "[data-testid=health-chart] polyline",
            "(ls) => ls.map((l) => [getComputedStyle(l).stroke,"
            " getComputedStyle(l).strokeDasharray])")
        assert len(dashes) == 2 and dashes[0][0] != dashes[1][0], dashes
        assert dashes[0][1] == "none" and dashes[1][1] != "none", dashes
        shot(page, "battle-end-surrender-phone")
