"""The spell table: every spell of the rules as data.

Each spell has its gesture sequences written exactly as the rules' forward list writes them
("C-(w", "P-P-(w-(s"), a category, the usual target and a resolution priority.  Everything
else in the engine reads this table; no spell name is spelt out in recognition code.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Final


class Category(StrEnum):
    """The rules' four spell groups."""

    PROTECTION = "protection"
    SUMMON = "summon"
    DAMAGE = "damage"
    ENCHANTMENT = "enchantment"


class UsualTarget(StrEnum):
    """Who a spell hits when the orders name no target ("Usually the target is obvious")."""

    SELF = "self"
    OPPONENT = "opponent"
    NOBODY = "nobody"  # blanket spells: the target is immaterial


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a sequence: a gesture, made by one hand or by both hands at once."""

    gesture: str  # one of F P S W D C
    both_hands: bool

    def notation(self) -> str:
        """The rules' notation for this step: 'F', 'C' or '(w'."""
        if self.gesture == "C":
            return "C"
        return f"({self.gesture.lower()}" if self.both_hands else self.gesture


def parse_sequence(text: str) -> tuple[Step, ...]:
    """Parse the rules' notation 'P-P-(w-(s' into steps; raises ValueError on anything else."""
    steps: list[Step] = []
    for token in text.split("-"):
        if token == "C":
            steps.append(Step("C", True))
        elif len(token) == 2 and token[0] == "(" and token[1] in "fpswd":
            steps.append(Step(token[1].upper(), True))
        elif len(token) == 1 and token in "FPSWD":
            steps.append(Step(token, False))
        else:
            raise ValueError(f"bad step {token!r} in sequence {text!r}")
    return tuple(steps)


@dataclass(frozen=True, slots=True)
class Spell:
    """One spell of the table.  `priority` orders spells for display and tie-breaks only."""

    key: str
    name: str
    sequences: tuple[str, ...]
    category: Category
    usual_target: UsualTarget
    priority: int
    discardable: bool = True  # False: "some cannot be easily discarded"
    once_per_battle: tuple[str, ...] = ()  # sequences usable once per battle per wizard

    @property
    def parsed(self) -> tuple[tuple[Step, ...], ...]:
        """The sequences as steps, in table order."""
        return tuple(parse_sequence(s) for s in self.sequences)


_TABLE: Final[tuple[Spell, ...]] = (
    # Protection
    Spell("shield", "Shield", ("P",), Category.PROTECTION, UsualTarget.SELF, 10),
    Spell("remove_enchantment", "Remove enchantment", ("P-D-W-P",), Category.PROTECTION,
          UsualTarget.SELF, 11),
    Spell("magic_mirror", "Magic mirror", ("C-(w",), Category.PROTECTION, UsualTarget.SELF, 12),
    Spell("counter_spell", "Counter-spell", ("W-P-P", "W-W-S"), Category.PROTECTION,
          UsualTarget.SELF, 13),
    Spell("dispel_magic", "Dispel magic", ("C-D-P-W",), Category.PROTECTION, UsualTarget.SELF, 14),
    Spell("raise_dead", "Raise dead", ("D-W-W-F-W-C",), Category.PROTECTION, UsualTarget.SELF, 15),
    Spell("cure_light_wounds", "Cure light wounds", ("D-F-W",), Category.PROTECTION,
          UsualTarget.SELF, 16),
    Spell("cure_heavy_wounds", "Cure heavy wounds", ("D-F-P-W",), Category.PROTECTION,
          UsualTarget.SELF, 17),
    # Summoning
    Spell("summon_goblin", "Summon goblin", ("S-F-W",), Category.SUMMON, UsualTarget.SELF, 20),
    Spell("summon_ogre", "Summon ogre", ("P-S-F-W",), Category.SUMMON, UsualTarget.SELF, 21),
    Spell("summon_troll", "Summon troll", ("F-P-S-F-W",), Category.SUMMON, UsualTarget.SELF, 22),
    Spell("summon_giant", "Summon giant", ("W-F-P-S-F-W",), Category.SUMMON, UsualTarget.SELF, 23),
    Spell("summon_elemental", "Summon elemental", ("C-S-W-W-S",), Category.SUMMON,
          UsualTarget.SELF, 24, discardable=False),
    # Damaging
    Spell("missile", "Missile", ("S-D",), Category.DAMAGE, UsualTarget.OPPONENT, 30),
    Spell("finger_of_death", "Finger of death", ("P-W-P-F-S-S-S-D",), Category.DAMAGE,
          UsualTarget.OPPONENT, 31),
    Spell("lightning_bolt", "Lightning bolt", ("D-F-F-D-D", "W-D-D-C"), Category.DAMAGE,
          UsualTarget.OPPONENT, 32, once_per_battle=("W-D-D-C",)),
    Spell("cause_light_wounds", "Cause light wounds", ("W-F-P",), Category.DAMAGE,
          UsualTarget.OPPONENT, 33),
    Spell("cause_heavy_wounds", "Cause heavy wounds", ("W-P-F-D",), Category.DAMAGE,
          UsualTarget.OPPONENT, 34),
    Spell("fireball", "Fireball", ("F-S-S-D-D",), Category.DAMAGE, UsualTarget.OPPONENT, 35),
    Spell("fire_storm", "Fire storm", ("S-W-W-C",), Category.DAMAGE, UsualTarget.NOBODY, 36,
          discardable=False),
    Spell("ice_storm", "Ice storm", ("W-S-S-C",), Category.DAMAGE, UsualTarget.NOBODY, 37,
          discardable=False),
    # Enchantments
    Spell("amnesia", "Amnesia", ("D-P-P",), Category.ENCHANTMENT, UsualTarget.OPPONENT, 40),
    Spell("confusion", "Confusion", ("D-S-F",), Category.ENCHANTMENT, UsualTarget.OPPONENT, 41),
    Spell("charm_person", "Charm person", ("P-S-D-F",), Category.ENCHANTMENT,
          UsualTarget.OPPONENT, 42),
    Spell("charm_monster", "Charm monster", ("P-S-D-D",), Category.ENCHANTMENT,
          UsualTarget.OPPONENT, 43),
    Spell("paralysis", "Paralysis", ("F-F-F",), Category.ENCHANTMENT, UsualTarget.OPPONENT, 44),
    Spell("fear", "Fear", ("S-W-D",), Category.ENCHANTMENT, UsualTarget.OPPONENT, 45),
    Spell("anti_spell", "Anti-spell", ("S-P-F",), Category.ENCHANTMENT, UsualTarget.OPPONENT, 46),
    Spell("protection_from_evil", "Protection from evil", ("W-W-P",), Category.ENCHANTMENT,
          UsualTarget.SELF, 47),
    Spell("resist_heat", "Resist heat", ("W-W-F-P",), Category.ENCHANTMENT, UsualTarget.SELF, 48),
    Spell("resist_cold", "Resist cold", ("S-S-F-P",), Category.ENCHANTMENT, UsualTarget.SELF, 49),
    Spell("disease", "Disease", ("D-S-F-F-F-C",), Category.ENCHANTMENT, UsualTarget.OPPONENT, 50),
    Spell("poison", "Poison", ("D-W-W-F-W-D",), Category.ENCHANTMENT, UsualTarget.OPPONENT, 51),
    Spell("blindness", "Blindness", ("D-W-F-F-(d",), Category.ENCHANTMENT, UsualTarget.OPPONENT,
          52),
    Spell("invisibility", "Invisibility", ("P-P-(w-(s",), Category.ENCHANTMENT, UsualTarget.SELF,
          53),
    Spell("haste", "Haste", ("P-W-P-W-W-C",), Category.ENCHANTMENT, UsualTarget.SELF, 54),
    Spell("time_stop", "Time stop", ("S-P-P-C",), Category.ENCHANTMENT, UsualTarget.SELF, 55),
    Spell("delayed_effect", "Delayed effect", ("D-W-S-S-S-P",), Category.ENCHANTMENT,
          UsualTarget.SELF, 56),
    Spell("permanency", "Permanency", ("S-P-F-P-S-D-W",), Category.ENCHANTMENT, UsualTarget.SELF,
          57),
)

SPELLS: Final[dict[str, Spell]] = {s.key: s for s in _TABLE}

# Surrender is "not a spell": it is recognised separately and never appears in SPELLS.
SURRENDER_SEQUENCE: Final[str] = "(p"

# Spells whose subject's mind is taken over; two different ones on one subject cancel.
MIND_SPELLS: Final[frozenset[str]] = frozenset(
    {"amnesia", "confusion", "charm_person", "charm_monster", "paralysis", "fear"}
)

# Enchantments permanency cannot extend: "(except anti-spell, disease, poison, or time-stop)".
NOT_PERMANENT: Final[frozenset[str]] = frozenset({"anti_spell", "disease", "poison", "time_stop"})
# ... plus the two spells whose own "duration" is the window in which they wait: "A permanency
# spell cannot increase its own duration, nor the duration of spells saved by a delayed effect"
# (docs/rules.md).
NEVER_PERMANENT: Final[frozenset[str]] = NOT_PERMANENT | {"delayed_effect", "permanency"}


def spell(key: str) -> Spell:
    """The spell with this key; raises KeyError for an unknown key."""
    return SPELLS[key]


def all_spells() -> tuple[Spell, ...]:
    """Every spell in table order."""
    return _TABLE
