"""Citations of the rules text: every scenario test names the sentence it checks.

    @cite("next turn he must repeat identically the gestures he made in the current turn")
    def test_...

Quotes are checked verbatim (whitespace-normalised; " ... " separates fragments that must each
appear) against 000, the reference copy, by tests/test_citations.py.  The text is vendored under
tests/data/rules/ and pinned by its sha256, so the check runs (and can fail) wherever the tests
run, the Pyodide run and a clone without shared/ included.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])

# A byte-for-byte copy of shared/rules/000_1dc99584d527fa25.txt (the only copy cited).
RULES = Path(__file__).resolve().parent / "data" / "rules" / "000_1dc99584d527fa25.txt"
RULES_SHA256 = "a0997ebc5fbbd0974f4d702e747a9f7c604816ec6e4df9c08bf460522a95dc75"


def rules_text() -> str:
    """The vendored reference rules (000); raises AssertionError, never skips, if the copy is
    missing or is not the pinned text."""
    assert RULES.is_file(), f"the vendored rules text {RULES} is missing"
    data = RULES.read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    assert digest == RULES_SHA256, \
        f"{RULES} has sha256 {digest}, not the pinned {RULES_SHA256}: it is not 000"
    return data.decode("utf-8")


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


# The Warlocks ruleset's pages (games.ravenblack.net/rules/1/...), as the stored copy of each
# page's opening text holds it: vendored under tests/data/rules/warlocks/, each pinned by its
# sha256 (tests/data/rules/warlocks/SOURCES.json says where each came from).
WARLOCKS_DIR = RULES.parent / "warlocks"
WARLOCKS_PAGES: dict[str, tuple[str, str]] = {  # page -> (URL, sha256 of the vendored text)
    "gestures": ("https://games.ravenblack.net/rules/1/gestures.html",
                 "28569e5ac0db9b417beb75d450c7f5b9c802145fe25e07600cb0a77f97382d62"),
    "monsters": ("https://games.ravenblack.net/rules/1/monsters.html",
                 "4b2742a742573f3c5c3a7782320b29f6609804baa71816b62a60040491b48a6e"),
    "challenges": ("https://games.ravenblack.net/rules/1/challenges.html",
                   "bd61f4c3885218698d7a6d2ca110bfd842b47d55390edd62a11db06c0987df3f"),
    "orders": ("https://games.ravenblack.net/rules/1/orders.html",
               "1d0044b771747321a8f5602ac784580b28711e739c082b2c41ce795530ddbdb2"),
}


def warlocks_text(page: str) -> str:
    """The vendored text of one Warlocks rules page; raises AssertionError, never skips, if the
    page is unknown, missing or not the pinned text."""
    assert page in WARLOCKS_PAGES, f"no vendored Warlocks page {page!r}"
    path = WARLOCKS_DIR / f"{page}.txt"
    assert path.is_file(), f"the vendored Warlocks page {path} is missing"
    data = path.read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    url, pinned = WARLOCKS_PAGES[page]
    assert digest == pinned, f"{path} has sha256 {digest}, not the pinned {pinned} ({url})"
    return data.decode("utf-8")


WARLOCKS_CITED: list[tuple[str, str, str]] = []  # (test, page, quote)


def cite_warlocks(page: str, *quotes: str) -> Callable[[F], F]:
    """Attach the quoted sentence(s) of one Warlocks rules page to a test (checked verbatim, as
    `cite`, by tests/test_warlocks_citations.py)."""
    def deco(fn: F) -> F:
        for q in quotes:
            WARLOCKS_CITED.append((f"{fn.__module__}.{fn.__name__}", page, q))
        fn.cite = quotes  # type: ignore[attr-defined]
        return fn
    return deco
