"""Queries about a game state that validation, preview and resolution all need.

Nothing here changes a state.
"""

from __future__ import annotations

from dataclasses import dataclass

from .model import Game, Monster, Wizard
from .spells import SPELLS, UsualTarget

PARALYSED_FORM = {"C": "F", "S": "D", "W": "P"}  # "C, S or W ... into F, D or P respectively"
FEAR_BANNED = frozenset("CDFS")  # "cannot perform a C, D, F or S gesture"


def wizard_id(index: int) -> str:
    """Being id of a wizard."""
    return f"W{index}"


def opponent(index: int) -> int:
    """The other wizard."""
    return 1 - index


def being_name(game: Game, bid: str) -> str:
    """A readable name for a being id."""
    if bid.startswith("W"):
        return game.names[int(bid[1:])]
    m = game.monster(bid)
    if m is None:
        return bid
    return monster_name(game, m)


def monster_name(game: Game, m: Monster) -> str:
    """E.g. "Alice's goblin (M1)"."""
    kind = m.kind.replace("_", " ")
    return f"{game.names[m.controller]}'s {kind} ({m.id})"


def usual_target(spell: str, caster: int) -> str:
    """The target a spell takes when the orders name none ("Usually the target is obvious")."""
    usual = SPELLS[spell].usual_target
    if usual is UsualTarget.SELF:
        return wizard_id(caster)
    if usual is UsualTarget.OPPONENT:
        return wizard_id(opponent(caster))
    return "none"


def living_beings(game: Game) -> list[str]:
    """Ids of every living wizard and monster."""
    out = [wizard_id(w.index) for w in game.wizards if w.alive]
    out += [m.id for m in game.monsters if m.alive]
    return out


def next_own_turn(w: Wizard | Monster) -> int:
    """The own-turn number the being's next turn will have."""
    return w.own_turns + 1


def is_hastened(w: Wizard) -> bool:
    """Whether the wizard writes two gesture sets this coming turn."""
    return w.effect("haste", next_own_turn(w)) is not None


@dataclass(frozen=True, slots=True)
class HandConstraint:
    """What the rules impose on one hand this coming turn."""

    forced: str | None = None  # the gesture the hand must make (amnesia, paralysis)
    why: str = ""  # "amnesia" | "paralysis" | "charm"
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

    def hand(self, hand: str) -> HandConstraint:
        """The constraint of hand L or R."""
        return self.left if hand == "L" else self.right


def constraints(game: Game, index: int) -> Constraints:
    """The restrictions on wizard `index`'s orders for the current phase."""
    w = game.wizard(index)
    own = next_own_turn(w)
    last = w.history[-1] if w.history else None
    hands: dict[str, HandConstraint] = {"L": HandConstraint(), "R": HandConstraint()}
    amnesia = w.effect("amnesia", own)
    if amnesia is not None and len(amnesia.detail) == 2:
        hands["L"] = HandConstraint(amnesia.detail[0], "amnesia")
        hands["R"] = HandConstraint(amnesia.detail[1], "amnesia")
    else:
        para = w.effect("paralysis", own)
        if para is not None and last is not None and para.detail:
            hand, _, fixed = para.detail.partition(":")
            hands[hand] = HandConstraint(fixed, "paralysis")
        charm = w.effect("charm_person", own)
        if charm is not None and charm.detail:
            hand = charm.detail[0]
            fixed = charm.detail[2:]  # a permanent charm repeats the first chosen gesture
            if hands[hand].forced is None:
                hands[hand] = HandConstraint(fixed or None, "charm", charm.source)
    fear = w.effect("fear", own) is not None
    confused = w.effect("confusion", own) is not None
    other = game.wizard(opponent(index))
    charm_target: tuple[int, str] | None = None
    # "the caster of the spell writes down the gesture he wants the subject's named hand to
    # perform": the opponent's hand, or his own when he charmed himself.
    for subject in (w, other):
        oc = subject.effect("charm_person", next_own_turn(subject))
        if oc is not None and oc.source == index and len(oc.detail) == 1 and subject.alive:
            charm_target = (subject.index, oc.detail[0])
    return Constraints(
        sets=2 if is_hastened(w) else 1,
        left=hands["L"],
        right=hands["R"],
        banned=FEAR_BANNED if fear else frozenset(),
        confused=confused,
        charm_target=charm_target,
    )


def effective_rows_before(w: Wizard) -> list[tuple[str, str]]:
    """The wizard's history as (left, right) pairs."""
    return [(r.left, r.right) for r in w.history]


def controlled_monsters(game: Game, index: int) -> list[Monster]:
    """Living monsters under this wizard's control (elementals obey nobody)."""
    return [m for m in game.monsters if m.alive and m.controller == index and not m.is_elemental]
