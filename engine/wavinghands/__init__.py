"""Waving Hands (Spellcaster): a rules engine for Richard Bartle's wizard duel."""

from __future__ import annotations

from .duel import new_game, step
from .model import Game
from .record import export_record, import_record, replay
from .rulesets import Ruleset
from .view import view

__all__ = ["Game", "Ruleset", "export_record", "import_record", "new_game", "replay", "step",
           "view"]
__version__ = "0.1.0"
