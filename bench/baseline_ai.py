"""The computer opponent: a one-turn look-ahead over every legal gesture pair.

It scores what each pair completes now and how far it carries the most valuable sequences, and
answers visible threats with shields and counter-spells.  Its only randomness is a hash of the
game seed, the turn and the wizard, so a game against it replays exactly.  It sees only what
`view` would show its wizard: the opponent's hidden gestures are unknown to it too.
"""

from __future__ import annotations

import hashlib
from typing import Any

from wavinghands.legal import choose_allocation, order_problems
from wavinghands.model import Game
from wavinghands.orders import parse_orders
from wavinghands.recognize import completed, next_completions, under_way
from wavinghands.situation import constraints, controlled_monsters, opponent, wizard_id
from wavinghands.spells import SPELLS

VALUE = {
    "missile": 1.0, "cause_light_wounds": 2.0, "cause_heavy_wounds": 3.0, "lightning_bolt": 5.0,
    "fireball": 4.5, "finger_of_death": 30.0, "summon_goblin": 1.5, "summon_ogre": 2.5,
    "summon_troll": 3.5, "summon_giant": 4.5, "summon_elemental": 1.0, "paralysis": 2.0,
    "confusion": 2.0, "amnesia": 2.0, "charm_person": 3.0, "charm_monster": 1.0, "fear": 1.5,
    "anti_spell": 1.5, "disease": 12.0, "poison": 12.0, "blindness": 3.5, "invisibility": 3.0,
    "haste": 3.0, "time_stop": 3.0, "protection_from_evil": 2.0, "shield": 0.3,
    "counter_spell": 0.8, "cure_light_wounds": 0.2, "cure_heavy_wounds": 0.4,
    "resist_heat": 0.5, "resist_cold": 0.5, "remove_enchantment": 0.3, "dispel_magic": 1.0,
    "magic_mirror": 0.8, "raise_dead": 0.2, "delayed_effect": 0.6, "permanency": 1.0,
    "fire_storm": -3.0, "ice_storm": -3.0,
}
DAMAGING = {"missile", "cause_light_wounds", "cause_heavy_wounds", "lightning_bolt", "fireball",
            "finger_of_death", "disease", "poison"}
HAND_OPTIONS = "FPSWD>-"


def _jitter(game: Game, v: int, label: str) -> float:
    h = hashlib.sha256(f"{game.seed}|{game.turn}|{v}|{label}".encode()).digest()
    return int.from_bytes(h[:4], "big") / 2**32 * 0.2


def _threats(game: Game, v: int) -> float:
    """How much damage the opponent could finish next turn, from what v can see."""
    o = game.wizard(opponent(v))
    rows = [("?", "?") if r.hidden_from_opponent else (r.left, r.right) for r in o.history]
    if not rows:
        return 0.0
    worst = 0.0
    for u in next_completions(rows, o.sequence_start, o.short_lightning_used):
        if u.done and u.spell in DAMAGING:
            worst = max(worst, VALUE[u.spell])
    monsters = sum(m.strength for m in game.monsters if m.alive and m.controller != v)
    return worst + monsters


def _score_pair(game: Game, v: int, rows: list[tuple[str, str]], start: int, short: bool,
                threat: float) -> float:
    idx = len(rows) - 1
    cands = completed(rows, start, idx, short)
    score = 0.0
    if cands:
        try:
            alloc = choose_allocation(cands, [], game.ruleset.withhold, 0)
        except ValueError:
            return -100.0
        for c in alloc.spells:
            value = VALUE.get(c.spell, 0.0)
            if c.spell in ("shield", "counter_spell", "magic_mirror", "protection_from_evil"):
                value += threat
            if c.spell.startswith("cure") and game.wizard(v).damage > 0:
                value += 1.5
            score += value
    best = {"L": 0.0, "R": 0.0, "B": 0.0}
    for u in under_way(rows, start, idx, short):
        total = len(SPELLS[u.spell].parsed[SPELLS[u.spell].sequences.index(u.sequence)])
        gain = max(0.0, VALUE.get(u.spell, 0.0)) * (u.done / total) ** 2 * 0.6
        best[u.hand] = max(best[u.hand], gain)
    score += sum(best.values())
    row = rows[idx]
    if row == ("P", "P"):
        score -= 1000.0  # never surrender by accident
    if ">" in row:
        score += 0.7
    return score


