"""Writing a melee wizard's orders through the page (e2e/test_melee_*.py share it)."""

from __future__ import annotations

from typing import Any

ENGINE_MS = 90_000
SLUG = {">": "stab", "-": "nothing", "?": "nothing"}


def pick_orders(page: Any, pair: str, wizard: int, names: tuple[str, ...]) -> None:
    """Pick the gestures `pair` (left, right) on the orders screen ("?": nothing, unless the
    hand is held to a gesture); a stab's target list must name every other wizard, and the stab
    goes at wizard 2."""
    for hand, g in zip("LR", pair, strict=True):
        pad = f"[data-testid=gesture-0-{hand}-{SLUG.get(g, g)}]"
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


def seal_orders(page: Any, pair: str) -> None:
    """Seal the orders picked; a surrender ("PP") is confirmed, as the page asks."""
    page.click("[data-testid=submit-orders]")
    if pair == "PP":
        page.wait_for_selector("[data-testid=confirm-risky]", timeout=ENGINE_MS)
        page.click("[data-testid=submit-orders]")
