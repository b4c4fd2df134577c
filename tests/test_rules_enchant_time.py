"""Enchantments IV: haste, time stop, delayed effect and permanency.

One scenario per clause of 000 (the reference rules), each citing its sentence.  Turn numbers
are game turns (time-stopped turns get numbers too).
"""

from __future__ import annotations

import pytest
from citing import cite
from dsl import Duel, cast, problems

from wavinghands.view import view

# A: P-W-P-W-W-C on turns 1-6 (the clap with both hands): haste on himself, turns 7-9.
HASTE_L = "P W P W W C"
HASTE_R = "- - - - - C"


def hits(d: Duel, turn: int) -> list[tuple[str, str]]:
    """(source, target) of the damage done on a turn."""
    out = []
    for e in d.events:
        if e.turn == turn and e.type == "damage":
            data = dict(e.data)
            out.append((data["source"], data["target"]))
    return out


def quiet(n: int) -> str:
    """A wizard who does nothing for n turns."""
    return " ".join(["-"] * n) + "/" + " ".join(["-"] * n)


# ---------------------------------------------------------------------------------------------
# Haste
# ---------------------------------------------------------------------------------------------
@cite("For the next 3 turns, the subject (but not his monsters if a wizard) makes an extra set "
      "of gestures due to being speeded up. This takes effect in the following turn so that "
      "instead of giving one pair of gestures, 2 are given")
def test_haste_three_turns_of_two_gesture_sets() -> None:
    d = Duel(A=f"{HASTE_L} - - - -/{HASTE_R} - - - -", B=quiet(10))
    for t in (7, 8, 9):
        d.hasted(t, "A", "-/-")
    d.run(6)
    assert d.view_at(6, "A")["constraints"]["sets"] == 1  # not on the casting turn
    assert "haste-sets" in problems(d.game, "A", {"gestures": [["-", "-"]]})
    assert problems(d.game, "A", {"gestures": [["-", "-"], ["-", "-"]]}) == []
    assert d.view_at(7, "B")["constraints"]["sets"] == 1  # only the subject
    d.run()
    assert [d.view_at(t, "A")["constraints"]["sets"] for t in (7, 8, 9, 10)] == [2, 2, 2, 1]
    rows = [(r.turn, r.kind) for r in d.game.wizard(0).history if r.turn >= 7]
    assert rows == [(7, "normal"), (7, "haste"), (8, "normal"), (8, "haste"), (9, "normal"),
                    (9, "haste"), (10, "normal")]


def haste_missiles(B: str) -> Duel:
    """A hastened on turns 7-9.  Turn 7: sets (-, -) and (-, S); turn 8: sets (S, D) and
    (D, -): the right hand's S-D completes in the first set, the left hand's in the second."""
    d = Duel(A=f"{HASTE_L} - S -/{HASTE_R} - D -", B=B)
    d.hasted(7, "A", "-/S").hasted(8, "A", "D/-").hasted(9, "A", "-/-")
    return d


@cite("the effect of both being taken simultaneously at the end of the turn. Thus a single "
      "counter-spell from his adversary could cancel 2 spells cast by the hastened wizard on 2 "
      "half-turns if the phasing is right.")
def test_haste_spells_of_both_sets_resolve_together() -> None:
    d = haste_missiles(B="- - - - - - - - -/- - - - - - - - -").run()
    missiles = [e for e in d.events if e.turn == 8 and e.type == "cast"
                and dict(e.data)["spell"] == "missile"]
    assert len(missiles) == 2
    assert d.damage("B") == 2
    # B's counter-spell (W-W-S, turns 6-8) cancels both.
    d = haste_missiles(B="- - - - - W W S -/- - - - - - - - -").run()
    assert d.damage("B") == 0


@cite("the effect of both being taken simultaneously at the end of the turn.")
@pytest.mark.parametrize("shield_set", [0, 1])
def test_haste_a_shield_in_either_set_covers_the_whole_turn(shield_set: int) -> None:
    # B stabs A on turn 7; A's P (a shield) is in the first or the second set.
    first, second = ("P/-", "-/-") if shield_set == 0 else ("-/-", "P/-")
    left = first.split("/")[0]
    d = Duel(A=f"{HASTE_L} {left} -/{HASTE_R} - -", B="- - - - - - > -/- - - - - - - -")
    d.hasted(7, "A", second).hasted(8, "A", "-/-")
    d.run()
    assert d.damage("A") == 0


