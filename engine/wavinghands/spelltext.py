"""The spell reference of a ruleset: its table with forward and reverse notation and the rules'
own text (data/spell_text.json; a ruleset's descriptions come from its `Variant.descriptions`)."""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from .rulesets import STANDARD, Ruleset
from .spells import SURRENDER_SEQUENCE, parse_sequence


def reverse_notation(sequence: str) -> str:
    """The sequence read backwards, as the rules' reverse list writes it ("P-P-(w-(s" ->
    "(s-(w-P-P").  Computed, so the reverse list's misprints cannot creep in."""
    return "-".join(step.notation() for step in reversed(parse_sequence(sequence)))


@lru_cache(maxsize=1)
def _texts() -> dict[str, Any]:
    import pkgutil  # here, not at import; pkgutil: see Ruleset.descriptions

    raw = pkgutil.get_data("wavinghands", "data/spell_text.json")
    if raw is None:
        raise FileNotFoundError("wavinghands/data/spell_text.json")
    data: dict[str, Any] = json.loads(raw.decode("utf-8"))
    return data


def spell_reference(ruleset: Ruleset = STANDARD) -> dict[str, Any]:
    """Every spell of the ruleset's table with its sequences both ways and its description;
    plus surrender and stab, the ruleset's title and options."""
    texts = _texts()
    variant = ruleset.variant
    described = variant.descriptions()
    spells = []
    forward = []
    reverse = []
    for s in variant.table.rows:
        spells.append({
            "key": s.key, "name": s.name, "category": s.category.value,
            "usual_target": s.usual_target.value, "sequences": list(s.sequences),
            "reverse": [reverse_notation(q) for q in s.sequences],
            "once_per_battle": list(s.once_per_battle), "discardable": s.discardable,
            "description": described[s.key],
        })
        for q in s.sequences:
            forward.append({"sequence": q, "key": s.key, "name": s.name,
                            "once_per_battle": q in s.once_per_battle})
            reverse.append({"sequence": reverse_notation(q), "key": s.key, "name": s.name,
                            "once_per_battle": q in s.once_per_battle})
    forward.append({"sequence": SURRENDER_SEQUENCE, "key": "surrender", "name": "Surrender",
                    "once_per_battle": False})
    reverse.append({"sequence": SURRENDER_SEQUENCE, "key": "surrender", "name": "Surrender",
                    "once_per_battle": False})

    def order(entry: dict[str, Any]) -> str:
        # The rules' lists are alphabetical with "(x" filed under x.
        return str(entry["sequence"]).replace("(", "").upper()

    forward.sort(key=order)
    reverse.sort(key=order)
    return {"spells": spells, "forward": forward, "reverse": reverse,
            "notes": texts["notes"], "source": texts["source"],
            "gestures": GESTURE_NAMES,
            "ruleset": {"name": variant.name, "title": variant.title},
            "ruleset_options": [o.to_json() for o in variant.options]}


# "the wiggled fingers (F) the proferred palm (P) the snap (S) the wave (W) the digit pointing
# (D) ... the clap (C) ... stab (stab) nothing ( )"
GESTURE_NAMES = [
    {"code": "F", "name": "wiggled fingers"}, {"code": "P", "name": "proffered palm"},
    {"code": "S", "name": "snap"}, {"code": "W", "name": "wave"},
    {"code": "D", "name": "digit pointing"}, {"code": "C", "name": "clap (both hands)"},
    {"code": ">", "name": "stab"}, {"code": "-", "name": "nothing"},
]
