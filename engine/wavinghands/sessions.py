"""Duels the boundary keeps between calls, so that a turn costs the same at turn 300 as at turn 5
(issue 24, bug 10; docs/architecture.md, "Kept duels").

A page that passes the whole game as JSON to every call makes the engine read it, rebuild it
and write the whole answer each time: the cost grows with the duel.  Instead a
duel is opened once (`open_game`: a handle) and stepped by handle (`step_kept`: the next handle
and what changed in the game's JSON, `game_delta`); a view comes as what changed since the
page's last one (`view_since`, with a cursor).  `apply_game_delta` and `apply_view_delta` (and
their JS twins in web/engine-session.js) put the whole game and view back together: equal to
`Game.to_json()` and `view` of the same state (tests/test_api_sessions.py).

Kept duels are values: a handle names one state of one duel for good (a digest of its game, or
of its parent's handle and the inputs that stepped it); the table is bounded (KEPT_MOST, least
recently used out) and a handle it no longer holds is an error value (`unknown-session`), never
a different duel.  Nothing here draws randomness or reads a clock: a kept duel steps exactly as
`duel.step` steps its JSON, so records and codes are the same bit for bit.
"""

from __future__ import annotations

import hashlib
import re
from collections import OrderedDict
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from .errors import WavingHandsError
from .model import Game, canonical_json

JSON = dict[str, Any]
T = TypeVar("T")

KEPT_MOST = 16  # duels' states kept (a page holds one duel, and a few states back)
HANDLE = re.compile(r"s[0-9a-f]{32}")
# The last rows of a history whose notes a view recomputes: a row's casts are logged when its
# turn resolves, which may be a decision phase (or a time stop) after the row was written.
REDO_ROWS = 4
LINEAGE = 32  # ancestors a kept state remembers (a cursor from one of them is still good)


class SessionError(WavingHandsError):
    """A handle or cursor the boundary cannot use, with a stable code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message, code=code)
        self.message = message


@dataclass
class Kept:
    """One kept state of a duel, with what its views have computed so far (reused by its
    children: a view of the next state recomputes only what the step changed)."""

    game: Game
    lineage: tuple[str, ...] = ()  # the handles of its ancestors, nearest last
    states: list[Game] | None = None  # every state from the start, when notes needed them
    first_state: dict[tuple[str, int], Game] = field(default_factory=dict)
    casts: dict[tuple[int, int], list[tuple[str, frozenset[int]]]] = field(default_factory=dict)
    casts_upto: int = 0  # log entries indexed in `casts`
    # (viewer, wizard) -> the history's rows as the viewer sees them, and their notes, so far
    rows: dict[tuple[int, int], tuple[list[tuple[str, str]], list[JSON]]] = field(
        default_factory=dict)


_KEPT: OrderedDict[str, Kept] = OrderedDict()


def _put(handle: str, kept: Kept) -> None:
    _KEPT[handle] = kept
    _KEPT.move_to_end(handle)
    while len(_KEPT) > KEPT_MOST:
        _KEPT.popitem(last=False)


def is_handle(value: Any) -> bool:
    """Whether `value` has a kept duel's handle's form (an "s" and 32 hex digits)."""
    return isinstance(value, str) and HANDLE.fullmatch(value) is not None


def kept(handle: Any) -> Kept:
    """The kept state `handle` names; SessionError bad-session / unknown-session otherwise."""
    if not is_handle(handle):
        raise SessionError("bad-session", "a kept duel's handle is \"s\" and 32 hex digits")
    found = _KEPT.get(handle)
    if found is None:
        raise SessionError("unknown-session", "the engine no longer keeps this duel (it keeps "
                           f"the {KEPT_MOST} latest states): open it again from its game")
    _KEPT.move_to_end(handle)
    return found


def open_game(game: Game, text: str) -> str:
    """Keep `game` (whose canonical JSON is `text`); its handle, the same for the same game."""
    handle = "s" + hashlib.sha256(text.encode()).hexdigest()[:32]
    if handle not in _KEPT:
        _put(handle, Kept(game))
    else:
        _KEPT.move_to_end(handle)
    return handle


def step_kept(handle: str, inputs: Any, new: Game) -> str:
    """Keep `new`, the state `handle`'s stepped with `inputs`; its handle (a digest of the
    parent's and of the inputs: the same step gives the same handle)."""
    parent = kept(handle)
    child_handle = "s" + hashlib.sha256((handle + canonical_json(inputs)).encode()).hexdigest()[:32]
    states = None if parent.states is None else [*parent.states, new]
    first = dict(parent.first_state)
    if states is not None:
        first.setdefault(phase_key(new), new)
    child = Kept(new, (*parent.lineage, handle)[-LINEAGE:], states, first,
                 {k: list(v) for k, v in parent.casts.items()}, parent.casts_upto,
                 {k: (list(r), list(n)) for k, (r, n) in parent.rows.items()})
    _put(child_handle, child)
    return child_handle