@cite("Non-hastened wizards and monsters can see everything the hastened individual is doing.")
def test_haste_both_sets_are_visible_to_the_opponent() -> None:
    d = haste_missiles(B="- - - - - - - - -/- - - - - - - - -").run()
    rows = [(r["turn"], r["kind"], r["left"], r["right"])
            for r in d.view("B")["wizards"][0]["history"] if r["turn"] in (7, 8)]
    assert rows == [(7, "normal", "-", "-"), (7, "haste", "-", "S"), (8, "normal", "S", "D"),
                    (8, "haste", "D", "-")]


@cite("the subject (but not his monsters if a wizard) makes an extra set of gestures")
def test_haste_does_not_speed_up_the_wizards_monsters() -> None:
    # A: a goblin with his right hand (S-F-W, turns 1-3), hastened on turns 7-9: the goblin
    # still makes one attack a turn.
    d = Duel(A=f"{HASTE_L} - - -/S F W - - C - - -", B="- - - - - - - - -/- - - - - - - - -")
    for t in (7, 8, 9):
        d.hasted(t, "A", "-/-")
        d.orders(t, "A", {"monsters": {"M1": "W1"}})
    d.run()
    for t in (7, 8, 9):
        assert hits(d, t) == [("goblin", "W1")]


@cite("Hastened monsters can change target in the extra turns if desired.")
def test_hastened_monster_attacks_twice_and_may_change_target() -> None:
    # A: a goblin (right hand, S-F-W, turns 1-3), then haste cast at the goblin on turn 6.
    d = Duel(A=f"{HASTE_L} - - - -/S F W - - C - - - -", B=quiet(10))
    d.orders(6, "A", {"casts": [cast("B", "haste", "M1")]})
    for t in (7, 8, 9, 10):
        targets = {8: ["W1", "none"], 10: "W1"}.get(t, ["W1", "W1"])
        d.orders(t, "A", {"monsters": {"M1": targets}})
    d.run()
    assert d.view_at(7, "A")["constraints"]["sets"] == 1  # the wizard is not hastened
    assert hits(d, 7) == [("goblin", "W1"), ("goblin", "W1")]
    assert hits(d, 8) == [("goblin", "W1")]  # the second attack of turn 8 aimed at nobody
    assert hits(d, 9) == [("goblin", "W1"), ("goblin", "W1")]
    assert hits(d, 10) == [("goblin", "W1")]  # three turns only


# ---------------------------------------------------------------------------------------------
# Time stop
# ---------------------------------------------------------------------------------------------
# A: S-P-P-C on turns 1-4 (the clap with both hands): time stop on himself; turn 5 is his.
STOP_L = "S P P C"
STOP_R = "- - - C"


@cite("The subject of this spell immediately takes an extra turn")
def test_time_stop_extra_turn_only_the_subject_takes() -> None:
    d = Duel(A=f"{STOP_L} - -/{STOP_R} - -", B="- - - - W -/- - - - W -").extra(5, "A", "F/W")
    d.until(5, "time_stop")
    p = d.game.phase
    assert (p.actors, p.time_stopped) == ((0,), ("W0",))
    assert view(d.game, 0)["to_act"] is True and view(d.game, 1)["to_act"] is False
    assert "not-your-turn" in problems(d.game, "B", {"gestures": [["-", "-"]]})
    d.run()
    assert d.row("A", 5, "time_stop") == ("F", "W")
    assert [r.turn for r in d.game.wizard(1).history] == [1, 2, 3, 4, 6, 7]
    assert d.row("B", 6) == ("W", "W")  # B's fifth turn is game turn 6


@cite("on which no-one can see or know about unless they are harmed.")
def test_time_stop_the_other_learns_only_of_harm() -> None:
    # Turn 5 (A's): a stab at B with the right hand, a shield with the left.
    d = Duel(A=f"{STOP_L} - -/{STOP_R} - -", B="- - - - - -/- - - - - -").extra(5, "A", "P/>")
    d.run()
    assert d.damage("B") == 1
    assert "A casts Shield at A." in [e["text"] for e in d.view("A")["log"] if e["turn"] == 5]
    turn5 = [e["text"] for e in d.view("B")["log"] if e["turn"] == 5]
    assert turn5 == ["A stabs B for 1."]
    (row,) = [r for r in d.view("B")["wizards"][0]["history"] if r["turn"] == 5]
    assert (row["left"], row["right"], row["kind"]) == ("?", "?", "time_stop")


