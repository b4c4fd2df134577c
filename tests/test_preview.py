"""The help a player gets while writing orders: what each hand completes or is building, the
choices to make, warnings, and what the opponent could complete next (as far as he can see)."""

from __future__ import annotations

from typing import Any

from citing import cite
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
    # A slip of both thumbs would lose the duel: the page asks again before sealing it.
    assert p["warnings"][0]["confirm"] is True
    assert not any(w.get("confirm") for w in _preview(d, 0, "P", "-")["warnings"])


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


def _monster_questions(p: dict[str, Any]) -> list[dict[str, Any]]:
    return [q for q in p["questions"] if q["kind"] == "monster"]


def test_only_the_summons_chosen_asks_where_its_monster_attacks() -> None:
    # "no more than one spell is created per gesture": P-S-F-W completes summon ogre and, in its
    # last three gestures, summon goblin; one is cast, so one monster comes and one is asked about.
    d = Duel(A="P S F / - - -", B="- - - / - - -").run()
    p = _preview(d, 0, "W", "P")
    (q,) = _monster_questions(p)
    assert (q["monster"], q["spell"]) == ("new:0:L", "summon_ogre")  # the longer is the default
    assert q["label"] == "The ogre you are summoning attacks"
    shield = next(x for x in p["questions"] if x["kind"] == "target" and x["hand"] == "R")
    assert [o["id"] for o in shield["options"]].count("new:0:L") == 1  # one monster, listed once


def test_the_monster_question_follows_the_spell_chosen() -> None:
    d = Duel(A="P S F / - - -", B="- - - / - - -").run()
    p = _preview(d, 0, "W", "-",
                 casts=[{"set": 0, "hand": "L", "spell": "summon_goblin"}])
    (q,) = _monster_questions(p)
    assert (q["monster"], q["spell"]) == ("new:0:L", "summon_goblin")
    assert q["label"] == "The goblin you are summoning attacks"
    assert all(not o["id"].startswith("new:") for o in q["options"])  # never itself


@cite("in the following turn, the caster of the spell writes down the gesture he wants the "
      "subject's named hand to perform.")
def test_opponent_next_follows_the_hand_the_viewer_controls() -> None:
    # A charms B's right hand (P-S-D-F, turns 1-4); B's right hand made S on turn 4, so S-D
    # (missile) is one gesture away - but only if A writes D for it.
    d = Duel(A="P S D F/- - - -", B="- - - -/- - - S").decide(4, {"charm:W1": "R"}).run()
    p = _preview(d, 0, "-", "-")
    right = {o["spell"]: o for o in p["opponent_next"] if o["hand"] == "R"}
    assert right["missile"]["yours"] is True
    assert all(o.get("yours") is None for o in p["opponent_next"] if o["hand"] == "L")
    chosen = _preview(d, 0, "-", "-", charm={"gesture": "F"})
    assert "missile" not in {o["spell"] for o in chosen["opponent_next"] if o["hand"] == "R"}
    chosen = _preview(d, 0, "-", "-", charm={"gesture": "D"})
    assert [o["spell"] for o in chosen["opponent_next"] if o["hand"] == "R"] == ["missile"]


def _confirms(p: dict[str, Any]) -> dict[str, str]:
    return {w["field"]: w["code"] for w in p["warnings"] if w.get("confirm") and "field" in w}


def test_a_spell_that_hurts_aimed_at_nobody_or_oneself_asks_to_confirm() -> None:
    # Missile's usual target is the opponent (the table): aimed elsewhere it is a slip.
    d = Duel(A="S/-", B="-/-").run()
    assert _confirms(_preview(d, 0, "D", "-")) == {}
    at_nobody = _preview(d, 0, "D", "-", casts=[{"set": 0, "hand": "L", "spell": "missile",
                                                 "target": "none"}])
    assert _confirms(at_nobody) == {"casts.0.L": "aimed-at-nobody"}
    at_self = _preview(d, 0, "D", "-", casts=[{"set": 0, "hand": "L", "spell": "missile",
                                               "target": "W0"}])
    assert _confirms(at_self) == {"casts.0.L": "aimed-at-own-side"}
    # A shield is meant for oneself: no warning.
    assert _confirms(_preview(d, 0, "P", "-", casts=[{"set": 0, "hand": "L", "spell": "shield",
                                                      "target": "W0"}])) == {}


def test_a_new_monster_sent_at_its_summoner_asks_to_confirm() -> None:
    d = Duel(A="S F/- -", B="- -/- -").run()
    p = _preview(d, 0, "W", "-", monsters={"new:0:L": "W0"})
    assert _confirms(p) == {"monsters.new:0:L": "monster-at-own-side"}
    assert _confirms(_preview(d, 0, "W", "-", monsters={"new:0:L": "none"})) == {}


def test_opponent_next_reads_nothing_the_view_hides() -> None:
    # The page's help is bound by the view: "what your opponent could complete next, as far as you
    # can see" must not change with the opponent's anti-spell start or used short lightning, which
    # view.py gives to their owner only.
    import dataclasses

    d = Duel(A="- - - / - - -", B="W D D / - - -").run()
    game = d.game
    b = game.wizard(1)
    told = dataclasses.replace(b, sequence_start=1, short_lightning_used=True)
    hidden = dataclasses.replace(game, wizards=(game.wizard(0), told))
    seen = preview(game, 0, {"gestures": [[None, None]]})["opponent_next"]
    assert seen == preview(hidden, 0, {"gestures": [[None, None]]})["opponent_next"]
    assert any(o["spell"] == "lightning_bolt" for o in seen)
