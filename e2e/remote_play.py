"""Drives remote duels (web/remote.js) through the page, for e2e/test_remote_codes.py and
e2e/test_live.py: each side writes scripted orders and answers decisions through the same
screens as the hot-seat game; the tests decide how codes travel (by hand, by link, or live).

The script makes the engine ask for both kinds of extra message (docs/protocol.md): Bob's
paralysis asks him to choose a hand of Alice's after turn 3, Alice's asks her after turn 4, and
Bob's time stop gives him a turn of his own after turn 7. How the duel goes and when it ends is
the engine's business; the driver only follows the screens.

The live connection's helpers are here too (the tests of e2e/test_live*.py, test_webrtc.py and
the others that connect): `connect` (one code each way), `needs_route` (skips where ICE cannot
gather), the `live_browser` and `rtc_site` fixtures (a test module lists them in its `__all__`),
and FILL_JS / FREE_JS, which fill the page's storage for the tests of a full storage.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from pathlib import Path

import pytest
from conftest import DESKTOP, SESSION_URL, WEBRTC_ARGS, kept_context
from duel_play import gesture_pad, script_row, seal
from playwright.sync_api import Browser, ConsoleMessage, Error, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout

# sitebuild/ is at the repository's root, which e2e/conftest.py puts on sys.path.
from sitebuild.serve import serving
from waiting import poll

WEB = Path(__file__).resolve().parent.parent / "web"

ENGINE_MS = 90_000
STEP_MS = 30_000
NAMES = ("Alice", "Bob")
# Each wizard's (left, right) pairs, a row by the engine's turn number (a time-stopped turn has
# a number too).
Script = dict[int, list[str]]
SCRIPT: Script = {
    0: ["DF", "FS", "FS", "DD", "DD", "FS", "FD", "--", "D>", "D>"],
    1: ["F-", "F-", "F-", "-S", "-P", "-P", "CC", "D>", "S-", "D-"],
}
MAX_TURNS = 30

# Fills localStorage until the browser refuses even 16 more characters; returns how many
# characters went in (a full storage, for the tests of what the page does then).
FILL_JS = """() => {
  let n = 0;
  let added = 0;
  for (let size = 1 << 20; size >= 16; size >>= 1) {
    const piece = 'f'.repeat(size);
    for (;;) {
      try {
        localStorage.setItem(`filler:${n}`, piece);
        n += 1;
        added += size;
      } catch (err) {
        if (err.name !== 'QuotaExceededError') throw err;
        break;
      }
    }
  }
  return added;
}"""
# Takes FILL_JS's filler out again.
FREE_JS = """() => {
  for (const key of Object.keys(localStorage)) {
    if (key.startsWith('filler:')) localStorage.removeItem(key);
  }
}"""


@contextmanager
def two_players(browser: Browser, server_url: str | None = None, *, init_script: str | None = None,
                permissions: Sequence[str] = ()) -> Iterator[dict[int, Page]]:
    """Host 0 and guest 1, each in a browser context of its own (own storage), on the start
    screen when `server_url` is given; fails the test on any page error, closes both.  The
    contexts are kept plain ones (e2e/conftest.py, kept_context), so every test of a worker
    that plays two sides shares them; `init_script` (a probe) is the two pages' own, from their
    first load on, and `permissions` are granted for the test and taken back after it."""
    stack = ExitStack()
    contexts = [stack.enter_context(kept_context(browser, SESSION_URL[0], viewport=DESKTOP))
                for _ in range(2)]  # fmt: skip
    errors: list[str] = []
    pages: dict[int, Page] = {}

    def noting(name: str) -> Callable[[Error], None]:
        """A page-error handler that records the error under the player's name."""
        return lambda error: errors.append(f"{name}: {error}")

    try:
        for w, ctx in enumerate(contexts):
            if permissions:
                ctx.grant_permissions(list(permissions))
                stack.callback(ctx.clear_permissions)  # (before the context goes back: LIFO)
            page = ctx.new_page()
            if init_script is not None:
                page.add_init_script(init_script)
            page.on("pageerror", noting(NAMES[w]))
            # Echoed like e2e/conftest.py's `page` does: what a page said before a failed wait
            # (an engine that never became ready) is in the test's captured output.
            page.on("console", lambda m, n=NAMES[w]: print(f"[{n} console.error] {m.text}")
                    if m.type == "error" else None)  # fmt: skip
            pages[w] = page
        if server_url is not None:
            for page in pages.values():
                open_site(page, server_url)
        yield pages
        assert not errors, errors
    finally:
        stack.close()


