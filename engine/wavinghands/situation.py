"""Queries about a game state that validation, preview and resolution all need.

Nothing here changes a state.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .memo import ByIdentity
from .model import NOBODY, TIME_STOP, Game, Monster, Wizard, wizard_index
from .model import wizard_id as wizard_id  # re-exported: being ids are made in model.py
from .rulesets.base import PARALYSED_FORM as PARALYSED_FORM  # the standard rules' (kept here)
from .spells import Ask, EffectKind, Spell, UsualTarget, decision_id

FEAR_BANNED = frozenset("CDFS")  # "cannot perform a C, D, F or S gesture"


def opponent(index: int) -> int:
    """The other wizard of a duel."""
    return 1 - index


def sole_enemy(game: Game, index: int) -> int | None:
    """"The opponent", where the words still name one: in a duel the other wizard; in a melee
    the one other wizard still in the fight, else None (docs/rules.md, "Melee")."""
    if not game.is_melee:
        return opponent(index)
    others = [w.index for w in game.wizards if w.index != index and w.in_fight]
    return others[0] if len(others) == 1 else None


def enemies(game: Game, index: int) -> list[int]:
    """The other wizards still in the fight (a duel: the opponent while he lives)."""
    return [w.index for w in game.wizards if w.index != index and w.in_fight]


def being_name(game: Game, bid: str) -> str:
    """A readable name for a being id."""
    index = wizard_index(bid)
    if index is not None:
        return game.names[index]
    m = game.monster(bid)
    if m is None:
        return bid
    return monster_name(game, m)


def monster_name(game: Game, m: Monster) -> str:
    """E.g. "Alice's goblin (M1)"."""
    kind = m.kind.replace("_", " ")
    return f"{game.names[m.controller]}'s {kind} ({m.id})"


def usual_target(game: Game, spell: Spell, caster: int) -> str:
    """The target a spell takes when the orders name none ("Usually the target is obvious");
    one aimed at "your opponent's wizard" goes at nobody in a melee while two or more enemies
    fight (docs/rules.md, "Melee")."""
    usual = spell.usual_target
    if usual is UsualTarget.SELF:
        return wizard_id(caster)
    if usual is UsualTarget.OPPONENT:
        enemy = sole_enemy(game, caster)
        return NOBODY if enemy is None else wizard_id(enemy)
    return NOBODY


_SIGHT: ByIdentity[tuple[frozenset[str], frozenset[str]]] = ByIdentity(16)


def sight(game: Game) -> tuple[frozenset[str], frozenset[str]]:
    """(blind wizards, invisible wizards) as the coming turn starts: what the rules judge
    targets by where a ruleset says so (`Variant.may_aim`)."""
    found = _SIGHT.get(game)
    if found is None:
        found = _SIGHT.put(game, None, _sight(game))
    return found


def _sight(game: Game) -> tuple[frozenset[str], frozenset[str]]:
    blind = frozenset(wizard_id(w.index) for w in game.wizards
                      if w.effect(EffectKind.BLINDNESS, next_own_turn(w)) is not None)
    unseen = frozenset(wizard_id(w.index) for w in game.wizards
                       if w.effect(EffectKind.INVISIBILITY, next_own_turn(w)) is not None)
    return blind, unseen


def may_aim(game: Game, caster: int, target: str) -> bool:
    """Whether wizard `caster` may aim a spell or stab at `target` this turn (nobody: always)."""
    if target == NOBODY:
        return True
    return game.ruleset.variant.may_aim(wizard_id(caster), target, *sight(game))


def default_target(game: Game, spell: Spell, caster: int) -> str:
    """The target a spell takes when the orders name none: its usual target, unless the rules
    put that out of the caster's reach this turn (then nobody, or himself for a spell that
    must be cast at someone)."""
    usual = usual_target(game, spell, caster)
    if spell.blanket or (usual != NOBODY and may_aim(game, caster, usual)):
        return usual
    return NOBODY if spell.discardable else wizard_id(caster)


def default_stab(game: Game, caster: int) -> str:
    """Whom a stab with no written target stabs: the opponent, unless he is out of reach (then
    himself where the rules let him stab himself, else nobody); in a melee with two or more
    enemies, nobody ("must choose a target for the stab": the orders must name one)."""
    sole = sole_enemy(game, caster)
    enemy = NOBODY if sole is None else wizard_id(sole)
    if sole is not None and may_aim(game, caster, enemy):
        return enemy
    blind, _ = sight(game)
    return wizard_id(caster) if game.ruleset.variant.may_stab_self(wizard_id(caster), blind) \
        else NOBODY


def present(game: Game, w: Wizard) -> bool:
    """Whether a wizard is still there to be aimed at: alive (a melee: and not surrendered, for
    a surrendering wizard leaves it)."""
    return w.in_fight if game.is_melee else w.alive


# A monster's default target in a melee while two or more enemies fight: "a random opposing
# Warlock" (the Warlocks monsters page), drawn when it attacks.  Not a being id: the preview's
# word for it.
RANDOM_ENEMY: Final = "random"


def monster_default(game: Game, index: int) -> str:
    """Whom a monster of wizard `index` attacks when he names nobody: "their master's
    opponent", or RANDOM_ENEMY in a melee while two or more enemies fight."""
    enemy = sole_enemy(game, index)
    return RANDOM_ENEMY if enemy is None else wizard_id(enemy)


