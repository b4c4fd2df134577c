"""The Warlocks ruleset's spell table: found by name, its spells recognised in a duel played under
it, its texts for the reference, and random duels under it keeping every invariant.

Quotes are from the vendored Warlocks rules pages (tests/citing.py, `cite_warlocks`); where the
stored pages do not cover a fact, the test says it rests on issue 14 (docs/rules.md, "Warlocks").
"""

from __future__ import annotations

import json
import os

from citing import cite_warlocks
from dsl import Duel, problems
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sizes import size
from test_properties import (
    _check_determinism_and_round_trips,
    _check_invariants,
    _check_views_leak_nothing_hidden,
)

from wavinghands import api
from wavinghands.playout import random_duel
from wavinghands.rulesets import RULESETS, STANDARD, find_ruleset
from wavinghands.spells import STANDARD_TABLE, Does

W = "warlocks"


def test_the_warlocks_ruleset_is_found_by_name_and_listed_for_the_page() -> None:
    found = find_ruleset(W)
    assert found.name == W and found != STANDARD
    assert W in RULESETS
    listed = json.loads(api.rulesets())["rulesets"]
    assert [r["name"] for r in listed] == ["standard", W]  # the default stays first
    out = json.loads(api.new_game(json.dumps({"names": ["A", "B"], "seed": "00ff00ff",
                                              "ruleset": {"name": W}})))
    assert out["ok"] and out["game"]["ruleset"] == {"name": W, "withhold": False}


def test_the_table_differs_from_the_standard_one_exactly_where_warlocks_does() -> None:
    table = find_ruleset(W).table
    standard = set(STANDARD_TABLE)
    assert set(table) - standard == {"maladroitness", "clap_of_lightning",
                                     "summon_fire_elemental", "summon_ice_elemental"}
    assert standard - set(table) == {"raise_dead", "confusion", "summon_elemental"}
    assert table["anti_spell"].sequences == ("S-P-F-P",)
    assert table["time_stop"].sequences == ("S-P-P-C", "S-P-P-F-D")
    assert table["blindness"].sequences == ("D-W-F-F-(d", "D-F-W-F-(d")
    assert table["lightning_bolt"].sequences == ("D-F-F-D-D",)
    assert table["clap_of_lightning"].once_per_battle == ("W-D-D-C",)
    assert table["clap_of_lightning"].amount == 5
    assert table["remove_enchantment"].usual_target.value == "opponent"
    # Every other row is the standard row itself.
    changed = {"anti_spell", "time_stop", "blindness", "lightning_bolt",
               "paralysis", "amnesia", "fear", "disease", "poison",  # their effect on monsters
               "remove_enchantment",  # its usual target
               "resist_heat", "resist_cold", "charm_monster",  # not permanency's
               "permanency", "delayed_effect"}  # permanency's (issue 26)
    for key in set(table) & standard - changed:
        assert table[key] is STANDARD_TABLE[key], key


def test_every_warlocks_spell_has_a_reference_text_and_the_standard_texts_stay() -> None:
    texts = find_ruleset(W).variant.descriptions()
    assert list(texts) == list(find_ruleset(W).table)
    assert texts["anti_spell"].startswith("gestures S-P-F-P")
    assert "D-F-W-F-(d" in texts["blindness"] and "S-P-P-F-D" in texts["time_stop"]
    standard = STANDARD.variant.descriptions()
    assert "gestures S-P-F." in standard["anti_spell"]
    assert texts["missile"] == standard["missile"]


@cite_warlocks("gestures", "If a caster completes a series of Gestures that make up a Spell, "
               "intentionally or unintentionally, the Spell must be released")
def test_a_warlocks_spell_must_be_released_even_with_the_withhold_flag() -> None:
    from wavinghands.rulesets import Ruleset

    assert not Ruleset(W, withhold=True).may_withhold
    d = Duel(A="S / -", B="- / -", withhold=True, ruleset=W).run()
    withheld = {"gestures": [["D", "-"]], "casts": [{"set": 0, "hand": "L", "spell": None}]}
    assert problems(d.game, "A", withheld) != []
    standard = Duel(A="S / -", B="- / -", withhold=True).run()
    assert problems(standard.game, "A", withheld) == []


