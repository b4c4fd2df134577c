"""The computer opponent in a melee (engine/wavinghands/ai/melee.py): every level plays legal
input in melees of three to six wizards under both rulesets, from its view alone (states that
differ only in what its wizard may not see give the same input), and aims what a melee leaves
with no default target at the enemy it fights."""

from __future__ import annotations

from dataclasses import replace

import pytest

from wavinghands.ai import choose_input
from wavinghands.ai.melee import Projection, focus_of
from wavinghands.duel import new_game, parse_input, step
from wavinghands.legal import input_problems
from wavinghands.model import Game
from wavinghands.playout import random_duel
from wavinghands.ruleset import Ruleset
from wavinghands.view import view


def _play(game: Game, turns: int, level: str) -> Game:
    for _ in range(turns):
        if game.phase.kind == "over":
            break
        inputs = {}
        for v in game.phase.actors:
            raw = choose_input(game, v, level)
            assert input_problems(game, v, parse_input(game, raw)) == [], (v, raw)
            inputs[v] = raw
        game, _ = step(game, inputs)
    return game


@pytest.mark.parametrize(("n", "rules", "level", "turns"), [
    (3, "standard", "novice", 6), (4, "warlocks", "fair", 4), (6, "standard", "fair", 2),
    (3, "warlocks", "strong", 1)])
def test_every_level_plays_legal_input_in_a_melee(n: int, rules: str, level: str,
                                                  turns: int) -> None:
    game = new_game(tuple("ABCDEF"[:n]), "feedbeef", Ruleset(rules))
    assert _play(game, turns, level).turn > 1


def test_random_melee_states_get_legal_input() -> None:
    """States of random melees (monsters, enchantments, blindness, decisions) mid-game."""
    for seed in range(4):
        history = random_duel(seed, max_turns=14, wizards=3 + seed % 4)
        for game, _ in history[3::4]:
            for v in game.phase.actors:
                raw = choose_input(game, v, "novice")
                assert input_problems(game, v, parse_input(game, raw)) == [], (seed, v, raw)


def test_the_opponent_reads_only_its_view_in_a_melee() -> None:
    """Another wizard's hidden gestures (here: made while invisible) do not change the input."""
    game = new_game(("A", "B", "C"), "feedbeef")
    for _ in range(4):
        game, _ = step(game, {0: {"gestures": [["P", "-"]] if game.turn < 3 else
                                  [["W", "W"]] if game.turn == 3 else [["S", "S"]]},
                              1: {"gestures": [["-", "-"]]}, 2: {"gestures": [["-", "-"]]}})
    # A is invisible from turn 5: his rows now are hidden from B and C
    game, _ = step(game, {0: {"gestures": [["F", "D"]]}, 1: {"gestures": [["-", "-"]]},
                          2: {"gestures": [["-", "-"]]}})
    row = game.wizard(0).history[-1]
    assert row.hidden_to(1, 0)
    other = game.with_wizard(replace(game.wizard(0), history=(
        *game.wizard(0).history[:-1], replace(row, left="S", right="W"))))
    assert view(game, 1) == view(other, 1)
    for level in ("novice", "fair"):
        assert choose_input(game, 1, level) == choose_input(other, 1, level)


def test_the_focus_is_the_visible_enemy_closest_to_death() -> None:
    game = new_game(("A", "B", "C", "D"), "feedbeef")
    game = game.with_wizard(replace(game.wizard(2), damage=9))
    assert focus_of(view(game, 0)) == 2
    p = Projection(view(game, 0), 2)
    assert p.view["wizard"] == 0 and [w["index"] for w in p.view["wizards"]] == [0, 1]
    assert p.ids("W1", back=True) == "W2" and p.ids("new:1:L", back=True) == "new:2:L"


def test_attacks_left_without_a_target_go_at_the_focus() -> None:
    game = new_game(("A", "B", "C"), "feedbeef")
    game = game.with_wizard(replace(game.wizard(2), damage=12))
    raw = choose_input(game, 0, "fair")
    casts = raw.get("casts", [])
    stab = raw.get("stab")
    assert all(c.get("target", "W2") in ("W2", "W0") for c in casts)
    assert stab in (None, "W2", ["W2", None], [None, "W2"])
