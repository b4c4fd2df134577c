"""Game records (docs/record-format.md): export, import by replay."""

from __future__ import annotations

from typing import Any

from .duel import new_game, step
from .errors import WavingHandsError
from .model import Game
from .ruleset import Ruleset

FORMAT = "wavinghands-record"
VERSION = 1


class RecordError(WavingHandsError):
    """A record that cannot be read or replayed; says which entry fails and why."""

    code = "bad-record"


def export_record(game: Game) -> dict[str, Any]:
    """The record of a game: players, ruleset, seed, explicit dice, every phase's input."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "players": list(game.names),
        "ruleset": game.ruleset.to_json(),
        "seed": game.seed,
        "dice": {k: v for k, v in game.dice},
        "phases": [r.to_json() for r in game.record],
        "result": None if game.result is None else game.result.to_json(),
    }


def replay(record: Any, until: int | None = None) -> list[Game]:
    """Every game state of a record, from the start; raises RecordError on the first bad entry."""
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise RecordError("not a Waving Hands record (its \"format\" is not "
                          f"{FORMAT!r})")
    if record.get("version") != VERSION:
        found = record.get("version")
        what = "has no version" if found is None else f"is version {found!r}"
        raise RecordError(f"this record {what}; this engine reads version {VERSION} records")
    try:
        players = record["players"]
        game = new_game((str(players[0]), str(players[1])), str(record["seed"]),
                        Ruleset.from_json(record.get("ruleset", {})),
                        {str(k): int(v) for k, v in record.get("dice", {}).items()})
        phases = record["phases"]
        if not isinstance(phases, list):
            raise TypeError("phases must be a list")
    except (KeyError, IndexError, TypeError, ValueError) as e:
        raise RecordError(f"the record's header is malformed: {e}") from e
    states = [game]
    for i, entry in enumerate(phases[:until]):
        try:
            if entry.get("kind") != game.phase.kind or int(entry.get("turn")) != game.phase.turn:
                raise ValueError(f"expected a {game.phase.kind} phase of turn "
                                 f"{game.phase.turn}, found {entry.get('kind')} of turn "
                                 f"{entry.get('turn')}")
            game, _ = step(game, {int(k): v for k, v in entry["inputs"].items()})
        except (KeyError, TypeError, ValueError, AttributeError) as e:
            raise RecordError(f"phase {i + 1} of the record cannot be replayed: {e}") from e
        states.append(game)
    return states


def import_record(record: Any) -> Game:
    """The game a record leads to."""
    return replay(record)[-1]
