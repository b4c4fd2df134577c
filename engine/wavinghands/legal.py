"""Legality of orders and decisions against a game state: every problem, each a specific error.

`problems()` never changes anything; resolution refuses input for which it returns anything.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .memo import ByIdentity
from .model import HAND_WORDS, NOBODY, ORDERS, Game, Wizard, gesture_word, wizard_index
from .orders import (
    GESTURES,
    NOTHING,
    STAB,
    CastChoice,
    DecisionInput,
    OrderError,
    Orders,
)
from .recognize import Allocation, Candidate, allocations, completed, default_allocation
from .situation import (
    BY_AMNESIA,
    BY_CHARM,
    Constraints,
    constraints,
    default_stab,
    hand_questions,
    hands_named_later,
    may_aim,
    opponent,
    present,
    sight,
    why_not_now,
    wizard_id,
)
from .spells import STANDARD_TABLE, Ask, Category, Does, EffectKind, SpellTable

HAND_WORD = HAND_WORDS


def effective_preview_rows(game: Game, index: int, orders: Orders) -> list[tuple[str, str]]:
    """The wizard's rows followed by this turn's sets as they will be made, so far as the rules
    fix them before the reveal (amnesia and paralysis; a charmed hand shows as written by its
    controller only after the reveal, so it is shown as nothing here, unless he controls it)."""
    w = game.wizard(index)
    c = constraints(game, index)
    rows = [(r.left, r.right) for r in w.history]
    for left, right in orders.gestures:
        g = {"L": left, "R": right}
        for hand in ("L", "R"):
            hc = c.hand(hand)
            if hc.forced is not None:
                g[hand] = hc.forced
            elif hc.why == BY_CHARM:
                # A wizard who charmed himself writes the gesture in `charm` and knows it.
                own = orders.charm if hc.controller == index else None
                g[hand] = own if own is not None else NOTHING
        rows.append((g["L"], g["R"]))
    return rows


def choose_allocation(cands: Sequence[Candidate], choices: Sequence[CastChoice],
                      withhold: bool, set_index: int,
                      table: SpellTable = STANDARD_TABLE) -> Allocation:
    """The allocation the orders choose for one gesture set (defaults where they are silent).

    Raises OrderError if the choices name a spell this set does not complete or combine spells
    that share a gesture.
    """
    if not cands:
        for ch in choices:
            raise OrderError("no-such-spell", f"gesture set {set_index + 1}: "
                             f"{_hand_does(ch.hand, 'complete')} no spell this turn",
                             f"casts.{set_index}.{ch.hand}")
        return Allocation(())
    if not choices:
        return default_allocation(cands, table)
    chosen: list[Candidate] = []
    withheld: set[str] = set()
    for ch in choices:
        if ch.spell is None:
            if not withhold:
                raise OrderError("must-cast", "a completed spell must be cast (000: \"the spell "
                                 "must be cast\"); aim it at nobody instead, or play with the "
                                 "withhold house rule", f"casts.{set_index}.{ch.hand}")
            withheld.add(ch.hand)
            continue
        match = [c for c in cands if c.hand == ch.hand and c.spell == ch.spell]
        if not match:
            name = table[ch.spell].name if ch.spell in table else repr(ch.spell)
            raise OrderError("no-such-spell", f"gesture set {set_index + 1}: "
                             f"{_hand_does(ch.hand, 'do')} not complete {name} this turn",
                             f"casts.{set_index}.{ch.hand}")
        chosen.append(max(match, key=lambda c: c.length))
    # Fill in hands the orders were silent about with their longest spell.
    hands_used = {c.hand for c in chosen} | withheld
    if "B" not in hands_used:
        for hand in ("L", "R"):
            if hand in hands_used or any(c.hand == "B" for c in chosen):
                continue
            own = [c for c in cands if c.hand == hand]
            if own:
                chosen.append(max(own, key=lambda c: (c.length, -table[c.spell].priority)))
    alloc = Allocation(tuple(chosen))
    legal = allocations(cands, withhold)
    if not any(sorted(a.spells, key=_k) == sorted(alloc.spells, key=_k) for a in legal):
        raise OrderError("gesture-shared", f"gesture set {set_index + 1}: those spells share a "
                         "gesture, and \"no more than one spell is created per gesture\"",
                         f"casts.{set_index}")
    return alloc


def _hand_does(hand: str, verb: str) -> str:
    """ "the left hand completes" / "both hands complete" with the verb agreeing."""
    if hand == "B":
        return f"both hands {verb}"
    return f"the {HAND_WORD[hand]} {verb}{'es' if verb == 'do' else 's'}"


def _k(c: Candidate) -> tuple[str, str]:
    return (c.hand, c.spell)


def target_exists(game: Game, target: str, allow_dead: bool = False) -> bool:
    """Whether a concrete target names a being now (new: refs are checked at resolution)."""
    if target == NOBODY or target.startswith("new:"):
        return True
    index = wizard_index(target)
    if index is not None:
        if index >= len(game.wizards):
            return False
        return allow_dead or present(game, game.wizard(index))
    m = game.monster(target)
    return m is not None and (allow_dead or m.alive)


def order_problems(game: Game, index: int, orders: Orders) -> list[OrderError]:
    """Everything wrong with these orders for wizard `index` in the current phase."""
    out: list[OrderError] = []
    phase = game.phase
    w = game.wizard(index)
    if not w.alive:
        return [OrderError("dead", f"{w.name} is dead and acts no more")]
    c = constraints(game, index)
    stopped_wizard = phase.kind == ORDERS or wizard_id(index) in phase.time_stopped
    expected_sets = c.sets if stopped_wizard else 1
    if len(orders.gestures) != expected_sets:
        if expected_sets == 2:
            out.append(OrderError("haste-sets", f"{w.name} is hastened: write two gesture sets",
                                  "gestures"))
        else:
            out.append(OrderError("gesture-sets", "write exactly one gesture set", "gestures"))
        return out
    if not stopped_wizard and orders.gestures != ((NOTHING, NOTHING),):
        # A controller of a time-stopped monster, himself frozen: only the monster acts.
        out.append(OrderError("frozen", f"time is stopped for {w.name}: he makes no "
                              "gestures this turn", "gestures"))
    out += _gesture_problems(w, orders, c)
    out += _stab_problems(game, index, orders)
    cast = _cast_problems(game, index, orders, stopped_wizard)
    out += cast.problems
    out += _charm_problems(game, orders, c, stopped_wizard)
    out += _waiting_problems(game, w, orders, cast.completing)
    out += _monster_problems(game, index, orders, cast)
    out += _release_problems(game, index, w, orders)
    out += _hand_problems(game, index, orders)
    if orders.forfeit and not c.forfeit:
        out.append(OrderError("forfeit-not-allowed", "only the victim of a permanent "
                              "enchantment the rules name may forfeit", "forfeit"))
    return out


def _hand_problems(game: Game, index: int, orders: Orders) -> list[OrderError]:
    """Hands chosen in the orders must answer a question the rules ask this wizard now
    (`situation.hand_questions`); one left unanswered takes its first option."""
    asked = {q.id: q for q in hand_questions(game, index)}
    later = {q.id: q for q in hands_named_later(game, index)}
    out: list[OrderError] = []
    for qid, hand in orders.hands:
        q = asked.get(qid)
        if q is None and qid in later:
            # A hand named now would be used by nothing (the subject takes no turn here).
            what = "paralysed" if later[qid].ask is Ask.PARALYSED_HAND else "charmed"
            out.append(OrderError("hand-not-now", f"{why_not_now(game, later[qid].subject)}, "
                                  f"so his {what} hand cannot be named now: name it in your "
                                  "orders for his next turn", f"hands.{qid}"))
        elif q is None:
            out.append(OrderError("hand-unexpected", f"no hand is yours to choose for {qid!r} "
                                  "this turn", f"hands.{qid}"))
        elif hand not in q.options:
            out.append(OrderError("bad-hand", f"choose one of {', '.join(q.options)} for "
                                  f"{qid!r}", f"hands.{qid}"))
    return out


def _gesture_problems(w: Wizard, orders: Orders, c: Constraints) -> list[OrderError]:
    """Gestures the rules force (amnesia, paralysis, a permanent charm) or forbid (fear)."""
    out: list[OrderError] = []
    both_free = not (c.left.forced or c.right.forced or c.left.why or c.right.why)
    for si, (left, right) in enumerate(orders.gestures):
        if c.same_gesture and both_free and left != right and \
                sorted((left, right)) != sorted((STAB, NOTHING)):
            # (a hand the rules fix leads: the other copies it after the reveal; a stab is one
            # hand's, the other doing nothing: one knife, docs/rules.md "Warlocks: maladroitness")
            out.append(OrderError("maladroit", f"{w.name} is maladroit: both hands must make "
                                  f"the same gesture this turn (not {left} and {right})",
                                  f"gestures.{si}"))
        for hand, g in (("L", left), ("R", right)):
            hc = c.hand(hand)
            where = f"gestures.{si}.{0 if hand == 'L' else 1}"
            if hc.forced is not None and g != hc.forced:
                cause = {BY_AMNESIA: "amnesia makes him repeat last turn's gestures",
                         BY_CHARM: "that hand is charmed for ever into this gesture"}.get(
                             hc.why, "that hand is paralysed")
                out.append(OrderError("forced-gesture", f"{HAND_WORD[hand]} must make "
                                      f"{gesture_word(hc.forced)}: {cause}", where))
            elif hc.why == BY_CHARM:
                continue
            elif g in c.banned and hc.forced is None:
                # the problem's code is the effect's key (as draft.BY_FEAR)
                out.append(OrderError(EffectKind.FEAR.value, f"{w.name} is afraid: no C, D, F "
                                      f"or S gestures this turn ({HAND_WORD[hand]} wrote {g})",
                                      where))
    return out


def _stab_problems(game: Game, index: int, orders: Orders) -> list[OrderError]:
    """Stabs: one knife per gesture set, never at oneself, at something that exists."""
    out: list[OrderError] = []
    for si, (left, right) in enumerate(orders.gestures):
        if STAB in (left, right):
            tgt = orders.stabs[si] if si < len(orders.stabs) else None
            me = wizard_id(index)
            if tgt == me and not game.ruleset.variant.may_stab_self(me, sight(game)[0]):
                out.append(OrderError("stab-self", "wizards are not allowed to stab themselves",
                                      f"stab.{si}"))
            elif tgt is not None and tgt != NOBODY and not may_aim(game, index, tgt):
                out.append(OrderError("out-of-reach", f"{tgt} is out of reach this turn "
                                      "(blindness or invisibility)", f"stab.{si}"))
            elif tgt == NOBODY:
                out.append(OrderError("stab-nobody", "a stab must have a target (\"must choose a "
                                      "target for the stab\")", f"stab.{si}"))
            elif tgt is not None and not target_exists(game, tgt):
                out.append(OrderError("bad-target", f"there is nothing called {tgt} to stab",
                                      f"stab.{si}"))
            elif tgt is None and game.is_melee and default_stab(game, index) == NOBODY:
                # "must choose a target for the stab": with two or more enemies no opponent
                # is the obvious one (docs/rules.md, "Melee")
                out.append(OrderError("stab-target", "in a melee a stab must name its target "
                                      "(\"must choose a target for the stab\")", f"stab.{si}"))
        elif si < len(orders.stabs) and orders.stabs[si] is not None:
            out.append(OrderError("stab-unused", f"gesture set {si + 1} has a stab target but no "
                                  "hand stabs", f"stab.{si}"))
    return out


@dataclass
class _Casting:
    """What the orders' spell choices come to: their problems, and what they make possible."""

    problems: list[OrderError] = field(default_factory=list)
    completing: set[str] = field(default_factory=set)  # spells these orders complete
    summons: set[str] = field(default_factory=set)  # "new:<me>:<hand>[:1]" refs they summon
    charming: bool = False  # completes charm monster: may order a monster it will take


