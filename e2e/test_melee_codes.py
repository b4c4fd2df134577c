"""A three-player melee by codes through the real page, in three browser contexts, to its end.

Ann hosts at a desktop's size, Bob joins at a desktop's size and Cat at a phone's. The group's
chat is a list of messages here: each player posts what his page lists to post (one message,
every code of it), and pastes the WHOLE chat so far in one go (so one paste carries several
codes, the player's own and old ones among them, which the page skips).  A guest who pastes
every invitation at once is asked for his own; a mangled code gets a keyed error that loses
nothing (a picked gesture stays picked; a reload too), an old invitation is skipped.  Turn 1
Bob stabs Cat (the target list names every wizard); Ann casts paralysis at Cat on turn 3 and
chooses the hand in a decision round (compact rows, hers first); turn 4 Ann and Bob surrender
and Cat wins on every page.  The end offers Replay (every wizard in the replay viewer), the
replay link and Export.  Screenshots go to test-output/melee-codes-*.png.  Fixtures:
e2e/conftest.py.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")

from conftest import Shot
from duel_play import open_game, replay_to_the_end, seal, shared_replay_link
from melee_play import NAMES, pick_orders, three_players

ENGINE_MS = 90_000
# Each wizard's orders per turn (left, right); "PP" surrenders (asked for twice).
# Ann casts paralysis (F, F, F) at Cat on turn 3 and picks the hand after the reveal (a
# decision: Bob's and Cat's pages give their bare dice share by themselves); turn 4 Ann and Bob
# surrender, and Cat, a hand held, wins. "?": nothing, where the hand is free.
SCRIPT = {0: {1: "F-", 2: "F-", 3: "F-", 4: "PP"}, 1: {1: ">-", 2: "--", 3: "--", 4: "PP"},
          2: {1: "-W", 2: "--", 3: "--", 4: "??"}}
CAST_AT = {(0, 3): ("target-0-L", "W2")}
SCREENS = ("melee-lobby", "orders-screen", "decision-screen", "melee-watch", "game-over",
           "failure-screen")
FRESH = "#screen > *:not([data-stale])"
SETTLED = ", ".join(f"#screen > [data-testid={t}]:not([data-stale])" for t in SCREENS)


@pytest.fixture
def players(browser: Any, server_url: str) -> Iterator[list[Any]]:
    """Ann and Bob at a desktop's size, Cat at a phone's, each in a context of his own."""
    with three_players(browser) as pages:
        yield pages


def settle(page: Any) -> str:
    """The test id of the screen drawn after the last action."""
    found = page.wait_for_selector(f"{SETTLED}, [data-testid=start-error]:not([hidden])",
                                   timeout=ENGINE_MS)
    testid: str = found.get_attribute("data-testid")
    assert testid not in ("failure-screen", "start-error"), found.inner_text()
    return testid


def act(page: Any, action: Any) -> str:
    """Mark the screen drawn now as stale, do `action`, and wait for the next screen."""
    page.evaluate("document.querySelectorAll('#screen > *')"
                  ".forEach((e) => { e.dataset.stale = '1'; })")
    action()
    return settle(page)


def paste(page: Any, text: str) -> str:
    """Paste `text` into the melee's paste box and read it; the next screen's test id."""
    def go() -> None:
        page.fill("[data-testid=melee-paste]", text)
        page.click("[data-testid=melee-paste-apply]")
    return act(page, go)


def outbox(page: Any) -> str:
    """What the page lists to post now ('' when nothing)."""
    box = page.query_selector("[data-testid=melee-outbox] [data-testid=melee-code]")
    return box.inner_text().strip() if box else ""


def write(page: Any, wizard: int, turn: int) -> str:
    """The wizard's scripted orders, sealed (a surrender confirmed); the next screen."""
    pair = SCRIPT[wizard].get(turn, "PP")
    pick_orders(page, pair, wizard, NAMES)
    if (wizard, turn) in CAST_AT:
        field, target = CAST_AT[wizard, turn]
        page.select_option(f"[data-testid={field}]", target)
        page.wait_for_selector("[data-testid=preview][aria-busy=false]", timeout=ENGINE_MS)
    return act(page, lambda: seal(page, surrender=pair == "PP"))


