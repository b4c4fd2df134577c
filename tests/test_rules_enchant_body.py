"""Enchantments II: disease and poison, and what remove enchantment, dispel magic, raise dead
and cure heavy wounds do to enchantments.

One scenario per clause of 000 (the reference rules), each citing its sentence.
"""

from __future__ import annotations

import pytest
from citing import cite
from dsl import Duel, cast

# A: D-S-F-F-F-C on turns 1-6 (the clap with both hands): disease at B on turn 6.  Inside it are
# a confusion (D-S-F, turn 3) and a paralysis (F-F-F, turn 5), shot off at nobody.
DISEASE_A = "D S F F F C - - - - - -/- - - - - C - - - - - -"
# A: D-W-W-F-W-D on turns 1-6: poison at B on turn 6.
POISON_A = "D W W F W D - - - - - -/- - - - - - - - - - - -"
QUIET = "- - - - - - - - - - - -/- - - - - - - - - - - -"


def toxic_duel(spell: str, B: str = QUIET) -> Duel:
    """A casts disease or poison at B on turn 6; B's plan is given."""
    d = Duel(A=DISEASE_A if spell == "disease" else POISON_A, B=B)
    if spell == "disease":
        d.orders(3, "A", {"casts": [cast("L", "confusion", "none")]})
        d.orders(5, "A", {"casts": [cast("L", "paralysis", "none")]})
    d.set_damage("B", 4)
    return d


def ending_on(seq: str, last: int, turns: int = 12) -> list[str]:
    """One hand's gestures making `seq` so that it completes on turn `last`."""
    steps = seq.split()
    out = ["-"] * turns
    out[last - len(steps):last] = steps
    return out


def plan(left: list[str], right: list[str] | None = None) -> str:
    """Two hands' gestures as the DSL's notation."""
    right = right or ["-"] * len(left)
    return " ".join(left) + "/" + " ".join(right)


@cite("The subject of this spell immediately contracts a deadly (non-contagious) disease which "
      "will kill him at the end of 6 turns counting from the one upon which the spell is cast.",
      "This is the same as the disease spell except that cure heavy wounds does not stop its "
      "effects.")
@pytest.mark.parametrize("spell", ["disease", "poison"])
def test_deadline_is_the_end_of_the_sixth_turn(spell: str) -> None:
    d = toxic_duel(spell).run(6)
    assert spell in d.effects("B")  # "immediately contracts"
    d.run(10)
    assert d.alive("B") and d.result() is None  # turns 6, 7, 8, 9, 10 survived
    d.run(11)
    assert not d.alive("B")  # at the end of turn 11, the sixth counting from turn 6
    assert d.result() == (0, "B died")
    assert d.damage("B") == 4  # it kills whatever the damage


CURES = [
    # (spell, B's cure, the sequence, hand(s), turn it completes, B survives)
    ("disease", "remove enchantment", "P D W P", False, 6, True),
    ("disease", "remove enchantment", "P D W P", False, 9, True),
    ("disease", "remove enchantment", "P D W P", False, 11, True),
    ("poison", "remove enchantment", "P D W P", False, 6, True),
    ("poison", "remove enchantment", "P D W P", False, 9, True),
    ("poison", "remove enchantment", "P D W P", False, 11, True),
    ("disease", "dispel magic", "C D P W", True, 6, True),
    ("disease", "dispel magic", "C D P W", True, 9, True),
    ("disease", "dispel magic", "C D P W", True, 11, True),
    ("poison", "dispel magic", "C D P W", True, 9, True),
    ("poison", "dispel magic", "C D P W", True, 11, True),
    ("disease", "cure heavy wounds", "D F P W", False, 9, True),
    ("disease", "cure heavy wounds", "D F P W", False, 11, True),
    ("poison", "cure heavy wounds", "D F P W", False, 9, False),
    ("poison", "cure heavy wounds", "D F P W", False, 11, False),
    # Raise dead on the living: "Note that any diseases the live subject might have are not
    # cured."
    ("disease", "raise dead", "D W W F W C", True, 11, False),
    ("poison", "raise dead", "D W W F W C", True, 11, False),
]


@cite("The malady is cured by remove enchantment or cure heavy wounds or dispel magic in the "
      "meantime.",
      "This is the same as the disease spell except that cure heavy wounds does not stop its "
      "effects.",
      "This spell will also cure any diseases the subject might have at the time.",
      "If the spell is cast on a live individual, the effect is that of a cure light wounds "
      "recovering five points of damage, or as many as have been sustained if less than five. "
      "Note that any diseases the live subject might have are not cured.")
@pytest.mark.parametrize("spell, cure, seq, clap, last, survives", [
    pytest.param(*row, id=f"{row[0]}-{row[1].replace(' ', '_')}-turn{row[4]}") for row in CURES])
