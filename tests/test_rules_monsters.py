"""Scenario tests, one per rule clause: summons, monsters, summon elemental, fire storm and ice
storm, and how they meet resist heat, resist cold, fireball and shields.

Same table notation as test_rules_core.py (see tests/rules_table.py).  Elementals are fire unless
a case answers the subject's decision (`decide`) with "ice"; decision ids are
"elemental:<caster>:<hand>".
"""

from __future__ import annotations

from citing import cite
from dsl import Duel
from rules_table import Case, cast, table_tests

from wavinghands import duel
from wavinghands.legal import input_problems
from wavinghands.orders import parse_orders
from wavinghands.view import view

ELEM_A = "C S W W S / C - - - -"  # A's elemental on turn 5
ICE_A = {5: {"elemental:0:L": "ice"}}

# ---------------------------------------------------------------------------------------------
# The four summons
# ---------------------------------------------------------------------------------------------
SUMMONS = [
    Case("summon goblin: controlled by its subject, attacks the turn it appears for 1",
         B="S F W / - - -",
         cite="This spell creates a goblin under the control of the subject upon whom the spell "
              "is cast ... The goblin can attack immediately",
         dmg={"A": 1}, mons={"M1": ("goblin", "B", True)}, living=1),
    Case("summon ogre: inflicts 2 (and no goblin from the S-F-W inside it)",
         B="P S F W / - - - -",
         cite="the ogre created inflicts and is destroyed by two points of damage rather than "
              "one.",
         dmg={"A": 2}, mons={"M1": ("ogre", "B", True)}, living=1),
    Case("summon troll: inflicts 3",
         B="F P S F W / - - - - -",
         cite="the troll created inflicts and is destroyed by three points of damage rather "
              "than one.",
         dmg={"A": 3}, mons={"M1": ("troll", "B", True)}, living=1),
    Case("summon giant: inflicts 4",
         B="W F P S F W / - - - - - -",
         orders=[cast(3, "B", "L", "cause_light_wounds", "none")],
         cite="the giant created inflicts and is destroyed by four points of damage rather than "
              "one.",
         dmg={"A": 4}, mons={"M1": ("giant", "B", True)}, living=1),
    Case("goblin is destroyed by one point (a stab); it attacks that turn, then no more",
         A="- - - > - / - - - - -", B="S F W - - / - - - - -",
         orders=[(4, "A", {"stab": "M1"})],
         cite="It does one point of damage to its victim per turn and is destroyed after one "
              "point of damage is inflicted upon it.",
         dmg={"A": 2}, mons={"M1": ("goblin", "B", False)}),
    Case("ogre survives one point",
         A="- - - S D / - - - - -", B="P S F W - / - - - - -",
         orders=[cast(5, "A", "L", "missile", "M1")],
         cite="the ogre created inflicts and is destroyed by two points of damage",
         mons={"M1": ("ogre", "B", True)}, mdmg={"M1": 1}),
    Case("ogre is destroyed by two points",
         A="- - W F P / - - - - -", B="P S F W - / - - - - -",
         orders=[cast(5, "A", "L", "cause_light_wounds", "M1")],
         cite="the ogre created inflicts and is destroyed by two points of damage",
         mons={"M1": ("ogre", "B", False)}),
    Case("damage to monsters is cumulative: two missiles on two turns kill an ogre",
         A="- - - S D - / - - - - S D", B="P S F W - - / - - - - - -",
         orders=[cast(5, "A", "L", "missile", "M1"), cast(6, "A", "R", "missile", "M1")],
         cite="Damage to wizards and monsters is cumulative",
         mons={"M1": ("ogre", "B", False)}),
    Case("troll survives two points",
         A="- - - W F P / - - - - - -", B="F P S F W - / - - - - - -",
         orders=[cast(6, "A", "L", "cause_light_wounds", "M1")],
         cite="the troll created inflicts and is destroyed by three points of damage",
         mons={"M1": ("troll", "B", True)}, mdmg={"M1": 2}),
    Case("troll is destroyed by three points",
         A="- - W P F D / - - - - - -", B="F P S F W - / - - - - - -",
         orders=[cast(6, "A", "L", "cause_heavy_wounds", "M1")],
         cite="the troll created inflicts and is destroyed by three points of damage",
         mons={"M1": ("troll", "B", False)}),
    Case("giant survives three points",
         A="- - - W P F D / - - - - - - -", B="W F P S F W - / - - - - - - -",
         orders=[cast(3, "B", "L", "cause_light_wounds", "none"),
                 cast(7, "A", "L", "cause_heavy_wounds", "M1")],
         cite="the giant created inflicts and is destroyed by four points of damage",
         mons={"M1": ("giant", "B", True)}, mdmg={"M1": 3}),
    Case("giant is destroyed by four points",
         A="- - - W P F D / - - - - - - >", B="W F P S F W - / - - - - - - -",
         orders=[cast(3, "B", "L", "cause_light_wounds", "none"),
                 (7, "A", {"casts": [{"set": 0, "hand": "L", "spell": "cause_heavy_wounds",
                                      "target": "M1"}], "stab": "M1"})],
         cite="the giant created inflicts and is destroyed by four points of damage",
         mons={"M1": ("giant", "B", False)}),
    Case("a summons cast at the opponent gives him the monster, which attacks the caster",
         B="S F W / - - -", orders=[cast(3, "B", "L", "summon_goblin", "W0")],
         cite="This spell creates a goblin under the control of the subject upon whom the spell "
              "is cast",
         dmg={"A": 0, "B": 1}, mons={"M1": ("goblin", "A", True)}),
    Case("a summons cast at a monster gives the new one to that monster's controller",
         A="- S F W / - - - -", B="S F W - / - - - -",
         orders=[cast(4, "A", "L", "summon_goblin", "M1")],
         cite="(or if cast on a monster, the subject monster's controller",
         mons={"M2": ("goblin", "B", True)}, dmg={"A": 3, "B": 0}),
    Case("...even if that monster dies the same turn",
         A="- S F W / - - - >", B="S F W - / - - - -",
         orders=[(4, "A", {"casts": [{"set": 0, "hand": "L", "spell": "summon_goblin",
                                      "target": "M1"}], "stab": "M1"})],
         cite="the subject monster's controller, even if the monster later dies or changes "
              "loyalty",
         mons={"M1": ("goblin", "B", False), "M2": ("goblin", "B", True)}, dmg={"A": 3}),
    Case("a summons cannot be cast at an elemental",
         A="- - - S F W / - - - - - -", B=ELEM_A,
         orders=[cast(6, "A", "L", "summon_goblin", "M1")],
         cite="The summoning spell cannot be cast at an elemental",
         living=1, mons={"M1": ("fire_elemental", "B", True)}, dmg={"A": 6, "B": 6}),
    Case("a summons at an elemental is reported as having no effect, even beside a new: target",
         A="- - - S F W / - - - - S D", B="C S W W S - / C - - S F W",
         orders=[(6, "A", {"casts": [{"set": 0, "hand": "L", "spell": "summon_goblin",
                                      "target": "M1"},
                                     {"set": 0, "hand": "R", "spell": "missile",
                                      "target": "new:1:R"}]})],
         cite="The summoning spell cannot be cast at an elemental",
         not_cast=[("A", "summon_goblin")], fizzle=["summon goblin has no effect"],
         mons={"M2": ("goblin", "B", False)}, living=1),
    Case("a spell aimed at a monster that is never summoned has no effect",
         A="S D / - -", orders=[cast(2, "A", "L", "missile", "new:1:L")],
         cite="if it still doesn't exist when you actually cast the spell then the spell is "
              "discarded",
         dmg={"A": 0, "B": 0}, not_cast=[("A", "missile")], fizzle=["missile has no effect"]),
    Case("a spell aimed at the monster being summoned this turn hits it; it attacks as it dies",
         A="- S D / - - -", B="S F W / - - -",
         orders=[cast(2 + 1, "A", "L", "missile", "new:1:L")],
         cite="The best example is when a monster is created and, on the same turn, hit by a "
              "fireball, or something else sufficient to kill it. Since both are simultaneous, "
              "the monster will attack that turn whilst being destroyed.",
         dmg={"A": 1}, mons={"M1": ("goblin", "B", False)}),
]