def surrenders(page: Page, wizard: int, turn: int, surrender_from: int | None) -> bool:
    """Whether this wizard surrenders now: the host (wizard 0), from turn `surrender_from` on,
    once both its hands are free to show P (a paralysed hand keeps its gesture, and the script's
    pair goes instead).  A test that needs only the start of a duel ends it so, at once."""
    if wizard != 0 or surrender_from is None or turn < surrender_from:
        return False
    return all(page.locator(f"[data-testid=gesture-0-{hand}-P]").is_enabled() for hand in "LR")


# What a page that did not become ready shows of its boot (for open_site's failure): its
# engine status line and the steps its engine worker reached, whether the page's modules ran and
# took the engine worker over, how the engine's boot promise stands, the service worker, whether
# Cache Storage (the kept snapshot, the precache) answers at all, and the files the page has
# received.  Each async read is bounded, so a storage that hangs is said rather than waited on.
BOOT_REPORT_JS = """async () => {
  const within = (promise, ms) => Promise.race([
    Promise.resolve(promise).then((v) => ['settled', v], (e) => ['rejected', String(e)]),
    new Promise((r) => setTimeout(() => r(['no answer within ' + ms + ' ms']), ms)),
  ]);
  const box = document.getElementById('engine-status');
  const sw = navigator.serviceWorker;
  const registration = sw ? await within(sw.getRegistration().then((r) => r && {
    active: r.active && r.active.state, installing: Boolean(r.installing),
    waiting: Boolean(r.waiting) }), 2000) : 'no service workers';
  const files = performance.getEntriesByType('resource').map((e) => e.name.split('/').pop());
  return {
    readyState: document.readyState,
    status: box && { state: box.dataset.state, text: box.innerText.trim(),
                     progress: box.querySelector('progress')?.value },
    appReady: window.__appReady ?? null,
    workerTakenOver: window.__engineLaunch ? window.__engineLaunch.taken
                                           : 'engine-start.js did not run',
    engineReady: window.__engineReady ? await within(window.__engineReady, 200)
                                      : 'no window.__engineReady: engine.js did not run',
    controlledBy: sw && sw.controller ? sw.controller.state : null,
    registration,
    cacheStorage: await within(caches.keys(), 3000),
    // The boot's steps reached (web/engine.js puts the worker's on the page's timeline), in ms.
    marks: performance.getEntriesByType('mark').map((m) => `${m.name} ${Math.round(m.startTime)}`),
    received: [files.length, files.slice(-12)],
  };
}"""


def boot_report(page: Page, said: Sequence[str] = ()) -> str:
    """What `page` shows of its engine's boot (BOOT_REPORT_JS), its workers, and `said` (what it
    and its workers wrote to the console): for a failure to say why the page was not ready."""
    try:
        shown = repr(page.evaluate(BOOT_REPORT_JS))
    except Error as err:
        shown = f"(the page could not be read: {err.message})"
    workers = [w.url.rsplit("/", 1)[-1] for w in page.workers]
    console = "; ".join(said[-25:]) or "nothing"
    return f"{shown}; its workers: {workers}; its console said: {console}"


def open_site(page: Page, url: str) -> None:
    """Load the page (or a link into it) and wait until the engine answers; if it does not
    within ENGINE_MS, fail saying what the page showed of its boot (boot_report)."""
    said: list[str] = []

    def note(message: ConsoleMessage) -> None:
        said.append(f"[{message.type}] {message.text[:300]}")

    page.on("console", note)
    try:
        page.goto(url)
        page.wait_for_function("window.__appReady === true", timeout=ENGINE_MS, polling=100)
    except PlaywrightTimeout as timeout:
        raise AssertionError(
            f"waited {ENGINE_MS // 1000} s for the engine of {url} to be ready "
            f"(window.__appReady); the page: {boot_report(page, said)}"
        ) from timeout
    finally:
        page.remove_listener("console", note)


def screen_state(page: Page) -> dict[str, str] | None:
    """The remote screen's data attributes (state, need, turn, seq, sent, me), or None."""
    state: dict[str, str] | None = page.evaluate(
        """() => {
          const s = document.querySelector('[data-testid=remote-screen]');
          return s && s.dataset.state ? { ...s.dataset } : null;
        }"""
    )
    return state


