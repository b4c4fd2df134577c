"""The computer opponent plays with the game's own spell table (issue 13): a ruleset registered
here (the standard table minus the magic mirror, or plus a new spell) gets a working opponent
that never plans a spell the game's table lacks."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest
from citing import cite
from dsl import Duel

from wavinghands.ai import LEVELS, Observation, choose_input, coach, find_level, stream
from wavinghands.ai.evaluate import game_book, plans
from wavinghands.ai.search import search
from wavinghands.duel import new_game, parse_input, step
from wavinghands.legal import input_problems
from wavinghands.model import Game
from wavinghands.rulesets import Ruleset, Variant
from wavinghands.rulesets.base import VARIANTS
from wavinghands.spells import (
    STANDARD_TABLE,
    Category,
    Does,
    Spell,
    SpellTable,
    UsualTarget,
)
from wavinghands.view import view

MIRROR = "magic_mirror"
ZAP = Spell("zap", "Zap", ("F-D",), Category.DAMAGE, UsualTarget.OPPONENT, 38, Does.DAMAGE,
            amount=2, hit_text="A zap stings {subject} for {amount}.")


def _register(name: str, table: SpellTable) -> Iterator[Ruleset]:
    variant = Variant(name, name, "A test ruleset.", table)
    VARIANTS[variant.name] = variant
    try:
        yield Ruleset(variant.name)
    finally:
        del VARIANTS[variant.name]


@pytest.fixture
def no_mirror() -> Iterator[Ruleset]:
    """The standard table without the magic mirror."""
    yield from _register("no-mirror-test",
                         SpellTable(tuple(s for s in STANDARD_TABLE.rows if s.key != MIRROR)))


@pytest.fixture
def zap_rules() -> Iterator[Ruleset]:
    """The standard table plus one plain damage spell the standard table lacks."""
    yield from _register("zap-ai-test", SpellTable((*STANDARD_TABLE.rows, ZAP)))


def _in(ruleset: Ruleset, a: str, b: str) -> Game:
    d = Duel(A=a, B=b)
    d.game = replace(d.game, ruleset=ruleset)
    d.states = [d.game]
    return d.run().game


@cite("Any spell cast on a subject protected by this spell is reflected back upon the caster",
      "except dispel magic and finger of death")
def test_without_a_mirror_in_the_table_it_plans_none(no_mirror: Ruleset) -> None:
    # The position of test_ai's mirror test: with the standard table every level answers a
    # visible finger of death with (w, completing magic mirror c-(w.  In a game whose table has
    # no mirror that gesture completes nothing, and the AI neither plays nor plans it.
    game = _in(no_mirror, "- - - - - - C / - - - - - - C", "- - - - - - - / P W P F S S S")
    assert game.phase.kind == "orders"
    book = game_book(game)
    assert not book.knows(MIRROR)
    for level in LEVELS:
        orders = choose_input(game, 0, level)
        assert orders["gestures"] != [["W", "W"]], level
        obs = Observation.from_view(view(game, 0))
        choice = search(obs, find_level(level), stream(game.seed, game.turn, "t", 0, level))
        assert choice is not None and "mirror" not in choice.why.lower(), (level, choice)
    w = game.wizard(0)
    rows = (*((r.left, r.right) for r in w.history), ("W", "W"))
    assert all(p.facts.key != MIRROR for p in plans(rows, 0, False, book))
    assert "mirror" not in coach(game, 0).why.lower()


def _duel(ruleset: Ruleset, levels: tuple[str, str], turns: int) -> Game:
    game = new_game(("A", "B"), "5eed00aa", ruleset)
    for _ in range(turns):
        if game.phase.kind == "over":
            break
        inputs = {}
        for v in game.phase.actors:
            raw = choose_input(game, v, levels[v])
            assert input_problems(game, v, parse_input(game, raw)) == [], raw
            inputs[v] = raw
        game, _ = step(game, inputs)
    return game


def test_a_duel_in_a_ruleset_with_a_new_spell(zap_rules: Ruleset) -> None:
    # A spell key the standard table does not have ("zap") reaches the opponent's facts, plans
    # and evaluation (strong builds it from the first turn and casts it); every input it gives
    # is legal in that game.
    game = _duel(zap_rules, ("strong", "novice"), 4)
    assert game.turn > 3
    assert any(e.text.startswith("A zap stings") for e in game.log), "strong's zap"
    w = game.wizard(0)
    rows = (*((r.left, r.right) for r in w.history), ("F", "-"), ("D", "-"))
    found = {p.facts.key for p in plans(rows[:-1], 0, False, game_book(game))}
    assert "zap" in found

