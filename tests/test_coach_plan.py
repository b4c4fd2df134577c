"""The coach explains (issue 28): its plan names what its gestures cast now, the spell they build
with the gestures still to make, the opponent's nearest threat and what stops it; it never
suggests an enchantment already permanent on its target; for a charmed hand it writes the
gesture, and its orders then pass the engine's checks (before, "Use these gestures" left the
charmed hand empty and sealing failed with "write the gesture for Morgana's left hand")."""

from __future__ import annotations

import json
from typing import Any

from dsl import Duel

from wavinghands import api
from wavinghands.ai.coachplan import advice, plan_of
from wavinghands.ai.search import Choice


def _advice(d: Duel, wizard: int = 0) -> dict[str, Any]:
    out: dict[str, Any] = json.loads(api.ai_advice(json.dumps(d.game.to_json()), str(wizard)))
    assert out["ok"], out
    return out


def test_the_plan_names_the_spell_built_and_the_threat_with_what_stops_it() -> None:
    d = Duel(A="- - - - / D F F D", B="F S S D / - - - -")
    d.run()
    plan = _advice(d)["plan"]
    lines = " ".join(plan["lines"])
    assert plan["threat"] == "fireball"
    # "Watch B's left hand: Fireball (5 damage) can land next turn (D to go). Stopped by ..."
    assert "Watch B's left hand: Fireball (5 damage) can land next turn (D to go)" in lines
    assert "Counter-spell" in lines and "Magic mirror" in lines and "Shield," not in lines
    assert plan["casts"] or plan["builds"]


def test_a_spell_being_built_says_what_it_still_needs() -> None:
    d = Duel(A="- - / D F", B="- - / - -")
    d.run()
    plan = plan_of(d.game, 0, {"gestures": [["-", "F"]]})
    assert plan.builds == "lightning_bolt"
    assert "Next 2 turns: your right hand builds Lightning bolt; still to make D-D." in plan.lines


def test_an_answer_cast_now_says_which_threat_it_stops() -> None:
    d = Duel(A="- - - - - W W / - - - - - - -", B="- - - - - - - / W P F D F F D")
    d.run()
    plan = plan_of(d.game, 0, {"gestures": [["S", "-"]]})
    assert plan.casts == ("counter_spell",)
    assert plan.lines[0] == "This turn your left hand completes Counter-spell, which stops B's " \
                            "Lightning bolt."


def test_never_builds_an_enchantment_already_permanent_on_its_target() -> None:
    # A resisted heat (W-W-F-P) lasts for good; W-W again is two gestures from it.
    d = Duel(A="W W F P - - W W / - - - - - - - -", B="- - - - - - - - / - - - - - - - -")
    d.run()
    assert any(e.kind.value == "resist_heat" and e.end is None for e in d.game.wizard(0).effects)
    for gestures in (["F", "-"], ["-", "-"]):
        plan = plan_of(d.game, 0, {"gestures": [gestures]})
        assert plan.builds != "resist_heat"
        assert not any("Resist heat" in line for line in plan.lines)


def test_never_casts_an_enchantment_already_permanent_on_its_target() -> None:
    d = Duel(A="W W F P - W W F / - - - - - - - -", B="- - - - - - - - / - - - - - - - -")
    d.run()
    renewing = Choice({"gestures": [["P", "-"]],
                       "casts": [{"set": 0, "hand": "L", "spell": "resist_heat"}]}, "")
    choice, plan = advice(d.game, 0, renewing, d.game.seed)
    assert "resist_heat" not in plan.casts
    assert choice.orders != renewing.orders
    problems = json.loads(api.validate(json.dumps(d.game.to_json()), "0",
                                       json.dumps(choice.orders)))
    assert problems == {"ok": True, "problems": []}
    # The whole coach, through the boundary, never casts it either.
    assert "resist_heat" not in _advice(d)["plan"]["casts"]


def test_a_charmed_hand_gets_its_gesture_and_the_orders_seal() -> None:
    d = Duel(A="P S D F / - - - -", B="- - - - / - - - -")
    d.run()
    assert any(e.kind.value == "charm_person" and e.source == 0 for e in d.game.wizard(1).effects)
    out = _advice(d)
    assert out["charm"] in list("FPSWD>-")
    assert out["input"]["charm"] == {"gesture": out["charm"]}
    assert any(line.startswith("Write ") and "for B's left hand" in line
               for line in out["plan"]["lines"])
    checked = json.loads(api.validate(json.dumps(d.game.to_json()), "0",
                                      json.dumps(out["input"])))
    assert checked == {"ok": True, "problems": []}
    # Resolving the coach's orders works: the charmed hand is written, the turn goes on.
    after = json.loads(api.step(json.dumps(d.game.to_json()),
                                json.dumps({"0": out["input"], "1": {"gestures": [["-", "-"]]}})))
    assert after["ok"], after


def test_the_plan_is_read_from_the_view_not_the_game() -> None:
    """What the player cannot see is not in the plan: B's gestures made while invisible
    (P-P-(w-(s) start a fireball (F-S of F-S-S-D-D) that only the game knows of."""
    d = Duel(A="- - - - - - / - - - - - -", B="P P W S F S / - - W S - -")
    d.run()
    seen = json.loads(api.view(json.dumps(d.game.to_json()), "0"))["view"]
    assert [r["left"] for r in seen["wizards"][1]["history"]][-2:] == ["?", "?"]
    lines = " ".join(_advice(d)["plan"]["lines"])
    assert "Fireball" not in lines
    b = [r.left for r in d.game.wizard(1).history][-2:]
    assert b == ["F", "S"]
