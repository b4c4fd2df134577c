"""Candidate orders for one wizard: the moves the search weighs.

Every legal gesture pair is scored by a cheap prior (what the pair completes, and how far it
carries each hand toward the spells worth most now, evaluate.py); the best few are kept, plus
the variants the rules make worth trying (the gesture a charmer writes on the enemy's hand).
Where a kept pair completes more spells than its hands can cast ("the caster chooses which one
to cast"), the same gestures casting another choice, named in `casts`, are weighed beside the
kept moves (the engine's default, the longest spell, lets the P of amnesia's D-P-P take the
hand of a shield); targets are the engine's defaults.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from ..model import Game
from ..recognize import Allocation, Row, allocations, completed, default_allocation
from ..situation import constraints, wizard_id
from .evaluate import (
    Plan,
    answer_reach,
    game_book,
    monster_pressure,
    plan_worth,
    plans,
    rows_of,
    shielded_turns,
    wizard_plans,
)
from .facts import Book, deadly_kinds, two_handed

JSON = dict[str, Any]
ONE_HAND = "FPSWD>-"
NOTHING = "-"
SURRENDER = ("P", "P")
CHARM_WRITES = ("P", NOTHING)  # P: he surrenders if his free hand makes P too
# A prior counts the wizard's plans after this turn's gesture, the enemy's threats before his.
PRIOR_LAG = 1
MAX_CHOICES = 3  # ways of casting one pair's completed spells looked at
MAX_ALTERNATIVES = 2  # moves casting another choice than the engine's default, beside the kept


@dataclass(frozen=True, slots=True)
class Candidate:
    """One move: the orders to send and the prior that ranked it."""

    orders: JSON
    prior: float


def _hand_options(game: Game, x: int, hand: str) -> list[str]:
    c = constraints(game, x)
    hc = c.hand(hand)
    if hc.forced is not None:
        return [hc.forced]
    if hc.why == "charm":
        return [NOTHING]  # the charmer writes this hand's gesture
    return [g for g in ONE_HAND if g not in c.banned]


def legal_pairs(game: Game, x: int) -> list[Row]:
    """Every gesture pair wizard x may write (never a surrender, never two stabs)."""
    c = constraints(game, x)
    lefts = _hand_options(game, x, "L")
    rights = _hand_options(game, x, "R")
    pairs = [(a, b) for a in lefts for b in rights if (a, b) != SURRENDER and
             not (a == ">" and b == ">")]
    free = not c.left.forced and not c.right.forced and not c.left.why and not c.right.why
    for g in two_handed(game_book(game)):
        if free and g not in c.banned and (g, g) not in pairs:
            pairs.append((g, g))
    charmed = {h for h in "LR" if c.hand(h).why == "charm"}
    if charmed:
        # Never P on the free hand while charmed: the charmer writes P on the other.
        pairs = [p for p in pairs if not ("L" not in charmed and p[0] == "P") and
                 not ("R" not in charmed and p[1] == "P")] or pairs
    if c.confused:
        # No P at all while confused: the dice may turn the other hand into a P too, and two
        # P's surrender (a 1 in 12 chance of losing the duel outright for one shield).
        pairs = [p for p in pairs if "P" not in p] or pairs
    return pairs


@dataclass(frozen=True, slots=True)
class Situation:
    """What a prior needs about the enemy, computed once per move."""

    book: Book  # the game's spell table
    threats: tuple[Plan, ...]
    enemy_reach: dict[str, int]
    deadly: frozenset[str]
    pressure: int  # the strength of the enemy monsters attacking him
    covered: int  # turns a lasting shield on him has left


def situation(game: Game, x: int) -> Situation:
    """The enemy's threats and answers under way, and the deadly enchantments on wizard x."""
    book = game_book(game)
    w = game.wizard(x)
    theirs = wizard_plans(game.wizard(1 - x), book)
    deadly = frozenset(e.kind for e in w.effects if e.kind in deadly_kinds(book))
    return Situation(book, tuple(t for t in theirs if t.facts.hostile),
                     answer_reach(game.wizard(1 - x), theirs, book, fresh=False), deadly,
                     monster_pressure(game, x), shielded_turns(w, book))


def cast_worth(alloc: Allocation, s: Situation) -> float:
    """What the spells of one allocation are worth cast now."""
    return sum(plan_worth(Plan(s.book.facts(c.spell), c.hand, 0), s.threats, set(s.deadly),
                          s.enemy_reach, s.book, s.pressure, s.covered, PRIOR_LAG)
               for c in alloc.spells)


def cast_choices(game: Game, x: int, rows: tuple[Row, ...], s: Situation) -> \
        list[tuple[Allocation, bool]]:
    """The ways wizard x may cast what the last row completes, each with whether it differs
    from the engine's default (so the orders must name it); the default first."""
    w = game.wizard(x)
    table = s.book.table
    cands = completed(rows, w.sequence_start, len(rows) - 1, w.short_lightning_used, table)
    if not cands:
        return [(Allocation(()), False)]
    default = default_allocation(cands, table)
    others = [a for a in allocations(cands, game.ruleset.may_withhold) if a != default]
    return [(default, False), *((a, True) for a in others[:MAX_CHOICES - 1])]


