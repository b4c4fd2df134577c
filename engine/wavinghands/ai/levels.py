"""The opponent's levels: each is a search budget and a style, found by name.

Budgets count moves and sampled worlds, never wall time, so a level plays the same move in
CPython and in Pyodide on any machine: a duel against the computer replays bit for bit.
Strong's budget is calibrated to stay within 1.5 s a move in Pyodide (bench/opponent_match.py
measures it).
"""

from __future__ import annotations

from dataclasses import dataclass

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


LEVELS: dict[str, Level] = {lv.name: lv for lv in (
    Level("novice", "Novice", width=4, replies=3, worlds=1, iterations=30, temperature=1.0),
    Level("fair", "Fair", width=8, replies=6, worlds=1, iterations=80, temperature=0.0),
    Level("strong", "Strong", width=14, replies=10, worlds=2, iterations=150, temperature=0.0,
          lookahead=Lookahead(rows=4, replies=3, width=5, answers=4, iterations=30),
          guard=0.25),
)}
DEFAULT_LEVEL = "fair"


def find_level(name: str) -> Level:
    """The level called `name`; raises UnknownLevel naming the choices."""
    level = LEVELS.get(name)
    if level is None:
        raise UnknownLevel(f"unknown opponent level {name!r}: choose one of "
                           f"{', '.join(LEVELS)}")
    return level
