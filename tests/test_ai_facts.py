"""The opponent's spell facts come from the rows of the table it is given, nothing else."""

from __future__ import annotations

import dataclasses

from citing import cite

from wavinghands.ai.facts import (
    DICE_ODDS,
    KILLS,
    answer_spells,
    break_odds,
    deadly_kinds,
    facts,
    resisting,
)
from wavinghands.spells import STANDARD_TABLE, SpellTable


@cite("except dispel magic and finger of death")
def test_what_stops_a_spell_is_read_from_its_row() -> None:
    assert facts("missile").stopped_by == {"shield", "counter", "mirror"}
    assert facts("finger_of_death").stopped_by == {"mirror"}
    assert facts("finger_of_death").damage == KILLS
    assert facts("fire_storm").stopped_by == {"counter"} and facts("fire_storm").blanket
    assert facts("lightning_bolt").damage == 5 and facts("cure_heavy_wounds").damage == 0


def test_answers_cures_summons_and_resistances_come_from_the_rows() -> None:
    assert [f.key for f in answer_spells("shield")] == ["shield", "protection_from_evil"]
    assert [f.key for f in answer_spells("counter")] == ["counter_spell", "dispel_magic"]
    assert [f.key for f in answer_spells("mirror")] == ["magic_mirror"]
    assert deadly_kinds() == {"disease", "poison"}
    assert facts("cure_heavy_wounds").cures == {"disease"}
    assert facts("remove_enchantment").cures == facts("dispel_magic").cures == {"disease",
                                                                               "poison"}
    assert facts("summon_troll").monster == "troll"
    assert facts("summon_elemental").monster == "fire_elemental"
    assert resisting("fire") == ("resist_heat",) and resisting("ice") == ("resist_cold",)
    assert facts("amnesia").repeats_last and not facts("confusion").repeats_last


def test_a_table_passed_in_is_the_one_read() -> None:
    rows = tuple(dataclasses.replace(s, amount=2) if s.key == "missile" else s
                 for s in STANDARD_TABLE.rows)
    other = SpellTable(rows)
    assert facts("missile", other).damage == 2
    assert facts("missile").damage == 1  # the standard table's facts are untouched
    assert facts("missile", other).value > facts("missile").value


@cite("it is instead paralyzed into F, D or P respectively",
      "next turn he must repeat identically the gestures he made in the current turn",
      "the subject cannot perform a C, D, F or S gesture",
      "the caster of the spell writes down the gesture he wants the subject's named hand to "
      "perform",
      "must restart a new spell from the beginning of that spell sequence",
      "The first die indicates left hand on 1-3, right on 4-6")
def test_a_breaker_is_judged_by_the_step_it_lands_on() -> None:
    # Landing on finger of death's last S (the D wanted next): fear forbids the D and amnesia
    # repeats the S, but paralysis freezes the S into the very D (it completes the spell).
    odds = {k: break_odds(facts(k), "S", "D") for k in
            ("fear", "amnesia", "paralysis", "charm_person", "anti_spell", "confusion")}
    assert odds == {"fear": 1.0, "amnesia": 1.0, "paralysis": 0.0, "charm_person": 1.0,
                    "anti_spell": 1.0, "confusion": DICE_ODDS}
    # Landing on the S before it (an S wanted next): amnesia repeats it (no break), paralysis
    # freezes it into a D (a break), fear forbids it.
    assert break_odds(facts("amnesia"), "S", "S") == 0.0
    assert break_odds(facts("paralysis"), "S", "S") == 1.0
    assert break_odds(facts("fear"), "S", "S") == 1.0
    # A spell that breaks nothing, and fear on a gesture it allows.
    assert break_odds(facts("shield"), "S", "D") == 0.0
    assert break_odds(facts("fear"), "P", "W") == 0.0