@cite("All non-affected beings have no resistance to any form of attack, e.g. a wizard halfway "
      "through the duration of a protection from evil spell can be harmed by a monster which has "
      "had its time stopped.")
def test_time_stop_no_resistance_protection_from_evil() -> None:
    # B: protection from evil (W-W-P, turns 1-3).  A stabs B on his stopped turn 5 (it lands)
    # and on turn 6 (B's protection, still running, stops it).
    d = Duel(A=f"{STOP_L} > -/{STOP_R} - -", B="W W P - - -/- - - - - -").extra(5, "A", "-/>")
    d.run()
    assert hits(d, 5) == [("stab", "W1")]
    assert hits(d, 6) == []  # B's fifth own turn: the protection still runs


@cite("All non-affected beings have no resistance to any form of attack, e.g. a wizard halfway "
      "through the duration of a protection from evil spell can be harmed by a monster which has "
      "had its time stopped. Time-stopped monsters attack whoever their controller instructs")
def test_time_stopped_monster_attacks_through_protection() -> None:
    # A: a goblin (right hand S-F-W, turns 1-3); time stop (left S-P-P-C, turns 2-5) cast at
    # the goblin.  B: protection from evil (turns 1-3), which stops the goblin on turns 3-5.
    d = Duel(A="- S P P C - -/S F W - C - -", B="W W P - - - -/- - - - - - -")
    d.orders(5, "A", {"casts": [cast("B", "time_stop", "M1")]})
    d.stopped_orders(6, "A", {"monsters": {"M1": "W1"}})
    d.until(6, "time_stop")
    assert d.game.phase.time_stopped == ("M1",) and d.game.phase.actors == (0,)
    # A himself is frozen: he may only direct the goblin.
    assert "frozen" in problems(d.game, "A", {"gestures": [["F", "-"]]})
    d.run()
    assert [hits(d, t) for t in (3, 4, 5)] == [[], [], []]
    assert hits(d, 6) == [("goblin", "W1")]
    assert hits(d, 7) == []  # game turn 7 is B's sixth own turn: protected again


@cite("time-stopped elementals affect everyone, resistance to heat or cold being immaterial in "
      "that turn.")
def test_time_stopped_elemental_ignores_resistance() -> None:
    # A: fire elemental (left C-S-W-W-S, turns 1-5) and resist heat (right W-W-F-P, turns 2-5);
    # B: resist heat (turns 1-4).  A stops time for the elemental (S-P-P-C, turns 6-9).
    d = Duel(A="C S W W S S P P C - -/C W W F P - - - C - -",
             B="W W F P - - - - - - -/- - - - - - - - - - -")
    d.decide(5, {"elemental:0:L": "fire"})
    d.orders(9, "A", {"casts": [cast("B", "time_stop", "M1")]})
    d.until(10, "time_stop")
    assert d.damage("A") == 0 and d.damage("B") == 0  # both resist heat
    d.run()
    assert sorted(hits(d, 10)) == [("fire_elemental", "W0"), ("fire_elemental", "W1")]
    assert d.damage("A") == 3 and d.damage("B") == 3
    assert hits(d, 11) == []  # resistance counts again


@cite("The subject of this spell immediately takes an extra turn")
def test_time_stop_other_monsters_do_not_act() -> None:
    # B's goblin (turns 1-3) attacks A every turn, but not in A's extra turn 5.
    d = Duel(A=f"{STOP_L} - -/{STOP_R} - -", B="S F W - - -/- - - - - -").run()
    assert hits(d, 4) == [("goblin", "W0")]
    assert hits(d, 5) == []
    assert hits(d, 6) == [("goblin", "W0")]


# ---------------------------------------------------------------------------------------------
# Delayed effect
# ---------------------------------------------------------------------------------------------
# A: D-W-S-S-S-P on turns 1-6 on himself (its P is taken by the longer spell, not a shield).
DELAY_L = "D W S S S P"


def missile_on(turn: int, length: int) -> list[str]:
    """A right hand making S-D that completes on `turn`."""
    out = ["-"] * length
    out[turn - 2], out[turn - 1] = "S", "D"
    return out


@cite("The next spell he completes, provided it is on this turn or one of the next 3 is "
      "\"banked\" until needed, i.e. it fails to work until its caster desires.")
