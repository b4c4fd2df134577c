"""Random gesture histories for the tests that compare a fast recognition with the direct one
(tests/test_memo.py, tests/test_recognize_speed.py)."""

from __future__ import annotations

import random

# Every gesture a hand can show, stab and nothing included (docs/architecture.md, "Orders").
GESTURES = "FPSWDC>-"


def random_rows(rng: random.Random, n: int, alike: float) -> list[tuple[str, str]]:
    """n rows of (left, right) gestures from `rng`; with odds `alike` a row shows the same
    gesture on both hands, so two-handed steps (C-C, W-W, (w...) complete or get under way."""
    rows = []
    for _ in range(n):
        g = rng.choice(GESTURES)
        rows.append((g, g) if rng.random() < alike else (g, rng.choice(GESTURES)))
    return rows