def _orders(game: Game, v: int) -> dict[str, Any]:
    w = game.wizard(v)
    c = constraints(game, v)
    stopped = game.phase.kind == "orders" or wizard_id(v) in game.phase.time_stopped
    if not stopped:
        return {"gestures": [["-", "-"]], "monsters": _monster_orders(game, v)}
    threat = _threats(game, v)
    rows = [(r.left, r.right) for r in w.history]
    sets: list[list[str]] = []
    short = w.short_lightning_used
    for si in range(c.sets):
        options: list[tuple[float, tuple[str, str]]] = []
        lefts = [c.left.forced] if c.left.forced else \
            ["-"] if c.left.why == "charm" else [g for g in HAND_OPTIONS if g not in c.banned]
        rights = [c.right.forced] if c.right.forced else \
            ["-"] if c.right.why == "charm" else [g for g in HAND_OPTIONS if g not in c.banned]
        pairs = [(a, b) for a in lefts for b in rights if not (a == ">" and b == ">")]
        if "C" not in c.banned and not c.left.forced and not c.right.forced and \
                not c.left.why and not c.right.why:
            pairs.append(("C", "C"))
        for pair in pairs:
            trial = [*rows, pair]
            s = _score_pair(game, v, trial, w.sequence_start, short, threat)
            options.append((s + _jitter(game, v, f"{si}{pair}"), pair))
        options.sort(key=lambda x: -x[0])
        best = options[0][1]
        rows.append(best)
        sets.append([best[0], best[1]])
    d: dict[str, Any] = {"gestures": sets}
    mons = _monster_orders(game, v)
    if mons:
        d["monsters"] = mons
    if c.charm_target is not None:
        d["charm"] = {"gesture": "-"}
    if w.banked is not None:
        d["release"] = True  # a banked spell is worth most as a surprise next turn
    d["nonce"] = hashlib.sha256(f"ai|{game.seed}|{game.turn}|{v}".encode()).hexdigest()[:16]
    # Usual targets already aim cures and protections at itself and attacks at the opponent.
    if order_problems(game, v, parse_orders(d)):
        return _fallback(game, v, c.sets)
    return d


def _fallback(game: Game, v: int, sets: int) -> dict[str, Any]:
    """Gestures that are always legal: what the rules force, nothing elsewhere."""
    c = constraints(game, v)
    left = c.left.forced or "-"
    right = c.right.forced or "-"
    d: dict[str, Any] = {"gestures": [[left, right] for _ in range(sets)]}
    if c.charm_target is not None:
        d["charm"] = {"gesture": "-"}
    return d


def _monster_orders(game: Game, v: int) -> dict[str, str]:
    target = wizard_id(opponent(v))
    return {m.id: target for m in controlled_monsters(game, v)}


def _decisions(game: Game, v: int) -> dict[str, Any]:
    answers: dict[str, str] = {}
    for x in game.phase.decisions:
        if x.wizard != v:
            continue
        if x.kind == "elemental":
            me = game.wizard(v)
            own = me.own_turns + 1
            if me.effect("resist_heat", own) is not None:
                answers[x.id] = "fire"
            elif me.effect("resist_cold", own) is not None:
                answers[x.id] = "ice"
            else:
                answers[x.id] = x.options[int(_jitter(game, v, x.id) * 10) % len(x.options)]
        else:
            # Paralyse or charm the hand with the most work under way.
            subject = int(x.id.split(":W")[1]) if ":W" in x.id else opponent(v)
            o = game.wizard(subject)
            rows = [(r.left, r.right) for r in o.history]
            best = {"L": 0, "R": 0}
            if rows:
                for u in under_way(rows, o.sequence_start, len(rows) - 1):
                    if u.hand in best:
                        best[u.hand] = max(best[u.hand], u.done)
            answers[x.id] = "L" if best["L"] >= best["R"] else "R"
            if answers[x.id] not in x.options:
                answers[x.id] = x.options[0]
    return {"decisions": answers}


def choose_input(game: Game, v: int) -> dict[str, Any]:
    """The computer's input for wizard v in the current phase (always legal)."""
    if game.phase.kind == "decision":
        return _decisions(game, v)
    return _orders(game, v)

