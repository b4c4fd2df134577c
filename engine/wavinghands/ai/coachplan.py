"""The coach's plan in the player's words: what its gestures cast this turn, the spell they build
over the next turns and what it still needs, the opponent's nearest threat and what stops it,
and, for a charmed hand, the gesture to write for it.

The plan is read from a world drawn from the wizard's own view (world.py), as the search reads
it: the coach knows nothing the player does not.  It never suggests an enchantment already
permanent on its target (resist heat on a wizard already resistant, a permanent haste): such a
spell is left out of what it builds, and a move that would cast one is replaced by the best
ranked move that does not (`advice`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ..model import HAND_WORDS, ORDERS, TIME_STOP, Game, gesture_word
from ..recognize import Candidate, completed, default_allocation
from ..situation import constraints
from ..spells import EffectKind
from ..view import view
from .candidates import candidate_orders
from .evaluate import Plan, game_book, plans, rows_of, wizard_plans
from .facts import Book, SpellFacts, answer_spells
from .observation import Observation
from .search import Choice
from .world import sample_world

JSON = dict[str, Any]
HORIZON = 3  # turns ahead the plan looks: what it builds, the threats it names
PROGRESS = 0.6  # a spell r gestures away weighs PROGRESS**r of its value (as evaluate.py)


@dataclass(frozen=True, slots=True)
class CoachPlan:
    """The plan: the sentences the page shows, in order, and the same facts as data."""

    lines: tuple[str, ...]
    casts: tuple[str, ...]  # spell keys these gestures cast this turn
    builds: str | None  # the spell key the coach builds toward
    threat: str | None  # the opponent's nearest threat (spell key)
    charm: str | None  # the gesture to write for the opponent's charmed hand

    def to_json(self) -> JSON:
        """JSON form for the boundary."""
        return {"lines": list(self.lines), "casts": list(self.casts), "builds": self.builds,
                "threat": self.threat, "charm": self.charm}


def _permanent_on(game: Game, key: str, subject: int) -> bool:
    """Whether spell `key`'s effect lies on wizard `subject` for good (permanency, or a
    resistance, which is permanent by nature)."""
    try:
        kind = EffectKind(key)
    except ValueError:
        return False
    w = game.wizard(subject)
    return any(e.kind is kind and (e.permanent or e.end is None) for e in w.effects)


def redundant(game: Game, me: int, f: SpellFacts) -> bool:
    """Whether casting `f` at its usual subject would lay an enchantment already there for good."""
    return _permanent_on(game, f.key, 1 - me if f.hostile else me)


def _hand(hand: str) -> str:
    return HAND_WORDS[hand]


def _casts(game: Game, me: int, orders: JSON) -> list[Candidate]:
    """The spells these orders cast this turn: their named choices, else the engine's default."""
    w = game.wizard(me)
    book = game_book(game)
    rows = (*rows_of(w), *((s[0], s[1]) for s in orders["gestures"]))
    out: list[Candidate] = []
    for i in range(len(w.history), len(rows)):
        cands = completed(rows, w.sequence_start, i, w.short_lightning_used, book.table)
        if not cands:
            continue
        named = [c for c in orders.get("casts", []) if c.get("set", 0) == i - len(w.history)]
        chosen = [c for c in cands if any(n.get("hand") == c.hand and n.get("spell") == c.spell
                                          for n in named)]
        out.extend(chosen or default_allocation(cands, book.table).spells)
    return out


def _still(p: Plan) -> str:
    """The gestures a plan still needs, as the notation writes them: "F-D-D"."""
    return "-".join(s.notation() for s in p.steps[len(p.steps) - p.remaining:])


def _stoppers(f: SpellFacts, book: Book) -> list[str]:
    """The names of the spells that stop `f` when cast the turn it lands."""
    names = [s.name for kind in sorted(f.stopped_by) for s in answer_spells(kind, book)]
    return sorted(set(names), key=names.index)


def _threat(game: Game, me: int, book: Book) -> Plan | None:
    """The opponent's nearest hostile spell under way (fewest gestures to go, then the worst)."""
    theirs = [t for t in wizard_plans(game.wizard(1 - me), book)
              if t.facts.hostile and 1 <= t.remaining <= HORIZON]
    return min(theirs, key=lambda t: (t.remaining, -t.facts.value), default=None)


