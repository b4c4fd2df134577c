"""Random legal play, for conformance tests, fuzzing and benchmarks.

Each hand mostly works through a spell sequence it picked at random (so long spells such as
finger of death, haste or permanency do get cast), with random detours, random targets
(including nobody, monsters and monsters being summoned) and random choices among spells.
All randomness comes from the `random.Random` instance passed in, never the global one.
"""

from __future__ import annotations

import random
from typing import Any

from .legal import input_problems
from .model import Game
from .orders import parse_decisions, parse_orders
from .recognize import allocations, completed
from .situation import (
    constraints,
    controlled_monsters,
    enemies,
    hand_questions,
    may_aim,
    wizard_id,
)
from .spells import SpellTable
from .view import _targets


class Player:
    """A random player that keeps a plan per hand between turns."""

    def __init__(self, rng: random.Random, surrender_rate: float = 0.01) -> None:
        self.rng = rng
        self.surrender_rate = surrender_rate
        self.plans: dict[tuple[int, str], tuple[list[str], int]] = {}

    def _next(self, v: int, hand: str, table: SpellTable) -> str:
        plan = self.plans.get((v, hand))
        if plan is None or plan[1] >= len(plan[0]) or self.rng.random() < 0.08:
            # any sequence of the game's table, in table order
            _, _, parsed = self.rng.choice(table.sequences)
            steps = [s.gesture for s in parsed]
            plan = (steps, 0)
        steps, i = plan
        self.plans[(v, hand)] = (steps, i + 1)
        return steps[i]

    def orders(self, game: Game, v: int) -> dict[str, Any]:
        """Random legal orders for wizard v in the current orders/time-stop phase."""
        rng = self.rng
        c = constraints(game, v)
        stopped = game.phase.kind == "orders" or wizard_id(v) in game.phase.time_stopped
        sets: list[list[str]] = []
        if not stopped:
            sets = [["-", "-"]]
        else:
            for _ in range(c.sets):
                pair = []
                for hand in ("L", "R"):
                    hc = c.hand(hand)
                    if hc.forced is not None:
                        pair.append(hc.forced)
                        continue
                    r = rng.random()
                    if r < 0.06:
                        g = ">"
                    elif r < 0.09:
                        g = "-"
                    else:
                        g = self._next(v, hand, game.ruleset.table)
                    if g in c.banned:
                        g = rng.choice([x for x in "PW>-" if x not in c.banned])
                    pair.append(g)
                free = 1 if c.right.forced is None else 0
                if pair == [">", ">"]:
                    pair[free] = "-"
                if "C" in pair and rng.random() < 0.7 and not c.left.forced and \
                        not c.right.forced and "C" not in c.banned:
                    pair = ["C", "C"]
                both_free = not (c.left.forced or c.right.forced or c.left.why or c.right.why)
                if c.same_gesture and both_free:
                    # maladroit: one gesture for both hands (two stabs would be two daggers, two
                    # palms a surrender)
                    g = pair[0] if pair[0] not in (">", "P") else "-"
                    pair = [g, g]
                if pair == ["P", "P"] and rng.random() > self.surrender_rate and \
                        c.hand("LR"[free]).forced is None and "W" not in c.banned:
                    pair[free] = "W"
                sets.append(pair)
        d: dict[str, Any] = {"gestures": sets, "nonce": f"{rng.getrandbits(64):016x}"}
        table = game.ruleset.table
        targets = [t["id"] for t in _targets(game, v)]
        w = game.wizard(v)
        rows = [(r.left, r.right) for r in w.history]
        casts = []
        for si, pair in enumerate(sets):
            rows.append((pair[0], pair[1]))
            if not stopped:
                break
            cands = completed(rows, w.sequence_start, len(rows) - 1, w.short_lightning_used,
                              table)
            if not cands or rng.random() < 0.3:
                continue
            alloc = rng.choice(allocations(cands, game.ruleset.withhold))
            for cand in alloc.spells:
                entry: dict[str, Any] = {"set": si, "hand": cand.hand, "spell": cand.spell}
                if rng.random() < 0.5:
                    pool = targets if table[cand.spell].discardable else targets[:-1]
                    if table[cand.spell].category.value != "summon":
                        other = 1 - v if not game.is_melee else \
                            rng.choice([x for x in game.everyone if x != v])
                        pool = [*pool, f"new:{v}:L", f"new:{v}:R", f"new:{other}:L"]
                    entry["target"] = rng.choice(pool)
                if rng.random() < 0.2:
                    entry["bank" if rng.random() < 0.5 else "permanent"] = True
                casts.append(entry)
            if game.ruleset.withhold and cands and rng.random() < 0.1:
                casts = [x for x in casts if x["set"] != si]
                casts.append({"set": si, "hand": cands[0].hand, "spell": None})
        if casts:
            d["casts"] = casts
        # (a melee's stab must name its target: docs/rules.md, "Melee")
        if any(">" in s for s in sets) and (game.is_melee or rng.random() < 0.5):
            stab_pool = [t for t in targets if t not in (wizard_id(v), "none")
                         and (not game.is_melee or may_aim(game, v, t))]
            if stab_pool:
                d["stab"] = rng.choice(stab_pool)
                if game.is_melee and len(sets) > 1:  # (a target only for a set that stabs)
                    d["stab"] = [d["stab"] if ">" in s else None for s in sets]
        mons = {m.id: rng.choice([t for t in targets if t != m.id])
                for m in controlled_monsters(game, v) if rng.random() < 0.7}
        if mons:
            d["monsters"] = mons
        if c.charm_target is not None and stopped:
            d["charm"] = {"gesture": rng.choice("FPSWDC>-")}
        asked = hand_questions(game, v)  # (none under the standard rules: no draw)
        if asked and stopped:
            d["hands"] = {q.id: rng.choice(q.options) for q in asked}
        if w.banked is not None and rng.random() < 0.4:
            d["release"] = {"target": rng.choice(targets)} if rng.random() < 0.5 else True
        # Random choices may be illegal (e.g. a target that has died); drop them one kind at a
        # time until the orders are legal: the gestures alone always are.
        for drop in ("casts", "release", "stab", "monsters"):
            if not input_problems(game, v, parse_orders(d)):
                return d
            d.pop(drop, None)
        if game.is_melee and input_problems(game, v, parse_orders(d)):
            # A melee's stab with no target is refused: name one in reach (the first enemy).
            reach = [wizard_id(x) for x in enemies(game, v) if may_aim(game, v, wizard_id(x))]
            if reach:
                d["stab"] = [reach[0] if ">" in s else None for s in sets]
        return d

    def decisions(self, game: Game, v: int) -> dict[str, Any]:
        """Random answers to the decisions asked of wizard v."""
        answers = {x.id: self.rng.choice(x.options) for x in game.phase.decisions
                   if x.wizard == v}
        d = {"decisions": answers}
        assert not input_problems(game, v, parse_decisions(d))
        return d

    def input(self, game: Game, v: int) -> dict[str, Any]:
        """Random legal input for the current phase."""
        if game.phase.kind == "decision":
            return self.decisions(game, v)
        return self.orders(game, v)


MELEE_NAMES = ("Ann", "Bo", "Cy", "Di", "Ed", "Flo")


def random_duel(seed: int, max_turns: int = 40, withhold: bool = False,
                ruleset: str = "random",
                wizards: int = 2) -> list[tuple[Game, dict[int, dict[str, Any]]]]:
    """Play a random duel (or, with `wizards` 3 to 6, a melee) under the named ruleset
    ("random": a label of the standard rules); returns (state before, inputs) for every phase,
    ending when it ends."""
    from .duel import new_game, step
    from .ruleset import Ruleset

    rng = random.Random(seed)
    game = new_game(MELEE_NAMES[:wizards], f"{seed:08x}", Ruleset(ruleset, withhold))
    player = Player(rng)
    out = []
    phases = 0
    while game.phase.kind != "over" and phases < max_turns * 3 and game.turn <= max_turns:
        inputs = {v: player.input(game, v) for v in game.phase.actors}
        out.append((game, inputs))
        game, _ = step(game, inputs)
        phases += 1
    out.append((game, {}))
    return out
