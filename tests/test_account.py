"""The account of a duel: its states replayed from the record, the notes beside each gesture
history (what completed which spell, which hands were forced, what is being built), and the
replay of a record step by step."""

from __future__ import annotations

import json
from typing import Any

import pytest
from citing import cite
from dsl import Duel
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sizes import size

from wavinghands import account, api
from wavinghands.account import history_notes, replay_step, states
from wavinghands.model import Game
from wavinghands.playout import random_duel
from wavinghands.record import RecordError, export_record


def _rows(d: Duel, viewer: int, who: int) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = history_notes(d.game, viewer)[str(who)]["rows"]
    return rows


def test_states_replay_to_the_same_game_and_grow_one_step_at_a_time() -> None:
    d = Duel(A="S D F/- - -", B="- - -/W W P").run()
    replayed = states(d.game)
    assert [s.to_json() for s in replayed] == [s.to_json() for s in d.states]
    assert states(d.game) is replayed  # cached


@cite("gestures S-D. This spell creates a material object of hard substance")
def test_the_gestures_that_completed_a_cast_spell_are_noted_for_both_viewers() -> None:
    d = Duel(A="S D -/- - -", B="- - -/- - -").run()
    for viewer in (0, 1):
        rows = _rows(d, viewer, 0)
        assert rows[1]["cast"] == [{"hand": "L", "spell": "missile", "name": "Missile",
                                    "sequence": "S-D", "first": 0}]
        assert "cast" not in rows[0] and "cast" not in rows[2]


@cite("if the hand being paralyzed is performing a C, S or W it is instead paralyzed into F, "
      "D or P respectively")
def test_a_hand_forced_by_paralysis_is_noted() -> None:
    d = Duel(A="F F F - -/- - - - -", B="- - - - -/- - W P -").decide(3, {"paralysis:W1": "R"})
    d.run()
    rows = _rows(d, 1, 1)
    assert rows[3].get("forced") == {"R": "paralysis"}  # turn 4: W held as P ("W into P")
    assert "forced" not in rows[2]
    assert _rows(d, 0, 1)[3].get("forced") == {"R": "paralysis"}  # the caster knows it


@cite("in the following turn, the caster of the spell writes down the gesture he wants the "
      "subject's named hand to perform.")
def test_a_charmed_hand_is_noted() -> None:
    d = Duel(A="P S D F -/- - - - -", B="- - - - W/- - - - W").decide(4, {"charm:W1": "L"})
    d.orders(5, "A", {"charm": {"gesture": "P"}})
    d.run()
    assert _rows(d, 1, 1)[4]["forced"] == {"L": "charm"}
    assert _rows(d, 0, 1)[4]["forced"] == {"L": "charm"}


def test_what_a_history_is_building() -> None:
    # F-S-S-D-D (fireball): three steps made, two to go.
    d = Duel(A="F S S/- - -", B="- - -/- - -").run()
    building = history_notes(d.game, 1)["0"]["building"]
    assert {"hand": "L", "spell": "fireball", "name": "Fireball", "done": 3,
            "remaining": "D-D"} in building


def test_replay_step_gives_both_views_and_each_steps_events() -> None:
    d = Duel(A="S D/- -", B="- -/- -").run()
    record = export_record(d.game)
    first = replay_step(record, 0)
    assert first["steps"] == 3 and first["label"] == "Before the first turn"
    assert first["views"][0]["turn"] == 1 and first["events"] == {"0": [], "1": []}
    last = replay_step(record, 2)
    assert last["label"] == "After turn 2"
    assert any(e["type"] == "cast" for e in last["events"]["1"])
    assert not any(e["type"] == "cast" for e in replay_step(record, 1)["events"]["0"])
    assert last["views"][1]["notes"]["0"]["rows"][1]["cast"][0]["spell"] == "missile"
    with pytest.raises(RecordError, match="steps 0 to 2"):
        replay_step(record, 3)


