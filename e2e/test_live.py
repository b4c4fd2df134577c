"""Play live (web/remote.js over web/transport/webrtc.js) through the real page in Chromium.

Two browser contexts on this machine trade one code each way through the page's own boxes (the
test carries them, as a chat would): the invitation carries the connection offer, the guest's
code for turn 1 carries the answer. Then they play a whole duel with no code copied by hand:
turn codes travel over the data channel, and each side sees the other's presence. In a second
duel the connection is ended in the middle; the game goes on by codes from where it stood and
finishes. A garbled connection code gets a clear error (that one needs no network).

Chromium runs with mDNS hiding off (conftest.WEBRTC_ARGS), as in e2e/test_webrtc.py. ICE needs a
network interface other than loopback with a default route; without one, the tests that connect
are skipped and say so. Screenshots go to test-output/live-*.png.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")

from conftest import DESKTOP, Shot, kept_context
from remote_play import (
    CONNECT_MS,
    LOG_CHAT,
    NAMES,
    NO_ROUTE,
    SAMPLE_SDP,
    STEP_MS,
    accept,
    act,
    begin,
    code_after_acting,
    code_to_send,
    connect,
    deliver,
    flipped,
    invite,
    join,
    live_browser,
    live_status,
    needs_route,
    open_site,
    paste,
    play,
    remote_screen,
    rtc_site,
    screen_state,
    two_players,
    wait_live,
    write_orders,
)
from waiting import poll

__all__ = ["live_browser", "rtc_site"]  # remote_play's fixtures


@pytest.fixture
def players(live_browser: Any, server_url: str) -> Iterator[dict[int, Any]]:
    """Two players in their own contexts, both on the start screen with the engine ready."""
    with two_players(live_browser, server_url) as pages:
        yield pages


def connection_code(page: Any) -> str:
    """The live connection code this side shows: on its own in the live panel, or (when it also
    travels inside this side's turn code) from the panel's "on its own" fold."""
    page.wait_for_selector(
        "[data-testid=live-code]:visible, [data-testid=live-bundled]", timeout=CONNECT_MS
    )
    shown = "[data-testid=live-code]"
    if not page.locator(f"{shown}:visible").count():
        page.click("[data-testid=live-panel] details:has([data-testid=live-code-alone]) > summary")
        shown = "[data-testid=live-code-alone]"
    code: str = page.inner_text(shown).strip()
    return code


@needs_route
def test_a_whole_duel_live(players: dict[int, Any], shot: Shot) -> None:
    host, guest = players[0], players[1]
    connect(players, shot, by_link=True)
    presence_seen: set[str] = set()

    def on_step(w: int, need: str) -> None:
        # What each side shows of the other's state while the codes fly by themselves.
        for page in (host, guest):
            peer = page.evaluate(
                "document.querySelector('[data-testid=live-presence]')?.dataset.peer || ''"
            )
            if peer:
                presence_seen.add(peer)
        committed = (screen_state(guest) or {}).get("sealed") == "true"
        if w == 1 and need == "orders" and committed and "shot" not in presence_seen:
            # The guest committed first this turn; the host is told so.
            host.wait_for_selector("[data-testid=orders-screen]", timeout=STEP_MS)
            host.wait_for_selector("[data-testid=live-presence][data-peer=sealed]", timeout=STEP_MS)
            shot(host, "live-connected")
            presence_seen.update(("shot", "sealed"))

    # Through both decisions (e2e/remote_play.py), then the host surrenders: the duel ends,
    # every code of it having gone live.
    play(players, None, on_step=on_step, surrender_from=5)
    assert {"choosing", "sealed"} <= presence_seen, presence_seen
    for page in (host, guest):
        assert page.locator("[data-testid=result-title]").count() == 1
        # Every code went live: no code was ever shown to be copied by hand, but for the record.
        assert live_status(page) == "connected"
    titles = [page.inner_text("[data-testid=result-title]") for page in (host, guest)]
    assert titles[0] == titles[1], titles
    shot(guest, "live-game-over")

    # A rematch over the same connection: the new invitation arrives by itself.
    host.click("[data-testid=rematch]")
    accept(guest, NAMES[1])
    assert live_status(guest) == "connected"
    act(guest)  # the guest's first orders are the acceptance, and they go live too
    host.wait_for_selector("[data-testid=orders-screen][data-turn='1']", timeout=STEP_MS)
    # The host ends the connection: the guest is told, and to carry on by codes (what comes
    # after, the duel going on by codes, is test_cut_in_the_middle_the_duel_finishes_by_codes's).
    host.click("[data-testid=live-close]")
    wait_live(guest, "disconnected", timeout=STEP_MS)
    assert "carry on by codes" in guest.inner_text("[data-testid=live-panel]").lower()


# Deep: the page's routing by codes once the connection is gone is tests/js/transport.test.mjs's
# and test_webrtc.py's, the close and what the guest is told test_a_whole_duel_live's
# (docs/test-tiers.md).
@pytest.mark.deep
@needs_route
def test_cut_in_the_middle_the_duel_finishes_by_codes(players: dict[int, Any], shot: Shot) -> None:
    host, guest = players[0], players[1]
    connect(players)
    # A turn live, then the host ends the connection.
    play(players, None, until=lambda: int((screen_state(host) or {}).get("turn", "0")) >= 2)
    # Nothing in flight when the connection ends: both sides wait for the same message number
    # (docs/protocol.md), so every code made so far has arrived, live.
    poll(
        lambda: [remote_screen(players[w])["seq"] for w in (0, 1)],
        lambda seqs: seqs[0] == seqs[1],
        timeout_s=STEP_MS / 1000,
        what="the code on its way to arrive before the connection ends",
    )
    host.click("[data-testid=live-close]")
    wait_live(guest, "disconnected", timeout=STEP_MS)
    assert "carry on by codes" in guest.inner_text("[data-testid=live-panel]").lower()
    assert host.get_attribute("[data-testid=live-panel]", "data-status") in ("closed", "off")
    shot(guest, "live-disconnected")

    # From here each code goes by hand, starting from where the exchange stood: every code
    # made so far went live.
    delivered = {w: int(remote_screen(players[w])["sent"]) for w in (0, 1)}

    def carry(w: int) -> None:
        deliver(players[1 - w], code_to_send(players[w]))

    play(players, carry, delivered, surrender_from=3)  # a turn by codes, then the end
    titles = {w: players[w].inner_text("[data-testid=result-title]") for w in (0, 1)}
    assert titles[0] == titles[1]
    shot(host, "live-finished-by-codes")


@needs_route
def test_after_a_reload_a_new_exchange_reconnects_and_the_duel_ends_live(
    players: dict[int, Any], shot: Shot
) -> None:
    host, guest = players[0], players[1]
    connect(players)
    play(players, None, until=lambda: int((screen_state(host) or {}).get("turn", "0")) >= 2)
    # The guest's page reloads: its connection is gone, its duel is not.
    guest.reload()
    guest.wait_for_function("window.__appReady === true", timeout=STEP_MS, polling=100)
    guest.wait_for_selector("[data-testid=remote-screen]", timeout=STEP_MS)
    wait_live(host, "disconnected", timeout=STEP_MS)
    # This time the guest makes the connection code, and the host pastes it into the duel's box.
    guest.click("[data-testid=live-panel] > summary")
    guest.click("[data-testid=live-start]")
    paste(host, connection_code(guest))
    # Answering an offer is asked first, naming the opponent (issue 12, finding 3).
    prompt = host.wait_for_selector("[data-testid=connect-inviter]", timeout=STEP_MS)
    assert prompt.inner_text().startswith(NAMES[1] + " offers to play live"), prompt.inner_text()
    host.click("[data-testid=connect-live]")
    paste(guest, connection_code(host))
    wait_live(guest, "connected")
    wait_live(host, "connected")
    shot(guest, "live-reconnected")
    # Each side sent its last code again on connecting: harmless, and the duel goes on live
    # (a turn, then the host surrenders).
    play(players, None, surrender_from=3)
    titles = [page.inner_text("[data-testid=result-title]") for page in (host, guest)]
    assert titles[0] == titles[1], titles


# Deep: a garbled code's detection and its words are test_webrtc.py's and tests/js/codec.test.mjs's,
# routing a connection code pasted in the start screen's box tests/js/remote-route.test.mjs's
# (docs/test-tiers.md).
@pytest.mark.deep
def test_a_garbled_connection_code_gets_a_clear_error(
    live_browser: Any, server_url: str, shot: Shot
) -> None:
    with kept_context(live_browser, server_url, viewport=DESKTOP) as ctx:
        page = ctx.new_page()
        open_site(page, server_url)
        if NO_ROUTE is None:
            begin(page, "live", NAMES[0])
            garbled = flipped(connection_code(page))
            page.click("[data-testid=leave-duel]")
        else:
            # No network, so no connection code of this machine: pack a sample SDP instead
            # (garbling is caught before any connection is tried).
            code = page.evaluate(
                "async (sdp) => ((await import('./app.js')).modules['transport/codec/code.js'])"
                ".packConnectionCode(sdp, 'offer').code",
                SAMPLE_SDP,
            )
            garbled = flipped(code)
        join(page, garbled)
        error = page.wait_for_selector("[data-testid=join-error]:visible", timeout=STEP_MS)
        assert "damaged" in error.inner_text() and "ask for it again" in error.inner_text()
        assert page.locator("[data-testid=start-screen]").count() == 1
        shot(page, "live-garbled-code", full_page=False)


@pytest.mark.deep
@needs_route
def test_both_choose_and_seal_the_same_turn_without_waiting(
    players: dict[int, Any], shot: Shot
) -> None:
    """Live, an owed reveal goes at once, so both players write each turn's orders at the same
    time: whoever seals first, the other is never kept from its own orders screen, and the turn
    resolves as soon as the second one seals."""
    host, guest = players[0], players[1]
    connect(players)
    act(host)  # turn 1: the guest's orders came with its acceptance
    # Turn 2: the guest, whose reveal went alone, seals first, while the host is still choosing;
    # turn 3: the other way round.
    for turn, first, second in ((2, guest, host), (3, host, guest)):
        for page in (host, guest):
            page.wait_for_selector(
                f"[data-testid=orders-screen][data-turn='{turn}']", timeout=STEP_MS
            )
        assert (screen_state(first) or {}).get("state") == "waiting"  # not its move, yet it writes
        write_orders(first)
        first.wait_for_selector("[data-testid=remote-screen][data-queued=true]", timeout=STEP_MS)
        assert "go as soon as" in first.inner_text("[data-testid=remote-panel]")
        second.wait_for_selector("[data-testid=live-presence][data-peer=sealed]", timeout=STEP_MS)
        if turn == 2:
            shot(second, "live-opponent-sealed-first")
        write_orders(second)
        # Nothing more from either player: the turn resolves on both sides.
        for page in (host, guest):
            page.wait_for_selector(
                f"[data-testid=orders-screen][data-turn='{turn}']",
                state="detached",
                timeout=STEP_MS,
            )
    for page in (host, guest):
        assert live_status(page) == "connected"


def log_items(page: Any) -> list[list[str]]:
    """The battle log's lines in order: [kind ('chat', 'head' or the event type), turn, text]."""
    items: list[list[str]] = page.eval_on_selector_all(
        "[data-testid=battle-log] > li",
        """els => els.map(e => [
          e.dataset.testid === 'log-chat' ? 'chat'
            : e.classList.contains('turn-head') ? 'head' : e.dataset.type,
          e.dataset.turn, e.textContent])""",
    )
    return items


def assert_in_time_line(page: Any) -> None:
    """Turn 1's chat, then turn 1's events, then turn 2's heading, then turn 2's chat."""
    items = log_items(page)
    at = {text: i for i, (kind, _, text) in enumerate(items) if kind == "chat"}
    ready = next(i for t, i in at.items() if "Ready" in t)
    luck = next(i for t, i in at.items() if "Good luck" in t)
    events_1 = [
        i for i, (kind, turn, _) in enumerate(items) if turn == "1" and kind not in ("chat", "head")
    ]
    head_2 = next(i for i, (kind, turn, _) in enumerate(items) if kind == "head" and turn == "2")
    assert events_1, items
    assert ready < min(events_1) and max(events_1) < head_2 < luck, items
    assert items[ready][1] == "1" and items[luck][1] == "2", items


@needs_route
def test_chat_beside_the_duel_is_plain_text_in_the_battle_logs_time_line(
    players: dict[int, Any], shot: Shot
) -> None:
    """Chat said live goes into both battle logs under the turn it was said in, as text with the
    speaker's name isolated; the box stays beside the duel; the saved duel keeps it on reload."""
    host, guest = players[0], players[1]
    connect(players)
    guest.fill("[data-testid=chat-text]", "<b>Ready</b> & waiting")
    guest.press("[data-testid=chat-text]", "Enter")
    line = host.wait_for_selector(f"{LOG_CHAT}[data-from=them]", timeout=STEP_MS)
    # Shown as text: the markup arrives as characters, never as an element.
    assert line.inner_text().endswith("<b>Ready</b> & waiting"), line.inner_text()
    assert line.get_attribute("data-turn") == "1"
    assert line.eval_on_selector("bdi.who", "e => e.textContent") == NAMES[1]
    assert host.locator("[data-testid=battle-log] b").count() == 0
    # The newest line is also beside the box, so a reply is seen without scrolling.
    assert host.inner_text("[data-testid=chat-last]").endswith("<b>Ready</b> & waiting")
    # The box takes no more than the limit; what is typed survives the panel's redraws.
    host.fill("[data-testid=chat-text]", "x" * 400)
    assert len(host.input_value("[data-testid=chat-text]")) == 300
    host.fill("[data-testid=chat-text]", "half a thought")
    act(host)  # sealing turn 1 redraws the screen and the panel; turn 1 resolves
    for page in (host, guest):
        page.wait_for_selector("[data-testid=orders-screen][data-turn='2']", timeout=STEP_MS)
    host.wait_for_selector("[data-testid=chat-text]", timeout=STEP_MS)
    assert host.input_value("[data-testid=chat-text]") == "half a thought"
    host.fill("[data-testid=chat-text]", "Good luck")
    host.click("[data-testid=chat-send]")
    said = guest.wait_for_selector(f"{LOG_CHAT}[data-from=them]", timeout=STEP_MS)
    assert said.get_attribute("data-turn") == "2"
    host.wait_for_selector(f"{LOG_CHAT}[data-from=me]", timeout=STEP_MS)
    for page in (host, guest):
        assert_in_time_line(page)
    said.scroll_into_view_if_needed()
    shot(guest, "live-chat")
    # On a phone the box is still beside the duel and the log's chat line fits the width.
    guest.set_viewport_size({"width": 375, "height": 812})
    said.scroll_into_view_if_needed()
    box = said.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 375, box
    assert guest.is_visible("[data-testid=chat-text]")
    shot(guest, "live-chat-phone")
    # The chat is kept with the saved duel: after a reload the log still shows it at its turns.
    guest.reload()
    guest.wait_for_selector("[data-testid=orders-screen][data-turn='2']", timeout=STEP_MS)
    guest.wait_for_selector(f"{LOG_CHAT}[data-from=them]", timeout=STEP_MS)
    assert_in_time_line(guest)


@pytest.mark.deep
@needs_route
def test_play_by_codes_only_is_told_to_the_host(players: dict[int, Any], shot: Shot) -> None:
    """The guest turns down the host's mid-duel connection offer ("Connect live?" -> "Play by
    codes only"): the guest's next code carries a decline (docs/webrtc.md, "Declining"), and the
    host's page, pasting it, stops waiting and says why in words; neither side bundles a
    connection code after that."""
    host, guest = players[0], players[1]
    invite(host, guest, "codes")
    deliver(host, code_after_acting(guest))
    # The host offers to play live: the offer goes with its next code.
    host.click("[data-testid=live-panel] > summary")
    host.click("[data-testid=live-start]")
    host.wait_for_selector("[data-testid=live-bundled]", timeout=CONNECT_MS)
    offered = code_after_acting(host)
    assert " WHC1." in offered, offered
    paste(guest, offered)
    guest.wait_for_selector("[data-testid=connect-inviter]", timeout=STEP_MS)
    guest.click("[data-testid=connect-codes]")
    declined = code_after_acting(guest)  # turn 2's orders: their code carries the decline
    assert declined.startswith("WH1.") and " WHA1." in declined, declined
    assert "it also tells them you play by codes only" in guest.inner_text(
        "[data-testid=remote-panel]"
    )
    deliver(host, declined)
    why = host.wait_for_selector("[data-testid=live-why][data-reason=declined]", timeout=STEP_MS)
    assert why.inner_text().startswith(
        f"{NAMES[1]} chose to play by codes only, so no live connection was made"
    ), why.inner_text()
    assert live_status(host) == "disconnected"
    shot(host, "live-declined-host")
    # The host stops offering, and once its next code comes the guest stops declining.
    plain = code_after_acting(host)
    assert "WHC1." not in plain, plain
    deliver(guest, plain)
    assert "WHA1." not in code_after_acting(guest)


# What a host page does with the answer it gets (as every page has since live play began): read
# it with the version-1 codec, then give it to the browser.  The decline must pass both, so a
# page that predates it applies the turn code beside it and only fails to connect.  The codec is
# the page's own module as web/ holds it (e2e/remote_play.py's `rtc_site`; the build bundles it
# as it is), in a page that boots no engine: none is needed to read a code or to give it to
# Chromium.
OLD_HOST_JS = """async () => {
  const codec = await import('/transport/codec/code.js');
  const pc = new RTCPeerConnection();
  pc.createDataChannel('t');
  await pc.setLocalDescription(await pc.createOffer());
  const offer = pc.localDescription.sdp;
  const declined = codec.packDecline(offer);
  const read = codec.unpackConnectionCode(`WH1.AAAA ${declined.code}`,
    { expect: 'answer', offerSdp: offer });
  let applied = 'yes';
  try {
    await pc.setRemoteDescription({ type: 'answer', sdp: read.sdp });
  } catch (err) {
    applied = String(err);
  }
  pc.close();
  const decline = read.ok && codec.isDecline(read.fields);
  return { code: declined.code, read: read.ok, decline, applied };
}"""


def test_a_decline_is_an_answer_an_older_host_page_accepts(
    live_browser: Any, rtc_site: str
) -> None:
    ctx = live_browser.new_context()
    try:
        page = ctx.new_page()
        page.goto(f"{rtc_site}/transport/")
        result = page.evaluate(OLD_HOST_JS)
    finally:
        ctx.close()
    assert result["code"].startswith("WHA1."), result
    assert result["read"] and result["decline"], result
    assert result["applied"] == "yes", result


@pytest.mark.deep
@needs_route
def test_a_decline_for_a_connection_no_page_waits_on_is_quietly_done(
    players: dict[int, Any]
) -> None:
    """The host's page reloaded after sending its invitation (its offer is gone: live
    connections are not saved); the guest accepts "play by codes only": the acceptance, decline
    and all, is applied, with no error about a connection code."""
    host, guest = players[0], players[1]
    begin(host, "live", NAMES[0])
    host.wait_for_selector("[data-testid=live-bundled]", timeout=CONNECT_MS)
    invitation = code_to_send(host)
    host.reload()
    host.wait_for_selector("[data-testid=remote-screen]", timeout=STEP_MS)
    join(guest, invitation)
    guest.fill("[data-testid=accept-name]", NAMES[1])
    guest.click("[data-testid=accept-codes]")
    guest.wait_for_selector("[data-testid=orders-screen]", timeout=STEP_MS)
    acceptance = code_after_acting(guest)
    assert " WHA1." in acceptance, acceptance
    deliver(host, acceptance)
    host.wait_for_selector("[data-testid=remote-screen][data-state=your_input]", timeout=STEP_MS)
    note = host.locator("[data-testid=remote-note]", has_text="chose to play by codes only")
    note.wait_for(timeout=STEP_MS)  # (after the 1.5 s in which another tab could claim it)
    said = f"\u2068{NAMES[1]}\u2069 chose to play by codes only: the duel goes on by codes."
    assert note.inner_text() == said
    assert host.locator("[data-testid=live-error]").count() == 0
    assert host.locator("[data-testid=remote-error]").count() == 0