# ---------------------------------------------------------------------------------------------
# Monsters
# ---------------------------------------------------------------------------------------------
MONSTERS = [
    Case("a new monster's master may tell it not to attack",
         B="S F W / - - -", orders=[(3, "B", {"monsters": {"new:1:L": "none"}})],
         cite="Monsters may make a single attack each turn against a target chosen by their "
              "master or they may spend the turn doing nothing.",
         dmg={"A": 0, "B": 0}),
    Case("a monster attacks the target its master chooses: another monster",
         A="S F W - - / - - - - -", B="- S F W - / - - - - -",
         orders=[(5, "A", {"monsters": {"M1": "M2"}})],
         cite="Monsters may make a single attack each turn against a target chosen by their "
              "master",
         dmg={"A": 2, "B": 2}, mons={"M1": ("goblin", "A", True), "M2": ("goblin", "B", False)}),
    Case("a monster may attack its own master if told to",
         B="S F W / - - -", orders=[(3, "B", {"monsters": {"new:1:L": "W1"}})],
         cite="its victim can be any any wizard or other monster the controller desires",
         dmg={"A": 0, "B": 1}),
    Case("a monster may be set on the monster being summoned this turn",
         A="S F W - / - - - -", B="- S F W / - - - -",
         orders=[(4, "A", {"monsters": {"M1": "new:1:L"}})],
         cite="The target need not exist at the time the gestures are made.",
         mons={"M2": ("goblin", "B", False)}, dmg={"A": 1, "B": 1}),
    Case("a dead monster takes no further part",
         A="- - - - - - / - - - > - -", B="S F W - - - / - - - - - -",
         orders=[(4, "A", {"stab": "M1"})],
         cite="Dead monsters take no further part in the game.",
         dmg={"A": 2}, mons={"M1": ("goblin", "B", False)}),
]

