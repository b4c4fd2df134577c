"""What the opponent needs to know about each spell, derived from a spell table's rows.

Every value the search uses comes from a row's facts (category, usual target, sequence length,
what it does and how much, what stops it, how long it lasts, what it summons, cures or shields)
of the table the game is played with; no spell is named here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType
from typing import Final

from ..model import MONSTER_STATS
from ..situation import FEAR_BANNED, PARALYSED_FORM
from ..spells import (
    STANDARD_TABLE,
    UNCHOSEN_ELEMENTAL,
    Ask,
    Category,
    Does,
    EffectKind,
    Element,
    Spell,
    SpellTable,
    UsualTarget,
    elemental_kind,
)

KILLS = -1
# The answers to a spell, named by what the answering spell does: shield, counter, mirror.
SHIELD, COUNTER, MIRROR = Does.SHIELD.value, Does.COUNTER.value, Does.MIRROR.value
ANSWERS = (SHIELD, COUNTER, MIRROR)
# What a spell that strips enchantments (or every spell on its subject) does to deadly ones.
_STRIPS = (Does.REMOVE_ENCHANTMENT, Does.DISPEL)
# How a breaker (facts `breaks`) stops the gesture its subject's hand would make next turn
# (facts `grip`; `break_odds` below):
UNDOES = "undoes"  # anti-spell: "must restart a new spell from the beginning"
WRITES = "writes"  # charm person: "the caster ... writes down the gesture" of the hand
FREEZES = "freezes"  # paralysis: the hand keeps its gesture, C, S or W made F, D or P
REPEATS = "repeats"  # amnesia: "repeat identically the gestures he made in the current turn"
BANS = "bans"  # fear: "cannot perform a C, D, F or S gesture"
DICE = "dice"  # confusion (or another mind spell): a die picks the hand and the gesture
# Confusion: "left hand on 1-3, right on 4-6", then one of six gestures, so the hand a
# sequence needs is changed to another gesture with this chance.
DICE_ODDS = 0.5 * 5 / 6


@dataclass(frozen=True, slots=True)
class SpellFacts:
    """What the opponent weighs about one spell."""

    key: str
    name: str
    steps: int  # gestures in its shortest sequence
    hostile: bool  # aimed at the other side when no target is named
    blanket: bool  # hits everyone (storms)
    damage: int  # points of damage, KILLS for finger of death
    stopped_by: frozenset[str]  # answers that stop it: shield, counter, mirror
    deadly: bool  # kills its subject in six turns unless cured
    cures: frozenset[str]  # deadly enchantments it removes
    answer: str  # the answer it is (shield, counter, mirror) or ""
    monster: str  # the monster it summons
    mind: bool  # takes over its subject's mind (paralysis, charm, ...)
    repeats_last: bool  # its subject repeats his last gestures (amnesia)
    # Cast at the enemy, it breaks a sequence his hands have under way: a mind spell on a wizard
    # (paralysis, amnesia, fear, charm person, confusion) or one that undoes sequences (anti-
    # spell).  The one way to stop a finger of death the wizard cannot mirror.
    breaks: bool
    grip: str  # how it breaks (UNDOES, WRITES, FREEZES, REPEATS, BANS, DICE; "": it does not)
    turns: int  # turns its effect lasts (1: this turn only; FOREVER: permanent)
    value: float  # what casting it at the enemy is worth, before the situation


def _damage(s: Spell) -> int:
    """Points of damage the spell does to its subject (KILLS for a killing spell)."""
    if s.does is Does.DEATH:
        return KILLS
    return s.amount if s.does in (Does.DAMAGE, Does.STORM) else 0


def _stopped_by(s: Spell) -> frozenset[str]:
    """The answers that stop this spell: a shield (missile), a counter-spell, a mirror."""
    return frozenset(a for a, stops in ((SHIELD, s.stopped_by_shield),
                                        (COUNTER, not s.passes_counter),
                                        (MIRROR, s.reflectable)) if stops)


def _answer(s: Spell) -> str:
    """The answer this spell is: a mirror, a counter (counter-spell, dispel), a shield, or ""."""
    if s.does is Does.MIRROR:
        return MIRROR
    if s.does in (Does.COUNTER, Does.DISPEL):
        return COUNTER
    return SHIELD if s.shields else ""


def _breaks(s: Spell) -> bool:
    """Whether the spell, cast at the enemy wizard, breaks what his hands have under way."""
    at_enemy = s.usual_target is UsualTarget.OPPONENT
    return at_enemy and ((s.does is Does.ENCHANT and s.mind) or s.does is Does.UNDO)


def _grip(s: Spell) -> str:
    """How a breaker stops its subject's next gesture ("": the spell is no breaker)."""
    if not _breaks(s):
        return ""
    if s.does is Does.UNDO:
        return UNDOES
    if s.asks is Ask.CHARMED_HAND:
        return WRITES
    if s.asks is Ask.PARALYSED_HAND:
        return FREEZES
    if s.repeats_last:
        return REPEATS
    if s.key == EffectKind.FEAR.value:  # the effect's rule is the engine's (situation.py)
        return BANS
    return DICE


