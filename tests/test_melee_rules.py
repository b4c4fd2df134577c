"""Scenario tests for a melee (three to six wizards): one per reading of docs/rules.md, "Melee",
each citing the words it rests on (Bartle's text, 000, through `cite`; the Warlocks pages
through `cite_warlocks`).

The notation is tests/dsl.py's, with the wizards A to F: `Duel(A=..., B=..., C=...)` is a
three-wizard melee.  A wizard given no gestures makes none ("-") every turn.
"""

from __future__ import annotations

import pytest
from citing import cite, cite_warlocks
from dsl import Duel, cast, problems

from wavinghands import duel
from wavinghands.duel import SetupError
from wavinghands.model import Game
from wavinghands.view import view


# ---------------------------------------------------------------------------------------------
# Setting up
# ---------------------------------------------------------------------------------------------
@cite("This is a game concerning the imaginary conflict between two powerful wizards")
def test_a_game_takes_two_to_six_wizards() -> None:
    for n in range(2, 7):
        g = duel.new_game(tuple(f"W{i}x" for i in range(n)), "5eed5eed")
        assert len(g.wizards) == n and g.phase.actors == tuple(range(n))
        assert g.is_melee == (n > 2)
    for bad in (("Solo",), tuple(f"N{i}" for i in range(7))):
        with pytest.raises(SetupError):
            duel.new_game(bad, "5eed5eed")
    with pytest.raises(ValueError, match="different name"):
        duel.new_game(("Ann", "Bo", "ann"), "5eed5eed")


# ---------------------------------------------------------------------------------------------
# Targets
# ---------------------------------------------------------------------------------------------
@cite("if your target is not the usual one, it must be noted along with the gestures")
def test_every_being_is_a_legal_target() -> None:
    # A's missile at C (W2); B's goblin, sent at D's ... every wizard and monster may be aimed at.
    d = Duel(A="S D / - -", B="S F W / - - -", wizards=4)
    d.orders(2, "A", {"casts": [cast("L", "missile", "W2")]})
    d.orders(3, "B", {"monsters": {"new:1:L": "W3"}})
    d.run()
    assert d.damage("C") == 1 and d.damage("D") == 1
    assert d.damage("A") == 0 and d.damage("B") == 0


@cite("Normally enchantments and damaging spells are cast at on your opponent's wizard",
      "if cast at something which doesn't exist, the spell has no effect")
def test_a_hostile_spell_with_no_target_goes_at_nobody_while_two_enemies_fight() -> None:
    # "your opponent's wizard" names nobody when two or more enemies fight: the missile, its
    # target not noted, is cast at nobody.
    d = Duel(A="S D / - -", wizards=3)
    d.run()
    assert [d.damage(x) for x in "ABC"] == [0, 0, 0]
    assert d.fizzled() == ["A's Missile has no effect: aimed at nobody."]
    # The preview warns of it before it is sealed.
    from wavinghands.preview import preview
    g = d.state_at(2)
    warn = preview(g, 0, {"gestures": [["D", "-"]]})["warnings"]
    assert any(w["code"] == "aimed-at-nobody" for w in warn)


@cite("Normally enchantments and damaging spells are cast at on your opponent's wizard")
def test_the_last_enemy_is_the_opponent_again() -> None:
    # C surrenders on turn 1 and leaves; from then on B is A's one opponent, and A's missile
    # with no target noted hits him.
    d = Duel(A="- S D / - - -", C="P / P", wizards=3)
    d.run()
    assert d.damage("B") == 1


@cite("Wizards are not allowed to stab themselves and must choose a target for the stab")
def test_a_melee_stab_must_name_its_target() -> None:
    g = duel.new_game(("A", "B", "C"), "5eed5eed")
    assert problems(g, "A", {"gestures": [[">", "-"]]}) == ["stab-target"]
    assert problems(g, "A", {"gestures": [[">", "-"]], "stab": "W2"}) == []
    d = Duel(A="> / -", wizards=3).orders(1, "A", {"stab": "W2"})
    d.run()
    assert (d.damage("B"), d.damage("C")) == (0, 1)


# ---------------------------------------------------------------------------------------------
# Monsters
# ---------------------------------------------------------------------------------------------
@cite_warlocks("monsters", "if the owner doesn't give them a target, they will attack a random "
               "opposing Warlock")
