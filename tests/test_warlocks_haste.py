"""Scenario tests of the Warlocks' haste: a separate hasted turn after each of the next three
normal turns, in which only the hastened wizard writes orders, monsters do not attack and
effects do not count down (hook `Variant.hasted_turns`; docs/rules.md, "Warlocks: haste").

The stored Warlocks pages do not describe haste: these rest on issue 14 ("Haste gives a separate
hasted turn after each of the next three normal turns (monsters do not attack in it, effects do
not count down; hasted monsters attack twice)").  Each script also runs under the standard rules,
where a hastened wizard writes two gesture sets in one turn.
"""

from __future__ import annotations

import random

from dsl import Duel, Script, problems
from sizes import size

from wavinghands import duel
from wavinghands.ai import LEVELS, choose_input
from wavinghands.duel import parse_input
from wavinghands.legal import input_problems
from wavinghands.model import Game

W = "warlocks"
# A hastens himself on turn 6 (P-W-P-W-W-C, the C with both hands): hastened on turns 7-9.
HASTE: Script = {"A": "P W P W W C - - - - / - - - - - C - - - -", "B": "- - - - - - - - - - / "
         "- - - - - - - - - -"}


def _hasted_turns(d: Duel) -> list[int]:
    return [g.phase.turn for g in d.states if g.phase.kind == "time_stop" and g.phase.hasted]


def test_a_hasted_turn_follows_each_of_the_next_three_normal_turns() -> None:
    d = Duel(**HASTE, ruleset=W).extra(8, "A", "S / D").extra(10, "A", "D / S")
    d.run()
    # Normal turns 7, 9, 11 each get a hasted turn after them (8, 10, 12); 13 does not.
    assert _hasted_turns(d) == [8, 10, 12]
    assert [g.phase.turn for g in d.states if g.phase.kind == "orders"][-3:] == [11, 13, 14]
    hasted = d.state_at(8, "time_stop")
    assert hasted.phase.actors == (0,) and hasted.phase.time_stopped == ("W0",)
    assert d.row("A", 8, "haste") == ("S", "D") and d.row("A", 10, "haste") == ("D", "S")
    # Seen by both: the opponent reads the hasted gestures and waits on a visible phase.
    assert "A: left S, right D." in d.log_of("B")
    seen = d.view_at(8, "B", "time_stop")["phase"]
    assert seen["kind"] == "time_stop" and seen["hasted"] is True and seen["actors"] == [0]
    assert not any(r.hidden_from_opponent for r in d.game.wizard(0).history if r.kind == "haste")
    # The standard rules: no extra turn; the hastened wizard writes two sets in each turn.
    standard = Duel(**HASTE).run(6)
    assert standard.game.phase.kind == "orders"
    assert standard.view("A")["constraints"]["sets"] == 2


def test_a_hastened_warlock_writes_one_set_in_each_turn() -> None:
    d = Duel(**HASTE, ruleset=W).run(6)
    assert d.view("A")["constraints"]["sets"] == 1
    assert problems(d.game, "A", {"gestures": [["-", "-"], ["-", "-"]]}) == ["gesture-sets"]
    d.run(stop=lambda g: g.phase.hasted)
    assert d.game.phase.turn == 8 and d.view("A")["constraints"]["sets"] == 1
    assert d.game.phase.actors == (0,)  # B writes nothing


def test_the_hasted_turn_spells_work() -> None:
    # A completes a missile (S-D) across his normal turn 7 and hasted turn 8.
    d = Duel(A="P W P W W C S - / - - - - - C - -", B="- - - - - - - - / - - - - - - - -",
             ruleset=W).extra(8, "A", "D / -")
    d.run()
    assert (0, "missile", "W1") in d.casts() and d.damage("B") == 1


