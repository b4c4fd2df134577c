"""The standard rules: Bartle's Waving Hands as Duel Purpose printed them (000), with the
commentator's withhold house rule (003) as an option."""

from __future__ import annotations

from ..spells import STANDARD_TABLE
from .base import STANDARD_NAME, RuleOption, Variant, register

WITHHOLD = RuleOption(
    "withhold", "House rule: completed spells may be withheld",
    "A wizard may choose not to cast a spell his gestures complete. From the commentated copy: "
    "\"a wizard can choose to not cast a spell, even when he has completed the gestures\"; the "
    "standard rules say \"the spell must be cast\".")

STANDARD = register(Variant(
    STANDARD_NAME, "Waving Hands",
    "Richard Bartle's duel as Duel Purpose printed it: 39 spells, two wizards, fifteen points "
    "of damage kill.",
    STANDARD_TABLE, (WITHHOLD,)))
