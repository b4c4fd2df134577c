"""Writing a melee wizard's orders through the page (e2e/test_melee_*.py share it; they seal
with e2e/duel_play.py's `seal`)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

from conftest import DESKTOP, SESSION_URL, kept_context
from duel_play import ENGINE_MS, gesture_pad

# The three wizards of the melee tests: Ann and Bob at a desktop's size, Cat at a phone's.
NAMES = ("Ann", "Bob", "Cat")
PHONE = dict(viewport={"width": 390, "height": 844}, device_scale_factor=2, has_touch=True,
             is_mobile=True)


@contextmanager
def three_players(browser: Any) -> Iterator[list[Any]]:
    """A page each for Ann, Bob (desktop) and Cat (a phone), each in a kept context of his own
    (e2e/conftest.py, kept_context), not yet opened; on leaving, the test fails if one of them
    raised an error meanwhile."""
    with ExitStack() as stack:
        pages = []
        for options in ({"viewport": DESKTOP}, {"viewport": DESKTOP}, PHONE):
            ctx = stack.enter_context(kept_context(browser, SESSION_URL[0], **options))
            page = ctx.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
            pages.append((page, errors))
        yield [page for page, _ in pages]
        for _, errors in pages:
            assert not errors, errors


def pick_orders(page: Any, pair: str, wizard: int, names: tuple[str, ...]) -> None:
    """Pick the gestures `pair` (left, right) on the orders screen ("?": nothing, unless the
    hand is held to a gesture); a stab's target list must name every other wizard, and the stab
    goes at wizard 2."""
    for hand, g in zip("LR", pair, strict=True):
        pad = gesture_pad(hand, g)
        if g == "?":
            pad = f"[data-testid=gesture-0-{hand}-nothing]"
            if not page.is_enabled(pad):
                continue
        page.check(pad)
    page.wait_for_selector("[data-testid=preview][aria-busy=false]", timeout=ENGINE_MS)
    if ">" in pair:
        options = page.locator("[data-testid=stab-target-0] option").all_inner_texts()
        for name in names[:wizard] + names[wizard + 1:]:
            assert any(name in o for o in options), (name, options)
        page.select_option("[data-testid=stab-target-0]", "W2")
        page.wait_for_selector("[data-testid=preview][aria-busy=false]", timeout=ENGINE_MS)

