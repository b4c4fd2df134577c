"""Playing a duel on one device through the page: the driver the e2e tests share (hot-seat, against
the computer, a melee's players), and the records they import to start where a check begins.

Duels between two browsers (by codes, live) are e2e/remote_play.py's.  The screens a local duel
goes through: the hand-over (`pass-screen`), a wizard's orders (`orders-screen`, with its
`data-wizard` and `data-turn`), a question the rules ask between turns (`decision-screen`), the
end (`game-over`) and the page's own failure (`failure-screen`).  `play_duel` follows them,
handing the device on and answering questions, and calls the test's `write` on each orders
screen.  bench/scene_bench.py drives its duel with the same functions.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Collection, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "engine"))
from wavinghands import duel as engine_duel  # noqa: E402
from wavinghands.record import export_record  # noqa: E402

# The longest the engine may take to answer (boot, a turn, a strong move) on a loaded machine.
ENGINE_MS = 90_000
NAMES = ("Alice", "Bob")
# A gesture's letter in a script -> its button's name where the letter is not the name.
SLUG = {">": "stab", "-": "nothing"}
SETTLED = ("[data-testid=pass-screen], [data-testid=orders-screen], [data-testid=game-over], "
           "[data-testid=decision-screen], [data-testid=failure-screen]")
# The hot-seat duel several tests play, one "LR" row per turn for each wizard.  Alice builds a
# lightning bolt (D-F-F-D-D) with her left hand and a fireball (F-S-S-D-D) with her right, then a
# second bolt and a missile, stabbing in between; Bob answers with missiles (S-D).  Bob falls on
# turn 9 (which spells go off, and the end, are the engine's business).
HOTSEAT_SCRIPT = {
    0: ["DF", "FS", "FS", "DD", "DD", "FS", "FD", "D>", "D>"],
    1: ["S-", "D-", "S-", "D-", "S-", "D-", "S-", "D-", "S-"],
}
# Page sizes by name (a desktop, and a phone in a touch context).
SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}

# write(page, wizard, turn): write and seal that wizard's orders on the orders screen in sight,
# or return True to stop the duel there, unsealed.
Write = Callable[[Any, int, int], "bool | None"]


# ---------- pages ----------


@contextmanager
def sized_page(browser: Any, size: str) -> Iterator[Any]:
    """A page at SIZES[size] in a kept context (e2e/conftest.py: the engine restored from its
    snapshot): a phone is a touch context (phone_page), a desktop the `page` fixture's kind of
    context at that size; fails the test on a page error."""
    # Imported here, not above: bench/scene_bench.py uses this module without the suite's
    # conftest (which reduces motion in every context it opens).
    from conftest import DESKTOP, SESSION_URL, kept_context, phone_page

    if size == "phone":
        with phone_page(browser, SIZES[size]) as page:
            yield page
        return
    with kept_context(browser, SESSION_URL[0], viewport=DESKTOP) as ctx:
        page = ctx.new_page()
        page.set_viewport_size(SIZES[size])
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        yield page
        assert not errors, errors


def at_widths(page: Any, sizes: list[str], check: Callable[[str], None]) -> None:
    """Run check(size) with the page at each of `sizes` (SIZES), ending at the first."""
    for size in [*sizes[1:], sizes[0]]:
        page.set_viewport_size(SIZES[size])
        check(size)


def help_starts_with_how_to_play(page: Any) -> None:
    """The Help dialog, open: its button and title say "Help", and it starts with how to play
    in the page's own words (the buttons a new player will find), the keyboard's keys after."""
    assert page.inner_text("[data-testid=open-help]") == "Help"
    assert page.inner_text("#help-title") == "Help"
    assert in_view(page, "[data-testid=help-how]"), "How to play is not the first thing seen"
    how = page.inner_text(".how-to-play")
    for words in ("Spells", "Seal my orders", "What happened"):
        assert words in how, words
    assert "Keyboard" in page.inner_text("dialog[data-testid=help]")  # the shortcuts follow


def replay_shows_one_view_and_both_a_press_away(page: Any, *, tap: bool = False) -> None:
    """On a phone, a two-wizard replay at its first step shows one view, the first wizard's,
    alone; the choice holds at the next step, and "Both views" (tapped if `tap`) shows both."""
    press = page.tap if tap else page.click
    assert page.locator("[data-testid=replay-side-0]").count() == 1
    assert page.locator("[data-testid=replay-side-1]").count() == 0
    assert page.get_attribute("[data-testid=replay-perspective-0]", "aria-pressed") == "true"
    press("[data-testid=replay-next]")
    page.wait_for_selector("[data-testid=replay-screen][data-step='1']", timeout=ENGINE_MS)
    assert page.locator("[data-testid=replay-side-1]").count() == 0, "the choice holds"
    both = page.locator("[data-testid=replay-perspective-both]")
    assert both.inner_text() == "Both views"
    press("[data-testid=replay-perspective-both]")
    page.wait_for_selector("[data-testid=replay-side-1]", timeout=ENGINE_MS)
    assert page.locator("[data-testid=replay-side-0]").count() == 1


def shared_replay_link(page: Any) -> str:
    """On a duel's end: press "Share the replay" and return the link it gives (copied, or shown
    where the clipboard is refused)."""
    page.click("[data-testid=share-replay]")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=share-said]').textContent.length > 0",
        timeout=ENGINE_MS, polling=100)
    said = page.inner_text("[data-testid=share-said]")
    link: str = page.evaluate("() => navigator.clipboard.readText()") if "copied" in said else \
        page.input_value("[data-testid=share-link]")
    assert "#replay=" in link, (said, link)
    return link


def replay_to_the_end(page: Any, wizards: int, perspective: int | None = None) -> str:
    """On a duel's end: open its replay, which offers each of the `wizards` wizards' views, show
    wizard `perspective`'s if given, go to the last step and return the result it says."""
    page.click("[data-testid=replay-open]")
    page.wait_for_selector("[data-testid=replay-screen]", timeout=ENGINE_MS)
    for seat in range(wizards):
        assert page.locator(f"[data-testid=replay-perspective-{seat}]").count() == 1, seat
    if perspective is not None:
        page.click(f"[data-testid=replay-perspective-{perspective}]")
        page.wait_for_selector(f"[data-testid=replay-side-{perspective}]", timeout=ENGINE_MS)
    page.click("[data-testid=replay-last]")
    page.wait_for_selector("[data-testid=replay-result]", timeout=ENGINE_MS)
    result: str = page.inner_text("[data-testid=replay-result]")
    return result


