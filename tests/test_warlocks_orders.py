"""Scenario tests of the Warlocks' order-driven delayed effect and permanency: a delayed effect
banks only the spell an order marks, keeps the target it was cast at, and a later bank replaces
the earlier; a permanency extends only the spell an order marks, and only the listed spells.
These rest on issue 14 (docs/rules.md, "Warlocks": the stored pages do not cover them).
"""

from __future__ import annotations

from dsl import Duel, Script, cast, problems

from wavinghands.preview import preview
from wavinghands.rulesets import find_ruleset

W = "warlocks"
DELAY = "D W S S S P S D"  # delayed effect on turn 6 (waiting turns 6-9), missile on turn 8
QUIET = "- - - - - - - -"


def test_delayed_effect_banks_nothing_without_an_order() -> None:
    script: Script = {"A": f"{DELAY} / {QUIET}"}
    assert Duel(**script, ruleset=W).run().damage("B") == 1  # the missile flies
    standard = Duel(**script).run()
    assert standard.damage("B") == 0 and standard.game.wizard(0).banked is not None


def test_delayed_effect_banks_the_ordered_spell_with_its_target() -> None:
    d = Duel(A=f"{DELAY} - / {QUIET} -", ruleset=W)
    d.orders(8, "A", {"casts": [cast("L", "missile", "W0", bank=True)]})
    d.run(8)
    banked = d.game.wizard(0).banked
    assert banked is not None and banked.target == "W0"
    assert d.view("A")["wizards"][0]["banked"]["target"] == "W0"
    # Released, it goes where it was aimed when cast; another target is refused.
    assert problems(d.game, "A", {"gestures": [["-", "-"]], "release": {"target": "W1"}}) == \
        ["release-target"]
    draft = preview(d.game, 0, {"gestures": [["-", "-"]]})
    release = next(q for q in draft["questions"] if q["kind"] == "release")
    assert release["default"] == "W0" and [o["id"] for o in release["options"]] == ["W0"]
    d.orders(9, "A", {"release": True})
    d.run()
    assert d.damage("A") == 1 and d.damage("B") == 0


def test_a_later_bank_replaces_the_earlier() -> None:
    # Two delayed effects (left on turn 6, right on turn 7); missiles on turns 8 and 9.
    d = Duel(A="D W S S S P S D - / - D W S S S P S D", ruleset=W)
    d.orders(8, "A", {"casts": [cast("L", "missile", bank=True)]})
    d.orders(9, "A", {"casts": [cast("R", "missile", "W0", bank=True)]})
    d.run()
    banked = d.game.wizard(0).banked
    assert banked is not None and banked.banked_turn == 9 and banked.target == "W0"
    assert "is lost: a new spell takes its place" in d.log_of("A")
    assert d.damage("B") == 0


def test_the_bank_question_is_optional_and_defaults_to_none() -> None:
    d = Duel(A=f"{DELAY} / {QUIET}", ruleset=W).run(7)
    draft = preview(d.game, 0, {"gestures": [["D", "-"]]})
    bank = next(q for q in draft["questions"] if q["kind"] == "bank")
    assert bank["optional"] is True and bank["default"] is None


PERMANENCY = "S P F P S D W D P P"  # permanency on turn 7 (waiting 7-10), amnesia on turn 10


def test_permanency_extends_nothing_without_an_order() -> None:
    script: Script = {"A": f"{PERMANENCY} / - - - - - - - - - -", "B": "- - - - - - - - - - / "
              "- - - - - - - - - -"}
    d = Duel(**script, ruleset=W).run()
    amnesia = [e for e in d.game.wizard(1).effects if e.kind.value == "amnesia"]
    assert amnesia and not amnesia[0].permanent
    standard = Duel(**script).run()
    assert any(e.kind.value == "amnesia" and e.permanent for e in standard.game.wizard(1).effects)


def test_permanency_extends_the_ordered_spell() -> None:
    d = Duel(A=f"{PERMANENCY} / - - - - - - - - - -", ruleset=W)
    d.orders(10, "A", {"casts": [cast("L", "amnesia", permanent=True)]})
    d.run()
    assert any(e.kind.value == "amnesia" and e.permanent for e in d.game.wizard(1).effects)


def test_permanency_works_only_on_the_listed_spells() -> None:
    table = find_ruleset(W).table
    assert {k for k, s in table.items() if s.may_be_permanent} == {
        "haste", "protection_from_evil", "paralysis", "amnesia", "maladroitness", "fear",
        "charm_person", "blindness", "invisibility", "permanency", "delayed_effect"}
    # Resist heat (its W-W-F-P starting on permanency's last W), ordered permanent, is not
    # taken: the permanency waits on; under the standard rules it takes it.
    script: Script = {"A": "S P F P S D W W F P / - - - - - - - - - -"}
    d = Duel(**script, ruleset=W)
    d.orders(10, "A", {"casts": [cast("L", "resist_heat", permanent=True)]})
    d.run()
    assert (0, "resist_heat", "W0") in d.casts()
    assert "Permanency takes hold" not in d.log()
    standard = Duel(**script)
    standard.orders(10, "A", {"casts": [cast("L", "resist_heat", permanent=True)]})
    assert "Permanency takes hold" in standard.run().log()
