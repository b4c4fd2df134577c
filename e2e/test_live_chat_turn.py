"""A live chat line carries its sender's turn (issue 11; docs/webrtc.md, "Chat").

Two pages connect live (as e2e/test_live.py). A probe, installed before the page's own scripts,
records what each page sends on its data channel and lets the test post an envelope on it as a
page of another version would. Checked: a line sent from the box carries the sender's turn
(`n`); the receiver files a line under the stamped turn (one ahead of its own included), not the
turn it is in when the line arrives; a stamp no one has reached, or none (an older page), goes
under the receiver's own turn.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")

from conftest import Shot
from remote_play import (
    FILL_JS,
    FREE_JS,
    LOG_CHAT,
    STEP_MS,
    act,
    connect,
    live_browser,
    needs_route,
    screen_state,
    two_players,
)

__all__ = ["live_browser"]  # remote_play's fixture, used by `players`

PROBE = """(() => {
  const channels = [];
  const sent = [];
  const make = RTCPeerConnection.prototype.createDataChannel;
  RTCPeerConnection.prototype.createDataChannel = function (...args) {
    const channel = make.apply(this, args);
    const send = channel.send.bind(channel);
    channel.send = (data) => { sent.push(String(data)); return send(data); };
    channels.push(channel);
    return channel;
  };
  window.__chatProbe = { channels, sent };
})();"""


@pytest.fixture
def players(live_browser: Any, server_url: str) -> Iterator[dict[int, Any]]:
    """Host 0 and guest 1 in their own contexts, with the probe, on the start screen."""
    with two_players(live_browser, server_url, init_script=PROBE) as pages:
        yield pages


def chats_sent(page: Any) -> list[dict[str, Any]]:
    """The chat envelopes this page has sent on its data channel."""
    sent = page.evaluate("() => window.__chatProbe.sent.slice()")
    return [m for m in (json.loads(s) for s in sent) if m.get("t") == "chat"]


def post_raw(page: Any, envelope: dict[str, Any]) -> None:
    """Send an envelope on this page's open data channel, as another page's code might."""
    page.evaluate(
        """(text) => {
          const open = window.__chatProbe.channels.filter((c) => c.readyState === 'open');
          open[open.length - 1].send(text);
        }""",
        json.dumps(envelope),
    )


def line_turn(page: Any, text: str) -> str:
    """The turn under which the battle log files the opponent's chat line with this text."""
    line = page.locator(f"{LOG_CHAT}[data-from=them]", has_text=text)
    line.wait_for(timeout=STEP_MS)
    return line.get_attribute("data-turn") or ""


@pytest.mark.deep
@needs_route
def test_a_chat_line_is_filed_under_its_senders_turn(players: dict[int, Any], shot: Shot) -> None:
    host, guest = players[0], players[1]
    connect(players)  # the host writes turn 1; the guest has sealed it
    assert (screen_state(host) or {}).get("turn") == "1"
    guest.fill("[data-testid=chat-text]", "Said in turn one")
    guest.press("[data-testid=chat-text]", "Enter")
    assert line_turn(host, "Said in turn one") == "1"
    assert chats_sent(guest)[-1] == {"t": "chat", "m": "Said in turn one", "n": 1}

    # The sender may be a turn ahead (it resolved the turn first): its line goes under its turn.
    post_raw(guest, {"t": "chat", "m": "From turn two", "n": 2})
    assert line_turn(host, "From turn two") == "2"
    # A turn no one has reached, or no stamp (an older page): under the receiver's turn.
    post_raw(guest, {"t": "chat", "m": "From turn fifty", "n": 50})
    assert line_turn(host, "From turn fifty") == "1"
    post_raw(guest, {"t": "chat", "m": "From an older page"})
    assert line_turn(host, "From an older page") == "1"

    act(host)  # turn 1 resolves on both sides
    for page in (host, guest):
        page.wait_for_selector(
            "[data-testid=remote-screen][data-turn='2']", timeout=STEP_MS
        )
    host.fill("[data-testid=chat-text]", "Now in turn two")
    host.press("[data-testid=chat-text]", "Enter")
    assert line_turn(guest, "Now in turn two") == "2"
    assert chats_sent(host)[-1]["n"] == 2
    shot(host, "live-chat-turns")


CHAT_STORED_JS = """() => {
  const id = Object.keys(localStorage).find((k) => /^wavinghands:v1:game:r-/.test(k));
  return (JSON.parse(localStorage.getItem(id)).chat || []).map((line) => line.text);
}"""


@needs_route
def test_a_chat_line_that_cannot_be_saved_says_so_and_is_kept(
    players: dict[int, Any], shot: Shot
) -> None:
    """Storage full: the line stays on the screen, the player is told, and "Save now" stores it
    (with one that came meanwhile) once there is room."""

    host, guest = players[0], players[1]
    connect(players)
    assert guest.evaluate(FILL_JS) > 0
    guest.fill("[data-testid=chat-text]", "Said while full")
    guest.press("[data-testid=chat-text]", "Enter")
    error = guest.locator("[data-testid=remote-error][data-code=storage-full]")
    error.wait_for(timeout=STEP_MS)
    assert "Chat not saved" in error.inner_text()
    assert "the last chat line was not saved" in error.inner_text()
    assert line_turn(host, "Said while full") == "1"  # it went all the same
    mine = guest.locator(f"{LOG_CHAT}[data-from=me]", has_text="Said while full")
    mine.wait_for(state="attached", timeout=STEP_MS)  # in the (folded) battle log
    assert guest.evaluate(CHAT_STORED_JS) == []

    host.fill("[data-testid=chat-text]", "Answered meanwhile")
    host.press("[data-testid=chat-text]", "Enter")
    theirs = guest.locator(f"{LOG_CHAT}[data-from=them]", has_text="Answered meanwhile")
    theirs.wait_for(state="attached", timeout=STEP_MS)
    guest.locator("[data-testid=remote-error]", has_text="the last 2 chat lines were").wait_for(
        timeout=STEP_MS
    )
    shot(guest, "live-chat-unsaved")

    guest.evaluate(FREE_JS)
    guest.click("[data-testid=save-chat-again]")
    error.wait_for(state="detached", timeout=STEP_MS)
    assert guest.evaluate(CHAT_STORED_JS) == ["Said while full", "Answered meanwhile"]
    # Stored once: the screen shows each line once.
    assert guest.locator(LOG_CHAT, has_text="Said while full").count() == 1