def deciding_with_no_answer_says_to_choose_one(page: Any, *, tap: bool = False) -> None:
    """On a decision screen that asks which hand a paralysis holds, with no answer chosen:
    pressing Decide (tapping if `tap`) says to choose one first, and the screen stays."""
    (page.tap if tap else page.click)("[data-testid=submit-decision]")
    problem = page.wait_for_selector(
        "[data-testid=decision-screen] [data-testid=problems] p", timeout=ENGINE_MS)
    said = problem.inner_text()
    assert said.startswith("Choose an answer first: "), said
    assert "which hand" in said, said
    assert page.locator("[data-testid=decision-screen]").count() == 1


def in_view(page: Any, selector: str) -> bool:
    """Whether the element is wholly inside the viewport."""
    inside: bool = page.eval_on_selector(
        selector, "el => { const r = el.getBoundingClientRect(); "
        "return r.top >= 0 && r.bottom <= window.innerHeight; }")
    return inside


# ---------- opening and starting a duel ----------


def open_game(page: Any, server_url: str) -> None:
    """Load the page and wait until the engine answers; the interface shows within 10 s, before
    the engine (the start screen does not wait for Pyodide)."""
    page.goto(server_url)
    page.wait_for_selector("[data-testid=start-screen], [data-testid=resume-screen]",
                           timeout=10_000)
    page.wait_for_function("window.__appReady === true", timeout=ENGINE_MS, polling=100)


def choose_ruleset(page: Any, name: str) -> None:
    """Pick a ruleset in the start screen's Rules box (it appears once the engine lists them)."""
    page.wait_for_selector(f"[data-testid=ruleset-{name}]", timeout=ENGINE_MS)
    page.check(f"[data-testid=ruleset-{name}]")


def start_hotseat(page: Any, names: tuple[str, str] = NAMES, *, tap: bool = False) -> None:
    """Fill the start screen with the two names and begin a hot-seat duel (tapping "Begin" on a
    touch page if `tap`)."""
    page.fill("[data-testid=name-0]", names[0])
    page.fill("[data-testid=name-1]", names[1])
    page.check("[data-testid=mode-hotseat]")
    (page.tap if tap else page.click)("[data-testid=start-game]")


def start_by_codes(page: Any, name: str = NAMES[0], *, tap: bool = False) -> None:
    """Begin a duel by codes as the host `name` from the start screen, and wait for the
    invitation's code."""
    page.check("[data-testid=mode-codes]")
    page.fill("[data-testid=name-0]", name)
    (page.tap if tap else page.click)("[data-testid=start-game]")
    page.wait_for_selector("[data-testid=remote-code]", timeout=ENGINE_MS)


def import_record(page: Any, text: str, mode: str | None = "hotseat") -> None:
    """From the start screen, load the record `text` through "Import a record…" (as a duel of
    `mode`; None: the import's own choice, e.g. a finished duel's replay)."""
    page.click("[data-testid=import-record]")
    page.fill("[data-testid=import-text]", text)
    if mode is not None:
        page.select_option("[data-testid=import-mode]", mode)
    page.click("[data-testid=import-submit]")


