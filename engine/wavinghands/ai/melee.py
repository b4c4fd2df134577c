"""The computer opponent in a melee: the duel's search, played against one enemy at a time.

Its only input is still the wizard's view.  From it the opponent picks a *focus*, the enemy it
fights this turn (the wizard closest to death it can see, ties to the one whose monsters attack
it, then the lowest index), and *projects* the view onto a duel between the two: the other
wizards, their monsters and their questions left out, indexes and being ids renumbered.  The
duel's opponent chooses its orders there; they are mapped back, and everything a melee leaves
with no default ("your opponent's wizard" names nobody while two or more enemies fight:
docs/rules.md, "Melee") is aimed at the focus in so many words: hostile spells, stabs, monsters
and the monsters its summons bring.  The orders are checked against a state drawn from the
same observation (world.py), and what fails is dropped, down to the gestures the rules force.
"""

from __future__ import annotations

import copy
import random
import re
from collections.abc import Callable
from typing import Any

from ..legal import input_problems
from ..model import MONSTER_STATS, ORDERS, TIME_STOP, wizard_id, wizard_index
from ..orders import OrderError, parse_orders
from ..recognize import completed, default_allocation
from ..spells import MONSTERS
from .observation import Observation
from .world import sample_world

JSON = dict[str, Any]
NOTHING = "-"
_IDS = re.compile(r"W([0-9])")
_NEW = re.compile(r"^new:([0-9]):")


def focus_of(view: JSON) -> int | None:
    """The enemy the wizard of `view` fights this turn, or None if no enemy is left."""
    me = int(view["wizard"])
    foes = [w for w in view["wizards"] if w["index"] != me and w["alive"] and
            not w["surrendered"]]
    if not foes:
        return None
    mine = wizard_id(me)
    pressing = {m["controller"]: 0 for m in view["monsters"]}
    for m in view["monsters"]:
        if m["alive"] and m.get("last_target") == mine:
            pressing[m["controller"]] += int(m.get("strength", 0))

    def key(w: JSON) -> tuple[int, int, int]:
        health = w["health"] if w.get("health") is not None else 14
        return (int(health), -pressing.get(w["index"], 0), int(w["index"]))

    return int(min(foes, key=key)["index"])


class Projection:
    """A melee view seen as a duel between its wizard and `focus`, and the way back."""

    def __init__(self, view: JSON, focus: int) -> None:
        self.me = int(view["wizard"])
        self.focus = focus
        pair = sorted((self.me, focus))
        self.to_duel = {real: i for i, real in enumerate(pair)}
        self.to_melee = dict(enumerate(pair))
        self.view = self._project(view)

    def ids(self, text: str, back: bool = False) -> str:
        """A being id, decision id or target with its wizard numbers mapped (monsters keep
        theirs); a wizard outside the pair (never produced going back) stays as it is."""
        table = self.to_melee if back else self.to_duel

        def sub(m: re.Match[str]) -> str:
            i = int(m.group(1))
            return f"W{table[i]}" if i in table else m.group(0)

        text = _IDS.sub(sub, text)
        new = _NEW.match(text)
        if new is not None and int(new.group(1)) in table:
            text = f"new:{table[int(new.group(1))]}:" + text[new.end():]
        return text

    def kept(self, bid: str) -> bool:
        """Whether a wizard id is one of the pair (anything else: kept)."""
        index = wizard_index(bid)
        return index is None or index in self.to_duel

    def _project(self, view: JSON) -> JSON:
        v = copy.deepcopy(view)
        pair = set(self.to_duel)
        v["wizard"] = self.to_duel[self.me]
        v["names"] = [view["names"][r] for r in sorted(pair)]
        wizards = []
        for w in v["wizards"]:
            if w["index"] in pair:
                w["index"] = self.to_duel[w["index"]]
                wizards.append(w)
        v["wizards"] = wizards
        mine = self.to_duel[self.me]
        # (an elemental obeys nobody: one brought forth by another wizard is shown as his own)
        v["monsters"] = [dict(m, controller=self.to_duel.get(m["controller"], mine),
                              last_target=self.ids(m.get("last_target", "")))
                         for m in v["monsters"]
                         if m["controller"] in pair or m["kind"] in _ELEMENTALS]
        for m in v["monsters"]:
            if not self.kept(m["last_target"]):
                m["last_target"] = ""
        phase = v["phase"]
        phase["actors"] = [self.to_duel[a] for a in phase.get("actors", ()) if a in pair]
        phase["time_stopped"] = [self.ids(b) for b in phase.get("time_stopped", ())
                                 if self.kept(b)]
        phase["decisions"] = [dict(x, id=self.ids(x["id"]), wizard=self.to_duel[self.me])
                              for x in phase.get("decisions", ()) if self.kept_decision(x["id"])]
        phase["revealed"] = {str(self.to_duel[int(k)]): rows
                             for k, rows in phase.get("revealed", {}).items() if int(k) in pair}
        c = v.get("constraints")
        if c is not None:
            target = c.get("charm_target")
            if target is not None and target["wizard"] not in pair:
                c["charm_target"] = None
            elif target is not None:
                c["charm_target"] = dict(target, wizard=self.to_duel[target["wizard"]])
            if "hands" in c:
                c["hands"] = [dict(q, id=self.ids(q["id"]), wizard=self.to_duel[q["wizard"]])
                              for q in c["hands"] if q["wizard"] in pair]
        return v

    def kept_decision(self, did: str) -> bool:
        """Whether a question is about the pair (a hand of theirs, or an elemental)."""
        found = _IDS.search(did)
        if found is not None:
            return int(found.group(1)) in self.to_duel
        parts = did.split(":")  # "elemental:<caster>:<hand>"
        return len(parts) < 2 or not parts[1].isdigit() or int(parts[1]) in self.to_duel

    def orders_back(self, o: JSON) -> JSON:
        """The duel's orders as the melee's (being ids mapped back)."""
        out = copy.deepcopy(o)
        for c in out.get("casts", ()):
            if isinstance(c.get("target"), str):
                c["target"] = self.ids(c["target"], back=True)
        stab = out.get("stab")
        if isinstance(stab, str):
            out["stab"] = self.ids(stab, back=True)
        elif isinstance(stab, list):
            out["stab"] = [None if s is None else self.ids(s, back=True) for s in stab]
        if "monsters" in out:
            out["monsters"] = {self.ids(k, back=True): (
                [self.ids(t, back=True) for t in t0] if isinstance(t0, list)
                else self.ids(t0, back=True)) for k, t0 in out["monsters"].items()}
        charm = out.get("charm")
        if isinstance(charm, dict) and isinstance(charm.get("target"), str):
            charm["target"] = self.ids(charm["target"], back=True)
        if isinstance(out.get("release"), dict) and "target" in out["release"]:
            out["release"]["target"] = self.ids(out["release"]["target"], back=True)
        if "hands" in out:
            out["hands"] = {self.ids(k, back=True): h for k, h in out["hands"].items()}
        if "decisions" in out:
            out["decisions"] = {self.ids(k, back=True): a for k, a in out["decisions"].items()}
        return out


