"""Independent rules-fidelity review: scenarios where the engine departs from 000.

Each test states what 000 requires; a failing test here is a bug report for the lead (see the
review notes for the argument).  Notation: tests/dsl.py.
"""

from __future__ import annotations

from citing import cite
from dsl import Duel, cast, problems

from wavinghands.view import view


# ---------------------------------------------------------------------------------------------
# What the deciding wizard is shown after the reveal
# ---------------------------------------------------------------------------------------------
@cite("on the turn the spell is cast, after gestures have been revealed, the caster selects one "
      "of the wizard's hands and on the next turn that hand is paralyzed into the position it "
      "is in this turn",
      "after exposing them, rolls 2 dice to determine which gesture is superseded due to his "
      "being confused")
def test_paralysis_caster_is_shown_the_confused_gesture_not_the_written_one() -> None:
    # A: D-S-F (left, turns 1-3) confuses B for turn 4; F-F-F (right, turns 2-4) paralyses B on
    # turn 4.  B writes W / W on turn 4; the dice turn B's left hand into S.  B's left hand "is
    # in" S this turn (it is paralysed into D), so the gestures A must choose from are S / W.
    dice = {"4:confusion:1:0:hand": 1, "4:confusion:1:0:gesture": 5}
    d = Duel(A="D S F -/- F F F", B="- - - W/- - - W", dice=dice)
    d.decide(4, {"paralysis:W1": "L"}).until(4)
    shown = view(d.game, 0)["phase"]["revealed"]["1"]
    d.run()
    assert d.row("B", 4) == ("S", "W")  # what B's hands really did (the engine agrees)
    assert shown == [["S", "W"]], f"A chose B's hand having been shown {shown}, not S / W"


@cite("in the following turn, the caster of the spell writes down the gesture he wants the "
      "subject's named hand to perform",
      "on the turn the spell is cast, after gestures have been revealed, the caster selects one "
      "of the wizard's hands")
def test_paralysis_caster_is_shown_the_charmed_gesture_not_the_ignored_one() -> None:
    # A charms B's left hand (P-S-D-F, turns 1-4) and writes S for it on turn 5, while his
    # right hand's F-F-F (turns 3-5) paralyses B on turn 5.  B wrote P for the charmed hand
    # (ignored).  The revealed gestures must be those made: S / -.
    d = Duel(A="P S D F -/- - F F F", B="- - - - P/- - - - -")
    d.decide(4, {"charm:W1": "L"}).decide(5, {"paralysis:W1": "R"})
    d.orders(5, "A", {"charm": {"gesture": "S"}})
    d.until(5)
    shown = view(d.game, 0)["phase"]["revealed"]["1"]
    d.run()
    assert d.row("B", 5) == ("S", "-")
    assert shown == [["S", "-"]], f"A chose B's hand having been shown {shown}, not S / -"


# ---------------------------------------------------------------------------------------------
# Raise dead on a monster: its master directs its attack
# ---------------------------------------------------------------------------------------------
@cite("On the turn a monster is raised it may attack.",
      "Monsters may make a single attack each turn against a target chosen by their master")
def test_master_may_direct_a_monster_raised_this_turn() -> None:
    # B's goblin M1 (turn 3) is stabbed dead by A on turn 4; B raises it on turn 9 (D-W-W-F-W-C)
    # and orders it, that turn, to attack A.  The orders are refused ("no-monster"): the only
    # attack the text grants the raised monster can then only go to the default target.
    d = Duel(A="- - - > - - - - - / - - - - - - - - -",
             B="S F W - - - - - C / - - - D W W F W C")
    d.orders(4, "A", {"stab": "M1"})
    d.run(8)
    assert not d.monster("M1").alive
    orders = {"gestures": [["C", "C"]], "casts": [cast("B", "raise_dead", "M1")],
              "monsters": {"M1": "W0"}}
    assert problems(d.game, "B", orders) == []
