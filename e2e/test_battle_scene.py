"""The battle scene (issue 27) through the real page in Debian's Chromium, at desktop and phone
size.

One scripted hot-seat duel shows the scene at each moment the issue names:
- turn 1: both wizards, full health, empty hands, above the orders on a phone and beside them
  on a desktop, where every word drawn on the scene is 12 px or more;
- a clash (turn 3): Alice's confusion and paralysis both at Bob cancel; the turn's animation (under
  prefers-reduced-motion: a still sequence) says so on the scene, then Escape skips it;
- blindness (turn 6 on): Bob's blindness on Alice: her scene wears the blindfold and hides Bob's
  health, enchantments and hands, while Bob's scene shows all of his own;
- a summons (turn 6): Alice's goblin stands on her side, in her colour, with its health;
- the end: Bob surrenders; the end screen has the scene.
Screenshots go to test-output/battle-scene-*.png.

Fixtures `server_url`, `browser` and `shot` come from e2e/conftest.py.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")

from conftest import Shot
from duel_play import (
    ENGINE_MS,
    SIZES,
    at_widths,
    open_game,
    play_duel,
    play_turn,
    sized_page,
    start_hotseat,
)

# (left, right) per turn.  Alice: confusion (D S F) and paralysis (F F F) at Bob on turn 3, then
# a goblin (S F W) on turn 6.  Bob: blindness (D W F F d) at Alice on turn 5, then surrenders.
SCRIPT = {
    0: ["DF", "SF", "FF", "S-", "F-", "W-", "--"],
    1: ["D-", "W-", "F-", "F-", "DD", "--", "PP"],
}
Check = Callable[[Any], None]


def scene_of(page: Any) -> dict[str, Any]:
    """What the scene on screen shows: each wizard's health and hands, monsters, badges."""
    result: dict[str, Any] = page.evaluate("""() => {
      const scene = document.querySelector('[data-testid=battle-scene]');
      const wiz = [...scene.querySelectorAll('.scene-wizard')].map((g) => ({
        index: Number(g.dataset.wizard),
        health: g.querySelector('.health-bar').dataset.health,
        hands: [...g.querySelectorAll('.hand')].map((x) => x.dataset.gesture),
        effects: [...g.querySelectorAll('.badge')].map((x) => x.dataset.effect),
        blindfold: g.querySelector('[data-testid=scene-blindfold]') !== null,
      }));
      const monsters = [...scene.querySelectorAll('.scene-monster')].map((g) => ({
        kind: g.dataset.kind, controller: Number(g.dataset.controller),
        health: g.querySelector('.health-bar').dataset.health }));
      const box = scene.getBoundingClientRect();
      const orders = document.querySelector('[data-testid=orders-screen] .duel-orders');
      const form = orders ? orders.getBoundingClientRect() : null;
      // Each word drawn on the scene, at the size it is drawn on screen (CSS px).
      const words = [...scene.querySelectorAll('svg text')].filter((x) => x.getBBox().width > 0
        && getComputedStyle(x).display !== 'none').map((x) => ({ text: x.textContent,
        px: parseFloat(getComputedStyle(x).fontSize) * x.getScreenCTM().a }));
      return { wizard: Number(scene.dataset.wizard), blind: scene.dataset.blind, wiz, monsters,
               top: box.top + scrollY, bottom: box.bottom + scrollY, right: box.right,
               ordersTop: form ? form.top + scrollY : null, ordersLeft: form ? form.left : null,
               words, label: scene.querySelector('svg').getAttribute('aria-label') };
    }""")
    return result


def by_index(scene: dict[str, Any], index: int) -> dict[str, Any]:
    """One wizard of the scene."""
    wizard: dict[str, Any] = next(w for w in scene["wiz"] if w["index"] == index)
    return wizard


def play(page: Any, checks: dict[tuple[int, int], Check]) -> None:
    """Follow the scripted duel; run checks[(wizard, turn)] on that orders screen."""

    def write(page: Any, wizard: int, turn: int) -> None:
        page.wait_for_selector("[data-testid=battle-scene]")
        if (wizard, turn) in checks:
            checks[(wizard, turn)](page)
        play_turn(page, SCRIPT[wizard][turn - 1])

    play_duel(page, write, screens=40)


