"""What the opponent needs to know about each spell, derived from the spell table.

Every value the search uses comes from a spell's facts (category, usual target, sequence
length, the mind-spell and permanency sets) plus the few facts the table does not hold yet,
which live in `_MISSING_FACTS` below and nowhere else.  When the table gains those columns,
`_missing` is the one function to replace.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from ..model import MONSTER_STATS
from ..spells import MIND_SPELLS, SPELLS, Category, UsualTarget, all_spells

# --- MISSING FACTS: the spell table does not hold these yet (issue 10 adds them). ------------
# key: (damage done, or -1 for "kills"; what stops it: "shield" | "counter" | "mirror" letters;
#       deadly enchantment; what it cures; summoned monster kind; the answer it is)
# stop letters: s = a shield stops it, c = a counter-spell stops it, m = a mirror reflects it.
_MISSING_FACTS: dict[str, tuple[int, str, bool, str, str, str]] = {
    "missile": (1, "scm", False, "", "", ""),
    "cause_light_wounds": (2, "cm", False, "", "", ""),
    "cause_heavy_wounds": (3, "cm", False, "", "", ""),
    "lightning_bolt": (5, "cm", False, "", "", ""),
    "fireball": (5, "cm", False, "", "", ""),
    "finger_of_death": (-1, "m", False, "", "", ""),
    "fire_storm": (5, "c", False, "", "", ""),
    "ice_storm": (5, "c", False, "", "", ""),
    "disease": (0, "cm", True, "", "", ""),
    "poison": (0, "cm", True, "", "", ""),
    "cure_heavy_wounds": (0, "", False, "disease", "", ""),
    "remove_enchantment": (0, "", False, "disease poison", "", ""),
    "dispel_magic": (0, "", False, "disease poison", "", "counter"),
    "shield": (0, "", False, "", "", "shield"),
    "protection_from_evil": (0, "", False, "", "", "shield"),
    "counter_spell": (0, "", False, "", "", "counter"),
    "magic_mirror": (0, "", False, "", "", "mirror"),
    "summon_goblin": (0, "", False, "", "goblin", ""),
    "summon_ogre": (0, "", False, "", "ogre", ""),
    "summon_troll": (0, "", False, "", "troll", ""),
    "summon_giant": (0, "", False, "", "giant", ""),
    "summon_elemental": (0, "", False, "", "fire_elemental", ""),
}
# Enchantments that make their subject repeat his last gestures (what the view does not detail).
_REPEATS_LAST: frozenset[str] = frozenset({"amnesia"})
# The enchantments that keep an elemental of each element (the decision's options) at bay.
_RESISTS: dict[str, tuple[str, ...]] = {"fire": ("resist_heat",), "ice": ("resist_cold",)}
_DEFAULT = (0, "cm", False, "", "", "")  # an enchantment: counter-spell and mirror stop it
# ----------------------------------------------------------------------------------------------

KILLS = -1
ANSWERS = ("shield", "counter", "mirror")
_STOP_LETTER = {"shield": "s", "counter": "c", "mirror": "m"}


def _missing(key: str) -> tuple[int, str, bool, str, str, str]:
    return _MISSING_FACTS.get(key, _DEFAULT)


@dataclass(frozen=True, slots=True)
class SpellFacts:
    """What the opponent weighs about one spell."""

    key: str
    name: str
    steps: int  # gestures in its shortest sequence
    hostile: bool  # aimed at the other side when no target is named
    blanket: bool  # hits everyone (storms)
    damage: int  # points of damage, KILLS for finger of death
    stopped_by: frozenset[str]  # answers that stop it: "shield", "counter", "mirror"
    deadly: bool  # kills its subject in six turns unless cured
    cures: frozenset[str]  # deadly enchantments it removes
    answer: str  # the answer it is ("shield", "counter", "mirror") or ""
    monster: str  # the monster it summons
    mind: bool  # takes over its subject's mind (paralysis, charm, ...)
    repeats_last: bool  # its subject repeats his last gestures (amnesia)
    value: float  # what casting it at the enemy is worth, before the situation


def _value(key: str, damage: int, deadly: bool, monster: str) -> float:
    s = SPELLS[key]
    if damage == KILLS:
        return 45.0
    if s.usual_target is UsualTarget.NOBODY:
        return 2.0  # a blanket spell hurts its caster too
    if damage > 0:
        return 3.0 * damage
    if deadly:
        return 30.0
    if monster:
        strength, toughness = MONSTER_STATS[monster]
        return 2.5 * strength + toughness
    if s.category is Category.ENCHANTMENT:
        if s.usual_target is UsualTarget.OPPONENT:
            return 7.0 if key in MIND_SPELLS else 5.0
        return 4.0
    return 1.0  # protections are worth what they answer (see evaluate.py)


@cache
def facts(key: str) -> SpellFacts:
    """The facts about spell `key` (KeyError for an unknown spell)."""
    s = SPELLS[key]
    damage, stops, deadly, cures, monster, answer = _missing(key)
    return SpellFacts(
        key=key, name=s.name, steps=min(len(p) for p in s.parsed),
        hostile=s.usual_target is UsualTarget.OPPONENT,
        blanket=s.usual_target is UsualTarget.NOBODY, damage=damage,
        stopped_by=frozenset(a for a in ANSWERS if _STOP_LETTER[a] in stops), deadly=deadly,
        cures=frozenset(cures.split()), answer=answer, monster=monster, mind=key in MIND_SPELLS,
        repeats_last=key in _REPEATS_LAST, value=_value(key, damage, deadly, monster))


@cache
def answer_spells(answer: str) -> tuple[SpellFacts, ...]:
    """Spells that are this answer (e.g. every spell that acts as a shield)."""
    return tuple(f for f in (facts(s.key) for s in all_spells()) if f.answer == answer)


def deadly_kinds() -> frozenset[str]:
    """Effect kinds that kill their subject unless cured."""
    return frozenset(s.key for s in all_spells() if facts(s.key).deadly)


def resisting(element: str) -> tuple[str, ...]:
    """Enchantment kinds that protect from an elemental (or storm) of this element."""
    return _RESISTS.get(element, ())