def pair_prior(game: Game, x: int, rows: tuple[Row, ...], s: Situation,
               casting: Allocation | None = None) -> float:
    """A cheap score of wizard x's history extended by new rows: what completes (the last row
    casting `casting` if given, else the engine's default), what builds."""
    w = game.wizard(x)
    deadly = set(s.deadly)
    score = 0.0
    table = s.book.table
    for i in range(len(w.history), len(rows)):
        if casting is not None and i == len(rows) - 1:
            score += cast_worth(casting, s)
            continue
        cands = completed(rows, w.sequence_start, i, w.short_lightning_used, table)
        if cands:
            score += cast_worth(default_allocation(cands, table), s)
    best = {"L": 0.0, "R": 0.0, "B": 0.0}
    for p in plans(rows, w.sequence_start, w.short_lightning_used, s.book):
        worth = plan_worth(p, s.threats, deadly, s.enemy_reach, s.book, s.pressure,
                           s.covered, PRIOR_LAG) * 0.6 ** p.remaining
        best[p.hand] = max(best[p.hand], worth)
    last = rows[-1]
    stab = 0.8 if ">" in last else 0.0
    return score + sum(best.values()) + stab


def candidate_orders(game: Game, x: int, limit: int, rng: random.Random) -> list[Candidate]:
    """Up to `limit` promising legal orders for wizard x in the current phase, best first."""
    c = constraints(game, x)
    acting = game.phase.kind == "orders" or wizard_id(x) in game.phase.time_stopped
    if not acting:
        return [Candidate({"gestures": [[NOTHING, NOTHING]]}, 0.0)]
    w = game.wizard(x)
    base = rows_of(w)
    s = situation(game, x)
    scored: list[tuple[float, tuple[Row, ...]]] = []
    others: dict[Row, list[Allocation]] = {}  # the other ways of casting a pair's spells
    for pair in legal_pairs(game, x):
        rows = (*base, pair)
        scored.append((pair_prior(game, x, rows, s) + rng.random() * 0.05, (pair,)))
        choices = cast_choices(game, x, rows, s)
        if len(choices) > 1:
            others[pair] = [alloc for alloc, _ in choices[1:]]
    scored.sort(key=lambda s: -s[0])
    if c.sets == 2:
        # Hastened: the second set continues the best first sets greedily.
        extended = []
        for prior, (first,) in scored[:limit]:
            seconds = [(pair_prior(game, x, (*base, first, p), s), p)
                       for p in legal_pairs(game, x)]
            best_prior, second = max(seconds)
            extended.append((prior + best_prior, (first, second)))
        scored = sorted(extended, key=lambda s: -s[0])
        others = {}
    out: list[Candidate] = []
    extra: list[Candidate] = []
    beast = _worst_enemy_monster(game, x)
    for prior, sets in scored[:limit]:
        d: JSON = {"gestures": [[a, b] for a, b in sets],
                   "nonce": f"{rng.getrandbits(64):016x}"}
        if w.banked is not None:
            d["release"] = True  # a banked spell is worth most as a surprise
        if c.charm_target is not None:
            for g in CHARM_WRITES:
                out.append(Candidate(dict(d, charm={"gesture": g}), prior))
            continue
        out.append(Candidate(d, prior))
        if beast is not None and len(extra) < 2:
            at_beast = _aimed_at(game, x, base, sets, beast)
            if at_beast is not None:
                extra.append(Candidate(dict(d, **at_beast), prior))
    kept = out[:limit] if c.charm_target is None else out[:limit + 2]
    return kept + extra + _other_casts(kept, others, w.banked is not None)


def _other_casts(kept: list[Candidate], others: dict[Row, list[Allocation]],
                 release: bool) -> list[Candidate]:
    """The kept moves again, casting another choice of what they complete, named in `casts`
    (up to MAX_ALTERNATIVES: extras beside the kept moves, never in their place)."""
    out: list[Candidate] = []
    for cand in kept:
        if "charm" in cand.orders or len(cand.orders["gestures"]) != 1:
            continue
        pair = tuple(cand.orders["gestures"][0])
        for alloc in others.get((pair[0], pair[1]), ()):
            if len(out) >= MAX_ALTERNATIVES:
                return out
            d: JSON = {"gestures": [list(pair)], "nonce": cand.orders["nonce"],
                       "casts": [{"set": 0, "hand": c.hand, "spell": c.spell}
                                 for c in alloc.spells]}
            if release:
                d["release"] = True
            out.append(Candidate(d, cand.prior))
    return out


def _worst_enemy_monster(game: Game, x: int) -> str | None:
    """The enemy's hardest-hitting monster, if he has one."""
    beasts = [m for m in game.monsters if m.alive and m.controller != x and not m.is_elemental]
    if not beasts:
        return None
    return max(beasts, key=lambda m: (m.strength, m.id)).id


def _aimed_at(game: Game, x: int, base: tuple[Row, ...], sets: tuple[Row, ...],
              target: str, named: Allocation | None = None) -> JSON | None:
    """The same gestures (casting `named` if given) with their attacks (damage spells, the
    stab) aimed at `target`."""
    w = game.wizard(x)
    book = game_book(game)
    rows = (*base, *sets)
    casts = []
    for si in range(len(sets)):
        if named is not None and si == 0:
            alloc = named.spells
        else:
            cands = completed(rows, w.sequence_start, len(base) + si, w.short_lightning_used,
                              book.table)
            alloc = default_allocation(cands, book.table).spells if cands else ()
        for cand in alloc:
            f = book.facts(cand.spell)
            casts.append({"set": si, "hand": cand.hand, "spell": cand.spell} |
                         ({"target": target} if f.hostile and f.damage > 0 else {}))
    if not any("target" in cast for cast in casts):
        casts = []
    stab = any(">" in s for s in sets)
    if not casts and not stab:
        return None
    out: JSON = {}
    if casts:
        out["casts"] = casts
    if stab:
        out["stab"] = [target if ">" in s else None for s in sets] if len(sets) > 1 else target
    return out


