"""A live melee of three through the real page, in three browser contexts, to its end
(docs/protocol.md, "Live melee"; web/flows/melee-live.js over web/transport/hub.js).

Ann hosts and gets one text per guest seat (the engine's invitation, her key, a WebRTC offer);
Bob and Cat each paste theirs and send one text back (acceptance, key, answer), which Ann pastes:
one text each way per guest. Once both are connected every page shows the same key fingerprint
and the orders; from then on no code is copied: each seal travels signed through Ann's page.
Turn 1 everyone moves, turn 2 Bob and Cat surrender, and Ann wins on every page. In the second
test (deep tier, docs/test-tiers.md) Cat's page closes after the start: Ann and Bob are told Cat
dropped out, both concede him (the page plays his surrender), and the melee goes on between them
to its end.

The test carries the texts, as a chat would. Chromium runs with mDNS hiding off
(conftest.WEBRTC_ARGS) as in e2e/test_live.py; without a network interface with a default route
ICE cannot run and the tests are skipped, saying so. Screenshots: test-output/melee-live-*.png.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")

from conftest import Shot
from duel_play import gesture_pad, seal
from melee_play import three_players
from remote_play import live_browser, needs_route

__all__ = ["live_browser"]  # remote_play's fixture, for `players`

ENGINE_MS = 90_000
CONNECT_MS = 45_000
SCREENS = ("melee-live-lobby", "melee-lobby", "orders-screen", "decision-screen", "melee-watch",
           "game-over", "failure-screen")
FRESH = "#screen > *"


@pytest.fixture
def players(live_browser: Any, server_url: str) -> Iterator[list[Any]]:
    """Ann and Bob at a desktop's size, Cat at a phone's, each in a context of his own, on the
    start screen with the engine ready."""
    with three_players(live_browser) as pages:
        for page in pages:
            page.goto(server_url)
            page.wait_for_selector("[data-testid=start-screen]", timeout=10_000)
        for page in pages:
            page.wait_for_function("window.__appReady === true", timeout=ENGINE_MS, polling=100)
        yield pages


def screen(page: Any) -> str:
    """The test id of the screen drawn now."""
    testid: str = page.get_attribute(FRESH, "data-testid") or ""
    assert testid != "failure-screen", page.inner_text(FRESH)
    return testid


def wait_screen(page: Any, *testids: str, timeout: int = ENGINE_MS) -> str:
    """Wait until the page draws one of these screens; its test id."""
    wanted = ", ".join(f"#screen > [data-testid={t}]" for t in (*testids, "failure-screen"))
    found = page.wait_for_selector(wanted, timeout=timeout)
    return screen(page) if found else ""


def start(page: Any, name: str, invitation: str | None = None) -> None:
    """Host (no invitation) or join a live melee of three from the start screen."""
    page.fill("[data-testid=name-0]", name)
    page.check("[data-testid=mode-melee-live]")
    if invitation is None:
        page.select_option("[data-testid=melee-live-count]", "3")
    else:
        page.check("[data-testid=melee-live-join]")
        page.fill("[data-testid=melee-live-invitation]", invitation)
    page.click("[data-testid=start-game]")
    wait_screen(page, "melee-live-lobby")


def prefixes(text: str) -> list[str]:
    """The kind of each line of a live text (WH1: the engine's code, WHK1: a key, WHC1/WHA1: a
    connection offer or answer)."""
    return [line.split(".")[0] for line in text.split("\n")]


def connect(players: list[Any], shot: Shot) -> None:
    """Ann hosts; Bob and Cat each paste their text and send one back; all reach their orders."""
    ann, bob, cat = players
    start(ann, "Ann")
    texts = [ann.text_content(f"[data-testid=melee-live-invite-{s}]").strip() for s in (1, 2)]
    for text in texts:
        assert prefixes(text) == ["WH1", "WHK1", "WHC1"], text
    shot(ann, "melee-live-lobby-host")
    for page, name, text in ((bob, "Bob", texts[0]), (cat, "Cat", texts[1])):
        start(page, name, text)
        page.wait_for_selector("[data-testid=melee-live-reply]", timeout=CONNECT_MS)
        reply = page.text_content("[data-testid=melee-live-reply]").strip()
        assert prefixes(reply) == ["WH1", "WHK1", "WHA1"], reply
        if page is cat:
            shot(cat, "melee-live-lobby-guest-phone")
        ann.fill("[data-testid=melee-live-reply-paste]", reply)
        ann.click("[data-testid=melee-live-reply-paste-apply]")
        ann.wait_for_selector("[data-testid=melee-live-lobby] [data-testid=melee-live-error]",
                              state="detached", timeout=ENGINE_MS)
    for page in players:
        assert wait_screen(page, "orders-screen", timeout=CONNECT_MS) == "orders-screen"
    prints = [page.get_attribute("[data-testid=melee-live-fingerprint]", "data-print")
              for page in players]
    assert prints[0] and prints == [prints[0]] * 3, prints
    for page in players:
        assert page.get_attribute("[data-testid=melee-live-panel]", "data-state") == "connected"
        assert not page.query_selector("[data-testid=melee-outbox]"), "live: nothing to copy"
        assert "by itself" in page.inner_text("[data-testid=melee-codes-status]")


def write(page: Any, pair: str) -> None:
    """Seal these orders (left, right); a surrender is confirmed."""
    turn = page.get_attribute("[data-testid=orders-screen]", "data-turn")
    for hand, g in zip("LR", pair, strict=True):
        page.check(gesture_pad(hand, g))
    page.wait_for_selector("[data-testid=preview][aria-busy=false]", timeout=ENGINE_MS)
    seal(page, surrender=pair == "PP")
    # Sealed: the page waits for the others (or has moved on to the next turn already).
    page.wait_for_function(
        "(t) => { const s = document.querySelector('#screen > *');"
        " return s && (s.dataset.testid !== 'orders-screen' || s.dataset.turn !== t); }",
        arg=turn, timeout=ENGINE_MS, polling=100)


def play(pages: list[Any], script: dict[int, dict[int, str]]) -> None:
    """Each page writes its scripted orders for each turn (decisions: the first choice), codes
    travelling by themselves, until every page shows the end."""
    for _ in range(40):
        done = True
        for seat, page in enumerate(pages):
            testid = wait_screen(page, "orders-screen", "decision-screen", "melee-watch",
                                 "game-over")
            if testid == "orders-screen":
                turn = int(page.get_attribute("[data-testid=orders-screen]", "data-turn"))
                write(page, script[seat].get(turn, "PP"))
            elif testid == "decision-screen":
                for fieldset in page.locator("[data-testid=decision-screen] fieldset").all():
                    fieldset.locator("input[type=radio]").first.check()
                page.click("[data-testid=submit-decision]")
            done = done and testid == "game-over"
        if done:
            return
        # Wait until every page has something to do again (or the melee is over).
        for page in pages:
            page.wait_for_selector(
                "#screen > [data-testid=orders-screen], #screen > [data-testid=decision-screen],"
                " #screen > [data-testid=game-over]", timeout=CONNECT_MS)
    raise AssertionError("the melee did not end")


def chat_lines(page: Any) -> list[str]:
    """The group chat's lines on this page, as shown."""
    shown = page.locator("[data-testid=melee-live-chat-lines] li").all_inner_texts()
    # (a name comes isolated, U+2068..U+2069, as every name in a sentence does)
    return [" ".join(t.replace("\u2068", "").replace("\u2069", "").split()) for t in shown]


