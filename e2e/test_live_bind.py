"""A live connection carries one duel, and none starts before a click (issue 12, findings 1, 3).

Finding 1 (deep tier, docs/test-tiers.md), three browser contexts: Alice plays D2 with Carol by
codes, and D1 live with Bob (Bob hosts, Alice is his guest). Bob pushes over the live connection
D2's invitation, a D2 turn code and a new duel's invitation: Alice's page stays on D1, says in
words that each was ignored, opens no dialog, leaves D2 as it was and keeps the connection on
D1; her next D2 code is shown to be sent by hand and never goes over the connection, and Carol
applies it.

Finding 3, pages (each in a context of its own, its player storage cleared) whose
`RTCPeerConnection` is wrapped by an init script that counts its constructions: a crafted
`#rtc=` link and a crafted invitation link carrying an offer open a prompt that names the
inviter (in a <bdi>), lists the STUN/TURN servers and the addresses the offer names, and offers
"connect live" or "play by codes only"; no RTCPeerConnection exists until the click. On a
connection made that way (it carries no duel yet), five pushed invitations open one dialog.
Screenshots of the prompts (desktop and phone) go to shots/ (not committed).
"""

from __future__ import annotations

import functools
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from types import ModuleType
from typing import Any

import conftest
import pytest
from conftest import WEBRTC_ARGS
from remote_play import (
    CONNECT_MS,
    STEP_MS,
    accept,
    act,
    begin,
    code_to_send,
    deliver,
    needs_route,
    open_site,
    paste,
)
from waiting import settled

ROOT = Path(__file__).resolve().parent.parent
SHOTS = ROOT / "shots"
DESKTOP = {"width": 1200, "height": 900}
PHONE = {"width": 390, "height": 844}
CONNECTED = "[data-testid=live-panel][data-status=connected]"

# Counts every RTCPeerConnection the page makes and records what its data channels send.
WATCH_RTC = """
(() => {
  window.__rtc = { made: 0, sent: [] };
  const Native = window.RTCPeerConnection;
  if (Native) {
    window.RTCPeerConnection = new Proxy(Native, {
      construct(target, args, newTarget) {
        window.__rtc.made += 1;
        return Reflect.construct(target, args, newTarget);
      },
    });
  }
  if (window.RTCDataChannel) {
    const send = RTCDataChannel.prototype.send;
    RTCDataChannel.prototype.send = function (data) {
      window.__rtc.sent.push(String(data));
      return send.call(this, data);
    };
  }
})();
"""

# A connection offer as a link's author may craft it: its only candidate is an address and port
# of the author's choosing (here this machine's discard port, so nothing leaves it).
CRAFTED_SDP = "\r\n".join([
    "v=0", "o=- 4 2 IN IP4 127.0.0.1", "s=-", "t=0 0", "a=group:BUNDLE 0",
    "m=application 9 UDP/DTLS/SCTP webrtc-datachannel", "c=IN IP4 0.0.0.0",
    "a=candidate:1 1 udp 2122260223 127.0.0.1 9 typ host generation 0",
    "a=ice-ufrag:Zx9+", "a=ice-pwd:abcdefghijklmnopqrstuv/+",
    "a=fingerprint:sha-256 " + ":".join(f"{i * 7 % 256:02X}" for i in range(32)),
    "a=setup:actpass", "a=mid:0", "a=sctp-port:5000", "",
])


@pytest.fixture(scope="module")
def rtc_browser(launch_chromium: Callable[..., Any]) -> Any:
    """Chromium whose WebRTC candidates carry plain addresses (nothing multicast on the network)."""
    return launch_chromium(WEBRTC_ARGS)


class Pages:
    """`pages(viewport=DESKTOP, url=None)`: a page of this size in a context of its own, with
    the site open (or the given link opened) and the engine ready, watched by WATCH_RTC (the
    page's own init script, from its first load on); page errors are noted.  The contexts are
    kept plain ones (e2e/conftest.py), shared with the worker's other live tests; `done(page)`
    closes a page the test needs no more, clears its origin's player storage and lends its
    context to the next page."""

    def __init__(self, browser: Any, server_url: str, contexts: ExitStack) -> None:
        self.browser, self.server_url, self.contexts = browser, server_url, contexts
        self.errors: list[str] = []
        self.free: list[Any] = []  # contexts of this test whose pages are closed

    def __call__(self, viewport: dict[str, int] = DESKTOP, url: str | None = None) -> Any:
        ctx = self.free.pop() if self.free else self.contexts.enter_context(
            conftest.kept_context(self.browser, self.server_url, viewport=DESKTOP))
        page = ctx.new_page()
        page.set_viewport_size(viewport)
        page.add_init_script(WATCH_RTC)
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        open_site(page, url or self.server_url)
        return page

    def done(self, page: Any) -> None:
        ctx = page.context
        ctx.new_cdp_session(page).send("Storage.clearDataForOrigin", {
            "origin": self.server_url.rstrip("/"), "storageTypes": conftest.PLAYER_STORAGE})
        page.close()
        self.free.append(ctx)


