"""Drafting the next turn while the code that resolves this one is on its way (draft.py, issue 11).

By codes, a player who sealed turn t waits for the opponent's code; meanwhile the page offers the
next turn's orders form as a draft against what he knows (`project`: his own sealed gestures
added, nothing else resolved). When the code comes and the turn resolves, `carry` keeps what
still holds and says what the result changed and why. Scenario tests cite the rules sentence that
makes the drafted part illegal.
"""

from __future__ import annotations

import json
import os
from typing import Any

import pytest
from citing import cite
from dsl import Duel

from wavinghands import draft
from wavinghands.model import gesture_word
from wavinghands.remote import json_api, session


def gestures(game: Any, who: int) -> list[tuple[str, str]]:
    """A wizard's history rows as (left, right)."""
    return [(r.left, r.right) for r in game.wizard(who).history]


def test_project_adds_only_my_sealed_gestures_and_moves_the_turn_on() -> None:
    d = Duel(A="S/-", B="-/P").run(0)
    ahead = draft.project(d.game, 1, {"gestures": [["S", "W"]]})
    assert ahead.phase.turn == d.game.phase.turn + 1 == 2
    assert gestures(ahead, 1) == [("S", "W")]
    assert gestures(ahead, 0) == []  # the opponent's turn-1 gestures are not known
    assert ahead.wizard(0) == d.game.wizard(0) and ahead.monsters == d.game.monsters


def test_draft_preview_completes_spells_that_the_sealed_gestures_began() -> None:
    d = Duel(A="-/-", B="-/-").run(0)
    got = draft.draft_preview(d.game, 1, {"gestures": [["S", "-"]]}, {"gestures": [["D", None]]})
    assert got["view"]["phase"]["turn"] == 2 and got["view"]["phase"]["draft"] is True
    completes = got["preview"]["sets"][0]["completes"]["L"]
    assert [c["spell"] for c in completes] == ["missile"]  # S then D
    assert got["preview"]["opponent_next"] == []  # rests on the opponent's unknown gestures
    assert got["preview"]["warnings"][0]["code"] == "draft"


def test_nothing_to_draft_in_a_phase_without_my_orders() -> None:
    d = Duel(A="F F F/- - -", B="- - S/- - W").until(3)  # the paralysis decision of turn 3
    assert not draft.draftable(d.game, 1)
    with pytest.raises(draft.DraftError):
        draft.project(d.game, 1, {"gestures": [["-", "-"]]})


def test_a_draft_the_result_does_not_touch_is_carried_intact() -> None:
    d = Duel(A="- -/- -", B="S -/- -").run(1)  # turn 1 resolved; B drafted turn 2 meanwhile
    got = draft.carry(d.game, 1, {"gestures": [["D", "P"]], "casts": [
        {"set": 0, "hand": "L", "spell": "missile", "target": "W0"}]})
    assert got["ready"] and got["intact"] and got["legal"] and got["changes"] == []
    assert got["orders"]["gestures"] == [["D", "P"]]
    assert got["orders"]["casts"] == [{"set": 0, "hand": "L", "spell": "missile", "target": "W0"}]


def test_an_unfinished_draft_carries_but_is_not_legal_to_seal() -> None:
    d = Duel(A="-/-", B="-/-").run(1)
    got = draft.carry(d.game, 1, {"gestures": [["F", None]]})
    assert got["ready"] and got["intact"] and not got["legal"]
    assert got["orders"]["gestures"] == [["F", None]]


@cite("on the next turn that hand is paralyzed into the position it is in this turn.",
      "if the hand being paralyzed is performing a C, S or W it is instead paralyzed into F, D or "
      "P respectively")
def test_paralysis_fixes_the_drafted_hand_and_the_spell_it_completed_vanishes() -> None:
    # B sealed S/W for turn 3 and drafted P/F for turn 4 (a shield with the left hand); A's
    # paralysis takes B's left hand, so it makes D (from S), and the shield is gone.
    d = Duel(A="F F F/- - -", B="- - S/- - W").decide(3, {"paralysis:W1": "L"}).run()
    assert d.game.phase.kind == "orders" and d.game.phase.turn == 4
    got = draft.carry(d.game, 1, {"gestures": [["P", "F"]], "casts": [
        {"set": 0, "hand": "L", "spell": "shield"}]})
    assert got["ready"] and not got["intact"]
    assert got["orders"]["gestures"] == [["D", "F"]]
    assert "casts" not in got["orders"]
    by_code = {c["code"]: c for c in got["changes"]}
    assert by_code["paralysis"]["field"] == "gestures.0.0"
    assert "paralysed" in by_code["paralysis"]["message"]
    assert gesture_word("D") in by_code["paralysis"]["message"]
    assert by_code["spell-vanished"]["field"] == "casts.0.L"
    assert got["legal"]  # what is left may be sealed as it is