def import_hotseat(page: Any, text: str) -> None:
    """Load a record as a hot-seat duel and hand the device to the first wizard's orders."""
    import_record(page, text)
    page.wait_for_selector("[data-testid=pass-screen]", timeout=ENGINE_MS)
    page.click("[data-testid=pass-ready]")
    page.wait_for_selector("[data-testid=orders-screen]", timeout=ENGINE_MS)


def import_hasted_turn(page: Any, text: str, turn: int) -> None:
    """Import `text`, a hot-seat record waiting for Alice's hasted `turn`: the hand-over names her
    and the hasted turn, and her orders screen is that turn's alone (its phase tag, one gesture
    set, no time-stop note)."""
    import_record(page, text)
    page.wait_for_selector("[data-testid=pass-screen]", timeout=ENGINE_MS)
    assert "Alice" in page.inner_text("#pass-title")
    assert "hasted turn" in page.inner_text("[data-testid=pass-screen]")
    # Until the hand-over screen has gone, to_orders would take it for the next one and press
    # a "ready" that is no longer there.
    pass_device(page)
    assert to_orders(page) == (0, turn)
    assert page.text_content("[data-testid=phase-tag]") == "hasted turn"
    assert page.locator("text=Time has stopped").count() == 0
    assert page.locator("[data-testid=gesture-1-L-stab]").count() == 0  # one gesture set


# ---------- records the engine writes, to import ----------


def record_text(turns: list[tuple[str, str]], decisions: dict[int, dict[str, str]] | None = None,
                extra: dict[int, dict[str, Any]] | None = None) -> str:
    """A record of Alice and Bob's duel of these turns, (Alice's "LR", Bob's "LR") per turn;
    decisions by turn for the wizard the rules ask (Alice here); extra order fields for Alice by
    turn.  It must end waiting for orders."""
    game = engine_duel.new_game(NAMES, "5eed5eed")
    for turn, (a, b) in enumerate(turns, start=1):
        alice = {"gestures": [list(a)], **(extra or {}).get(turn, {})}
        game, _ = engine_duel.step(game, {0: alice, 1: {"gestures": [list(b)]}})
        if game.phase.kind == "decision":
            game, _ = engine_duel.step(game, {0: {"decisions": (decisions or {})[turn]}})
    assert game.phase.kind == "orders", game.phase
    return json.dumps(export_record(game))


# A finished duel: Alice casts a missile (S-D) twice with her left hand, then stabs; Bob waves and
# is paralysed once (F-F-F by Alice's right hand on turn 3, his right hand held).  Alice wins.
FINISHED_TURNS = [("SF", "-W"), ("DF", "-W"), ("SF", "-P"), ("D>", "-P")] + [("->", "--")] * 16


def finished_record() -> str:
    """The record of FINISHED_TURNS' duel, played to its end (Alice wins)."""
    game = engine_duel.new_game(NAMES, "5eed5eed")
    for a, b in FINISHED_TURNS:
        if game.phase.kind == "over":
            break
        orders: dict[str, Any] = {"gestures": [list(a)]}
        if ">" in a:
            orders["stab"] = "W1"
        game, _ = engine_duel.step(game, {0: orders, 1: {"gestures": [list(b)]}})
        if game.phase.kind == "decision":
            game, _ = engine_duel.step(game, {0: {"decisions": {"paralysis:W1": "R"}}})
    assert game.phase.kind == "over", game.phase
    return json.dumps(export_record(game))


# ---------- one screen at a time ----------


def wait_screen(page: Any, settled: str = SETTLED) -> str:
    """Wait for the next settled screen (one of `settled`) and return its test id."""
    handle = page.wait_for_selector(settled, timeout=ENGINE_MS)
    testid: str = handle.get_attribute("data-testid")
    return testid


def pass_device(page: Any, *, tap: bool = False) -> None:
    """On the hand-over screen: press "ready" (a tap on a touch page) and wait until it has gone."""
    (page.tap if tap else page.click)("[data-testid=pass-ready]")
    page.wait_for_selector("[data-testid=pass-screen]", state="detached")


def answer_decision(page: Any) -> None:
    """On the decision screen: choose the first answer of each question, decide, and wait until
    the screen has gone."""
    for fieldset in page.locator("[data-testid=decision-screen] fieldset").all():
        fieldset.locator("input[type=radio]").first.check()
    page.click("[data-testid=submit-decision]")
    page.wait_for_selector("[data-testid=decision-screen]", state="detached", timeout=ENGINE_MS)


