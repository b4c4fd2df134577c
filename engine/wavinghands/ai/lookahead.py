"""Look-ahead: the first turn's best joint moves searched one turn deeper.

A one-turn table scores each joint move by the static evaluation of the state it leaves, so a
plan longer than one turn (a counter-spell made with the free hand to break a shield lock, the
set-up of a kill a turn later, the answer the enemy can still make next turn) is seen only as
far as the evaluation's discounts guess it.  Here the first turn's favourite rows and, in each
world, the enemy's best replies to them, are each followed by a second one-turn search from the
state they leave (both wizards choosing again, as in the first); its equilibrium value replaces
the static score, and the smaller table of such values is solved again.  Every leaf is then two
turns deep, so the values compared are alike.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..model import Game
from ..situation import constraints
from .candidates import candidate_orders
from .evaluate import can_go_on, game_book, killing, wizard_plans
from .levels import RANKING, RESOLUTION, Lookahead, Work, ranking_units
from .table import Equilibrium, Grid, after, filled, regret_matching, score


def second_turn(game: Game, me: int, budget: Lookahead, rng: random.Random,
                work: Work | None = None) -> float:
    """The value for wizard `me` of a state after one more turn searched at `budget`."""
    if game.phase.kind == "over":
        return score(game, me) or 0.0
    mine = candidate_orders(game, me, budget.width, rng)
    enemy = 1 - me
    theirs = [c.orders for c in candidate_orders(game, enemy, budget.answers, rng)] \
        if enemy in game.phase.actors else [None]
    if work is not None:
        work.spend(ranking_units([c.orders for c in mine]) +
                   ranking_units(theirs) +
                   RESOLUTION * len(mine) * len(theirs))
    # The enemy's questions of the second turn are answered as the opponent would, not the
    # worst way: where every move loses to his worst choice two turns out (a counter-spell
    # freeing the hand he will paralyse again), that let strong play as if all were lost
    # (bench random duel 5, mirror duel 16), though the first turn's worst case still holds.
    grid: list[list[float | None]] = []
    for c in mine:
        if work is not None and work.late():
            return 0.0  # the deadline passed: `deepen` drops this search
        grid.append([score(after(game, me, c.orders, t, worst=False), me) for t in theirs])
    rows = [row for row in grid if any(v is not None for v in row)]
    cols = [j for j in range(len(theirs)) if any(row[j] is not None for row in rows)]
    if not rows or not cols:
        return score(game, me) or 0.0
    return regret_matching([filled(rows, cols)], budget.iterations).value


@dataclass(frozen=True, slots=True)
class Deepened:
    """The second-turn solution: the rows searched (indices into the first table), their
    tables of two-turn values (per world) and equilibrium."""

    rows: list[int]
    tables: list[Grid]
    equilibrium: Equilibrium


def best_rows(first: Equilibrium, priors: list[float], count: int) -> list[int]:
    """The first turn's favourite rows: most played at its equilibrium, then best prior."""
    order = sorted(range(len(first.mine)), key=lambda i: (-round(first.mine[i], 6), -priors[i]))
    return order[:count]


def pressing_reply(states: list[list[Game | None]], row: int, me: int) -> int | None:
    """The enemy's column that, against the wizard's `row`, leaves his killing spell fewest
    gestures from completion (None: no column carries one on).  A one-turn score underrates
    it: the doom it brings shows only a turn later, when no breaker can land in time."""
    best: tuple[int, int] | None = None
    for j, state in enumerate(states[row]):
        if state is None or state.phase.kind == "over":
            continue
        enemy = state.wizard(1 - me)
        hp = state.ruleset.variant.wizard_death - state.wizard(me).damage
        c = constraints(state, 1 - me)
        near = [t.remaining for t in wizard_plans(enemy, game_book(state))
                if t.facts.hostile and killing(t, hp) and can_go_on(t, c)]
        if near and (best is None or min(near) < best[0]):
            best = (min(near), j)
    return None if best is None else best[1]


