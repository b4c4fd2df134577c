"""The last rules gaps of issue 10: four bugs found by comparing with other implementations, and
the readings the text leaves to argument (docs/rules.md, "Readings").

Each scenario quotes the sentence of 000 it rests on (checked word for word by
tests/test_citations.py); the argument for each reading is in docs/rules.md.  Notation:
tests/dsl.py and tests/rules_table.py.
"""

from __future__ import annotations

import pytest
from citing import cite
from dsl import Duel, problems
from rules_table import Case, cast, cite_problems, run_case, table_tests

# A: summon elemental (C-S-W-W-S, left, turns 1-5), then fire storm (S-W-W-C, right hand turns
# 3-5 and the clap of turn 6).  The elemental is A's fire elemental M1 unless decided "ice".
ELEM_THEN_FIRE_STORM_A = "C S W W S C / C - S W W C"
ICE_STORM_B6 = "- - W S S C / - - - - - C"  # B's ice storm on turn 6
FIRE_STORM_B6 = "- - S W W C / - - - - - C"  # B's fire storm on turn 6
# A: summon elemental (turns 1-5), then W-P-P on the right hand (turns 4-6): a counter-spell on
# turn 6, cast on the elemental M1 (orders below).
ELEM_THEN_COUNTER_A = "C S W W S - / C - - W P P"
COUNTER_ON_M1 = cast(6, "A", "R", "counter_spell", "M1")
ICE = {5: {"elemental:0:L": "ice"}}

# ---------------------------------------------------------------------------------------------
# Both storms while an elemental is present: every pairwise sentence at once
# ---------------------------------------------------------------------------------------------
# (The engine used to stop at "the storms cancel", so the elemental lived and attacked, and a
# resist heat/cold or fireball aimed at an elemental that turn was skipped too.  With both storms
# every elemental not counter-spelled is destroyed anyway, so those spells change no outcome.)
STORMS_AND_ELEMENTALS = [
    # Fire storm + ice storm cancel; the fire storm engulfs the fire elemental; the ice storm
    # and the fire elemental destroy each other.  Nothing does damage on turn 6.
    Case("both storms with a fire elemental: the storms cancel and the elemental is destroyed",
         A=ELEM_THEN_FIRE_STORM_A, B=ICE_STORM_B6,
         cite="The spell cancels wholly, causing no damage, with either an ice storm or an ice "
              "elemental. It will destroy but not be destroyed by a fire elemental. ... "
              "Elementals will not attack on the turn they are destroyed by such a spell.",
         dmg={"A": 3, "B": 3}, mons={"M1": ("fire_elemental", "A", False)},
         fizzle=["the fire storm and the ice storm cancel each other"]),
    Case("both storms with an ice elemental: the storms cancel and the elemental is destroyed",
         A=ELEM_THEN_FIRE_STORM_A, B=ICE_STORM_B6, decide=ICE,
         cite="An elemental will also be engulfed and destroyed by a storm of its own type ... "
              "(e.g. fire storm, resist cold or fireball will kill an ice elemental)",
         dmg={"A": 3, "B": 3}, mons={"M1": ("ice_elemental", "A", False)}),
]

# ---------------------------------------------------------------------------------------------
# A counter-spell shelters an elemental from a storm, as it does any monster
# ---------------------------------------------------------------------------------------------
COUNTER_SHELTERS = [
    Case("a counter-spell on one's own fire elemental shelters it from a fire storm",
         A=ELEM_THEN_COUNTER_A, B=FIRE_STORM_B6, orders=[COUNTER_ON_M1],
         cite="In the case of blanket spells, which affect more than one person, the subject of "
              "the counter-spell alone is protected. ... a fire storm spell could kill off a "
              "monster but not if a counter-spell were cast on the monster in the same turn.",
         # turn 5: the elemental hits B (3; A's P shields him); turn 6: the storm (5) and the
         # elemental (3) hit both.
         dmg={"A": 8, "B": 11}, mons={"M1": ("fire_elemental", "A", True)},
         log=["The counter-spell shelters A's fire elemental (M1) from the fire storm."],
         nolog=["engulfs"]),
    Case("a counter-spell on one's own ice elemental shelters it from an ice storm",
         A=ELEM_THEN_COUNTER_A, B=ICE_STORM_B6, orders=[COUNTER_ON_M1], decide=ICE,
         cite="In the case of blanket spells, which affect more than one person, the subject of "
              "the counter-spell alone is protected.",
         dmg={"A": 8, "B": 11}, mons={"M1": ("ice_elemental", "A", True)}),
    # Reading (docs/rules.md): the sheltered elemental is out of the storm's reach, so it
    # neither dies nor cancels the storm; "Everyone else would be affected as usual".
    Case("a counter-spelled fire elemental neither dies in nor cancels an ice storm",
         A=ELEM_THEN_COUNTER_A, B=ICE_STORM_B6, orders=[COUNTER_ON_M1],
         cite="a fire storm spell could kill off a monster but not if a counter-spell were cast "
              "on the monster in the same turn. Everyone else would be affected as usual by the "
              "fire storm unless they had their own protection.",
         dmg={"A": 8, "B": 11}, mons={"M1": ("fire_elemental", "A", True)},
         nolog=["destroy each other"]),
    Case("without the counter-spell the fire storm engulfs the same elemental",
         A="C S W W S - / C - - W P P", B=FIRE_STORM_B6,
         orders=[cast(6, "A", "R", "counter_spell", "none")],
         cite="An elemental will also be engulfed and destroyed by a storm of its own type",
         dmg={"A": 5, "B": 8}, mons={"M1": ("fire_elemental", "A", False)}),
]

