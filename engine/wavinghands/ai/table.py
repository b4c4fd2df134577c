"""The simultaneous-move table: joint moves played with the engine's `step`, and its solution.

Both turns of the search (search.py, lookahead.py) build such tables: rows are the wizard's
candidate moves, columns the enemy's, one table per sampled world.  Regret matching+ solves
them as a zero-sum game in which the enemy may pick per world and the wizard, who cannot tell
the worlds apart, picks once for all.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import product
from operator import mul
from typing import Any

from ..duel import step
from ..model import Game
from .decisions import world_answers
from .evaluate import WIN, evaluate

JSON = dict[str, Any]
Grid = list[list[float]]


ENEMY_CHOICES = 4  # the most ways of answering the enemy's questions tried in one phase


def answer_decisions(game: Game, me: int | None = None) -> Game:
    """Inside the search, answer post-reveal questions: each wizard as the opponent would
    (decisions.py), except that the enemy of `me` (if given) takes the answers worst for `me`
    (the hand he paralyses or charms is his choice: guessing it, the search let him freeze the
    S of a fear that was to break his finger of death, bench mirror duel 28)."""
    for _ in range(4):
        if game.phase.kind != "decision":
            break
        inputs = {a: {"decisions": world_answers(game, a)} for a in game.phase.actors}
        game = _worst_for(game, me, inputs) if me is not None and 1 - me in inputs else \
            step(game, inputs)[0]
    return game


def _worst_for(game: Game, me: int, inputs: dict[int, JSON]) -> Game:
    """The decision phase stepped with the enemy's answers that leave `me` worst off (ties:
    the answers decisions.py would give)."""
    enemy = 1 - me
    asked = [x for x in game.phase.decisions if x.wizard == enemy and len(x.options) > 1]
    if not asked:
        return step(game, inputs)[0]
    default = inputs[enemy]["decisions"]
    combos = [dict(zip([x.id for x in asked], pick, strict=True))
              for pick in product(*(x.options for x in asked))]
    combos.sort(key=lambda c: any(c[k] != default[k] for k in c))  # the default first
    worst: tuple[float, Game] | None = None
    for combo in combos[:ENEMY_CHOICES]:
        later = answer_decisions(step(game, {**inputs, enemy: {"decisions": {**default,
                                                                           **combo}}})[0], me)
        value = evaluate(later, me)
        if worst is None or value < worst[0]:
            worst = (value, later)
    assert worst is not None
    return worst[1]


def after(game: Game, me: int, mine: JSON, theirs: JSON | None,
          worst: bool = True) -> Game | None:
    """The duel after one joint move (questions answered, the enemy's the worst way for `me`
    if `worst`, else as the opponent would), or None if the engine refuses it."""
    inputs = {a: (mine if a == me else theirs) for a in game.phase.actors}
    if any(i is None for i in inputs.values()):
        return None
    try:
        later, _ = step(game, inputs)
        return answer_decisions(later, me if worst else None)
    except ValueError:
        return None


def score(game: Game | None, me: int) -> float | None:
    """The evaluation of a state for wizard `me`, None where the engine refused the move."""
    return None if game is None else evaluate(game, me)


def filled(grid: list[list[float | None]], cols: list[int]) -> Grid:
    """The columns `cols` of a grid, a move the engine refused scoring as a loss for its
    maker (a refused row: the wizard's loss; the search drops such rows beforehand)."""
    return [[-WIN if row[j] is None else float(row[j] or 0.0) for j in cols] for row in grid]


def accepted_columns(grid: list[list[float | None]]) -> list[int]:
    """The enemy moves the engine accepted against at least one of the wizard's moves."""
    return [j for j in range(len(grid[0]) if grid else 0)
            if any(row[j] is not None for row in grid)]


@dataclass(frozen=True, slots=True)
class Equilibrium:
    """The solution of a table: the wizard's mix over rows, the enemy's mix over columns in
    each world, and the wizard's expected payoff under both."""

    mine: list[float]
    theirs: list[list[float]]
    value: float


def _positive_share(regret: list[float]) -> list[float]:
    pos = sum(max(r, 0.0) for r in regret)
    n = len(regret)
    return [max(r, 0.0) / pos for r in regret] if pos > 0 else [1.0 / n] * n


# The search's deadline (`stop`, a levels.Deadline) is asked every this many rounds.
ROUNDS_PER_CHECK = 25


def regret_matching(tables: list[Grid], iterations: int,
                    stop: Callable[[], bool] | None = None) -> Equilibrium:
    """Solve the tables by regret matching+ (tables[w][i][j]: the wizard's payoff in world w
    when he plays row i and the enemy column j; zero-sum, worlds equally likely); a `stop`
    that says time is up ends it early (at a multiple of ROUNDS_PER_CHECK rounds)."""
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
                mine[i] += sum(map(mul, q, row)) / len(tables)
                if p[i]:  # (a row never played changes no payoff: t - 0.0 * u is t)
                    pi = p[i]
                    theirs = [t - pi * u for t, u in zip(theirs, row, strict=True)]
            expected = sum(qj * t for qj, t in zip(q, theirs, strict=True))
            for j in range(m):
                rq[j] = max(0.0, rq[j] + theirs[j] - expected)  # regret matching+
                their_total[w][j] += it * q[j]
        expected = sum(pi * u for pi, u in zip(p, mine, strict=True))
        for i in range(n):
            regret[i] = max(0.0, regret[i] + mine[i] - expected)
            total[i] += it * p[i]
        if stop is not None and it % ROUNDS_PER_CHECK == 0 and stop():
            break
    # Linear averaging (later rounds weigh more) converges fastest with regret matching+.
    s = sum(total)
    p_avg = [t / s for t in total]
    q_avg = [[t / sum(tt) for t in tt] for tt in their_total]
    value = sum(p_avg[i] * q_avg[w][j] * u for w, table in enumerate(tables)
                for i, row in enumerate(table) for j, u in enumerate(row)) / len(tables)
    return Equilibrium(p_avg, q_avg, value)


def worst_reply(tables: list[Grid], i: int) -> float:
    """What row i is worth against the enemy's best reply to it, in each world (averaged)."""
    return sum(min(table[i]) for table in tables) / len(tables)


def guarded_pick(tables: list[Grid], first: list[Grid], mix: list[float], share: float,
                 priors: list[float]) -> int:
    """The row to play when one must be played for sure: of the rows the equilibrium plays
    at least `share` as often as its favourite, the one whose worst reply hurts least in
    `tables`, then in `first` (the same rows' one-turn scores), then the more played, then
    the better prior.

    A mixed equilibrium is a guess (wait with the clap, or mirror now?); playing its
    favourite every time hands the enemy the one reply that beats it (he casts the finger of
    death into the wait).  Where both lose to a guess two turns out, the one that cannot be
    lost this turn is kept."""
    top = max(mix)
    played = [i for i in range(len(mix)) if mix[i] >= share * top]
    return max(played, key=lambda i: (round(worst_reply(tables, i), 6),
                                      round(worst_reply(first, i), 6), round(mix[i], 6),
                                      priors[i]))