@cite("next turn he must repeat identically the gestures he made in the current turn")
def test_amnesia_makes_both_drafted_hands_repeat_the_sealed_gestures() -> None:
    d = Duel(A="D P P/- - -", B="- - S/- - W").run()  # B sealed S/W for turn 3, drafted F/F
    got = draft.carry(d.game, 1, {"gestures": [["F", "F"]]})
    assert got["orders"]["gestures"] == [["S", "W"]]
    assert [(c["code"], c["field"]) for c in got["changes"]] == [
        ("amnesia", "gestures.0.0"), ("amnesia", "gestures.0.1")]
    assert got["legal"] and not got["intact"]


@cite("The subject is told which of his hands will be controlled at the time the spell hits")
def test_a_hand_the_opponent_now_controls_is_set_aside() -> None:
    d = Duel(A="P S D F/- - - -", B="- - - -/- - - -").run()  # A took B's left hand (first)
    got = draft.carry(d.game, 1, {"gestures": [["F", "P"]]})
    assert got["orders"]["gestures"] == [["-", "P"]]
    assert [(c["code"], c["field"]) for c in got["changes"]] == [("charm", "gestures.0.0")]
    assert "A controls your left hand" in got["changes"][0]["message"]


def test_death_spends_the_draft() -> None:
    d = Duel(A="S D/- -", B="- -/- -").set_damage("B", 14).run()  # A's missile kills B
    assert d.result() == (0, "B died")
    got = draft.carry(d.game, 1, {"gestures": [["F", "P"]]})
    assert not got["ready"] and got["over"] and [c["code"] for c in got["changes"]] == ["over"]


@cite("cannot perform a C, D, F or S gesture")
def test_fear_clears_the_forbidden_gestures_of_a_draft() -> None:
    d = Duel(A="S W D/- - -", B="- - -/- - -").run()
    assert "fear" in d.effects("B")
    got = draft.carry(d.game, 1, {"gestures": [["S", "P"]]})
    assert got["orders"]["gestures"] == [[None, "P"]]
    assert [c["code"] for c in got["changes"]] == ["fear"]
    assert not got["legal"]  # the cleared hand is to be written again


@cite("The wizard making these gestures, irrespective of whether they terminate spells or not, "
      "surrenders and the contest is over")
def test_the_end_of_the_duel_spends_the_draft() -> None:
    d = Duel(A="-/-", B="P/P").run()
    assert d.game.phase.kind == "over"
    got = draft.carry(d.game, 1, {"gestures": [["F", "F"]]})
    assert not got["ready"] and got["over"] and got["changes"][0]["code"] == "over"


@cite("the caster of the spell writes down the gesture he wants the subject's named hand to "
      "perform")
def test_a_charm_that_worked_asks_for_the_charmed_hand_once_and_keeps_the_draft() -> None:
    # A drafted turn 5 before he knew his charm person of turn 4 took: now he writes B's hand.
    d = Duel(A="P S D F/- - - -", B="- - - -/- - - -").run()
    assert d.game.phase.turn == 5 and "charm_person" in d.effects("B")
    got = draft.carry(d.game, 0, {"gestures": [["F", "F"]]})
    assert got["orders"] == {"gestures": [["F", "F"]]}
    assert [(c["code"], c["field"]) for c in got["changes"]] == [("charm-missing", "charm")]
    assert "asks more" in got["changes"][0]["message"] and not got["legal"]


def test_a_decision_first_keeps_the_draft_for_later() -> None:
    d = Duel(A="F F F/- - -", B="- - S/- - W").until(3)
    got = draft.carry(d.game, 1, {"gestures": [["P", "F"]]})
    assert not got["ready"] and not got["over"] and got["changes"] == []


def test_a_stab_at_a_monster_that_died_is_dropped() -> None:
    d = Duel(A="-/-", B="-/-").run(1)
    got = draft.carry(d.game, 1, {"gestures": [[">", "-"]], "stab": "M1"})
    assert got["orders"] == {"gestures": [[">", "-"]]}
    assert [c["field"] for c in got["changes"]] == ["stab.0"]


# --- through the sessions and the JSON boundary ---------------------------------------------


def call(fn: Any, *args: Any) -> dict[str, Any]:
    out: dict[str, Any] = json.loads(fn(*(json.dumps(a) for a in args)))
    assert out["ok"], out
    return out