def test_monsters_do_not_attack_in_a_hasted_turn() -> None:
    # A's goblin (S-F-W, turns 1-3 on the right hand) attacks B each normal turn from turn 3;
    # the three hasted turns add nothing.
    script: Script = {"A": "P W P W W C - - - - / S F W - - C - - - -", "B": HASTE["B"]}
    d = Duel(**script, ruleset=W).run()
    assert _hasted_turns(d) == [8, 10, 12]
    assert d.damage("B") == 8  # normal turns 3-7, 9, 11, 13: one point each
    hasted_strikes = [e for e in d.events if e.turn in (8, 10, 12) and "strikes" in e.text]
    assert hasted_strikes == []


def test_a_monster_summoned_in_a_hasted_turn_first_attacks_on_the_next_normal_turn() -> None:
    # A's left: S in the hasted turn 8, F on turn 9, W in the hasted turn 10 (the hasted rows
    # are part of his gestures): the goblin appears in turn 10 and attacks first on turn 11.
    d = Duel(A="P W P W W C - F - / - - - - - C - - -", B="- - - - - - - - - / "
             "- - - - - - - - -", ruleset=W).extra(8, "A", "S / -").extra(10, "A", "W / -")
    d.run(stop=lambda g: g.phase.kind == "orders" and g.phase.turn == 11)
    assert [m.kind for m in d.monsters()] == ["goblin"] and d.damage("B") == 0
    d.run(9)
    assert d.damage("B") == 1  # its first attack: normal turn 11


def test_effects_do_not_count_down_in_a_hasted_turn() -> None:
    # B's fear lands on A on turn 7: it holds A's next normal turn (9), not the hasted turn 8.
    script: Script = {"A": HASTE["A"], "B": "- - - - S W D - - - / - - - - - - - - - -"}
    d = Duel(**script, ruleset=W)
    d.run(stop=lambda g: g.phase.kind == "time_stop" and g.phase.turn == 8)
    assert "fear" in d.effects("A")
    assert problems(d.game, "A", {"gestures": [["S", "D"]]}) == []
    d.extra(8, "A", "- / -").run(stop=lambda g: g.phase.kind == "orders" and g.phase.turn == 9)
    assert problems(d.game, "A", {"gestures": [["S", "D"]]}) == ["fear", "fear"]
    # Haste (own turns 7-9) stretches over the hasted turns it gives: three, no more.
    d.run()
    assert _hasted_turns(d) == [8, 10, 12]
    assert "haste" not in d.effects("A")


def test_a_time_stop_of_the_normal_turn_follows_the_hasted_turn() -> None:
    # A, hastened, completes time stop (S-P-P-C) on normal turn 11 (S and P in his hasted
    # turns 8 and 10): his hasted turn 12 comes first, then the time-stopped turn 13, unseen
    # by B.
    d = Duel(A="P W P W W C - P C - / - - - - - C - - C -",
             B="- - - - - - - - - - / - - - - - - - - - -", ruleset=W)
    d.extra(8, "A", "S / -").extra(10, "A", "P / -").extra(12, "A", "F / F")
    d.extra(13, "A", "D / D")
    d.run()
    assert (0, "time_stop", "W0") in d.casts()
    kinds = [(g.phase.turn, g.phase.hasted) for g in d.states if g.phase.kind == "time_stop"]
    assert kinds == [(8, True), (10, True), (12, True), (13, False)]
    assert d.state_at(12, "time_stop").phase.queued == ("W0",)
    assert d.row("A", 12, "haste") == ("F", "F") and d.row("A", 13, "time_stop") == ("D", "D")
    assert d.view_at(13, "B", "time_stop")["phase"]["kind"] == "waiting"


def test_the_hasted_phase_round_trips_through_json() -> None:
    d = Duel(**HASTE, ruleset=W).run(stop=lambda g: g.phase.hasted)
    assert d.game.phase.hasted and d.game.phase.turn == 8
    again = Game.from_json(d.game.to_json())
    assert again == d.game and again.phase.hasted


