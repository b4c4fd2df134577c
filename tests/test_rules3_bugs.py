"""Issue 26, Rules III: the bugs found against harder cases read off the rules text and the
Warlocks pages (a blind wizard's log: tests/test_rules3_sight.py and the property test
tests/test_view_secrecy.py).

Each scenario quotes the sentence it rests on (000, checked word for word by
tests/test_citations.py; Warlocks rules not on the stored pages rest on issue 14, as
docs/rules.md "Warlocks" says).  Notation: tests/dsl.py.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from citing import cite
from dsl import Duel, Script, problems

from wavinghands import api, record
from wavinghands.record import RecordError

W = "warlocks"


# ---------------------------------------------------------------------------------------------
# A record cannot fix the dice (bug 6)
# ---------------------------------------------------------------------------------------------
# A: D-S-F on turns 1-3 at B, so B is confused on turn 4; the record holds turns 1-3 only.
CONFUSE_B: Script = {"A": "D S F / - - -", "B": "- - - / - - -"}


def _unfinished(dice: dict[str, Any]) -> dict[str, Any]:
    """The record of CONFUSE_B's three turns, carrying `dice`."""
    rec = record.export_record(Duel(**CONFUSE_B).run().game)
    rec["dice"] = dice
    return rec


def _refusal(rec: dict[str, Any]) -> str:
    answer = json.loads(api.import_record(json.dumps(rec)))
    assert answer["ok"] is False, answer
    message: str = answer["error"]["message"]
    return message


@cite("rolls 2 dice to determine which gesture is superseded due to his being confused. The "
      "first die indicates left hand on 1-3, right on 4-6.")
def test_a_die_out_of_its_range_is_refused_on_import() -> None:
    # Two dice of six faces: 99 is no roll of them.  It used to import, and every attempt to
    # resolve turn 4 then failed ("explicit die ... outside 1..6").
    message = _refusal(_unfinished({"4:confusion:1:0:hand": 99}))
    assert "4:confusion:1:0:hand" in message and "1..6" in message
    for bad in (0, -3, True, 2.5, "4"):
        with pytest.raises(RecordError):
            record.import_record(_unfinished({"3:confusion:1:0:gesture": bad}))
    with pytest.raises(RecordError, match="no die"):
        record.import_record(_unfinished({"3:fate:0": 2}))


@cite("after exposing them, rolls 2 dice to determine which gesture is superseded")
def test_a_records_dice_never_reach_a_turn_it_has_not_played() -> None:
    # In range, but for turn 4, which the record has not played: the dice are rolled "after
    # exposing" the gestures of a turn, so a record may carry only rolls already made; one for
    # a turn still to come would let whoever wrote the record choose the dice of the game played
    # on (it used to be kept and decide turn 4).
    message = _refusal(_unfinished({"4:confusion:1:0:hand": 2, "4:confusion:1:0:gesture": 2}))
    assert "turn 4" in message and "not played" in message
    # The same dice for a turn the record holds import, and decide that turn as ever.
    played = Duel(A="D S F - / - - - -", B="- - - W / - - - W",
                  dice={"4:confusion:1:0:hand": 2, "4:confusion:1:0:gesture": 2}).run()
    game = record.import_record(record.export_record(played.game))
    assert game.wizard(1).history[-1].left == "D"
    assert dict(game.dice) == {"4:confusion:1:0:hand": 2, "4:confusion:1:0:gesture": 2}


# ---------------------------------------------------------------------------------------------
# Warlocks: a maladroit wizard can stab (bug 5)
# ---------------------------------------------------------------------------------------------
@cite("The wizard only has one knife so can only stab with one hand in any turn, although which "
      "hand doesn't matter.")
def test_a_maladroit_wizard_stabs_with_one_hand_the_other_doing_nothing() -> None:
    # Issue 14: "maladroitness (D-S-F: next turn both hands make the same gesture)".  Both
    # hands cannot stab (one knife), so the maladroit wizard's stab is one hand's, the other
    # hand doing nothing (docs/rules.md, "Warlocks: maladroitness"); it used to be refused as
    # two different gestures, and two stabs as "two-stabs", so he could not stab at all.
    d = Duel(A="D S F - / - - - -", B="- - - > / - - - -", ruleset=W).run(3)
    assert "maladroitness" in d.effects("B")
    for stab in ([">", "-"], ["-", ">"]):
        assert problems(d.game, "B", {"gestures": [stab]}) == []
    assert problems(d.game, "B", {"gestures": [[">", ">"]]}) == ["two-stabs"]
    assert problems(d.game, "B", {"gestures": [[">", "W"]]}) == ["maladroit"]
    d.run()
    assert d.damage("A") == 1
