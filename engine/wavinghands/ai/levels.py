"""The opponent's levels: each is a search budget and a style, found by name; and the meter
one move's search spends its budget on.

Budgets count moves, sampled worlds and work units (`Work`), never wall time, so a level plays
the same move in CPython and in Pyodide on any machine: a duel against the computer replays
bit for bit.  Strong's work budget is calibrated so that its worst move stays well within 1.5 s
in Pyodide (bench/opponent_pyodide.mjs measures it).  A caller may add a deadline as a safety
net: a search that reaches it plays its best move so far and says it was cut, the one result
that then depends on the machine.  The deadline is the caller's callable (api.py reads the wall
clock), so no clock is read in here: without one the search is a pure function.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import WavingHandsError


class UnknownLevel(WavingHandsError):
    """A level name the opponent does not know."""

    code = "bad-level"


@dataclass(frozen=True, slots=True)
class Lookahead:
    """The budget of a second turn searched below the first turn's best joint moves."""

    rows: int  # own moves (the first turn's favourites) searched a second turn
    replies: int  # enemy replies to them per world (his best against them)
    width: int  # own candidate moves in the second turn
    answers: int  # enemy candidate moves in the second turn
    iterations: int  # regret-matching rounds of each second-turn table


# What the search's steps cost in work units (calibrated on bench/opponent_timing.py's
# profile: a ranking of a wizard's legal pairs costs about as much as this many resolutions).
RESOLUTION = 1  # one joint move played with the engine's `step`, questions answered, scored
RANKING = 2  # one wizard's legal gesture pairs ranked into candidates


def ranking_units(candidates: Sequence[dict[str, Any] | None]) -> int:
    """The units of ranking a wizard's legal moves into these candidates' orders: one ranking,
    and where he is hastened (two gesture sets) one more for each first set kept, whose
    second set candidates.py chooses by ranking every legal pair again."""
    firsts = {tuple(o["gestures"][0]) for o in candidates
              if o is not None and len(o.get("gestures", ())) == 2}
    return RANKING * (1 + len(firsts))


# A deadline: called between stretches of the search, it says whether time is up.  The caller
# owns the clock (api.py: the wall clock from the call's start); tests pass fakes.
Deadline = Callable[[], bool]


class Work:
    """The work one move's search has spent, against a budget in units (deterministic) and
    an optional `Deadline` (once it says time is up the move is marked cut)."""

    __slots__ = ("budget", "columns", "cut", "deadline", "deepened", "first", "planned",
                 "rows", "units", "worlds")

    def __init__(self, budget: int | None = None, deadline: Deadline | None = None) -> None:
        self.budget = budget  # None: no bound
        self.deadline = deadline  # None: none (the default: fully deterministic)
        self.units = 0
        self.cut = False
        # what made the move big, for the bench: sampled worlds, first-table rows and
        # columns (summed over worlds), the units the first table spent, the look-ahead's
        # advance count for the rows it kept, and those rows
        self.worlds = self.rows = self.columns = self.first = self.planned = self.deepened = 0

    def spend(self, units: int) -> None:
        """Count `units` of work done."""
        self.units += units

    def affords(self, units: int) -> bool:
        """Whether `units` more stay within the budget (the same answer on every machine)."""
        return self.budget is None or self.units + units <= self.budget

    def late(self) -> bool:
        """Whether the deadline has passed (once it has, always); if so the move is cut."""
        if self.deadline is not None and not self.cut and self.deadline():
            self.cut = True
        return self.cut

    def as_json(self) -> dict[str, Any]:
        """The figures, for benchmarks and the JSON boundary."""
        return {"units": self.units, "cut": self.cut, "worlds": self.worlds,
                "rows": self.rows, "columns": self.columns, "first": self.first,
                "planned": self.planned, "deepened": self.deepened}


@dataclass(frozen=True, slots=True)
class Level:
    """A search budget and style."""

    name: str
    label: str
    width: int  # own candidate moves searched
    replies: int  # enemy candidate moves per sampled world
    worlds: int  # determinizations of what it cannot see
    iterations: int  # regret-matching rounds over the joint-move table
    temperature: float  # 0: play the best move; > 0: sample, weaker but livelier
    lookahead: Lookahead | None = None  # a second turn below the best joint moves
    # > 0: of the moves the equilibrium plays at least this share as often as its favourite,
    # play the one whose worst reply hurts least (0: the favourite; temperature 0 only).
    guard: float = 0.0
    # The most work units a move may spend (None: no bound).  The first table is always
    # searched whole; the look-ahead's rows, best first, stop where the next would pass it.
    work: int | None = None


LEVELS: dict[str, Level] = {lv.name: lv for lv in (
    Level("novice", "Novice", width=4, replies=3, worlds=1, iterations=30, temperature=1.0),
    Level("fair", "Fair", width=8, replies=6, worlds=1, iterations=80, temperature=0.0),
    Level("strong", "Strong", width=14, replies=10, worlds=2, iterations=150, temperature=0.0,
          lookahead=Lookahead(rows=4, replies=3, width=5, answers=4, iterations=30),
          guard=0.25, work=720),
)}
DEFAULT_LEVEL = "fair"


def find_level(name: str) -> Level:
    """The level called `name`; raises UnknownLevel naming the choices."""
    level = LEVELS.get(name)
    if level is None:
        raise UnknownLevel(f"unknown opponent level {name!r}: choose one of "
                           f"{', '.join(LEVELS)}")
    return level
