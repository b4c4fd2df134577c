"""Rulesets, found by name: `RULESETS` (name -> Ruleset with default options) and
`find_ruleset(name)`.  Each ruleset is one module of this package that registers its `Variant`
(its spell table, options and rule hooks); see docs/architecture.md, "How to add a ruleset"."""

from __future__ import annotations

from typing import Any, Final

from . import standard, warlocks
from .base import (
    PRE_SEAM_LABELS,
    STANDARD_NAME,
    VARIANTS,
    RuleOption,
    Ruleset,
    RulesetError,
    UnknownRuleset,
    Variant,
    check_known,
    find_ruleset,
    register,
)

RULESETS: Final[dict[str, Ruleset]] = {name: find_ruleset(name) for name in VARIANTS}
STANDARD: Final = RULESETS[STANDARD_NAME]


def describe_rulesets() -> list[dict[str, Any]]:
    """Every ruleset with its title, description and options (labels, defaults), for the page."""
    return [variant.to_json() for variant in VARIANTS.values()]


__all__ = ["PRE_SEAM_LABELS", "RULESETS", "STANDARD", "STANDARD_NAME", "RuleOption", "Ruleset",
           "RulesetError", "UnknownRuleset", "Variant", "check_known", "describe_rulesets",
           "find_ruleset", "register", "standard", "warlocks"]