def remote_screen(page: Page) -> dict[str, str]:
    """screen_state of a page that shows the remote screen; the test fails if it shows none."""
    state = screen_state(page)
    assert state is not None, "the remote screen is not shown"
    return state


def wait_changed(page: Page, before: dict[str, str] | None, timeout: int = STEP_MS) -> None:
    """Wait until the remote screen shows another state, phase, turn or message number."""
    page.wait_for_function(
        """(b) => {
          const s = document.querySelector('[data-testid=remote-screen]');
          if (!s || !s.dataset.state) return false;
          if (!b) return true;
          return ['state', 'need', 'turn', 'seq'].some((k) => s.dataset[k] !== b[k]);
        }""",
        arg=before,
        timeout=timeout,
        polling=100,  # (not every frame: a frame drawn only to poll costs CPU)
    )


def begin(page: Page, mode: str, name: str) -> None:
    """Start a remote duel from the start screen as the host."""
    page.check(f"[data-testid=mode-{mode}]")
    page.fill("[data-testid=name-0]", name)
    page.click("[data-testid=start-game]")


def accept(page: Page, name: str) -> None:
    """Answer the invitation dialog under this name."""
    page.wait_for_selector("[data-testid=accept-name]", timeout=STEP_MS)
    page.fill("[data-testid=accept-name]", name)
    page.click("[data-testid=accept-submit]")
    page.wait_for_selector("[data-testid=orders-screen]", timeout=STEP_MS)


def join(page: Page, text: str) -> None:
    """Paste an invitation (or any code) into the start screen's box and apply it."""
    page.fill("[data-testid=join-text]", text)
    page.click("[data-testid=join-text-apply]")


def invite(host: Page, guest: Page, mode: str, timeout: int = STEP_MS) -> str:
    """The host starts a duel in `mode` ("codes" or "live") as NAMES[0]; once its invitation
    is shown (for "live": with the connection offer, within `timeout`), the guest joins with it
    and accepts as NAMES[1], reaching its orders for turn 1.  Returns the invitation."""
    begin(host, mode, NAMES[0])
    shown = "live-bundled" if mode == "live" else "remote-code"
    host.wait_for_selector(f"[data-testid={shown}]", timeout=timeout)
    invitation = code_to_send(host)
    join(guest, invitation)
    accept(guest, NAMES[1])
    return invitation


def write_orders(
    page: Page, surrender_from: int | None = None, script: Script | None = None
) -> None:
    """Click this wizard's scripted gestures (`script`, SCRIPT unless given; a hand the rules
    force keeps its gesture) and seal; the host surrenders instead from turn `surrender_from` on
    (see `surrenders`)."""
    screen = page.locator("[data-testid=orders-screen]")
    wizard = int(screen.get_attribute("data-wizard") or "")  # (no attribute: a ValueError)
    turn = int(screen.get_attribute("data-turn") or "")
    assert turn <= MAX_TURNS, "the scripted duel should have ended by now"
    pair = ("PP" if surrenders(page, wizard, turn, surrender_from)
            else script_row(script or SCRIPT, wizard, turn))  # fmt: skip
    for hand, gesture in zip("LR", pair, strict=True):
        button = page.locator(gesture_pad(hand, gesture))
        if button.is_enabled():
            button.check()
    page.wait_for_selector("[data-testid=preview][aria-busy=false]", timeout=STEP_MS)
    if page.locator("[data-testid=stab-target-0]").count():
        page.select_option("[data-testid=stab-target-0]", f"W{1 - wizard}")
        page.wait_for_selector("[data-testid=preview][aria-busy=false]", timeout=STEP_MS)
    seal(page, surrender=pair == "PP")  # a surrender takes a second press


def write_decision(page: Page) -> None:
    """Take the first option of every question the rules ask, and decide."""
    for fieldset in page.locator("[data-testid=decision-screen] fieldset").all():
        fieldset.locator("input[type=radio]").first.check()
    page.click("[data-testid=submit-decision]")


def act(page: Page, surrender_from: int | None = None, script: Script | None = None) -> str | None:
    """If the rules ask this side for input, give it and wait for the screen to move on; returns
    what was asked ('orders', 'decision' or 'time_stop'), or None.  `surrender_from`: see
    write_orders."""
    before = screen_state(page)
    if not before or before["state"] != "your_input":
        return None
    if before["need"] == "decision":
        write_decision(page)
    else:
        write_orders(page, surrender_from, script)
    wait_changed(page, before)
    return before["need"]


