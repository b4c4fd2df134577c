"""`view(game, wizard)`: exactly what one wizard may know under the rules.

This is the only state a UI ever sees.  Hidden under the rules:
- the opponent's gestures made while he was invisible, while the viewer was blind, or in a
  time-stopped turn the viewer did not take ("no-one can see or know about");
- while the viewer is blind: the opponent's damage and enchantments, and monsters he has not
  seen ("he cannot tell what his opponent's gestures are ... he will not know if his own spells
  work unless they also affect him");
- the opponent's banked spell, and orders pending in a decision phase (only what was revealed);
- log events the viewer did not witness (each event carries its audience).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .model import (
    DECISION,
    HAND_WORDS,
    NOBODY,
    ORDERS,
    OVER,
    TIME_STOP,
    WIZARD_DEATH,
    Effect,
    Game,
    Monster,
    Wizard,
)
from .situation import (
    constraints,
    controlled_monsters,
    hand_questions,
    next_own_turn,
    present,
    sole_enemy,
    wizard_id,
)
from .spells import EffectKind, Element

JSON = dict[str, Any]


def viewer_blind(game: Game, v: int) -> bool:
    """Whether the viewer cannot see now: blindness on his coming turn."""
    w = game.wizard(v)
    return w.effect(EffectKind.BLINDNESS, next_own_turn(w)) is not None


OPTION_LABELS = {"L": "Left hand", "R": "Right hand",
                 **{e.value: f"{e.value.capitalize()} elemental" for e in Element}}
HAND = HAND_WORDS


def _effect_note(game: Game, e: Effect) -> str:
    """A readable line for an effect's detail (which hand, which gesture)."""
    if e.kind is EffectKind.PARALYSIS and e.hand:
        g = e.gesture
        return f"{HAND[e.hand]} paralysed" + (f" into {g}" if g and g != "-" else "")
    if e.kind is EffectKind.CHARM_PERSON and e.hand:
        who = game.names[e.source] if e.source is not None else "the caster"
        fixed = e.gesture
        return f"{HAND[e.hand]} controlled by {who}" + (f" (always {fixed})" if fixed else "")
    if e.kind is EffectKind.CONFUSION and e.hand and e.gesture:
        return f"{HAND[e.hand]} always makes {e.gesture}"
    if e.kind is EffectKind.AMNESIA and len(e.repeats) == 2:
        return f"repeats {e.repeats[0]} / {e.repeats[1]}"
    lasts = game.ruleset.table[e.kind.value].lasts
    if lasts is not None and lasts.fatal and e.end is not None:
        # its end counts from the turn it was cast on (0): the sixth turn ends at 5
        return f"fatal at the end of its {_ORDINALS.get((lasts.end or 0) + 1, 'last')} turn"
    return ""


_ORDINALS = {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth", 6: "sixth",
             7: "seventh", 8: "eighth"}


def _effect_json(game: Game, e: Effect, subject_turns: int, own: bool) -> JSON:
    left = None if e.end is None else max(0, e.end - subject_turns)
    table = game.ruleset.table
    d: JSON = {"kind": e.kind.value,
               "name": table[e.kind.value].name if e.kind.value in table else e.kind.value,
               "turns_left": left, "permanent": e.permanent,
               "starts_in": max(0, e.start - subject_turns - 1)}
    # The hand a paralysis or charm person fixed is known to both: the chooser picked it.
    if own or (e.kind.value in table and table[e.kind.value].asks is not None):
        d["detail"] = e.detail
        d["note"] = _effect_note(game, e)
    return d


def _wizard_json(game: Game, w: Wizard, v: int, first: int = 0) -> JSON:
    own = w.index == v
    blind = viewer_blind(game, v) and not own
    rows = []
    for r in w.history[first:]:
        hidden = r.hidden_to(v, w.index)
        rows.append({"turn": r.turn, "left": "?" if hidden else r.left,
                     "right": "?" if hidden else r.right, "kind": r.kind})
    effects = None if blind else [
        _effect_json(game, e, w.own_turns, own) for e in w.effects if own or v in e.known_to]
    d: JSON = {
        "index": w.index,
        "name": w.name,
        "alive": w.alive,
        "surrendered": w.surrendered,
        "damage": None if blind else w.damage,
        "health": None if blind else max(0, 14 - w.damage),
        "effects": effects,
        "history": rows,
    }
    if own:
        d["banked"] = None if w.banked is None else {
            "spell": w.banked.spell, "name": game.ruleset.table[w.banked.spell].name,
            "turn": w.banked.banked_turn, **({"target": w.banked.target}
                                             if w.banked.target else {})}
        d["short_lightning_used"] = w.short_lightning_used
        # His own rows before this index no longer count toward spells (an anti-spell hit him):
        # he knows this, and the opponent (wavinghands.ai) needs it to plan his own spells.
        d["sequence_start"] = w.sequence_start
    return d


def _monster_json(game: Game, m: Monster, v: int) -> JSON:
    return {"id": m.id, "kind": m.kind, "name": m.kind.replace("_", " "),
            "controller": m.controller, "damage": m.damage, "toughness": m.toughness,
            "strength": m.strength, "alive": m.alive,
            "effects": [_effect_json(game, e, m.own_turns, False) for e in m.effects],
            "last_target": m.last_target}