def best_replies(table: Grid, rows: list[int], mix: list[float], count: int,
                 pressing: int | None = None) -> list[int]:
    """The enemy's columns that do the wizard most harm: each row's worst reply (so no row
    escapes the reply that beats it), then the `pressing` reply (if any), then those most
    harmful against `rows` played at `mix`, at least `count` in all."""
    weight = [mix[i] for i in rows]
    total = sum(weight)
    weight = [w / total for w in weight] if total > 0 else [1.0 / len(rows)] * len(rows)
    harm = [sum(wi * table[i][j] for wi, i in zip(weight, rows, strict=True))
            for j in range(len(table[0]))]
    cols: list[int] = []
    for i in rows:
        worst = min(range(len(table[i])), key=lambda j: (table[i][j], harm[j], j))
        if worst not in cols:
            cols.append(worst)
    if pressing is not None and pressing not in cols:
        cols.append(pressing)
    for j in sorted(range(len(harm)), key=lambda j: (harm[j], j)):
        if len(cols) >= count:
            break
        if j not in cols:
            cols.append(j)
    return cols


def replies(states: list[list[list[Game | None]]], tables: list[Grid], rows: list[int],
            first: Equilibrium, me: int, budget: Lookahead) -> list[list[int]]:
    """Per world, the enemy's columns searched a second turn against `rows` (`best_replies`,
    with the reply pressing his kill against the favourite)."""
    return [best_replies(table, rows, first.mine, budget.replies,
                         pressing_reply(states[w], rows[0], me))
            for w, table in enumerate(tables)]


def turn_cost(budget: Lookahead, state: Game | None = None, me: int = 0) -> int:
    """The work units one second-turn search (from `state`, if given) is counted at in advance:
    its nominal size, and for each wizard hastened there a ranking per first set he keeps (as
    `levels.ranking_units` counts it when spent)."""
    rankings = 2
    if state is not None and state.phase.kind != "over":
        for x, kept in ((me, budget.width), (1 - me, budget.answers)):
            if constraints(state, x).sets == 2:
                rankings += kept
    return RANKING * rankings + RESOLUTION * budget.width * budget.answers


def planned_cost(states: list[list[list[Game | None]]], rows: list[int],
                 cols: list[list[int]], me: int, budget: Lookahead) -> int:
    """The work units the second-turn searches below `rows` x `cols` are counted at."""
    return sum(turn_cost(budget, states[w][i][j], me) for w in range(len(cols)) for i in rows
               for j in cols[w])


def deepen(states: list[list[list[Game | None]]], tables: list[Grid], first: Equilibrium,
           priors: list[float], me: int, budget: Lookahead, rng: random.Random,
           work: Work | None = None) -> Deepened | None:
    """Search the best rows against the enemy's best replies a second turn and solve again;
    None where `work` affords no row, or its deadline passes (the first table then decides).

    `states[w][i][j]` is the state joint move (i, j) leaves in world w (None: refused) and
    `tables[w]` its first-turn scores, with the same rows and columns.  The favourites come
    first: the work budget keeps as many as it affords, counted in advance (`turn_cost`), so
    the rows searched are the same on every machine."""
    rows = best_rows(first, priors, budget.rows)
    cols = replies(states, tables, rows, first, me, budget)
    while work is not None and rows and \
            not work.affords(planned_cost(states, rows, cols, me, budget)):
        rows = rows[:-1]
        cols = replies(states, tables, rows, first, me, budget) if rows else []
    if not rows:
        return None
    if work is not None:
        work.planned = planned_cost(states, rows, cols, me, budget)
    deep: list[Grid] = []
    for w in range(len(tables)):
        grid: list[list[float | None]] = []
        for i in rows:
            line: list[float | None] = []
            for j in cols[w]:
                if work is not None and work.late():
                    return None
                state = states[w][i][j]
                line.append(None if state is None else second_turn(state, me, budget, rng,
                                                                   work))
            grid.append(line)
        deep.append(filled(grid, list(range(len(cols[w])))))
    if work is not None and work.cut:  # the deadline passed inside the last search
        return None
    return Deepened(rows, deep, regret_matching(deep, budget.iterations))
