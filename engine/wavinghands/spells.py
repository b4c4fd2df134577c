"""The spell table: every spell of the rules as data.

Each spell has its gesture sequences written exactly as the rules' forward list writes them
("C-(w", "P-P-(w-(s"), a category, the usual target and a resolution priority.  Everything
else in the engine reads this table; no spell name is spelt out in recognition code.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Mapping
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from typing import Any, Final, Literal

from .memo import Bounded


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


@lru_cache(maxsize=1024)
def parse_sequence(text: str) -> tuple[Step, ...]:
    """Parse the rules' notation 'P-P-(w-(s' into steps; raises ValueError on anything else.
    (Remembered: `Spell.parsed` asks again on every read, and the steps are frozen.)"""
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


class Does(StrEnum):
    """What a spell does when it works: each kind has one handler in effects.py (or is one of
    the spells the turn's phases handle themselves: mirror, counter-spell, dispel magic, ...)."""

    SHIELD = "shield"  # a shield on its subject this turn
    REMOVE_ENCHANTMENT = "remove_enchantment"  # strips enchantments, destroys a monster
    MIRROR = "mirror"  # turns spells back (phase D)
    COUNTER = "counter"  # stops other spells on its subject (phase D); also a shield
    DISPEL = "dispel"  # stops every other spell, strips every enchantment, kills monsters
    RAISE_DEAD = "raise_dead"  # brings a corpse back; on the living, a cure
    CURE = "cure"  # heals `amount`
    SUMMON = "summon"  # makes a monster of kind `summons`
    DAMAGE = "damage"  # hurts its subject by `amount`
    DEATH = "death"  # kills its subject outright
    STORM = "storm"  # hurts everything by `amount` (a blanket spell of an element)
    ENCHANT = "enchant"  # lays a lasting effect (its kind: the spell's key) on its subject
    UNDO = "undo"  # anti-spell: the subject's spells under way are lost
    TIME_STOP = "time_stop"  # the subject takes an extra turn
    TAKE_MONSTER = "take_monster"  # charm monster: control of a monster passes to the caster
    BANK = "bank"  # delayed effect: waits to bank its caster's next spell (phase E)
    EXTEND = "extend"  # permanency: waits to make its caster's next enchantment permanent


class Ask(StrEnum):
    """A choice the rules place after the reveal, asked because a spell works (the decision's
    kind; its id is `<kind>:<subject or cast>`)."""

    PARALYSED_HAND = "paralysis"  # "the caster selects one of the wizard's hands"
    CHARMED_HAND = "charm"  # "The subject is told which of his hands will be controlled"
    ELEMENT = "elemental"  # "fire or ice ... at the discretion of the person upon whom the
    # spell is cast after he has seen all the gestures made that turn"


def decision_id(ask: Ask, about: str) -> str:
    """The id of the decision `ask` about a being or a cast ("paralysis:W1", "elemental:0:L")."""
    return f"{ask.value}:{about}"


class Element(StrEnum):
    """Heat and cold: what storms, fireballs and elementals are made of, and what resist heat
    and resist cold keep out."""

    FIRE = "fire"
    ICE = "ice"

    @property
    def opposite(self) -> Element:
        """Fire for ice, ice for fire."""
        return Element.ICE if self is Element.FIRE else Element.FIRE


class OnMonster(StrEnum):
    """What an enchantment does to a monster that differs from its effect on a wizard."""

    SAME = "same"  # the lasting effect, as on a wizard
    NOTHING = "nothing"  # "this spell only affects" wizards (fear, charm person)
    DESTROY = "destroy"  # "instantly destroyed and cannot attack in that turn" (blindness)
    DESTROY_AFTER_ATTACK = "destroy_after_attack"  # destroyed, attacking first (invisibility)
    ATTACKS_AT_RANDOM = "attacks_at_random"  # confusion: a monster "attacks at random that
    # turn"; only a permanent confusion leaves an effect behind
    NOT_ELEMENTAL = "not_elemental"  # paralysis: as on a wizard, but not on an elemental
    SKIPS_ATTACK = "skips_attack"  # (Warlocks) a monster, not an elemental, does not attack in
    # the turn the spell hits it; nothing lasts


class EffectKind(StrEnum):
    """The lasting effects on a being (model.Effect.kind): each is the key of the enchantment
    that lays it."""

    AMNESIA = "amnesia"
    CONFUSION = "confusion"
    CHARM_PERSON = "charm_person"
    PARALYSIS = "paralysis"
    FEAR = "fear"
    PROTECTION_FROM_EVIL = "protection_from_evil"
    RESIST_HEAT = "resist_heat"
    RESIST_COLD = "resist_cold"
    DISEASE = "disease"
    POISON = "poison"
    BLINDNESS = "blindness"
    INVISIBILITY = "invisibility"
    HASTE = "haste"
    DELAYED_EFFECT = "delayed_effect"
    PERMANENCY = "permanency"
    MALADROITNESS = "maladroitness"  # the Warlocks ruleset's (rulesets/warlocks.py)


# The kind of phase, turn and gesture row of an extra turn (a time stop's, or a hasted wizard's
# second): spelled as the spell's key, but a key of its own that saved games, records and turn
# codes carry, so it stays as it is whatever a table calls its spells (model.TIME_STOP).
TimeStopKind = Literal["time_stop"]
TIME_STOP_KIND: Final[TimeStopKind] = "time_stop"


@dataclass(frozen=True, slots=True)
class Lasting:
    """When an enchantment's effect is active, counted in the subject's own turns from the one
    it is cast on (docs/rules.md "durations"): `start`..`end` inclusive; `end` None: for ever."""

    start: int
    end: int | None
    fatal: bool = False  # disease, poison: the subject dies at the end of its last turn


@dataclass(frozen=True, slots=True)
class MonsterKind:
    """One kind of monster: "goblin (1 point of damage ...)"; "Monsters will be destroyed by
    their own damage rating"."""

    key: str
    name: str
    strength: int  # damage it inflicts per attack
    toughness: int  # damage that destroys it
    element: Element | None = None  # elementals: their type


@dataclass(frozen=True, slots=True)
class Spell:
    """One spell of the table: one row with every fact the engine reads about it.

    `priority` orders spells for display and tie-breaks only.  The facts:
    - `does`: what it does (one handler each, effects.py); `amount`: damage dealt or cured;
      `element`: a storm's or fireball's element, or the element a resistance keeps out;
      `summons`: the monster kind a summons makes ("elemental": fire or ice, chosen later).
    - `reflectable`: a magic mirror turns it back ("cast on a subject" in the mirror's sense);
      `passes_counter`: a counter-spell does not stop it; `blanket`: it hits everything, its
      target immaterial; `stopped_by_shield`: a shield blocks it (missile, like a stab).
    - `shields`: its subject is shielded this turn; `mind`: a mind spell (two different ones on
      one subject cancel); `repeats_last`: its subject repeats his last gestures
      (amnesia: "he must repeat identically the gestures he made in the current turn");
      `gives_control`: its caster controls the subject (the controller
      tells two copies apart); `lasts`: when its lasting effect is active (enchantments);
      `may_be_permanent`: permanency can extend it; `on_monster`: its effect on a monster;
      `also_cures`: lasting effects it ends; `hit_text`: the log's sentence for a hit;
      `asks`: the choice its working asks of someone after the reveal.
    """

    key: str
    name: str
    sequences: tuple[str, ...]
    category: Category
    usual_target: UsualTarget
    priority: int
    does: Does = Does.ENCHANT
    discardable: bool = True  # False: "some cannot be easily discarded"
    once_per_battle: tuple[str, ...] = ()  # sequences usable once per battle per wizard
    amount: int = 0
    element: Element | None = None
    summons: str = ""
    reflectable: bool = True
    passes_counter: bool = False
    blanket: bool = False
    stopped_by_shield: bool = False
    shields: bool = False
    mind: bool = False
    repeats_last: bool = False
    gives_control: bool = False
    lasts: Lasting | None = None
    may_be_permanent: bool = False
    on_monster: OnMonster = OnMonster.SAME
    also_cures: tuple[EffectKind, ...] = ()  # lasting effects it ends on its subject
    asks: Ask | None = None  # the choice it asks for after the reveal
    hit_text: str = "{spell} hits {subject} for {amount}."  # how the log tells a hit

    @property
    def parsed(self) -> tuple[tuple[Step, ...], ...]:
        """The sequences as steps, in table order."""
        return tuple(parse_sequence(s) for s in self.sequences)


P, SU, DA, EN = Category.PROTECTION, Category.SUMMON, Category.DAMAGE, Category.ENCHANTMENT
SELF, OPP, NOBODY = UsualTarget.SELF, UsualTarget.OPPONENT, UsualTarget.NOBODY
NEXT_TURN = Lasting(1, 1)  # "for the next turn" / "next turn"
THREE_TURNS = Lasting(1, 3)  # "For the next 3 turns"

_TABLE: Final[tuple[Spell, ...]] = (
    # Protection
    Spell("shield", "Shield", ("P",), P, SELF, 10, Does.SHIELD, shields=True),
    # "Terminates the effects of all Enchantment Spells ... also destroys any monster"
    Spell("remove_enchantment", "Remove enchantment", ("P-D-W-P",), P, SELF, 11,
          Does.REMOVE_ENCHANTMENT),
    Spell("magic_mirror", "Magic mirror", ("C-(w",), P, SELF, 12, Does.MIRROR, reflectable=False),
    # "This spell will also act as a shield"; it is not stopped by another counter-spell.
    Spell("counter_spell", "Counter-spell", ("W-P-P", "W-W-S"), P, SELF, 13, Does.COUNTER,
          reflectable=False, passes_counter=True, shields=True),
    # "As with a counter-spell it also acts as a shield for its subject"
    Spell("dispel_magic", "Dispel magic", ("C-D-P-W",), P, SELF, 14, Does.DISPEL,
          reflectable=False, passes_counter=True),
    # "It therefore cannot be stopped by a counter-spell" (on a corpse; resolve.py)
    Spell("raise_dead", "Raise dead", ("D-W-W-F-W-C",), P, SELF, 15, Does.RAISE_DEAD, amount=5,
          passes_counter=True),
    Spell("cure_light_wounds", "Cure light wounds", ("D-F-W",), P, SELF, 16, Does.CURE,
          amount=1),
    Spell("cure_heavy_wounds", "Cure heavy wounds", ("D-F-P-W",), P, SELF, 17, Does.CURE,
          amount=2, also_cures=(EffectKind.DISEASE,)),  # "will also cure any diseases"
    # Summoning
    Spell("summon_goblin", "Summon goblin", ("S-F-W",), SU, SELF, 20, Does.SUMMON,
          summons="goblin"),
    Spell("summon_ogre", "Summon ogre", ("P-S-F-W",), SU, SELF, 21, Does.SUMMON, summons="ogre"),
    Spell("summon_troll", "Summon troll", ("F-P-S-F-W",), SU, SELF, 22, Does.SUMMON,
          summons="troll"),
    Spell("summon_giant", "Summon giant", ("W-F-P-S-F-W",), SU, SELF, 23, Does.SUMMON,
          summons="giant"),
    Spell("summon_elemental", "Summon elemental", ("C-S-W-W-S",), SU, SELF, 24, Does.SUMMON,
          discardable=False, summons="elemental", asks=Ask.ELEMENT),
    # Damaging
    Spell("missile", "Missile", ("S-D",), DA, OPP, 30, Does.DAMAGE, amount=1,
          stopped_by_shield=True, hit_text="The missile hits {subject} for {amount}."),
    # "except dispel magic and finger of death" pass a counter-spell
    Spell("finger_of_death", "Finger of death", ("P-W-P-F-S-S-S-D",), DA, OPP, 31, Does.DEATH,
          passes_counter=True),
    Spell("lightning_bolt", "Lightning bolt", ("D-F-F-D-D", "W-D-D-C"), DA, OPP, 32,
          Does.DAMAGE, once_per_battle=("W-D-D-C",), amount=5,
          hit_text="Lightning strikes {subject} for {amount}."),
    Spell("cause_light_wounds", "Cause light wounds", ("W-F-P",), DA, OPP, 33, Does.DAMAGE,
          amount=2, hit_text="Light wounds open on {subject}: {amount} damage."),
    Spell("cause_heavy_wounds", "Cause heavy wounds", ("W-P-F-D",), DA, OPP, 34, Does.DAMAGE,
          amount=3, hit_text="Heavy wounds open on {subject}: {amount} damage."),
    Spell("fireball", "Fireball", ("F-S-S-D-D",), DA, OPP, 35, Does.DAMAGE, amount=5,
          element=Element.FIRE, hit_text="The fireball engulfs {subject}: {amount} damage."),
    Spell("fire_storm", "Fire storm", ("S-W-W-C",), DA, NOBODY, 36, Does.STORM,
          discardable=False, amount=5, element=Element.FIRE, reflectable=False, blanket=True,
          hit_text="The fire storm hits {subject} for {amount}."),
    Spell("ice_storm", "Ice storm", ("W-S-S-C",), DA, NOBODY, 37, Does.STORM, discardable=False,
          amount=5, element=Element.ICE, reflectable=False, blanket=True,
          hit_text="The ice storm hits {subject} for {amount}."),
    # Enchantments.  Mind spells: "If the subject of this spell is simultaneously the subject of
    # any of confusion, charm person, charm monster, paralysis or fear then none of the spells
    # work"; permanency extends any "(except anti-spell, disease, poison, or time-stop)".
    Spell("amnesia", "Amnesia", ("D-P-P",), EN, OPP, 40, mind=True, repeats_last=True,
          lasts=NEXT_TURN, may_be_permanent=True),
    Spell("confusion", "Confusion", ("D-S-F",), EN, OPP, 41, mind=True, lasts=NEXT_TURN,
          may_be_permanent=True, on_monster=OnMonster.ATTACKS_AT_RANDOM),
    Spell("charm_person", "Charm person", ("P-S-D-F",), EN, OPP, 42, mind=True,
          gives_control=True, lasts=NEXT_TURN, may_be_permanent=True,
          on_monster=OnMonster.NOTHING, asks=Ask.CHARMED_HAND),
    Spell("charm_monster", "Charm monster", ("P-S-D-D",), EN, OPP, 43, Does.TAKE_MONSTER,
          mind=True, gives_control=True, may_be_permanent=True),
    Spell("paralysis", "Paralysis", ("F-F-F",), EN, OPP, 44, mind=True, gives_control=True,
          lasts=NEXT_TURN, may_be_permanent=True, on_monster=OnMonster.NOT_ELEMENTAL,
          asks=Ask.PARALYSED_HAND),
    Spell("fear", "Fear", ("S-W-D",), EN, OPP, 45, mind=True, lasts=NEXT_TURN,
          may_be_permanent=True, on_monster=OnMonster.NOTHING),
    Spell("anti_spell", "Anti-spell", ("S-P-F",), EN, OPP, 46, Does.UNDO,
          on_monster=OnMonster.NOTHING),
    # "For this turn and the following 3 turns"
    Spell("protection_from_evil", "Protection from evil", ("W-W-P",), EN, SELF, 47,
          shields=True, lasts=Lasting(0, 3), may_be_permanent=True),
    # Resistances are permanent by nature ("permanently resistant")
    Spell("resist_heat", "Resist heat", ("W-W-F-P",), EN, SELF, 48, element=Element.FIRE,
          lasts=Lasting(0, None), may_be_permanent=True),
    Spell("resist_cold", "Resist cold", ("S-S-F-P",), EN, SELF, 49, element=Element.ICE,
          lasts=Lasting(0, None), may_be_permanent=True),
    # "kill him at the end of 6 turns counting from the one upon which the spell is cast"
    Spell("disease", "Disease", ("D-S-F-F-F-C",), EN, OPP, 50, lasts=Lasting(0, 5, fatal=True)),
    Spell("poison", "Poison", ("D-W-W-F-W-D",), EN, OPP, 51, lasts=Lasting(0, 5, fatal=True)),
    Spell("blindness", "Blindness", ("D-W-F-F-(d",), EN, OPP, 52, lasts=THREE_TURNS,
          may_be_permanent=True, on_monster=OnMonster.DESTROY),
    Spell("invisibility", "Invisibility", ("P-P-(w-(s",), EN, SELF, 53, lasts=THREE_TURNS,
          may_be_permanent=True, on_monster=OnMonster.DESTROY_AFTER_ATTACK),
    Spell("haste", "Haste", ("P-W-P-W-W-C",), EN, SELF, 54, lasts=THREE_TURNS,
          may_be_permanent=True),
    Spell("time_stop", "Time stop", ("S-P-P-C",), EN, SELF, 55, Does.TIME_STOP),
    # "provided it is on this turn or one of the next 3"; "A permanency spell cannot increase
    # its own duration, nor the duration of spells saved by a delayed effect" (docs/rules.md).
    Spell("delayed_effect", "Delayed effect", ("D-W-S-S-S-P",), EN, SELF, 56, Does.BANK,
          lasts=Lasting(0, 3), on_monster=OnMonster.NOTHING),
    Spell("permanency", "Permanency", ("S-P-F-P-S-D-W",), EN, SELF, 57, Does.EXTEND,
          lasts=Lasting(0, 3), on_monster=OnMonster.NOTHING),
)

SPELLS: Final[dict[str, Spell]] = {s.key: s for s in _TABLE}

# Surrender is "not a spell": it is recognised separately and never appears in SPELLS.
SURRENDER_SEQUENCE: Final[str] = "(p"

MONSTERS: Final[dict[str, MonsterKind]] = {m.key: m for m in (
    MonsterKind("goblin", "goblin", 1, 1),
    MonsterKind("ogre", "ogre", 2, 2),
    MonsterKind("troll", "troll", 3, 3),
    MonsterKind("giant", "giant", 4, 4),
    MonsterKind("fire_elemental", "fire elemental", 3, 3, Element.FIRE),
    MonsterKind("ice_elemental", "ice elemental", 3, 3, Element.ICE),
)}
# A summoned elemental before its subject has chosen fire or ice (only inside one turn).
UNCHOSEN_ELEMENTAL: Final[str] = "elemental"


def elemental_kind(element: Element) -> str:
    """The monster kind of an elemental of this element."""
    return f"{element.value}_elemental"


# Derived views of the facts, kept for readers of the old names.
MIND_SPELLS: Final[frozenset[str]] = frozenset(s.key for s in _TABLE if s.mind)
NEVER_PERMANENT: Final[frozenset[str]] = frozenset(
    s.key for s in _TABLE if s.category is Category.ENCHANTMENT and not s.may_be_permanent)
NOT_PERMANENT: Final[frozenset[str]] = NEVER_PERMANENT - {EffectKind.DELAYED_EFFECT.value,
                                                          EffectKind.PERMANENCY.value}


RECOGNITION_MEMO: Final = 10_000  # entries of one table's recognition memo (a few MB at most)


class SpellTable(Mapping[str, Spell]):
    """A ruleset's spells: rows in a stable order (the order the wire format and the reference
    list them in), found by key; every sequence is parsed once, here, for recognition."""

    def __init__(self, rows: tuple[Spell, ...]) -> None:
        self.rows: Final = rows
        self._by_key: Final = {s.key: s for s in rows}
        if len(self._by_key) != len(rows):
            raise ValueError("two spells of one table share a key")
        # (spell key, sequence text, steps) for every sequence of every spell, in row order
        self.sequences: Final = tuple((s.key, text, steps) for s in rows
                                      for text, steps in zip(s.sequences, s.parsed, strict=True))
        self.order: Final = {s.key: i for i, s in enumerate(rows)}
        self._ending: dict[tuple[str, str], tuple[tuple[str, str, tuple[Step, ...]], ...]] = {}
        # the most steps a sequence has: recognition never looks further back than this
        self.longest: Final = max((len(q[2]) for q in self.sequences), default=0)
        # recognize.py's answers for this table, keyed on the rows it reads (so two tables
        # never share one); bounded, for the search asks the same histories again and again
        self.recognised: Final[Bounded[Hashable, Any]] = Bounded(RECOGNITION_MEMO)
        self._storms: Final = {s.element: s for s in rows
                               if s.does is Does.STORM and s.element is not None}

    def __getitem__(self, key: str) -> Spell:
        return self._by_key[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._by_key)

    def __len__(self) -> int:
        return len(self.rows)

    def ending_with(self, left: str, right: str) -> tuple[tuple[str, str, tuple[Step, ...]],
                                                          ...]:
        """The sequences (as in `sequences`, in the same order) whose last step a gesture set
        (left, right) could make: recognition looks at these only (cached per table)."""
        pair = (left, right)
        found = self._ending.get(pair)
        if found is None:
            found = tuple(q for q in self.sequences if q[2][-1].gesture in pair)
            self._ending[pair] = found
        return found

    def keys_in_order(self) -> tuple[str, ...]:
        """Every spell key in row order."""
        return tuple(s.key for s in self.rows)

    def storm_of(self, element: Element) -> Spell:
        """The blanket spell of this element (fire storm, ice storm)."""
        return self._storms[element]


STANDARD_TABLE: Final = SpellTable(_TABLE)


def storm_of(element: Element) -> Spell:
    """The standard table's blanket spell of this element (fire storm, ice storm)."""
    return STANDARD_TABLE.storm_of(element)


def spell(key: str) -> Spell:
    """The spell with this key; raises KeyError for an unknown key."""
    return SPELLS[key]


def all_spells() -> tuple[Spell, ...]:
    """Every spell in table order."""
    return _TABLE
