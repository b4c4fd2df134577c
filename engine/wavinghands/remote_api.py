"""Remote play at the JS/Python boundary: JSON strings in, one JSON string out, never raising.

Every result is `{"ok": true, ...}` or `{"ok": false, "error": {"code", "message"}}`.  A
failed call changes nothing: the caller keeps the session it passed in.  The contracts are in
docs/protocol.md ("The browser API"); `wavinghands.api` re-exports these functions.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from typing import Any

from . import codes, session
from .codes import CodeError, IllegalInput
from .session import Engine, Session


def _ok(**payload: Any) -> str:
    return json.dumps({"ok": True, **payload}, ensure_ascii=False, separators=(",", ":"))


def _err(code: str, message: str, **extra: Any) -> str:
    return json.dumps({"ok": False, "error": {"code": code, "message": message, **extra}},
                      ensure_ascii=False, separators=(",", ":"))


def _guard(fn: Callable[..., str]) -> Callable[..., str]:
    """Turn every failure into an error value (unexpected ones as "internal")."""

    def wrapper(*args: Any) -> str:
        try:
            return fn(*args)
        except IllegalInput as e:
            return _err(e.code, str(e), problems=e.problems)
        except CodeError as e:
            return _err(e.code, str(e))
        except (ValueError, TypeError, KeyError, IndexError, AttributeError,
                RecursionError) as e:
            return _err("bad_request", f"{type(e).__name__}: {e}")
        except Exception as e:  # the boundary promises that no exception crosses it
            return _err("internal", f"{type(e).__name__}: {e}")

    wrapper.__name__ = fn.__name__
    wrapper.__doc__ = fn.__doc__
    return wrapper


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
    return Session.from_json(_load(text, "session"))


def _engine() -> Engine:
    return session.default_engine()


def _with_status(s: Session, eng: Engine, **payload: Any) -> str:
    return _ok(session=s.to_json(), status=session.status(s, eng), **payload)


@_guard
def remote_invite(params: str) -> str:
    """{"name", "ruleset"?, "base_url"?} -> {"session", "code", "link"?, "status"}."""
    p = _load(params, "parameters")
    if not isinstance(p, dict) or not isinstance(p.get("name"), str):
        raise IllegalInput("give your name: {\"name\": \"...\"}")
    rules = p.get("ruleset") or {}
    if not isinstance(rules, dict):
        raise IllegalInput("the ruleset must be a JSON object")
    out = session.create_invitation(p["name"], rules, os.urandom)
    assert out.code is not None
    extra: dict[str, Any] = {"code": out.code}
    if isinstance(p.get("base_url"), str):
        extra["link"] = codes.make_link(out.code, p["base_url"])
    return _ok(session=out.session.to_json(), status=session.status(out.session), **extra)


@_guard
def remote_describe(text: str) -> str:
    """"pasted text" -> {"code": {"code", "kind", "game_id", "sender", "seq", "turn", "phase",
    "host"?, "guest"?, "ruleset"?}} (no session needed: for routing a code to its game)."""
    return _ok(code=session.describe(_text(text, "text")))


@_guard
def remote_accept(text: str, name: str) -> str:
    """"invitation code or link", "my name" -> {"session", "status", "invitation"}; the guest
    then writes turn 1 with remote_seal, whose code is the acceptance."""
    t = _text(text, "invitation")
    eng = _engine()
    s = session.accept_invitation(t, _text(name, "name"), eng)
    m = session.read_invitation(t)
    return _with_status(s, eng, invitation={"host": m.name, "ruleset": m.ruleset,
                                            "game_id": m.game_id.hex()})


@_guard
def remote_seal(sess: str, inp: str) -> str:
    """Session, my input (orders or decisions) -> {"session", "code" (null: more input is
    needed first), "events", "status"}."""
    eng = _engine()
    x = _load(inp, "input")
    if not isinstance(x, dict):
        raise IllegalInput("an input is a JSON object")
    out = session.seal(_session(sess), x, eng, os.urandom)
    return _with_status(out.session, eng, code=out.code, events=list(out.events))


@_guard
def remote_receive(sess: str, text: str) -> str:
    """Session, "pasted code or link" -> {"session", "reply" (a code to send back at once, or
    null), "events", "note", "status"}."""
    eng = _engine()
    out = session.receive(_session(sess), _text(text, "code"), eng, os.urandom)
    return _with_status(out.session, eng, reply=out.code, events=list(out.events),
                        note=out.note)


@_guard
def remote_status(sess: str) -> str:
    """Session -> {"status"}: what it waits for, and the last code sent (to send again)."""
    return _ok(status=session.status(_session(sess), _engine()))


@_guard
def remote_link(code: str, base_url: str) -> str:
    """"code", "page url" -> {"link"}: the code in the URL fragment (#c=...)."""
    c = _text(code, "code")
    codes.unwrap(c)  # a link must never carry a damaged code
    return _ok(link=codes.make_link(c, _text(base_url, "page url")))


@_guard
def remote_parse(text: str) -> str:
    """"pasted text" -> {"code"}: the checked code in a bare code or a link."""
    c = codes.extract_code(_text(text, "text"))
    codes.unwrap(c)
    return _ok(code=c)


__all__ = ["remote_accept", "remote_describe", "remote_invite", "remote_link", "remote_parse",
           "remote_receive", "remote_seal", "remote_status"]
