"""Game records (docs/record-format.md): export, import by replay, and the bounds an imported
record must keep."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any, Final

from .boundary import check_text
from .duel import new_game, step
from .errors import WavingHandsError
from .model import DECISION, MAX_TURNS, OVER, Game
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


# The dice the engine rolls (resolve.py, attacks.py), by label: confusion's two dice of six
# faces ("The first die indicates left hand on 1-3, right on 4-6 ... 1=C, 2=D, 3=F, 4=P, 5=S,
# 6=W"), and a confused monster's pick among the living beings but itself ("it attacks at
# random"), whose faces are known only when it is rolled (the engine then checks it).
_CONFUSION_DIE: Final = re.compile(r"(\d+):confusion:\d+:\d+:(hand|gesture)")
# (a melee's "enemy" die: the random opposing wizard a monster with no orders attacks)
_MONSTER_DIE: Final = re.compile(r"(\d+):monster:M\d+:(\d+|enemy)")
CONFUSION_FACES: Final = 6


def _record_dice(raw: Any) -> dict[str, int]:
    """A record's explicit dice, each a die the engine rolls with a value it can show (a
    confusion die 1..6, a monster's pick at least 1); raises RecordError naming the die."""
    if not isinstance(raw, Mapping):
        raise RecordError("the record's \"dice\" must be an object of die: value")
    dice: dict[str, int] = {}
    for key, value in raw.items():
        confusion = _CONFUSION_DIE.fullmatch(str(key))
        if confusion is None and _MONSTER_DIE.fullmatch(str(key)) is None:
            raise RecordError(f"the record's dice name {str(key)[:60]!r}, no die this engine "
                              "rolls (\"<turn>:confusion:<wizard>:<set>:hand\" or "
                              "\"...:gesture\", \"<turn>:monster:<id>:<attack>\" or "
                              "\"...:enemy\"). Nothing was imported")
        top = CONFUSION_FACES if confusion is not None else None
        if isinstance(value, bool) or not isinstance(value, int) or value < 1 or \
                (top is not None and value > top):
            faces = f"1..{top}" if top is not None else "a whole number from 1"
            raise RecordError(f"the record's die {key} is {str(value)[:20]}, outside {faces}. "
                              "Nothing was imported")
        dice[str(key)] = value
    return dice


def _unplayed_dice(game: Game) -> None:
    """Raises RecordError if the replayed game carries a die for a turn it has not played:
    kept, it would decide a roll of the game played on from the record.  Dice are rolled as a
    turn resolves; a record waiting in a decision phase has rolled that turn's confusion dice
    (before the reveal's decisions), not its monsters'."""
    phase = game.phase
    for key, _ in game.dice:
        turn = int(key.split(":", 1)[0])
        rolled = turn < phase.turn or (phase.kind == OVER and turn == phase.turn) or (
            phase.kind == DECISION and turn == phase.turn and
            _CONFUSION_DIE.fullmatch(key) is not None)
        if not rolled:
            raise RecordError(f"the record's die {key} is for turn {turn}, which the record "
                              "has not played: a record may carry only dice already rolled, "
                              "never the dice of a turn still to play. Nothing was imported")


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
    dice = _record_dice(record.get("dice", {}))  # (a RecordError of its own, naming the die)
    try:
        players = record["players"]
        if not isinstance(players, list):
            raise TypeError("players must be a list")
        game = new_game(tuple(str(p) for p in players), str(record["seed"]),
                        Ruleset.from_json(record.get("ruleset", {})), dice)
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
    """replay() of a record from outside (a file, a link): beyond MAX_RECORD_TURNS is refused,
    and so are dice for a turn the record has not played."""
    states = replay(record, max_turns=MAX_RECORD_TURNS)
    _unplayed_dice(states[-1])
    return states


def import_record(record: Any) -> Game:
    """The game a record leads to; a record going beyond MAX_RECORD_TURNS is refused."""
    return replay_imported(record)[-1]