def living_beings(game: Game) -> list[str]:
    """Ids of every living wizard (still in the fight) and monster."""
    out = [wizard_id(w.index) for w in game.wizards if present(game, w)]
    out += [m.id for m in game.monsters if m.alive]
    return out


def next_own_turn(w: Wizard | Monster) -> int:
    """The own-turn number the being's next turn will have."""
    return w.own_turns + 1


def is_hastened(w: Wizard) -> bool:
    """Whether the wizard writes two gesture sets this coming turn."""
    return w.effect(EffectKind.HASTE, next_own_turn(w)) is not None


# Why a hand is constrained (HandConstraint.why; the page explains each).
BY_AMNESIA: Final = EffectKind.AMNESIA.value
BY_PARALYSIS: Final = EffectKind.PARALYSIS.value
BY_CHARM: Final = "charm"


@dataclass(frozen=True, slots=True)
class HandConstraint:
    """What the rules impose on one hand this coming turn."""

    forced: str | None = None  # the gesture the hand must make (amnesia, paralysis)
    why: str = ""  # BY_AMNESIA | BY_PARALYSIS | BY_CHARM
    controller: int | None = None  # charm person: who writes this hand's gesture


@dataclass(frozen=True, slots=True)
class Constraints:
    """Everything that restricts a wizard's next orders."""

    sets: int
    left: HandConstraint
    right: HandConstraint
    banned: frozenset[str]  # gestures he cannot make (fear)
    confused: bool
    charm_target: tuple[int, str] | None  # (wizard, hand) whose gesture HE writes this turn
    same_gesture: bool = False  # maladroitness: both hands make one gesture
    forfeit: bool = False  # he may forfeit the duel in his orders (Variant.forfeit_under)

    def hand(self, hand: str) -> HandConstraint:
        """The constraint of hand L or R."""
        return self.left if hand == "L" else self.right


def effects_suspended(game: Game, index: int) -> bool:
    """Whether the wizard's lasting effects on his orders and gestures are suspended for the
    current phase: his time-stopped turn, where the ruleset says so (Warlocks)."""
    return game.phase.kind == TIME_STOP and not game.phase.hasted and \
        wizard_id(index) in game.phase.time_stopped and \
        game.ruleset.variant.time_stop_ignores_effects()


# Validation, resolution and the view each ask this of one state; the search asks it of one
# state for every joint move it plays there.
_CONSTRAINTS: ByIdentity[Constraints] = ByIdentity(16)


def constraints(game: Game, index: int) -> Constraints:
    """The restrictions on wizard `index`'s orders for the current phase."""
    found = _CONSTRAINTS.get(game, index)
    if found is None:
        found = _CONSTRAINTS.put(game, index, _constraints(game, index))
    return found