def _cast_problems(game: Game, index: int, orders: Orders, stopped_wizard: bool) -> _Casting:
    """Spell choices and their targets, set by set."""
    w = game.wizard(index)
    cast = _Casting()
    rows = effective_preview_rows(game, index, orders)
    table = game.ruleset.table
    base = len(w.history)
    short_used = w.short_lightning_used
    for si in range(len(orders.gestures)):
        idx = base + si
        cands = completed(rows, w.sequence_start, idx, short_used, table) \
            if stopped_wizard else ()
        choices = [ch for ch in orders.casts if ch.set_index == si]
        try:
            alloc = choose_allocation(cands, choices, game.ruleset.may_withhold, si, table)
        except OrderError as e:
            cast.problems.append(e)
            continue
        for cand in alloc.spells:
            spell = table[cand.spell]
            if cand.sequence in spell.once_per_battle:
                short_used = True
            cast.charming = cast.charming or spell.does is Does.TAKE_MONSTER
            cast.completing.add(cand.spell)
            if spell.category is Category.SUMMON:
                cast.summons.add(f"new:{index}:{cand.hand}{':1' if si else ''}")
            ch = next((x for x in choices if x.hand == cand.hand), None)
            tgt = ch.target if ch is not None else None
            if tgt is None:
                continue
            cast.problems.extend(_target_problems(game, index, cand.spell, tgt,
                                                  f"casts.{si}.{cand.hand}"))
    return cast