def test_a_new_monster_with_no_target_attacks_a_random_opposing_wizard() -> None:
    # The die "monster:M1:enemy" picks among A's enemies B, C, D (in index order): 3 is D.
    d = Duel(A="S F W / - - -", wizards=4, dice={"3:monster:M1:enemy": 3})
    d.run()
    assert [d.damage(x) for x in "ABCD"] == [0, 0, 0, 1]
    d = Duel(A="S F W / - - -", wizards=4, dice={"3:monster:M1:enemy": 1})
    d.run()
    assert [d.damage(x) for x in "ABCD"] == [0, 1, 0, 0]


@cite("Monsters will usually attack their master's opponent but if the target is different, "
      "e.g. another monster, then it must be written down along with the monster's action.")
def test_the_random_enemy_is_drawn_from_every_players_nonce() -> None:
    def first_victim(nonce_c: str) -> list[int]:
        d = Duel(A="S F W / - - -", wizards=3)
        d.orders(3, "C", {"nonce": nonce_c})
        d.run()
        return [d.damage(x) for x in "ABC"]

    seen = {tuple(first_victim(f"{i:02x}")) for i in range(16)}
    assert seen == {(0, 1, 0), (0, 0, 1)}  # C's nonce alone moves the die


@cite("Monsters will usually attack their master's opponent")
def test_a_dead_wizards_monster_fights_on_at_the_wizards_still_standing() -> None:
    # B's goblin (turn 3) attacks A as ordered; B surrenders on turn 4 (out of the fight, as
    # a dead wizard is), and his goblin, masterless, attacks a random wizard still in the
    # fight each turn after.
    d = Duel(A="- - - - - - / - - - - - -", B="S F W P / - - - P", wizards=4,
             dice={"5:monster:M1:enemy": 2, "6:monster:M1:enemy": 3})
    d.orders(3, "B", {"monsters": {"new:1:L": "W0"}})
    d.orders(4, "B", {"monsters": {"M1": "W0"}})
    d.run(6)
    # turn 3, 4: A; turn 5: second of (A, C, D) = C; turn 6: D
    assert [d.damage(x) for x in "ACD"] == [2, 1, 1]
    assert d.monster("M1").alive and d.monster("M1").controller == 1


# ---------------------------------------------------------------------------------------------
# Charm person, paralysis
# ---------------------------------------------------------------------------------------------
@cite("the caster of the spell writes down the gesture he wants the subject's named hand to "
      "perform")
def test_charm_person_in_a_melee_is_chosen_and_written_by_its_caster() -> None:
    d = Duel(A="P S D F - / - - - - -", C="- - - - W / - - - - -", wizards=3)
    d.orders(4, "A", {"casts": [cast("L", "charm_person", "W2")]})
    d.decide(4, {"charm:W2": "L"})
    d.orders(5, "A", {"charm": {"gesture": "P"}})
    d.run()
    asked = [(turn, did, who) for turn, did, who, _ in d.decision_log]
    assert asked == [(4, "charm:W2", 0)]
    assert d.row("C", 5) == ("P", "-")


@cite("after gestures have been revealed, the caster selects one of the wizard's hands")
def test_paralysis_in_a_melee_is_chosen_by_its_caster() -> None:
    d = Duel(A="F F F / - - -", D="- - W / - - S", wizards=4)
    d.orders(3, "A", {"casts": [cast("L", "paralysis", "W3")]})
    d.decide(3, {"paralysis:W3": "R"})
    d.run()
    assert [(did, who) for _, did, who, _ in d.decision_log] == [("paralysis:W3", 0)]
    effect = d.effect("D", "paralysis")
    assert effect is not None and effect.hand == "R" and effect.source == 0


# ---------------------------------------------------------------------------------------------
# Storms and elementals
# ---------------------------------------------------------------------------------------------
@cite("Everyone else would be affected as usual by the fire storm unless they had their own "
      "protection", "the subject of the counter-spell alone is protected")
def test_a_storm_hits_every_wizard() -> None:
    d = Duel(A="S W W C / - - - C", B="- W W S / - - - -", wizards=5)
    d.run()
    # B's counter-spell keeps it out; every other wizard, the caster too, takes 5
    assert [d.damage(x) for x in "ABCDE"] == [5, 0, 5, 5, 5]


