"""The root of every error the engine raises on bad input.

Each narrow error is a subclass with a stable kebab-case `code` class attribute, so the JSON
boundary dispatches with `isinstance` and the page keys its sentences on `code`.
"""

from __future__ import annotations

from typing import ClassVar


class WavingHandsError(ValueError):
    """Bad input to the engine: a mangled code, illegal orders, an unknown ruleset, ..."""

    code: ClassVar[str] = "bad-input"