def _charm_problems(game: Game, orders: Orders, c: Constraints,
                    stopped_wizard: bool) -> list[OrderError]:
    """The gesture (and stab) written for a hand this wizard controls by charm person."""
    out: list[OrderError] = []
    if c.charm_target is not None and stopped_wizard and orders.charm is None:
        who, hand = c.charm_target
        which = HAND_WORD[hand] if hand else "charmed hand"  # (hand "": chosen in `hands`)
        out.append(OrderError("charm-missing", f"write the gesture for {game.names[who]}'s "
                              f"{which}, which you control this turn", "charm"))
    if orders.charm is not None and c.charm_target is None:
        out.append(OrderError("charm-unexpected", "you control no hand of your opponent this "
                              "turn", "charm"))
    if orders.charm_target is not None and c.charm_target is not None:
        subject = wizard_id(c.charm_target[0])
        if orders.charm != STAB:
            out.append(OrderError("charm-target-unused", "a target only goes with a stab",
                                  "charm.target"))
        elif orders.charm_target in (subject, NOBODY):
            out.append(OrderError("stab-self", "wizards are not allowed to stab themselves: aim "
                                  "the charmed stab at someone else", "charm.target"))
        elif not target_exists(game, orders.charm_target):
            out.append(OrderError("bad-target", f"there is nothing called "
                                  f"{orders.charm_target} to stab", "charm.target"))
    return out


