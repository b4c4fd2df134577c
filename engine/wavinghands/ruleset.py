"""Kept for importers of the old module: the ruleset value now lives in `wavinghands.rulesets`."""

from __future__ import annotations

from .rulesets import STANDARD, Ruleset, RulesetError

HOUSE_WITHHOLD = Ruleset("house-withhold", True)

__all__ = ["HOUSE_WITHHOLD", "STANDARD", "Ruleset", "RulesetError"]