def _shared(old: tuple[T, ...], new: tuple[T, ...]) -> int:
    """How many leading items `new` keeps of `old` (the same objects, or equal ones)."""
    n = min(len(old), len(new))
    if len(new) >= len(old) and all(a is b for a, b in zip(old, new, strict=False)):
        return n
    for i in range(n):
        if old[i] != new[i]:
            return i
    return n


def game_delta(old: Game, new: Game) -> JSON:
    """`new.to_json()` with the log, the record and each history cut to what is new since
    `old`: each cut list says where its new part starts (`log_from`, `record_from`, each
    wizard's `history_from`).  A duel of different wizards is sent whole ("from" all 0)."""
    if len(old.wizards) != len(new.wizards):
        old = replace(new, log=(), record=(), wizards=tuple(replace(w, history=())
                                                            for w in new.wizards))
    log_from, record_from = _shared(old.log, new.log), _shared(old.record, new.record)
    cuts = [_shared(o.history, n.history) for o, n in zip(old.wizards, new.wizards, strict=True)]
    tail = replace(new, log=new.log[log_from:], record=new.record[record_from:],
                   wizards=tuple(replace(w, history=w.history[k:])
                                 for w, k in zip(new.wizards, cuts, strict=True)))
    d = tail.to_json()
    for w, k in zip(d["wizards"], cuts, strict=True):
        w["history_from"] = k
    d["log_from"], d["record_from"] = log_from, record_from
    return d


def apply_game_delta(game: JSON, delta: JSON) -> JSON:
    """The game JSON after a step: `game` (the JSON before) with `delta` (game_delta) applied."""
    out = {k: v for k, v in delta.items() if k not in ("log_from", "record_from")}
    out["log"] = game["log"][:delta["log_from"]] + delta["log"]
    out["record"] = game["record"][:delta["record_from"]] + delta["record"]
    out["wizards"] = _rejoined(game["wizards"], delta["wizards"])
    return out


def _rejoined(before: list[JSON], wizards: list[JSON]) -> list[JSON]:
    """Each wizard of `wizards` (sent with only its history's new rows, from `history_from`)
    with the rows before those taken from `before`."""
    out = []
    for old, w in zip(before, wizards, strict=True):
        whole = {k: v for k, v in w.items() if k != "history_from"}
        whole["history"] = old["history"][:w["history_from"]] + w["history"]
        out.append(whole)
    return out


def apply_view_delta(before: JSON | None, delta: JSON) -> JSON:
    """view()'s answer from session_view's: `delta` itself when it is whole, else `before` (the
    viewer's last whole view, of the state its cursor named) with it applied."""
    if "log_keep" not in delta:
        return delta
    if before is None:
        raise SessionError("stale-cursor", "a view sent as changes needs the view it changes")
    out = {k: v for k, v in delta.items() if k != "log_keep"}
    out["log"] = before["log"][:delta["log_keep"]] + delta["log"]
    out["wizards"] = _rejoined(before["wizards"], delta["wizards"])
    if delta["notes"] is not None:
        notes = {}
        for key, n in delta["notes"].items():
            kept_rows = (before["notes"] or {}).get(key, {"rows": []})["rows"]
            notes[key] = {"rows": kept_rows[:n["rows_from"]] + n["rows"],
                          "building": n["building"]}
        out["notes"] = notes
    return out


def phase_key(game: Game) -> tuple[str, int]:
    """A state's phase: (its kind, its turn)."""
    return game.phase.kind, game.phase.turn


def duel_id(game: Game) -> str:
    """What tells one duel from another in a cursor: a digest of its seed and names."""
    return hashlib.sha256(canonical_json([game.seed, list(game.names)]).encode()).hexdigest()[:16]


def cursor_of(handle: str, k: Kept, viewer: int, seen: int, notes: bool) -> JSON:
    """Where a view of the kept state `handle` leaves its viewer: the next view_since starts
    there."""
    return {"duel": duel_id(k.game), "at": handle, "log": len(k.game.log), "seen": seen,
            "rows": [len(w.history) for w in k.game.wizards], "notes": notes}


def usable_cursor(handle: str, k: Kept, cursor: Any) -> JSON | None:
    """`cursor` if it was left by a view of this state or of one of its kept ancestors, else
    None (a whole view then)."""
    if not isinstance(cursor, dict) or cursor.get("duel") != duel_id(k.game):
        return None
    at, log, seen, rows = (cursor.get(x) for x in ("at", "log", "seen", "rows"))
    if at != handle and at not in k.lineage:
        return None
    if not (isinstance(log, int) and isinstance(seen, int) and 0 <= seen <= log <= len(k.game.log)):
        return None
    if not isinstance(rows, list) or len(rows) != len(k.game.wizards):
        return None
    if not all(isinstance(r, int) and 0 <= r <= len(w.history)
               for r, w in zip(rows, k.game.wizards, strict=True)):
        return None
    return cursor
