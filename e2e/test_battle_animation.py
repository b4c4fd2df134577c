"""The turn's animation on the battle scene (issue 27), with motion on, and the replay's scene.

- A hot-seat duel's turn 2 opens playing turn 1: each wizard's hands are hidden until his
  gestures' reveal step, where they turn round (drawn on the effects layer) and then show the
  gestures; a tap on the scene skips it, "Play the turn again" plays it again, Escape skips it;
  the sound switch is off until turned on, and stays on on the next screen (a saved setting).
- The replay viewer's step paused for a decision (Alice's paralysis on Bob) shows, on its
  scene, the gestures revealed so far (and the list of them), not the turn before (it was a
  page error: the list's names were drawn by a function replay.js no longer imported).

Fixtures `server_url`, `browser` and `shot` come from e2e/conftest.py.
"""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")

from conftest import Shot
from duel_play import (
    ENGINE_MS,
    finished_record,
    import_record,
    open_game,
    pick,
    play_duel,
    play_turn,
    sized_page,
    start_hotseat,
    to_orders,
    wait_preview,
)

SCENE = "[data-testid=orders-screen] [data-testid=battle-scene]"
# A whole turn plays in about 2 s of wall time: a machine under load can let it pass between
# two of Playwright's round trips, so what a step shows is read in one animation frame (the
# predicate is polled every frame).  A scene that has played (data-step set) is in a reveal
# once a wizard is veiled and his hands are drawn turning on the effects layer: then the
# step's sentence is returned.  Had the turn played out unseen, "Play the turn again" plays it
# from its start (a scene that never played, or never veils, still fails by the timeout).
REVEAL_JS = """(scene) => {
  const s = document.querySelector(scene);
  if (!s || (s.dataset.animating !== 'true' && !s.hasAttribute('data-step'))) return null;
  if (s.dataset.animating !== 'true') {
    document.querySelector('[data-testid=orders-screen] [data-testid=scene-replay]').click();
    return null;
  }
  if (!s.querySelector('.scene-wizard.veiled') || !s.querySelector('.scene-fx .hand-drawn')) {
    return null;
  }
  return document.querySelector('[data-testid=scene-step]').textContent;
}"""


def play_again(page: Any) -> str:
    """Press "Play the turn again" and read, in the same task, whether the scene animates."""
    animating: str = page.evaluate("""(scene) => {
      document.querySelector('[data-testid=scene-replay]').click();
      return document.querySelector(scene).dataset.animating;
    }""", SCENE)
    return animating


def seal_turn_one(page: Any) -> None:
    """Both wizards seal turn 1 (Alice S and D, Bob W and P); on to turn 2's orders."""

    def write(page: Any, wizard: int, turn: int) -> bool:
        if turn == 2:
            return True
        play_turn(page, "SD" if wizard == 0 else "WP")
        return False

    assert play_duel(page, write, screens=6) == "orders-screen"


def test_the_turn_plays_reveals_and_skips(browser: Any, server_url: str, shot: Shot) -> None:
    with sized_page(browser, "desktop") as page:
        # Motion on (the suite's contexts prefer it reduced): the turn animates.
        page.emulate_media(reduced_motion="no-preference")
        open_game(page, server_url)
        start_hotseat(page)
        seal_turn_one(page)
        page.wait_for_selector("[data-testid=orders-screen][data-turn='2']", timeout=ENGINE_MS)
        # Playing turn 1: the first step reveals a wizard's gestures, his hands turning round
        # over the hidden ones.  The turn plays for about 2 s: seen in one frame (REVEAL_JS).
        step = page.wait_for_function(REVEAL_JS, arg=SCENE, timeout=ENGINE_MS).json_value()
        assert "left" in step, step
        shot(page, "battle-animation-reveal", full_page=False)
        # A tap skips it: the hands are the wizards' own again, the effects layer empty.
        page.click(SCENE)
        page.wait_for_selector(f"{SCENE}[data-animating=false]")
        assert page.locator(f"{SCENE} .scene-wizard.veiled").count() == 0
        assert page.locator(f"{SCENE} .scene-fx > *").count() == 0
        hands = page.eval_on_selector_all(f"{SCENE} .scene-wizard", """(ws) => Object.fromEntries(
            ws.map((w) => [w.dataset.wizard, [...w.querySelectorAll('.hand')]
              .map((x) => x.dataset.gesture)]))""")
        assert hands == {"0": ["S", "D"], "1": ["W", "P"]}, hands
        # Played again, then skipped by Escape.
        assert play_again(page) == "true"
        page.keyboard.press("Escape")
        page.wait_for_selector(f"{SCENE}[data-animating=false]")
        assert page.inner_text("[data-testid=scene-step]") == ""
        # Played again to its end: it stops by itself, every hand shown.
        assert play_again(page) == "true"
        page.wait_for_selector(f"{SCENE}[data-animating=false]", timeout=ENGINE_MS)
        assert page.locator(f"{SCENE} .scene-wizard.veiled").count() == 0
        # Sound: off until turned on, and remembered (the next screen's switch is on).
        switch = "[data-testid=orders-screen] [data-testid=scene-sound]"
        assert page.get_attribute(switch, "aria-pressed") == "false"
        page.click(switch)
        assert page.get_attribute(switch, "aria-pressed") == "true"
        assert page.evaluate("localStorage.getItem('wavinghands:v1:setting:sound')") == "true"
        wizard = page.get_attribute("[data-testid=orders-screen]", "data-wizard")
        pick(page, ("-", "-"))
        wait_preview(page)
        page.click("[data-testid=submit-orders]")
        page.wait_for_selector(f"[data-testid=orders-screen][data-wizard='{wizard}']",
                               state="detached", timeout=ENGINE_MS)
        to_orders(page)
        page.wait_for_selector(switch, timeout=ENGINE_MS)
        assert page.get_attribute(switch, "aria-pressed") == "true"


def test_a_replay_step_paused_for_a_decision_shows_the_revealed_gestures(
        browser: Any, server_url: str, shot: Shot) -> None:
    with sized_page(browser, "desktop") as page:  # motion reduced: the steps shown still
        open_game(page, server_url)
        import_record(page, finished_record(), mode=None)
        page.wait_for_selector("[data-testid=replay-screen][data-step='0']", timeout=ENGINE_MS)
        for step in range(1, 8):
            page.click("[data-testid=replay-next]")
            page.wait_for_selector(f"[data-testid=replay-screen][data-step='{step}']",
                                   timeout=ENGINE_MS)
            if page.locator("[data-testid=replay-revealed]").count():
                break
        else:
            raise AssertionError("no step paused for a decision")
        # Turn 3 paused for Alice's paralysis: Alice made S and F, Bob nothing and P.
        side = "[data-testid=replay-side-0] [data-testid=battle-scene]"
        page.wait_for_selector(side)
        hands = page.eval_on_selector_all(f"{side} .scene-wizard", """(ws) => Object.fromEntries(
            ws.map((w) => [w.dataset.wizard, [...w.querySelectorAll('.hand')]
              .map((x) => x.dataset.gesture)]))""")
        assert hands == {"0": ["S", "F"], "1": ["-", "P"]}, hands
        assert "Nothing has happened yet" not in page.inner_text("[data-testid=replay-screen]")
        shot(page, "battle-animation-replay-decision", full_page=False)
