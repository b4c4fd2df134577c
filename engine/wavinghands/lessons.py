"""The guided first duel's lessons: short real positions against a scripted opponent, each with
what to try, a check the engine makes of what happened, and an explanation.

A lesson's position is a scripted history (puzzles.scripted); the player then writes his own
orders for a few turns while the opponent's gestures are the lesson's script.  The check reads
the turns' events and the final state: a spell the player cast, damage a source of his did to the
opponent, an attack a shield stopped, a monster he controls, an enchantment on the opponent, no
damage taken.  The last lesson is a whole duel against the novice level (no check: the duel's
own end is its result).  The set lives in data/lessons.json; tests/test_lessons.py plays each
lesson's intended play and sees its check pass (and doing nothing fail it).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any, Final

from . import duel
from .model import Event, Game
from .puzzles import THEM, YOU, PuzzleError, answer_questions, data_rows, scripted

JSON = dict[str, Any]
CHECKS: Final = ("cast", "hit_by", "blocked", "unhurt", "monster", "effect")


@dataclass(frozen=True, slots=True)
class Lesson:
    """One lesson: its position, the opponent's script, what to try and the intended play."""

    id: str
    title: str
    ruleset: str
    you: str
    them: str
    script: tuple[tuple[str, str], ...]  # the opponent's gestures, turn by turn
    try_: str  # what the player is asked to try
    hint: str
    explain: str
    play: tuple[tuple[str, str], ...]  # the intended gestures, turn by turn
    check: tuple[tuple[str, str], ...]  # (what, value) pairs (CHECKS): every one must hold
    duel: str = ""  # a whole duel against this level instead of a check

    @staticmethod
    def from_json(d: JSON) -> Lesson:
        """A lesson from its row of data/lessons.json."""
        check = tuple((str(k), str(v)) for k, v in d.get("check", []))
        unknown = [k for k, _ in check if k not in CHECKS]
        if unknown:
            raise ValueError(f"lesson {d['id']}: unknown checks {unknown}")
        return Lesson(str(d["id"]), str(d["title"]), str(d.get("ruleset", "standard")),
                      str(d.get("you", "/")), str(d.get("them", "/")),
                      tuple((str(a), str(b)) for a, b in d.get("script", [])), str(d["try"]),
                      str(d["hint"]), str(d["explain"]),
                      tuple((str(a), str(b)) for a, b in d.get("play", [])), check,
                      str(d.get("duel", "")))

    def to_json(self) -> JSON:
        """What the page shows of a lesson (its position comes from `position`)."""
        return {"id": self.id, "title": self.title, "ruleset": self.ruleset, "try": self.try_,
                "hint": self.hint, "explain": self.explain, "turns": len(self.script),
                "duel": self.duel or None}


@cache
def all_lessons() -> tuple[Lesson, ...]:
    """Every lesson of data/lessons.json, in order."""
    return tuple(Lesson.from_json(d) for d in data_rows("lessons"))


def find_lesson(lid: str) -> Lesson:
    """The lesson with this id; raises PuzzleError("unknown-lesson") if there is none."""
    found = next((lesson for lesson in all_lessons() if lesson.id == lid), None)
    if found is None:
        raise PuzzleError("unknown-lesson", f"there is no lesson {lid!r}")
    return found


@cache
def position(lid: str) -> Game:
    """Where the lesson starts: its scripted history played, waiting for the player's orders."""
    lesson = find_lesson(lid)
    return scripted(lesson.id, lesson.ruleset, lesson.you, lesson.them)


def play(lid: str, turns: list[JSON]) -> tuple[Game, tuple[Event, ...]]:
    """The lesson played with the player's orders for each of its turns (the opponent follows
    the script); the game after them and every event of those turns.  Raises the engine's
    errors for illegal orders."""
    lesson = find_lesson(lid)
    game = position(lid)
    events: list[Event] = []
    for i, mine in enumerate(turns[:len(lesson.script)]):
        theirs = {"gestures": [list(lesson.script[i])]}
        game, happened = duel.step(game, {YOU: mine, THEM: theirs})
        events.extend(happened)
        before = len(game.log)
        game = answer_questions(game)
        events.extend(game.log[before:])
        if game.result is not None:
            break
    return game, tuple(events)


def _holds(what: str, value: str, start: Game, end: Game, events: tuple[Event, ...]) -> bool:
    data = [(e.type, dict(e.data)) for e in events]
    if what == "cast":
        return any(t == "cast" and d.get("caster") == str(YOU) and d.get("spell") == value
                   for t, d in data)
    if what == "hit_by":  # damage to the opponent from this source (a spell key or "stab")
        return any(t == "damage" and d.get("target") == f"W{THEM}" and
                   d.get("source") == value for t, d in data)
    if what == "blocked":
        return any(t == "blocked" for t, _ in data)
    if what == "unhurt":
        return end.wizard(YOU).damage <= start.wizard(YOU).damage
    if what == "monster":
        return any(m.alive and m.controller == YOU and m.kind == value for m in end.monsters)
    if what == "effect":
        return any(e.kind.value == value for e in end.wizard(THEM).effects)
    raise ValueError(f"unknown check {what!r}")


def _failed(lesson: Lesson, start: Game, end: Game, events: tuple[Event, ...]) -> list[str]:
    return [what for what, value in lesson.check if not _holds(what, value, start, end, events)]


def progress(lid: str, turns: list[JSON]) -> tuple[Game, JSON]:
    """The lesson after the player's orders for its first turns (one at least, at most all of
    them), turn by turn as the page plays it: the game then, and {"played": turns played,
    "done": whether the lesson is over, "events": the last turn's log lines as the player sees
    them} with, once done, "passed" and "failed" as `check` gives them."""
    lesson = find_lesson(lid)
    if lesson.duel:
        raise PuzzleError("not-a-check", "this lesson is a whole duel: its end is its result")
    if not 1 <= len(turns) <= len(lesson.script):
        raise PuzzleError("bad-answer", f"the lesson takes orders for 1 to {len(lesson.script)} "
                                        f"turn{'s' if len(lesson.script) != 1 else ''}")
    _, earlier = play(lid, turns[:-1])
    end, events = play(lid, turns)
    done = len(turns) == len(lesson.script) or end.result is not None
    out: JSON = {"played": len(turns), "done": done,
                 "events": [e.to_json() for e in events[len(earlier):] if YOU in e.visible_to]}
    if done:
        failed = _failed(lesson, position(lid), end, events)
        out.update(passed=not failed, failed=failed)
    return end, out


def check(lid: str, turns: list[JSON]) -> JSON:
    """Whether the player's orders for the lesson's turns pass its check: {"passed", "failed":
    [the checks that did not hold], "events": the turns' log lines (as the player sees them)}."""
    lesson = find_lesson(lid)
    if lesson.duel:
        raise PuzzleError("not-a-check", "this lesson is a whole duel: its end is its result")
    if len(turns) != len(lesson.script):
        raise PuzzleError("bad-answer", f"the lesson takes orders for {len(lesson.script)} "
                                        f"turn{'s' if len(lesson.script) != 1 else ''}")
    start = position(lid)
    end, events = play(lid, turns)
    failed = _failed(lesson, start, end, events)
    return {"passed": not failed, "failed": failed,
            "events": [e.to_json() for e in events if YOU in e.visible_to]}


def intended(lid: str) -> list[JSON]:
    """The lesson's intended play as orders, turn by turn."""
    return [{"gestures": [list(row)]} for row in find_lesson(lid).play]