@cite_warlocks("gestures", "SPFP is Anti-spell")
def test_anti_spell_is_s_p_f_p_and_s_p_f_is_nothing() -> None:
    d = Duel(A="S P F P / - - - -", B="- - - - / - - - -", ruleset=W).run()
    assert (0, "anti_spell", "W1") in d.casts()
    short = Duel(A="S P F / - - -", B="- - - / - - -", ruleset=W).run()
    assert not any(spell == "anti_spell" for _, spell, _ in short.casts())


def test_raise_dead_is_no_warlocks_spell() -> None:
    # Issue 14 (the stored pages hold no spell list): "no raise dead".
    d = Duel(A="D W W F W C / - - - - - C", ruleset=W).run()
    assert not any(spell == "raise_dead" for _, spell, _ in d.casts())


def test_d_s_f_casts_maladroitness_where_the_standard_rules_cast_confusion() -> None:
    # Issue 14: "confusion is replaced by maladroitness (D-S-F)".
    d = Duel(A="D S F / - - -", ruleset=W).run()
    assert (0, "maladroitness", "W1") in d.casts()
    assert "maladroitness" in d.effects("B")
    standard = Duel(A="D S F / - - -").run()
    assert (0, "confusion", "W1") in standard.casts()


def test_time_stop_has_a_second_sequence() -> None:
    # Issue 14: "time stop gains S-P-P-F-D".
    d = Duel(A="S P P F D / - - - - -", ruleset=W).extra(5, "A", "-/-").run()
    assert (0, "time_stop", "W0") in d.casts()


def test_blindness_has_a_second_sequence() -> None:
    # Issue 14: "blindness gains D-F-W-F-(d".
    d = Duel(A="D F W F D / - - - - D", ruleset=W).run()
    assert (0, "blindness", "W1") in d.casts()
    assert "blindness" in d.effects("B")


def test_fire_and_ice_elementals_are_two_spells_asking_nobody_for_the_element() -> None:
    # Issue 14: "fire and ice elementals are two spells (C-W-S-S-W and C-S-W-W-S)".
    fire = Duel(A="C W S S W / C - - - -", ruleset=W).run()
    assert [m.kind for m in fire.monsters()] == ["fire_elemental"]
    assert not fire.decision_log
    ice = Duel(A="C S W W S / C - - - -", ruleset=W).run()
    assert [m.kind for m in ice.monsters()] == ["ice_elemental"]


def test_clap_of_lightning_does_five_once_per_battle_and_lightning_bolt_stays() -> None:
    # Issue 14: "W-D-D-C is a separate clap of lightning (5 damage, once per match)".
    d = Duel(A="W D D C W D D C / - - - C - - - C", ruleset=W).run()
    assert [s for _, s, _ in d.casts()] == ["clap_of_lightning"]
    assert d.damage("B") == 5
    bolt = Duel(A="D F F D D / - - - - -", ruleset=W).run()
    assert [s for _, s, _ in bolt.casts()] == ["lightning_bolt"] and bolt.damage("B") == 5


def test_the_warlocks_table_names_no_row_of_what_it_dropped() -> None:
    table = find_ruleset(W).table
    assert not any(s.does is Does.RAISE_DEAD for s in table.values())
    assert all(s.summons != "elemental" for s in table.values())


# Random Warlocks duels (tests/sizes.py: 12 by default, 80 under --deep, 20 in Pyodide): the
# first four already reach monsters, hidden gestures, a time stop, a blind wizard, a win and a draw.
EXAMPLES = int(os.environ.get("WH_PROPERTY_EXAMPLES", size(12, deep=80, pyodide=20)))


@settings(max_examples=EXAMPLES, deadline=None, derandomize=not os.environ.get(
    "WH_PROPERTY_RANDOM"), suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_random_warlocks_duels_keep_every_invariant(seed: int) -> None:
    history = random_duel(seed, max_turns=30, ruleset=W)
    assert history[0][0].ruleset.name == W
    _check_invariants(history, monster_floor=-1)  # cured one above starting health
    _check_determinism_and_round_trips(history)
    _check_views_leak_nothing_hidden(history)