def flipped(code: str) -> str:
    """The code with one character in the middle changed, as a sloppy copy would."""
    i = len(code) // 2
    return code[:i] + ("A" if code[i] != "A" else "B") + code[i + 1 :]


def code_to_send(page: Page) -> str:
    """The code this side shows for its opponent (the test is the clipboard)."""
    return page.inner_text("[data-testid=remote-code]").strip()


def code_after_acting(page: Page) -> str:
    """Give the input the rules ask this side for (act), then the code it shows to send."""
    act(page)
    return code_to_send(page)


def link_to_send(page: Page) -> str:
    """The same code as a link."""
    return page.inner_text("[data-testid=remote-code-link]").strip()


def paste(page: Page, text: str) -> None:
    """Paste text into the duel's code box (unfolding it when it is tucked away) and apply it."""
    box = page.locator("[data-testid=remote-paste]")
    if not box.is_visible():
        page.locator("details:has([data-testid=remote-paste]) > summary").click()
    box.fill(text)
    page.click("[data-testid=remote-paste-apply]")


def deliver(page: Page, text: str) -> None:
    """Paste the opponent's code and wait until it has moved the game on."""
    before = screen_state(page)
    paste(page, text)
    wait_changed(page, before)


def is_over(page: Page) -> bool:
    state = screen_state(page)
    return bool(state and state["state"] == "over")


def play(
    pages: dict[int, Page],
    carry: Callable[[int], None] | None,
    delivered: dict[int, int] | None = None,
    *,
    until: Callable[[], bool] | None = None,
    on_step: Callable[[int, str], None] | None = None,
    surrender_from: int | None = None,
    script: Script | None = None,
) -> None:
    """Play on until the duel is over on both sides (or until `until()`): each side acts when the
    rules ask it to; `carry(w)` moves side w's newest code to the other, `delivered[w]` counting
    side w's codes already moved. With carry None the live connection moves them.  With
    `surrender_from` the host surrenders from that turn on (write_orders): the duel ends there.
    The wizards play `script` (SCRIPT unless given)."""
    delivered = dict(delivered or {0: 0, 1: 0})
    # Each round of the loop moves the duel on (a code carried, a screen answered) or fails,
    # and write_orders stops a duel past MAX_TURNS; ten rounds a turn is ample.
    for _ in range(MAX_TURNS * 10):
        if until is not None and until():
            return
        states = {w: screen_state(pages[w]) or {} for w in (0, 1)}
        waiting = [w for w in (0, 1) if carry and int(states[w].get("sent", "0")) > delivered[w]]
        if all(states[w].get("state") == "over" for w in (0, 1)) and not waiting:
            return
        moved = False
        for w in waiting:
            assert carry is not None and int(states[w]["sent"]) == delivered[w] + 1, \
                "one code at a time"
            carry(w)
            delivered[w] += 1
            moved = True
        for w in (0, 1):
            need = act(pages[w], surrender_from, script)
            if need:
                moved = True
                if on_step:
                    on_step(w, need)
        if moved:
            continue
        if carry is not None:
            raise AssertionError(f"stuck: {states[0]} / {states[1]}")
        # Live: the other side's code is on its way; wait until either screen shows it.
        shown = [states[0], states[1]]
        poll(lambda: [screen_state(pages[w]) or {} for w in (0, 1)],
             shown.__ne__, timeout_s=STEP_MS / 1000,
             what=f"either screen to move on (stuck: {shown[0]} / {shown[1]})")
    raise AssertionError(f"the duel did not end in {MAX_TURNS * 10} steps: "
                         f"{screen_state(pages[0])} / {screen_state(pages[1])}")


# ---------- live (web/transport/webrtc.js) ----------

# How long two pages on this machine may take to connect, or to see a connection's change.
CONNECT_MS = 30_000
LOG_CHAT = "[data-testid=battle-log] [data-testid=log-chat]"


def default_route_problem() -> str | None:
    """None when some interface other than loopback has a default route, else why not."""
    try:
        with open("/proc/net/route") as f:
            for line in f.readlines()[1:]:
                iface, dest = line.split()[:2]
                if iface != "lo" and dest == "00000000":
                    return None
    except OSError:
        pass
    try:
        with open("/proc/net/ipv6_route") as f:
            for line in f:
                cols = line.split()
                if len(cols) >= 10 and cols[0] == "0" * 32 and cols[1] == "00" and cols[9] != "lo":
                    return None
    except OSError:
        pass
    return (
        "no network interface other than loopback has a default route, so WebRTC gathers no "
        "ICE candidate and two contexts cannot connect (see docs/webrtc.md)"
    )


