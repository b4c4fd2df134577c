"""wavinghands.precompiled: dataclass methods compiled at build time (docs/build.md, "Boot").

The page's Python library carries the code of the engine's dataclass methods, compiled by the
site's own interpreter (tools/python_lib.mjs); the engine hands it to `dataclasses`.  These
tests check the hand-over itself under CPython: a text the table holds runs its stored code,
any other text is compiled as usual, and a file from another Python version is ignored.
"""

from __future__ import annotations

import builtins
import dataclasses
import importlib.util
from types import CodeType
from typing import Any

import pytest

from wavinghands import precompiled


def _texts_of(define: Any) -> dict[str, CodeType]:
    """The source texts dataclasses compiles while `define()` runs, compiled here as
    "<stored>" (so that code run from the table shows where it came from)."""
    texts: dict[str, CodeType] = {}

    def recording(source: str, globals: dict[str, Any], locals: dict[str, Any]) -> None:
        texts[source] = compile(source, "<stored>", "exec", dont_inherit=True)
        builtins.exec(source, globals, locals)

    setattr(dataclasses, "exec", recording)  # noqa: B010
    try:
        define()
    finally:
        delattr(dataclasses, "exec")
    return texts


def _point() -> type:
    @dataclasses.dataclass(frozen=True, slots=True)
    class Point:
        x: int
        y: int = 0

    return Point


def _other() -> type:
    @dataclasses.dataclass
    class Other:
        name: str

    return Other


def test_a_stored_text_runs_its_stored_code_and_others_compile(
        monkeypatch: pytest.MonkeyPatch) -> None:
    table = _texts_of(_point)
    assert table  # one text per class (3.13+) or per method (3.11)
    monkeypatch.setattr(dataclasses, "exec", builtins.exec, raising=False)  # undone after
    precompiled.install(table)
    point, other = _point(), _other()
    assert point.__init__.__code__.co_filename == "<stored>"  # type: ignore[misc]
    assert other.__init__.__code__.co_filename == "<string>"  # type: ignore[misc]
    p = point(1)
    assert (p.x, p.y, p == point(1, 0), repr(p)) == (1, 0, True, "_point.<locals>.Point(x=1, y=0)")
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.x = 2


def test_the_file_round_trips_and_another_version_is_ignored() -> None:
    table = _texts_of(_point)
    data = precompiled.dump(table)
    assert precompiled.load(data).keys() == table.keys()
    other_magic = bytes([importlib.util.MAGIC_NUMBER[0] ^ 1]) + data[1:]
    assert precompiled.load(other_magic) == {}
    assert precompiled.load(importlib.util.MAGIC_NUMBER + b"not marshal") == {}
    assert precompiled.load(b"") == {}


def test_without_the_file_nothing_is_installed() -> None:
    # The engine's wheel (and this checkout) carries no CODE_FILE: only the page's library does.
    assert precompiled.STORED == 0
    assert "exec" not in vars(dataclasses)
