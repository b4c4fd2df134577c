"""Play by codes (web/remote.js) through the real page in Debian's Chromium, engine in Pyodide.

Two browser contexts are the two players; the test is the clipboard and the chat between them.
A whole duel is played by codes: on the way a tampered code and a code from another game are
pasted (each shows its error and changes nothing), a code is pasted twice (harmless), and the
guest's page is reloaded while its sealed orders wait for the host's answer. A second whole duel
travels by links only: the invitation opens a fresh page, one link opens in a new tab of a page
already showing the duel, the others in the same tab. Screenshots go to test-output/remote-*.png.

Fixtures `browser`, `server_url` and `shot` come from e2e/conftest.py; the duel's driver is
e2e/remote_play.py.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")

from conftest import Shot
from duel_play import gesture_pad, script_row
from remote_play import (
    NAMES,
    SCRIPT,
    STEP_MS,
    Script,
    accept,
    begin,
    code_to_send,
    deliver,
    flipped,
    join,
    link_to_send,
    open_site,
    paste,
    play,
    remote_screen,
    screen_state,
    two_players,
    wait_changed,
)
from waiting import poll

ROOT = Path(__file__).resolve().parent.parent
# remote_play.SCRIPT with Bob's time stop (S, P, P on his right hand, then a clap with both) cast
# on turn 4 instead of turn 7: Bob's decision (after turn 3), Alice's (after turn 4) and his
# time-stopped turn 5 all come by turn 5, and the host's surrender ends the duel on turn 6, not 9.
QUICK: Script = {0: SCRIPT[0], 1: ["FS", "FP", "FP", "CC", "D>", "S-", "D-"]}


def a_pick_survives_a_reload(page: Any) -> bool:
    """If `page` shows its orders form: pick the left hand's scripted gesture (QUICK), reload,
    and assert the pick is back on the form (the guide: nothing a player picked is ever thrown
    away).  Returns whether the form was there to check."""
    screen = page.locator("[data-testid=orders-screen]")
    if screen.count() == 0:
        return False
    wizard = int(screen.get_attribute("data-wizard") or "")
    turn = int(screen.get_attribute("data-turn") or "")
    pad = gesture_pad("L", script_row(QUICK, wizard, turn)[0])
    page.check(pad)
    # The pick is written under the duel's own drafts key (web/store), marked as the orders
    # being written (web/flows/remote/drafts.js keepWriting), once the page has it.
    page.wait_for_function(
        """(turn) => Object.keys(localStorage).some((k) => k.includes(':drafts:')
             && localStorage.getItem(k).includes('"writing":true')
             && localStorage.getItem(k).includes(`"turn":${turn}`))""",
        arg=turn,
        timeout=STEP_MS,
    )
    page.reload()
    page.wait_for_function("window.__appReady === true", timeout=STEP_MS, polling=100)
    page.wait_for_selector(
        f"[data-testid=orders-screen][data-turn='{turn}'] {pad}", timeout=STEP_MS
    )
    assert page.is_checked(pad), f"turn {turn}'s pick was lost in the reload"
    return True


@pytest.fixture
def players(browser: Any) -> Iterator[dict[int, Any]]:
    """Host 0 and guest 1, each in a browser context of its own (storage, clipboard)."""
    with two_players(browser, permissions=["clipboard-read", "clipboard-write"]) as pages:
        yield pages


def code_of_another_game() -> str:
    """A genuine turn code of a game these pages do not play (made by the engine in Python)."""
    sys.path.insert(0, str(ROOT / "engine"))
    try:
        from wavinghands.remote import session
    finally:
        sys.path.remove(str(ROOT / "engine"))
    invitation = session.create_invitation("Carol", {}, os.urandom)
    assert invitation.code is not None
    guest = session.accept_invitation(invitation.code, "Dave")
    sealed = session.seal(guest, {"gestures": [["P", "W"]]})
    assert sealed.code is not None
    return sealed.code


def expect_error(page: Any, code: str, before: dict[str, str] | None) -> str:
    """The error box shows this error code, and the game has not moved."""
    box = page.wait_for_selector(f"[data-testid=remote-error][data-code={code}]", timeout=STEP_MS)
    text: str = box.inner_text()
    assert "Nothing in your game changed" in text
    assert screen_state(page) == before, "an error must change nothing"
    return text


def finish_checks(pages: dict[int, Any]) -> str:
    """Both pages show the same result of the duel; returns it."""
    titles: dict[int, str] = {w: pages[w].inner_text("[data-testid=result-title]") for w in (0, 1)}
    assert titles[0] == titles[1], titles
    assert titles[0] in ("Alice wins", "Bob wins", "A draw")
    for w in (0, 1):
        assert pages[w].locator("[data-testid=battle-log] li").count() > 5
    return titles[0]


def test_a_duel_by_codes_survives_bad_pastes_and_a_reload(
    players: dict[int, Any], server_url: str, shot: Shot
) -> None:
    host, guest = players[0], players[1]
    open_site(host, server_url)
    open_site(guest, server_url)
    begin(host, "codes", NAMES[0])
    host.wait_for_selector("[data-testid=remote-code]", timeout=STEP_MS)
    assert remote_screen(host)["state"] == "awaiting_accept"
    invitation = code_to_send(host)
    assert invitation.startswith("WH1.")
    assert "#c=WH1." in link_to_send(host)
    # The Copy button puts exactly the code on the clipboard.
    host.click("[data-testid=remote-code-copy]")
    host.wait_for_selector("[data-testid=remote-code-copied]:has-text('Copied')")
    assert host.evaluate("navigator.clipboard.readText()") == invitation
    shot(host, "remote-invitation")

    # The guest pastes the invitation into the start screen's box.
    join(guest, invitation)
    guest.wait_for_selector("[data-testid=accept-name]", timeout=STEP_MS)
    assert "Alice challenges you" in guest.inner_text("dialog[data-testid=accept]")
    shot(guest, "remote-accept", full_page=False)
    accept(guest, NAMES[1])
    shot(guest, "remote-guest-orders")

    checked = {"tamper": False, "reload": False, "twice": False, "writing": False}
    other_game = code_of_another_game()

    def carry(w: int) -> None:
        sender, receiver = players[w], players[1 - w]
        code = code_to_send(sender)
        state = remote_screen(sender)
        turn = int(state["turn"])
        if w == 1 and not checked["reload"] and turn >= 5 and state["state"] == "waiting":
            # Reload while the guest's sealed orders wait for the host's answer: the pending
            # commitment, its secret and the code to send must all survive.
            guest.reload()
            guest.wait_for_function("window.__appReady === true", timeout=STEP_MS, polling=100)
            guest.wait_for_selector("[data-testid=remote-code]", timeout=STEP_MS)
            assert screen_state(guest) == state
            assert code_to_send(guest) == code
            checked["reload"] = True
            shot(guest, "remote-waiting-after-reload")
        if w == 1 and not checked["tamper"] and turn >= 3:
            before = screen_state(receiver)
            paste(receiver, flipped(code))
            text = expect_error(receiver, "corrupted", before)
            assert "damaged" in text
            shot(receiver, "remote-error-corrupted")
            paste(receiver, other_game)
            text = expect_error(receiver, "not-this-game", before)
            assert "another game" in text
            shot(receiver, "remote-error-other-game")
            checked["tamper"] = True
        deliver(receiver, code)
        if w == 0 and not checked["writing"] and turn >= 2:
            checked["writing"] = a_pick_survives_a_reload(receiver)
        if w == 0 and not checked["twice"] and checked["tamper"]:
            # Pasting the same code again is harmless.
            before = screen_state(receiver)
            paste(receiver, code)
            receiver.wait_for_selector(
                "[data-testid=remote-note]:has-text('Already applied')", timeout=STEP_MS
            )
            assert screen_state(receiver) == before
            checked["twice"] = True

    asked: set[tuple[int, str]] = set()

    def on_step(w: int, need: str) -> None:
        asked.add((w, need))
        if (w, "shot") not in asked and w == 0 and remote_screen(host)["turn"] == "2":
            shot(host, "remote-host-waiting")
            asked.add((w, "shot"))

    # The host's invitation has reached the guest; the guest's first code is still to come.
    # Past both decisions and the guest's time-stopped turn (turn 5), the host surrenders.
    play(players, carry, {0: 1, 1: 0}, on_step=on_step, surrender_from=6, script=QUICK)
    assert all(checked.values()), checked
    result = finish_checks(players)
    shot(host, "remote-game-over")
    # Each side had a decision to make, and the guest a time-stopped turn of his own.
    assert {(0, "decision"), (1, "decision"), (1, "time_stop")} <= asked, asked
    assert host.locator("[data-testid=history-1] abbr[title='time-stopped turn']").count() == 1
    # The finished duel is listed with its result.
    host.click("[data-testid=new-duel]")
    host.wait_for_selector("[data-testid=saved-games] li")
    assert "Play by codes" in host.inner_text("[data-testid=saved-games]")
    assert result.split()[0] in host.inner_text("[data-testid=saved-games]")


def test_a_duel_by_links(players: dict[int, Any], server_url: str, shot: Shot) -> None:
    host, guest = players[0], players[1]
    open_site(host, server_url)
    begin(host, "codes", NAMES[0])
    host.wait_for_selector("[data-testid=remote-code-link]", timeout=STEP_MS)
    link = link_to_send(host)
    assert link.startswith(server_url) and "#c=WH1." in link

    # The guest, on a phone, opens the invitation link: a fresh page, straight to the invitation.
    guest.set_viewport_size({"width": 375, "height": 812})
    open_site(guest, link)
    accept(guest, NAMES[1])
    assert "#" not in guest.url, "the code leaves the address bar once read"
    phone_shots: set[str] = set()

    def fits_the_phone(name: str) -> None:
        width = guest.evaluate("document.documentElement.scrollWidth")
        assert width <= 375, f"the {name} screen scrolls sideways at 375px ({width}px wide)"
        if name not in phone_shots:
            shot(guest, f"remote-phone-{name}")
            phone_shots.add(name)

    opened_in_new_tab = {"done": False}

    def carry(w: int) -> None:
        receiver = players[1 - w]
        url = link_to_send(players[w])
        assert "#c=WH1." in url
        before = screen_state(receiver)
        if w == 1 and not opened_in_new_tab["done"]:
            # The host clicks the link in a chat: it opens in a new tab of the same browser; the
            # tab already showing the duel catches up by itself.
            tab = receiver.context.new_page()
            open_site(tab, url)
            wait_changed(tab, before)
            wait_changed(receiver, before)
            # The open tab redraws on each save the new tab makes: wait until the two agree.
            poll(
                lambda: (screen_state(tab), screen_state(receiver)),
                lambda both: both[0] == both[1],
                timeout_s=STEP_MS / 1000,
                what="the open tab to show what the link's tab shows",
            )
            tab.close()
            opened_in_new_tab["done"] = True
            return
        receiver.goto(url)
        wait_changed(receiver, before)
        if receiver is guest and remote_screen(guest).get("need") == "orders":
            fits_the_phone("orders")

    def on_step(w: int, need: str) -> None:
        if w == 1 and remote_screen(guest)["state"] == "waiting":
            fits_the_phone("waiting")

    # Past the new tab and the phone's screens, the host surrenders: the duel ends by links.
    play(players, carry, {0: 1, 1: 0}, on_step=on_step, surrender_from=3)
    assert opened_in_new_tab["done"]
    finish_checks(players)
    fits_the_phone("game-over")


def test_the_invitation_as_a_qr_code(players: dict[int, Any], server_url: str, shot: Shot) -> None:
    """The link to send is drawn as a QR code by the vendored generator, module for module."""
    host = players[0]
    open_site(host, server_url)
    begin(host, "codes", NAMES[0])
    host.wait_for_selector("[data-testid=remote-code-link]", timeout=STEP_MS)
    link = link_to_send(host)
    host.click("[data-testid=remote-code-qr-open]")
    svg = host.wait_for_selector("[data-testid=remote-code-qr] svg.qr", timeout=STEP_MS)
    expected = host.evaluate(
        """async (text) => {
          const { encode } = await import('./vendor/uqr.mjs');
          const { size, data } = encode(text, { ecc: 'L', border: 4 });
          let d = '';
          data.forEach((row, y) => row.forEach((on, x) => { if (on) d += `M${x} ${y}h1v1h-1z`; }));
          return { size, d };
        }""",
        link,
    )
    assert svg.get_attribute("data-size") == str(expected["size"])
    assert svg.query_selector("path").get_attribute("d") == expected["d"]
    # A link of this length fits a QR code a phone camera reads (version 10 or less: <= 65 modules).
    assert expected["size"] - 8 <= 57, expected["size"]
    shot(host, "remote-invitation-qr")
