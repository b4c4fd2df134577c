"""Enchantments I: the spells that take over a mind (amnesia, confusion, charm person, charm
monster, paralysis, fear), their clash rule, and anti-spell.

One scenario per clause of 000 (the reference rules), each citing its sentence.  Turn numbers
are game turns counted from 1; `Duel(A=..., B=...)` writes each hand's gestures turn by turn.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from citing import cite
from dsl import Duel, cast, problems

from wavinghands.chance import roll
from wavinghands.view import view

# A goblin for B: S-F-W on turns 1-3 (it attacks A from turn 3 on).
B_GOBLIN = "S F W"


def damage_events(d: Duel, turn: int) -> list[tuple[str, str, str]]:
    """(source, target, amount) of every damage event of a turn."""
    out = []
    for e in d.events:
        if e.turn == turn and e.type == "damage":
            data = dict(e.data)
            out.append((data["source"], data["target"], data["amount"]))
    return out


def goblin_hits(d: Duel, turn: int) -> list[str]:
    """Whom goblins hit on a turn."""
    return [t for src, t, _ in damage_events(d, turn) if src == "goblin"]


def constraints(d: Duel, turn: int, who: str) -> dict[str, Any]:
    """The constraints the view shows a wizard for his orders of game turn `turn`."""
    shown: dict[str, Any] = d.view_at(turn, who)["constraints"]
    return shown


# ---------------------------------------------------------------------------------------------
# Amnesia
# ---------------------------------------------------------------------------------------------
AMNESIA_ROWS = [
    pytest.param((">", "W"), id="stab-and-wave"),
    pytest.param(("W", ">"), id="wave-and-stab"),
    pytest.param(("C", "C"), id="clap"),
    pytest.param(("-", "-"), id="nothing"),
    pytest.param(("F", "D"), id="fingers-and-digit"),
]


@cite("If the subject of this spell is a wizard, next turn he must repeat identically the "
      "gestures he made in the current turn, including stabs.")
@pytest.mark.parametrize("row", AMNESIA_ROWS)
def test_amnesia_wizard_repeats_his_gestures(row: tuple[str, str]) -> None:
    # A: D-P-P on turns 1-3 at B; B's turn-3 gestures must come again on turn 4.
    left, right = row
    d = Duel(A="D P P - -/- - - - -", B=f"- - {left} {left} -/- - {right} {right} -")
    d.run(3)
    c = constraints(d, 4, "B")
    assert (c["left"]["forced"], c["right"]["forced"]) == row
    assert c["left"]["why"] == c["right"]["why"] == "amnesia"
    # Any other gestures are refused.
    other = ["P" if left != "P" else "W", right]
    assert "forced-gesture" in problems(d.game, "B", {"gestures": [other]})
    d.run()
    assert d.row("B", 4) == row
    # Only the next turn: turn 5 is free again.
    assert d.row("B", 5) == ("-", "-")
    stabs = sum(1 for g in row if g == ">")
    # A's P on turn 3 is amnesia's last gesture, not a shield: both stabs land.
    assert d.damage("A") == 2 * stabs


@cite("If the subject is a monster it will attack whoever it attacked this turn.")
@pytest.mark.parametrize("first, then, expected", [
    pytest.param("W0", "none", "W0", id="ordered-to-rest-still-attacks-A"),
    pytest.param("W0", "W1", "W0", id="ordered-at-B-still-attacks-A"),
    pytest.param("W1", "W0", "W1", id="keeps-attacking-its-own-master"),
])
def test_amnesia_monster_attacks_last_target(first: str, then: str, expected: str) -> None:
    # B's goblin M1 (turn 3); A: D-P-P on turns 4-6 at M1; B orders it on turns 6 and 7.
    d = Duel(A="- - - D P P - -/- - - - - - - -", B=f"{B_GOBLIN} - - - - -/- - - - - - - -")
    d.orders(6, "A", {"casts": [cast("L", "amnesia", "M1")]})
    d.orders(6, "B", {"monsters": {"M1": first}})
    d.orders(7, "B", {"monsters": {"M1": then}})
    d.run()
    assert ("goblin", first, "1") in damage_events(d, 6)
    assert damage_events(d, 7) == [("goblin", expected, "1")]
    # Turn 8: obeys its master again (default target: the master's opponent).
    assert damage_events(d, 8) == [("goblin", "W0", "1")]


# ---------------------------------------------------------------------------------------------
# Confusion
# ---------------------------------------------------------------------------------------------
CONFUSION_FACES = "CDFPSW"  # "1=C, 2=D, 3=F, 4=P, 5=S, 6=W"


@cite("next turn he writes down his gestures as usual and after exposing them, rolls 2 dice to "
      "determine which gesture is superseded due to his being confused. The first die indicates "
      "left hand on 1-3, right on 4-6. The second roll determines what the gesture for that hand "
      "shall be replaced with: 1=C, 2=D, 3=F, 4=P, 5=S, 6=W.")
@pytest.mark.parametrize("hand_die, gesture_die",
                         list(itertools.product(range(1, 7), range(1, 7))))
def test_confusion_dice_table(hand_die: int, gesture_die: int) -> None:
    # A: D-S-F on turns 1-3 at B; B writes (W, W) on turn 4; the record's dice decide.
    dice = {"4:confusion:1:0:hand": hand_die, "4:confusion:1:0:gesture": gesture_die}
    d = Duel(A="D S F - -/- - - - -", B="- - - W -/- - - W -", dice=dice).run()
    face = CONFUSION_FACES[gesture_die - 1]
    expected = (face, "W") if hand_die <= 3 else ("W", face)
    assert d.row("B", 4) == expected
    assert d.row("B", 5) == ("-", "-")  # only the next turn


@cite("rolls 2 dice to determine which gesture is superseded due to his being confused.")
@pytest.mark.parametrize("seed", ["5eed5eed", "0badcafe", "12345678", "deadbeef", "feedf00d",
                                  "0a0b0c0d"])
def test_confusion_dice_come_from_chance_roll(seed: str) -> None:
    # Without explicit dice the two dice are wavinghands.chance.roll of the seed, the turn, both
    # wizards' nonces and the labels: the engine cannot pick the outcome.
    d = Duel(A="D S F - -/- - - - -", B="- - - W -/- - - W -", seed=seed)
    d.orders(4, "A", {"nonce": "a1"}).orders(4, "B", {"nonce": "b2"})
    d.run()
    nonces = {0: "a1", 1: "b2"}
    hand = roll(seed, 4, nonces, "confusion:1:0:hand", 6)
    face = CONFUSION_FACES[roll(seed, 4, nonces, "confusion:1:0:gesture", 6) - 1]
    expected = (face, "W") if hand <= 3 else ("W", face)
    assert d.row("B", 4) == expected


@cite("next turn he writes down his gestures as usual and after exposing them, rolls 2 dice")
def test_confused_gesture_counts_in_spells() -> None:
    # B writes S then W with his left hand; confusion turns the W into a D: S-D, a missile.
    dice = {"4:confusion:1:0:hand": 2, "4:confusion:1:0:gesture": 2}
    d = Duel(A="D S F -/- - - -", B="- - S W/- - - -", dice=dice).run()
    assert d.row("B", 4) == ("D", "-")
    assert (1, "missile", "W0") in d.casts()
    assert d.damage("A") == 1


@cite("next turn he writes down his gestures as usual")
def test_confused_wizard_writes_any_gestures() -> None:
    d = Duel(A="D S F/- - -", B="- - -/- - -").run()
    c = constraints(d, 4, "B")
    assert c["confused"] is True
    assert c["left"]["forced"] is None and c["right"]["forced"] is None and not c["banned"]
    assert problems(d.game, "B", {"gestures": [["C", "C"]]}) == []


@cite("If the subject of the spell is a monster, it attacks at random that turn.")
@pytest.mark.parametrize("die, target", [(1, "W0"), (2, "W1")])
def test_confused_monster_attacks_at_random(die: int, target: str) -> None:
    # B's goblin M1 (turn 3), ordered at A; A: D-S-F on turns 4-6 at M1.  The living beings
    # other than the goblin are A and B: the die picks one of them, on the casting turn.
    d = Duel(A="- - - D S F - -/- - - - - - - -", B=f"{B_GOBLIN} - - - - -/- - - - - - - -",
             dice={"6:monster:M1:0": die})
    d.orders(6, "A", {"casts": [cast("L", "confusion", "M1")]})
    for t in (6, 7):
        d.orders(t, "B", {"monsters": {"M1": "W0"}})
    d.run()
    assert damage_events(d, 6) == [("goblin", target, "1")]
    # The attack at random is "that turn": on turn 7 it obeys again.
    assert damage_events(d, 7) == [("goblin", "W0", "1")]


# ---------------------------------------------------------------------------------------------
# Charm person
# ---------------------------------------------------------------------------------------------
# A: P-S-D-F on turns 1-4 at B (the S-D inside is a missile at B on turn 3).
CHARM_A = "P S D F - -/- - - - - -"


@cite("The subject is told which of his hands will be controlled at the time the spell hits")
def test_charm_person_hand_is_a_decision_of_the_caster() -> None:
    d = Duel(A=CHARM_A, B="- - - - - -/- - - - - -").decide(4, {"charm:W1": "R"})
    d.until(4)
    assert d.game.phase.kind == "decision"
    assert d.game.phase.actors == (0,)
    (x,) = d.game.phase.decisions
    assert (x.kind, x.wizard, x.options) == ("charm", 0, ("L", "R"))
    assert view(d.game, 0)["to_act"] is True
    vb = view(d.game, 1)
    assert vb["to_act"] is False and vb["phase"]["decisions"] == []
    # B's wrong input and A's decision-less input are refused.
    assert "not-your-turn" in problems(d.game, "B", {"decisions": {"charm:W1": "L"}})
    assert "decision-missing" in problems(d.game, "A", {"decisions": {}})
    d.run(4)
    # The subject is told: the log line, his enchantment and his constraints name the hand.
    assert "A will control B's right hand next turn." in d.log_of("B")
    vb = d.view_at(5, "B")
    (eff,) = [e for e in vb["wizards"][1]["effects"] if e["kind"] == "charm_person"]
    assert eff["detail"].startswith("R")
    c = vb["constraints"]
    assert c["right"]["why"] == "charm" and c["right"]["controller"] == 0
    assert c["left"]["why"] == ""
    assert d.view_at(5, "A")["constraints"]["charm_target"] == {"wizard": 1, "hand": "R"}


@cite("in the following turn, the caster of the spell writes down the gesture he wants the "
      "subject's named hand to perform. This could be a stab or nothing.")
@pytest.mark.parametrize("gesture", [*"FPSWD", ">", "-"])
@pytest.mark.parametrize("hand", ["L", "R"])
def test_charm_person_caster_writes_the_gesture(hand: str, gesture: str) -> None:
    # B writes W with both hands on turn 5; the charmed hand makes A's gesture instead.
    d = Duel(A=CHARM_A, B="- - - - W -/- - - - W -").decide(4, {"charm:W1": hand})
    d.orders(5, "A", {"charm": {"gesture": gesture}})
    d.run()
    expected = (gesture, "W") if hand == "L" else ("W", gesture)
    assert d.row("B", 5) == expected
    # The missile of turn 3 hit B; a charmed stab hits A (the only other being).
    assert d.damage("A") == (1 if gesture == ">" else 0)
    assert d.row("B", 6) == ("-", "-")  # one turn only


@cite("in the following turn, the caster of the spell writes down the gesture he wants the "
      "subject's named hand to perform.")
def test_charm_person_caster_must_write_the_gesture() -> None:
    d = Duel(A=CHARM_A, B="- - - - -/- - - - -").decide(4, {"charm:W1": "L"}).run(4)
    assert "charm-missing" in problems(d.game, "A", {"gestures": [["-", "-"]]})
    assert problems(d.game, "A", {"gestures": [["-", "-"]], "charm": {"gesture": ">"}}) == []
    # Nobody else writes it.
    assert "charm-unexpected" in problems(d.game, "B", {"gestures": [["-", "-"]],
                                                         "charm": {"gesture": "P"}})


@cite("Except for cancellation with other enchantments, this spell only affects humans.")
def test_charm_person_does_not_affect_monsters() -> None:
    # A: P-S-D-F on turns 4-7 at B's goblin M1: no decision, the goblin still obeys B.
    d = Duel(A="- - - P S D F - -/- - - - - - - - -",
             B=f"{B_GOBLIN} - - - - - -/- - - - - - - - -")
    d.orders(7, "A", {"casts": [cast("L", "charm_person", "M1")]})
    d.run()
    assert d.decision_log == []
    (m,) = d.monsters()
    assert m.controller == 1 and m.effects == ()
    assert damage_events(d, 8) == [("goblin", "W0", "1")]


@cite("If the subject is only so because of a reflection from a magic mirror the subject of "
      "the mirror assumes the role of caster and writes down his opponent's gesture.")
def test_charm_person_reflected_mirror_subject_takes_the_casters_role() -> None:
    # B: C-(w on turns 3-4 (magic mirror); A's charm person comes back at A.
    d = Duel(A="P S D F - -/- - - - - -", B="- - C W - -/- - C W - -")
    d.decide(4, {"charm:W0": "L"})
    d.orders(5, "B", {"charm": {"gesture": ">"}})
    d.until(4)
    (x,) = d.game.phase.decisions
    assert (x.id, x.wizard) == ("charm:W0", 1)
    d.run(4)
    assert d.view_at(5, "B")["constraints"]["charm_target"] == {"wizard": 0, "hand": "L"}
    assert d.view_at(5, "A")["constraints"]["charm_target"] is None
    assert "charm-missing" in problems(d.state_at(5), "B", {"gestures": [["-", "-"]]})
    d.run()
    assert d.row("A", 5) == (">", "-")
    assert d.damage("B") == 2  # turn 3's missile, and A's own knife on turn 5


# ---------------------------------------------------------------------------------------------
# Charm monster
# ---------------------------------------------------------------------------------------------
@cite("Control of the monster is transferred to the caster of the spell (or retained by him) as "
      "of this turn, i.e. the monster will attack whosoever its new controller dictates from that "
      "turn onwards including that turn.")
def test_charm_monster_control_passes_this_turn() -> None:
    # B's goblin M1 (turn 3); A: P-S-D-D on turns 4-7 at M1.
    d = Duel(A="- - - P S D D - -/- - - - - - - - -",
             B=f"{B_GOBLIN} - - - - - -/- - - - - - - - -")
    d.orders(7, "A", {"casts": [cast("L", "charm_monster", "M1")], "monsters": {"M1": "W1"}})
    d.orders(7, "B", {"monsters": {"M1": "W0"}})  # its old master's orders no longer count
    d.run()
    assert goblin_hits(d, 6) == ["W0"]
    assert goblin_hits(d, 7) == ["W1"]
    (m,) = d.monsters()
    assert m.controller == 0
    # From then on: A's monster, attacking A's opponent by default; B may no longer direct it.
    assert goblin_hits(d, 8) == ["W1"]
    assert "not-your-monster" in problems(d.game, "B", {"gestures": [["-", "-"]],
                                                         "monsters": {"M1": "W0"}})
    assert d.view_at(8, "A")["constraints"]["monsters"] == ["M1"]
    assert d.view_at(8, "B")["constraints"]["monsters"] == []


@cite("Further charms are, of course, possible, transferring as before.")
def test_charm_monster_can_be_charmed_back() -> None:
    d = Duel(A="- - - P S D D - - - - -/- - - - - - - - - - - -",
             B=f"{B_GOBLIN} - - - - P S D D -/- - - - - - - - - - - -")
    d.orders(7, "A", {"casts": [cast("L", "charm_monster", "M1")]})
    d.orders(11, "B", {"casts": [cast("L", "charm_monster", "M1")], "monsters": {"M1": "W0"}})
    d.run()
    assert goblin_hits(d, 10) == ["W1"]
    assert goblin_hits(d, 11) == ["W0"]
    assert d.monsters()[0].controller == 1
    assert goblin_hits(d, 12) == ["W0"]


@cite("Control of the monster is transferred to the caster of the spell (or retained by him) as "
      "of this turn", "\"The elemental he's about to create\" is a valid target")
def test_charm_monster_on_a_monster_summoned_this_very_turn() -> None:
    # B: S-F-W on turns 2-4; A: P-S-D-D on turns 1-4 at the goblin B is summoning.
    d = Duel(A="P S D D - -/- - - - - -", B="- S F W - -/- - - - - -")
    d.orders(4, "A", {"casts": [cast("L", "charm_monster", "new:1:L")],
                      "monsters": {"new:1:L": "W1"}})
    d.run()
    (m,) = d.monsters()
    assert m.controller == 0
    assert goblin_hits(d, 4) == ["W1"]


@cite("this spell only affects monsters (excluding elementals)")
def test_charm_monster_does_not_affect_elementals() -> None:
    # B: C-S-W-W-S on turns 1-5 (a fire elemental, M1); A: P-S-D-D on turns 3-6 at M1.
    d = Duel(A="- - P S D D -/- - - - - - -", B="C S W W S - -/C - - - - - -")
    d.decide(5, {"elemental:1:L": "fire"})
    d.orders(6, "A", {"casts": [cast("L", "charm_monster", "M1")]})
    d.run()
    (m,) = d.monsters()
    assert m.kind == "fire_elemental" and m.controller == 1
    assert not any(e.type == "charm_monster" for e in d.events)


@cite("Except for cancellation with other enchantments, this spell only affects monsters")
def test_charm_monster_does_not_affect_wizards() -> None:
    d = Duel(A="P S D D - -/- - - - - -", B="- - - - - -/- - - - - -").run()
    assert d.decision_log == []
    assert d.effects("B") == set()
    assert d.row("B", 5) == ("-", "-")


# ---------------------------------------------------------------------------------------------
# Paralysis
# ---------------------------------------------------------------------------------------------
@cite("on the turn the spell is cast, after gestures have been revealed, the caster selects one "
      "of the wizard's hands")
def test_paralysis_hand_chosen_after_the_reveal() -> None:
    d = Duel(A="F F F -/- - - -", B="- - S D/- - W -").decide(3, {"paralysis:W1": "L"})
    d.until(3)
    assert d.game.phase.kind == "decision" and d.game.phase.actors == (0,)
    va = view(d.game, 0)
    (x,) = va["phase"]["decisions"]
    assert (x["kind"], x["options"]) == ("paralysis", ["L", "R"])
    # The caster decides having seen the gestures of the turn.
    assert va["phase"]["revealed"]["1"] == [["S", "W"]]
    vb = view(d.game, 1)
    assert vb["to_act"] is False and vb["phase"]["decisions"] == []
    d.run()
    assert d.row("B", 4) == ("D", "-")


@cite("on the next turn that hand is paralyzed into the position it is in this turn.",
      "if the hand being paralyzed is performing a C, S or W it is instead paralyzed into F, D "
      "or P respectively, otherwise it will remain in the position written down (this allows "
      "repeated stabs)")
@pytest.mark.parametrize("hand", ["L", "R"])
@pytest.mark.parametrize("made, frozen", [("C", "F"), ("S", "D"), ("W", "P"), ("F", "F"),
                                          ("P", "P"), ("D", "D"), (">", ">"), ("-", "-")])
def test_paralysis_freezes_the_hand(hand: str, made: str, frozen: str) -> None:
    other = "C" if made == "C" else "-"  # a C is a clap: both hands
    b3 = (made, other) if hand == "L" else (other, made)
    b4 = (frozen, "-") if hand == "L" else ("-", frozen)
    d = Duel(A="F F F - -/- - - - -",
             B=f"- - {b3[0]} {b4[0]} -/- - {b3[1]} {b4[1]} -").decide(3, {"paralysis:W1": hand})
    d.run(3)  # and the decision
    c = constraints(d, 4, "B")
    assert c["left" if hand == "L" else "right"]["forced"] == frozen
    assert c["left" if hand == "L" else "right"]["why"] == "paralysis"
    assert c["right" if hand == "L" else "left"]["forced"] is None
    wrong = ["W", "-"] if frozen != "W" else ["P", "-"]
    wrong = wrong if hand == "L" else wrong[::-1]
    if frozen != (wrong[0] if hand == "L" else wrong[1]):
        assert "forced-gesture" in problems(d.game, "B", {"gestures": [wrong]})
    d.run()
    assert d.row("B", 4) == b4
    assert d.row("B", 5) == ("-", "-")
    if made == ">":
        assert d.damage("A") == 2  # the repeated stab


@cite("If the wizard already had a paralyzed hand, it must be the same hand which is paralyzed "
      "again.")
def test_paralysis_again_takes_the_same_hand() -> None:
    # A: F-F-F-F: paralysis on turns 3 and 4.  The second one asks nothing: the left again.
    d = Duel(A="F F F F - -/- - - - - -", B="- - S D D -/- - W W P -")
    d.decide(3, {"paralysis:W1": "L"}).decide(4, {"paralysis:W1": "R"})
    d.run()
    assert [x[1] for x in d.decision_log] == ["paralysis:W1"]
    assert d.row("B", 4) == ("D", "W")
    assert d.row("B", 5) == ("D", "P")


@cite("If the subject is only so because of a reflection from a magic mirror the subject of "
      "the mirror assumes the role of caster")
def test_paralysis_reflected_the_mirrors_subject_chooses() -> None:
    # Reading (docs/rules.md, by the Cosmic Encounter Rule as for charm person): B's mirror
    # (C-(w, turns 2-3) turns A's paralysis back on A, and B picks A's hand.
    d = Duel(A="F F F - -/- - D D -", B="- C W - -/- C W - -").decide(3, {"paralysis:W0": "R"})
    d.until(3)
    (x,) = d.game.phase.decisions
    assert (x.id, x.wizard) == ("paralysis:W0", 1)
    d.run()
    assert d.row("A", 4) == ("-", "D")
    assert d.effects("B") == set()


@cite("If the subject is simultaneously the subject of any of confusion, charm person, charm "
      "monster, paralysis or fear then none of the spells work.")
def test_mind_spells_on_different_turns_do_not_clash() -> None:
    # Paralysis on turn 3 (left F-F-F), amnesia on turn 4 (right D-P-P): not simultaneous.  On
    # turn 4 B's left is frozen into D; on turn 5 he repeats turn 4 whole.
    d = Duel(A="F F F - - -/- D P P - -", B="- - S D D -/- - W W W -")
    d.decide(3, {"paralysis:W1": "L"})
    d.run()
    assert d.row("B", 4) == ("D", "W")
    assert d.row("B", 5) == ("D", "W")
    assert not any(e.type == "clash" for e in d.events)


@cite("If the subject of the spell is a monster (excluding elementals which are unaffected) it "
      "simply does not attack in the turn following the one in which the spell was cast.")
def test_paralysed_monster_misses_its_next_attack() -> None:
    d = Duel(A="- - - F F F - -/- - - - - - - -", B=f"{B_GOBLIN} - - - - -/- - - - - - - -")
    d.orders(6, "A", {"casts": [cast("L", "paralysis", "M1")]})
    d.run()
    assert d.decision_log == []  # no hand to choose
    assert damage_events(d, 6) == [("goblin", "W0", "1")]  # it attacks on the casting turn
    assert damage_events(d, 7) == []
    assert damage_events(d, 8) == [("goblin", "W0", "1")]


@cite("excluding elementals which are unaffected")
def test_paralysis_does_not_affect_elementals() -> None:
    # B's fire elemental M1 (turn 5) hits both wizards; A paralyses it on turn 6.
    d = Duel(A="- - - F F F -/- - - - - - -", B="C S W W S - -/C - - - - - -")
    d.decide(5, {"elemental:1:L": "fire"})
    d.orders(6, "A", {"casts": [cast("L", "paralysis", "M1")]})
    d.run()
    assert ("fire_elemental", "W0", "3") in damage_events(d, 7)
    assert d.damage("A") == 9


# ---------------------------------------------------------------------------------------------
# Fear
# ---------------------------------------------------------------------------------------------
@cite("In the turn following the casting of this spell, the subject cannot perform a C, D, F or "
      "S gesture.")
@pytest.mark.parametrize("gesture, allowed", [("C", False), ("D", False), ("F", False),
                                              ("S", False), ("P", True), ("W", True),
                                              (">", True), ("-", True)])
def test_fear_forbids_c_d_f_s(gesture: str, allowed: bool) -> None:
    d = Duel(A="S W D - -/- - - - -", B="- - - - -/- - - - -").run(3)
    assert set(constraints(d, 4, "B")["banned"]) == set("CDFS")
    pair = [gesture, "C" if gesture == "C" else "-"]
    codes = problems(d.game, "B", {"gestures": [pair]})
    assert ("fear" not in codes) is allowed
    assert "fear" not in problems(d.game, "B", {"gestures": [pair[::-1]]}) or not allowed
    d.run(4)
    # The turn after is free again.
    assert constraints(d, 5, "B")["banned"] == []
    assert problems(d.game, "B", {"gestures": [pair]}) == []


@cite("This obviously has no effect on monsters.")
def test_fear_has_no_effect_on_monsters() -> None:
    d = Duel(A="- - - S W D - -/- - - - - - - -", B=f"{B_GOBLIN} - - - - -/- - - - - - - -")
    d.orders(6, "A", {"casts": [cast("L", "fear", "M1")]})
    d.run()
    assert damage_events(d, 7) == [("goblin", "W0", "1")]
    assert d.monsters()[0].effects == ()


# ---------------------------------------------------------------------------------------------
# The clash of mind spells
# ---------------------------------------------------------------------------------------------
MIND = {"amnesia": "D P P", "confusion": "D S F", "charm_person": "P S D F",
        "charm_monster": "P S D D", "paralysis": "F F F", "fear": "S W D"}


def _padded(seq: str, n: int = 4) -> list[str]:
    steps = seq.split()
    return ["-"] * (n - len(steps)) + steps


def _clash_duel(a: str, b: str) -> Duel:
    """A's left hand casts `a` and his right hand `b` at B, both on turn 4 (when both start
    with P, which both hands together would make a surrender, B casts `b` at himself)."""
    la, lb = _padded(MIND[a]), _padded(MIND[b])
    if any(x == y == "P" for x, y in zip(la, lb, strict=True)):
        d = Duel(A=" ".join(la) + " - -/- - - - - -", B=" ".join(lb) + " - -/- - - - - -")
        d.orders(4, "B", {"casts": [cast("L", b, "W1")]})
        return d
    return Duel(A=" ".join(la) + " - -/" + " ".join(lb) + " - -", B="- - - - - -/- - - - - -")


@cite("If the subject is simultaneously the subject of any of confusion, charm "
      "person, charm monster, paralysis or fear then none of the spells work.",
      "If the subject is also the subject of any of: amnesia, charm person, charm monster, "
      "paralysis or fear, none of the spells work.",
      "If the subject is also the subject of any of amnesia, confusion, charm monster, paralysis "
      "or fear, none of the spells work.",
      "If the subject of the charm is also the subject of any of: amnesia, confusion, charm "
      "person, fear or paralysis, none of the spells work.",
      "If the subject of the spell is also the subject of any of amnesia, confusion, charm "
      "person, charm monster or fear, none of the spells work.",
      "If the subject is also the subject of amnesia, confusion, charm person, charm monster or "
      "paralysis, then none of the spells work.")
@pytest.mark.parametrize("a, b", list(itertools.combinations(MIND, 2)))
def test_two_mind_spells_on_one_wizard_cancel(a: str, b: str) -> None:
    d = _clash_duel(a, b).run(4)
    # No decision is asked (no charm hand, no paralysed hand).
    assert d.game.phase.kind == "orders" and d.decision_log == []
    # Both were cast at B, and both were cancelled ...
    assert any(e.type == "clash" for e in d.events)
    failed = {dict(e.data)["spell"] for e in d.events if e.type == "fizzle"}
    assert {a, b} <= failed
    assert d.effects("B") == set()  # ... so neither took hold
    c = constraints(d, 5, "B")
    assert c["left"]["forced"] is None and c["right"]["forced"] is None
    assert c["left"]["why"] == c["right"]["why"] == ""
    assert c["banned"] == [] and c["confused"] is False
    assert d.view_at(5, "A")["constraints"]["charm_target"] is None
    assert problems(d.game, "B", {"gestures": [["D", "S"]]}) == []
    d.run()
    assert not any(e.type == "confused" for e in d.events)


@cite("If the subject of the charm is also the subject of any of: amnesia, confusion, charm "
      "person, fear or paralysis, none of the spells work.")
@pytest.mark.parametrize("other", ["amnesia", "confusion", "paralysis", "fear"])
def test_two_mind_spells_on_one_monster_cancel(other: str) -> None:
    # B's goblin M1; A's left hand charms it, his right casts `other` at it, both on turn 7.
    la, lb = _padded(MIND["charm_monster"]), _padded(MIND[other])
    d = Duel(A="- - - " + " ".join(la) + " - -/- - - " + " ".join(lb) + " - -",
             B=f"{B_GOBLIN} - - - - - -/- - - - - - - - -")
    d.orders(7, "A", {"casts": [cast("L", "charm_monster", "M1"), cast("R", other, "M1")],
                      "monsters": {"M1": "W1"}})
    d.orders(7, "B", {"monsters": {"M1": "W0"}})
    d.orders(8, "B", {"monsters": {"M1": "W0"}})
    d.run()
    (m,) = d.monsters()
    assert m.controller == 1 and m.effects == ()
    assert goblin_hits(d, 7) == ["W0"]
    assert goblin_hits(d, 8) == ["W0"]  # not paralysed, not amnesiac


# ---------------------------------------------------------------------------------------------
# Anti-spell
# ---------------------------------------------------------------------------------------------
@cite("On the turn following the casting of this spell, the subject cannot include any gestures "
      "made on or before this turn in a spell sequence and must restart a new spell from the "
      "beginning of that spell sequence.")
def test_anti_spell_restarts_sequences() -> None:
    # B: F F on turns 2-3; A's anti-spell (S-P-F) hits on turn 3.  F-F-F then needs turns 4-6.
    d = Duel(A="S P F - - -/- - - - - -", B="- F F F F F/- - - - - -").run()
    para = [(t, x) for t, x, _, _ in d.decision_log]
    assert para == [(6, "paralysis:W0")]
    assert [s for c, s, _ in d.casts() if c == 1] == ["paralysis"]


@cite("The spell does not affect spells which are cast on the same turn")
def test_anti_spell_spares_spells_of_the_same_turn() -> None:
    # B's S-D missile completes on turn 3, as A's anti-spell hits him.
    d = Duel(A="S P F -/- - - -", B="- S D -/- - - -").run()
    assert (1, "missile", "W0") in d.casts()
    assert d.damage("A") == 1


@cite("nor does it affect monsters.")
def test_anti_spell_does_not_affect_monsters() -> None:
    d = Duel(A="- - - S P F - -/- - - - - - - -", B=f"{B_GOBLIN} - - - - -/- - - - - - - -")
    d.orders(6, "A", {"casts": [cast("L", "anti_spell", "M1")]})
    d.run()
    assert damage_events(d, 7) == [("goblin", "W0", "1")]
    assert d.monsters()[0].effects == ()