# ---------------------------------------------------------------------------------------------
# Charm person cast on oneself
# ---------------------------------------------------------------------------------------------
# A: P-S-D-F (left, turns 1-4) at himself, names his left hand; on turn 5 he writes its gesture.
# (Its S-D on turns 2-3 is a missile, aimed at nobody here.)
CHARM_SELF = [cast(3, "A", "L", "missile", "none"), cast(4, "A", "L", "charm_person", "W0")]
CHARM_SELF_CITE = ("in the following turn, the caster of the spell writes down the gesture he "
                   "wants the subject's named hand to perform. This could be a stab or nothing.")
CHARM_SELF_CASES = [
    Case("charm person on oneself: the caster writes his own charmed hand's stab",
         A="P S D F - / - - - - -", orders=[*CHARM_SELF, (5, "A", {"charm": {"gesture": ">"}})],
         decide={4: {"charm:W0": "L"}}, cite=CHARM_SELF_CITE,
         asked=[(4, "charm:W0", "A", ("L", "R"))], dmg={"B": 1}),
    Case("charm person on oneself: the written gesture, not the hand's own entry, is made",
         A="P S D F - D / - - - - - -", orders=[*CHARM_SELF, (5, "A", {"charm": {"gesture": "S"}})],
         decide={4: {"charm:W0": "L"}}, cite=CHARM_SELF_CITE,
         # turn 5: the charmed left hand makes S (A wrote "-" for it); turn 6: D completes S-D.
         ncast={("A", "missile"): 1}, dmg={"B": 1}),
]


ALL = STORMS_AND_ELEMENTALS + COUNTER_SHELTERS + CHARM_SELF_CASES


@cite(CHARM_SELF_CITE)
def test_charm_on_oneself_is_asked_for_and_accepted() -> None:
    # The orders of turn 5 are asked for the charmed hand (a "charm" question, as for the
    # opponent's hand), and a stab aimed at himself is refused ("Wizards are not allowed to stab
    # themselves").
    from wavinghands.preview import preview

    d = Duel(A="P S D F / - - - -", B="- - - - / - - - -")
    d.orders(4, "A", {"casts": [{"set": 0, "hand": "L", "spell": "charm_person",
                                 "target": "W0"}]})
    d.decide(4, {"charm:W0": "R"}).run()
    draft = {"gestures": [["-", "-"]]}
    asks = [q for q in preview(d.game, 0, draft)["questions"] if q["kind"] == "charm"]
    assert [(q["wizard"], q["hand"], q["stab_default"]) for q in asks] == [(0, "R", "W1")]
    assert "charm-missing" in problems(d.game, "A", draft)
    assert problems(d.game, "A", {"gestures": [["-", "-"]], "charm": {"gesture": "W"}}) == []
    assert "stab-self" in problems(d.game, "A", {"gestures": [["-", "-"]],
                                                 "charm": {"gesture": ">", "target": "W0"}})


# ---------------------------------------------------------------------------------------------
# Permanent confusion on a monster keeps its first turn's target
# ---------------------------------------------------------------------------------------------
@cite("This means that the effect of the extended spell on the first turn of its duration is "
      "repeated eternally. For example, a confusion spell will be the same gesture rather than "
      "re-rolling the dice",
      "If the subject of the spell is a monster, it attacks at random that turn.")
def test_permanent_confusion_on_a_monster_repeats_the_first_target() -> None:
    # B's goblin M1 (S-F-W, turns 1-3).  A: permanency (S-P-F-P-S-D-W, left, turns 1-7) and
    # confusion (D-S-F, right, turns 5-7) at the goblin on turn 7: permanency takes it.  The
    # goblin's turn-7 die picks B (pool: A, B); later dice, were they rolled, would pick A.
    dice = {"7:monster:M1:0": 2, "8:monster:M1:0": 1, "9:monster:M1:0": 1,
            "10:monster:M1:0": 1}
    d = Duel(A="S P F P S D W - - - / - - - - D S F - - -",
             B="S F W - - - - - - - / - - - - - - - - - -", dice=dice)
    d.orders(7, "A", {"casts": [{"set": 0, "hand": "R", "spell": "confusion", "target": "M1"}]})
    d.run()
    confused = [(e.turn, e.text) for e in d.events if e.type == "confused_monster"]
    assert confused == [(n, "B's goblin (M1) is confused and attacks B.") for n in (7, 8, 9, 10)], \
        d.log()
    goblin = d.monster("M1")
    assert [(e.kind, e.permanent, e.detail) for e in goblin.effects] == [("confusion", True, "W1")]