def talk(players: list[Any]) -> None:
    """Ann says a line to the group (Enter sends), Cat answers from his phone (the Send button):
    every page shows both, each named, in order."""
    ann, bob, cat = players
    ann.fill("[data-testid=melee-live-chat] [data-testid=chat-text]", "Good luck, all")
    ann.press("[data-testid=melee-live-chat] [data-testid=chat-text]", "Enter")
    for page in (bob, cat):
        page.wait_for_selector("[data-testid=melee-live-chat-lines] li", timeout=CONNECT_MS)
    cat.fill("[data-testid=melee-live-chat] [data-testid=chat-text]", "Thanks, Ann")
    cat.click("[data-testid=melee-live-chat] [data-testid=chat-send]")
    for page in players:
        page.wait_for_function(
            "() => document.querySelectorAll("
            "'[data-testid=melee-live-chat-lines] li').length === 2",
            timeout=CONNECT_MS)
    assert chat_lines(ann) == ["You: Good luck, all", "Cat: Thanks, Ann"]
    assert chat_lines(bob) == ["Ann: Good luck, all", "Cat: Thanks, Ann"]
    assert chat_lines(cat) == ["Ann: Good luck, all", "You: Thanks, Ann"]
    assert ann.input_value("[data-testid=melee-live-chat] [data-testid=chat-text]") == ""


@needs_route
def test_three_players_play_a_live_melee_to_its_end(players: list[Any], shot: Shot) -> None:
    ann, _bob, cat = players
    connect(players, shot)
    talk(players)
    shot(cat, "melee-live-orders-phone", full_page=False)
    wide = cat.evaluate("document.documentElement.scrollWidth")
    assert wide <= 390, f"Cat's phone scrolls sideways ({wide}px)"
    play(players, {0: {1: "WP", 2: "--"}, 1: {1: "-S", 2: "PP"}, 2: {1: "-W", 2: "PP"}})
    for page in players:
        assert "Ann" in page.inner_text("[data-testid=game-over]")
    shot(ann, "melee-live-end")


@pytest.mark.deep
@needs_route
def test_a_guest_who_drops_out_is_reported_and_conceded(players: list[Any],
                                                         shot: Shot) -> None:
    ann, bob, cat = players
    connect(players, shot)
    cat.close()  # Cat closes his tab
    for page in (ann, bob):
        page.wait_for_selector("[data-testid=melee-live-concede-2]", timeout=CONNECT_MS)
        assert "Cat" in page.inner_text("[data-testid=melee-live-news-2]")
    shot(bob, "melee-live-dropped")
    ann.click("[data-testid=melee-live-concede-2]")
    ann.wait_for_selector("[data-testid=melee-live-concede-2]", state="detached",
                          timeout=ENGINE_MS)
    assert ann.get_attribute("[data-testid=melee-live-news-2]", "data-code") != "conceded", \
        "one vote concedes nobody"
    bob.click("[data-testid=melee-live-concede-2]")
    for page in (ann, bob):
        page.wait_for_selector("[data-testid=melee-live-news-2][data-code=conceded]",
                               timeout=CONNECT_MS)
    shot(ann, "melee-live-conceded")
    # Turn 1: Cat's page-played surrender takes him out; turn 2 Bob surrenders: Ann wins.
    play([ann, bob], {0: {1: "--", 2: "--"}, 1: {1: "--", 2: "PP"}})
    for page in (ann, bob):
        assert "Ann" in page.inner_text("[data-testid=game-over]")