@pytest.mark.parametrize("turn, banked", [(6, True), (7, True), (9, True), (10, False)])
def test_delayed_effect_banks_the_next_spell_within_four_turns(turn: int, banked: bool) -> None:
    right = missile_on(turn, 11)
    d = Duel(A=f"{DELAY_L} - - - - -/" + " ".join(right), B=quiet(11))
    d.run()
    if banked:
        assert d.banked_spell("A") == "missile"
        assert d.damage("B") == 0
        assert d.view("A")["wizards"][0]["banked"]["spell"] == "missile"
        assert "banked" not in d.view("B")["wizards"][0]  # the opponent is not shown the bank
        assert d.view("A")["constraints"]["can_release"] is True
    else:
        assert d.banked("A") is None
        assert d.damage("B") == 1


@cite("The spell must be written down to be used by its caster at the same time that he writes "
      "his gestures.")
@pytest.mark.parametrize("release", [True, {"target": "W1"}])
def test_delayed_effect_release_with_a_later_turns_orders(release: object) -> None:
    right = missile_on(6, 10)
    d = Duel(A=f"{DELAY_L} - - - -/" + " ".join(right), B=quiet(10))
    d.orders(9, "A", {"release": release})
    d.run(8)
    assert d.damage("B") == 0
    d.run()
    assert [e.turn for e in d.events if e.type == "damage"] == [9]
    assert d.damage("B") == 1
    assert d.banked("A") is None
    assert "nothing-banked" in problems(d.game, "A", {"gestures": [["-", "-"]], "release": True})


@cite("This next spell which is to be banked does not include the actual spell doing the "
      "banking.")
def test_delayed_effect_does_not_bank_itself() -> None:
    d = Duel(A=f"{DELAY_L} S D/- - - - - - - -", B="- - - - - - - -/- - - - - - - -").run()
    assert d.banked_spell("A") == "missile"


@cite("Note that spells banked are those cast by the subject not those cast at him.")
def test_delayed_effect_does_not_bank_spells_cast_at_him() -> None:
    d = Duel(A=f"{DELAY_L} - - -/- - - - - - - - -", B="- - - - - S D - -/- - - - - - - - -")
    d.run(7)
    assert d.damage("A") == 1
    assert d.banked("A") is None
    assert "delayed_effect" in d.effects("A")  # still waiting for A's own next spell


@cite("Remember that P is a shield spell, and surrender is not a spell.")
def test_delayed_effect_banks_a_shield() -> None:
    # A's P on turn 7 is a shield: it is banked; his missile of turns 8-9 then works.
    d = Duel(A=f"{DELAY_L} P S D/- - - - - - - - -", B="- - - - - - > - -/- - - - - - - - -")
    d.run()
    assert d.banked_spell("A") == "shield"
    assert d.damage("A") == 1  # the banked shield did not stop B's stab on turn 7
    assert d.damage("B") == 1


@cite("Remember that P is a shield spell, and surrender is not a spell.")
def test_delayed_effect_surrender_is_not_banked() -> None:
    d = Duel(A=f"{DELAY_L} P/- - - - - - P", B="- - - - - - -/- - - - - - -").run()
    assert d.result() == (1, "A surrendered")


@cite("If he casts more than one spell at the same time he chooses which is to be banked.")
@pytest.mark.parametrize("bank_hand, works", [("L", "shield"), ("R", "missile")])
def test_delayed_effect_the_caster_chooses_among_simultaneous_spells(bank_hand: str,
                                                                     works: str) -> None:
    # Turn 8: the left hand's missile (S-D, turns 7-8) and the right hand's shield (P).
    d = Duel(A=f"{DELAY_L} S D -/- - - - - - - P -", B="- - - - - - - > -/- - - - - - - - -")
    spell = "missile" if bank_hand == "L" else "shield"
    d.orders(8, "A", {"casts": [cast(bank_hand, spell, bank=True)]})
    d.run()
    assert d.banked_spell("A") == spell
    if works == "shield":
        assert d.damage("A") == 0 and d.damage("B") == 0
    else:
        assert d.damage("A") == 1 and d.damage("B") == 1


