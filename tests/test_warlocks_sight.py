"""Scenario tests of the Warlocks' targeting rules: a blind wizard aims only at himself, an
invisible wizard cannot be aimed at by anyone else, both judged at the start of the turn; remove
enchantment's usual target is the opponent.  These rest on issue 14 (docs/rules.md, "Warlocks":
the stored Warlocks pages do not cover them).
"""

from __future__ import annotations

from dsl import Duel, Script, cast, problems

from wavinghands.preview import preview

W = "warlocks"
BLIND_B = "D W F F D - / - - - - D -"  # A: blindness at B on turn 5: blind on turns 6-8


def test_a_blind_wizard_can_aim_a_spell_only_at_himself() -> None:
    d = Duel(A=BLIND_B, B="- - - - S - / - - - - - -", ruleset=W).run(5)
    game = d.game
    assert "blindness" in d.effects("B")
    missile = {"gestures": [["D", "-"]], "casts": [cast("L", "missile", "W0")]}
    assert problems(game, "B", missile) == ["out-of-reach"]
    own = {"gestures": [["D", "-"]], "casts": [cast("L", "missile", "W1")]}
    assert problems(game, "B", own) == []
    draft = preview(game, 1, {"gestures": [["D", "-"]]})
    target = next(q for q in draft["questions"] if q["kind"] == "target")
    assert {o["id"] for o in target["options"]} == {"W1", "none"}
    assert target["default"] == "none"  # his usual target, the opponent, is out of reach


def test_a_blind_wizards_missile_with_no_target_goes_to_nobody() -> None:
    script: Script = {"A": BLIND_B, "B": "- - - - S D / - - - - - -"}
    assert Duel(**script, ruleset=W).run().damage("A") == 0
    assert Duel(**script).run().damage("A") == 1  # standard: the blind may aim anywhere


def test_a_blind_wizard_can_stab_only_himself() -> None:
    script: Script = {"A": BLIND_B, "B": "- - - - - > / - - - - - -"}
    d = Duel(**script, ruleset=W).run(5)
    assert problems(d.game, "B", {"gestures": [[">", "-"]], "stab": "W0"}) == ["out-of-reach"]
    assert problems(d.game, "B", {"gestures": [[">", "-"]], "stab": "W1"}) == []
    d.run()
    assert d.damage("B") == 1 and d.damage("A") == 0
    standard = Duel(**script).run()
    assert standard.damage("A") == 1 and standard.damage("B") == 0


INVISIBLE_A = "P P W S - / - - W S -"  # A: invisibility on turn 4: unseen on turns 5-7


def test_an_invisible_wizard_cannot_be_aimed_at_by_anyone_else() -> None:
    d = Duel(A=INVISIBLE_A, B="- - - S - / - - - - -", ruleset=W).run(4)
    assert "invisibility" in d.effects("A")
    missile = {"gestures": [["D", "-"]], "casts": [cast("L", "missile", "W0")]}
    assert problems(d.game, "B", missile) == ["out-of-reach"]
    assert problems(d.game, "B", {"gestures": [[">", "-"]], "stab": "W0"}) == ["out-of-reach"]
    draft = preview(d.game, 1, {"gestures": [["D", "-"]]})
    target = next(q for q in draft["questions"] if q["kind"] == "target")
    assert "W0" not in {o["id"] for o in target["options"]} and target["default"] == "none"
    # He may still aim at himself.
    shield = {"gestures": [["P", "-"]], "casts": [cast("L", "shield", "W0")]}
    assert problems(d.game, "A", shield) == []


def test_invisibility_is_judged_at_the_start_of_the_turn() -> None:
    # On the turn the invisibility is cast, A may still be aimed at.
    d = Duel(A=INVISIBLE_A, B="- - S - - / - - - - -", ruleset=W).run(3)
    missile = {"gestures": [["D", "-"]], "casts": [cast("L", "missile", "W0")]}
    assert problems(d.game, "B", missile) == []


def test_remove_enchantment_is_aimed_at_the_opponent_by_default() -> None:
    d = Duel(A="P D W P / - - - -", ruleset=W).run()
    assert (0, "remove_enchantment", "W1") in d.casts()
    assert (0, "remove_enchantment", "W0") in Duel(A="P D W P / - - - -").run().casts()
