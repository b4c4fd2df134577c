"""Game records (docs/record-format.md): export, import by replay, and the bounds an imported
record must keep."""

from __future__ import annotations

import json
from typing import Any, Final

from .boundary import check_text
from .duel import new_game, step
from .errors import WavingHandsError
from .model import MAX_TURNS, Game
from .rulesets import Ruleset

FORMAT = "wavinghands-record"
VERSION = 1

# What an imported record may hold (issue 12.2): a record from a file or a link is replayed
# into a saved duel, and every saved duel shares the browser's few megabytes of storage, so a
# crafted 5,000-turn record must not fill it.  The numbers are far above any real duel (random
# legal play ends in a median 23 turns, the longest of 200 in 101; a duel by hand is shorter):
# docs/record-format.md, "Limits".  A turn holds at most an orders phase and a decision phase.
# A duel played here ends at the same number (model.MAX_TURNS), so its own record is never refused.
MAX_RECORD_TURNS: Final[int] = MAX_TURNS
MAX_RECORD_PHASES: Final[int] = 2 * MAX_RECORD_TURNS
# A pretty-printed record takes at most ~650 bytes a turn (measured over random duels), so
# 1,000 turns fit in 650 KB; 2 MB leaves room for long names and spelt-out orders.
MAX_RECORD_BYTES: Final[int] = 2_000_000


class RecordError(WavingHandsError):
    """A record that cannot be read or replayed; says which entry fails and why."""

    code = "bad-record"


class RecordTooLarge(RecordError):
    """A record text longer, in UTF-8 bytes, than MAX_RECORD_BYTES."""

    code = "record-too-large"


class RecordTooLong(RecordError):
    """A record with more phases than MAX_RECORD_PHASES or a turn beyond MAX_RECORD_TURNS."""

    code = "record-too-long"


def _too_long(found: str) -> RecordTooLong:
    # The module's numbers are read here, at the call, so a test may lower them.
    return RecordTooLong(f"this record {found}; a record may hold at most "
                         f"{MAX_RECORD_TURNS:,} turns ({MAX_RECORD_PHASES:,} phases), far "
                         "more than any real duel. Nothing was imported")


def load_record(text: str) -> Any:
    """The parsed record of an imported text, refused before parsing if it is over
    MAX_RECORD_BYTES (RecordTooLarge) or nests too deep (boundary.check_text), and before
    replaying if it holds more than MAX_RECORD_PHASES phases (RecordTooLong)."""
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_RECORD_BYTES:
        raise RecordTooLarge(f"this record is too large: {size:,} bytes, the most a record may "
                             f"hold is {MAX_RECORD_BYTES:,} bytes (about {MAX_RECORD_TURNS:,} "
                             "turns, far more than any real duel). Nothing was imported")
    try:
        record = json.loads(check_text(text, "record"))
    except json.JSONDecodeError as e:
        raise RecordError(f"the record is not valid JSON ({e})") from e
    phases = record.get("phases") if isinstance(record, dict) else None
    if isinstance(phases, list) and len(phases) > MAX_RECORD_PHASES:
        raise _too_long(f"holds {len(phases):,} phases")
    return record


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


def replay(record: Any, until: int | None = None, max_turns: int | None = None) -> list[Game]:
    """Every game state of a record, from the start; raises RecordError on the first bad entry,
    and RecordTooLong at a phase beyond turn `max_turns` when one is given."""
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise RecordError("not a Waving Hands record (its \"format\" is not "
                          f"{FORMAT!r})")
    if record.get("version") != VERSION:
        found = record.get("version")
        what = "has no version" if found is None else f"is version {found!r}"
        raise RecordError(f"this record {what}; this engine reads version {VERSION} records")
    try:
        players = record["players"]
        if not isinstance(players, list):
            raise TypeError("players must be a list")
        game = new_game(tuple(str(p) for p in players), str(record["seed"]),
                        Ruleset.from_json(record.get("ruleset", {})),
                        {str(k): int(v) for k, v in record.get("dice", {}).items()})
        phases = record["phases"]
        if not isinstance(phases, list):
            raise TypeError("phases must be a list")
    except (KeyError, IndexError, TypeError, ValueError) as e:
        raise RecordError(f"the record's header is malformed: {e}") from e
    states = [game]
    for i, entry in enumerate(phases[:until]):
        if max_turns is not None and game.phase.turn > max_turns:
            raise _too_long(f"goes on to turn {game.phase.turn:,} (phase {i + 1})")
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


def replay_imported(record: Any) -> list[Game]:
    """replay() of a record from outside (a file, a link): beyond MAX_RECORD_TURNS is refused."""
    return replay(record, max_turns=MAX_RECORD_TURNS)


def import_record(record: Any) -> Game:
    """The game a record leads to; a record going beyond MAX_RECORD_TURNS is refused."""
    return replay_imported(record)[-1]