def test_the_computer_gives_legal_input_in_hasted_turns() -> None:
    # From the hastened A's normal turn 7, the computer plays both sides (random levels): every
    # input it gives, in the hasted turns too, is legal, and the hasted turns come (up to the
    # third, after which the duel is an ordinary one).
    start = Duel(**HASTE, ruleset=W).run(6).game
    for seed in range(size(2, deep=4)):  # tests/sizes.py
        game, rng, hasted = start, random.Random(seed), 0
        for _ in range(12):
            if game.phase.kind == "over" or hasted == 3:
                break
            inputs = {}
            for v in game.phase.actors:
                raw = choose_input(game, v, rng.choice(sorted(LEVELS)))
                assert input_problems(game, v, parse_input(game, raw)) == [], raw
                inputs[v] = raw
            hasted += game.phase.hasted
            game, _ = duel.step(game, inputs)
        assert hasted >= 1, seed


def test_a_hastened_monster_attacks_twice_in_each_normal_turn_and_takes_no_hasted_turn() -> None:
    # A's goblin (turns 1-3) is hastened on turn 6: it attacks twice on turns 7-9, once before
    # and after; no hasted turn comes (only a hastened wizard takes one).
    script: Script = {"A": "P W P W W C - - - - / S F W - - C - - - -", "B": HASTE["B"]}
    d = Duel(**script, ruleset=W).orders(6, "A", {"casts": [
        {"set": 0, "hand": "B", "spell": "haste", "target": "M1"}]})
    d.run()
    assert (0, "haste", "M1") in d.casts()
    assert _hasted_turns(d) == []
    assert d.damage("B") == 4 + 2 * 3 + 1  # turns 3-6 once, 7-9 twice, 10 once


def test_the_reference_text_tells_the_warlocks_haste() -> None:
    from wavinghands.rulesets import find_ruleset

    assert "separate hasted turn" in find_ruleset(W).variant.descriptions()["haste"]
    assert "extra set of gestures" in find_ruleset("standard").variant.descriptions()["haste"]


def test_a_hand_to_name_waits_through_the_casters_hasted_turn() -> None:
    """"The paralysed and the charmed hand are chosen in the next turn's orders" (issue 14): the
    hand takes hold when its subject next acts, so in the caster's hasted turn, which the
    subject does not take, nothing would use it. It is not asked there, and naming it is
    refused with the reason (docs/rules.md, "Warlocks: paralysis"); the caster names it in the
    next normal turn, where it counts."""
    from wavinghands.preview import preview
    from wavinghands.situation import hand_questions, hands_named_later

    # A hastens himself on turn 6 (hastened on 7-9) and completes a paralysis (F-F-F, left)
    # over turn 7, hasted turn 8 and turn 9: its hand is to be named with B's turn 11.
    d = Duel(A="P W P W W C F F - - / - - - - - C - - - -", B=HASTE["B"], ruleset=W)
    d.extra(8, "A", "F / -").extra(10, "A", "- / -")
    d.until(10, "time_stop")
    assert d.game.phase.hasted and d.game.phase.actors == (0,)
    assert (0, "paralysis", "W1") in d.casts()
    assert hand_questions(d.game, 0) == []
    assert [q.id for q in hands_named_later(d.game, 0)] == ["paralysis:W1"]
    assert "hands" not in d.view("A")["constraints"]  # the order form asks nothing
    shown = preview(d.game, 0, {"gestures": [["-", "-"]]})
    assert not [q for q in shown["questions"] if q["kind"] == "hand"]
    assert [w["text"] for w in shown["warnings"] if w["code"] == "hand-later"] == [
        "You name B's paralysed hand in your orders for his next turn, not now: B takes no part "
        "in this hasted turn."]
    named = {"gestures": [["-", "-"]], "hands": {"paralysis:W1": "R"}}
    assert problems(d.game, "A", named) == ["hand-not-now"]
    refusal = input_problems(d.game, 0, parse_input(d.game, named))[0]
    assert "B takes no part in this hasted turn, so his paralysed hand cannot be named now: " \
        "name it in your orders for his next turn" in str(refusal)
    # Turn 11, the next B takes: A names the right hand, and it is B's right that is frozen.
    d.orders(9, "A", {"hands": {"paralysis:W1": "R"}}).run(stop=lambda g: g.phase.turn == 12)
    assert [q.id for q in hand_questions(d.states[-2], 0)] == ["paralysis:W1"]
    assert "B's right hand is paralysed" in d.log_of("B")
