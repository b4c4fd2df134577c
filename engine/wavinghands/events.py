"""The battle as data: each log event as a structured step, the end's decisive blow, health.

The log's sentences and these steps come from the same `emit` in resolution (each event carries
its sentence and its fields), in the order the engine resolved them, and a wizard gets only the
events his view shows him (`Event.visible_to`).  Nothing here knows a spell by name: spells are
keys of the ruleset's table.

A step: {"turn", "kind", ...}, with any of "caster" / "controller" / "winner" (a wizard's
index), "target" / "monster" (a being's id), "spell" (a table key), "amount" (an int),
"outcome" (a code), "hand", "gesture", "left", "right", "set", "source", "effect",
"reflected_by", "spells", "surrendered", "monster_kind"; "text" is the log's sentence for it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .model import OVER, WIZARD_DEATH, Event, Game, wizard_id, wizard_index
from .view import viewer_blind

JSON = dict[str, Any]

# The log's event type -> the step's kind (types that are a spell's key are "effect").
KINDS: dict[str, str] = {
    "gestures": "gestures", "cast": "cast", "release": "release", "fizzle": "fizzle",
    "blocked": "blocked", "miss": "missed", "resisted": "resisted", "damage": "damage",
    "cure": "cure", "cured": "cured", "death": "death", "monster_death": "death",
    "death_spell": "death_spell", "summon": "summon", "enchant": "enchant", "clash": "clash",
    "elementals_clash": "clash", "storms_cancel": "clash", "storm_elemental": "clash",
    "cancel": "clash", "engulfed": "destroyed", "elemental_destroyed": "destroyed",
    "charmed": "forced", "confused": "forced", "confused_monster": "confused_attack",
    "no_attack": "no_attack", "disenchant": "disenchant", "raised": "raised",
    "bank": "bank", "merge": "merge", "over": "over", "leaves": "surrender",
    "forfeit": "surrender",
}
WIZARD_FIELDS = ("caster", "controller", "winner")
NUMBER_FIELDS = ("amount", "set")


def structured(e: Event, table_keys: frozenset[str] | set[str]) -> JSON:
    """One log event as a step (see the module's docstring); `table_keys` are the ruleset's
    spell keys (an event typed by one is that spell's effect)."""
    data = dict(e.data)
    kind = KINDS.get(e.type) or ("effect" if e.type in table_keys else "other")
    out: JSON = {"turn": e.turn, "kind": kind}
    if kind == "effect":
        out["spell"] = e.type
    if "subject" in data:  # a cast's or an enchantment's subject is its target
        data.setdefault("target", data.pop("subject"))
    if "by" in data:  # a knife's wielder
        data.setdefault("caster", data.pop("by"))
    if "wizard" in data:  # a death's, a surrender's, a gesture's wizard
        index = data.pop("wizard")
        data.setdefault("target" if kind != "gestures" else "caster",
                        wizard_id(int(index)) if kind != "gestures" else index)
    if kind == "death" and "monster" in data:
        data.setdefault("target", data.pop("monster"))
    for key, value in data.items():
        if value == "":
            continue
        if key in WIZARD_FIELDS or key in NUMBER_FIELDS:
            out[key] = int(value)
        elif key == "kind":  # a summons's monster kind
            out["monster_kind"] = value
        elif key == "surrendered":
            out[key] = [int(x) for x in value.split()]
        else:
            out[key] = value
    if kind == "cast" and "reflected_by" in out:
        out["outcome"] = "reflected"
    out["text"] = e.text
    return out


def battle_events(game: Game, v: int) -> list[JSON]:
    """Every step of the battle wizard v was shown, in the order the engine resolved them."""
    keys = set(game.ruleset.table)
    return [structured(e, keys) for e in game.log if v in e.visible_to]


def _blow(steps: list[JSON], victim: str) -> JSON | None:
    """What killed `victim` (a being id) in these steps of his last turn: a disease's or
    poison's end, a death spell, else the largest blow that landed on him (the last of equals)."""
    for s in steps:
        if s["kind"] == "death" and s.get("target") == victim and "spell" in s:
            return {k: s[k] for k in ("spell", "caster") if k in s}
    for s in steps:
        if s["kind"] == "death_spell" and s.get("target") == victim:
            return {k: s[k] for k in ("spell", "caster") if k in s}
    best: JSON | None = None
    for s in steps:
        if s["kind"] == "damage" and s.get("target") == victim and \
                (best is None or s["amount"] >= best["amount"]):
            best = s
    if best is None:
        return None
    return {k: best[k] for k in ("spell", "caster", "monster", "source", "amount") if k in best}


def _named(game: Game, blow: JSON | None) -> JSON | None:
    """A blow with the names a sentence needs: its spell's ("spell_name"), its monster's kind
    and master ("monster_name", "controller")."""
    if blow is None:
        return None
    out = dict(blow)
    if "spell" in out and out["spell"] in game.ruleset.table:
        out["spell_name"] = game.ruleset.table[out["spell"]].name
    m = next((m for m in game.monsters if m.id == out.get("monster")), None)
    if m is not None:
        out["monster_name"] = m.kind.replace("_", " ")
        out["controller"] = m.controller
    return out


def ending(game: Game, v: int) -> JSON | None:
    """How the battle ended as wizard v saw it: {"turn", "winner" (or None), "how": "killed" |
    "surrendered" | "limit", "dead": [{"wizard", "blow"}], "surrendered": [...],
    "same_blow": whether every death shares one blow}; None while it goes on.  A blow v did not
    see is None."""
    if game.phase.kind != OVER or game.result is None:
        return None
    steps = battle_events(game, v)
    over = next((s for s in reversed(steps) if s["kind"] == "over"), None)
    turn = over["turn"] if over else game.turn
    last = [s for s in steps if s["turn"] == turn]
    dead: list[JSON] = []
    for s in last:
        index = wizard_index(str(s.get("target", ""))) if s["kind"] == "death" else None
        if index is not None and all(d["wizard"] != index for d in dead):
            dead.append({"wizard": index, "blow": _named(game, _blow(last, wizard_id(index)))})
    blows = [d["blow"] for d in dead]
    same = len(blows) > 1 and blows[0] is not None and all(
        b is not None and b.get("spell") == blows[0].get("spell") and
        b.get("caster") == blows[0].get("caster") and b.get("monster") == blows[0].get("monster")
        for b in blows)
    surrendered = over.get("surrendered", []) if over else []
    how = "killed" if dead else "surrendered" if surrendered else "limit"
    return {"turn": turn, "winner": game.result.winner, "how": how, "dead": dead,
            "surrendered": surrendered, "same_blow": same}


def health(game: Game, v: int) -> list[JSON]:
    """Each wizard's health after each turn as wizard v saw it then: [{"turn", "health":
    [h0, h1, ...]}] (None where he was blind to it), from the start (turn 0)."""
    from .account import states  # (the duel's replay; a late module: api.LATE_MODULES)

    return health_over(states(game), v)


def health_over(states: Sequence[Game], v: int) -> list[JSON]:
    """`health` from the game's states, one per phase from its start."""
    out: list[JSON] = []
    for s in states:
        if s.phase.kind == "decision":
            continue  # the turn is not over until its decisions are answered
        blind = viewer_blind(s, v)
        row = [None if blind and w.index != v else max(0, WIZARD_DEATH - 1 - w.damage)
               for w in s.wizards]
        turn = s.turn - 1 if s.phase.kind != OVER else s.turn
        if out and out[-1]["turn"] == turn:
            out[-1] = {"turn": turn, "health": row}
        else:
            out.append({"turn": turn, "health": row})
    return out


def battle(game: Game, v: int) -> JSON:
    """Wizard v's battle: {"events": steps, "ending": ending or None, "health": series}."""
    return {"events": battle_events(game, v), "ending": ending(game, v),
            "health": health(game, v)}
