"""Property tests over random legal melees (three to six wizards, both rulesets): the invariants
of test_properties.py, per wizard.

No exception; damage never negative; the dead and the surrendered act no more; a finished melee
has a result its winner survives (or a draw among wizards who went out together); resolution is
deterministic; game JSON and records round-trip; a view never changes when only what the rules
hide from its wizard changes (the gestures each other wizard did not see, per pair of wizards);
the API answers every melee call with values.
"""

from __future__ import annotations

import json
import os
from dataclasses import replace
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sizes import size

from wavinghands import api
from wavinghands.duel import step
from wavinghands.model import Game, canonical_json
from wavinghands.playout import random_duel
from wavinghands.record import export_record, import_record
from wavinghands.view import view

# Random melees per property (tests/sizes.py: 20 by default, 60 under --deep, 12 in Pyodide).
EXAMPLES = int(os.environ.get("WH_PROPERTY_EXAMPLES", size(20, deep=60, pyodide=12)))
SETTINGS = settings(max_examples=EXAMPLES, deadline=None,
                    derandomize=not os.environ.get("WH_PROPERTY_RANDOM"),
                    suppress_health_check=[HealthCheck.too_slow])
seeds = st.integers(min_value=0, max_value=2**32 - 1)
sizes = st.integers(min_value=3, max_value=6)
rulesets = st.sampled_from(["standard", "warlocks"])
History = list[tuple[Game, dict[int, dict[str, Any]]]]


def _check_invariants(history: History, warlocks: bool) -> None:
    """Damage never below zero (a monster's: -1 under Warlocks), only wizards in the fight are
    asked for orders, a finished melee's result names survivors."""
    for before, inputs in history[:-1]:
        for w in before.wizards:
            assert w.damage >= 0
            if not w.in_fight:
                assert w.index not in before.phase.actors
        for m in before.monsters:
            assert m.damage >= (-1 if warlocks else 0)
        assert set(inputs) == set(before.phase.actors)
    final = history[-1][0]
    if final.result is not None:
        assert final.phase.kind == "over"
        r = final.result
        if r.winner is not None:
            assert final.wizards[r.winner].alive
            assert [w.index for w in final.wizards if w.in_fight] in ([r.winner], [])
        elif r.drawn:
            # a draw among those who went out together (or still fought at the last turn)
            assert not [w.index for w in final.wizards if w.in_fight and w.index not in r.drawn]


def _check_determinism_and_round_trips(history: History) -> None:
    final = history[-1][0]
    game = history[0][0]
    for before, inputs in history[:-1]:
        assert canonical_json(game.to_json()) == canonical_json(before.to_json())
        game, _ = step(game, inputs)
    assert canonical_json(game.to_json()) == canonical_json(final.to_json())
    rec = export_record(final)
    again = import_record(json.loads(json.dumps(rec)))
    assert export_record(again) == rec
    assert canonical_json(again.to_json()) == canonical_json(final.to_json())
    assert Game.from_json(json.loads(json.dumps(final.to_json()))) == final


_SWAP = {"F": "P", "P": "S", "S": "W", "W": "D", "D": "F", "C": "-", ">": "-", "-": ">"}


def _hide_differently(game: Game, viewer: int) -> Game:
    """The same game with every gesture the viewer did not see (any other wizard's) changed."""
    for w in game.wizards:
        if w.index == viewer:
            continue
        rows = tuple(replace(r, left=_SWAP[r.left], right=_SWAP[r.right])
                     if r.hidden_to(viewer, w.index) else r for r in w.history)
        game = game.with_wizard(replace(w, history=rows))
    return game


def _check_views(history: History) -> None:
    for game, _ in history[::3]:
        for v in game.everyone:
            shown = view(game, v)
            assert shown == view(_hide_differently(game, v), v)
            assert [e["text"] for e in shown["log"]] == \
                [e.text for e in game.log if v in e.visible_to]
            json.dumps(shown)


@SETTINGS
@given(seeds, sizes, rulesets)
def test_random_melees_keep_every_invariant(seed: int, size: int, ruleset: str) -> None:
    history = random_duel(seed, max_turns=25, ruleset=ruleset, wizards=size)
    _check_invariants(history, ruleset == "warlocks")
    _check_determinism_and_round_trips(history)
    _check_views(history)


@settings(max_examples=20, deadline=None)
@given(seeds, sizes)
def test_the_api_plays_a_melee_with_values(seed: int, size: int) -> None:
    history = random_duel(seed, max_turns=6, wizards=size)
    game, inputs = history[0]
    text = json.dumps(game.to_json())
    out = json.loads(api.step(text, json.dumps({str(i): v for i, v in inputs.items()})))
    assert out["ok"] is True and set(out["events"]) == {str(i) for i in range(size)}
    for v in range(size):
        assert json.loads(api.view(text, str(v)))["ok"] is True
    bad = json.loads(api.view(text, str(size)))
    assert bad["ok"] is False and bad["error"]["code"] == "bad-wizard"
    made = json.loads(api.new_game(json.dumps({"names": [f"N{i}" for i in range(size)],
                                               "seed": "abcdef01"})))
    assert made["ok"] is True and len(made["game"]["wizards"]) == size