# ---------------------------------------------------------------------------------------------
# Readings the text leaves to argument (docs/rules.md, "Readings"), one scenario each
# ---------------------------------------------------------------------------------------------
READINGS = [
    # B's goblin M1 (S-F-W, turns 1-3), stabbed dead by A on turn 4; A raises it (D-W-W-F-W-C,
    # left, turns 4-9, the clap of turn 9 with both hands).
    Case("a monster raised from the dead stays its master's, and attacks for him that turn",
         A="- - - D W W F W C / - - - > - - - - C", B="S F W - - - - - - / - - - - - - - - -",
         orders=[(4, "A", {"stab": "M1"}), cast(9, "A", "B", "raise_dead", "M1")],
         cite="When the spell is cast, life returns to the corpse and all damage is cured. ... "
              "The subject will be able to act normally immediately after the spell is cast. On "
              "the turn a monster is raised it may attack.",
         # turns 3 and 4 (it attacks as it dies) and 9 (raised): 3 points on A.
         cast=[("A", "raise_dead")], mons={"M1": ("goblin", "B", True)}, dmg={"A": 3}),
    Case("a paralysis reflected by a monster's mirror: the monster's master picks the hand",
         A="- - F F F / - - - - -", B="S F W C W / - - - C W",
         orders=[cast(5, "A", "L", "paralysis", "M1"), cast(5, "B", "B", "magic_mirror", "M1")],
         decide={5: {"paralysis:W0": "R"}},
         cite="If the subject is only so because of a reflection from a magic mirror the subject "
              "of the mirror assumes the role of caster",
         asked=[(5, "paralysis:W0", "B", ("L", "R"))], has={"A": {"paralysis"}},
         log=["A's right hand is paralysed"]),
    Case("two elementals of a type merge into the older, which keeps its master",
         A="C S W W S - / C - - - - -", B="- C S W W S / - C - - - -",
         cite="two of the same type will join together to form a single elemental of normal "
              "strength.",
         mons={"M1": ("fire_elemental", "A", True), "M2": ("fire_elemental", "B", False)},
         living=1),
    Case("two elementals of a type summoned together merge into the first summoned",
         A="C S W W S / C - - - -", B="C S W W S / C - - - -",
         cite="two of the same type will join together to form a single elemental of normal "
              "strength.",
         mons={"M1": ("fire_elemental", "A", True), "M2": ("fire_elemental", "B", False)},
         dmg={"A": 3, "B": 3}),
    # A's delayed effect (D-W-S-S-S-P, left, turns 1-6) banks his missile (S-D, right, turns
    # 5-6); B's remove enchantment (P-D-W-P, turns 4-7) hits A on turn 7; A releases on turn 8.
    Case("remove enchantment leaves a banked spell in the bank",
         A="D W S S S P - - / - - - - S D - -", B="- - - P D W P - / - - - - - - - -",
         orders=[cast(7, "B", "L", "remove_enchantment", "W0"), (8, "A", {"release": True})],
         cite="Terminates the effects of all Enchantment Spells that have been cast on the "
              "subject ... Note that spells banked are those cast by the subject not those cast "
              "at him.",
         cast=[("B", "remove_enchantment"), ("A", "missile")], dmg={"B": 1},
         log=["A releases the banked Missile."]),
    Case("a blind wizard's spells and stabs at others work as ever",
         A="D W F F D - - - / - - - - D - - -", B="- - - - - S D > / - - - - - - - -",
         cite="Indeed he will not know if his own spells work unless they also affect him",
         # B is blind on turns 6-8: his missile (turn 7) and his stab (turn 8) hit A.
         log=["B is under Blindness."], cast=[("B", "missile")], dmg={"A": 2}),
    # A invisible on turns 5-7 (P-P-(w-(s, turns 1-4) with a missile under way (S on turn 6, D
    # on turn 7); B's anti-spell (S-P-F, turns 4-6) at A on turn 6 misses, so the missile flies.
    Case("an anti-spell aimed at an invisible wizard misses him",
         A="P P W S - S D / - - W S - - -", B="- - - S P F - / - - - - - - -",
         orders=[cast(6, "B", "L", "anti_spell", "W0")],
         cite="Wizards can still stab and direct spells at him, with the same hope.",
         fizzle=["A is invisible"], cast=[("A", "missile")], dmg={"B": 1}),
]


test_rule, test_cites_are_quotes, test_names_unique = table_tests(ALL, also_named=READINGS)


@pytest.mark.parametrize("case", READINGS, ids=lambda c: c.name)
def test_reading(case: Case) -> None:
    run_case(case)


def test_reading_cites_are_quotes() -> None:
    assert cite_problems(READINGS) == []
