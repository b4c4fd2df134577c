"""The guided first duel's lessons (wavinghands.lessons, data/lessons.json), checked on the
engine: about eight lessons from a first spell through stabs, monsters, enchantments, one gesture
in two spells and reading the opponent's hands to a whole duel against the novice; each starts
from a real position, its intended play passes its check, and doing nothing does not."""

from __future__ import annotations

import json

import pytest

from wavinghands import api, lessons
from wavinghands.lessons import CHECKS
from wavinghands.puzzles import PuzzleError

LESSONS = lessons.all_lessons()
CHECKED = [lesson.id for lesson in LESSONS if not lesson.duel]


def test_about_eight_lessons_ending_in_a_duel_against_the_novice() -> None:
    assert 7 <= len(LESSONS) <= 10
    assert len({lesson.id for lesson in LESSONS}) == len(LESSONS)
    assert LESSONS[-1].duel == "novice"
    assert LESSONS[0].play == (("P", "-"),)  # the first spell is a shield, cast in one turn
    kinds = {what for lesson in LESSONS for what, _ in lesson.check}
    assert kinds == set(CHECKS)


@pytest.mark.parametrize("lid", CHECKED)
def test_the_intended_play_passes_the_check(lid: str) -> None:
    lesson = lessons.find_lesson(lid)
    assert lesson.try_ and lesson.hint and lesson.explain and lesson.check
    game = lessons.position(lid)
    assert game.phase.kind == "orders" and game.result is None
    verdict = lessons.check(lid, lessons.intended(lid))
    assert verdict == {"passed": True, "failed": [], "events": verdict["events"]}
    assert verdict["events"]


@pytest.mark.parametrize("lid", CHECKED)
def test_doing_nothing_fails_the_check(lid: str) -> None:
    lesson = lessons.find_lesson(lid)
    idle = [{"gestures": [["-", "-"]]}] * len(lesson.script)
    verdict = lessons.check(lid, idle)
    assert verdict["passed"] is False and verdict["failed"]


def test_the_wrong_number_of_turns_and_a_duel_are_not_checked() -> None:
    with pytest.raises(PuzzleError):
        lessons.check("missile", [{"gestures": [["S", "-"]]}])
    with pytest.raises(PuzzleError):
        lessons.check("duel-novice", [])
    with pytest.raises(PuzzleError):
        lessons.find_lesson("nope")


def test_the_json_entry_points() -> None:
    listed = json.loads(api.lessons())
    assert listed["ok"] and [x["id"] for x in listed["lessons"]] == [x.id for x in LESSONS]
    first = json.loads(api.lesson('"first-spell"'))
    assert first["ok"] and first["view"]["wizard"] == 0 and first["lesson"]["turns"] == 1
    passed = json.loads(api.lesson_check('"first-spell"', '[{"gestures": [["P", "-"]]}]'))
    assert passed["ok"] and passed["passed"] is True
    assert any("Shield" in e["text"] for e in passed["events"])
    failed = json.loads(api.lesson_check('"first-spell"', '[{"gestures": [["-", "-"]]}]'))
    assert failed["ok"] and failed["passed"] is False and "blocked" in failed["failed"]
    for bad, code in (('{"gestures": []}', "bad-answer"), ('[]', "bad-answer"),
                      ('[{"gestures": [["X", "-"]]}]', "bad-gesture")):
        out = json.loads(api.lesson_check('"first-spell"', bad))
        assert out["ok"] is False and out["error"]["code"] == code, out
    assert json.loads(api.lesson('"nope"'))["error"]["code"] == "unknown-lesson"


@pytest.mark.parametrize("lid", CHECKED)
def test_played_turn_by_turn_the_lesson_ends_as_its_check_says(lid: str) -> None:
    """lesson_turn: the page plays a lesson one turn at a time; the last turn's verdict is
    lesson_check's, and each turn's view shows the player's own gestures so far."""
    turns = lessons.intended(lid)
    for n in range(1, len(turns) + 1):
        out = json.loads(api.lesson_turn(json.dumps(lid), json.dumps(turns[:n])))
        assert out["ok"] and out["played"] == n and out["events"], out
        assert out["view"]["wizard"] == 0
        assert out["done"] is (n == len(turns))
    assert out["passed"] is True and out["failed"] == []
    idle = [{"gestures": [["-", "-"]]}] * len(turns)
    out = json.loads(api.lesson_turn(json.dumps(lid), json.dumps(idle)))
    assert out["done"] and out["passed"] is False
    assert out["failed"] == lessons.check(lid, idle)["failed"]


def test_a_lesson_turn_refuses_what_is_not_a_turn() -> None:
    for lid, turns, code in (('"first-spell"', "[]", "bad-answer"),
                             ('"first-spell"', '[{"gestures": [["P", "-"]]}, {}]', "bad-answer"),
                             ('"first-spell"', '{"gestures": []}', "bad-answer"),
                             ('"duel-novice"', '[{"gestures": [["P", "-"]]}]', "not-a-check"),
                             ('"nope"', '[{"gestures": [["P", "-"]]}]', "unknown-lesson")):
        out = json.loads(api.lesson_turn(lid, turns))
        assert out["ok"] is False and out["error"]["code"] == code, out
