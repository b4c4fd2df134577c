"""Every quote a Warlocks scenario test cites occurs verbatim in the vendored, sha256-pinned
Warlocks rules page it names (tests/citing.py, `cite_warlocks`): these checks fail, never skip."""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

from citing import WARLOCKS_CITED, WARLOCKS_PAGES, missing_fragments, warlocks_text


def _import_warlocks_tests() -> None:
    here = Path(__file__).parent
    for info in pkgutil.iter_modules([str(here)]):
        if info.name.startswith("test_warlocks_") and info.name != "test_warlocks_citations":
            importlib.import_module(info.name)


def test_warlocks_citations_are_verbatim() -> None:
    _import_warlocks_tests()
    bad = [(who, page, missing_fragments(q, warlocks_text(page)))
           for who, page, q in WARLOCKS_CITED]
    bad = [b for b in bad if b[2]]
    assert not bad, "quotes not found in their Warlocks page:\n" + "\n".join(
        f"{w} ({p}): {m}" for w, p, m in bad)
    assert WARLOCKS_CITED, "no test cites the Warlocks pages"


def test_every_vendored_warlocks_page_is_the_pinned_text() -> None:
    for page, (url, _) in WARLOCKS_PAGES.items():
        text = warlocks_text(page)
        assert url.startswith("https://games.ravenblack.net/rules/1/")
        assert text.strip(), page


def test_a_misquote_of_a_warlocks_page_is_caught() -> None:
    text = warlocks_text("gestures")
    assert missing_fragments("SPFP is Anti-spell", text) == []
    assert missing_fragments("SPF is Anti-spell", text) != []