def break_odds(f: SpellFacts, made: str, wanted: str) -> float:
    """The chance that breaker `f`, landing on the turn a hand makes `made`, stops that hand
    making `wanted` next turn (amnesia on an S the next step repeats breaks nothing; a
    paralysis freezing the S before finger of death's D completes it)."""
    if f.grip in (UNDOES, WRITES):
        return 1.0
    if f.grip == FREEZES:
        return 0.0 if PARALYSED_FORM.get(made, made) == wanted else 1.0
    if f.grip == REPEATS:
        return 0.0 if made == wanted else 1.0
    if f.grip == BANS:
        return 1.0 if wanted in FEAR_BANNED else 0.0
    return DICE_ODDS if f.grip == DICE else 0.0


def _deadly(s: Spell) -> bool:
    """Whether its lasting effect kills the subject unless cured (disease, poison)."""
    return s.lasts is not None and s.lasts.fatal


def _monster(s: Spell) -> str:
    """The monster kind it summons; an elemental (fire or ice, chosen later) counts as fire."""
    if s.summons == UNCHOSEN_ELEMENTAL:
        return elemental_kind(Element.FIRE)
    return s.summons


FOREVER = 99


def _turns(s: Spell) -> int:
    """How many of its subject's turns the spell's effect lasts."""
    if s.lasts is None:
        return 1
    return FOREVER if s.lasts.end is None else s.lasts.end - s.lasts.start + 1


def _value(s: Spell, damage: int, deadly: bool, monster: str) -> float:
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
            return 7.0 if s.mind else 5.0
        return 4.0
    return 1.0  # protections are worth what they answer (see evaluate.py)


def _derive(s: Spell, table: SpellTable) -> SpellFacts:
    """The facts of one row of `table`."""
    damage, deadly, monster = _damage(s), _deadly(s), _monster(s)
    cures = {k.value for k in s.also_cures}
    if s.does in _STRIPS:
        cures |= {r.key for r in table.rows if _deadly(r)}
    return SpellFacts(
        key=s.key, name=s.name, steps=min(len(p) for p in s.parsed),
        hostile=s.usual_target is UsualTarget.OPPONENT,
        blanket=s.usual_target is UsualTarget.NOBODY, damage=damage, stopped_by=_stopped_by(s),
        deadly=deadly, cures=frozenset(cures), answer=_answer(s), monster=monster, mind=s.mind,
        repeats_last=s.repeats_last, breaks=_breaks(s), grip=_grip(s), turns=_turns(s),
        value=_value(s, damage, deadly, monster))