# The desktop duel also checks each moment at a phone's width (the layout follows the width:
# web/style.css), so the default run sees both; the phone duel itself (a touch context) is deep.
@pytest.mark.parametrize("size", [
    "desktop", pytest.param("phone", marks=pytest.mark.deep)])  # fmt: skip
def test_the_scene_through_a_duel(browser: Any, server_url: str, shot: Shot, size: str) -> None:
    sizes = list(SIZES) if size == "desktop" else [size]
    seen: set[str] = set()

    def turn_one_at(p: Any, at: str) -> None:
        scene = scene_of(p)
        assert scene["wizard"] == 0 and len(scene["wiz"]) == 2, scene
        assert [w["health"] for w in scene["wiz"]] == ["14", "14"], scene
        assert scene["ordersTop"] is not None, scene
        if at == "phone":  # above the orders (a phone of 390 x 844: a short one has it after)
            assert scene["bottom"] <= scene["ordersTop"], scene
        else:  # beside them, a whole picture: every word of it 12 px or more
            assert scene["right"] <= scene["ordersLeft"] and scene["top"] < 200, scene
            assert scene["words"] and min(w["px"] for w in scene["words"]) >= 12, scene["words"]
        shot(p, f"battle-scene-turn1-{at}", full_page=False)
        seen.add(f"turn1-{at}")

    def turn_one(p: Any) -> None:
        at_widths(p, sizes, lambda at: turn_one_at(p, at))

    def clash(p: Any) -> None:
        # The turn's steps play on the scene, still (reduced motion), one by one.
        p.wait_for_function(
            "() => (document.querySelector('[data-testid=scene-step]') || {}).textContent"
            "?.includes('cancel each other out')", timeout=ENGINE_MS)
        shot(p, f"battle-scene-clash-{size}", full_page=False)
        p.keyboard.press("Escape")
        p.wait_for_selector("[data-testid=battle-scene][data-animating=false]", timeout=ENGINE_MS)
        assert p.inner_text("[data-testid=scene-step]") == ""
        seen.add("clash")

    def blind_with_goblin_at(p: Any, at: str) -> None:
        scene = scene_of(p)
        alice, bob = by_index(scene, 0), by_index(scene, 1)
        assert scene["blind"] == "true" and alice["blindfold"], scene
        assert bob["health"] == "?" and bob["effects"] == ["unseen"], bob
        assert bob["hands"] == ["?", "?"], bob
        assert "blindness" in alice["effects"], alice
        assert scene["monsters"] == [{"kind": "goblin", "controller": 0, "health": "1"}], scene
        if at != "phone":
            assert min(w["px"] for w in scene["words"]) >= 12, scene["words"]
        shot(p, f"battle-scene-blind-summons-{at}", full_page=False)
        seen.add(f"blind-{at}")

    def blind_with_goblin(p: Any) -> None:
        at_widths(p, sizes, lambda at: blind_with_goblin_at(p, at))

    def bob_sees_the_goblin(p: Any) -> None:
        scene = scene_of(p)
        assert scene["wizard"] == 1 and scene["blind"] == "false", scene
        assert [m["controller"] for m in scene["monsters"]] == [0], scene
        assert by_index(scene, 0)["health"] != "?", scene
        seen.add("summons")

    with sized_page(browser, size) as page:
        open_game(page, server_url)
        start_hotseat(page)
        play(page, {(0, 1): turn_one, (0, 4): clash, (0, 7): blind_with_goblin,
                    (1, 7): bob_sees_the_goblin})
        page.wait_for_selector("[data-testid=game-over] [data-testid=battle-scene]",
                               timeout=ENGINE_MS)
        shot(page, f"battle-scene-end-{size}", full_page=False)
        assert seen == {"clash", "summons", *(f"{m}-{at}" for m in ("turn1", "blind")
                                              for at in sizes)}, seen
