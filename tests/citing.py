"""Citations of the rules text: every scenario test names the sentence it checks.

    @cite("next turn he must repeat identically the gestures he made in the current turn")
    def test_...

Quotes are checked verbatim (whitespace-normalised; " ... " separates fragments that must each
appear) against 000, the reference copy, by tests/test_citations.py.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])

RULES = Path(os.environ.get(
    "WAVINGHANDS_RULES",
    Path(__file__).resolve().parent.parent.parent / "shared" / "rules" /
    "000_1dc99584d527fa25.txt"))

CITED: list[tuple[str, str]] = []  # (test, quote)


def cite(*quotes: str) -> Callable[[F], F]:
    """Attach the quoted sentence(s) of the rules to a test."""
    def deco(fn: F) -> F:
        for q in quotes:
            CITED.append((f"{fn.__module__}.{fn.__name__}", q))
        fn.cite = quotes  # type: ignore[attr-defined]
        return fn
    return deco


def normalise(text: str) -> str:
    """Collapse whitespace so line breaks in the source do not matter."""
    return " ".join(text.split())


def missing_fragments(quote: str, text: str) -> list[str]:
    """Fragments of `quote` (split at " ... ") that do not occur in `text`."""
    body = normalise(text)
    return [f for f in (normalise(x) for x in quote.split(" ... ")) if f and f not in body]