@dataclass(frozen=True, eq=False)
class Book:
    """One spell table with every row's facts, derived once.  Equal and hashed by identity
    (a `SpellTable` is an unhashable mapping), so the search's caches can key on it and a
    second ruleset's table never shares an entry with the standard one."""

    table: SpellTable
    by_key: Mapping[str, SpellFacts]

    def facts(self, key: str) -> SpellFacts:
        """The facts of spell `key` (KeyError for a spell this table lacks)."""
        return self.by_key[key]

    def knows(self, key: str) -> bool:
        """Whether `key` is a spell of this table (an effect kind may be no spell)."""
        return key in self.by_key


# One book per table, by identity; the entry holds the table, so its id is never reused.
_BY_TABLE: dict[int, Book] = {}


def book_of(table: SpellTable) -> Book:
    """The facts of every row of `table`, derived once per table."""
    entry = _BY_TABLE.get(id(table))
    if entry is None or entry.table is not table:
        entry = Book(table, MappingProxyType({s.key: _derive(s, table) for s in table.rows}))
        _BY_TABLE[id(table)] = entry
    return entry


STANDARD_BOOK: Final = book_of(STANDARD_TABLE)


def facts(key: str, table: SpellTable = STANDARD_TABLE) -> SpellFacts:
    """The facts about spell `key` of `table` (KeyError for an unknown spell)."""
    return book_of(table).facts(key)


@lru_cache(maxsize=64)
def answer_spells(answer: str, book: Book = STANDARD_BOOK) -> tuple[SpellFacts, ...]:
    """Spells that are this answer (e.g. every spell that acts as a shield)."""
    return tuple(f for f in book.by_key.values() if f.answer == answer)


@lru_cache(maxsize=16)
def deadly_kinds(book: Book = STANDARD_BOOK) -> frozenset[str]:
    """Effect kinds that kill their subject unless cured."""
    return frozenset(f.key for f in book.by_key.values() if f.deadly)


@lru_cache(maxsize=16)
def fresh_reach(book: Book = STANDARD_BOOK) -> Mapping[str, int]:
    """For each answer kind, the fewest gestures that cast one from scratch (99: the table
    has no such answer)."""
    return MappingProxyType({a: min((f.steps for f in answer_spells(a, book)), default=99)
                             for a in ANSWERS})


@lru_cache(maxsize=16)
def quick_shields(book: Book = STANDARD_BOOK) -> frozenset[str]:
    """The gestures that alone, on one hand, cast a shield (the standard table's P)."""
    return frozenset(steps[0].gesture for key, _, steps in book.table.sequences
                     if len(steps) == 1 and not steps[0].both_hands and
                     book.facts(key).answer == SHIELD)


@lru_cache(maxsize=16)
def two_handed(book: Book = STANDARD_BOOK) -> tuple[str, ...]:
    """The gestures some sequence of the table makes with both hands at once (never P: both
    hands making P is a surrender), in the order the table first uses them."""
    seen: dict[str, None] = {}
    for _, _, steps in book.table.sequences:
        for st in steps:
            if st.both_hands and st.gesture != "P":
                seen.setdefault(st.gesture)
    return tuple(seen)


def resisting(element: str, book: Book = STANDARD_BOOK) -> tuple[str, ...]:
    """Enchantment kinds that protect from an elemental (or storm) of this element."""
    return tuple(s.key for s in book.table.rows if s.does is Does.ENCHANT and
                 s.element is not None and s.element.value == element)


@lru_cache(maxsize=16)
def breaker_starts(book: Book = STANDARD_BOOK) -> tuple[tuple[str, int, SpellFacts], ...]:
    """(first gesture, gestures in all, facts) of every one-handed sequence of a spell that
    breaks the enemy's sequences (facts `breaks`), quickest first."""
    return tuple(sorted({(steps[0].gesture, len(steps), book.facts(key))
                         for key, _, steps in book.table.sequences
                         if book.facts(key).breaks and not steps[0].both_hands},
                        key=lambda gs: (gs[1], gs[0], gs[2].key)))