def test_remote_draft_and_carry_through_codes() -> None:
    host = session.create_invitation("Alice", {}, os.urandom)
    guest = session.accept_invitation(host.code or "", "Bob")
    # The guest seals turn 1 (the acceptance): a commitment; it waits for Alice's code.
    sealed = session.seal(guest, {"gestures": [["S", "-"]]})
    g = sealed.session.to_json()
    got = call(json_api.remote_draft, g, {"gestures": [["D", None]]})
    assert got["draftable"] and got["view"]["phase"]["turn"] == 2
    assert [c["spell"] for c in got["preview"]["sets"][0]["completes"]["L"]] == ["missile"]
    # Nothing to draft before sealing (it is the guest's move).
    assert not call(json_api.remote_draft, guest.to_json(), {})["draftable"]
    # Alice answers in plain; the guest resolves turn 1 and carries the draft onto turn 2.
    h = session.receive(host.session, sealed.code or "")
    h2 = session.seal(h.session, {"gestures": [["-", "-"]]})
    back = session.receive(sealed.session, h2.code or "")
    carried = call(json_api.remote_carry, back.session.to_json(), {"gestures": [["D", "P"]]})
    assert carried["ready"] and carried["intact"] and carried["legal"]
    # The host, waiting for the reveal after its plain answer, may draft turn 2 as well.
    assert call(json_api.remote_draft, h2.session.to_json(), {})["draftable"]
    # Sealing the carried orders is an ordinary seal: the code is the usual reveal + commit.
    out = session.seal(back.session, carried["orders"])
    assert out.code is not None


def test_remote_carry_refuses_nothing_and_says_not_ready_when_not_my_move() -> None:
    host = session.create_invitation("Alice", {}, os.urandom)
    guest = session.accept_invitation(host.code or "", "Bob")
    sealed = session.seal(guest, {"gestures": [["S", "-"]]})
    got = call(json_api.remote_carry, sealed.session.to_json(), {"gestures": [["D", "P"]]})
    assert not got["ready"] and got["orders"] is None


@pytest.mark.parametrize("junk", [
    None, [], "F", 7, {"gestures": "FF"}, {"gestures": [[["F"], {"x": 1}]]},
    {"gestures": [["F", "F"], ["P", "P"], ["S", "S"]]}, {"gestures": [["F", "F"]], "casts": 5},
    {"gestures": [["F", "F"]], "stab": ["W9"], "monsters": [1], "charm": "x", "release": 3},
])
def test_junk_drafts_are_answered_never_raised(junk: Any) -> None:
    d = Duel(A="-/-", B="-/-").run(1)
    got = draft.carry(d.game, 1, junk)
    assert got["ready"] and isinstance(got["orders"]["gestures"], list)
    host = session.create_invitation("Alice", {}, os.urandom)
    accepted = session.accept_invitation(host.code or "", "Bob")
    guest = session.seal(accepted, {"gestures": [["F", "-"]]})
    out = json.loads(json_api.remote_draft(json.dumps(guest.session.to_json()), json.dumps(junk)))
    assert out["ok"] or out["error"]["code"] != "internal", out


def test_the_host_drafts_turn_1_while_the_invitation_is_out() -> None:
    host = session.create_invitation("Alice", {}, os.urandom)
    got = call(json_api.remote_draft, host.session.to_json(), {"gestures": [["P", None]]})
    assert got["draftable"] and got["view"]["phase"] == {**got["view"]["phase"], "turn": 1,
                                                         "draft": True}
    assert got["view"]["names"] == ["Alice", json_api.UNKNOWN_GUEST]
    assert [c["spell"] for c in got["preview"]["sets"][0]["completes"]["L"]] == ["shield"]
    # The acceptance comes: the draft carries onto the real turn 1, intact.
    guest = session.accept_invitation(host.code or "", "Bob")
    sealed = session.seal(guest, {"gestures": [["S", "-"]]})
    h = session.receive(host.session, sealed.code or "")
    carried = call(json_api.remote_carry, h.session.to_json(), {"gestures": [["P", "-"]]})
    assert carried["ready"] and carried["intact"] and carried["legal"]
    # The guest's side never drafts before its own acceptance is sealed.
    assert not call(json_api.remote_draft, guest.to_json(), {})["draftable"]


def test_a_drafts_histories_keep_the_notes_of_resolved_turns() -> None:
    # Turn 1 resolves with Bob's shield; Bob seals turn 2 and drafts turn 3: his turn-1 row
    # keeps its note (the spell it cast), his sealed turn-2 row has none yet.
    host = session.create_invitation("Alice", {}, os.urandom)
    guest = session.accept_invitation(host.code or "", "Bob")
    g1 = session.seal(guest, {"gestures": [["P", "-"]]})
    h1 = session.receive(host.session, g1.code or "")
    h1s = session.seal(h1.session, {"gestures": [["-", "-"]]})
    g2 = session.receive(g1.session, h1s.code or "")
    g2s = session.seal(g2.session, {"gestures": [["-", "-"]]})
    got = call(json_api.remote_draft, g2s.session.to_json(), {})
    assert got["draftable"] and got["view"]["phase"]["turn"] == 3
    rows = got["view"]["notes"]["1"]["rows"]
    assert [c["spell"] for c in rows[0]["cast"]] == ["shield"] and rows[1] == {}, rows