_ELEMENTALS = frozenset(k for k in MONSTER_STATS if MONSTERS[k].element is not None)


def aim_at_focus(obs: Observation, orders: JSON, focus: int) -> JSON:
    """The melee's orders with every attack the duel left to its default aimed at `focus`:
    hostile spells, stabs, the wizard's monsters and those his summons bring now."""
    out = copy.deepcopy(orders)
    book = obs.book
    me = obs.me
    target = wizard_id(focus)
    mine = obs.mine
    rows = list(mine.rows)
    named = {(c.get("set", 0), c.get("hand")): c for c in out.get("casts", ())}
    casts: list[JSON] = list(out.get("casts", ()))
    monsters: dict[str, Any] = dict(out.get("monsters", {}))
    stopped = obs.phase == ORDERS or wizard_id(me) in obs.time_stopped
    for si, pair in enumerate(out["gestures"]):
        rows.append((pair[0], pair[1]))
        if not stopped:
            break
        cands = completed(tuple(rows), mine.sequence_start, len(rows) - 1,
                          mine.short_lightning_used, book.table)
        if not cands:
            continue
        chosen = [c for c in casts if c.get("set", 0) == si]
        spells = [(c["hand"], c["spell"]) for c in chosen if c.get("spell")] or \
            [(c.hand, c.spell) for c in default_allocation(cands, book.table).spells]
        for hand, spell in spells:
            facts = book.facts(spell)
            row = book.table[spell]
            if row.summons and MONSTERS.get(row.summons) is not None and \
                    MONSTERS[row.summons].element is None and row.asks is None:
                ref = f"new:{me}:{hand}{':1' if si else ''}"
                monsters.setdefault(ref, target)
            if not facts.hostile or facts.blanket:
                continue
            entry = named.get((si, hand))
            if entry is None:
                entry = {"set": si, "hand": hand, "spell": spell}
                casts.append(entry)
            entry.setdefault("target", target)
    if casts:
        out["casts"] = casts
    sets = out["gestures"]
    if any(">" in s for s in sets) and "stab" not in out:
        out["stab"] = [target if ">" in s else None for s in sets] if len(sets) > 1 else target
    for mid in obs.constraint("monsters") or ():
        monsters.setdefault(mid, target)
    if monsters:
        out["monsters"] = monsters
    charm = out.get("charm")
    if isinstance(charm, dict) and charm.get("gesture") == ">" and "target" not in charm:
        subject = (obs.constraint("charm_target") or {}).get("wizard")
        if subject is not None and subject != focus:
            charm["target"] = target
    return out


def legal_or_less(obs: Observation, orders: JSON, rng: random.Random,
                  fallback: Callable[[], JSON]) -> JSON:
    """The orders, or with what a state drawn from the observation refuses dropped (targets,
    then monsters, stab, release), or the fallback."""
    if obs.phase not in (ORDERS, TIME_STOP):
        return orders
    world = sample_world(obs, rng)
    trial = dict(orders)
    for drop in ("", "monsters", "release", "casts"):
        if drop:
            trial.pop(drop, None)
        try:
            if not input_problems(world, obs.me, parse_orders(trial)):
                return trial
        except OrderError:
            continue
    return fallback()


def in_melee(view: JSON) -> bool:
    """Whether the view is of a melee (more than two wizards)."""
    return len(view["wizards"]) > 2


def unanswered(view: JSON, projection: Projection | None) -> dict[str, str]:
    """First options for the questions the projection left out (about other wizards)."""
    out: dict[str, str] = {}
    for x in view["phase"].get("decisions", ()):
        if projection is None or not projection.kept_decision(x["id"]):
            out[x["id"]] = x["options"][0]
    return out


__all__ = ["Projection", "aim_at_focus", "focus_of", "in_melee", "legal_or_less",
           "unanswered"]
