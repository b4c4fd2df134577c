"""Remote play at the JS/Python boundary: JSON strings in, one JSON string out, never raising.

Every result is `{"ok": true, ...}` or `{"ok": false, "error": {"code", "message"}}`.  A
failed call changes nothing: the caller keeps the session it passed in.  The contracts are in
docs/protocol.md ("The browser API"); `wavinghands.api` re-exports these functions.
"""

from __future__ import annotations

import json
import os
from functools import lru_cache
from typing import Any

from .. import draft as drafting
from ..boundary import guard, ok
from ..errors import IllegalInput
from ..model import Game
from . import binding, codes, session
from .engine import Engine, default_engine
from .session import Session


def _load(text: str, what: str) -> Any:
    if not isinstance(text, str):
        raise codes.MalformedCode(f"the {what} must be passed as a JSON string")
    try:
        return json.loads(text)
    except ValueError as e:
        raise codes.MalformedCode(f"the {what} is not valid JSON ({e})") from e


def _text(text: str, what: str) -> str:
    v = _load(text, what)
    if not isinstance(v, str):
        raise codes.MalformedCode(f"the {what} must be a JSON string")
    return v


def _session(text: str) -> Session:
    if not isinstance(text, str):
        raise codes.MalformedCode("the session must be passed as a JSON string")
    return _stored(text)


# The page sends the same stored session again and again: with each draft it previews while
# waiting (remote_draft, at every gesture picked), its status, the draft carried.  Each text is
# read once (bounded, keyed by the text; a Session is frozen, its game never changed).
@lru_cache(maxsize=4)
def _stored(text: str) -> Session:
    return Session.from_json(_load(text, "session"))


@lru_cache(maxsize=4)
def _stored_game(text: str) -> Game:
    """The game of the stored session `text` (one with a game: remote_draft, remote_carry)."""
    s = _stored(text)
    assert s.game is not None
    return Game.from_json(s.game)


def _engine() -> Engine:
    return default_engine()


def _with_status(s: Session, eng: Engine, **payload: Any) -> str:
    return ok(session=s.to_json(), status=session.status(s, eng), **payload)


@guard
def remote_invite(params: str) -> str:
    """{"name", "ruleset"?, "base_url"?} -> {"session", "code", "link"?, "status"}."""
    p = _load(params, "parameters")
    if not isinstance(p, dict) or not isinstance(p.get("name"), str):
        raise IllegalInput(message="give your name: {\"name\": \"...\"}")
    rules = p.get("ruleset") or {}
    if not isinstance(rules, dict):
        raise IllegalInput(message="the ruleset must be a JSON object")
    out = session.create_invitation(p["name"], rules, os.urandom)
    assert out.code is not None
    extra: dict[str, Any] = {"code": out.code}
    if isinstance(p.get("base_url"), str):
        extra["link"] = codes.make_link(out.code, p["base_url"])
    return ok(session=out.session.to_json(), status=session.status(out.session), **extra)


@guard
def remote_describe(text: str) -> str:
    """"pasted text" -> {"code": {"code", "kind", "game_id", "sender", "seq", "turn", "phase",
    "host"?, "guest"?, "ruleset"?}} (no session needed: for routing a code to its game)."""
    return ok(code=session.describe(_text(text, "text")))


@guard
def remote_route_live(bound: str, text: str, saved: str) -> str:
    """Session of the duel the live connection carries (or null), "code that came over it",
    [saved game ids] -> {"route": "duel" | "invitation", "code": {...as remote_describe}}; any
    other duel's code is refused as `other-duel` (docs/protocol.md, "Threat model")."""
    b = _load(bound, "session")
    ids = _load(saved, "saved game ids")
    if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
        raise codes.MalformedCode("the saved game ids must be a JSON list of strings")
    eng = _engine()
    return ok(**binding.route_live(None if b is None else Session.from_json(b),
                                   _text(text, "code"), ids, eng))


@guard
def remote_accept(text: str, name: str) -> str:
    """"invitation code or link", "my name" -> {"session", "status", "invitation"}; the guest
    then writes turn 1 with remote_seal, whose code is the acceptance."""
    t = _text(text, "invitation")
    eng = _engine()
    s = session.accept_invitation(t, _text(name, "name"), eng)
    m = session.read_invitation(t)
    return _with_status(s, eng, invitation={"host": m.name, "ruleset": m.ruleset,
                                            "game_id": m.game_id.hex()})


