"""Shared pieces of the JSON boundaries (`api`, `remote.json_api`): result envelopes, the
guard that turns every exception into an error value, and the limits every text passed in meets
before anything parses it (docs/protocol.md, "Threat model")."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from itertools import accumulate
from typing import Any, Final

from .errors import IllegalInput, WavingHandsError

# A hostile text must fail fast and cleanly: a 10 MB paste froze the page for seconds, and
# `[` x 10,000 overflowed Pyodide's stack inside json.loads (issue 12, items 4 and 9).  The
# limits are far above what the formats need (a 2,000-turn saved duel is about 2 MB; games,
# sessions and records nest under 8 levels) and web/api.js checks the same two numbers.
MAX_TEXT_CHARS: Final[int] = 4_000_000
MAX_JSON_DEPTH: Final[int] = 32

# A JSON string literal (unrolled loop, linear time); its brackets do not count as nesting.
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_BRACKETS = re.compile(r"[\[\]{}]")
_STEP: Final[dict[int, int]] = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}
# Every byte but brackets and quotes (bytes.translate deletes them), and the brackets as one
# kind: the depth counts `[` and `{` alike.
_NOT_STRUCTURE: Final[bytes] = bytes(b for b in range(256) if b not in b'[]{}"')
_ONE_KIND: Final[bytes] = bytes.maketrans(b"{}", b"[]")
_QUOTED = re.compile(rb'"[^"]*"')


class InputTooLarge(WavingHandsError):
    """A text passed to the engine is longer than any game, record or code can be."""

    code = "too-large"


class InputTooDeep(WavingHandsError):
    """A JSON text nests arrays or objects deeper than any of the formats does."""

    code = "too-deep"


def nesting_depth(text: str) -> int:
    """The deepest nesting of `[`/`{` in a JSON text, ignoring brackets inside strings (a text
    that is not JSON still gets a number; json.loads judges it afterwards)."""
    if "\\" in text:  # escapes: only the string pattern tells a quote that ends a string
        brackets = "".join(_BRACKETS.findall(_STRING.sub("", text))).encode("ascii")
    else:
        brackets = _outside_strings(text)
    return _depth_of(brackets)


def _outside_strings(text: str) -> bytes:
    """The brackets of a text without backslashes that lie outside its strings, as bytes: what
    `_STRING.sub` then `_BRACKETS.findall` keep, found by bytes operations (a game's text is
    thousands of strings: ten times faster, bench/call_cost.py).  Without escapes a string is a
    quote, anything but a quote, a quote; UTF-8 encodes no other character with these bytes."""
    structure = text.encode("utf-8", "surrogatepass").translate(None, _NOT_STRUCTURE)
    tail = b""
    if structure.count(b'"') % 2:  # the last quote opens a string never closed: what follows counts
        structure, _, tail = structure.rpartition(b'"')
    # Two adjacent quotes are an empty string, or the end of one and the start of the next
    # with nothing between: dropping them pairs the other quotes as before.
    return _QUOTED.sub(b"", structure.replace(b'""', b"")) + tail


def _depth_of(brackets: bytes) -> int:
    """The deepest nesting of a sequence of brackets (`[`/`{` open, `]`/`}` close)."""
    # Balanced and shallow (every game, session, record): each round removes the innermost pairs
    rest = brackets.translate(_ONE_KIND)
    for depth in range(MAX_JSON_DEPTH + 2):
        if not rest:
            return depth
        shorter = rest.replace(b"[]", b"")
        if len(shorter) == len(rest):
            break
        rest = shorter
    # +1 for an opening bracket, -1 for a closing one; the running sum's peak is the depth
    return max(accumulate(_STEP[b] for b in brackets), default=0)


def check_text(text: str, what: str = "input") -> str:
    """`text` itself if it is within MAX_TEXT_CHARS and nests at most MAX_JSON_DEPTH deep;
    raises InputTooLarge / InputTooDeep otherwise, before anything parses it."""
    if len(text) > MAX_TEXT_CHARS:
        raise InputTooLarge(f"the {what} is too large: {len(text):,} characters, the most "
                            f"the engine reads is {MAX_TEXT_CHARS:,}. Nothing was changed")
    if text.count("[") + text.count("{") > MAX_JSON_DEPTH:  # else it cannot nest too deep
        deepest = nesting_depth(text)
        if deepest > MAX_JSON_DEPTH:
            raise InputTooDeep(f"the {what} nests {deepest} levels deep; no game, record or "
                               f"code nests more than {MAX_JSON_DEPTH}. Nothing was changed")
    return text


def loads(text: str, what: str = "input") -> Any:
    """json.loads after check_text: the only way the engine parses JSON it did not write."""
    return json.loads(check_text(text, what))


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
    # OverflowError: a number such as 1e999 in a damaged game reaches int() as infinity
    # (found by tools/fuzz_boundary.py).
    if isinstance(e, ValueError | TypeError | KeyError | IndexError | AttributeError |
                  RecursionError | OverflowError):
        return err("bad-request", f"{type(e).__name__}: {e}")
    return err("internal", f"{type(e).__name__}: {e}")


def guard(fn: Callable[..., str]) -> Callable[..., str]:
    """Wrap a boundary function so that no exception crosses the boundary and every text
    argument passes check_text before the function sees it."""
    def wrapper(*args: Any) -> str:
        try:
            for a in args:
                if isinstance(a, str):
                    check_text(a)
            return fn(*args)
        except Exception as e:  # the boundary promises that no exception crosses it
            return error_from(e)

    wrapper.__name__ = fn.__name__
    wrapper.__qualname__ = fn.__qualname__
    wrapper.__doc__ = fn.__doc__
    wrapper.__wrapped__ = fn  # type: ignore[attr-defined]  # inspect.signature finds the real one
    return wrapper