# ---------------------------------------------------------------------------------------------
# Summon elemental
# ---------------------------------------------------------------------------------------------
ELEMENTALS = [
    Case("the elemental's subject chooses fire or ice after the reveal",
         A=ELEM_A,
         cite="This spell creates either a fire elemental or an ice elemental at the discretion "
              "of the person upon whom the spell is cast after he has seen all the gestures made "
              "that turn.",
         asked=[(5, "elemental:0:L", "A", ("fire", "ice"))],
         mons={"M1": ("fire_elemental", "A", True)}),
    Case("...choosing ice",
         A=ELEM_A, decide=ICE_A,
         cite="at the discretion of the person upon whom the spell is cast after he has seen all "
              "the gestures made that turn.",
         mons={"M1": ("ice_elemental", "A", True)}),
    Case("an elemental cast at the opponent: the opponent chooses and controls it",
         A=ELEM_A, orders=[cast(5, "A", "L", "summon_elemental", "W1")],
         decide={5: {"elemental:0:L": "ice"}},
         cite="at the discretion of the person upon whom the spell is cast",
         asked=[(5, "elemental:0:L", "B", ("fire", "ice"))],
         mons={"M1": ("ice_elemental", "B", True)}),
    Case("an elemental attacks everyone not resistant, its controller too, for 3",
         A=ELEM_A,
         cite="The elemental will, for that turn and until destroyed, attack everyone who is not "
              "resistant to its type (heat or cold), causing three points of damage per turn.",
         dmg={"A": 3, "B": 3}),
    Case("an elemental attacks every turn until destroyed",
         A="C S W W S - - / C - - - - - -",
         cite="The elemental will, for that turn and until destroyed, attack everyone",
         dmg={"A": 9, "B": 9}),
    Case("an elemental attacks monsters too",
         A=ELEM_A, B="S F W - - / - - - - -",
         cite="The elemental will, for that turn and until destroyed, attack everyone who is not "
              "resistant to its type",
         dmg={"A": 6, "B": 3}, mons={"M1": ("goblin", "B", False)}),
    Case("a shield stops an elemental",
         A=ELEM_A, B="- - - - P / - - - - -",
         cite="Note that only wizards or monsters resistant to the type of elemental, or who are "
              "casting a spell which has the effect of a shield do not get attacked by the "
              "elemental.",
         dmg={"A": 3, "B": 0}),
    Case("a counter-spell (acting as a shield) stops an elemental",
         A=ELEM_A, B="- - W W S / - - - - -",
         cite="or who are casting a spell which has the effect of a shield do not get attacked "
              "by the elemental.",
         dmg={"A": 3, "B": 0}),
    # Engine reading: protection from evil ("protected as if using a shield spell") counts.
    Case("protection from evil keeps an elemental off",
         A=ELEM_A, B="- - W W P / - - - - -",
         cite="the subject of this spell is protected as if using a shield spell",
         dmg={"A": 3, "B": 0}),
    Case("remove enchantment destroys an elemental, which attacks that turn",
         A="C S W W S - / C - - - - -", B="- - P D W P / - - - - - -",
         orders=[cast(6, "B", "L", "remove_enchantment", "M1")],
         cite="Remove enchantment also destroys any monster upon which it is cast, although the "
              "monster can attack in that turn.",
         dmg={"A": 6, "B": 6}, mons={"M1": ("fire_elemental", "A", False)}),
    Case("resist heat cast at the fire elemental being summoned this turn: never attacks",
         A=ELEM_A, B="- W W F P / - - - - -",
         orders=[cast(5, "B", "L", "resist_heat", "new:0:L")],
         cite="A resist heat cast directly on a fire elemental will destroy it before it can "
              "attack that turn",
         dmg={"A": 0, "B": 0}, mons={"M1": ("fire_elemental", "A", False)}),
    Case("a heat-resistant wizard is not attacked by a fire elemental",
         A=ELEM_A, B="- W W F P / - - - - -",
         cite="The subject of this spell becomes totally resistant to all forms of heat attack "
              "(fireball, fire storm and fire elementals).",
         dmg={"A": 3, "B": 0}),
    Case("a heat-resistant wizard is attacked by an ice elemental",
         A=ELEM_A, B="- W W F P / - - - - -", decide=ICE_A,
         cite="there is no effect on ice elementals.",
         dmg={"A": 3, "B": 3}),
    Case("a cold-resistant wizard is not attacked by an ice elemental",
         A=ELEM_A, B="- S S F P / - - - - -", decide=ICE_A,
         cite="resistance is to cold (ice storm and ice elementals)",
         dmg={"A": 3, "B": 0}),
    Case("an elemental takes three points to kill; it attacks as it dies",
         A=ELEM_A + "", B="- - W P F D / - - - - - -",
         orders=[cast(6, "B", "L", "cause_heavy_wounds", "M1")],
         cite="The elemental takes three points of damage to be killed",
         dmg={"A": 6, "B": 6}, mons={"M1": ("fire_elemental", "A", False)}),
    Case("two elementals of the same type join into one of normal strength",
         A=ELEM_A, B=ELEM_A,
         cite="two of the same type will join together to form a single elemental of normal "
              "strength.",
         dmg={"A": 3, "B": 3}, living=1),
    Case("a new elemental joins an existing one of the same type",
         A="C S W W S - / C - - - - -", B="- C S W W S / - C - - - -",
         cite="two of the same type will join together to form a single elemental of normal "
              "strength.",
         dmg={"A": 6, "B": 6}, living=1),
    Case("a damaged elemental joined by a new one is of normal strength again",
         A="C S W W S - - / C - - - - - -", B="- - C W F P - / - - C S W W S",
         orders=[cast(6, "B", "L", "cause_light_wounds", "M1")],
         cite="two of the same type will join together to form a single elemental of normal "
              "strength.",
         dmg={"A": 9, "B": 9}, living=1, mdmg={"M1": 0}),
    Case("two elementals of opposite types destroy each other before attacking",
         A=ELEM_A, B=ELEM_A, decide={5: {"elemental:1:L": "ice"}},
         cite="Two elementals of the opposite type will also destroy each other before "
              "attacking",
         dmg={"A": 0, "B": 0}, living=0),
    Case("a new ice elemental and an existing fire elemental destroy each other",
         A="C S W W S - / C - - - - -", B="- C S W W S / - C - - - -",
         decide={6: {"elemental:1:L": "ice"}},
         cite="Two elementals of the opposite type will also destroy each other before "
              "attacking",
         dmg={"A": 3, "B": 3}, living=0),
    Case("resist heat cast on a fire elemental destroys it before it attacks",
         A=ELEM_A + "", B="- - W W F P / - - - - - -",
         orders=[cast(6, "B", "L", "resist_heat", "M1")],
         cite="A resist heat cast directly on a fire elemental will destroy it before it can "
              "attack that turn",
         dmg={"A": 3, "B": 3}, mons={"M1": ("fire_elemental", "A", False)}),
    Case("resist heat cast on an ice elemental has no effect",
         A=ELEM_A, B="- - W W F P / - - - - - -", decide=ICE_A,
         orders=[cast(6, "B", "L", "resist_heat", "M1")],
         cite="but there is no effect on ice elementals.",
         dmg={"A": 6, "B": 6}, mons={"M1": ("ice_elemental", "A", True)}),
    Case("resist cold cast on an ice elemental destroys it",
         A=ELEM_A, B="- - S S F P / - - - - - -", decide=ICE_A,
         orders=[cast(6, "B", "L", "resist_cold", "M1")],
         cite="it destroys ice elementals if they are the subject of the spell but doesn't "
              "affect fire elementals.",
         dmg={"A": 3, "B": 3}, mons={"M1": ("ice_elemental", "A", False)}),
    Case("resist cold cast on a fire elemental has no effect",
         A=ELEM_A, B="- - S S F P / - - - - - -",
         orders=[cast(6, "B", "L", "resist_cold", "M1")],
         cite="it destroys ice elementals if they are the subject of the spell but doesn't "
              "affect fire elementals.",
         dmg={"A": 6, "B": 6}, mons={"M1": ("fire_elemental", "A", True)}),
    Case("a fireball destroys an ice elemental before it attacks",
         A=ELEM_A, B="- F S S D D / - - - - - -", decide=ICE_A,
         orders=[cast(5, "B", "L", "missile", "none"), cast(6, "B", "L", "fireball", "M1")],
         cite="If directed at an ice elemental, the fireball will destroy it before it can "
              "attack",
         dmg={"A": 3, "B": 3}, mons={"M1": ("ice_elemental", "A", False)}),
    # docs/rules.md: elementals are not immune to their own element (a storm of its own type
    # even "engulfs" one); a fireball's 5 points destroy a fire elemental, which still attacks.
    Case("a fireball destroys a fire elemental, which attacks as it dies",
         A=ELEM_A, B="- F S S D D / - - - - - -",
         orders=[cast(5, "B", "L", "missile", "none"), cast(6, "B", "L", "fireball", "M1")],
         cite="The elemental takes three points of damage to be killed",
         dmg={"A": 6, "B": 6}, mons={"M1": ("fire_elemental", "A", False)}),
    Case("a fireball on oneself is no defence against an ice elemental",
         A=ELEM_A, B="- F S S D D / - - - - - -", decide=ICE_A,
         orders=[cast(5, "B", "L", "missile", "none"), cast(6, "B", "L", "fireball", "W1")],
         cite="Casting a fireball upon yourself when being attacked by an ice elemental is no "
              "defence! (Cast it at the elemental...)",
         dmg={"A": 6, "B": 11}, mons={"M1": ("ice_elemental", "A", True)}),
]