def _constraints(game: Game, index: int) -> Constraints:
    if effects_suspended(game, index):
        return Constraints(1, HandConstraint(), HandConstraint(), frozenset(), False, None)
    w = game.wizard(index)
    own = next_own_turn(w)
    last = w.history[-1] if w.history else None
    hands: dict[str, HandConstraint] = {"L": HandConstraint(), "R": HandConstraint()}
    amnesia = w.effect(EffectKind.AMNESIA, own)
    if amnesia is not None and len(amnesia.repeats) == 2:
        hands["L"] = HandConstraint(amnesia.repeats[0], BY_AMNESIA)
        hands["R"] = HandConstraint(amnesia.repeats[1], BY_AMNESIA)
    else:
        para = w.effect(EffectKind.PARALYSIS, own)
        if para is not None and last is not None and para.hand:
            hands[para.hand] = HandConstraint(para.gesture, BY_PARALYSIS)
        charm = w.effect(EffectKind.CHARM_PERSON, own)
        # (a permanent charm repeats the first chosen gesture)
        if charm is not None and charm.hand and hands[charm.hand].forced is None:
            hands[charm.hand] = HandConstraint(charm.gesture or None, BY_CHARM, charm.source)
    fear = w.effect(EffectKind.FEAR, own) is not None
    confused = w.effect(EffectKind.CONFUSION, own) is not None
    maladroit = w.effect(EffectKind.MALADROITNESS, own) is not None
    under = game.ruleset.variant.forfeit_under()
    forfeit = any(e.permanent and e.kind.value in under and e.active_on(own) for e in w.effects)
    charm_target: tuple[int, str] | None = None
    # "the caster of the spell writes down the gesture he wants the subject's named hand to
    # perform": the opponent's hand, or his own when he charmed himself (a melee: any
    # wizard's; the last such, in the order w then the others).
    later = game.ruleset.variant.hands_in_orders()  # the hand is chosen in these orders
    for subject in (w, *(x for x in game.wizards if x.index != index)):
        oc = subject.effect(EffectKind.CHARM_PERSON, next_own_turn(subject))
        if oc is not None and oc.source == index and (oc.hand or later) and not oc.gesture \
                and subject.alive:
            charm_target = (subject.index, oc.hand)  # hand "": the one chosen in `hands`
    return Constraints(
        # (where haste gives a hasted turn instead, every turn has one set: Variant.hasted_turns)
        sets=2 if is_hastened(w) and not game.ruleset.variant.hasted_turns() else 1,
        left=hands["L"],
        right=hands["R"],
        banned=FEAR_BANNED if fear else frozenset(),
        confused=confused,
        charm_target=charm_target,
        same_gesture=maladroit,
        forfeit=forfeit,
    )


@dataclass(frozen=True, slots=True)
class HandQuestion:
    """A hand the wizard chooses in this turn's orders (`Orders.hands`): the subject's hand a
    paralysis or charm person he cast last turn takes, where the ruleset asks it there."""

    id: str  # "paralysis:W1", "charm:W1" (as the decision it replaces)
    ask: Ask
    subject: int
    options: tuple[str, ...] = ("L", "R")


HAND_ASKS: Final = {EffectKind.PARALYSIS: Ask.PARALYSED_HAND,
                    EffectKind.CHARM_PERSON: Ask.CHARMED_HAND}


def hand_questions(game: Game, index: int) -> list[HandQuestion]:
    """The hands wizard `index` chooses in this turn's orders (none under the standard rules:
    their caster chooses after the reveal); only for a subject whose effects bind him in this
    phase (see hands_named_later)."""
    return [q for q in _hand_asks(game, index) if _bound_now(game, q.subject)]


def hands_named_later(game: Game, index: int) -> list[HandQuestion]:
    """The hands wizard `index` will choose, but not in this phase's orders: the subject takes
    no turn in it (the caster's hasted or time-stopped turn) or his effects are suspended in it
    (his Warlocks time-stopped turn), so a hand named now would be used by nothing; it is named
    in the orders of the next turn the subject takes with his effects (docs/rules.md,
    "Warlocks: paralysis")."""
    return [q for q in _hand_asks(game, index) if not _bound_now(game, q.subject)]


def why_not_now(game: Game, subject: int) -> str:
    """Why a hand of `subject` (in hands_named_later) is not named in this phase, in words."""
    name = game.names[subject]
    if wizard_id(subject) in game.phase.time_stopped:
        return f"{name}'s enchantments are suspended in his time-stopped turn"
    extra = "hasted turn" if game.phase.hasted else "time-stopped turn"
    return f"{name} takes no part in this {extra}"


def _bound_now(game: Game, subject: int) -> bool:
    """Whether the wizard takes the current phase's turn with his lasting effects."""
    if game.phase.kind != TIME_STOP:
        return True
    return wizard_id(subject) in game.phase.time_stopped and not effects_suspended(game, subject)


def _hand_asks(game: Game, index: int) -> list[HandQuestion]:
    """Every paralysis or charm person of wizard `index` whose subject's hand is still to name."""
    if not game.ruleset.variant.hands_in_orders():
        return []
    out = []
    for subject in game.wizards:
        if not subject.alive:
            continue
        for kind, ask in HAND_ASKS.items():
            e = subject.effect(kind, next_own_turn(subject))
            if e is not None and e.source == index and not e.hand:
                out.append(HandQuestion(decision_id(ask, wizard_id(subject.index)), ask,
                                        subject.index))
    return out


def effective_rows_before(w: Wizard) -> list[tuple[str, str]]:
    """The wizard's history as (left, right) pairs."""
    return [(r.left, r.right) for r in w.history]


def controlled_monsters(game: Game, index: int) -> list[Monster]:
    """Living monsters under this wizard's control (elementals obey nobody)."""
    return [m for m in game.monsters if m.alive and m.controller == index and not m.is_elemental]
