"""Waving Hands (Spellcaster): a rules engine for Richard Bartle's wizard duel."""

from __future__ import annotations

# First, before any of the engine's dataclasses is defined: their methods' code compiled at
# build time, where the page's Python library has it (precompiled.py).
from . import precompiled  # noqa: F401

# isort: split
from .duel import new_game, step
from .model import Game
from .record import export_record, import_record, replay
from .rulesets import Ruleset
from .view import view

__all__ = ["Game", "Ruleset", "export_record", "import_record", "new_game", "replay", "step",
           "view"]
__version__ = "0.1.0"
