"""Live transport (web/transport/webrtc.js) in real Chromium: two browser contexts connect on this
machine through connection codes, exchange turn-code strings and presence, see garbled codes
rejected with clear errors, and see a closed or vanished peer reported as disconnected.

The module is served straight from web/ by build.py's server (the build copies it unchanged) and
imported into each page with a dynamic import(). Chromium runs with WebRtcHideLocalIpsWithMdns
disabled, so candidates carry this machine's plain addresses and no mDNS query is multicast onto
the network; the mDNS form of the codes is covered by tests/js/codec-rtc.test.mjs with SDPs
captured from Chromium.

ICE gathering needs a network interface other than loopback with a default route; on a machine
without one, the tests that connect are skipped and say so.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from conftest import WEBRTC_ARGS
from remote_play import SAMPLE_SDP, needs_route, rtc_site

ROOT = Path(__file__).resolve().parent.parent
WEB = ROOT / "web"
CONNECT_MS = 20_000

__all__ = ["rtc_site"]  # remote_play's fixture: the transport's module served from web/


@pytest.fixture(scope="module")
def rtc_browser(launch_chromium: Callable[..., Any]) -> Any:
    """The worker's Chromium with plain ICE addresses (e2e/conftest.py's launch_chromium)."""
    return launch_chromium(WEBRTC_ARGS)


SETUP_JS = """async () => {
  window.__m = await import('/transport/webrtc.js');
  // Transports return codes; the page's sentences for them are ui/words/'s.
  window.__w = await import('/ui/words/index.js');
  window.__log = { status: [], messages: [], presence: [] };
  window.__watch = (t) => {
    window.__t = t;
    t.onStatus((s, d) => __log.status.push([s, d.reason, __w.say('live-' + d.reason)]));
    t.onMessage((c) => __log.messages.push(c));
    t.onPresence((p) => __log.presence.push(p));
  };
}"""

HOST_JS = """async (opts) => {
  const r = await __m.startHost(opts || {});
  if (!r.ok) return r;
  window.__host = r;
  __watch(r.transport);
  return { ok: true, code: r.code, link: r.link };
}"""

GUEST_JS = """async ([text, opts]) => {
  const r = await __m.startGuest(text, opts || {});
  if (!r.ok) return r;
  __watch(r.transport);
  return { ok: true, code: r.code, link: r.link };
}"""


def open_page(context: Any, site: str) -> Any:
    page = context.new_page()
    # Any page of the site will do: the module only needs the site's origin to be imported.
    page.goto(f"{site}/transport/")
    page.evaluate(SETUP_JS)
    return page


def wait_status(page: Any, status: str, timeout: int = CONNECT_MS) -> None:
    page.wait_for_function(
        "(s) => window.__t && window.__t.status === s", arg=status, timeout=timeout
    )


@pytest.fixture
def pair(rtc_browser: Any, rtc_site: str) -> Iterator[tuple[Any, Any]]:
    """Two pages in two separate browser contexts (two players on one machine)."""
    a = rtc_browser.new_context()
    b = rtc_browser.new_context()
    try:
        yield open_page(a, rtc_site), open_page(b, rtc_site)
    finally:
        a.close()
        b.close()


def connect(
    host: Any, guest: Any, *, host_opts: dict[str, Any] | None = None
) -> tuple[dict[str, Any], dict[str, Any]]:
    offer = host.evaluate(HOST_JS, host_opts)
    assert offer["ok"], offer
    answer = guest.evaluate(GUEST_JS, [offer["code"], None])
    assert answer["ok"], answer
    accepted = host.evaluate("(t) => __host.acceptAnswer(t)", answer["code"])
    assert accepted == {"ok": True}, accepted
    wait_status(host, "connected")
    wait_status(guest, "connected")
    return offer, answer


@needs_route
def test_two_contexts_connect_and_carry_turn_codes(pair: tuple[Any, Any]) -> None:
    host, guest = pair
    offer = host.evaluate(HOST_JS)
    assert offer["ok"], offer
    assert offer["code"].startswith("WHC1.")
    assert "#rtc=WHC1." in offer["link"]
    assert len(offer["code"]) < 200

    # The guest opens the whole link; the host pastes the answer as a chat program wrapped it.
    answer = guest.evaluate(GUEST_JS, [f"join me: {offer['link']}", None])
    assert answer["ok"], answer
    assert answer["code"].startswith("WHA1.")
    code = answer["code"]
    wrapped = f"here you go\n{code[:50]}\n{code[50:100]}\n{code[100:]}\n"
    assert host.evaluate("(t) => __host.acceptAnswer(t)", wrapped) == {"ok": True}
    # The same answer again, as a link this time, is harmless.
    assert host.evaluate("(t) => __host.acceptAnswer(t)", answer["link"]) == {"ok": True}

    wait_status(host, "connected")
    wait_status(guest, "connected")
    host_log = host.evaluate("() => __log.status.map(s => s.slice(0, 2))")
    assert host_log == [
        ["connecting", "waiting-answer"],
        ["connecting", "checking"],
        ["connected", "open"],
    ]
    assert guest.evaluate("() => __log.status.map(s => s.slice(0, 2))") == [
        ["connecting", "waiting-host"],
        ["connected", "open"],
    ]

    # Opaque turn-code strings both ways, in order.
    for i in range(5):
        assert host.evaluate("(c) => __t.send(c)", f"WH1.host-{i}") == {"ok": True}
        assert guest.evaluate("(c) => __t.send(c)", f"WH1.guest-{i}") == {"ok": True}
    guest.wait_for_function("() => __log.messages.length === 5")
    host.wait_for_function("() => __log.messages.length === 5")
    assert guest.evaluate("() => __log.messages") == [f"WH1.host-{i}" for i in range(5)]
    assert host.evaluate("() => __log.messages") == [f"WH1.guest-{i}" for i in range(5)]

    # Presence travels apart from turn codes.
    assert guest.evaluate("() => __t.setPresence('choosing')") == {"ok": True}
    assert guest.evaluate("() => __t.setPresence('sealed')") == {"ok": True}
    host.wait_for_function("() => __t.peerPresence === 'sealed'")
    assert host.evaluate("() => __log.presence") == [None, "choosing", "sealed"]
    assert host.evaluate("() => __log.messages.length") == 5
    bad = guest.evaluate("() => __t.setPresence('cheating')")
    assert bad["ok"] is False and bad["error"]["code"] == "bad-presence"


@needs_route
def test_answer_link_opened_in_another_tab_reaches_the_host(
    rtc_browser: Any, rtc_site: str
) -> None:
    host_ctx = rtc_browser.new_context()
    guest_ctx = rtc_browser.new_context()
    try:
        host = open_page(host_ctx, rtc_site)
        guest = open_page(guest_ctx, rtc_site)
        offer = host.evaluate(HOST_JS)
        answer = guest.evaluate(GUEST_JS, [offer["code"], None])
        # The host clicks the answer link in a chat: it opens in a new tab of the same browser.
        tab = open_page(host_ctx, rtc_site)
        # The host's tab must unpack the answer and apply it before it claims it: bounded by
        # CONNECT_MS, not the page's 1.5 s default, which a busy machine can overrun.  The call
        # returns as soon as the claim comes.
        got = tab.evaluate(
            "([t, ms]) => __m.deliverAnswerToOpenTab(t, ms)", [answer["link"], CONNECT_MS]
        )
        assert got == {"ok": True, "delivered": True}
        wait_status(host, "connected")
        wait_status(guest, "connected")
        # No host tab waits any more: the answer is not claimed again.
        again = tab.evaluate("(t) => __m.deliverAnswerToOpenTab(t, 500)", answer["link"])
        assert again == {"ok": True, "delivered": False}
    finally:
        host_ctx.close()
        guest_ctx.close()


def _flip(code: str, i: int) -> str:
    ch = code[i]
    return code[:i] + ("B" if ch != "B" else "C") + code[i + 1 :]


@needs_route
def test_garbled_and_wrong_codes_get_clear_errors(pair: tuple[Any, Any]) -> None:
    host, guest = pair
    offer = host.evaluate(HOST_JS)
    code = offer["code"]

    def guest_error(text: str) -> dict[str, Any]:
        r = guest.evaluate(GUEST_JS, [text, None])
        assert r["ok"] is False, r
        assert "message" not in r["error"], r["error"]
        error: dict[str, Any] = r["error"]
        # The sentence the page shows for it.
        error["message"] = guest.evaluate("(e) => __w.sayError(e)", r["error"])
        return error

    damaged = guest_error(_flip(code, len(code) // 2))
    assert damaged["code"] == "damaged"
    assert "damaged" in damaged["message"] and "ask for it again" in damaged["message"]
    assert guest_error(code[:-7])["code"] == "damaged"
    assert guest_error(offer["link"].replace("WHC1.", "WHC2."))["code"] == "version"
    assert "newer version" in guest_error(code.replace("WHC1.", "WHC7."))["message"]
    assert guest_error("good luck!")["code"] == "not-a-code"
    assert "turn code" in guest_error("WH1.AQIDBAUGBwgJCgsM")["message"]
    assert guest_error("   ")["code"] == "empty"

    # An answer pasted where an invitation is expected, and the reverse.
    answer = guest.evaluate(GUEST_JS, [code, None])
    assert answer["ok"], answer
    wrong = guest_error(answer["code"])
    assert wrong["code"] == "wrong-kind" and "answer code" in wrong["message"]
    own = host.evaluate("(t) => __host.acceptAnswer(t)", code)
    assert own["ok"] is False and own["error"]["code"] == "wrong-kind"
    damaged_answer = host.evaluate("(t) => __host.acceptAnswer(t)", _flip(answer["code"], 20))
    assert damaged_answer["error"]["code"] == "damaged"

    # An answer to an older invitation is recognised as such.
    newer = host.evaluate(HOST_JS)
    assert newer["ok"]
    stale = host.evaluate("(t) => __host.acceptAnswer(t)", answer["code"])
    assert stale["ok"] is False and stale["error"]["code"] == "stale-answer"

    # STUN field mistakes are reported before anything starts.
    bad_stun = host.evaluate(HOST_JS, {"iceServers": "stun.example.org"})
    assert bad_stun["ok"] is False and bad_stun["error"]["code"] == "bad-ice-server"
    turn = host.evaluate(HOST_JS, {"iceServers": ["turn:relay.example.org"]})
    assert "TURN" in host.evaluate("(e) => __w.sayError(e)", turn["error"])

    # "Play by codes only": the guest's decline, read by the host's transport as an answer that
    # ends the wait for this offer, saying why (docs/webrtc.md, "Declining").
    offered = host.evaluate(HOST_JS)
    declined = guest.evaluate("(c) => __m.declineOffer(c)", offered["code"])
    assert declined["ok"] and declined["code"].startswith("WHA1."), declined
    took = host.evaluate("(t) => __host.acceptAnswer(t)", declined["code"])
    assert took == {"ok": True, "declined": True}, took
    wait_status(host, "disconnected")
    assert host.evaluate("() => __t.detail.reason") == "declined"


@needs_route
def test_closing_one_side_reports_disconnected_on_the_other(pair: tuple[Any, Any]) -> None:
    host, guest = pair
    connect(host, guest)
    guest.evaluate("() => __t.setPresence('sealed')")
    host.wait_for_function("() => __t.peerPresence === 'sealed'")

    host.evaluate("() => __t.close()")
    assert host.evaluate("() => __t.status") == "closed"
    wait_status(guest, "disconnected", timeout=30_000)
    reason, message = guest.evaluate(
        "() => [__t.detail.reason, __w.say('live-' + __t.detail.reason)]"
    )
    assert reason == "peer-closed"
    assert "carry on by codes" in message.lower()
    # The opponent's presence is unknown again, and sending now says to use codes.
    assert guest.evaluate("() => __t.peerPresence") is None
    refused = guest.evaluate("() => __t.send('WH1.after')")
    assert refused["ok"] is False and refused["error"]["code"] == "not-connected"

    # A fresh exchange reconnects, this time started by the other player.
    host, guest = guest, host
    connect(host, guest)
    assert host.evaluate("() => __t.send('WH1.again')") == {"ok": True}
    guest.wait_for_function("() => __log.messages.includes('WH1.again')")


def _engine_modules() -> tuple[ModuleType, ModuleType]:
    """wavinghands.remote.session and tests/remote_driver.py, importable from a source checkout."""
    if str(ROOT / "engine") not in sys.path:
        sys.path.insert(0, str(ROOT / "engine"))
    # tests/ only for this import (its module names repeat e2e's: see e2e/test_hotseat.py).
    sys.path.insert(0, str(ROOT / "tests"))
    try:
        import remote_driver
    finally:
        sys.path.remove(str(ROOT / "tests"))

    from wavinghands.remote import session

    return session, remote_driver


@needs_route
def test_a_duel_carried_live_cut_finished_by_codes_and_reconnected(
    pair: tuple[Any, Any],
) -> None:
    """A whole duel's turn codes over the channel: live, then by hand after the host closes the
    connection, then live again after a fresh exchange started by the guest."""
    session, driver = _engine_modules()
    eng = session.default_engine()
    live_first, by_hand = 5, 4
    # A duel long enough for all three stretches (random duels can end in a few turns).
    seed = next(
        n
        for n in range(2026, 2126)
        if len(driver.play(eng, random.Random(n)).codes) > live_first + by_hand + 4
    )
    pages = dict(enumerate(pair))  # 0: the host's page (wizard W0), 1: the guest's
    connect(pages[0], pages[1])
    arrived = {0: 0, 1: 0}
    count = {"live": 0, "hand": 0, "live again": 0}
    stretch = "live"

    def carry(code: str, to: int) -> None:
        sent = pages[1 - to].evaluate("(c) => __t.send(c)", code)
        assert sent == {"ok": True}, sent
        arrived[to] += 1
        pages[to].wait_for_function("(n) => __log.messages.length >= n", arg=arrived[to])
        assert pages[to].evaluate("(n) => __log.messages[n - 1]", arrived[to]) == code

    def on_code(code: str, receiver: Any) -> None:
        nonlocal stretch
        to = receiver.me
        if stretch == "live" and count["live"] == live_first:
            pages[0].evaluate("() => __t.close()")
            wait_status(pages[1], "disconnected", timeout=30_000)
            stretch = "hand"
        elif stretch == "hand" and count["hand"] == by_hand:
            connect(pages[1], pages[0])  # either player may start the new exchange
            # After reconnecting, the last code is sent again in case it was lost: harmless.
            last = receiver.received[-1]
            carry(last, to)
            again = session.receive(receiver, last, eng, random.Random(0).randbytes)
            assert again.session == receiver and "Already applied" in again.note
            stretch = "live again"
        if stretch == "hand":
            refused = pages[1 - to].evaluate("(c) => __t.send(c)", code)
            assert refused["error"]["code"] == "not-connected"  # so the page shows it to copy
        else:
            carry(code, to)
        count[stretch] += 1

    ex = driver.play(eng, random.Random(seed), on_code=on_code)
    assert ex.host.game is not None and ex.host.game == ex.guest.game
    assert session.status(ex.host, eng)["state"] == "over"
    assert count["live"] == live_first and count["hand"] == by_hand
    assert count["live again"] >= 1
    assert pages[0].evaluate("() => __t.status") == "connected"


# Makes the page's transport unable to say goodbye, as when its network vanishes.
SUPPRESS_BYE_JS = """() => {
  const send = RTCDataChannel.prototype.send;
  RTCDataChannel.prototype.send = function (d) {
    if (String(d).includes('"bye"')) return;
    return send.call(this, d);
  };
}"""


@needs_route
def test_vanished_peer_reports_disconnected(rtc_browser: Any, rtc_site: str) -> None:
    host_ctx = rtc_browser.new_context()
    try:
        host = open_page(host_ctx, rtc_site)

        # A page closed normally says goodbye on its way out (the page itself: the headless
        # shell disposes of a whole context without the pages' pagehide).
        guest_ctx = rtc_browser.new_context()
        leaving = open_page(guest_ctx, rtc_site)
        connect(host, leaving)
        leaving.close()
        guest_ctx.close()
        wait_status(host, "disconnected", timeout=30_000)
        assert host.evaluate("() => __t.detail.reason") == "peer-closed"

        # A peer that vanishes silently: first "reconnecting", then "disconnected" (lost).
        guest_ctx = rtc_browser.new_context()
        guest = open_page(guest_ctx, rtc_site)
        host.evaluate(SETUP_JS)
        connect(host, guest, host_opts={"recoverTimeoutMs": 3000})
        guest.evaluate(SUPPRESS_BYE_JS)
        guest_ctx.close()
        # "reconnecting" lasts recoverTimeoutMs (3 s) only: wait for it in the log of statuses,
        # which keeps it, not as the current status, which a slow poll can miss altogether.
        host.wait_for_function(
            "() => __log.status.some(([s]) => s === 'reconnecting')", timeout=30_000
        )
        wait_status(host, "disconnected", timeout=30_000)
        assert host.evaluate("() => __t.detail.reason") == "lost"
        assert host.evaluate("() => __log.status.map(s => s[0]).slice(-3)") == [
            "connected",
            "reconnecting",
            "disconnected",
        ]
        message = host.evaluate("() => __w.say('live-' + __t.detail.reason)")
        assert "carry on by codes" in message and "connect again" in message
    finally:
        host_ctx.close()





def test_rebuilt_sdp_is_accepted_by_chromium(rtc_browser: Any, rtc_site: str) -> None:
    # Setting a remote description starts no connectivity checks until a local one exists, so
    # these documentation addresses are never contacted.
    ctx = rtc_browser.new_context()
    try:
        page = ctx.new_page()
        page.goto(f"{rtc_site}/transport/")
        result = page.evaluate(
            """async (sdp) => {
              const c = await import('/transport/codec/code.js');
              const packed = c.packConnectionCode(sdp, 'offer');
              const back = c.unpackConnectionCode(packed.code, { expect: 'offer' });
              const pc = new RTCPeerConnection();
              pc.createDataChannel('x', { negotiated: true, id: 0 });
              try {
                await pc.setRemoteDescription({ type: 'offer', sdp: back.sdp });
              } catch (e) {
                return { error: e.message };
              }
              const lines = pc.remoteDescription.sdp.split('\\r\\n')
                .filter((l) => l.startsWith('a=candidate:'));
              pc.close();
              return { length: packed.code.length, lines };
            }""",
            SAMPLE_SDP,
        )
        assert "error" not in result, result
        assert len(result["lines"]) == 6
        joined = "\n".join(result["lines"])
        for part in (
            "2001:db8::5 50000 typ host tcptype passive",
            "tcptype active",
            "203.0.113.9 40000 typ srflx",
            "198.51.100.3 3478 typ relay",
        ):
            assert part in joined
    finally:
        ctx.close()
