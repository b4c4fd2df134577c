"""The puzzle set (wavinghands.puzzles, data/puzzles.json), checked on the engine: every stated
answer wins or survives against every legal reply; where a puzzle claims its answer is unique, a
search over every legal order of yours finds no other; every "what can your opponent complete
next?" answer is what the engine finds; both rulesets, each kind; the puzzle of the day is
derived from the date alone; the JSON entry points answer with values, never exceptions."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from wavinghands import api, puzzles
from wavinghands.puzzles import FORESEE, KINDS, SURVIVE, WIN, YOU

PUZZLES = puzzles.all_puzzles()
IDS = [p.id for p in PUZZLES]


def test_at_least_thirty_puzzles_in_both_rulesets_of_every_kind() -> None:
    assert len(PUZZLES) >= 30
    assert len(set(IDS)) == len(IDS)
    tally = Counter((p.ruleset, p.kind) for p in PUZZLES)
    for ruleset in ("standard", "warlocks"):
        for kind in KINDS:
            assert tally[(ruleset, kind)] >= 3, (ruleset, kind)


@pytest.mark.parametrize("pid", IDS)
def test_the_position_is_a_real_duel_waiting_for_orders(pid: str) -> None:
    game = puzzles.position(pid)
    assert game.phase.kind == "orders" and game.result is None
    assert all(w.alive for w in game.wizards)
    p = puzzles.find_puzzle(pid)
    assert game.ruleset.name == p.ruleset
    assert len(p.hints) >= 2 and p.explain


@pytest.mark.parametrize("pid", [p.id for p in PUZZLES if p.kind != FORESEE])
def test_the_answer_meets_the_goal_against_every_reply(pid: str) -> None:
    p = puzzles.find_puzzle(pid)
    assert puzzles.refutation(pid, p.answer) is None
    verdict = puzzles.judge(pid, p.answer)
    assert verdict["solved"] is True


@pytest.mark.parametrize("pid", [p.id for p in PUZZLES if p.kind != FORESEE and p.unique])
def test_no_other_answer_where_the_puzzle_claims_one(pid: str) -> None:
    assert puzzles.other_solutions(pid) == []


@pytest.mark.parametrize("pid", [p.id for p in PUZZLES if p.kind != FORESEE])
def test_doing_nothing_is_not_an_answer(pid: str) -> None:
    """Each puzzle asks something: standing still fails it, and the engine says how."""
    reply = puzzles.refutation(pid, {"gestures": [["-", "-"]]})
    assert reply is not None and reply["gestures"]


@pytest.mark.parametrize("pid", [p.id for p in PUZZLES if p.kind == FORESEE])
def test_the_foreseen_spells_are_what_the_engine_finds(pid: str) -> None:
    p = puzzles.find_puzzle(pid)
    game = puzzles.position(pid)
    assert sorted(puzzles.completions(game, 1)) == sorted(p.answer)
    assert puzzles.judge(pid, p.answer)["solved"] is True
    short = puzzles.judge(pid, p.answer[1:])
    assert short["solved"] is False and short["missing"] == [p.answer[0]]


def test_a_wrong_answer_is_refuted_with_the_reply_that_beats_it() -> None:
    # Counter the bolt: a shield does not stop lightning.
    verdict = puzzles.judge("std-survive-counter", {"gestures": [["P", "-"]]})
    assert verdict["solved"] is False
    assert verdict["reply"]["gestures"] == [["-", "D"]] or "D" in verdict["reply"]["gestures"][0]


def test_the_puzzle_of_the_day_comes_from_the_date_alone() -> None:
    days = [f"2026-12-{d:02d}" for d in range(1, 32)]
    first = [puzzles.of_the_day(d).id for d in days]
    assert first == [puzzles.of_the_day(d).id for d in days]
    assert len(set(first)) > 10  # it changes from day to day
    with pytest.raises(puzzles.PuzzleError):
        puzzles.of_the_day("tomorrow")


def test_the_json_entry_points() -> None:
    listing = json.loads(api.puzzles('{"date": "2026-11-28"}'))
    assert listing["ok"] and len(listing["puzzles"]) == len(PUZZLES)
    assert listing["today"] == puzzles.of_the_day("2026-11-28").id
    loaded = json.loads(api.puzzle('"std-win-bolt"'))
    assert loaded["ok"] and loaded["puzzle"]["kind"] == WIN
    assert loaded["view"]["wizard"] == YOU
    right = json.loads(api.puzzle_check('"std-win-bolt"', '{"gestures": [["-", "D"]]}'))
    assert right["ok"] and right["solved"] is True
    wrong = json.loads(api.puzzle_check('"std-survive-counter"', '{"gestures": [["-", "-"]]}'))
    assert wrong["ok"] and wrong["solved"] is False and wrong["events"]
    assert any("Lightning" in e["text"] for e in wrong["events"])


@pytest.mark.parametrize("args, code", [
    (('"no-such"', '[]'), "unknown-puzzle"),
    (('"std-win-bolt"', 'not json'), "bad-json"),
    (('"std-win-bolt"', '[]'), "bad-answer"),
    (('"std-win-bolt"', '{"gestures": [["X", "D"]]}'), "bad-gesture"),
    (('"std-foresee-1"', '{"gestures": [["-", "D"]]}'), "bad-answer"),
])
def test_bad_answers_are_errors_as_values(args: tuple[str, str], code: str) -> None:
    out = json.loads(api.puzzle_check(*args))
    assert out["ok"] is False and out["error"]["code"] == code, out


def test_kinds_are_the_three_the_issue_names() -> None:
    assert {WIN, SURVIVE, FORESEE} == set(KINDS)