def test_cures(spell: str, cure: str, seq: str, clap: bool, last: int, survives: bool) -> None:
    left = ending_on(seq, last)
    right = ["-"] * 12
    first = last - len(seq.split())
    if clap:  # C is made with both hands
        c_turn = first if seq.startswith("C") else last - 1
        right[c_turn] = "C"
    d = toxic_duel(spell, B=plan(left, right)).run()
    assert d.alive("B") is survives
    if survives:
        assert spell not in d.effects("B")
        assert d.result() is None
    else:
        assert d.result() == (0, "B died")


# ---------------------------------------------------------------------------------------------
# Remove enchantment on every enchantment, cast at the same time
# ---------------------------------------------------------------------------------------------
# Each enchantment A completes on turn 8 at B: (left hand, right hand, hand of the last step,
# other spells completed on the way, shot off at nobody: {turn: (hand, spell)}).
ENCHANT_AT_8 = {
    "amnesia": ("D P P", "", "L", {}),
    "confusion": ("D S F", "", "L", {}),
    "charm_person": ("P S D F", "", "L", {7: ("L", "missile")}),
    "paralysis": ("F F F", "", "L", {}),
    "fear": ("S W D", "", "L", {}),
    "anti_spell": ("S P F", "", "L", {}),
    "protection_from_evil": ("W W P", "", "L", {}),
    "resist_heat": ("W W F P", "", "L", {}),
    "resist_cold": ("S S F P", "", "L", {}),
    "disease": ("D S F F F C", "C", "B", {5: ("L", "confusion"), 7: ("L", "paralysis")}),
    "poison": ("D W W F W D", "", "L", {}),
    "blindness": ("D W F F D", "D", "B", {}),
    "invisibility": ("P P W S", "W S", "B", {}),
    "haste": ("P W P W W C", "C", "B", {}),
    "time_stop": ("S P P C", "C", "B", {}),
    "delayed_effect": ("D W S S S P", "", "L", {}),
    "permanency": ("S P F P S D W", "", "L", {4: ("L", "anti_spell"), 7: ("L", "missile")}),
}


def enchant_at_8(spell: str, B: str) -> Duel:
    left, right, hand, noise = ENCHANT_AT_8[spell]
    lh = ending_on(left, 8, 10)
    rh = ending_on(right, 8, 10) if right else ["-"] * 10
    d = Duel(A=plan(lh, rh), B=B)
    for turn, (h, s) in noise.items():
        d.orders(turn, "A", {"casts": [cast(h, s, "none")]})
    d.orders(8, "A", {"casts": [cast(hand, spell, "W1")]})
    return d


@cite("Terminates the effects of all Enchantment Spells that have been cast on the subject "
      "including those that are cast on the subject at the same time as the remove "
      "enchantment.")
@pytest.mark.parametrize("spell", list(ENCHANT_AT_8))
def test_remove_enchantment_cast_at_the_same_time(spell: str) -> None:
    # B: P-D-W-P on turns 5-8, on himself.
    d = enchant_at_8(spell, B=plan(ending_on("P D W P", 8, 10))).run(8)
    assert d.decision_log == []  # no paralysis or charm hand to choose
    assert d.game.phase.kind == "orders"  # no time-stopped turn for B
    assert d.effects("B") == set()
    b = d.game.wizard(1)
    assert b.sequence_start == 0 and b.banked is None  # anti-spell undone too
    v = d.view_at(9, "B")
    c = v["constraints"]
    assert c["sets"] == 1 and c["banned"] == [] and not c["confused"]
    assert c["left"]["forced"] is None and c["right"]["forced"] is None
    assert c["left"]["why"] == c["right"]["why"] == ""
    assert v["blind"] is False
    assert d.view_at(9, "A")["constraints"]["charm_target"] is None
    d.run()
    assert d.alive("B")


@cite("Terminates the effects of all Enchantment Spells that have been cast on the subject",
      "Effects which have already passed are not reversed. For example, the victim of a "
      "blindness spell would not be able to see what their opponent's gestures were on the the "
      "blindness is removed.")
def test_remove_enchantment_ends_blindness_but_not_what_has_passed() -> None:
    # A: D-W-F-F-(d on turns 1-5 at B (blind on turns 6, 7, 8); B: P-D-W-P on turns 4-7.
    d = Duel(A="D W F F D F W -/- - - - D F W -", B="- - - P D W P -/- - - - - - - -").run()
    assert d.effects("B") == set()
    history = d.view("B")["wizards"][0]["history"]
    seen = {r["turn"]: (r["left"], r["right"]) for r in history}
    assert seen[5] == ("D", "D")
    assert seen[6] == ("?", "?")
    assert seen[7] == ("?", "?")  # the turn of the removal: still not seen
    assert seen[8] == ("-", "-")  # seen again
    assert d.view_at(8, "B")["blind"] is False


