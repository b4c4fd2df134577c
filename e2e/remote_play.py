"""Drives remote duels (web/remote.js) through the page, for e2e/test_remote_codes.py and
e2e/test_live.py: each side writes scripted orders and answers decisions through the same
screens as the hot-seat game; the tests decide how codes travel (by hand, by link, or live).

The script makes the engine ask for both kinds of extra message (docs/protocol.md): Bob's
paralysis asks him to choose a hand of Alice's after turn 3, Alice's asks her after turn 4, and
Bob's time stop gives him a turn of his own after turn 7. How the duel goes and when it ends is
the engine's business; the driver only follows the screens.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager

from conftest import DESKTOP, SESSION_URL, kept_context
from playwright.sync_api import Browser, ConsoleMessage, Error, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from waiting import poll

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
SLUG = {">": "stab", "-": "nothing"}


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


def gestures_for(wizard: int, turn: int, script: Script | None = None) -> str:
    """The pair `script` (SCRIPT unless given) has for this wizard and turn, or (nothing, stab)
    once it has run out."""
    rows = (script or SCRIPT)[wizard]
    return rows[turn - 1] if turn <= len(rows) else "->"


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
            else gestures_for(wizard, turn, script))  # fmt: skip
    for hand, gesture in zip("LR", pair, strict=True):
        button = page.locator(f"[data-testid=gesture-0-{hand}-{SLUG.get(gesture, gesture)}]")
        if button.is_enabled():
            button.check()
    page.wait_for_selector("[data-testid=preview][aria-busy=false]", timeout=STEP_MS)
    if page.locator("[data-testid=stab-target-0]").count():
        page.select_option("[data-testid=stab-target-0]", f"W{1 - wizard}")
        page.wait_for_selector("[data-testid=preview][aria-busy=false]", timeout=STEP_MS)
    page.click("[data-testid=submit-orders]")
    if pair == "PP":  # a surrender takes a second press (e2e/test_newplayer.py)
        page.wait_for_selector("[data-testid=confirm-risky]", timeout=STEP_MS)
        page.click("[data-testid=submit-orders]")


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
    while True:  # write_orders bounds the duel's length
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
