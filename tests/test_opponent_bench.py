"""bench/opponent_match.py's book and bookkeeping: the mirrored opening is the same position
from either seat, and a loss is charged to the opening only when the same seat lost its twin."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench"
pytestmark = pytest.mark.skipif(sys.platform == "emscripten" or not BENCH.is_dir(),
                                reason="the benchmarks run in CPython from a checkout")


@pytest.fixture(scope="module")
def match() -> ModuleType:
    """The bench module (its directory holds the baseline it imports)."""
    sys.path.insert(0, str(BENCH))
    try:
        return importlib.import_module("opponent_match")
    finally:
        sys.path.remove(str(BENCH))


def test_a_mirrored_opening_is_the_same_from_either_seat(match: ModuleType) -> None:
    varied = set()
    for j in range(6):
        game = match.opening(match.twin_seed(1, 2 * j), 3, "mirror")
        ann, bo = (tuple((r.left, r.right) for r in w.history) for w in game.wizards)
        assert ann == bo and len(ann) == 3
        assert game.wizards[0].damage == game.wizards[1].damage
        varied.add(ann)
    assert len(varied) == 6  # as varied as random gestures


def test_losses_are_charged_to_the_opening_only_when_its_seat_lost_twice(match: ModuleType) -> None:
    # twins: (first player's result from seat 0, from seat 1); 0 = won, 1 = lost, None = draw
    t = match.tally([1, 0, 1, 1, 0, 1, 1, None, 0, 0], [10] * 10)
    assert (t.win, t.draw, t.loss) == (4, 1, 5)
    assert t.seat_lost_twice == 2  # (1, 0) and (0, 1): the same seat lost both twins
    assert t.lost_both_sides == 2  # (1, 1)
    assert t.won_of_decided() == "44.4 %"
    assert t.won_of_fair_decided() == "40.0 %"  # 2 won of 5 without the two lost seats
