"""A spell is one row: the table's facts agree with the rules' own lists, every kind of effect has
its handler, monster stats exist once, and the typed domain keeps the saved JSON forms."""

from __future__ import annotations

import pytest
from citing import cite

from wavinghands.effects import HANDLERS
from wavinghands.model import (
    Decision,
    Effect,
    GestureRow,
    Monster,
    Phase,
    is_wizard,
    wizard_id,
    wizard_index,
)
from wavinghands.spells import (
    MONSTERS,
    NOT_PERMANENT,
    SPELLS,
    STANDARD_TABLE,
    UNCHOSEN_ELEMENTAL,
    Category,
    Does,
    EffectKind,
    Element,
    all_spells,
)


@cite("If the subject is simultaneously the subject of any of confusion, charm "
      "person, charm monster, paralysis or fear then none of the spells work")
def test_the_mind_spells_are_the_six_the_rules_name() -> None:
    mind = {s.key for s in all_spells() if s.mind}
    assert mind == {"amnesia", "confusion", "charm_person", "charm_monster", "paralysis", "fear"}


@cite("next turn he must repeat identically the gestures he made in the current turn")
def test_only_amnesia_makes_its_subject_repeat_his_last_gestures() -> None:
    assert {s.key for s in all_spells() if s.repeats_last} == {"amnesia"}


@cite("(except anti-spell, disease, poison, or time-stop)")
def test_permanency_extends_every_enchantment_but_four() -> None:
    assert {"anti_spell", "disease", "poison", "time_stop"} == NOT_PERMANENT
    extendable = {s.key for s in all_spells() if s.may_be_permanent}
    enchantments = {s.key for s in all_spells() if s.category is Category.ENCHANTMENT}
    # delayed effect and permanency wait for a spell rather than last (docs/rules.md)
    assert extendable == enchantments - NOT_PERMANENT - {"delayed_effect", "permanency"}


@cite("except dispel magic and finger of death")
def test_what_passes_a_counter_spell_and_what_a_mirror_turns_back() -> None:
    passes = {s.key for s in all_spells() if s.passes_counter}
    assert passes == {"counter_spell", "dispel_magic", "finger_of_death", "raise_dead"}
    not_reflected = {s.key for s in all_spells() if not s.reflectable}
    assert not_reflected == {"counter_spell", "magic_mirror", "dispel_magic", "fire_storm",
                             "ice_storm"}
    assert {s.key for s in all_spells() if s.blanket} == {"fire_storm", "ice_storm"}


def test_every_damage_and_cure_row_says_how_much_and_how_the_log_tells_it() -> None:
    for s in all_spells():
        if s.does in (Does.DAMAGE, Does.STORM, Does.CURE):
            assert s.amount > 0, s.key
        if s.does in (Does.DAMAGE, Does.STORM):
            text = s.hit_text.format(spell=s.name, subject="B", amount=s.amount)
            assert "B" in text and str(s.amount) in text, s.key
    assert [SPELLS[k].amount for k in ("missile", "cause_light_wounds", "cause_heavy_wounds",
                                       "lightning_bolt", "fireball")] == [1, 2, 3, 5, 5]


def test_each_effect_a_spell_has_on_its_own_has_a_handler() -> None:
    # Kinds the turn's phases handle themselves (targets, clashes, summons, enchantments) need
    # none; every other kind a row uses must have one, or the spell would silently do nothing.
    by_phases = {Does.SHIELD, Does.COUNTER, Does.MIRROR, Does.DISPEL, Does.REMOVE_ENCHANTMENT,
                 Does.SUMMON, Does.STORM, Does.ENCHANT, Does.UNDO, Does.TIME_STOP,
                 Does.TAKE_MONSTER, Does.BANK, Does.EXTEND}
    for s in all_spells():
        assert s.does in HANDLERS or s.does in by_phases, s.key
    assert set(HANDLERS) == {Does.DAMAGE, Does.DEATH, Does.CURE, Does.RAISE_DEAD}