@cite("A wizard may only have one spell banked at any one time.")
def test_delayed_effect_one_spell_banked_at_a_time() -> None:
    # Turn 6: the first delayed effect banks the right hand's missile.  Turns 7-12: a second
    # delayed effect; its next spell (a missile on turn 13) cannot be banked and works; the
    # first missile is released on turn 14.
    left = "D W S S S P D W S S S P - - -"
    right = "- - - - S D - - - - - S D - -"
    d = Duel(A=f"{left}/{right}", B=" ".join(["-"] * 15) + "/" + " ".join(["-"] * 15))
    d.orders(14, "A", {"release": True})
    d.run(13)
    bank = d.banked("A")
    assert bank is not None and bank.banked_turn == 6
    assert d.damage("B") == 1  # the missile of turn 13
    d.run()
    assert d.damage("B") == 2
    assert d.banked("A") is None


@cite("This spell only works if cast upon a wizard.")
def test_delayed_effect_on_a_monster_does_nothing() -> None:
    # A's goblin (right hand S-F-W, turns 1-3) is the subject; A's later missile is not banked.
    d = Duel(A=f"{DELAY_L} S D/S F W - - - - -", B="- - - - - - - -/- - - - - - - -")
    d.orders(3, "A", {"monsters": {"new:0:R": "none"}})  # the goblin stays idle throughout
    for t in (4, 5, 7, 8):
        d.orders(t, "A", {"monsters": {"M1": "none"}})
    d.orders(6, "A", {"casts": [cast("L", "delayed_effect", "M1")], "monsters": {"M1": "none"}})
    d.run()
    assert d.banked("A") is None
    assert d.damage("B") == 1


@cite("Terminates the effects of all Enchantment Spells that have been cast on the subject")
def test_remove_enchantment_ends_a_waiting_delayed_effect() -> None:
    # B: P-D-W-P on turns 4-7 at A, whose delayed effect (turn 6) is still waiting.
    d = Duel(A=f"{DELAY_L} - S D/- - - - - - - - -", B="- - - P D W P - -/- - - - - - - - -")
    d.orders(7, "B", {"casts": [cast("L", "remove_enchantment", "W0")]})
    d.run()
    assert d.banked("A") is None
    assert d.damage("B") == 1


# ---------------------------------------------------------------------------------------------
# Permanency
# ---------------------------------------------------------------------------------------------
# A: S-P-F-P-S-D-W on turns 1-7 on himself.  Inside it: an anti-spell (S-P-F, turn 3) and a
# missile (S-D, turn 6), both shot off at nobody.  It waits for turns 7-10.
PERM_L = "S P F P S D W"


def perm_duel(A_left: str, A_right: str, B: str, dice: dict[str, int] | None = None) -> Duel:
    d = Duel(A=f"{A_left}/{A_right}", B=B, dice=dice)
    d.orders(3, "A", {"casts": [cast("L", "anti_spell", "none")]})
    d.orders(6, "A", {"casts": [cast("L", "missile", "none")]})
    return d


@cite("The next spell he completes, provided it is on this turn or one of the next 3, and which "
      "falls into the category of \"Enchantments\" (except anti-spell, disease, poison, or "
      "time-stop) will have its effect made permanent. This means that the effect of the "
      "extended spell on the first turn of its duration is repeated eternally.")
@pytest.mark.parametrize("last, permanent", [(8, True), (10, True), (11, False)])
def test_permanency_makes_fear_permanent(last: int, permanent: bool) -> None:
    # A's fear (S-W-D with the right hand) completes on turn `last`; B is watched until 15.
    right = ["-"] * 15
    right[last - 3:last] = ["S", "W", "D"]
    d = perm_duel(f"{PERM_L} " + " ".join(["-"] * 8), " ".join(right),
                  B="- - - - - - - - - - - - - - -/- - - - - - - - - - - - - - -")
    d.run()
    fear = d.effect("B", "fear")
    if permanent:
        assert fear is not None and fear.permanent and fear.end is None
        assert d.view("B")["constraints"]["banned"] == ["C", "D", "F", "S"]
        assert "fear" in problems(d.game, "B", {"gestures": [["D", "-"]]})
    else:
        assert fear is None
        assert "permanency" not in d.effects("A")


@cite("For example, a confusion spell will be the same gesture rather than re-rolling the dice")
def test_permanent_confusion_repeats_the_first_roll() -> None:
    # A's confusion (left D-S-F, turns 8-10) at B, made permanent.  The dice of turn 11 say
    # "right hand, C"; those of turn 12 would say "left hand, W" but are not rolled.
    dice = {"11:confusion:1:0:hand": 5, "11:confusion:1:0:gesture": 1,
            "12:confusion:1:0:hand": 1, "12:confusion:1:0:gesture": 6}
    d = perm_duel(f"{PERM_L} D S F - - - -", "- - - - - - - - - - - - - -",
                  B="- - - - - - - - - - P P W -/- - - - - - - - - - - - - -", dice=dice)
    d.run()
    assert [d.row("B", t) for t in (11, 12, 13, 14)] == [("P", "C")] * 2 + [("W", "C"),
                                                                            ("-", "C")]


