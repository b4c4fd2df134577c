"""An accessibility audit with axe-core (e2e/axe.py, vendored for the tests only) on every screen
a duel goes through, at desktop and phone size: 0 serious or critical findings (issue 27).

Screens: the start screen, the hot-seat hand-over, the orders with the battle scene (turn 1 and
with a turn's result card), the spell reference, the saved duels, the end (after a surrender),
the replay, and a duel by codes waiting for its invitation's answer.

Fixtures `server_url`, `browser` and `shot` come from e2e/conftest.py.
"""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")

from axe import audit
from duel_play import (
    ENGINE_MS,
    SIZES,
    at_widths,
    open_game,
    play_turn,
    sized_page,
    start_hotseat,
    to_orders,
    wait_screen,
)


# The desktop walk audits each screen at a phone's width too (the layout follows the width:
# web/style.css), so the default run sees both; the walk in a phone's touch context is deep.
@pytest.mark.parametrize("size", [
    "desktop", pytest.param("phone", marks=pytest.mark.deep)])  # fmt: skip
def test_every_screen_has_no_serious_finding(browser: Any, server_url: str, size: str) -> None:
    sizes = list(SIZES) if size == "desktop" else [size]
    findings: list[dict[str, Any]] = []

    def audit_here(page: Any, where: str) -> list[dict[str, Any]]:
        """The screen's findings at each of `sizes`."""
        found: list[dict[str, Any]] = []
        at_widths(page, sizes, lambda at: found.extend(audit(page, f"{where} ({at})")))
        return found

    with sized_page(browser, size) as page:
        open_game(page, server_url)
        findings += audit_here(page, "start")
        start_hotseat(page)
        page.wait_for_selector("[data-testid=pass-screen]", timeout=ENGINE_MS)
        findings += audit_here(page, "pass")
        page.click("[data-testid=pass-ready]")
        page.wait_for_selector("[data-testid=orders-screen] [data-testid=battle-scene]",
                               timeout=ENGINE_MS)
        findings += audit_here(page, "orders, turn 1")
        play_turn(page, "SD")
        to_orders(page)
        play_turn(page, "--")
        to_orders(page)
        assert wait_screen(page) == "orders-screen"
        page.wait_for_selector("[data-testid=outcome]")
        findings += audit_here(page, "orders with a result card")
        page.keyboard.press("r")
        page.wait_for_selector("dialog[open]", timeout=ENGINE_MS)
        findings += audit_here(page, "spell reference")
        page.keyboard.press("Escape")
        page.wait_for_selector("dialog[open]", state="detached")
        play_turn(page, "PP")
        to_orders(page)
        play_turn(page, "--")
        page.wait_for_selector("[data-testid=game-over] [data-testid=end-blow]",
                               timeout=ENGINE_MS)
        findings += audit_here(page, "end")
        page.click("[data-testid=replay-open]")
        page.wait_for_selector("[data-testid=replay-screen]", timeout=ENGINE_MS)
        findings += audit_here(page, "replay")
        page.click("[data-testid=replay-last]")
        page.wait_for_selector("[data-testid=replay-result]", timeout=ENGINE_MS)
        findings += audit_here(page, "replay, last step")
        page.click("[data-testid=leave-duel]")
        page.wait_for_selector("[data-testid=start-screen]", timeout=ENGINE_MS)
        findings += audit_here(page, "saved duels")
        page.fill("[data-testid=name-0]", "Alice")
        page.check("[data-testid=mode-codes]")
        page.click("[data-testid=start-game]")
        page.wait_for_selector("[data-testid=remote-screen]", timeout=ENGINE_MS)
        findings += audit_here(page, "codes, the invitation")
    assert not findings, "\n".join(f"{f['where']}: {f['impact']} {f['id']} ({f['help']}): "
                                   f"{f['nodes']}" for f in findings)


def test_the_audit_can_fail(page: Any) -> None:
    # A button without a name is a critical finding: the audit sees it (on a page of its own
    # content: the kept context's blank page, nothing of the site loaded).
    page.set_content("<!doctype html><html lang=en><title>t</title>"
                     "<main><button></button></main>")
    assert [f["id"] for f in audit(page, "a nameless button")] == ["button-name"]
