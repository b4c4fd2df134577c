"""Rulesets are a seam: found by name, owning their spell table and options, listed for the page,
and the JSON form of a game's rules stays readable (records written before rulesets load)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace

import pytest
from dsl import Duel

from wavinghands import api
from wavinghands.errors import WavingHandsError
from wavinghands.recognize import completed
from wavinghands.rulesets import (
    RULESETS,
    STANDARD,
    Ruleset,
    RulesetError,
    UnknownRuleset,
    Variant,
    find_ruleset,
)
from wavinghands.rulesets.base import VARIANTS
from wavinghands.spells import STANDARD_TABLE, Category, Does, Spell, SpellTable, UsualTarget


def test_the_standard_ruleset_is_found_by_name() -> None:
    assert "standard" in RULESETS
    found = find_ruleset("standard")
    assert found == STANDARD == Ruleset()
    assert found.table is STANDARD_TABLE
    assert not found.may_withhold


def test_an_unknown_ruleset_is_a_narrow_error_naming_the_known_ones() -> None:
    with pytest.raises(UnknownRuleset) as caught:
        find_ruleset("warlock")
    assert isinstance(caught.value, WavingHandsError)
    assert caught.value.code == "unknown-ruleset"
    assert "'warlock'" in str(caught.value) and "standard" in str(caught.value)


def test_the_page_lists_rulesets_and_their_options_from_the_engine() -> None:
    out = json.loads(api.rulesets())
    assert out["ok"]
    first = out["rulesets"][0]
    assert first["name"] == "standard" and first["title"]
    assert [o["key"] for o in first["options"]] == ["withhold"]
    withhold = first["options"][0]
    assert withhold["default"] is False
    assert "withheld" in withhold["label"] and "must be cast" in withhold["description"]


def test_a_new_game_naming_an_unknown_ruleset_is_refused() -> None:
    out = json.loads(api.new_game(json.dumps({"names": ["A", "B"], "seed": "00ff00ff",
                                              "ruleset": {"name": "spellbinder"}})))
    assert not out["ok"]
    assert out["error"]["code"] == "unknown-ruleset"


def test_the_withhold_option_travels_on_the_seam() -> None:
    out = json.loads(api.new_game(json.dumps({"names": ["A", "B"], "seed": "00ff00ff",
                                              "ruleset": {"name": "standard",
                                                          "withhold": True}})))
    assert out["ok"]
    assert out["game"]["ruleset"] == {"name": "standard", "withhold": True}
    assert Ruleset.from_json(out["game"]["ruleset"]).may_withhold


@pytest.mark.parametrize("old", [
    {"name": "standard", "withhold": False},
    {"name": "house", "withhold": True},  # what the page wrote before rulesets
    {"name": "house-withhold", "withhold": True},
    {"name": "random", "withhold": False},  # playout's games
    {"withhold": True},
    {},
])
def test_rulesets_written_before_the_seam_still_load_and_round_trip(old: dict[str, object]) -> None:
    r = Ruleset.from_json(old)
    assert r.table is STANDARD_TABLE  # every game before rulesets played the standard rules
    assert r.may_withhold is bool(old.get("withhold", False))
    again = Ruleset.from_json(r.to_json())
    assert again == r
    if "name" in old:
        assert r.to_json() == old  # kept as written: saved games' digests do not move


def test_a_ruleset_with_a_misspelt_option_is_refused() -> None:
    with pytest.raises(RulesetError) as caught:
        Ruleset.from_json({"name": "standard", "withold": True})
    assert caught.value.code == "bad-ruleset"
    assert "withold" in str(caught.value)


ZAP = Spell("zap", "Zap", ("F-D",), Category.DAMAGE, UsualTarget.OPPONENT, 38, Does.DAMAGE,
            amount=2, hit_text="A zap stings {subject} for {amount}.")


@pytest.fixture
def zap_rules() -> Iterator[Ruleset]:
    """A ruleset whose table is the standard one plus one plain damage spell (one row)."""
    variant = Variant("zap-test", "Zap test", "The standard rules and a zap.",
                      SpellTable((*STANDARD_TABLE.rows, ZAP)))
    VARIANTS[variant.name] = variant
    try:
        yield Ruleset(variant.name)
    finally:
        del VARIANTS[variant.name]


def test_recognition_reads_the_rulesets_own_table(zap_rules: Ruleset) -> None:
    rows = [("F", "-"), ("D", "-")]
    assert [c.spell for c in completed(rows, 0, 1, table=zap_rules.table)] == ["zap"]
    assert completed(rows, 0, 1, table=STANDARD_TABLE) == ()


def test_a_new_plain_damage_spell_is_one_row(zap_rules: Ruleset) -> None:
    d = Duel(A="F D / - -", B="- - / - -")
    d.game = replace(d.game, ruleset=zap_rules)
    d.states = [d.game]
    d.run()
    assert d.damage("B") == 2
    assert any(e.text == "A zap stings B for 2." for e in d.events)
    plain = Duel(A="F D / - -", B="- - / - -")
    plain.run()
    assert plain.damage("B") == 0  # the standard rules have no such spell
