"""Property tests over random legal duels (wavinghands.playout).

Invariants: no exception; damage never negative; the dead act no more; resolution is
deterministic; game JSON and records round-trip; a view never changes when only what the rules
hide from its wizard changes; the API returns error values, never exceptions.

Every random duel (up to 30 turns, with and without the withhold house rule) is checked against
every invariant at once, since playing it is the expensive part: each of the default run's 40
duels (200 under --deep) serves them all; the 40 reach a decision, monsters, a draw and a win,
the withhold rule, hidden gestures, a time stop, a surrender and (the 33rd) a hasted turn.
The long soak, thousands of duels on every core, is `python3 bench/soak_properties.py` (it sets
WH_PROPERTY_EXAMPLES).
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

# Random duels per property (tests/sizes.py: 40 by default, 200 under --deep, 40 in Pyodide;
# bench/soak_properties.py sets thousands).
EXAMPLES = int(os.environ.get("WH_PROPERTY_EXAMPLES", size(40, deep=200, pyodide=40)))
# The default run draws the same duels every time; the soak's workers each draw their own.
SETTINGS = settings(max_examples=EXAMPLES, deadline=None,
                    derandomize=not os.environ.get("WH_PROPERTY_RANDOM"),
                    suppress_health_check=[HealthCheck.too_slow])
seeds = st.integers(min_value=0, max_value=2**32 - 1)
History = list[tuple[Game, dict[int, dict[str, Any]]]]


def _check_invariants(history: History, monster_floor: int = 0) -> None:
    """Damage never below zero (a monster's never below `monster_floor`: the Warlocks' cures
    go one point above its starting health), the dead are asked for nothing, a finished duel
    has a result."""
    for before, inputs in history[:-1]:
        for w in before.wizards:
            assert w.damage >= 0
            if not w.alive:
                # "Dead monsters take no further part"; a dead wizard is asked for nothing.
                assert w.index not in before.phase.actors
        for m in before.monsters:
            assert m.damage >= monster_floor
        assert set(inputs) == set(before.phase.actors)
    final = history[-1][0]
    if final.result is not None:
        assert final.phase.kind == "over"
        if final.result.winner is not None:
            assert final.wizards[final.result.winner].alive
        else:
            both_dead = not any(w.alive for w in final.wizards)
            assert both_dead or all(w.surrendered for w in final.wizards)


def _check_determinism_and_round_trips(history: History) -> None:
    """Replaying the inputs gives the same states bit for bit; records and game JSON round-trip."""
    final = history[-1][0]
    game = history[0][0]
    for before, inputs in history[:-1]:
        assert canonical_json(game.to_json()) == canonical_json(before.to_json())
        game, _ = step(game, inputs)
    assert canonical_json(game.to_json()) == canonical_json(final.to_json())
    # record -> replay -> record
    rec = export_record(final)
    again = import_record(json.loads(json.dumps(rec)))
    assert export_record(again) == rec
    assert canonical_json(again.to_json()) == canonical_json(final.to_json())
    # game JSON round-trip
    assert Game.from_json(json.loads(json.dumps(final.to_json()))) == final


def _hide_differently(game: Game, owner: int) -> Game:
    """The same game but with every gesture `owner` made unseen by his opponent changed."""
    w = game.wizard(owner)
    swap = {"F": "P", "P": "S", "S": "W", "W": "D", "D": "F", "C": "-", ">": "-", "-": ">"}
    rows = tuple(replace(r, left=swap[r.left], right=swap[r.right])
                 if r.hidden_from_opponent else r for r in w.history)
    return game.with_wizard(replace(w, history=rows))


def _check_views_leak_nothing_hidden(history: History) -> None:
    """A view is the same whatever its wizard may not see; its log is exactly what he saw."""
    for game, _ in history:
        for v in (0, 1):
            altered = _hide_differently(game, 1 - v)
            assert view(game, v) == view(altered, v)
            shown = view(game, v)
            assert [e["text"] for e in shown["log"]] == \
                [e.text for e in game.log if v in e.visible_to]
            json.dumps(shown)


@SETTINGS
@given(seeds, st.booleans())
def test_random_duels_keep_every_invariant(seed: int, withhold: bool) -> None:
    history = random_duel(seed, max_turns=30, withhold=withhold)
    _check_invariants(history)
    _check_determinism_and_round_trips(history)
    _check_views_leak_nothing_hidden(history)


# Cheap examples, so as many as before the duel properties were merged.
@settings(max_examples=EXAMPLES * 3, deadline=None)
@given(st.text(max_size=200), st.text(max_size=50))
def test_api_never_raises(a: str, b: str) -> None:
    for fn, args in ((api.new_game, (a,)), (api.view, (a, b)), (api.step, (a, b)),
                     (api.import_record, (a,)), (api.preview, (a, b, a)),
                     (api.validate, (a, b, a)), (api.export_record, (a,))):
        out = json.loads(fn(*args))
        assert out["ok"] in (True, False)
        if not out["ok"]:
            assert out["error"]["message"]


@settings(max_examples=60, deadline=None)
@given(seeds, st.data())
def test_illegal_or_mangled_orders_change_nothing(seed: int, data: st.DataObject) -> None:
    history = random_duel(seed, max_turns=8)
    game, inputs = history[min(len(history) - 1, data.draw(st.integers(0, 6)))]
    if not inputs:
        return
    text = json.dumps(game.to_json())
    mangled = dict(inputs)
    k = next(iter(mangled))
    mangled[k] = data.draw(st.one_of(
        st.just({"gestures": [[">", ">"]]}),
        st.just({"gestures": [["X", "F"]]}),
        st.just({"gestures": []}),
        st.dictionaries(st.text(max_size=5), st.integers(), max_size=3)))
    out = json.loads(api.step(text, json.dumps({str(i): v for i, v in mangled.items()})))
    assert out["ok"] is False and out["error"]["message"]
    # The caller's game is untouched and still plays on with the legal inputs.
    again = json.loads(api.step(text, json.dumps({str(i): v for i, v in inputs.items()})))
    assert again["ok"] is True