def test_lasting_effects_are_exactly_the_enchantments_that_last() -> None:
    # Over every ruleset's table: an effect kind is laid by some ruleset's enchantment.
    from wavinghands.rulesets.base import VARIANTS
    lasting = {s.key for v in VARIANTS.values() for s in v.table.rows if s.lasts is not None}
    assert lasting == {k.value for k in EffectKind}
    for s in all_spells():
        if s.lasts is not None:
            assert s.category is Category.ENCHANTMENT, s.key


def test_monster_stats_exist_once() -> None:
    summoned = {s.summons for s in all_spells() if s.does is Does.SUMMON}
    assert summoned - {UNCHOSEN_ELEMENTAL} <= set(MONSTERS)
    for key, kind in MONSTERS.items():
        m = Monster("M1", key, 0, 1)
        assert (m.strength, m.toughness) == (kind.strength, kind.toughness)
        assert m.is_elemental == (kind.element is not None)
    assert {MONSTERS[f"{e.value}_elemental"].element for e in Element} == set(Element)


def test_the_table_keeps_a_stable_row_order_and_lists_spells_by_key() -> None:
    assert STANDARD_TABLE.keys_in_order() == tuple(s.key for s in all_spells())
    assert list(STANDARD_TABLE) == list(STANDARD_TABLE.keys_in_order())
    assert STANDARD_TABLE["missile"] is SPELLS["missile"]
    assert STANDARD_TABLE.storm_of(Element.ICE).key == "ice_storm"


@pytest.mark.parametrize("effect, detail", [
    (Effect(EffectKind.AMNESIA, 2, 2, 1, repeats=("F", ">")), "F>"),
    (Effect(EffectKind.AMNESIA, 2, 2, 1, target="W0"), "W0"),
    (Effect(EffectKind.AMNESIA, 2, 2, 1, target="M12"), "M12"),
    (Effect(EffectKind.PARALYSIS, 2, 2, 1, hand="L", gesture="-"), "L:-"),
    (Effect(EffectKind.CHARM_PERSON, 2, 2, 1, hand="R"), "R"),
    (Effect(EffectKind.CHARM_PERSON, 2, None, 1, True, hand="R", gesture=">"), "R:>"),
    (Effect(EffectKind.CONFUSION, 2, None, 1, True, hand="L", gesture="W"), "L:W"),
    (Effect(EffectKind.CONFUSION, 2, None, 1, True, target="M2"), "M2"),
    (Effect(EffectKind.HASTE, 2, 4, 1), ""),
])
def test_typed_effect_fields_keep_the_saved_detail_string(effect: Effect, detail: str) -> None:
    d = effect.to_json()
    assert d["detail"] == detail
    assert Effect.from_json(d) == effect


def test_earlier_answers_have_their_own_field_and_the_old_json_form() -> None:
    asked = Decision("paralysis:W1", "paralysis", 0, ("L", "R"), "Which hand?")
    phase = Phase("decision", 3, (0,), (asked,), pending_kind="orders",
                  answered=(("elemental:1:L", "fire"),))
    d = phase.to_json()
    # As saved games always held them: a decision of kind "answered" for nobody (-1).
    assert d["decisions"][1] == {"id": "elemental:1:L", "kind": "answered", "wizard": -1,
                                 "options": ["fire"], "prompt": "", "labels": []}
    again = Phase.from_json(d)
    assert again == phase
    assert again.decisions == (asked,)


def test_being_ids_are_parsed_in_one_place() -> None:
    # A melee has up to six wizards (W0 to W5, issue 29).
    assert [wizard_index(b) for b in ("W0", "W1", "M1", "none", "", "W2", "W5", "Wx")] == \
        [0, 1, None, None, None, 2, 5, None]
    assert is_wizard(wizard_id(1)) and not is_wizard("M3")
    assert GestureRow(1, "F", "P").kind == "normal"
