"""Sampled joint-move search: the opponent's choice of orders.

1. Determinize: draw a few full states consistent with the observation (world.py).
2. Candidates: the best few of the wizard's own legal moves, and per world the enemy's
   (candidates.py), from the engine's legal gesture pairs.
3. Play every joint move once with the engine's `step` and score the result (evaluate.py).
4. Solve the simultaneous-move table by regret matching (the enemy picks per world, the
   wizard once for all worlds, since he cannot tell them apart; table.py).
5. Look-ahead (levels with one): the favourite rows against the enemy's best replies are
   searched a second turn and that smaller table solved again (lookahead.py).
6. Play the move the last equilibrium favours, or (strong) of the moves it plays often, the
   one whose worst reply hurts least (table.py's `guarded_pick`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from ..model import Game
from ..recognize import completed, default_allocation
from .candidates import Candidate, candidate_orders
from .evaluate import game_book, plans, rows_of, wizard_plans
from .levels import RESOLUTION, Level, Work, ranking_units
from .lookahead import deepen
from .observation import HIDDEN, Observation
from .table import accepted_columns, after, filled, guarded_pick, regret_matching, score
from .world import sample_world

JSON = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Choice:
    """The chosen orders and one line on why."""

    orders: JSON
    why: str
    work: Work | None = None  # what the search spent (None: no search ran)


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


def search(obs: Observation, level: Level, rng: random.Random,
           work: Work | None = None) -> Choice | None:
    """The orders the wizard of `obs` plays at this level, or None if none is legal.  `work`
    meters the search (the level's budget, a deadline); without one, a fresh one of the
    level's budget and no deadline."""
    me = obs.me
    work = work if work is not None else Work(level.work)
    # With nothing hidden every world is the same duel: one is enough.
    hidden = obs.blind or any(HIDDEN in row for row in obs.enemy.rows)
    worlds = [sample_world(obs, rng) for _ in range(level.worlds if hidden else 1)]
    mine: list[Candidate] = candidate_orders(worlds[0], me, level.width, rng)
    enemy = 1 - me
    replies: list[list[JSON | None]] = []
    for g in worlds:
        theirs: list[JSON | None] = [None]
        if enemy in g.phase.actors:
            theirs = [c.orders for c in candidate_orders(g, enemy, level.replies, rng)]
            work.spend(ranking_units(theirs))
        replies.append(theirs)
    work.spend(ranking_units([c.orders for c in mine]))
    work.worlds = len(worlds)
    # The first table, row by row (the best prior first).  Once a row is accepted in every
    # world the deadline is checked before each joint move; a row it interrupts is dropped, so
    # the move plays from the whole rows searched.
    states: list[list[list[Game | None]]] = [[] for _ in worlds]
    grids: list[list[list[float | None]]] = [[] for _ in worlds]
    accepted = False
    for c in mine:
        lines: list[list[Game | None]] = []
        for g, theirs in zip(worlds, replies, strict=True):
            line: list[Game | None] = []
            for t in theirs:
                if accepted and work.late():
                    break
                line.append(after(g, me, c.orders, t))
                work.spend(RESOLUTION)
            lines.append(line)
        if work.cut:
            break
        for world, grid, line in zip(states, grids, lines, strict=True):
            world.append(line)
            grid.append([score(s, me) for s in line])
        accepted = accepted or all(any(v is not None for v in g[-1]) for g in grids)
    searched = len(grids[0])
    # Keep only moves the engine accepted in every world, and the enemy's it accepted at all.
    keep = [i for i in range(searched) if all(any(v is not None for v in g[i]) for g in grids)]
    if not keep:
        return None
    kept = [([g[i] for i in keep], [s[i] for i in keep]) for g, s in zip(grids, states,
                                                                         strict=True)]
    cols = [accepted_columns(g) for g, _ in kept]
    tables = [filled(g, c) for (g, _), c in zip(kept, cols, strict=True) if c]
    if not tables:
        return None
    work.rows, work.columns = len(keep), sum(len(c) for c in cols)
    boards = [[[row[j] for j in c] for row in s] for (_, s), c in zip(kept, cols, strict=True)
              if c]
    priors = [mine[i].prior for i in keep]
    first = regret_matching(tables, level.iterations, work.late)
    rows, mix, solved = list(range(len(keep))), first.mine, tables
    work.first = work.units
    if level.lookahead is not None and not work.cut:
        deep = deepen(boards, tables, first, priors, me, level.lookahead, rng, work)
        if deep is not None:
            rows, mix, solved = deep.rows, deep.equilibrium.mine, deep.tables
            work.deepened = len(rows)
    if level.temperature > 0:
        weights = [m ** (1.0 / level.temperature) for m in mix]
        pick = rng.choices(range(len(rows)), weights=weights)[0]
    elif level.guard > 0:
        once = [[t[i] for i in rows] for t in tables]
        pick = guarded_pick(solved, once, mix, level.guard, [priors[i] for i in rows])
    else:
        pick = max(range(len(rows)), key=lambda k: (round(mix[k], 6), priors[rows[k]]))
    orders = mine[keep[rows[pick]]].orders
    return Choice(orders, explain(worlds[0], me, orders), work)
