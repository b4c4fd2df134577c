"""The root of every error the engine raises on bad input, and the one shared narrow error.

Each narrow error is a subclass with a stable kebab-case `code` (a class attribute; the few
classes that stand for a family of codes, such as `orders.OrderError`, pass it per instance), so
the JSON boundary dispatches with `isinstance` and the page keys its sentences on `code`.
Every message is a sentence a player can act on.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import ClassVar, Protocol


class WavingHandsError(ValueError):
    """Bad input to the engine: a mangled code, illegal orders, an unknown ruleset, ..."""

    code: ClassVar[str] = "bad-input"
    field: str = ""  # the part of the input at fault, when one part is

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message)
        if code is not None:
            # A family error (orders.OrderError: one class, one code per rule) names its code
            # per instance; the instance's attribute shadows the class's.
            vars(self)["code"] = code


class Problem(Protocol):
    """One reason an input is refused (orders.OrderError is one)."""

    def to_json(self) -> dict[str, str]:
        """{"code", "message", "field"}."""
        ...


class IllegalInput(WavingHandsError):
    """Orders or decisions the rules refuse now: the engine's own check before resolving, or
    remote play's check of either side's input.  `problems` lists every reason as JSON."""

    code = "illegal-input"

    def __init__(self, problems: Iterable[Problem | Mapping[str, str]] = (),
                 message: str = "") -> None:
        self.problems = [dict(p) if isinstance(p, Mapping) else p.to_json() for p in problems]
        super().__init__(message or "; ".join(p.get("message", "") for p in self.problems)
                         or "this input is not legal now")
