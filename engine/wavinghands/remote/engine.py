"""The engine as remote play sees it: the calls the protocol needs, and the real adapter.

The session keeps the game in the engine's JSON form (that is what the page stores), so the
adapter parses it, calls `duel`, `legal` and `model` in Python, and serialises the result.  It
never goes through `wavinghands.api`'s JSON strings: remote play sits below the JSON boundary.
Tests put a stand-in engine behind the same `Engine` protocol (tests/fake_engine.py).
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Protocol

from .. import duel
from ..errors import IllegalInput, WavingHandsError
from ..legal import input_problems
from ..model import DECISION, ORDERS, TIME_STOP, Game, canonical_json, state_digest
from ..ruleset import Ruleset
from .codes import BadSession

GameJson = dict[str, Any]


@dataclass(frozen=True, slots=True)
class DecisionInfo:
    """One decision the rules ask for: id, the deciding wizard, and the allowed answers."""

    id: str
    wizard: int
    options: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class PhaseInfo:
    """What the game waits for (the true phase, not one wizard's view of it)."""

    kind: str  # orders | decision | time_stop | over
    turn: int
    actors: tuple[int, ...]
    decisions: tuple[DecisionInfo, ...] = ()
    hasted: bool = False  # a time_stop phase that is a hasted turn (Variant.hasted_turns)

    @property
    def simultaneous(self) -> bool:
        """Both wizards give input (orders/time-stop: non-actors give only dice)."""
        return self.kind in (ORDERS, TIME_STOP) or (
            self.kind == DECISION and len(self.actors) > 1)


def phase_from_json(p: Any) -> PhaseInfo:
    """PhaseInfo from the engine's phase JSON ({kind, turn, actors, decisions})."""
    if not isinstance(p, dict):
        raise BadSession("the stored game has no phase")
    decisions = tuple(DecisionInfo(str(d["id"]), int(d.get("wizard", -1)),
                                   tuple(str(o) for o in d.get("options", ())))
                      for d in p.get("decisions", ()))
    return PhaseInfo(str(p["kind"]), int(p["turn"]), tuple(int(a) for a in p["actors"]),
                     decisions, p.get("hasted") is True)


class Engine(Protocol):
    """The engine calls the protocol needs; all take and return the serialised game."""

    def new_game(self, names: tuple[str, str], ruleset: dict[str, Any], seed: str) -> GameJson:
        """A fresh game."""
        ...

    def phase(self, game: GameJson) -> PhaseInfo:
        """The true current phase."""
        ...

    def problems(self, game: GameJson, wizard: int, x: dict[str, Any]) -> list[dict[str, str]]:
        """Why this input is not legal now (empty: legal)."""
        ...

    def step(self, game: GameJson, inputs: Mapping[int, dict[str, Any]]
             ) -> tuple[GameJson, dict[int, list[Any]]]:
        """Resolve the current phase; events per wizard."""
        ...

    def digest(self, game: GameJson) -> bytes:
        """A hash of the rules state both sides must agree on."""
        ...


@lru_cache(maxsize=8)
def _parsed(text: str) -> Game:
    # The same stored game comes back in later calls (a session's status, its draft, the next
    # code): parse each text once.  Game is frozen, so sharing it is safe.
    return Game.from_json(json.loads(text))


def _problem(e: WavingHandsError) -> dict[str, str]:
    return {"code": e.code, "message": str(e), "field": e.field}


class PythonEngine:
    """Implements `Engine` with the real engine.  One boundary call asks about the same game
    several times (its digest, the inputs' problems, the step, the new game's digest): an
    instance remembers the last few games it read or made by their JSON's identity (held, so
    the identity is never another's; a session's game is a value, never changed), so that a
    game is serialised once per call, not once per question (bench/call_cost.py)."""

    REMEMBERED = 4

    def __init__(self) -> None:
        self._games: deque[tuple[GameJson, Game]] = deque(maxlen=self.REMEMBERED)

    def _game(self, game: GameJson) -> Game:
        """The game `game` is the JSON of."""
        for json_form, parsed in self._games:
            if json_form is game:
                return parsed
        parsed = _parsed(canonical_json(game))
        self._games.append((game, parsed))
        return parsed

    def new_game(self, names: tuple[str, str], ruleset: dict[str, Any], seed: str) -> GameJson:
        """A fresh game: `duel.new_game` under the invitation's ruleset."""
        game: GameJson = duel.new_game(names, seed, Ruleset.from_json(ruleset)).to_json()
        return game

    def phase(self, game: GameJson) -> PhaseInfo:
        """The phase as the serialised game records it (a view may hide a time-stopped turn)."""
        return phase_from_json(game.get("phase"))

    def problems(self, game: GameJson, wizard: int, x: dict[str, Any]) -> list[dict[str, str]]:
        """Every reason this input is not legal now, as JSON (empty: legal)."""
        g = self._game(game)
        try:
            parsed = duel.parse_input(g, x)
        except WavingHandsError as e:
            return [_problem(e)]
        return [p.to_json() for p in input_problems(g, wizard, parsed)]

    def step(self, game: GameJson, inputs: Mapping[int, dict[str, Any]]
             ) -> tuple[GameJson, dict[int, list[Any]]]:
        """Resolve the current phase; each wizard's events as that wizard may see them."""
        try:
            new, events = duel.step(self._game(game), inputs)
        except IllegalInput:
            raise
        except WavingHandsError as e:
            raise IllegalInput([_problem(e)], f"the engine refused these inputs: {e}") from e
        out: GameJson = new.to_json()
        self._games.append((out, new))
        return out, {v: [dict(e.to_json(), visible_to=None) for e in events
                         if v in e.visible_to] for v in (0, 1)}

    def digest(self, game: GameJson) -> bytes:
        """`model.state_digest`: the rules state both sides must agree on."""
        return state_digest(self._game(game))


_default_engine: Engine | None = None  # (a test's stand-in; None: the real engine)


def default_engine() -> Engine:
    """The engine used when none is passed: a new PythonEngine (what it remembers lasts as
    long as the call that asked for it), or the stand-in a test put in `_default_engine`."""
    return PythonEngine() if _default_engine is None else _default_engine