@cite("will remove all enchantments from all beings before they have effect. In addition, all "
      "monsters are destroyed although they can attack that turn.")
def test_dispel_magic_makes_the_invisible_attackable_that_very_turn() -> None:
    # A: P-P-(w-(s on turns 1-4 (invisible on 5-7).  B: goblin (S-F-W, turns 1-3), then dispel
    # magic (C-D-P-W, turns 4-7, the clap with both hands).  The goblin is directed at A
    # throughout; on turn 7 the invisibility is gone "before [it has] effect".
    d = Duel(A="P P W S - - -/- - W S - - -", B="S F W C D P W/- - - C - - -")
    d.run()
    hit = {t: [dict(e.data)["target"] for e in d.events if e.turn == t and e.type == "damage"]
           for t in range(3, 8)}
    assert hit == {3: ["W0"], 4: ["W0"], 5: [], 6: [], 7: ["W0"]}
    assert d.effects("A") == set()
    assert d.monsters() == []


@cite("Terminates the effects of all Enchantment Spells that have been cast on the subject",
      "Note that all enchantments are removed and the caster may not pick and choose.")
def test_remove_enchantment_ends_a_permanent_enchantment() -> None:
    # A: permanency (turns 1-7) then paralysis (F-F-F, turns 8-10) made permanent at B: his
    # left hand is frozen into D for ever.  B removes his enchantments with his free right hand
    # (P-D-W-P, turns 10-13); on turn 14 his left hand is free again.
    d = Duel(A="S P F P S D W F F F - - - -/- - - - - - - - - - - - - -",
             B="- - - - - - - - - D D D D W/- - - - - - - - - P D W P -")
    d.orders(3, "A", {"casts": [cast("L", "anti_spell", "none")]})
    d.orders(6, "A", {"casts": [cast("L", "missile", "none")]})
    d.decide(10, {"paralysis:W1": "L"})
    d.run(12)
    assert d.view_at(13, "B")["constraints"]["left"]["forced"] == "D"  # still frozen
    assert any(e.permanent for e in d.game.wizard(1).effects)
    d.run()
    assert d.effects("B") == set()
    assert d.view_at(14, "B")["constraints"]["left"]["forced"] is None
    assert d.row("B", 14) == ("W", "-")


@cite("will remove all enchantments from all beings before they have effect.",
      "The spell will not work on stabs or surrenders.")
def test_dispel_magic_removes_every_enchantment() -> None:
    # A: protection from evil on turns 4-6 (it would last turns 6-9).  B: C-D-P-W on turns 4-7
    # with his left hand (C with both), and a stab with his right on turn 7.
    d = Duel(A="- - - W W P - -/- - - - - - - -", B="- - - C D P W -/- - - C - - > -").run(6)
    assert "protection_from_evil" in d.effects("A")
    d.run()
    assert d.effects("A") == set() and d.effects("B") == set()
    assert d.damage("A") == 1  # removed "before they have effect": the stab lands on turn 7


def raised_goblin_duel() -> Duel:
    """B: goblin M1 (turns 1-3); resist heat on it (right hand, W-W-F-P, turns 3-6).  A kills it
    with a missile on turn 7.  B raises it with D-W-W-F-W-C on turns 8-13."""
    d = Duel(A="- - - - - S D - - - - - - -/- - - - - - - - - - - - - -",
             B="S F W - - - - D W W F W C -/- - W W F P - - - - - - C -")
    d.orders(6, "B", {"casts": [cast("R", "resist_heat", "M1")]})
    d.orders(7, "A", {"casts": [cast("L", "missile", "M1")]})
    d.orders(13, "B", {"casts": [cast("B", "raise_dead", "M1")]})
    return d


@cite("All enchantments are also removed (as per the spell) so any diseases or poisons will be "
      "neutralized and all other enchantments removed.")
def test_raise_dead_strips_a_corpses_enchantments() -> None:
    d = raised_goblin_duel().run(7)
    (m,) = d.monsters(alive=False)
    assert not m.alive and [e.kind for e in m.effects] == ["resist_heat"]
    d.run()
    (m,) = d.monsters()
    assert m.alive and m.effects == ()


@cite("On the turn a monster is raised it may attack.")
def test_raised_monster_attacks_on_the_turn_it_is_raised() -> None:
    d = raised_goblin_duel().run()
    hits = [dict(e.data)["target"] for e in d.events if e.turn == 13 and e.type == "damage"]
    assert hits == ["W0"]
