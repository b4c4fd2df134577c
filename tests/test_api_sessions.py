"""Kept duels at the boundary (wavinghands.sessions; issue 24, bug 10): a duel stepped and viewed
by handle, its game and views sent as what changed, gives back exactly what the whole-JSON calls
give (games, views, records bit for bit), and a handle or cursor the engine cannot use is an
error value or a whole view, never another duel's state."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sizes import size

from wavinghands import api, sessions
from wavinghands.playout import random_duel

JSON = dict[str, Any]

_DEFAULT = "8" if sys.platform == "emscripten" else "30"
EXAMPLES = int(os.environ.get("WH_PROPERTY_EXAMPLES", _DEFAULT))  # (the melees: a fifth)
# Random duels (tests/sizes.py: 19 by default, the first to reach a time stop and a hasted
# turn besides decisions, monsters, enchantments and duels to their end; 30 under --deep).
DUELS = int(os.environ.get("WH_PROPERTY_EXAMPLES", size(19, deep=30, pyodide=8)))
SETTINGS = settings(max_examples=DUELS, deadline=None,
                    derandomize=not os.environ.get("WH_PROPERTY_RANDOM"),
                    suppress_health_check=[HealthCheck.too_slow])


def answer(text: str) -> dict[str, Any]:
    """A boundary answer, parsed."""
    parsed: dict[str, Any] = json.loads(text)
    return parsed


def ok(text: str) -> dict[str, Any]:
    """A boundary answer that must be {"ok": true}."""
    parsed = answer(text)
    assert parsed["ok"], parsed
    return parsed


def error_code(text: str) -> str:
    """The code of a boundary answer that must be an error value."""
    parsed = answer(text)
    assert parsed["ok"] is False, parsed
    code: str = parsed["error"]["code"]
    return code


def both_ways(seed: int, wizards: int = 2, max_turns: int = 25) -> None:
    """Play one random duel by whole JSON and by handle, views through cursors, comparing all."""
    history = random_duel(seed, max_turns=max_turns, wizards=wizards)
    first = history[0][0].to_json()
    game, handle = first, ok(api.session_open(json.dumps(first)))["session"]
    text = json.dumps(game)
    seen: dict[int, tuple[Any, dict[str, Any] | None]] = {v: (None, None) for v in range(wizards)}
    as_changes = 0
    for state, inputs in history:
        assert game == state.to_json()
        for v in range(wizards):
            whole = ok(api.view(text, json.dumps(v)))["view"]
            cursor, before = seen[v]
            got = ok(api.session_view(json.dumps(handle), json.dumps(v), json.dumps(cursor)))
            as_changes += "log_keep" in got["view"]
            rebuilt = sessions.apply_view_delta(before, got["view"])
            assert rebuilt == whole, f"view of wizard {v} at turn {state.turn}"
            seen[v] = (got["cursor"], rebuilt)
        if not inputs:
            break
        if state.turn == 3:  # the opponent plays the same on a kept duel (novice: quick)
            actor = json.dumps(min(inputs))
            assert answer(api.ai_input(json.dumps(handle), actor, '"novice"')) == \
                answer(api.ai_input(text, actor, '"novice"'))
        given_inputs = json.dumps({str(k): v for k, v in inputs.items()})
        full = ok(api.step(text, given_inputs))
        kept = ok(api.session_step(json.dumps(handle), given_inputs))
        assert kept["events"] == full["events"]
        game = sessions.apply_game_delta(game, kept["delta"])
        assert json.dumps(game) == json.dumps(full["game"]), "the same JSON, key order too"
        handle, text = kept["session"], json.dumps(full["game"])
    assert as_changes >= (len(history) - 1) * wizards, "every view after the first as changes"
    assert ok(api.export_record(json.dumps(handle)))["record"] == \
        ok(api.export_record(text))["record"]


@SETTINGS
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_a_duel_through_deltas_is_the_duel_through_whole_json(seed: int) -> None:
    both_ways(seed)


@settings(max_examples=max(2, EXAMPLES // 5), deadline=None, derandomize=True)
@given(st.integers(min_value=0, max_value=2**32 - 1), st.integers(min_value=3, max_value=5))
def test_a_melee_through_deltas_is_the_melee_through_whole_json(seed: int, n: int) -> None:
    both_ways(seed, wizards=n, max_turns=12)


def new_duel(seed: str = "0123456789abcdef") -> str:
    """A new duel's game JSON."""
    return json.dumps(ok(api.new_game(json.dumps({"names": ["Ann", "Bob"], "seed": seed})))["game"])


def test_the_same_game_is_the_same_handle_and_a_handle_stands_for_its_game() -> None:
    game = new_duel()
    handle = ok(api.session_open(game))["session"]
    assert ok(api.session_open(game))["session"] == handle
    assert ok(api.session_open(json.dumps(handle)))["session"] == handle
    assert answer(api.view(json.dumps(handle), "1")) == answer(api.view(game, "1"))
    draft = json.dumps({"gestures": [["P", "W"]]})
    by_handle = answer(api.preview(json.dumps(handle), "0", draft))
    assert by_handle == answer(api.preview(game, "0", draft))