def test_the_api_view_carries_notes_and_replay_step_is_at_the_boundary() -> None:
    d = Duel(A="S D/- -", B="- -/- -").run()
    out = json.loads(api.view(json.dumps(d.game.to_json()), "1"))
    assert out["ok"] and out["view"]["notes"]["0"]["rows"][1]["cast"][0]["spell"] == "missile"
    rec = json.dumps(export_record(d.game))
    assert json.loads(api.replay_step(rec, "1"))["step"] == 1
    bad = json.loads(api.replay_step(rec, "9"))
    assert bad["ok"] is False and bad["error"]["code"] == "bad-record"
    assert json.loads(api.replay_step(rec, "true"))["error"]["code"] == "bad-step"


@settings(max_examples=size(5, deep=30, pyodide=2), deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_notes_carried_from_the_last_view_are_the_notes_worked_out_afresh(seed: int) -> None:
    """Each state of a duel arrives as JSON (a duel by codes: a new game each turn) and is
    viewed both ways the page asks (api.view, and session_open then a whole session_view);
    their notes, carried on from the last state's, are those worked out with nothing kept."""
    history = random_duel(seed, max_turns=25)
    carried = []
    for state, _ in history:
        text = json.dumps(state.to_json())
        handle = json.loads(api.session_open(text))["session"]
        for v in ("0", "1"):
            by_json = json.loads(api.view(text, v))["view"]["notes"]
            kept = json.loads(api.session_view(json.dumps(handle), v, "null"))["view"]["notes"]
            assert kept == by_json, f"turn {state.turn}, viewer {v}"
            carried.append(by_json)
    afresh = []
    for state, _ in history:
        account._BY_HISTORY.clear()  # nothing worked out before
        account._CACHE.clear()
        afresh += [history_notes(state, v) for v in (0, 1)]
    assert carried == afresh


def test_the_notes_of_a_game_do_not_depend_on_an_altered_copy_viewed_before_it() -> None:
    """A saved game altered in an old row keeps its set-up and record, so it shares the real
    game's key: viewing it first must not hand its notes to the real game (nor the other way)."""
    d = Duel(A="S D - - - - - -/- - - - - - - -", B="- - - - - - - -/- - - - - - - -").run()
    real = d.states[-1]
    altered = real.to_json()
    altered["wizards"][0]["history"][0]["left"] = "P"  # S-D is no missile any more
    account._BY_HISTORY.clear()
    account._CACHE.clear()
    assert "cast" not in history_notes(Game.from_json(altered), 1)["0"]["rows"][1]
    assert history_notes(real, 1)["0"]["rows"][1]["cast"][0]["spell"] == "missile"
    assert "cast" not in history_notes(Game.from_json(altered), 1)["0"]["rows"][1]


def test_a_game_that_is_not_a_text_is_refused_as_bad_json() -> None:
    """The game argument of a call is a JSON text; anything else is `bad-json`, as a text that
    is not JSON is (not a fault of the engine's own)."""
    for wrong in (None, 7, ["a list"]):
        out = json.loads(api.view(wrong, "0"))
        assert out["ok"] is False and out["error"]["code"] == "bad-json", (wrong, out)


def test_a_game_that_does_not_continue_the_last_one_gets_its_own_notes() -> None:
    """Notes are carried on only to a game whose log and histories begin with the last one's:
    a saved game altered in an old row (its record untouched) is noted afresh."""
    d = Duel(A="S D - - - - - -/- - - - - - - -", B="- - - - - - - -/- - - - - - - -").run()
    assert history_notes(d.states[-2], 1)["0"]["rows"][1]["cast"][0]["spell"] == "missile"
    altered = d.states[-1].to_json()
    altered["wizards"][0]["history"][0]["left"] = "P"  # S-D is no missile any more
    game = Game.from_json(altered)
    carried = history_notes(game, 1)
    account._BY_HISTORY.clear()
    account._CACHE.clear()
    assert carried == history_notes(game, 1)
    assert "cast" not in carried["0"]["rows"][1]