def test_three_players_play_a_melee_by_codes_to_its_end(players: list[Any], server_url: str,
                                                          shot: Shot) -> None:
    ann, bob, cat = players
    for page in players:
        open_game(page, server_url)
    chat: list[str] = []

    # Ann hosts a melee of three: two invitations to post, one for each friend.
    ann.fill("[data-testid=name-0]", "Ann")
    ann.check("[data-testid=mode-melee-codes]")
    ann.select_option("[data-testid=melee-codes-count]", "3")
    shot(ann, "melee-codes-start")
    assert act(ann, lambda: ann.click("[data-testid=start-game]")) == "melee-lobby"
    assert ann.get_attribute("[data-testid=melee-outbox]", "data-kinds") == "invite invite"
    invitations = [ann.text_content(f"[data-testid=melee-invite-{s}]").strip() for s in (1, 2)]
    assert all(i.startswith("WH1.") for i in invitations), invitations
    chat.append(outbox(ann))
    assert all(i in chat[0] for i in invitations)
    shot(ann, "melee-codes-lobby-host")

    # Bob pastes the whole message first: asked for his own invitation only, nothing started.
    for page, name, seat in ((bob, "Bob", 1), (cat, "Cat", 2)):
        page.fill("[data-testid=name-0]", name)
        page.check("[data-testid=mode-melee-codes]")
        page.check("[data-testid=melee-codes-join]")
        if page is bob:
            page.fill("[data-testid=melee-codes-invitation]", chat[0])
            page.click("[data-testid=start-game]")
            page.wait_for_selector("[data-testid=start-error]:not([hidden])", timeout=ENGINE_MS)
            assert "several invitations" in page.inner_text("[data-testid=start-error]")
        page.fill("[data-testid=melee-codes-invitation]", invitations[seat - 1])
        assert act(page, lambda page=page: page.click("[data-testid=start-game]")) == "melee-lobby"
        assert page.get_attribute("[data-testid=melee-outbox]", "data-kinds") == "accept"
        chat.append(outbox(page))
    shot(cat, "melee-codes-lobby-guest-phone")

    # Everyone pastes the whole chat: every page holds every acceptance, and the melee starts.
    screens = [paste(page, "\n".join(chat)) for page in players]
    assert screens == ["orders-screen"] * 3, screens
    for seat, page in enumerate(players):
        rows = page.locator("[data-testid=melee-table] li.melee-row")
        assert rows.count() == 3
        assert rows.first.get_attribute("data-testid") == f"melee-row-{seat}"

    wide = cat.evaluate("document.documentElement.scrollWidth")
    assert wide <= 390, f"Cat's phone scrolls sideways ({wide}px)"
    # The pads come before the codes panel's foot: in sight on the phone's first screen.
    assert cat.locator("[data-testid=gesture-0-L-stab]").bounding_box()["y"] < 844

    # A mangled code and another melee's code: keyed errors; Bob's picked gesture stays picked.
    bob.check("[data-testid=gesture-0-L-stab]")
    mangled = chat[-1][:-3] + ("A" if chat[-1][-3] != "A" else "B") + chat[-1][-2:]
    assert paste(bob, mangled) == "orders-screen"
    assert bob.get_attribute("[data-testid=melee-codes-error]", "data-code") == "corrupted"
    assert bob.is_checked("[data-testid=gesture-0-L-stab]")
    shot(bob, "melee-codes-error")
    assert paste(bob, invitations[0]) == "orders-screen"
    assert not bob.query_selector("[data-testid=melee-codes-error]"), "an old invitation is skipped"
    assert bob.is_checked("[data-testid=gesture-0-L-stab]")
    # A reload takes the melee up where it stood, the picks still picked.
    bob.reload()
    bob.wait_for_function("window.__appReady === true", timeout=ENGINE_MS, polling=100)
    assert settle(bob) == "orders-screen"
    assert bob.is_checked("[data-testid=gesture-0-L-stab]")

    turn = 1
    decided: list[int] = []
    for _ in range(16):
        # Each player with orders to write writes them; every page's codes go to the chat.
        for seat, page in enumerate(players):
            testid = page.get_attribute(f"{FRESH}", "data-testid")
            if testid == "orders-screen":
                turn = int(page.get_attribute("[data-testid=orders-screen]", "data-turn"))
                if turn == 1 and seat == 2:
                    shot(page, "melee-codes-orders-phone", full_page=False)
                write(page, seat, turn)
            elif testid == "decision-screen":
                # The melee's decision: the compact rows (the decider's first), not the cards.
                rows = page.locator("[data-testid=decision-screen] li.melee-row")
                assert rows.count() == 3
                assert rows.first.get_attribute("data-testid") == f"melee-row-{seat}"
                decided.append(seat)
                assert "F -" in page.inner_text("[data-testid=melee-revealed]")
                shot(page, "melee-codes-decision")
                for fieldset in page.locator("[data-testid=decision-screen] fieldset").all():
                    fieldset.locator("input[type=radio]").first.check()
                act(page, lambda page=page: page.click("[data-testid=submit-decision]"))
            posted = outbox(page)
            if posted and posted not in chat:
                chat.append(posted)
        if turn == 1 and len(chat) == 6:
            assert "left F (fingers), right nothing" in ann.inner_text(
                "[data-testid=sealed-orders]")
            shot(ann, "melee-codes-sealed-desktop")
        # Everyone pastes the whole chat (twice a round: the commitments, then the reveals).
        shown = [page.get_attribute(FRESH, "data-testid") for page in players]
        screens = [s if s == "game-over" else paste(page, "\n".join(chat))
                   for s, page in zip(shown, players, strict=True)]
        for page in players:
            assert not page.query_selector("[data-testid=melee-codes-error]"), \
                page.inner_text("[data-testid=melee-codes-error]")
        for page in players:
            posted = outbox(page)
            if posted and posted not in chat:
                chat.append(posted)
        if all(s == "game-over" for s in screens):
            break
    else:
        raise AssertionError(f"the melee did not end: {screens}")

    assert decided == [0], decided
    for page in players:
        assert page.inner_text("[data-testid=result-title]") == "Cat wins the melee"
        assert "surrender" in page.inner_text("[data-testid=game-over]").lower()
    shot(ann, "melee-codes-over-desktop")
    shot(cat, "melee-codes-over-phone")
    assert cat.evaluate("document.documentElement.scrollWidth") <= 390, "the end scrolls sideways"
    assert "surrendered" in cat.inner_text("[data-testid=melee-out-0]")
    # Two codes per player per round, each round's codes in two pastes.
    assert all(line.startswith("WH1.") for message in chat for line in message.split())

    # Cat's end: the replay link (it opens the melee's replay in a fresh page) and the export.
    link = shared_replay_link(cat)
    cat.click("[data-testid=export-record]")
    record = json.loads(cat.input_value("[data-testid=export-text]"))
    assert record["format"] == "wavinghands-record"
    assert record["players"] == list(NAMES), record["players"]
    other = cat.context.new_page()
    other.goto(link)
    other.wait_for_selector("[data-testid=replay-screen]", timeout=ENGINE_MS)
    assert other.locator("[data-testid^=replay-perspective-]").count() == 4  # three, and all
    other.close()

    # Ann's Replay: every wizard's view.
    assert "Cat" in replay_to_the_end(ann, 3)
    shot(ann, "melee-codes-replay")