@pytest.fixture
def new_page(rtc_browser: Any, server_url: str) -> Iterator[Pages]:
    """Pages for the test (see `Pages`); page errors fail it."""
    with ExitStack() as contexts:
        pages = Pages(rtc_browser, server_url, contexts)
        yield pages
        assert not pages.errors, pages.errors


def made(page: Any) -> int:
    """How many RTCPeerConnections the page has constructed."""
    return int(page.evaluate("() => window.__rtc.made"))


def screenshot(page: Any, name: str) -> None:
    """shots/<name>.png of the viewport (unless WH_SHOTS=0, e2e/conftest.py)."""
    conftest.screenshot(page, SHOTS / f"{name}.png", full_page=False, animations="disabled")


# The page's own instance of one of its modules (app.js's bundle exports each by site path).
# The page's live connection registry (transport/live.js), as the remote shell made it at boot.
LIVE = "(await import('./app.js')).modules['app.js'].transports.live"
API = "(await import('./app.js')).modules['api.js']"
STORAGE = "(await import('./app.js')).modules['store/storage.js']"


def send_live(page: Any, code: str) -> None:
    """What a modified page can do: push any code over its live connection."""
    sent = page.evaluate(f"async (c) => ({LIVE}).current().send(c)", code)
    assert sent == {"ok": True, "via": "live"}, sent


def new_invitation(page: Any, name: str) -> str:
    """A fresh invitation made by this page's engine (saved nowhere)."""
    made_ = settled(page, f"async (n) => ({API}).remoteInvite({{ name: n }})", name,
                    timeout_s=STEP_MS / 1000, what="the engine's invitation")
    assert made_["ok"], made_
    return str(made_["code"])


def saved_session(page: Any, duel_id: str) -> str:
    """The stored session of one duel, as JSON text."""
    return str(page.evaluate(
        f"async (id) => JSON.stringify(({STORAGE}).loadGame(id).session)",
        duel_id))


def bound_duel(page: Any) -> str | None:
    """The duel the page's live connection carries."""
    duel: str | None = page.evaluate(
        f"async () => ({LIVE}).current()?.duelId ?? null")
    return duel


def wait_refusal(page: Any, sender: str) -> str:
    """Wait for the words saying a live code for another duel was ignored; returns them."""
    refused = "[data-testid=remote-error][data-code=other-duel]"
    box = page.wait_for_selector(refused, timeout=STEP_MS)
    text: str = box.inner_text()
    assert f"{sender} sent a code for another duel over the live connection; it was ignored" in text
    return text


def open_dialogs(page: Any) -> int:
    return int(page.evaluate("() => document.querySelectorAll('dialog[open]').length"))