def to_orders(page: Any) -> tuple[int, int]:
    """Past the hand-over screen, if one comes, to the next orders screen: (wizard, turn)."""
    if wait_screen(page) == "pass-screen":
        page.click("[data-testid=pass-ready]")
    screen = page.wait_for_selector("[data-testid=orders-screen]", timeout=ENGINE_MS)
    return int(screen.get_attribute("data-wizard")), int(screen.get_attribute("data-turn"))


def orders_of(page: Any) -> tuple[int, int]:
    """The orders screen in sight: (wizard, turn)."""
    screen = page.locator("[data-testid=orders-screen]")
    return int(screen.get_attribute("data-wizard")), int(screen.get_attribute("data-turn"))


def pick(page: Any, pair: tuple[str, str] | str) -> None:
    """Check the left and the right hand's gestures (letters, "-" nothing, ">" stab) in the
    first gesture set."""
    page.check(gesture_pad("L", pair[0]))
    page.check(gesture_pad("R", pair[1]))


def gesture_pad(hand: str, gesture: str) -> str:
    """The selector of the first gesture set's button for `gesture` (a letter, "-" nothing or
    ">" stab) of `hand` ("L" or "R")."""
    return f"[data-testid=gesture-0-{hand}-{SLUG.get(gesture, gesture)}]"


def wait_preview(page: Any) -> None:
    """Wait until the engine's preview of the current draft has arrived."""
    page.wait_for_selector("[data-testid=preview][aria-busy=false]", timeout=ENGINE_MS)


def seal(page: Any, *, surrender: bool = False) -> None:
    """Press Seal; a surrender (both hands P) is confirmed with the second press the page asks
    for."""
    page.click("[data-testid=submit-orders]")
    if surrender:
        page.wait_for_selector("[data-testid=confirm-risky]", timeout=ENGINE_MS)
        page.click("[data-testid=submit-orders]")


def wait_left(page: Any, wizard: int, turn: int) -> None:
    """Wait until the orders screen of this wizard and turn has gone (sealed and moved on)."""
    page.wait_for_selector(f"[data-testid=orders-screen][data-wizard='{wizard}']"
                           f"[data-turn='{turn}']", state="detached", timeout=ENGINE_MS)


def play_turn(page: Any, pair: tuple[str, str] | str,
              ready: Callable[[Any], None] | None = None) -> tuple[int, int]:
    """On the orders screen in sight: pick `pair`, a stab at the other wizard, wait for the
    preview, call `ready(page)` if given, seal (a surrender confirmed) and wait until the screen
    has gone; (wizard, turn)."""
    wizard, turn = orders_of(page)
    pick(page, pair)
    if ">" in pair:
        # The stab asks whom: answered explicitly through the question's list.
        page.select_option("[data-testid=stab-target-0]", f"W{1 - wizard}")
    wait_preview(page)
    if ready:
        ready(page)
    seal(page, surrender=pair[0] == pair[1] == "P")
    wait_left(page, wizard, turn)
    return wizard, turn


# ---------- whole duels ----------


def script_row(script: dict[int, list[str]], wizard: int, turn: int, after: str = "->") -> str:
    """The wizard's "LR" pair for the turn in `script` (one row per turn), or `after` once the
    script has run out."""
    rows = script[wizard]
    return rows[turn - 1] if turn <= len(rows) else after


def scripted(script: dict[int, list[str]], after: str = "->") -> Write:
    """A `write` that plays each wizard's script_row (play_turn)."""

    def write(page: Any, wizard: int, turn: int) -> None:
        play_turn(page, script_row(script, wizard, turn, after))

    return write


def play_duel(page: Any, write: Write, *, stop_at: Collection[str] = ("game-over",),
              screens: int = 80, wait: Callable[[Any], str] = wait_screen,
              decide: Callable[[Any], None] | None = answer_decision,
              on_pass: Callable[[Any], None] | None = None, tap: bool = False) -> str:
    """Follow the duel's screens (each found by `wait`) until one of `stop_at` shows, and return
    its test id: hand the device over (after `on_pass(page)`; tapping if `tap`), answer a question
    with `decide` (None: the duel must ask none), and on each orders screen call `write(page,
    wizard, turn)`, then wait for the screen to go (or return "orders-screen" if it returned
    True).  Fails on the page's failure screen, or after `screens` screens."""
    for _ in range(screens):
        kind = wait(page)
        if kind in stop_at:
            return kind
        if kind == "failure-screen":
            raise AssertionError(page.inner_text("[data-testid=failure-screen]"))
        if kind == "pass-screen":
            if on_pass:
                on_pass(page)
            pass_device(page, tap=tap)
        elif kind == "decision-screen":
            assert decide is not None, "the duel asks for no decision"
            decide(page)
        else:
            wizard, turn = orders_of(page)
            if write(page, wizard, turn):
                return kind
            wait_left(page, wizard, turn)
    raise AssertionError(f"the duel did not reach {', '.join(stop_at)} in {screens} screens")