def permanent_charm() -> Duel:
    """A's charm person (right hand P-S-D-F, turns 7-10) at B, made permanent; A chooses B's
    left hand and writes a stab on turn 11.  Its S-D (turn 9) is a missile shot off at
    nobody.  From turn 12 on, B's left hand is fixed on the stab (B writes it: it is forced)."""
    d = perm_duel(f"{PERM_L} - - - - - -", "- - - - - - P S D F - - -",
                  B="- - - - - - - - - - - > >/- - - - - - - - - - - - -")
    d.orders(9, "A", {"casts": [cast("R", "missile", "none")]})
    d.decide(10, {"charm:W1": "L"})
    d.orders(11, "A", {"charm": {"gesture": ">"}})
    return d


@cite("a charm person will mean repetition of the chosen gesture")
def test_permanent_charm_person_repeats_the_chosen_gesture() -> None:
    d = permanent_charm().run()
    assert [d.row("B", t) for t in (11, 12, 13)] == [(">", "-")] * 3
    assert d.damage("A") == 3


@cite("a charm person will mean repetition of the chosen gesture",
      "This means that the effect of the extended spell on the first turn of its duration is "
      "repeated eternally.")
def test_permanent_charm_person_asks_the_caster_nothing_more() -> None:
    # Once chosen, the gesture is fixed: the caster has nothing left to write for B's hand.
    d = permanent_charm().run(11)
    assert d.row("B", 11) == (">", "-")
    assert d.view("A")["constraints"]["charm_target"] is None
    assert problems(d.game, "A", {"gestures": [["-", "-"]]}) == []
    assert d.view("B")["constraints"]["left"]["forced"] == ">"


@cite("This means that the effect of the extended spell on the first turn of its duration is "
      "repeated eternally.")
def test_permanent_amnesia_repeats_the_same_gestures() -> None:
    # A's amnesia (left D-P-P, turns 8-10) at B, made permanent: B's turn-10 gestures forever.
    d = perm_duel(f"{PERM_L} D P P - - -", "- - - - - - - - - - - - -",
                  B="- - - - - - - - - W W W W/- - - - - - - - - > > > >")
    d.run()
    assert [d.row("B", t) for t in (10, 11, 12, 13)] == [("W", ">")] * 4
    assert d.view("B")["constraints"]["left"]["forced"] == "W"


@cite("(except anti-spell, disease, poison, or time-stop)")
@pytest.mark.parametrize("spell, right", [
    # anti-spell (S-P-F, turns 6-8) at B; then fear (left S-W-D, turns 8-10) at B
    ("anti_spell", "- - - - - S P F - - - -"),
    # poison (D-W-W-F-W-D, turns 4-9) at B; then fear (turns 8-10)
    ("poison", "- - - D W W F W D - - -"),
])
def test_permanency_skips_the_exceptions(spell: str, right: str) -> None:
    d = perm_duel(f"{PERM_L} S W D - -", right, B=quiet(12))
    d.run(9)
    assert "permanency" in d.effects("A")  # the exception did not use it up
    for e in d.game.wizard(1).effects:
        assert not e.permanent
    d.run(10)
    (fear,) = [e for e in d.game.wizard(1).effects if e.kind == "fear"]
    assert fear.permanent


@cite("(except anti-spell, disease, poison, or time-stop)")
def test_permanency_does_not_extend_time_stop() -> None:
    # A's time stop (right S-P-P-C, turns 5-8, the clap with both hands) on himself: one
    # extra turn only, and permanency still waits.
    d = perm_duel(f"{PERM_L} C - - - -", "- - - - S P P C - - - -", B=quiet(12))
    d.until(9, "time_stop")
    assert "permanency" in d.effects("A")
    d.run()
    assert sum(1 for g in d.states if g.phase.kind == "time_stop") == 1
    assert [r.kind for r in d.game.wizard(0).history].count("time_stop") == 1


@cite("The next spell he completes, provided it is on this turn or one of the next 3, and which "
      "falls into the category of \"Enchantments\"")