def _builds(game: Game, me: int, orders: JSON, book: Book, threat: Plan | None) -> Plan | None:
    """The spell the coach's gestures build toward: an answer to the threat if one is under
    way in time, else the one worth most for the gestures it still needs; never an enchantment
    already permanent on its target."""
    w = game.wizard(me)
    rows = (*rows_of(w), *((s[0], s[1]) for s in orders["gestures"]))
    best: tuple[tuple[bool, float], Plan] | None = None
    for p in plans(rows, w.sequence_start, w.short_lightning_used, book):
        if not 1 <= p.remaining <= HORIZON or redundant(game, me, p.facts):
            continue
        answers = threat is not None and bool(p.facts.answer) and \
            p.facts.answer in threat.facts.stopped_by and p.remaining < threat.remaining + 1
        key = (answers, p.facts.value * PROGRESS ** p.remaining)
        if best is None or key > best[0]:
            best = (key, p)
    return None if best is None else best[1]


def plan_of(game: Game, me: int, orders: JSON) -> CoachPlan:
    """The plan behind `orders` for wizard `me` in `game` (a state he may know all of: a world
    drawn from his view), in sentences for the player."""
    book = game_book(game)
    enemy = game.names[1 - me]
    threat = _threat(game, me, book)
    lines: list[str] = []
    cast = _casts(game, me, orders)
    for c in cast:
        f = book.facts(c.spell)
        stops = threat is not None and threat.remaining <= 1 and bool(f.answer) and \
            f.answer in threat.facts.stopped_by
        lines.append(f"This turn your {_hand(c.hand)} completes {f.name}" +
                     (f", which stops {enemy}'s {threat.facts.name}." if stops and threat
                      else "."))
    charm = (orders.get("charm") or {}).get("gesture")
    target = constraints(game, me).charm_target
    if charm is not None and target is not None:
        whose = game.names[target[0]]
        hand = _hand(target[1]) if target[1] else "charmed hand"
        lines.append(f"Write {gesture_word(charm)} for {whose}'s {hand}: you control it this "
                     "turn.")
    building = _builds(game, me, orders, book, threat)
    if building is not None:
        turns = building.remaining
        lines.append(f"Next {'turn' if turns == 1 else f'{turns} turns'}: your "
                     f"{_hand(building.hand)} builds {building.facts.name}; still to make "
                     f"{_still(building)}.")
    if threat is not None:
        f = threat.facts
        stoppers = _stoppers(f, book)
        when = "next turn" if threat.remaining == 1 else f"in {threat.remaining} turns"
        harm = " (it kills)" if f.damage < 0 else f" ({f.damage} damage)" if f.damage else ""
        lines.append(f"Watch {enemy}'s {_hand(threat.hand)}: {f.name}{harm} can land {when} "
                     f"({_still(threat)} to go)." +
                     (f" Stopped by {', '.join(stoppers)}." if stoppers else
                      " No shield stops it: break it before it lands, or outlast it."))
    if not lines:
        lines.append("Nothing is under way on either side: start the spell you want most, "
                     "and keep one hand ready for a shield.")
    return CoachPlan(tuple(lines), tuple(c.spell for c in cast),
                     None if building is None else building.facts.key,
                     None if threat is None else threat.facts.key, charm)


def _wasted(game: Game, me: int, orders: JSON) -> bool:
    """Whether the orders cast an enchantment already permanent on its target."""
    book = game_book(game)
    return any(redundant(game, me, book.facts(c.spell)) for c in _casts(game, me, orders))


def advice(game: Game, me: int, choice: Choice, seed: str) -> tuple[Choice, CoachPlan]:
    """The coach's move and its plan for wizard `me`, from what he may know (his view): the
    search's `choice`, unless it casts an enchantment already permanent on its target, then the
    best ranked legal move that does not."""
    from . import stream  # (the package's random stream: one derivation for every bot)

    obs = Observation.from_view(view(game, me))
    rng = stream(seed, obs.turn, "coach-plan", me, "strong")
    world = sample_world(obs, rng)
    if world.phase.kind in (ORDERS, TIME_STOP) and _wasted(world, me, choice.orders):
        for cand in candidate_orders(world, me, 12, rng):
            if not _wasted(world, me, cand.orders):
                choice = replace(choice, orders=cand.orders,
                                 why="The best move that does not renew a lasting enchantment.")
                break
    return choice, plan_of(world, me, choice.orders)
