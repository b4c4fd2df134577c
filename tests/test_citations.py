"""Every quote cited by a scenario test occurs verbatim in the reference rules (000)."""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

import pytest
from citing import CITED, RULES, missing_fragments


def _import_all_test_modules() -> None:
    here = Path(__file__).parent
    for info in pkgutil.iter_modules([str(here)]):
        if not info.name.startswith("test_") or info.name == "test_citations":
            continue
        source = (here / f"{info.name}.py").read_text(encoding="utf-8")
        if "from citing import" in source:
            importlib.import_module(info.name)


def test_citations_are_verbatim() -> None:
    if not RULES.exists():
        pytest.skip(f"the rules text is not available here ({RULES})")
    _import_all_test_modules()
    text = RULES.read_text(encoding="utf-8")
    bad = [(who, q, missing_fragments(q, text)) for who, q in CITED]
    bad = [b for b in bad if b[2]]
    assert not bad, "quotes not found in 000:\n" + "\n".join(f"{w}: {m}" for w, _, m in bad)
    assert CITED, "no test cites the rules"