def _targets(game: Game, v: int) -> list[JSON]:
    out: list[JSON] = []
    for w in game.wizards:
        if present(game, w):
            out.append({"id": wizard_id(w.index), "name": w.name if w.index != v else
                        f"{w.name} (you)"})
    blind = viewer_blind(game, v)
    for m in game.monsters:
        if m.alive and (not blind or v in m.known_to):
            owner = "Your" if m.controller == v else f"{game.names[m.controller]}'s"
            out.append({"id": m.id, "name": f"{owner} {m.kind.replace('_', ' ')} ({m.id})"})
    out.append({"id": NOBODY, "name": "nobody"})
    return out


def constraints_json(game: Game, v: int) -> JSON:
    """What restricts wizard v's coming orders, for the UI to lock and explain controls."""
    c = constraints(game, v)

    def hand(h: str) -> JSON:
        hc = c.hand(h)
        return {"forced": hc.forced, "why": hc.why, "controller": hc.controller}

    w = game.wizard(v)
    # Only rulesets with maladroitness / hands chosen in the orders set these, so the standard
    # view keeps its keys.
    same: JSON = {"same_gesture": True} if c.same_gesture else {}
    hands = [{"id": q.id, "kind": q.ask.value, "wizard": q.subject, "options": list(q.options)}
             for q in hand_questions(game, v)]
    if hands:
        same["hands"] = hands
    if c.forfeit:
        same["can_forfeit"] = True
    return {
        **same,
        "sets": c.sets,
        "left": hand("L"),
        "right": hand("R"),
        "banned": sorted(c.banned),
        "confused": c.confused,
        "charm_target": None if c.charm_target is None else
        {"wizard": c.charm_target[0], "hand": c.charm_target[1]},
        "can_release": w.banked is not None,
        "monsters": [m.id for m in controlled_monsters(game, v)],
    }


def _phase_json(game: Game, v: int) -> JSON:
    p = game.phase
    if p.kind == TIME_STOP and v not in p.actors and not p.hasted:
        # "an extra turn, on which no-one can see or know about"
        return {"kind": "waiting", "turn": p.turn, "actors": []}
    d: JSON = {"kind": p.kind, "turn": p.turn, "actors": list(p.actors)}
    if p.kind == TIME_STOP:
        d["time_stopped"] = list(p.time_stopped)
        if p.hasted:  # a hasted turn (Variant.hasted_turns): both see it
            d["hasted"] = True
    if p.kind == DECISION:
        d["decisions"] = [dict(x.to_json(), choices=[
            {"value": o, "label": x.labels[i] if i < len(x.labels) else OPTION_LABELS.get(o, o)}
            for i, o in enumerate(x.options)])
            for x in p.decisions if x.wizard == v]
        d["waiting_for"] = sorted({x.wizard for x in p.decisions if x.wizard >= 0})
        # "after gestures have been revealed": the gestures actually made (amnesia, paralysis,
        # charm and confusion applied), hidden where the rules hide them.
        d["revealed"] = {str(i): [["?", "?"] if r.hidden_to(v, i)
                                  else [r.left, r.right] for r in rows]
                         for i, rows in p.revealed}
    return d


def view(game: Game, v: int, log_from: int = 0, rows_from: Sequence[int] | None = None) -> JSON:
    """Everything wizard v may know now, and what he is asked to do.  (`log_from` and
    `rows_from`, for a view sent as what changed (wavinghands.sessions): the log from that
    entry of the game's, and each wizard's history from that row, on.)"""
    if v not in game.everyone:
        raise ValueError(f"a wizard is 0 to {len(game.wizards) - 1}")
    blind = viewer_blind(game, v)
    phase = _phase_json(game, v)
    d: JSON = {
        "wizard": v,
        "names": list(game.names),
        "ruleset": game.ruleset.to_json(),
        "turn": game.turn,
        "phase": phase,
        "to_act": v in game.phase.actors and game.phase.kind != OVER,
        "blind": blind,
        "wizards": [_wizard_json(game, w, v, 0 if rows_from is None else rows_from[w.index])
                    for w in game.wizards],
        "monsters": [_monster_json(game, m, v) for m in game.monsters
                     if (not blind or v in m.known_to) and (m.alive or v in m.known_to)],
        "result": None if game.result is None else game.result.to_json(),
        "log": [e.to_json() for e in game.log[log_from:] if v in e.visible_to],
        "targets": _targets(game, v),
        # "Each wizard can sustain fourteen points of damage but dies when fifteen or more"
        "rules": {"max_damage": WIZARD_DEATH - 1, "death_at": WIZARD_DEATH},
    }
    for e in d["log"]:
        del e["visible_to"]
    if d["to_act"] and game.phase.kind in (ORDERS, TIME_STOP):
        d["constraints"] = constraints_json(game, v)
    # "the opponent": the other wizard of a duel; in a melee the one enemy left, else None
    d["opponent"] = sole_enemy(game, v)
    return d