@guard
def remote_seal(sess: str, inp: str) -> str:
    """Session, my input (orders or decisions) -> {"session", "code" (null: more input is
    needed first), "events", "status"}."""
    eng = _engine()
    x = _load(inp, "input")
    if not isinstance(x, dict):
        raise IllegalInput(message="an input is a JSON object")
    out = session.seal(_session(sess), x, eng, os.urandom)
    return _with_status(out.session, eng, code=out.code, events=list(out.events))


@guard
def remote_receive(sess: str, text: str) -> str:
    """Session, "pasted code or link" -> {"session", "reply" (a code to send back at once, or
    null), "events", "note", "status"}."""
    eng = _engine()
    out = session.receive(_session(sess), _text(text, "code"), eng, os.urandom)
    return _with_status(out.session, eng, reply=out.code, events=list(out.events),
                        note=out.note)


@guard
def remote_release(sess: str) -> str:
    """Session -> {"session", "code" (my owed reveal, alone; null when none can go now),
    "status"}: live play sends it at once, so both players write the next orders together."""
    eng = _engine()
    out = session.release(_session(sess), eng)
    return _with_status(out.session, eng, code=out.code)


# The guest's name in a draft written while the invitation is out (the acceptance brings it).
UNKNOWN_GUEST = "your opponent"


@guard
def remote_draft(sess: str, draft: str) -> str:
    """Session, a draft of next turn's orders -> {"draftable", "view"?, "preview"?}: while I
    wait for the code that resolves the turn I sealed, the next turn as I can foresee it."""
    s = _session(sess)
    d = _load(draft, "draft")
    eng = _engine()
    p = s.pending
    if s.game is None and s.me == 0 and s.sent:
        # The host's invitation is out: turn 1 as it will start (the guest's name not known yet).
        opening = eng.new_game((s.names[0], UNKNOWN_GUEST), dict(s.ruleset or {}),
                               session.seed_for(s.game_id))
        return ok(draftable=True, **_noted(drafting.draft_opening(Game.from_json(opening), 0, d),
                                           Game.from_json(opening), 0))
    if s.game is None or s.my_move or p is None or p.mine is None:
        return ok(draftable=False)
    ph = eng.phase(s.game)
    game = _stored_game(sess)
    if p.turn != ph.turn or p.kind != ph.kind or not drafting.draftable(game, s.me):
        return ok(draftable=False)
    mine = session.mine_as_input(s, eng)
    return ok(draftable=True, **_noted(drafting.draft_preview(game, s.me, mine, d), game, s.me))


def _noted(out: dict[str, Any], game: Game, me: int) -> dict[str, Any]:
    """A draft's view with the history notes of the resolved turns ("↳ Shield"), as a duel's
    view has them (api.view); a drafted row, not resolved yet, has none."""
    from ..account import history_notes  # (a late module: see api.LATE_MODULES)

    notes = history_notes(game, me)
    for w in out["view"]["wizards"]:
        rows = notes[str(w["index"])]["rows"]
        rows.extend({} for _ in range(len(w["history"]) - len(rows)))
    out["view"]["notes"] = notes
    return out


@guard
def remote_carry(sess: str, draft: str) -> str:
    """Session, a draft made while waiting -> {"ready", "over", "orders", "changes", "intact",
    "legal"}: the draft carried onto the resolved turn, with what the result changed and why."""
    s = _session(sess)
    d = _load(draft, "draft")
    if s.game is None or not s.my_move:
        return ok(ready=False, over=False, orders=None, changes=[], intact=False, legal=False)
    return ok(**drafting.carry(_stored_game(sess), s.me, d))


@guard
def remote_status(sess: str) -> str:
    """Session -> {"status"}: what it waits for, and the last code sent (to send again)."""
    return ok(status=session.status(_session(sess), _engine()))


@guard
def remote_link(code: str, base_url: str) -> str:
    """"code", "page url" -> {"link"}: the code in the URL fragment (#c=...)."""
    c = _text(code, "code")
    codes.unwrap(c)  # a link must never carry a damaged code
    return ok(link=codes.make_link(c, _text(base_url, "page url")))


@guard
def remote_parse(text: str) -> str:
    """"pasted text" -> {"code"}: the checked code in a bare code or a link."""
    c = codes.extract_code(_text(text, "text"))
    codes.unwrap(c)
    return ok(code=c)


__all__ = ["remote_accept", "remote_carry", "remote_describe", "remote_draft", "remote_invite",
           "remote_link", "remote_parse", "remote_receive", "remote_release", "remote_route_live",
           "remote_seal", "remote_status"]