def test_an_evicted_or_unknown_handle_is_a_clear_error_value() -> None:
    first = ok(api.session_open(new_duel()))["session"]
    for i in range(sessions.KEPT_MOST):
        ok(api.session_open(new_duel(f"{i + 1:016x}")))
    gone = api.session_view(json.dumps(first), "0")
    assert error_code(gone) == "unknown-session"
    assert "open it again" in answer(gone)["error"]["message"]
    assert error_code(api.session_step(json.dumps(first), "{}")) == "unknown-session"
    assert error_code(api.view(json.dumps(first), "0")) == "unknown-session"
    assert error_code(api.session_view(json.dumps("s" + "0" * 32), "0")) == "unknown-session"
    for bad in ("nope", "S" + "0" * 32, "s" + "0" * 31):
        assert error_code(api.session_view(json.dumps(bad), "0")) == "bad-session"
    assert error_code(api.session_step(json.dumps(12), "{}")) == "bad-session"
    assert error_code(api.session_open(json.dumps([1]))) == "bad-game"


def test_a_cursor_of_another_duel_or_state_gives_the_whole_view() -> None:
    a = ok(api.session_open(new_duel()))["session"]
    b = ok(api.session_open(new_duel("fedcba9876543210")))["session"]
    cursor = ok(api.session_view(json.dumps(a), "0"))["cursor"]
    whole = ok(api.view(json.dumps(b), "0"))["view"]
    wrongs: tuple[Any, ...] = (cursor, {**cursor, "duel": "x"}, {"rows": "x"}, [], 7,
                               {**cursor, "at": b, "log": 10**6})
    for wrong in wrongs:
        got = ok(api.session_view(json.dumps(b), "0", json.dumps(wrong)))["view"]
        assert got == whole
    assert error_code(api.session_view(json.dumps(a), "0", "{")) == "bad-json"
    # A view sent as changes cannot be read without the view it changes.
    delta = {"log_keep": 0, "log": [], "wizards": [], "notes": None}
    try:
        sessions.apply_view_delta(None, delta)
    except sessions.SessionError as e:
        assert e.code == "stale-cursor"
    else:
        raise AssertionError("applied a delta to nothing")


def test_a_step_refused_changes_nothing_kept() -> None:
    handle = ok(api.session_open(new_duel()))["session"]
    before = ok(api.session_view(json.dumps(handle), "0"))
    assert error_code(api.session_step(json.dumps(handle), json.dumps({"7": {}}))) == "bad-request"
    assert ok(api.session_view(json.dumps(handle), "0")) == before


FIXTURE = Path(__file__).resolve().parent / "js" / "fixtures" / "kept-duel.json"


def kept_duel_fixture(seed: int = 7, max_turns: int = 4) -> JSON:
    """A short duel as the page meets it through kept duels (tests/js/engine-session.test.mjs):
    per phase the game before, the step's delta and the whole game after; per wizard each
    view's answer (changes after the first) and the whole view it must give."""
    history = random_duel(seed, max_turns=max_turns)
    game = history[0][0].to_json()
    handle = ok(api.session_open(json.dumps(game)))["session"]
    steps, views = [], []
    cursors: list[Any] = [None, None]
    for state, inputs in history:
        for v in (0, 1):
            got = ok(api.session_view(json.dumps(handle), json.dumps(v), json.dumps(cursors[v])))
            cursors[v] = got["cursor"]
            whole = ok(api.view(json.dumps(state.to_json()), json.dumps(v)))["view"]
            views.append({"wizard": v, "answer": got["view"], "whole": whole})
        if not inputs:
            break
        kept = ok(api.session_step(json.dumps(handle),
                                   json.dumps({str(k): x for k, x in inputs.items()})))
        after = ok(api.step(json.dumps(game), json.dumps({str(k): x for k, x in inputs.items()})))
        steps.append({"before": game, "delta": kept["delta"], "after": after["game"]})
        game, handle = after["game"], kept["session"]
    return {"seed": seed, "steps": steps, "views": views}


def test_the_js_fixture_has_the_shape_of_the_engines_answers() -> None:
    """tests/js/fixtures/kept-duel.json (the JS twins' test data: the engine's answers when it
    was written, whole views and games beside their deltas) has the keys the engine gives now;
    `python3 tests/test_api_sessions.py` writes it again (a change of the rules may change its
    texts, which the JS test does not mind: it compares the fixture with itself)."""
    fixture, now = json.loads(FIXTURE.read_text()), kept_duel_fixture()
    assert set(fixture["steps"][0]["delta"]) == set(now["steps"][0]["delta"])
    assert [set(v["answer"]) for v in fixture["views"][:4]] == \
        [set(v["answer"]) for v in now["views"][:4]]


if __name__ == "__main__":
    FIXTURE.write_text(json.dumps(kept_duel_fixture(), separators=(",", ":")) + "\n")
