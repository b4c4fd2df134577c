"""The melee's JSON boundary: three to six wizards, on one device or by codes.

Every function takes JSON strings and returns one JSON string, `{"ok": true, ...}` or
`{"ok": false, "error": {"code", "message"}}`, as `api`'s do (it offers these under the same
names).  A melee's game is a game like a duel's: `api.view`, `api.step`, `api.preview`,
`api.validate` and `api.ai_input` take it as they are; what only a melee needs is here: a new
game that must have three to six wizards, the table of every wizard in compact rows (the
player's own first), and remote play by codes (wavinghands.remote.melee, docs/protocol.md,
"Melee"), imported on first use as the duel's remote play is.
"""

from __future__ import annotations

import json
import os
from typing import Any, Final

from . import duel, sessions
from .boundary import guard, ok
from .errors import WavingHandsError
from .model import MAX_WIZARDS, OVER, Game
from .rulesets import Ruleset, check_known, find_ruleset
from .sessions import Kept
from .view import view as _view

JSON = dict[str, Any]
MIN_MELEE: Final[int] = 3
GESTURES_SHOWN: Final[int] = 8  # the rows show each hand's last gestures


class MeleeApiError(WavingHandsError):
    """A melee request the boundary refuses, with a stable code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message, code=code)


def _load(text: str, what: str) -> Any:
    if not isinstance(text, str):
        raise MeleeApiError("bad-json", f"the {what} must be passed as a JSON string")
    try:
        return json.loads(text)
    except ValueError as e:
        raise MeleeApiError("bad-json", f"the {what} is not valid JSON ({e})") from e


def _game(text: str) -> tuple[Game, Kept | None]:
    """The game a call names: its JSON, or the handle of a state the engine keeps
    (sessions.open_game: the page's calls on a game go by handle), with that kept state."""
    d = _load(text, "game")
    if isinstance(d, str):
        k = sessions.kept(d)
        return k.game, k
    if not isinstance(d, dict):
        raise MeleeApiError("bad-game", "the game must be a JSON object (or a kept game's handle)")
    try:
        game = Game.from_json(d)
    except (KeyError, TypeError, ValueError, IndexError) as e:
        raise MeleeApiError("bad-game", f"the saved game is damaged ({e})") from e
    check_known(game.ruleset, "this saved melee")
    return game, None


def _seat(text: str, seats: int) -> int:
    v = _load(text, "wizard")
    if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v < seats:
        raise MeleeApiError("bad-wizard", f"the wizard is 0 to {seats - 1}")
    return int(v)


@guard
def melee_new(params: str) -> str:
    """Start a melee: {"names": [3 to 6 names], "ruleset"?: {...}, "seed": hex} ->
    {"game": G, "seats": N}; two names (a duel: api.new_game) or seven are refused."""
    p = _load(params, "parameters")
    if not isinstance(p, dict):
        raise MeleeApiError("bad-request", "parameters must be a JSON object")
    names = p.get("names")
    if not isinstance(names, list) or not MIN_MELEE <= len(names) <= MAX_WIZARDS or \
            not all(isinstance(n, str) for n in names):
        raise MeleeApiError("bad-names", f"a melee has {MIN_MELEE} to {MAX_WIZARDS} wizards: "
                            "give as many names")
    seed = p.get("seed")
    if not isinstance(seed, str):
        raise MeleeApiError("bad-seed", "a seed (lowercase hex) is required")
    given = p.get("ruleset") or {}
    if not isinstance(given, dict):
        raise MeleeApiError("bad-request", "the ruleset must be a JSON object")
    ruleset = Ruleset.from_json(given)
    if "name" in given:
        find_ruleset(ruleset.name)  # (unknown-ruleset)
    game = duel.new_game(tuple(names), seed, ruleset)
    return ok(game=game.to_json(), seats=len(names))


def table_rows(view: JSON) -> list[JSON]:
    """Every wizard of a view as a compact row, the view's own wizard first, then by seat:
    {"index", "name", "you", "alive", "surrendered", "health" (null: not seen), "left",
    "right" (the last gestures, "?" where hidden), "effects": [{"name", "turns_left",
    "permanent"}] (null: not seen), "monsters": [{"id", "name", "health", "target"}]}."""
    me = int(view["wizard"])
    rows = []
    for w in view["wizards"]:
        history = w.get("history", [])[-GESTURES_SHOWN:]
        mine = [m for m in view["monsters"] if m["alive"] and m.get("controller") == w["index"]]
        # A blind viewer's view has no one else's enchantments (view.py: effects null), as it
        # has no health: the row says "not seen" rather than "none".
        seen = w.get("effects")
        rows.append({
            "index": w["index"], "name": w["name"], "you": w["index"] == me,
            "alive": w["alive"], "surrendered": w["surrendered"], "health": w.get("health"),
            "left": "".join(str(h["left"]) for h in history),
            "right": "".join(str(h["right"]) for h in history),
            "effects": None if seen is None else [
                {"name": e["name"], "turns_left": e.get("turns_left"),
                 "permanent": e.get("permanent", False)} for e in seen],
            "monsters": [_monster_row(m) for m in mine]})
    return sorted(rows, key=lambda r: (not r["you"], r["index"]))


def _monster_row(m: JSON) -> JSON:
    return {"id": m["id"], "name": m["name"],
            "health": int(m.get("toughness", 0)) - int(m.get("damage", 0)),
            "target": m.get("last_target") or None}


@guard
def melee_table(game: str, wizard: str) -> str:
    """What one wizard of a melee sees, as the page lays it out: {"view": V (api.view's, with
    notes), "rows": table_rows(V), "unruly": [monster rows nobody controls (elementals)],
    "targets": V's targets (every being, by id and name)}.  `game` may be a kept game's
    handle (api.session_open): then nothing is parsed and the notes are computed where the
    last view of it left off, so a table costs the same at turn 40 as at turn 4."""
    from .account import history_notes, kept_notes  # (a late module: see api.LATE_MODULES)

    g, k = _game(game)
    v = _seat(wizard, len(g.wizards))
    d = _view(g, v)
    try:
        d["notes"] = history_notes(g, v) if k is None else kept_notes(k, v)
    except (ValueError, KeyError, TypeError, IndexError):
        d["notes"] = None
    unruly = [_monster_row(m) for m in d["monsters"]
              if m["alive"] and m.get("controller") is None]
    return ok(view=d, rows=table_rows(d), unruly=unruly, targets=d["targets"])


# ---------------------------------------------------------------------------------------------
# Remote melee by codes (wavinghands.remote.melee; docs/protocol.md, "Melee").


def _session(text: str) -> Any:
    from .remote.melee import MeleeSession

    return MeleeSession.from_json(_load(text, "session"))


def melee_status(s: Any) -> JSON:
    """A melee session as the page shows it: {"me", "seats", "names", "started", "round",
    "phase": {"kind", "turn", "actors"} | null, "waiting_for": [seats], "to_act", "sealed",
    "over", "conceded": [seats the others conceded], "result", "view": my view | null,
    "rows": table_rows | null}."""
    started = bool(s.game)
    g = s.engine_game() if started else None
    d = _view(g, s.me) if g is not None else None
    return {"me": s.me, "seats": s.seats, "names": list(s.names), "started": started,
            "round": s.round,
            "phase": None if g is None else {"kind": g.phase.kind, "turn": g.phase.turn,
                                             "actors": list(g.phase.actors)},
            "waiting_for": list(s.waiting_for()),
            "to_act": g is not None and s.me in g.phase.actors and s.sealed is None,
            "sealed": s.sealed is not None or s.me in dict(s.commits),
            "over": g is not None and g.phase.kind == OVER, "conceded": list(s.conceded),
            "result": None if d is None else d["result"], "view": d,
            "rows": None if d is None else table_rows(d)}


def _answer(s: Any, **payload: Any) -> str:
    return ok(session=s.to_json(), status=melee_status(s),
              events=[dict(e) for e in s.events], **payload)


@guard
def remote_melee_invite(params: str) -> str:
    """{"name", "seats": 3..6, "ruleset"?} -> {"session", "codes": [one invitation per guest
    seat, seat 1 first], "status", "events": []}: the host is seat 0."""
    from .remote.melee import invite

    p = _load(params, "parameters")
    if not isinstance(p, dict) or not isinstance(p.get("name"), str):
        raise MeleeApiError("bad-request", "give your name: {\"name\": \"...\", \"seats\": N}")
    seats = p.get("seats")
    if not isinstance(seats, int) or isinstance(seats, bool) or \
            not MIN_MELEE <= seats <= MAX_WIZARDS:
        raise MeleeApiError("bad-seats", f"a melee has {MIN_MELEE} to {MAX_WIZARDS} seats")
    given = p.get("ruleset") or {}
    if not isinstance(given, dict):
        raise MeleeApiError("bad-request", "the ruleset must be a JSON object")
    ruleset = Ruleset.from_json(given)
    if "name" in given:
        find_ruleset(ruleset.name)
    s, codes = invite(p["name"], seats, ruleset, os.urandom(4))
    return _answer(s, codes=codes)


@guard
def remote_melee_describe(text: str) -> str:
    """"pasted text" -> {"codes": [{"code", "kind": "invite" | "accept" | "commit" |
    "reveal", "sender", "seats", "game_id", "round", "seat"?, "host"?, "name"?, "ruleset"?}]}:
    every melee code in it, read without a session (to route it to its melee)."""
    from .remote.melee import ACCEPT, INVITE, decode, split_codes

    text_value = _load(text, "text")
    if not isinstance(text_value, str):
        raise MeleeApiError("bad-request", "the text must be a JSON string")
    out = []
    for code in split_codes(text_value):
        m = decode(code)
        d: JSON = {"code": code, "kind": ("invite", "accept", "commit", "reveal")[m.kind],
                   "sender": m.sender, "seats": m.seats, "game_id": m.game_id.hex(),
                   "round": m.round}
        if m.kind == INVITE:
            d.update(seat=m.seat, host=m.name, ruleset=json.loads(m.rules))
        elif m.kind == ACCEPT:
            d.update(name=m.name)
        out.append(d)
    return ok(codes=out)


@guard
def remote_melee_accept(invitation: str, name: str) -> str:
    """"invitation code", "my name" -> {"session", "code" (my acceptance, to post to the
    group), "status", "events": []}."""
    from .remote.melee import accept, split_codes

    text = _load(invitation, "invitation")
    my_name = _load(name, "name")
    if not isinstance(text, str) or not isinstance(my_name, str):
        raise MeleeApiError("bad-request", "the invitation and the name are JSON strings")
    s, mine = accept(split_codes(text)[0], my_name)
    return _answer(s, code=mine)


@guard
def remote_melee_seal(sess: str, inp: str) -> str:
    """Session, my input for this round (orders, decisions, or {} when I only wait) ->
    {"session", "codes" (to post: my commitment, and my reveal if every other commitment is
    in), "status", "events" (what I saw happen, if the round was resolved)}."""
    from .remote.melee import seal

    raw = _load(inp, "input")
    if not isinstance(raw, dict):
        raise MeleeApiError("bad-request", "an input is a JSON object")
    s, codes = seal(_session(sess), raw, os.urandom(8))
    return _answer(s, codes=codes)


@guard
def remote_melee_receive(sess: str, text: str) -> str:
    """Session, "pasted text" (one code or several: a chat's lines) -> {"session", "codes"
    (what my page now posts by itself: my reveal), "status", "events"}; nothing of a paste
    is applied if one of its codes fails."""
    from .remote.melee import receive

    pasted = _load(text, "text")
    if not isinstance(pasted, str):
        raise MeleeApiError("bad-request", "the text must be a JSON string")
    s, codes = receive(_session(sess), pasted)
    return _answer(s, codes=codes)


@guard
def remote_melee_concede(sess: str, seat: str) -> str:
    """Session, seat -> {"session", "codes" (my reveal, if his commitment was the last one
    missing), "status", "events"}: the others agreed (live: every other wizard in the fight signed
    it, docs/protocol.md "Live melee") that this seat dropped out; every page now plays him, a
    surrender where his hands are free (remote.melee.conceded_input)."""
    from .remote.melee import concede

    s = _session(sess)
    v = _seat(seat, s.seats)
    s, codes = concede(s, v)
    return _answer(s, codes=codes)


@guard
def remote_melee_status(sess: str) -> str:
    """Session -> {"status", "log": [every code I wrote, newest last: to post again]}."""
    s = _session(sess)
    return ok(status=melee_status(s), log=list(s.log))


@guard
def remote_melee_record(sess: str) -> str:
    """Session -> {"record": R}: the melee's record as far as it is played."""
    from . import record

    s = _session(sess)
    return ok(record=record.export_record(s.engine_game()))


__all__ = ["melee_new", "melee_table", "remote_melee_accept", "remote_melee_concede",
           "remote_melee_describe", "remote_melee_invite", "remote_melee_receive",
           "remote_melee_record", "remote_melee_seal", "remote_melee_status"]
