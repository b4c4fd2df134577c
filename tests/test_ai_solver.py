"""The regret-matching solver's fast loops change no answer: on random tables (one or two
worlds, ties, rows never played, the refused-move loss) it gives bit for bit what the plain
loops give, so the opponent's moves stay the same."""

from __future__ import annotations

import random

from sizes import size

from wavinghands.ai.evaluate import WIN
from wavinghands.ai.table import Equilibrium, Grid, _positive_share, regret_matching


def plain_regret_matching(tables: list[Grid], iterations: int) -> Equilibrium:
    """The solver as first written: every product in its own loop."""
    n = len(tables[0])
    regret = [0.0] * n
    total = [0.0] * n
    their_regret = [[0.0] * len(t[0]) for t in tables]
    their_total = [[0.0] * len(t[0]) for t in tables]
    for it in range(1, iterations + 1):
        p = _positive_share(regret)
        mine = [0.0] * n
        for w, table in enumerate(tables):
            rq = their_regret[w]
            q = _positive_share(rq)
            m = len(rq)
            theirs = [0.0] * m
            for i, row in enumerate(table):
                mine[i] += sum(qj * u for qj, u in zip(q, row, strict=True)) / len(tables)
                for j, u in enumerate(row):
                    theirs[j] -= p[i] * u
            expected = sum(qj * t for qj, t in zip(q, theirs, strict=True))
            for j in range(m):
                rq[j] = max(0.0, rq[j] + theirs[j] - expected)
                their_total[w][j] += it * q[j]
        expected = sum(pi * u for pi, u in zip(p, mine, strict=True))
        for i in range(n):
            regret[i] = max(0.0, regret[i] + mine[i] - expected)
            total[i] += it * p[i]
    s = sum(total)
    p_avg = [t / s for t in total]
    q_avg = [[t / sum(tt) for t in tt] for tt in their_total]
    value = sum(p_avg[i] * q_avg[w][j] * u for w, table in enumerate(tables)
                for i, row in enumerate(table) for j, u in enumerate(row)) / len(tables)
    return Equilibrium(p_avg, q_avg, value)


def _table(rng: random.Random, n: int, m: int) -> Grid:
    values = [0.0, -0.0, 1.5, -2.25, -WIN, WIN]
    return [[rng.choice(values) if rng.random() < 0.3 else rng.uniform(-50, 50)
             for _ in range(m)] for _ in range(n)]


# Random tables (tests/sizes.py: 100 by default, 300 under --deep): the first 22 already meet one
# and 16 rows, one and 12 columns, two worlds, 1, 2, 30 and 150 rounds, -0.0 and both WINs.
TABLES = size(100, deep=300)


def test_the_solver_is_the_plain_one_bit_for_bit() -> None:
    rng = random.Random(41)
    for _ in range(TABLES):
        n, worlds = rng.randint(1, 16), rng.choice((1, 1, 2))
        tables = [_table(rng, n, rng.randint(1, 12)) for _ in range(worlds)]
        iterations = rng.choice((1, 2, 30, 150))
        fast, plain = regret_matching(tables, iterations), plain_regret_matching(tables, iterations)
        assert repr(fast) == repr(plain)  # (repr: tells -0.0 from 0.0 too)