@pytest.mark.deep
@needs_route
def test_a_live_connection_carries_only_its_own_duel(new_page: Pages) -> None:
    alice, bob, carol = new_page(), new_page(), new_page()

    # D2: Alice hosts, by codes, with Carol; Carol's acceptance brings Alice to turn 1.
    begin(alice, "codes", "Alice")
    d2_invitation = code_to_send(alice)
    carol.fill("[data-testid=join-text]", d2_invitation)
    carol.click("[data-testid=join-text-apply]")
    accept(carol, "Carol")
    act(carol)
    carol_code = code_to_send(carol)
    deliver(alice, carol_code)
    d2 = alice.get_attribute("[data-testid=remote-screen]", "data-game")
    alice.click("[data-testid=leave-duel]")

    # D1: Bob hosts live; Alice accepts his invitation (it carries the offer) and connects.
    begin(bob, "live", "Bob")
    bob.wait_for_selector("[data-testid=live-bundled]", timeout=CONNECT_MS)
    alice.fill("[data-testid=join-text]", code_to_send(bob))
    alice.click("[data-testid=join-text-apply]")
    accept(alice, "Alice")
    alice.wait_for_selector("[data-testid=live-bundled]", timeout=CONNECT_MS)
    act(alice)
    alice.wait_for_selector("[data-testid=live-bundled]", timeout=CONNECT_MS)
    paste(bob, code_to_send(alice))
    for page in (alice, bob):
        page.wait_for_selector(CONNECTED, timeout=CONNECT_MS)
    bob.wait_for_selector("[data-testid=remote-screen][data-state=your_input]", timeout=STEP_MS)
    d1 = alice.get_attribute("[data-testid=remote-screen]", "data-game")
    assert d1 != d2
    assert bound_duel(alice) == f"r-{d1}-1"
    d2_before = saved_session(alice, f"r-{d2}-0")

    # Bob pushes D2's invitation, a D2 turn code, and a new duel's invitation over the channel.
    for pushed in (d2_invitation, carol_code, new_invitation(bob, "Bob")):
        alice.evaluate("() => document.querySelector('[data-testid=remote-error]')?.remove()")
        send_live(bob, pushed)
        # Whatever the page does with it shows first: the words, another duel, or a dialog.
        alice.wait_for_function(
            """(d1) => document.querySelector('[data-testid=remote-error]')
              || document.querySelector('dialog[open]')
              || document.querySelector('[data-testid=remote-screen]')?.dataset.game !== d1""",
            arg=d1, timeout=STEP_MS)
        assert alice.get_attribute("[data-testid=remote-screen]", "data-game") == d1
        assert open_dialogs(alice) == 0
        wait_refusal(alice, "Bob")
        assert bound_duel(alice) == f"r-{d1}-1"
    assert saved_session(alice, f"r-{d2}-0") == d2_before

    # Alice's next D2 code is for Carol: shown to be sent by hand, never over Bob's connection.
    alice.click("[data-testid=leave-duel]")
    alice.fill("[data-testid=join-text]", carol_code)
    alice.click("[data-testid=join-text-apply]")
    d2_orders = f"[data-testid=remote-screen][data-game='{d2}'] [data-testid=orders-screen]"
    alice.wait_for_selector(d2_orders, timeout=STEP_MS)
    act(alice)
    d2_code = code_to_send(alice)
    assert alice.locator("[data-testid=sent-live]").count() == 0
    sent = alice.evaluate("() => window.__rtc.sent")
    assert sent, "the D1 connection carried Alice's codes, so the watch saw them"
    assert not any(d2_code in message for message in sent), sent
    assert bound_duel(alice) == f"r-{d1}-1"
    deliver(carol, d2_code)  # and Carol, who should get it, applies it


# CRAFTED_SDP packed as a connection offer by the page's own codec, run by Node from web/ (the
# page bundles the same module): the link's author needs no browser, and the test no page.
PACK_OFFER_MJS = """
const { packConnectionCode } = await import(process.argv[1]);
process.stdout.write(packConnectionCode(process.argv[2], 'offer').code);
"""


@functools.cache
def crafted_offer() -> str:
    """CRAFTED_SDP as a connection code (WHC1.), as a link's author may make it."""
    codec = (ROOT / "web" / "transport" / "codec" / "code.js").as_uri()
    packed = subprocess.run(
        ["node", "--input-type=module", "-e", PACK_OFFER_MJS, codec, CRAFTED_SDP],
        capture_output=True, text=True, check=True, timeout=60,
    )  # fmt: skip
    assert packed.stdout.startswith("WHC1."), packed
    return packed.stdout


def remote_session() -> ModuleType:
    """The engine's wavinghands.remote.session, in this process (Mallory plays by the engine's
    own API, as the page's engine does: the same codes)."""
    sys.path.insert(0, str(ROOT / "engine"))
    try:
        from wavinghands.remote import session
    finally:
        sys.path.remove(str(ROOT / "engine"))
    return session


def test_a_crafted_rtc_link_starts_nothing_before_the_click(
    new_page: Pages, server_url: str
) -> None:
    offer = crafted_offer()
    for viewport, label in ((DESKTOP, "desktop"), (PHONE, "phone")):
        page = new_page(viewport, f"{server_url}#rtc={offer}")
        page.wait_for_function(
            "() => window.__rtc.made > 0 || document.querySelector('[data-testid=connect]')",
            timeout=STEP_MS)
        assert made(page) == 0
        prompt = page.wait_for_selector("[data-testid=connect]", timeout=STEP_MS)
        words = prompt.inner_text()
        assert "does not say who made it" in words
        assert page.inner_text("[data-testid=connect-addresses]").strip() == "127.0.0.1:9"
        assert "stun:" in page.inner_text("[data-testid=connect-servers]")
        assert "public IP address" in words
        screenshot(page, f"connect-prompt-link-{label}")
        page.click("[data-testid=connect-codes]")
        page.wait_for_selector("[data-testid=start-screen]", timeout=STEP_MS)
        assert made(page) == 0
        new_page.done(page)
    # The same link, and this time the player chooses to connect: the watch sees it.
    page = new_page(DESKTOP, f"{server_url}#rtc={offer}")
    page.click("[data-testid=connect-live]")
    page.wait_for_function("() => window.__rtc.made === 1", timeout=STEP_MS)


