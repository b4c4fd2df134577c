"""Sampled joint-move search: the opponent's choice of orders.

1. Determinize: draw a few full states consistent with the observation (world.py).
2. Candidates: the best few of the wizard's own legal moves, and per world the enemy's
   (candidates.py), from the engine's legal gesture pairs.
3. Play every joint move once with the engine's `step` and score the result (evaluate.py).
4. Solve the simultaneous-move table by regret matching (the enemy picks per world, the
   wizard once for all worlds, since he cannot tell them apart) and play the move the
   equilibrium favours.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from ..duel import step
from ..model import Game
from ..recognize import completed, default_allocation
from .candidates import Candidate, candidate_orders
from .decisions import world_answers
from .evaluate import WIN, evaluate, game_book, plans, rows_of, wizard_plans
from .levels import Level
from .observation import HIDDEN, Observation
from .world import sample_world

JSON = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Choice:
    """The chosen orders and one line on why."""

    orders: JSON
    why: str


def _answer_decisions(game: Game) -> Game:
    """Inside the search, answer post-reveal questions as the opponent would (decisions.py)."""
    for _ in range(4):
        if game.phase.kind != "decision":
            break
        inputs = {a: {"decisions": world_answers(game, a)} for a in game.phase.actors}
        game, _ = step(game, inputs)
    return game


def _after(game: Game, me: int, mine: JSON, theirs: JSON | None) -> Game | None:
    """The duel after one joint move (questions answered), or None if the engine refuses it."""
    inputs = {a: (mine if a == me else theirs) for a in game.phase.actors}
    if any(i is None for i in inputs.values()):
        return None
    try:
        after, _ = step(game, inputs)
        return _answer_decisions(after)
    except ValueError:
        return None


def _play(game: Game, me: int, mine: JSON, theirs: JSON | None) -> float | None:
    """Score of one joint move in one world, or None if the engine refuses it."""
    after = _after(game, me, mine, theirs)
    return None if after is None else evaluate(after, me)


def regret_matching(tables: list[list[list[float]]], iterations: int) -> list[float]:
    """The wizard's equilibrium mix over rows; tables[w][i][j] is his payoff in world w when
    he plays row i and the enemy column j (zero-sum, worlds equally likely)."""
    n = len(tables[0])
    regret = [0.0] * n
    total = [0.0] * n
    their_regret = [[0.0] * len(t[0]) for t in tables]
    for it in range(1, iterations + 1):
        pos = sum(max(r, 0.0) for r in regret)
        p = [max(r, 0.0) / pos for r in regret] if pos > 0 else [1.0 / n] * n
        mine = [0.0] * n
        for w, table in enumerate(tables):
            rq = their_regret[w]
            qpos = sum(max(r, 0.0) for r in rq)
            m = len(rq)
            q = [max(r, 0.0) / qpos for r in rq] if qpos > 0 else [1.0 / m] * m
            theirs = [0.0] * m
            for i, row in enumerate(table):
                mine[i] += sum(qj * u for qj, u in zip(q, row, strict=True)) / len(tables)
                for j, u in enumerate(row):
                    theirs[j] -= p[i] * u
            expected = sum(qj * t for qj, t in zip(q, theirs, strict=True))
            for j in range(m):
                rq[j] = max(0.0, rq[j] + theirs[j] - expected)  # regret matching+
        expected = sum(pi * u for pi, u in zip(p, mine, strict=True))
        for i in range(n):
            regret[i] = max(0.0, regret[i] + mine[i] - expected)
            total[i] += it * p[i]
    s = sum(total)
    return [t / s for t in total]


def _fill(table: list[list[float | None]]) -> list[list[float]] | None:
    """Drop enemy moves the engine refused everywhere; a lone refusal scores as a loss."""
    cols = [j for j in range(len(table[0])) if any(row[j] is not None for row in table)]
    if not cols:
        return None
    return [[-WIN if row[j] is None else float(row[j] or 0.0) for j in cols] for row in table]


def explain(game: Game, me: int, orders: JSON) -> str:
    """One line on why these orders: the spell they cast or build, the threat they answer."""
    w = game.wizard(me)
    book = game_book(game)
    enemy = wizard_plans(game.wizard(1 - me), book)
    imminent = sorted((t for t in enemy if t.facts.hostile), key=lambda t: (t.remaining,
                                                                          -t.facts.value))
    rows = (*rows_of(w), *((s[0], s[1]) for s in orders["gestures"]))
    for i in range(len(w.history), len(rows)):
        cands = completed(rows, w.sequence_start, i, w.short_lightning_used, book.table)
        for c in default_allocation(cands, book.table).spells if cands else ():
            f = book.facts(c.spell)
            stops = [t for t in imminent if t.remaining <= 1 and f.answer in t.facts.stopped_by]
            if f.answer and stops:
                return f"{f.name} stops the {stops[0].facts.name} the enemy can finish next turn."
            return f"{f.name}: it completes now."
    best = None
    for p in plans(rows, w.sequence_start, w.short_lightning_used, book):
        threat = next((t for t in imminent if p.facts.answer and p.facts.answer in
                       t.facts.stopped_by and t.remaining >= p.remaining), None)
        key = (threat is not None, p.facts.value * 0.6 ** p.remaining)
        if best is None or key > best[0]:
            best = (key, p, threat)
    if best is None:
        return "Nothing worth building here; keep your hands free."
    _, p, threat = best
    more = f"{p.remaining} more gesture{'s' if p.remaining != 1 else ''}"
    if threat is not None:
        return f"Prepares {p.facts.name} ({more}) against the enemy's {threat.facts.name}."
    return f"Builds {p.facts.name} ({more})."


def search(obs: Observation, level: Level, rng: random.Random) -> Choice | None:
    """The orders the wizard of `obs` plays at this level, or None if none is legal."""
    me = obs.me
    # With nothing hidden every world is the same duel: one is enough.
    hidden = obs.blind or any(HIDDEN in row for row in obs.enemy.rows)
    worlds = [sample_world(obs, rng) for _ in range(level.worlds if hidden else 1)]
    mine: list[Candidate] = candidate_orders(worlds[0], me, level.width, rng)
    tables: list[list[list[float | None]]] = []
    for g in worlds:
        enemy = 1 - me
        theirs: list[JSON | None] = [None]
        if enemy in g.phase.actors:
            theirs = [c.orders for c in candidate_orders(g, enemy, level.replies, rng)]
        tables.append([[_play(g, me, c.orders, t) for t in theirs] for c in mine])
    # Keep only moves the engine accepted in every world.
    keep = [i for i in range(len(mine)) if all(any(v is not None for v in t[i]) for t in tables)]
    if not keep:
        return None
    filled = [_fill([t[i] for i in keep]) for t in tables]
    solved = [f for f in filled if f is not None]
    if not solved:
        return None
    mix = regret_matching(solved, level.iterations)
    if level.temperature > 0:
        weights = [m ** (1.0 / level.temperature) for m in mix]
        pick = rng.choices(range(len(keep)), weights=weights)[0]
    else:
        pick = max(range(len(keep)), key=lambda i: (round(mix[i], 6), mine[keep[i]].prior))
    orders = mine[keep[pick]].orders
    return Choice(orders, explain(worlds[0], me, orders))
