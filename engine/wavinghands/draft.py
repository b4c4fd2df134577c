"""Drafting the next turn while the code that resolves this one is on its way (remote play).

A player who has sealed turn t and waits for the opponent's code knows two things: the last
resolved state and his own sealed orders. `project` is the duel as he can foresee turn t+1 from
them: his own turn-t gestures added to his history (as far as the rules fix them before the
reveal), the turn moved on, and nothing else resolved: the opponent's turn-t gestures, damage,
new enchantments and monsters are unknown, so the draft is shown against what he knows.
`draft_preview` is the orders form's help on that projection.

When the code arrives and turn t resolves, `carry` takes the draft onto the real state: what still
holds is kept, and each part the result made illegal or different is dropped or fixed, with the
reason (paralysis, amnesia, charm, fear, haste, a spell that is no longer completed, a target
that is gone, the end of the duel). The page shows the carried orders on the real form and says
what changed; orders sealed early go out by themselves only when nothing changed.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from .legal import effective_preview_rows, order_problems
from .model import (
    HASTENED_ROW,
    NORMAL_ROW,
    ORDERS,
    TIME_STOP,
    Game,
    GestureRow,
    Phase,
    gesture_word,
    hand_word,
)
from .orders import ALPHABET, NOTHING, OrderError, parse_orders
from .preview import preview
from .situation import BY_AMNESIA, BY_CHARM, BY_PARALYSIS, constraints, wizard_id
from .spells import EffectKind
from .view import view

JSON = dict[str, Any]

# Why a drafted part changed, where an enchantment is the reason: the key of the enchantment
# (as situation.py names the reasons a hand is held: BY_PARALYSIS, BY_AMNESIA, BY_CHARM).
BY_HASTE = EffectKind.HASTE.value
BY_FEAR = EffectKind.FEAR.value

# The parts of an orders object a problem's `field` may point into, and which the carry drops
# whole when the resolved turn made them illegal (gestures are fixed hand by hand instead).
DROPPABLE = ("casts", "stab", "monsters", "charm", "release", "hands", "forfeit")


class DraftError(OrderError):
    """A draft that cannot be made now (the phase is not one the player has sealed orders in)."""


def draftable(game: Game, v: int) -> bool:
    """Whether wizard v, having sealed this phase's orders, may draft the next turn's now."""
    return game.phase.kind in (ORDERS, TIME_STOP) and v in game.phase.actors and \
        game.wizard(v).alive


def project(game: Game, v: int, sealed: Any) -> Game:
    """The duel as wizard v can foresee the next turn: his sealed gestures of this turn added to
    his history, the phase moved on a turn; nothing else resolved (the rest is unknown)."""
    if not draftable(game, v):
        raise DraftError("no-draft", "there is no next turn to draft now: this phase is not one "
                         "in which you sealed orders")
    orders = parse_orders(sealed)
    w = game.wizard(v)
    made = effective_preview_rows(game, v, orders)[len(w.history):]
    turn = game.phase.turn
    rows = tuple(GestureRow(turn, left, right, NORMAL_ROW if i == 0 else HASTENED_ROW)
                 for i, (left, right) in enumerate(made))
    me = replace(w, history=w.history + rows, own_turns=w.own_turns + 1)
    moved = game.with_wizard(me)
    actors = tuple(x.index for x in moved.wizards if x.alive)
    return replace(moved, turn=game.turn + 1, phase=Phase(ORDERS, turn + 1, actors))


def draft_preview(game: Game, v: int, sealed: Any, draft: Any) -> JSON:
    """{"view", "preview"} of a draft for the next turn, against `project` (what v knows)."""
    ahead = project(game, v, sealed)
    seen = view(ahead, v)
    seen["phase"] = {**seen["phase"], "draft": True}
    help_ = preview(ahead, v, draft)
    # What the opponent could complete next rests on his turn-t gestures, which are unknown.
    help_["opponent_next"] = []
    other = game.names[1 - v]
    help_["warnings"] = [{"code": "draft", "severity": "info", "text":
                          f"A draft for turn {ahead.phase.turn}: turn {game.phase.turn}'s result "
                          "is not known yet. It may paralyse, charm or frighten you, or end the "
                          "duel; what it changes is shown when the code comes. What "
                          f"{other} could complete next is not shown: it rests on "
                          f"{other}'s gestures of turn {game.phase.turn}."},
                         *help_["warnings"]]
    return {"view": seen, "preview": help_}


def draft_opening(game: Game, v: int, draft: Any) -> JSON:
    """{"view", "preview"} of a draft of turn 1 written while the invitation is out: `game` is the
    duel as it will start (the guest's name not known yet); the acceptance brings the real one."""
    seen = view(game, v)
    seen["phase"] = {**seen["phase"], "draft": True}
    help_ = preview(game, v, draft)
    help_["warnings"] = [{"code": "draft", "severity": "info", "text":
                          "A draft for turn 1: your opponent has not accepted the invitation "
                          "yet. When the acceptance comes the draft is put on the real form."},
                         *help_["warnings"]]
    return {"view": seen, "preview": help_}


def _change(code: str, message: str, field: str) -> JSON:
    return {"code": code, "message": message, "field": field}


def _gesture_sets(draft: JSON, sets: int, changes: list[JSON]) -> list[list[str | None]]:
    """The draft's gesture sets fitted to the number the rules now ask for (haste)."""
    raw = draft.get("gestures")
    given = [list(p) if isinstance(p, list) and len(p) == 2 else [None, None]
             for p in (raw if isinstance(raw, list) else [])][:2] or [[None, None]]
    out = [[g if isinstance(g, str) and g in ALPHABET else None for g in pair] for pair in given]
    if len(out) < sets:
        out.append([None, None])
        changes.append(_change(BY_HASTE, "You are hastened this turn: write a second gesture set "
                               "as well.", "gestures"))
    elif len(out) > sets:
        out = out[:sets]
        changes.append(_change(f"{BY_HASTE}-over", "You are not hastened this turn: only your "
                               "first gesture set is kept.", "gestures"))
    return out


def _fit_gestures(game: Game, v: int, sets: list[list[str | None]],
                  changes: list[JSON]) -> None:
    """Each hand's drafted gesture against what the rules now force or forbid (in place)."""
    c = constraints(game, v)
    names = game.names
    for si, pair in enumerate(sets):
        for i, hand in enumerate("LR"):
            g = pair[i]
            hc = c.hand(hand)
            field = f"gestures.{si}.{i}"
            word = hand_word(hand)
            if hc.forced is not None:
                if g != hc.forced:
                    why = {BY_PARALYSIS: "is paralysed", BY_AMNESIA: "repeats last turn's "
                           "gesture (amnesia)", BY_CHARM: "is charmed for ever into it"}.get(
                               hc.why, "is held")
                    was = f"not the {gesture_word(g)} you drafted" if g else "as the rules say"
                    changes.append(_change(hc.why or "forced", f"Your {word} {why}: it makes "
                                           f"{gesture_word(hc.forced)}, {was}.", field))
                pair[i] = hc.forced
            elif hc.why == BY_CHARM and hc.controller not in (None, v):
                if g is not None:
                    changes.append(_change(BY_CHARM, f"{names[hc.controller]} controls your "
                                           f"{word} this turn (charm person): your drafted "
                                           f"{gesture_word(g)} is set aside.", field))
                pair[i] = NOTHING
            elif g is not None and g in c.banned:
                changes.append(_change(BY_FEAR, f"You are afraid this turn (no C, D, F or S): "
                                       f"the {gesture_word(g)} drafted for your {word} is "
                                       "cleared.", field))
                pair[i] = None


def _drop_illegal(game: Game, v: int, orders: JSON, changes: list[JSON]) -> JSON:
    """Drop each optional part of the orders that the state now refuses, saying why; a question
    the result adds (a hand to write by charm person) is said once and left to the form."""
    told: set[str] = set()
    for _ in range(len(DROPPABLE) + 16):  # each round drops one part, or stops
        filled = {**orders, "gestures": [[g or NOTHING for g in p] for p in orders["gestures"]]}
        try:
            found = order_problems(game, v, parse_orders(filled))
        except OrderError as e:
            found = [e]
        dropped = False
        for p in found:
            if p.field.split(".")[0] not in DROPPABLE or p.field in told:
                continue
            if _has(orders, p.field):
                orders = _without(orders, p.field)
                code = "spell-vanished" if p.code == "no-such-spell" else p.code
                changes.append(_change(code, f"Dropped from your draft: {p.message}.", p.field))
                dropped = True
                break
            told.add(p.field)
            changes.append(_change(p.code, f"The result asks more of you: {p.message}.", p.field))
        if not dropped:
            return orders
    return orders


def _has(orders: JSON, field: str) -> bool:
    """Whether the orders hold the part a problem's field names."""
    head, _, rest = field.partition(".")
    if head not in orders:
        return False
    if head == "casts" and rest:
        si, _, hand = rest.partition(".")
        return any(str(c.get("set", 0)) == si and c.get("hand") == hand
                   for c in orders["casts"] if isinstance(c, dict)) or not hand
    if head == "monsters" and rest and isinstance(orders["monsters"], dict):
        return rest in orders["monsters"]
    return True


def _without(orders: JSON, field: str) -> JSON:
    """The orders less the part a problem's field names (a cast, a monster, or a whole key)."""
    head, _, rest = field.partition(".")
    out = dict(orders)
    if head == "casts" and rest:
        si, _, hand = rest.partition(".")
        kept = [c for c in orders.get("casts", [])
                if not (str(c.get("set", 0)) == si and c.get("hand") == hand)]
        # A field that names no one cast (a shape problem) drops them all.
        if kept and len(kept) < len(orders.get("casts", [])):
            out["casts"] = kept
        else:
            out.pop("casts", None)
        return out
    if head == "monsters" and rest and isinstance(orders.get("monsters"), dict):
        out["monsters"] = {k: t for k, t in orders["monsters"].items() if k != rest}
        if not out["monsters"]:
            del out["monsters"]
        return out
    out.pop(head, None)
    return out


def carry(game: Game, v: int, draft: Any) -> JSON:
    """{"ready", "orders", "changes", "intact", "legal"}: a draft for this phase carried onto
    the resolved state. `ready` false: the phase is not wizard v's orders yet (a decision comes
    first: keep the draft), or the duel is over (`changes` says so; the draft is spent)."""
    if game.phase.kind == "over" or not game.wizard(v).alive:
        return {"ready": False, "over": True, "orders": None, "intact": False, "legal": False,
                "changes": [_change("over", "The duel ended with that turn: your draft is not "
                                    "needed.", "")]}
    if not draftable(game, v):
        return {"ready": False, "over": False, "orders": None, "intact": False, "legal": False,
                "changes": []}
    d: JSON = draft if isinstance(draft, dict) else {}
    changes: list[JSON] = []
    c = constraints(game, v)
    sets = c.sets if game.phase.kind == ORDERS or wizard_id(v) in game.phase.time_stopped else 1
    gestures = _gesture_sets(d, sets, changes)
    _fit_gestures(game, v, gestures, changes)
    orders: JSON = {k: d[k] for k in DROPPABLE if k in d}
    orders["gestures"] = gestures
    try:
        parse_orders({**orders, "gestures": [[g or NOTHING for g in p] for p in gestures]})
    except OrderError as e:
        changes.append(_change("malformed", f"Dropped from your draft: {e.message}.", e.field))
        orders = {"gestures": gestures}
    orders = _drop_illegal(game, v, orders, changes)
    complete = all(g is not None for p in gestures for g in p)
    legal = complete and not order_problems(game, v, parse_orders(orders))
    return {"ready": True, "over": False, "orders": orders, "changes": changes,
            "intact": not changes, "legal": legal}


__all__ = ["DraftError", "carry", "draft_opening", "draft_preview", "draftable", "project"]
