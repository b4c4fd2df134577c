"""The Warlocks ruleset: the duel as RavenBlack's Warlocks (games.ravenblack.net) plays it, in its
"ParaFC Maladroit" form (docs/rules.md, "Warlocks").

Its spell table is the standard one changed row by row (no raise dead; maladroitness for
confusion; anti-spell S-P-F-P; time stop also S-P-P-F-D; blindness also D-F-W-F-(d; fire and ice
elementals as two summons; W-D-D-C a spell of its own, clap of lightning).  The standard rows are
found by what they do, never by name, so this module spells out only the Warlocks' new keys.
Rules that differ in kind are the `Warlocks` variant's hook overrides.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Final

from ..spells import (
    NEXT_TURN,
    STANDARD_TABLE,
    UNCHOSEN_ELEMENTAL,
    Category,
    Does,
    EffectKind,
    Element,
    OnMonster,
    Spell,
    SpellTable,
    UsualTarget,
    elemental_kind,
)
from .base import Ruleset, Variant, register

NAME: Final = "warlocks"

# The Warlocks' new spells' keys (the changed standard rows keep theirs).
MALADROITNESS: Final = EffectKind.MALADROITNESS.value
CLAP_OF_LIGHTNING: Final = "clap_of_lightning"
CLAP: Final = "W-D-D-C"


def _summon_elemental(element: Element, sequence: str, priority: int) -> Spell:
    """One of the two elemental summons: "Summon Fire Elemental" cWSSW, "Summon Ice Elemental"
    cSWWS, each making an elemental of its own element (nobody chooses it after the reveal)."""
    kind = elemental_kind(element)
    # Elementals "cannot be countered" and have no controller to turn them back on.
    return Spell(f"summon_{kind}", f"Summon {element.value} elemental", (sequence,),
                 Category.SUMMON, UsualTarget.SELF, priority, Does.SUMMON, discardable=False,
                 summons=kind, passes_counter=True, reflectable=False)


# Mind spells that keep a monster from attacking in the turn they hit it (issue 14: "paralysis,
# amnesia, fear and maladroitness make a monster skip this turn's attack"); disease and poison
# kill a monster "at the end of the casting turn" (it attacks first).
SKIPPING: Final = frozenset({EffectKind.PARALYSIS.value, EffectKind.AMNESIA.value,
                             EffectKind.FEAR.value, MALADROITNESS})
KILLING: Final = frozenset({EffectKind.DISEASE.value, EffectKind.POISON.value})
# Issue 14: permanency works "only on haste, protection, paralysis, amnesia, maladroitness, fear,
# charm person, blindness, invisibility, permanency and delayed effect" (a permanent delayed
# effect or permanency waits for ever and takes every spell ordered to it: settle.py).
PERMANENT_ONES: Final = frozenset({
    EffectKind.HASTE.value, EffectKind.PROTECTION_FROM_EVIL.value, EffectKind.PARALYSIS.value,
    EffectKind.AMNESIA.value, MALADROITNESS, EffectKind.FEAR.value, EffectKind.CHARM_PERSON.value,
    EffectKind.BLINDNESS.value, EffectKind.INVISIBILITY.value, EffectKind.PERMANENCY.value,
    EffectKind.DELAYED_EFFECT.value})
# Issue 14: "The victim of a permanent paralysis, amnesia or charm person may forfeit."
FORFEIT_UNDER: Final = frozenset({EffectKind.PARALYSIS.value, EffectKind.AMNESIA.value,
                                  EffectKind.CHARM_PERSON.value})
# ParaFC: "F will paralyze to C"; C stays C; S and W as in the standard rules.
PARALYSED_FC: Final = {"F": "C", "C": "C", "S": "D", "W": "P"}


def _warlocks_rows(standard: SpellTable) -> tuple[Spell, ...]:
    """The standard rows, changed where the Warlocks' rules differ, in the standard order (new
    rows beside the row they come from)."""
    rows: list[Spell] = []
    for s in standard.rows:
        if s.does is Does.RAISE_DEAD:
            continue  # not a Warlocks spell
        if s.does is Does.REMOVE_ENCHANTMENT:
            rows.append(replace(s, usual_target=UsualTarget.OPPONENT))
        elif s.summons == UNCHOSEN_ELEMENTAL:
            rows.append(_summon_elemental(Element.FIRE, "C-W-S-S-W", s.priority))
            rows.append(_summon_elemental(Element.ICE, "C-S-W-W-S", s.priority))
        elif s.once_per_battle:
            # Lightning bolt keeps its long sequence; the short one is clap of lightning.
            rows.append(replace(s, sequences=tuple(q for q in s.sequences
                                                   if q not in s.once_per_battle),
                                once_per_battle=()))
            rows.append(replace(s, key=CLAP_OF_LIGHTNING, name="Clap of lightning",
                                sequences=(CLAP,), once_per_battle=(CLAP,)))
        elif s.key == EffectKind.CONFUSION.value:
            # "Maladroitness" D-S-F: next turn the subject's hands make one gesture together.
            rows.append(Spell(MALADROITNESS, "Maladroitness", ("D-S-F",), Category.ENCHANTMENT,
                              UsualTarget.OPPONENT, s.priority, mind=True, lasts=NEXT_TURN,
                              may_be_permanent=True, on_monster=OnMonster.SKIPS_ATTACK))
        elif s.does is Does.UNDO:
            rows.append(replace(s, sequences=("S-P-F-P",)))  # "SPFP is Anti-spell"
        elif s.does is Does.TIME_STOP:
            rows.append(replace(s, sequences=(*s.sequences, "S-P-P-F-D")))
        elif s.key == EffectKind.BLINDNESS.value:
            rows.append(replace(s, sequences=(*s.sequences, "D-F-W-F-(d")))
        elif s.key in SKIPPING:
            rows.append(replace(s, on_monster=OnMonster.SKIPS_ATTACK))
        elif s.key in KILLING:
            rows.append(replace(s, on_monster=OnMonster.DESTROY_AFTER_ATTACK))
        else:
            rows.append(s)
    return tuple(replace(r, may_be_permanent=r.key in PERMANENT_ONES)
                 if r.category is Category.ENCHANTMENT and
                 r.may_be_permanent != (r.key in PERMANENT_ONES) else r for r in rows)


WARLOCKS_TABLE: Final = SpellTable(_warlocks_rows(STANDARD_TABLE))


class Warlocks(Variant):
    """The Warlocks' rules: the standard hooks, overridden where Warlocks differs."""

    def may_withhold(self, ruleset: Ruleset) -> bool:
        """Never: "If a caster completes a series of Gestures that make up a Spell,
        intentionally or unintentionally, the Spell must be released" (gestures page)."""
        return False

    def paralysed_gesture(self, gesture: str) -> str:
        """A ParaFC game: "F will paralyze to C"; C stays C; S and W become D and P."""
        return PARALYSED_FC.get(gesture, gesture)

    def damage_after(self, damage: int, incoming: int, cured: int, monster: bool) -> int:
        """Cures never raise health above the maximum, so they do not offset the same turn's
        damage; a monster's maximum health is one above its starting health (damage -1)."""
        floor = -1 if monster else 0
        return max(floor, damage - cured) + incoming

    def unordered_target(self, last_target: str, enemy: str) -> str:
        """A monster keeps its last target until re-ordered ("when a Charm Monster spell affects
        a monster, it does not change the monster's target"); a new one attacks the enemy."""
        return last_target or enemy

    def merged_elemental(self, count: int) -> int:
        """The newest elemental of a kind absorbs the older ones."""
        return count - 1

    def forfeit_under(self) -> frozenset[str]:
        """The victim of a permanent paralysis, amnesia or charm person may forfeit."""
        return FORFEIT_UNDER

    def time_stop_ignores_effects(self) -> bool:
        """A time-stopped wizard's extra turn ignores lasting effects."""
        return True

    def time_stop_strikes_now(self) -> bool:
        """A time-stopped monster gets an extra attack in the same turn that ignores shields."""
        return True

    def hasted_turns(self) -> bool:
        """Haste gives a separate hasted turn after each of the next three normal turns
        (monsters do not attack in it, effects do not count down)."""
        return True

    def hands_in_orders(self) -> bool:
        """The paralysed and the charmed hand are chosen in the next turn's orders."""
        return True

    def ordered_bank(self) -> bool:
        """Delayed effect banks only on an order, keeps the target chosen when cast, and a later
        bank replaces the earlier."""
        return True

    def ordered_permanency(self) -> bool:
        """Permanency works only on an order."""
        return True

    def may_aim(self, caster: str, target: str, blind: frozenset[str],
                invisible: frozenset[str]) -> bool:
        """A blind wizard can only target or stab himself; an invisible wizard cannot be
        targeted by anyone else; both judged at the start of the turn."""
        if caster in blind:
            return target == caster
        return target == caster or target not in invisible

    def may_stab_self(self, caster: str, blind: frozenset[str]) -> bool:
        """The blind wizard's one target is himself, for his knife too."""
        return caster in blind


WARLOCKS: Final = register(Warlocks(
    NAME, "Warlocks",
    "The duel as RavenBlack's Warlocks plays it (a ParaFC Maladroit game): maladroitness "
    "instead of confusion, fire and ice elementals as two spells, clap of lightning, no raise "
    "dead, and the Warlocks' own rules for paralysis and charm (the hand named in the next "
    "orders), cures, monsters, targeting, delayed effect, permanency, time stop and haste "
    "(a separate hasted turn).",
    WARLOCKS_TABLE, (), texts=("data/spell_text.json", "data/spell_text_warlocks.json")))