def _waiting_problems(game: Game, w: Wizard, orders: Orders,
                      completing: set[str]) -> list[OrderError]:
    """A spell flagged for the bank or for permanency needs one waiting to take it."""
    out: list[OrderError] = []
    table = game.ruleset.table
    # Spells waiting on him (a delayed effect, a permanency) or completed now, by what they do.
    doing = {table[k].does for k in {e.kind.value for e in w.effects
                                     if e.active_on(w.own_turns + 1)} | completing}
    for ch in orders.casts:
        if ch.bank and Does.BANK not in doing:
            out.append(OrderError("nothing-to-bank", "no delayed effect waits to bank a spell",
                                  f"casts.{ch.set_index}.{ch.hand}"))
        if ch.permanent and Does.EXTEND not in doing:
            out.append(OrderError("nothing-to-extend", "no permanency waits to extend a spell",
                                  f"casts.{ch.set_index}.{ch.hand}"))
    return out


def _monster_problems(game: Game, index: int, orders: Orders,
                      cast: _Casting) -> list[OrderError]:
    """Targets for the monsters he directs, summons this turn, raises or takes by charm."""
    out: list[OrderError] = []
    table = game.ruleset.table
    for mid, targets in orders.monsters:
        if mid.startswith(f"new:{index}:") and mid not in cast.summons:
            out.append(OrderError("no-summons", f"these gestures summon nothing with that hand "
                                  f"({mid})", f"monsters.{mid}"))
            continue
        if mid.startswith("new:"):
            for t in targets:
                if not target_exists(game, t):
                    out.append(OrderError("bad-target", f"there is nothing called {t} to attack",
                                          f"monsters.{mid}"))
            continue
        m = game.monster(mid)
        # "On the turn a monster is raised it may attack": its master may direct it then.
        raising = m is not None and not m.alive and \
            any(table[k].does is Does.RAISE_DEAD for k in cast.completing) and \
            m.controller == index
        if m is None or (not m.alive and not raising):
            out.append(OrderError("no-monster", f"there is no living monster {mid}",
                                  f"monsters.{mid}"))
            continue
        if m.is_elemental:
            out.append(OrderError("elemental-orders", "elementals obey nobody: they attack "
                                  "everyone", f"monsters.{mid}"))
            continue
        if m.controller != index and not cast.charming:
            out.append(OrderError("not-your-monster", f"{mid} obeys {game.names[m.controller]}; "
                                  "you can only direct it in a turn you cast charm monster",
                                  f"monsters.{mid}"))
            continue
        for t in targets:
            if t == mid:
                out.append(OrderError("monster-self", "a monster cannot attack itself",
                                      f"monsters.{mid}"))
            elif not target_exists(game, t):
                out.append(OrderError("bad-target", f"there is nothing called {t} to attack",
                                      f"monsters.{mid}"))
    return out