# ---------------------------------------------------------------------------------------------
# Storms
# ---------------------------------------------------------------------------------------------
STORMS = [
    Case("fire storm: everything not resistant takes 5, its caster and monsters included",
         A="S W W C / - - - C", B="S F W - / - - - -",
         cite="Everything not resistant to heat sustains 5 points of damage that turn.",
         dmg={"A": 7, "B": 5}, mons={"M1": ("goblin", "B", False)}),
    Case("ice storm: everything not resistant takes 5",
         A="W S S C / - - - C", B="S F W - / - - - -",
         cite="Everything not resistant to cold sustains 5 points of damage that turn.",
         dmg={"A": 7, "B": 5}, mons={"M1": ("goblin", "B", False)}),
    Case("a shield is no protection from a storm",
         A="S W W C / - - - C", B="- - - P / - - - -",
         cite="Everything not resistant to heat sustains 5 points of damage that turn.",
         dmg={"A": 5, "B": 5}),
    Case("two fire storms act as one",
         A="S W W C / - - - C", B="S W W C / - - - C",
         cite="Two fire storms act as one.",
         dmg={"A": 5, "B": 5}),
    Case("two ice storms act as one",
         A="W S S C / - - - C", B="W S S C / - - - C",
         cite="Two ice storms act as one.",
         dmg={"A": 5, "B": 5}),
    Case("a fire storm and an ice storm cancel wholly",
         A="S W W C / - - - C", B="W S S C / - - - C",
         cite="The spell cancels wholly, causing no damage, with either an ice storm or an ice "
              "elemental.",
         dmg={"A": 0, "B": 0}),
    Case("fire storm and ice elemental: no damage, the elemental is destroyed",
         A=ELEM_A, B="- - S W W C / - - - - - C", decide=ICE_A,
         cite="The spell cancels wholly, causing no damage, with either an ice storm or an ice "
              "elemental.",
         dmg={"A": 3, "B": 3}, mons={"M1": ("ice_elemental", "A", False)}),
    Case("ice storm and fire elemental: no damage, the elemental is destroyed",
         A=ELEM_A, B="- - W S S C / - - - - - C",
         cite="The spell cancels wholly, causing no damage, with either a fire storm or a fire "
              "elemental",
         dmg={"A": 3, "B": 3}, mons={"M1": ("fire_elemental", "A", False)}),
    Case("fire storm engulfs a fire elemental, which does not attack; the storm strikes",
         A=ELEM_A, B="- - S W W C / - - - - - C",
         cite="An elemental will also be engulfed and destroyed by a storm of its own type but, "
              "in such an event, the storm is not neutralized although the elemental still does "
              "not attack in that turn.",
         dmg={"A": 8, "B": 8}, mons={"M1": ("fire_elemental", "A", False)}),
    Case("ice storm engulfs an ice elemental, which does not attack; the storm strikes",
         A=ELEM_A, B="- - W S S C / - - - - - C", decide=ICE_A,
         cite="It will destroy but not be destroyed by an ice elemental.",
         dmg={"A": 8, "B": 8}, mons={"M1": ("ice_elemental", "A", False)}),
    Case("fire storm on the turn a fire elemental appears: engulfed before it attacks",
         A=ELEM_A, B="- S W W C / - - - - C",
         cite="It will destroy but not be destroyed by a fire elemental.",
         dmg={"A": 5, "B": 5}, living=0),
    Case("ice storm on the turn a fire elemental appears: both gone, no damage",
         A=ELEM_A, B="- W S S C / - - - - C",
         cite="The spell cancels wholly, causing no damage, with either a fire storm or a fire "
              "elemental",
         dmg={"A": 0, "B": 0}, living=0),
]