def test_a_crafted_invitation_link_with_an_offer_asks_first(
    new_page: Pages, server_url: str
) -> None:
    offer = crafted_offer()
    # Mallory's side of the duel is the engine's, here, to answer Alice's acceptance below.
    session = remote_session()
    mallory = session.create_invitation("Mallory")
    assert mallory.code is not None
    invitation = mallory.code
    link = f"{server_url}#c={invitation}&rtc={offer}"
    page: Any = None
    for viewport, label in ((DESKTOP, "desktop"), (PHONE, "phone")):
        if page is not None:
            new_page.done(page)
        page = new_page(viewport, link)
        page.wait_for_selector("[data-testid=accept] [data-testid=connect-facts]", timeout=STEP_MS)
        assert made(page) == 0
        assert page.inner_text("[data-testid=connect-inviter] bdi") == "Mallory"
        facts = page.inner_text("[data-testid=connect-facts]")
        assert "(your public IP address) to Mallory, and to these servers" in facts, facts
        assert page.inner_text("[data-testid=connect-addresses]").strip() == "127.0.0.1:9"
        screenshot(page, f"connect-prompt-invitation-{label}")
    # "Accept, play by codes only": the duel starts, no connection is made.
    page.fill("[data-testid=accept-name]", "Alice")
    page.click("[data-testid=accept-codes]")
    page.wait_for_selector("[data-testid=orders-screen]", timeout=STEP_MS)
    assert made(page) == 0
    # Alice's acceptance carries a decline of the offer (docs/webrtc.md, "Declining"), so that
    # Mallory's page stops waiting; Mallory's engine reads the turn code (splitCodes' part).
    act(page)
    acceptance, declined = code_to_send(page).split()
    assert declined.startswith("WHA1."), declined
    # Mallory's next code carries the same offer again (it is not answered): once declined, it
    # is not asked about again, and the turn code is applied.
    got = session.receive(mallory.session, acceptance)
    mallory_code = session.seal(got.session, {"gestures": [["F", "-"]]}).code
    assert mallory_code is not None
    deliver(page, f"{mallory_code} {offer}")
    assert open_dialogs(page) == 0
    assert made(page) == 0
    # "Accept and connect live" in another context, storage cleared: then, and only then, one
    # is made.
    new_page.done(page)
    page = new_page(DESKTOP, link)
    page.fill("[data-testid=accept-name]", "Alice")
    page.click("[data-testid=accept-submit]")
    page.wait_for_function("() => window.__rtc.made === 1", timeout=STEP_MS)


@needs_route
def test_pushed_invitations_open_one_dialog(new_page: Pages, server_url: str) -> None:
    bob = new_page()
    started = bob.evaluate(
        f"async () => ({LIVE}).host({{ ice: {{ stun: '' }}, duelId: null }})")
    assert started == {"ok": True}, started
    offer = bob.evaluate(f"async () => ({LIVE}).current().status().code")
    alice = new_page(DESKTOP, f"{server_url}#rtc={offer}")
    alice.click("[data-testid=connect-live]")
    answer = alice.wait_for_selector("[data-testid=live-code]", timeout=CONNECT_MS).inner_text()
    answered = bob.evaluate(
        f"async (a) => ({LIVE}).answer(a)", answer.strip())
    assert answered["ok"], answered
    alice.wait_for_selector(CONNECTED, timeout=CONNECT_MS)

    # Every toast is noted as it comes (a toast leaves after a few seconds).
    alice.evaluate("""() => {
      window.__toasts = [];
      new MutationObserver((changes) => changes.forEach((c) => c.addedNodes.forEach(
        (n) => window.__toasts.push(n.textContent)))).observe(
        document.getElementById('toasts'), { childList: true });
    }""")
    invitations = [new_invitation(bob, f"Bob{i}") for i in range(5)]
    for code in invitations:
        send_live(bob, code)
    alice.wait_for_selector("[data-testid=accept]", timeout=STEP_MS)
    alice.wait_for_function(
        "() => window.__toasts.filter((t) => t.includes('sent another invitation')).length === 4",
        timeout=STEP_MS)
    assert open_dialogs(alice) == 1
    assert alice.inner_text("[data-testid=accept] bdi") == "Bob0"
    assert made(alice) == 1