def test_permanency_waits_past_a_non_enchantment() -> None:
    # A's missile (right S-D, turns 7-8) is not an enchantment; his fear (turns 8-10) is next.
    d = perm_duel(f"{PERM_L} S W D -", "- - - - - - S D - - -", B=quiet(11))
    d.run()
    assert d.damage("B") == 1
    (fear,) = [e for e in d.game.wizard(1).effects if e.kind == "fear"]
    assert fear.permanent


@cite("If the subject of the permanency casts more than one spell at the same time eligible for "
      "permanency, he chooses which has its duration extended. Note that the person who has his "
      "spell made permanent does not necessarily have to make himself the subject of the spell.")
@pytest.mark.parametrize("choice", ["fear", "protection_from_evil"])
def test_permanency_the_caster_chooses(choice: str) -> None:
    # Turn 10: fear (left S-W-D) at B and protection from evil (right W-W-P) on A.
    d = perm_duel(f"{PERM_L} S W D - - - - -", "- - - - - - - W W P - - - - -", B=quiet(15))
    hand = "L" if choice == "fear" else "R"
    d.orders(10, "A", {"casts": [cast(hand, choice, permanent=True)]})
    d.run()
    fear = [e for e in d.game.wizard(1).effects if e.kind == "fear"]
    pfe = [e for e in d.game.wizard(0).effects if e.kind == "protection_from_evil"]
    if choice == "fear":
        assert fear and fear[0].permanent and not pfe  # PfE lasted turns 10-13 only
    else:
        assert not fear and pfe and pfe[0].permanent


def perm_and_delay(B: str) -> Duel:
    """A: permanency (left, turns 1-7, waits 7-10) and delayed effect (right D-W-S-S-S-P,
    turns 3-8, waits 8-11); then fear (left S-W-D, turns 8-10) at B and a missile (right S-D,
    turns 10-11) at B."""
    return perm_duel(f"{PERM_L} S W D - - -", "- - D W S S S P - S D - -", B=B)


@cite("so if both a permanency and delayed effect are eligible for the same spell to be banked "
      "or extended, a choice must be made, the losing spell being neutralized and working on the "
      "next spell instead")
def test_permanency_and_delayed_effect_permanency_chosen() -> None:
    d = perm_and_delay(B=quiet(13))
    d.orders(10, "A", {"casts": [cast("L", "fear", permanent=True)]})
    d.run()
    (fear,) = [e for e in d.game.wizard(1).effects if e.kind == "fear"]
    assert fear.permanent
    # The delayed effect lost, and worked on the next spell: the missile of turn 11.
    assert d.banked_spell("A") == "missile"
    assert d.damage("B") == 0


@cite("so if both a permanency and delayed effect are eligible for the same spell to be banked "
      "or extended, a choice must be made, the losing spell being neutralized and working on the "
      "next spell instead")
def test_permanency_and_delayed_effect_bank_chosen() -> None:
    d = perm_and_delay(B=quiet(13))
    d.orders(10, "A", {"casts": [cast("L", "fear", bank=True)]})
    d.run()
    assert d.banked_spell("A") == "fear"
    assert "fear" not in d.effects("B")
    assert d.damage("B") == 1  # nothing is left to bank the missile of turn 11


@cite("A permanency spell cannot increase its own duration, nor the duration of spells saved by "
      "a delayed effect")
def test_permanency_does_not_extend_a_released_spell() -> None:
    # A banks a fear (right S-W-D, turns 4-6, with delayed effect on the left, turns 1-6), then
    # casts permanency with his right hand (turns 7-13, its anti-spell and missile shot off at
    # nobody), and releases the fear on turn 14 while permanency waits.
    left = "D W S S S P - - - - - - - - - -"
    right = "- - - S W D S P F P S D W - - -"
    d = Duel(A=f"{left}/{right}", B=quiet(16))
    d.orders(9, "A", {"casts": [cast("R", "anti_spell", "none")]})
    d.orders(12, "A", {"casts": [cast("R", "missile", "none")]})
    d.orders(14, "A", {"release": True})
    d.run(13)
    assert d.banked_spell("A") == "fear"
    assert "permanency" in d.effects("A")
    d.run()
    assert d.view_at(15, "B")["constraints"]["banned"] == ["C", "D", "F", "S"]
    assert d.view_at(16, "B")["constraints"]["banned"] == []