@cite("attack everyone who is not resistant to its type")
def test_an_elemental_attacks_every_wizard() -> None:
    d = Duel(A="C S W W S / C - - - -", wizards=4)
    d.run()
    assert [d.damage(x) for x in "ABCD"] == [3, 3, 3, 3]


# ---------------------------------------------------------------------------------------------
# Surrender, the end
# ---------------------------------------------------------------------------------------------
@cite("The wizard making these gestures, irrespective of whether they terminate spells or not, "
      "surrenders and the contest is over")
def test_a_surrendering_wizard_leaves_while_the_others_fight_on() -> None:
    d = Duel(B="P / P", A="- S D / - - -", C="- - - / - - -", wizards=3)
    d.run(1)
    g = d.game
    assert g.result is None and g.phase.actors == (0, 2)
    assert g.wizard(1).surrendered and g.wizard(1).alive
    assert "W1" not in {t["id"] for t in view(g, 0)["targets"]}
    assert "B surrenders and leaves the melee" in d.log()
    # he is no longer there to be aimed at
    d.run(2)
    assert problems(d.game, "A", {"gestures": [["D", "-"]],
                                  "casts": [cast("L", "missile", "W1")]}) == ["bad-target"]


@cite("Each wizard can sustain fourteen points of damage but dies when fifteen or more points "
      "of damage are done")
def test_the_last_wizard_standing_wins() -> None:
    d = Duel(A="S D / - -", wizards=3)
    d.set_damage("B", 14).set_damage("C", 14)
    d.orders(2, "A", {"casts": [cast("L", "missile", "W1")]})
    d.run(2)
    assert d.game.result is None and not d.alive("B") and d.game.phase.actors == (0, 2)
    d2 = Duel(A="S D / S D", wizards=3)
    d2.set_damage("B", 14).set_damage("C", 14)
    d2.orders(2, "A", {"casts": [cast("L", "missile", "W1"), cast("R", "missile", "W2")]})
    d2.run()
    assert d2.result() == (0, "A is the last wizard standing")
    assert "The melee is over: A wins" in d2.log()


@cite("Simultaneous death is a posthumous draw")
def test_all_remaining_dying_together_is_a_draw_among_them() -> None:
    # C left earlier (surrender); A and B kill each other: a draw between A and B only.
    d = Duel(A="- S D / - - -", B="- S D / - - -", C="P / P", wizards=3)
    d.set_damage("A", 14).set_damage("B", 14)
    d.run()
    r = d.game.result
    assert r is not None and r.winner is None and r.drawn == (0, 1)
    assert "draw among them" in r.how


# ---------------------------------------------------------------------------------------------
# Views: blindness and invisibility per pair of wizards
# ---------------------------------------------------------------------------------------------
@cite("If he is a wizard, he cannot tell what his opponent's gestures are")
def test_a_blind_wizard_does_not_see_anyones_gestures_the_others_do() -> None:
    d = Duel(A="D W F F D - / - - - - D S", wizards=3)
    d.orders(5, "A", {"casts": [cast("B", "blindness", "W2")]})
    d.run()
    turn6 = {w: view(d.game, w)["wizards"][0]["history"][5] for w in range(3)}
    assert turn6[2]["left"] == "?" and turn6[1]["left"] == "-" and turn6[1]["right"] == "S"
    assert turn6[0]["right"] == "S"


@cite("the subject of the spell becomes invisible to his opponent and his monsters")
def test_an_invisible_wizards_gestures_are_hidden_from_every_other() -> None:
    d = Duel(A="P P W S F / - - W S F", wizards=4)
    d.run()
    for w in (1, 2, 3):
        assert view(d.game, w)["wizards"][0]["history"][4]["left"] == "?"
    assert view(d.game, 0)["wizards"][0]["history"][4]["left"] == "F"


# ---------------------------------------------------------------------------------------------
# Records
# ---------------------------------------------------------------------------------------------
def test_a_melee_record_replays_to_the_same_game() -> None:
    from wavinghands.record import export_record, import_record

    d = Duel(A="S F W S D / - - - - -", B="W F P / - - -", C="> / -", D="P / -", wizards=4)
    d.orders(1, "C", {"stab": "W3"})
    d.run()
    rec = export_record(d.game)
    assert rec["players"] == ["A", "B", "C", "D"]
    again = import_record(rec)
    assert again.to_json() == d.game.to_json()
    assert Game.from_json(d.game.to_json()) == d.game