# ICE needs an interface other than loopback with a default route: without one the tests that
# connect two pages are skipped, and say why.
NO_ROUTE = default_route_problem()
needs_route = pytest.mark.skipif(NO_ROUTE is not None, reason=NO_ROUTE or "")


@pytest.fixture(scope="module")
def live_browser(launch_chromium: Callable[..., Browser]) -> Browser:
    """Chromium whose WebRTC candidates carry plain addresses (nothing multicast on the network):
    the worker's `browser` (e2e/conftest.py launches it with WEBRTC_ARGS)."""
    return launch_chromium(WEBRTC_ARGS)


@pytest.fixture(scope="module")
def rtc_site() -> Iterator[str]:
    """build.py's server with web/ itself as the root (the build copies web/transport/ unchanged,
    and the transport's module needs none of the built files): its URL, no final slash."""
    with serving(WEB) as server:
        yield server.url.rstrip("/")


SAMPLE_SDP = "\r\n".join(
    [
        "v=0",
        "o=- 4 2 IN IP4 127.0.0.1",
        "s=-",
        "t=0 0",
        "a=group:BUNDLE 0",
        "m=application 9 UDP/DTLS/SCTP webrtc-datachannel",
        "c=IN IP4 0.0.0.0",
        "a=candidate:1 1 udp 2122260223 192.0.2.77 47625 typ host generation 0",
        "a=candidate:2 1 udp 2122262783 2001:db8::5 47626 typ host generation 0",
        "a=candidate:3 1 tcp 1518280447 192.0.2.77 9 typ host tcptype active generation 0",
        "a=candidate:4 1 tcp 1518283007 2001:db8::5 50000 typ host tcptype passive generation 0",
        "a=candidate:5 1 udp 1686052607 203.0.113.9 40000 typ srflx raddr 192.0.2.77 rport 47625",
        "a=candidate:6 1 udp 41885439 198.51.100.3 3478 typ relay raddr 203.0.113.9 rport 40000",
        "a=ice-ufrag:Zx9+",
        "a=ice-pwd:abcdefghijklmnopqrstuv/+",
        "a=fingerprint:sha-256 " + ":".join(f"{i * 7 % 256:02X}" for i in range(32)),
        "a=setup:actpass",
        "a=mid:0",
        "a=sctp-port:5000",
        "",
    ]
)


def live_status(page: Page) -> str | None:
    """The live panel's status (its data-status), or None."""
    status: str | None = page.get_attribute("[data-testid=live-panel]", "data-status")
    return status


def wait_live(page: Page, status: str, timeout: int = CONNECT_MS) -> None:
    """Wait until the live panel's status is `status`."""
    page.wait_for_selector(f"[data-testid=live-panel][data-status={status}]", timeout=timeout)


def connect(
    players: dict[int, Page], shot: Callable[..., object] | None = None, *, by_link: bool = False
) -> None:
    """One code each way: the host starts a live duel and sends the invitation, which carries the
    connection offer (pasted, or opened as a link); the guest accepts and writes turn 1, and the
    code for it carries the answer; the host pastes that one code and both are connected."""
    host, guest = players[0], players[1]
    begin(host, "live", NAMES[0])
    host.wait_for_selector("[data-testid=live-bundled]", timeout=CONNECT_MS)
    invitation = code_to_send(host)
    assert invitation.startswith("WH1.") and " WHC1." in invitation, invitation
    link = host.inner_text("[data-testid=remote-code-link]").strip()
    assert "#c=WH1." in link and "&rtc=WHC1." in link, link
    if shot:
        shot(host, "live-host-code")
    if by_link:
        guest.goto(link)
    else:
        join(guest, invitation)
    accept(guest, NAMES[1])
    guest.wait_for_selector("[data-testid=live-bundled]", timeout=CONNECT_MS)
    act(guest)
    guest.wait_for_selector("[data-testid=live-bundled]", timeout=CONNECT_MS)
    back = code_to_send(guest)
    assert back.startswith("WH1.") and " WHA1." in back, back
    if shot:
        shot(guest, "live-guest-answer")
    paste(host, back)
    wait_live(host, "connected")
    wait_live(guest, "connected")
    # The channel can open before the engine has applied the acceptance: wait for that too.
    host.wait_for_selector("[data-testid=remote-screen][data-state=your_input]", timeout=STEP_MS)