ALL = SUMMONS + MONSTERS + ELEMENTALS + STORMS


test_rule, test_cites_are_quotes, test_names_unique = table_tests(ALL)


def test_elemental_choice_is_made_after_seeing_the_turn() -> None:
    """The elemental's type is a decision taken after the reveal: the deciding wizard's view
    shows both wizards' gestures of the turn, and the orders never carry the choice."""
    d = Duel(A="C S W W / C - - -").run()
    g, events = duel.step(d.game, {0: {"gestures": [["S", "-"]]},
                                   1: {"gestures": [["W", "S"]]}})
    assert g.phase.kind == "decision" and g.phase.actors == (0,)
    assert events == ()  # nothing resolves before the choice
    v = view(g, 0)
    assert v["phase"]["revealed"]["1"] == [["W", "S"]]
    assert [x["options"] for x in v["phase"]["decisions"]] == [["fire", "ice"]]
    g2, _ = duel.step(g, {0: {"decisions": {"elemental:0:L": "ice"}}})
    assert [m.kind for m in g2.monsters] == ["ice_elemental"]
    assert g2.phase.kind == "orders" and g2.phase.turn == 6


def test_stab_at_the_monster_being_summoned_is_refused_or_lands() -> None:
    """A stab "can be directed at any individual monster or wizard"; orders may name the monster
    being summoned this turn (new:<wizard>:<hand>).  Either validation refuses that target, or
    the stab lands on the new goblin; it must not be accepted and then silently dropped."""
    d = Duel(A="- - / - -", B="S F / - -").run()
    orders = parse_orders({"gestures": [[">", "-"]], "stab": "new:1:L"})
    problems = input_problems(d.game, 0, orders)
    if problems:
        assert any(p.field.startswith("stab") for p in problems)
        return
    g, _ = duel.step(d.game, {0: {"gestures": [[">", "-"]], "stab": "new:1:L"},
                              1: {"gestures": [["W", "-"]]}})
    goblin = g.monsters[0]
    assert goblin.kind == "goblin" and not goblin.alive, \
        f"stab at new:1:L was accepted but did nothing: {goblin}"


@cite("the ogre created inflicts and is destroyed by two points of damage")
def test_the_summons_line_uses_an_before_a_vowel() -> None:
    d = Duel(A="P S F W/- - - -", B="- - - -/- - - -").run()
    assert "brings forth an ogre (M1) for A." in d.log_of("A")
