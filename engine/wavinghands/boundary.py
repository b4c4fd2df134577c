"""Shared pieces of the JSON boundaries (`api`, `remote.json_api`): result envelopes and the
guard that turns every exception into an error value."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from .errors import IllegalInput, WavingHandsError


def ok(**payload: Any) -> str:
    """A success envelope: {"ok": true, ...payload}."""
    return json.dumps({"ok": True, **payload}, ensure_ascii=False, separators=(",", ":"),
                      sort_keys=True)


def sentence(text: str) -> str:
    """A message as a sentence for the player: capital first letter, closing full stop."""
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?)\"" else text + "."


def err(code: str, message: str, **extra: Any) -> str:
    """A failure envelope: {"ok": false, "error": {"code", "message", ...extra}}."""
    message = sentence(message)
    return json.dumps({"ok": False, "error": {"code": code, "message": message, **extra}},
                      ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def error_from(e: BaseException) -> str:
    """The failure envelope for an exception: an engine error (`WavingHandsError`) gives its own
    `code`, `field` and, for `IllegalInput`, every problem; any other ValueError-like error is
    "bad-request" (malformed input the narrow checks missed); anything else is "internal"."""
    if isinstance(e, WavingHandsError):
        extra: dict[str, Any] = {}
        if isinstance(e, IllegalInput):
            extra["problems"] = e.problems
        if e.field:
            extra["field"] = e.field
        return err(e.code, str(e), **extra)
    if isinstance(e, ValueError | TypeError | KeyError | IndexError | AttributeError |
                  RecursionError):
        return err("bad-request", f"{type(e).__name__}: {e}")
    return err("internal", f"{type(e).__name__}: {e}")


def guard(fn: Callable[..., str]) -> Callable[..., str]:
    """Wrap a boundary function so that no exception crosses the boundary."""
    def wrapper(*args: Any) -> str:
        try:
            return fn(*args)
        except Exception as e:  # the boundary promises that no exception crosses it
            return error_from(e)

    wrapper.__name__ = fn.__name__
    wrapper.__qualname__ = fn.__qualname__
    wrapper.__doc__ = fn.__doc__
    return wrapper