def _release_problems(game: Game, index: int, w: Wizard, orders: Orders) -> list[OrderError]:
    """Releasing the banked spell needs one banked, aimed at something that exists."""
    out: list[OrderError] = []
    if orders.release is not None:
        if w.banked is None:
            out.append(OrderError("nothing-banked", "there is no banked spell to release",
                                  "release"))
        elif orders.release and w.banked.target and orders.release != w.banked.target:
            out.append(OrderError("release-target", "the banked spell keeps the target it was "
                                  f"cast at ({w.banked.target})", "release.target"))
        elif orders.release:
            out.extend(_target_problems(game, index, w.banked.spell, orders.release,
                                        "release.target"))
    return out


def _target_problems(game: Game, index: int, spell: str, tgt: str, field: str) -> list[OrderError]:
    s = game.ruleset.table[spell]
    out: list[OrderError] = []
    if s.blanket:
        return out  # blanket spells ignore targets: "gets you no matter where it is released"
    if tgt == NOBODY:
        if not s.discardable:
            out.append(OrderError("must-target", f"{s.name} cannot be shot off harmlessly: it "
                                  "must be cast at someone", field))
        return out
    if s.category is Category.SUMMON and tgt.startswith("new:"):
        out.append(OrderError("bad-target", "a summoning spell cannot be aimed at a monster that "
                              "is itself being summoned", field))
        return out
    if not target_exists(game, tgt, allow_dead=(s.does is Does.RAISE_DEAD)):
        out.append(OrderError("bad-target", f"there is nothing called {tgt} to aim {s.name} at",
                              field))
    if tgt.startswith("new:") and tgt.split(":")[1] not in ("0", "1"):
        out.append(OrderError("bad-target", f"{tgt} names no wizard", field))
    elif not may_aim(game, index, tgt):
        out.append(OrderError("out-of-reach", f"{s.name} cannot be aimed at {tgt} this turn "
                              "(blindness or invisibility)", field))
    del index
    return out


def decision_problems(game: Game, index: int, d: DecisionInput) -> list[OrderError]:
    """Everything wrong with a decision input from wizard `index`."""
    out: list[OrderError] = []
    mine = [x for x in game.phase.decisions if x.wizard == index]
    for x in mine:
        a = d.answer(x.id)
        if a is None:
            out.append(OrderError("decision-missing", f"Choose an answer first: {x.prompt}",
                                  f"decisions.{x.id}"))
        elif a not in x.options:
            out.append(OrderError("decision-option", f"{a!r} is not one of "
                                  f"{', '.join(x.options)} for: {x.prompt}", f"decisions.{x.id}"))
    ids = {x.id for x in mine}
    for k, _ in d.answers:
        if k not in ids:
            out.append(OrderError("decision-unknown", f"no decision {k!r} is asked of you",
                                  f"decisions.{k}"))
    return out


# The search validates each of its candidate orders once per joint move on one state.
_PROBLEMS: ByIdentity[tuple[OrderError, ...]] = ByIdentity(64)


def input_problems(game: Game, index: int, inp: Orders | DecisionInput) -> list[OrderError]:
    """Problems with one wizard's input for the current phase, of whichever kind it needs."""
    key = (index, inp)
    try:
        found = _PROBLEMS.get(game, key)
    except TypeError:  # (an input built by hand with a list inside: not remembered)
        return _input_problems(game, index, inp)
    if found is None:
        found = _PROBLEMS.put(game, key, tuple(_input_problems(game, index, inp)))
    return list(found)


def _input_problems(game: Game, index: int, inp: Orders | DecisionInput) -> list[OrderError]:
    phase = game.phase
    if phase.kind == "over":
        return [OrderError("game-over", "the duel is over")]
    if index not in phase.actors:
        return [OrderError("not-your-turn", f"{game.names[index]} has nothing to do in this "
                           "phase")]
    if phase.kind == "decision":
        if not isinstance(inp, DecisionInput):
            return [OrderError("want-decision", "this phase wants decisions, not orders")]
        return decision_problems(game, index, inp)
    if not isinstance(inp, Orders):
        return [OrderError("want-orders", "this phase wants orders, not decisions")]
    return order_problems(game, index, inp)


__all__ = ["GESTURES", "choose_allocation", "input_problems", "opponent"]
