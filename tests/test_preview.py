"""The help a player gets while writing orders: what each hand completes or is building, the
choices to make, warnings, and what the opponent could complete next (as far as he can see)."""

from __future__ import annotations

from typing import Any

from dsl import Duel

from wavinghands.preview import preview


def _preview(d: Duel, who: int, left: str | None, right: str | None,
             **extra: Any) -> dict[str, Any]:
    return preview(d.game, who, {"gestures": [[left, right]], **extra})


def test_completed_and_under_way_spells_per_hand() -> None:
    # "three wiggling finger gestures on consecutive turns (noted as F-F-F) evokes a paralysis"
    d = Duel(A="F F / - -", B="- - / - -").run()
    p = _preview(d, 0, "F", None)
    assert [c["spell"] for c in p["sets"][0]["completes"]["L"]] == ["paralysis"]
    way = {(u["spell"], u["remaining"]) for u in p["sets"][0]["under_way"]["L"]}
    assert ("fireball", "S-S-D-D") in way  # F-S-S-D-D: one F made
    assert p["sets"][0]["completes"]["R"] == []


def test_a_blank_hand_counts_as_nothing() -> None:
    d = Duel(A="S / -", B="- / -").run()
    p = _preview(d, 0, None, None)
    assert p["sets"][0]["gestures"] == ["-", "-"]
    assert p["problems"] == []


def test_surrender_is_warned_as_a_danger() -> None:
    # "a pair of P gestures made by both hands at the same time signals your surrender"
    d = Duel()
    p = _preview(d, 0, "P", "P")
    assert {"code": "surrender", "severity": "danger"}.items() <= p["warnings"][0].items()


def test_a_choice_lists_every_way_to_cast_with_exact_casts() -> None:
    # "the final S of the left hand cannot be used to cast two spells ... a choice must be made
    # between the W-W-S of the counter-spell and the P-P-(w-(s of the invisibility"
    d = Duel(A="W W W / P P W", B="- - - / - - -").run()
    p = _preview(d, 0, "S", "S")
    (q,) = [q for q in p["questions"] if q["kind"] == "spell_choice"]
    labels = [o["label"] for o in q["options"]]
    assert any("Invisibility" in x for x in labels) and any("Counter-spell" in x for x in labels)
    assert q["options"][q["chosen_index"]]["casts"] == [
        {"set": 0, "hand": "B", "spell": "invisibility"}]  # the default casts the longer spell
    assert all(o["casts"] for o in q["options"])  # the standard rules offer no "cast nothing"


def test_a_lone_two_handed_spell_offers_no_empty_choice() -> None:
    # Time stop S-P-P-C completes only with both hands: there is nothing to choose.
    d = Duel(A="S P P / - - -", B="- - - / - - -").run()
    p = _preview(d, 0, "C", "C")
    assert not [q for q in p["questions"] if q["kind"] == "spell_choice"]


def test_withhold_offers_casting_nothing_with_null_entries() -> None:
    d = Duel(A="S / -", B="- / -", withhold=True).run()
    p = _preview(d, 0, "D", None)
    (q,) = [q for q in p["questions"] if q["kind"] == "spell_choice"]
    assert {"label": "Cast nothing (house rule: withhold)",
            "casts": [{"set": 0, "hand": "L", "spell": None}]} in q["options"]


def test_opponent_next_shows_only_what_can_be_seen() -> None:
    d = Duel(A="- - / - -", B="S F / - -").run()
    nxt = {(o["spell"], o["needs"]) for o in preview(d.game, 0, {"gestures": [["-", "-"]]})[
        "opponent_next"]}
    assert ("summon_goblin", "W") in nxt  # S-F-W needs one more W
    assert ("missile", "D") not in nxt  # his last gesture is F, not S


def test_a_waiting_delayed_effect_asks_which_spell_to_bank() -> None:
    # "If he casts more than one spell at the same time he chooses which is to be banked."
    d = Duel(A="D W S S S P - S / - - - - - - - S", B="- - - - - - - - / - - - - - - - -").run()
    p = _preview(d, 0, "D", "D")
    (q,) = [q for q in p["questions"] if q["kind"] == "bank"]
    assert {o["spell"] for o in q["options"]} == {"missile"}
    assert {(o["hand"]) for o in q["options"]} == {"L", "R"}
