"""Golden playthroughs: the transcripts in tests/golden/*.txt are regenerated in memory and must
match the files byte for byte.

A difference means the engine (or the view, or the rendering) changed what a whole duel looks
like to its players.  Read the diff against the rules; if the new transcript is right, regenerate
with `python3 tests/golden/make_golden.py` and review the files before committing them.
"""

from __future__ import annotations

import difflib
import sys
from pathlib import Path

import pytest

GOLDEN = Path(__file__).resolve().parent / "golden"
sys.path.insert(0, str(GOLDEN))

import make_golden  # noqa: E402


@pytest.fixture(scope="module")
def regenerated() -> dict[str, str]:
    return make_golden.transcripts()


def test_every_golden_file_is_generated(regenerated: dict[str, str]) -> None:
    on_disk = {p.name for p in GOLDEN.glob("*.txt")}
    assert on_disk == set(regenerated), (
        "tests/golden/*.txt and make_golden.DUELS disagree; regenerate with "
        "`python3 tests/golden/make_golden.py`")


@pytest.mark.parametrize("name", sorted(f"{n}.txt" for n in make_golden.DUELS))
def test_golden_transcript(name: str, regenerated: dict[str, str]) -> None:
    path = GOLDEN / name
    expected = path.read_text(encoding="utf-8") if path.exists() else ""
    got = regenerated[name]
    if got != expected:
        diff = "".join(difflib.unified_diff(
            expected.splitlines(keepends=True), got.splitlines(keepends=True),
            fromfile=f"tests/golden/{name} (file)", tofile=f"tests/golden/{name} (engine now)",
            n=2))
        pytest.fail(f"the golden transcript {name} no longer matches:\n{diff}\n"
                    "If the new transcript is right under the rules, regenerate with: "
                    "python3 tests/golden/make_golden.py", pytrace=False)


def test_golden_duels_are_deterministic() -> None:
    # Two plays of the same script give the same transcript (no hidden randomness).
    name, (title, play) = next(iter(make_golden.DUELS.items()))
    first = make_golden.render(play(), title, make_golden.ABOUT[name])
    again = make_golden.render(play(), title, make_golden.ABOUT[name])
    assert first == again
