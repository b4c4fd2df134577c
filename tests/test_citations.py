"""Every quote cited by a scenario test occurs verbatim in the reference rules (000), read from
the vendored, sha256-pinned copy (tests/citing.py): these checks fail, never skip."""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

from citing import CITED, RULES, RULES_SHA256, missing_fragments, rules_text


def _import_all_test_modules() -> None:
    here = Path(__file__).parent
    for info in pkgutil.iter_modules([str(here)]):
        if not info.name.startswith("test_") or info.name == "test_citations":
            continue
        source = (here / f"{info.name}.py").read_text(encoding="utf-8")
        if "from citing import" in source:
            importlib.import_module(info.name)


def test_citations_are_verbatim() -> None:
    _import_all_test_modules()
    text = rules_text()
    bad = [(who, q, missing_fragments(q, text)) for who, q in CITED]
    bad = [b for b in bad if b[2]]
    assert not bad, "quotes not found in 000:\n" + "\n".join(f"{w}: {m}" for w, _, m in bad)
    assert CITED, "no test cites the rules"


def test_the_vendored_rules_text_is_the_pinned_reference() -> None:
    # The pin itself: a copy that drifted from 000 (re-encoded, line endings changed, edited)
    # must stop the citation checks rather than let quotes be checked against another text.
    text = rules_text()
    assert RULES.name.startswith("000_") and len(RULES_SHA256) == 64
    assert "Waving Hands from Duel Purpose" in text.splitlines()[0]


def test_a_quote_that_is_not_in_the_rules_is_caught() -> None:
    # The checker can fail: a misquote (one word changed) and an invented sentence are reported.
    text = rules_text()
    good = "Each wizard can sustain fourteen points of damage"
    assert missing_fragments(good, text) == []
    assert missing_fragments("Each wizard can sustain fifteen points of damage", text) != []
    assert missing_fragments(f"{good} ... wizards may fly", text) == ["wizards may fly"]
