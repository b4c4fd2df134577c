"""Scenario tests, one per rule clause: gestures, recognition, the protection spells, damaging
spells, cures, protection from evil and the resistances, surrender, death, the withhold house
rule.  Monsters, summons, elementals and storms: test_rules_monsters.py; illegal orders:
test_rules_orders.py.

Every case cites the sentence of the reference rules (000) it checks; `test_cites_are_quotes`
makes sure the citations really are quotations.  Notation (tests/dsl.py): per wizard one gesture
string per hand, "left / right", one letter per turn; `>` stab, `-` nothing.
"""

from __future__ import annotations

from rules_table import Case, cast, table_tests

# ---------------------------------------------------------------------------------------------
# Gestures
# ---------------------------------------------------------------------------------------------
GESTURES = [
    Case("clap with both hands completes W-D-D-C",
         A="W D D C / - - - C",
         cite="There is one two-handed gesture: the clap (C). Both hands must be specified as "
              "clapping in the same turn for this gesture to be valid.",
         dmg={"A": 0, "B": 5}, cast=[("A", "lightning_bolt")]),
    Case("one-handed clap is nothing: W-D-D-C with one hand casts nothing",
         A="W D D C / - - - -",
         cite="nonsense (Zen?)( gestures such as (C with just one hand are considered the same "
              "as nothing",
         dmg={"B": 0}, not_cast=[("A", "lightning_bolt")]),
    Case("one-handed clap cannot start a magic mirror",
         A="C W / - W", B="S D / - -",
         cite="Both hands must be specified as clapping in the same turn for this gesture to be "
              "valid.",
         dmg={"A": 1, "B": 0}, not_cast=[("A", "magic_mirror")]),
    Case("(w needs a W from each hand: no mirror with one W",
         A="C W / C -", B="S D / - -",
         cite="an open parenthesis, followed by a lowercase letter, denotes a gesture to be "
              "performed with both hands simultaneously. E.g. (w denotes a W by each hand.",
         dmg={"A": 1, "B": 0}, not_cast=[("A", "magic_mirror")]),
    Case("nothing interrupts a sequence: S - D is no missile",
         A="S - D / - - -",
         cite="Note that no spells contain stab or nothing. ... Consequently, after one of these "
              "options is taken, all spells must start from scratch.",
         dmg={"B": 0}, not_cast=[("A", "missile")]),
    Case("a stab interrupts a sequence: S > D stabs but casts no missile",
         A="S > D / - - -",
         cite="Consequently, after one of these options is taken, all spells must start from "
              "scratch.",
         dmg={"B": 1}, not_cast=[("A", "missile")]),
    Case("all gestures of one spell with the same hand: S left, D right is nothing",
         A="S - / - D",
         cite="all gestures for one spell are made with the same hand",
         dmg={"B": 0}, not_cast=[("A", "missile")]),
    Case("each hand acts independently: two missiles in one turn",
         A="S D / S D",
         cite="They use both hands and each hand can act independently or in concord with the "
              "other.",
         dmg={"B": 2}, ncast={("A", "missile"): 2}),
    Case("a stab does 1 point of damage",
         A="> / -",
         cite="Unless protected in that turn by a shield spell or another spell with the same "
              "effect, the being stabbed suffers 1 point of damage.",
         dmg={"A": 0, "B": 1}),
    Case("stabbing hands may change from turn to turn",
         A="> - / - >",
         cite="Wizards can, however, change hands for stabbing without wasting time.",
         dmg={"B": 2}),
    Case("a stab with one hand and a spell with the other",
         A="S D / - >",
         cite="Each turn a player's wizard can either gesture with their hands to weave part of "
              "a spell, stab with their knife, or do nothing. They use both hands",
         dmg={"B": 2}),
]

# ---------------------------------------------------------------------------------------------
# Recognition
# ---------------------------------------------------------------------------------------------
RECOGNITION = [
    Case("no gesture before turn 1: a lone D on turn 1 completes no missile",
         A="D / -",
         cite="Before the battle commences, the referee casts a dispel magic followed by an "
              "anti-spell at each of the wizards so they cannot commence gesturing prematurely",
         dmg={"B": 0}, not_cast=[("A", "missile")]),
    Case("F-F-F then S-S-D-D: paralysis, then the missile inside the fireball, then the "
         "fireball",
         A="F F F S S D D / - - - - - - -",
         cite="the left hand could cast the F-F-F above. In the following four turns the left "
              "hand could gesture (S-S-D-D) to finish off a fireball spell since the last five "
              "gestures would then be (F-S-S-D-D).",
         cast=[("A", "paralysis"), ("A", "missile"), ("A", "fireball")],
         dmg={"B": 6}, asked=[(3, "paralysis:W1", "A", ("L", "R"))]),
    Case("F-F-F-F: a second paralysis from the last three gestures",
         A="F F F F / - - - -",
         cite="Another alternative is to simply perform another (F) for a second paralysis "
              "spell, as the last three gestures are still (F-F-F).",
         ncast={("A", "paralysis"): 2}),
    Case("invisibility vs counter-spell: the default casts invisibility (the longer spell)",
         A="W W W S / P P W S",
         cite="it is clear that a choice must be made between the W-W-S of the counter-spell "
              "and the P-P-(w-(s of the invisibility.",
         cast=[("A", "invisibility")], not_cast=[("A", "counter_spell")],
         has={"A": {"invisibility"}}),
    Case("invisibility vs counter-spell: choosing the counter-spell casts no invisibility",
         A="W W W S / P P W S", B="- - S D / - - - -",
         orders=[cast(4, "A", "L", "counter_spell")],
         cite="since the final S of the left hand cannot be used to cast two spells, it is "
              "clear that a choice must be made",
         cast=[("A", "counter_spell")], not_cast=[("A", "invisibility")],
         lacks={"A": {"invisibility"}}, dmg={"A": 0}),
    Case("finger of death vs missile: by default the finger of death",
         A="P W P F S S S D / - - - - - - - -",
         cite="the last two gestures of a finger of death are the same as missile, yet only on "
              "odd occasions would the latter spell be chosen in preference to the former.",
         alive={"B": False}, result=("A", "died"), not_cast=[("A", "missile")]),
    Case("finger of death vs missile: the caster may choose the missile",
         A="P W P F S S S D / - - - - - - - -",
         orders=[cast(8, "A", "L", "missile")],
         cite="If a gesture can be construed to create two or more spells then the caster "
              "chooses which one to cast.",
         alive={"B": True}, dmg={"B": 1}, not_cast=[("A", "finger_of_death")]),
    Case("P-D-W-P: by default remove enchantment, not the shield inside it",
         A="P D W P / - - - -", B="- - S D / - - - -",
         cite="If a gesture can be construed to create two or more spells then the caster "
              "chooses which one to cast.",
         cast=[("A", "remove_enchantment")], dmg={"A": 1}),
    Case("P-D-W-P: choosing the shield on the last P",
         A="P D W P / - - - -", B="- - S D / - - - -",
         orders=[cast(4, "A", "L", "shield")],
         cite="If a gesture can be construed to create two or more spells then the caster "
              "chooses which one to cast.",
         not_cast=[("A", "remove_enchantment")], dmg={"A": 0}),
    Case("a gesture serves several sequences: the P of C-D-P-W is also a shield",
         A="C D P / C - -", B="- - > / - - -",
         cite="The uniqueness of the game, however, is that a single gesture in more than one "
              "series and, hence, can be used to cast more than one spell.",
         dmg={"A": 0}, cast=[("A", "shield")]),
    Case("C-S-W-W-S: the caster may choose the counter-spell inside it instead",
         A="C S W W S / C - - - -", B="- - - S D / - - - - -",
         orders=[cast(5, "A", "L", "counter_spell")],
         cite="If a gesture can be construed to create two or more spells then the caster "
              "chooses which one to cast.",
         living=0, dmg={"A": 0, "B": 0}, not_cast=[("A", "summon_elemental")]),
    Case("counter-spell form W-P-P",
         A="- - W P P / - - - - -", B="D F F D D / - - - - -",
         cite="Counter-spell gestures W-P-P or W-W-S. Any other spell cast upon the subject in "
              "the same turn has no effect.",
         cast=[("A", "counter_spell")], dmg={"A": 0}),
    Case("counter-spell form W-W-S",
         A="- - W W S / - - - - -", B="D F F D D / - - - - -",
         cite="Counter-spell gestures W-P-P or W-W-S. Any other spell cast upon the subject in "
              "the same turn has no effect.",
         cast=[("A", "counter_spell")], dmg={"A": 0}),
    Case("lightning bolt long form D-F-F-D-D: 5 damage",
         A="D F F D D / - - - - -",
         cite="Lightning Bolt gestures D-F-F-D-D or W-D-D-C. The subject of this spell is hit by "
              "a bolt of lightning and sustains five points of damage.",
         dmg={"B": 5}),
    Case("lightning bolt short form W-D-D-C works once, the second time it has no effect",
         A="W D D C W D D C / - - - C - - - C",
         cite="Each wizard may use this spell once per battle, then the gestures have no "
              "effect.",
         dmg={"B": 5}, ncast={("A", "lightning_bolt"): 1}),
    Case("the short lightning is once per battle per wizard: each wizard has his own",
         A="W D D C / - - - C", B="W D D C / - - - C",
         cite="the shorter one may be used only once per day (i.e. per battle) by any wizard.",
         dmg={"A": 5, "B": 5}),
    Case("the long lightning form does not use up the short one",
         A="D F F D D W D D C / - - - - - - - - C",
         cite="There are two gesture combinations for the spell, but the shorter one may be used "
              "only once per day (i.e. per battle) by any wizard.",
         dmg={"B": 10}, ncast={("A", "lightning_bolt"): 2}),
    Case("after the short lightning, the long form may be used without restriction",
         A="W D D C D F F D D / - - - C - - - - -",
         cite="The longer one may be used without restriction.",
         dmg={"B": 10}, ncast={("A", "lightning_bolt"): 2}),
]

# ---------------------------------------------------------------------------------------------
# Shield
# ---------------------------------------------------------------------------------------------
SHIELD = [
    Case("shield stops a missile on the turn it is cast",
         A="- P / - -", B="S D / - -",
         cite="The shield protects the subject on the turn in which it is cast.",
         dmg={"A": 0}),
    Case("shield lasts only one round",
         A="P - / - -", B="S D / - -",
         cite="The shield will block any number of such attacks but lasts for only one round.",
         dmg={"A": 1}),
    Case("shield stops a stab",
         A="P / -", B="> / -",
         cite="This spell protects the subject from all attacks from monsters (that is, "
              "creatures created by a summonning spell), from missile spells, and from stabs by "
              "wizards.",
         dmg={"A": 0}),
    Case("shield stops a monster, and only on its turn",
         A="- - P - / - - - -", B="S F W - / - - - -",
         cite="This spell protects the subject from all attacks from monsters",
         dmg={"A": 1}, mons={"M1": ("goblin", "B", True)}),
    Case("shield blocks any number of attacks: monster, missile and stab together",
         A="- - P / - - -", B="S F W / - S D",
         cite="The shield will block any number of such attacks",
         dmg={"A": 0}),
    Case("a shield cast at a monster protects the monster from a stab",
         A="- - - > / - - - -", B="S F W P / - - - -",
         orders=[(4, "A", {"stab": "M1"}), cast(4, "B", "L", "shield", "M1")],
         cite="This spell protects the subject from all attacks from monsters (that is, "
              "creatures created by a summonning spell), from missile spells, and from stabs by "
              "wizards.",
         mons={"M1": ("goblin", "B", True)}),
    Case("shield is no defence against cause light wounds",
         A="- - P / - - -", B="W F P / - - -",
         cite="A shield has no effect.",
         dmg={"A": 2}),
    Case("shield is no defence against a fireball (the missile inside it is blocked)",
         A="- - - P P / - - - - -", B="F S S D D / - - - - -",
         cite="The subject of this spell is hit by a ball of fire and sustains five points of "
              "damage unless he is resistant to fire.",
         dmg={"A": 5}),
]

# ---------------------------------------------------------------------------------------------
# Remove enchantment
# ---------------------------------------------------------------------------------------------
REMOVE = [
    Case("remove enchantment destroys a monster, which still attacks that turn",
         A="P D W P - / - - - - -", B="S F W - - / - - - - -",
         orders=[cast(4, "A", "L", "remove_enchantment", "M1")],
         cite="Remove enchantment also destroys any monster upon which it is cast, although the "
              "monster can attack in that turn.",
         dmg={"A": 2}, mons={"M1": ("goblin", "B", False)}),
    Case("remove enchantment ends protection from evil; a stab that turn and later hits",
         A="W W P - - / - - - - -", B="P D W P - / - - - > >",
         orders=[cast(4, "B", "L", "remove_enchantment", "W0")],
         cite="Terminates the effects of all Enchantment Spells that have been cast on the "
              "subject",
         dmg={"A": 2}, lacks={"A": {"protection_from_evil"}}),
    Case("remove enchantment removes enchantments cast at the same time",
         A="- W W P - / - - - - -", B="P D W P - / - - - - >",
         orders=[cast(4, "B", "L", "remove_enchantment", "W0")],
         cite="including those that are cast on the subject at the same time as the remove "
              "enchantment.",
         dmg={"A": 1}, lacks={"A": {"protection_from_evil"}}),
    Case("remove enchantment ends resist heat (permanent until removed)",
         A="W W F P - - - - / - - - - - - - -", B="- - - - P D W P / - - - - - - - -",
         orders=[cast(8, "B", "L", "remove_enchantment", "W0")],
         cite="Only dispel magic or remove enchantment will terminate this resistance once "
              "started",
         lacks={"A": {"resist_heat"}}),
    Case("remove enchantment cast with a fireball on a heat-resistant target: fried",
         A="W W F P - - - - / - - - - - - - -", B="- - - - P D W P / - - - F S S D D",
         orders=[cast(8, "B", "L", "remove_enchantment", "W0"),
                 cast(7, "B", "R", "missile", "none")],
         cite="Another seeming conflict occurs when a target that is resistant to fire has both "
              "a remove enchantment and fireball cast on them. The enchantment is removed as the "
              "fireball explodes (since they are simultaneous) hence the poor victim is fried.",
         dmg={"A": 5}, lacks={"A": {"resist_heat"}}),
    Case("remove enchantment removes all enchantments: the caster may not pick and choose",
         A="W W F P - / - - W W P", B="- P D W P / - - - - -",
         orders=[cast(5, "B", "L", "remove_enchantment", "W0")],
         cite="Note that all enchantments are removed and the caster may not pick and choose.",
         lacks={"A": {"resist_heat", "protection_from_evil"}}),
    Case("wizards suffer no harm from remove enchantment",
         A="P D W P / - - - -",
         cite="Wizards suffer no adverse effects from this spell, aside from the removal of "
              "their enchantments.",
         dmg={"A": 0}, alive={"A": True}, cast=[("A", "remove_enchantment")]),
]

# ---------------------------------------------------------------------------------------------
# Magic mirror
# ---------------------------------------------------------------------------------------------
_FOD = "P W P F S S S D"
MIRROR = [
    Case("magic mirror reflects a missile upon its caster",
         A="C W / C W", B="S D / - -",
         cite="Any spell cast on a subject protected by this spell is reflected back upon the "
              "caster of that spell.",
         dmg={"A": 0, "B": 1}),
    Case("magic mirror reflects a lightning bolt",
         A="- - - C W / - - - C W", B="D F F D D / - - - - -",
         cite="The protection includes spells like missile and lightning bolt",
         dmg={"A": 0, "B": 5}),
    Case("magic mirror reflects a finger of death",
         A="- - - - - - C W / - - - - - - C W", B=f"{_FOD} / - - - - - - - -",
         cite="Any spell cast on a subject protected by this spell is reflected back upon the "
              "caster of that spell.",
         alive={"A": True, "B": False}, result=("A", "died")),
    Case("magic mirror does not affect a spell its subject casts upon himself",
         A="C W / C W", B="D F W / - - -", damage={"B": 3},
         orders=[cast(2, "A", "B", "magic_mirror", "W1")],
         cite="The mirror does not affect spells which are cast upon oneself",
         dmg={"B": 2}, cast=[("B", "cure_light_wounds")], nolog=["turned back"]),
    Case("magic mirror protects only during the turn it was cast",
         A="C W - / C W -", B="- S D / - - -",
         cite="The magic mirror protects only during the turn in which it was cast.",
         dmg={"A": 1, "B": 0}),
    Case("magic mirror does not stop a stab",
         A="C W / C W", B="- > / - -",
         cite="does not include attacks by monsters or stabs from wizards.",
         dmg={"A": 1, "B": 0}),
    Case("magic mirror does not stop monsters",
         A="- - C W / - - C W", B="S F W - / - - - -",
         cite="does not include attacks by monsters or stabs from wizards.",
         dmg={"A": 2, "B": 0}),
    Case("magic mirror on a monster turns a missile back on its caster",
         A="S F W C W / - - - C W", B="- - - S D / - - - - -",
         orders=[cast(5, "A", "B", "magic_mirror", "M1"), cast(5, "B", "L", "missile", "M1")],
         cite="Any spell cast on a subject protected by this spell is reflected back upon the "
              "caster of that spell.",
         mons={"M1": ("goblin", "A", True)}, mdmg={"M1": 0}, dmg={"B": 4}),
    Case("magic mirror has no effect on a fire storm",
         A="- - C W / - - C W", B="S W W C / - - - C",
         cite="The mirror has no effect on spells which affect more than one person (such as "
              "fire storm).",
         dmg={"A": 5, "B": 5}),
    Case("a counter-spell on the mirror's subject cancels the mirror (finger of death hits)",
         A="- - - - - - C W / - - - - - - C W", B=f"{_FOD} / - - - - - W W S",
         orders=[(8, "B", {"casts": [{"set": 0, "hand": "R", "spell": "counter_spell",
                                      "target": "W0"},
                                     {"set": 0, "hand": "L", "spell": "finger_of_death",
                                      "target": "W0"}]})],
         cite="The mirror is countered totally if either a counter-spell or dispel magic are "
              "cast on the subject in the same turn as the mirror.",
         alive={"A": False, "B": True}, result=("B", "died")),
    Case("dispel magic cancels a magic mirror",
         A="- - C W / - - C W", B="C D P W / C - - -",
         cite="The mirror is countered totally if either a counter-spell or dispel magic are "
              "cast on the subject in the same turn as the mirror.",
         not_cast=[("A", "magic_mirror")], fizzle=["magic mirror has no effect"]),
    Case("two mirrors on one subject act as one: a released missile is turned back once",
         A="- - - - - - C W / - - - - - - C W",
         B="D W S S S P C W / - - - - S D C W",
         orders=[(8, "B", {"casts": [{"set": 0, "hand": "B", "spell": "magic_mirror",
                                      "target": "W0"}], "release": {"target": "W0"}})],
         cite="Two mirrors cast at one subject simultaneously combine to form a single mirror.",
         dmg={"A": 0, "B": 1}),
]

# ---------------------------------------------------------------------------------------------
# Counter-spell
# ---------------------------------------------------------------------------------------------
COUNTER = [
    Case("counter-spell cancels a missile at its subject",
         A="W W S / - - -", B="- S D / - - -",
         cite="Any other spell cast upon the subject in the same turn has no effect.",
         dmg={"A": 0}),
    Case("counter-spell cancels remove enchantment (the monster survives)",
         A="P D W P - / - - - - -", B="S F W - - / - W W S -",
         orders=[cast(4, "A", "L", "remove_enchantment", "M1"),
                 cast(4, "B", "R", "counter_spell", "M1")],
         cite="The counter-spell will cancel all the spells cast at the subject for that turn "
              "(including remove enchantment and magic mirror)",
         mons={"M1": ("goblin", "B", True)}, dmg={"A": 3}),
    Case("counter-spell does not stop finger of death",
         A="- - - - - W W S / - - - - - - - -", B=f"{_FOD} / - - - - - - - -",
         cite="except dispel magic and finger of death.",
         alive={"A": False}, result=("B", "died")),
    Case("counter-spell does not cancel dispel magic: monsters are destroyed",
         A="- - - - W W S / - - - - - - -", B="S F W C D P W / - - - C - - -",
         orders=[cast(7, "B", "L", "dispel_magic", "W0")],
         cite="The counter-spell will cancel all the spells cast at the subject for that turn "
              "(including remove enchantment and magic mirror) except dispel magic",
         mons={"M1": ("goblin", "B", False)}, dmg={"A": 4},
         fizzle=["counter-spell has no effect"]),
    Case("counter-spell cancels a summons cast at its subject",
         A="W W S / - - -", B="S F W / - - -",
         orders=[cast(3, "A", "L", "counter_spell", "W1")],
         cite="Any other spell cast upon the subject in the same turn has no effect.",
         living=0, dmg={"A": 0}),
    # docs/rules.md: "a counter-spell on yourself also stops your own shield, cure or summons".
    Case("a counter-spell on oneself also stops one's own cure",
         A="W W S / D F W", damage={"A": 5},
         cite="Any other spell cast upon the subject in the same turn has no effect.",
         dmg={"A": 5}, not_cast=[("A", "cure_light_wounds")]),
    Case("counter-spell acts as a shield: a stab is stopped",
         A="W W S / - - -", B="- - > / - - -",
         cite="The counter-spell will also act as a shield on the final gesture in addition to "
              "its other properties",
         dmg={"A": 0}),
    Case("counter-spell's shield is on its own subject, not the caster",
         A="W W S / - - -", B="- - > / - - -",
         orders=[cast(3, "A", "L", "counter_spell", "W1")],
         cite="but the shield effect is on the same subject as its other effect.",
         dmg={"A": 1}),
    Case("counter-spell against a blanket spell protects its subject alone",
         A="- W W S / - - - -", B="S W W C / - - - C",
         cite="In the case of blanket spells, which affect more than one person, the subject of "
              "the counter-spell alone is protected.",
         dmg={"A": 0, "B": 5}),
    Case("a fire storm does not kill a monster with a counter-spell on it",
         A="- S W W C / - - - - C", B="S F W - - / - - W W S",
         orders=[cast(5, "B", "R", "counter_spell", "M1")],
         cite="For example, a fire storm spell could kill off a monster but not if a "
              "counter-spell were cast on the monster in the same turn. Everyone else would be "
              "affected as usual by the fire storm",
         mons={"M1": ("goblin", "B", True)}, dmg={"A": 8, "B": 5}),
    Case("two counter-spells on one subject act as one",
         A="W W S / - - -", B="W P P / - S D",
         orders=[cast(3, "B", "L", "counter_spell", "W0")],
         cite="It will combine with another spell of its own type for the same effect as if it "
              "were alone.",
         dmg={"A": 0}),
]

# ---------------------------------------------------------------------------------------------
# Dispel magic
# ---------------------------------------------------------------------------------------------
DISPEL = [
    Case("dispel magic stops every other spell of the turn, both wizards'",
         A="- C D P W / - C - - -", B="D F F D D / - - D F W", damage={"B": 3},
         cite="It will stop any spell cast in the same turn from working",
         dmg={"A": 0, "B": 3}, not_cast=[("B", "lightning_bolt"), ("B", "cure_light_wounds")]),
    Case("dispel magic removes all enchantments (resist heat)",
         A="W W F P - - - - / - - - - - - - -", B="- - - - C D P W / - - - - C - - -",
         cite="and will remove all enchantments from all beings before they have effect.",
         lacks={"A": {"resist_heat"}}),
    Case("dispel magic removes protection from evil before it protects",
         A="- - C D P W / - - C - - >", B="W W P - - - / - - - - - -",
         cite="and will remove all enchantments from all beings before they have effect.",
         dmg={"B": 1}, lacks={"B": {"protection_from_evil"}}),
    Case("dispel magic destroys all monsters, which still attack that turn",
         A="- C D P W / - C - - -", B="S F W - - / - - - - -",
         orders=[cast(5, "A", "L", "dispel_magic", "W1")],
         cite="In addition, all monsters are destroyed although they can attack that turn.",
         # turns 3 and 5 (the P of C-D-P-W is a shield on turn 4)
         dmg={"A": 2}, mons={"M1": ("goblin", "B", False)}),
    Case("dispel magic stops a shield: a stab gets through",
         A="- - - P / - - - -", B="C D P W / C - - >",
         cite="It will stop any spell cast in the same turn from working",
         dmg={"A": 1}, not_cast=[("A", "shield")]),
    Case("under dispel magic a counter-spell has no effect, not even as a shield",
         A="- W W S / - - - -", B="C D P W / C - - >",
         cite="Counter-spells and magic mirrors have no effect.",
         dmg={"A": 1}, not_cast=[("A", "counter_spell")]),
    Case("dispel magic stops a summons of the same turn",
         A="- C D P W / - C - - -", B="- - S F W / - - - - -",
         cite="It will stop any spell cast in the same turn from working",
         living=0, dmg={"A": 0}),
    Case("dispel magic stops a fire storm",
         A="- C D P W / - C - - -", B="- S W W C / - - - - C",
         cite="It will stop any spell cast in the same turn from working",
         dmg={"A": 0, "B": 0}),
    Case("dispel magic destroys an elemental, which attacks all but the dispel's subject",
         A="C S W W S - - - / C - - - - - - -", B="- - - - C D P W / - - - - C - - -",
         cite="In addition, all monsters are destroyed although they can attack that turn. ... "
              "As with a counter-spell it also acts as a shield for its subject.",
         dmg={"A": 12, "B": 6}, living=0),  # B's P on turn 7 is a shield
    Case("dispel magic acts as a shield for its subject",
         A="- C D P W / - C - - -", B="- - - - > / - - - - -",
         cite="As with a counter-spell it also acts as a shield for its subject.",
         dmg={"A": 0}),
    Case("dispel magic does not stop stabs",
         A="- C D P W / - C - - -", B="- - - - > / - - - - -",
         orders=[cast(5, "A", "L", "dispel_magic", "W1")],
         cite="The spell will not work on stabs or surrenders.",
         dmg={"A": 1}),
    Case("dispel magic does not stop a surrender",
         A="- C D P W / - C - - -", B="- - - - P / - - - - P",
         cite="The spell will not work on stabs or surrenders.",
         result=("A", "surrender")),
    Case("two dispel magics combine: both work",
         A="C D P W / C - - -", B="C D P W / C - - >",
         cite="apart from another dispel magic spell which combines with it for the same result",
         dmg={"A": 0}, cast=[("A", "dispel_magic"), ("B", "dispel_magic")]),
    Case("dispel magic on the final gesture stops finger of death",
         A="- - - - C D P W / - - - - C - - -", B=f"{_FOD} / - - - - - - - -",
         cite="although a dispel magic spell cast upon the final gesture will stop it.",
         alive={"A": True}, not_cast=[("B", "finger_of_death")]),
    Case("dispel magic stops raise dead",
         A="- - C D P W / - - C - - -", B="D W W F W C / - - - - - C", damage={"B": 5},
         cite="A dispel magic spell will prevent its effect, since dispel magic affects all "
              "spells no matter what their subject.",
         dmg={"B": 5}, not_cast=[("B", "raise_dead")]),
    Case("dispel magic does not undo an earlier cure",
         A="D F W - / - - - -", B="C D P W / C - - -", damage={"A": 5},
         cite="The effect is not removed by a dispel magic or remove enchantment.",
         dmg={"A": 4}),
]

# ---------------------------------------------------------------------------------------------
# Raise dead
# ---------------------------------------------------------------------------------------------
RAISE = [
    Case("raise dead on the living: cures five points",
         B="D W W F W C / - - - - - C", damage={"B": 7},
         cite="If the spell is cast on a live individual, the effect is that of a cure light "
              "wounds recovering five points of damage",
         dmg={"B": 2}),
    Case("raise dead on the living: cures as many as sustained if less than five",
         B="D W W F W C / - - - - - C", damage={"B": 3},
         cite="or as many as have been sustained if less than five.",
         dmg={"B": 0}),
    Case("raise dead on the living does not remove enchantments (resist heat stays)",
         B="D W W F W C / W W F P - C",
         cite="If the spell is cast on a live individual, the effect is that of a cure light "
              "wounds",
         has={"B": {"resist_heat"}}),
    Case("raise dead on the living does not cure disease",
         A="D S F F F C - - / - - - - - C - -", B="- - D W W F W C / - - - - - - - C",
         orders=[cast(3, "A", "L", "confusion", "none"), cast(5, "A", "L", "paralysis", "none")],
         cite="Note that any diseases the live subject might have are not cured.",
         has={"B": {"disease"}}),
    Case("raise dead on a dead monster: it lives again, undamaged, and attacks that turn",
         A="- - - > - - - - - - / - - - - - - - - - -",
         B="S F W - - - - - C - / - - - D W W F W C -",
         orders=[(4, "A", {"stab": "M1"}), cast(9, "B", "B", "raise_dead", "M1")],
         cite="On the turn a monster is raised it may attack.",
         mons={"M1": ("goblin", "B", True)}, mdmg={"M1": 0}, dmg={"A": 4}),
    Case("finger of death and raise dead on one subject cancel",
         A="- - D W W F W C / - - - - - - - C", B=f"{_FOD} / - - - - - - - -",
         damage={"A": 3},
         cite="Certain spells cancel one another if they take effect simultaneously. An obvious "
              "example is finger of death and raise dead.",
         alive={"A": True}, dmg={"A": 3}),
    # docs/rules.md: raise dead passes a counter-spell only on a corpse ("This is the only spell
    # which affects corpses. It therefore cannot be stopped"); on the living it is a cure.
    Case("raise dead on the living is stopped by a counter-spell like a cure",
         A="- - - W W S / - - - - - -", B="D W W F W C / - - - - - C", damage={"B": 5},
         orders=[cast(6, "A", "L", "counter_spell", "W1")],
         cite="Any other spell cast upon the subject in the same turn has no effect.",
         dmg={"B": 5}),
]

# ---------------------------------------------------------------------------------------------
# Cures
# ---------------------------------------------------------------------------------------------
CURES = [
    Case("10 damage + lightning bolt + cure light wounds = 14, alive",
         A="- - D F W / - - - - -", B="D F F D D / - - - - -", damage={"A": 10},
         cite="if a wizard was at ten points of damage and was hit simultaneously by a cure "
              "light wounds and a lightning bolt he would finish that turn on fourteen points "
              "rather than fifteen",
         dmg={"A": 14}, alive={"A": True}),
    Case("10 damage + cure light wounds alone = 9",
         A="- - D F W / - - - - -", damage={"A": 10},
         cite="(or nine if there had been no lightning bolt).",
         dmg={"A": 9}),
    Case("cure light wounds with a simultaneous cause light wounds: 1 point",
         A="D F W / - - -", B="W F P / - - -",
         cite="A simultaneous cure light wounds will serve only to reduce the damage to 1 point.",
         dmg={"A": 1}),
    Case("cure light wounds on the undamaged does nothing",
         A="D F W / - - -",
         cite="If the subject has received damage then he is cured by one point",
         dmg={"A": 0}),
    Case("cure heavy wounds cures two points",
         A="D F P W / - - - -", damage={"A": 5},
         cite="This spell is similar to cure light wounds in effect but two points of damage "
              "are cured.",
         dmg={"A": 3}),
    Case("cure heavy wounds with one point of damage cures one",
         A="D F P W / - - - -", damage={"A": 1},
         cite="Note that only one point is cured if only one point of damage has been sustained",
         dmg={"A": 0}),
    Case("cure heavy wounds on the undamaged has no effect",
         A="D F P W / - - - -",
         cite="the spell has no effect if the subject is completely undamaged.",
         dmg={"A": 0}),
    Case("cure heavy wounds cures disease: the subject survives its deadline",
         A="D S F F F C - - - - - - / - - - - - C - - - - - -",
         B="- - - - - - D F P W - - / - - - - - - - - - - - -",
         orders=[cast(3, "A", "L", "confusion", "none"), cast(5, "A", "L", "paralysis", "none")],
         cite="This spell will also cure any diseases the subject might have at the time.",
         alive={"B": True}, lacks={"B": {"disease"}}),
    Case("(control) untreated disease kills at the end of the sixth turn",
         A="D S F F F C - - - - - - / - - - - - C - - - - - -",
         orders=[cast(3, "A", "L", "confusion", "none"), cast(5, "A", "L", "paralysis", "none")],
         cite="kill him at the end of 6 turns counting from the one upon which the spell is cast",
         alive={"B": False}, result=("A", "B died")),
    Case("cure light wounds heals a monster",
         A="- - - S D / - - - - -", B="P S F W D F W / - - - - - - -",
         orders=[cast(5, "A", "L", "missile", "M1"), cast(7, "B", "L", "cure_light_wounds",
                                                        "M1")],
         cite="If the subject has received damage then he is cured by one point as if that "
              "point had not been inflicted.",
         mons={"M1": ("ogre", "B", True)}, mdmg={"M1": 0}),
]

# ---------------------------------------------------------------------------------------------
# Damaging spells
# ---------------------------------------------------------------------------------------------
DAMAGE = [
    Case("missile: one point", A="S D / - -",
         cite="hurled towards the subject of the spell and causes him one point of damage.",
         dmg={"B": 1}),
    Case("missile thwarted by a shield", A="S D / - -", B="- P / - -",
         cite="The spell is thwarted by a shield in addition to the usual counter-spell, dispel "
              "magic and magic mirror",
         dmg={"B": 0}),
    Case("missile aimed at nobody is shot off harmlessly", A="S D / - -",
         orders=[cast(2, "A", "L", "missile", "none")],
         cite="Most of these are shot off to nowhere if not required",
         dmg={"A": 0, "B": 0}),
    Case("finger of death kills the subject stone dead", A=f"{_FOD} / - - - - - - - -",
         cite="Kills the subject stone dead.",
         alive={"B": False}, result=("A", "died")),
    Case("finger of death kills through a shield",
         A=f"{_FOD} / - - - - - - - -", B="- - - - - - - P / - - - - - - - -",
         cite="Kills the subject stone dead.",
         alive={"B": False}, result=("A", "died")),
    Case("finger of death kills a giant",
         A=f"- {_FOD} / - - - - - - - - -", B="- - W F P S F W - / - - - - - - - - -",
         orders=[cast(5, "B", "L", "cause_light_wounds", "none"),
                 cast(9, "A", "L", "finger_of_death", "M1")],
         cite="Kills the subject stone dead.",
         mons={"M1": ("giant", "B", False)}),
    Case("lightning bolt: a shield offers no defence",
         A="D F F D D / - - - - -", B="- - - - P / - - - - -",
         cite="A shield spell offers no defence.",
         dmg={"B": 5}),
    Case("lightning bolt: resistance to heat is irrelevant",
         A="- - - - D F F D D / - - - - - - - - -", B="W W F P - - - - - / - - - - - - - - -",
         cite="Resistance to heat or cold is irrelevant.",
         dmg={"B": 5}),
    Case("cause light wounds: two points", A="W F P / - - -",
         cite="The subject of this spell is inflicted with two points of damage.",
         dmg={"B": 2}),
    Case("cause light wounds: resistance to heat offers no defence",
         A="- - - - W F P / - - - - - - -", B="W W F P - - - / - - - - - - -",
         cite="Resistance to heat or cold offers no defence.",
         dmg={"B": 2}),
    Case("cause heavy wounds: three points, shield no defence",
         A="W P F D / - - - -", B="- - - P / - - - -",
         cite="This has the same effect as cause light wounds but inflicts three points of "
              "damage instead of two.",
         dmg={"B": 3}),
    Case("fireball: five points (plus the missile inside it)",
         A="F S S D D / - - - - -",
         cite="The subject of this spell is hit by a ball of fire and sustains five points of "
              "damage unless he is resistant to fire.",
         dmg={"B": 6}, cast=[("A", "missile"), ("A", "fireball")]),
    Case("fireball: resistance to heat saves",
         A="- - - - F S S D D / - - - - - - - - -", B="W W F P - - - - - / - - - - - - - - -",
         cite="sustains five points of damage unless he is resistant to fire.",
         dmg={"B": 1}),
    Case("fireball + resist heat cast the same turn: saved",
         A="F S S D D / - - - - -", B="- W W F P / - - - - -",
         cite="If the target were not resistant to fire and was hit by a resist fire and "
              "fireball then they would start to resist fire just as the fireball exploded and "
              "be saved.",
         dmg={"B": 1}, has={"B": {"resist_heat"}}),
    Case("fireball in an ice storm: its subject is harmed by neither, the storm hits others",
         A="F S S D D / - - - - -", B="- W S S C / - - - - C",
         cite="If at the same time an ice storm prevails, the subject of the fireball is instead "
              "not harmed by either spell, although the storm will affect others as normal.",
         dmg={"A": 5, "B": 1}),
    Case("fireball in an ice storm: a heat-resistant subject is not harmed by the storm either",
         A="- - - F S S D D / - - - - - - - -", B="W W F P W S S C / - - - - - - - C",
         orders=[cast(7, "A", "L", "missile", "none")],
         cite="If at the same time an ice storm prevails, the subject of the fireball is instead "
              "not harmed by either spell",
         dmg={"A": 5, "B": 0}),
]

# ---------------------------------------------------------------------------------------------
# Protection from evil, resist heat, resist cold
# ---------------------------------------------------------------------------------------------
PROTECT = [
    Case("protection from evil: this turn and the following 3 turns",
         A="W W P - - - - / - - - - - - -", B="- - > > > > > / - - - - - - -",
         cite="For this turn and the following 3 turns the subject of this spell is protected "
              "as if using a shield spell, thus leaving both hands free.",
         dmg={"A": 1}),
    Case("protection from evil stops missiles and monsters as a shield does",
         A="W W P - - - / - - - - - -", B="- S F W S D / - - - - - -",
         cite="the subject of this spell is protected as if using a shield spell",
         dmg={"A": 0}),
    Case("protection from evil is no defence against cause heavy wounds",
         A="W W P - - - / - - - - - -", B="- - W P F D / - - - - - -",
         cite="the subject of this spell is protected as if using a shield spell",
         dmg={"A": 3}),
    Case("compound protection from evil spells overlap: the later one runs its own 4 turns",
         A="W W P - - - - - - / - - W W P - - - -", B="- - - - - - - > > / - - - - - - - - -",
         cite="compound protection from evil spells merely overlap offering no extra cover.",
         dmg={"A": 1}),
    Case("resist heat is permanent: a fireball many turns later is resisted",
         A="W W F P - - - - - - - - - - / - - - - - - - - - - - - - -",
         B="- - - - - - - - - F S S D D / - - - - - - - - - - - - - -",
         orders=[cast(13, "B", "L", "missile", "none")],
         cite="Only dispel magic or remove enchantment will terminate this resistance once "
              "started",
         dmg={"A": 0}, has={"A": {"resist_heat"}}),
    Case("resist heat: a counter-spell at its subject that turn prevents it",
         A="W W F P - - - - - / - W W S - - - - -", B="- - - - F S S D D / - - - - - - - - -",
         orders=[cast(8, "B", "L", "missile", "none")],
         cite="although a counter-spell will prevent it from working if cast at the subject at "
              "the same time as this spell",
         dmg={"A": 5}, lacks={"A": {"resist_heat"}}),
    Case("resist heat cast with one's own fire storm saves the caster",
         A="W W F P - - C / - - - S W W C",
         cite="Everything not resistant to heat sustains 5 points of damage that turn.",
         dmg={"A": 0, "B": 5}),
    Case("resist heat is no help against an ice storm",
         A="W W F P - - - - / - - - - - - - -", B="- - - - W S S C / - - - - - - - C",
         cite="The subject of this spell becomes totally resistant to all forms of heat attack "
              "(fireball, fire storm and fire elementals).",
         dmg={"A": 5, "B": 5}),
    Case("resist heat saves from a fire storm",
         A="W W F P - - - - / - - - - - - - -", B="- - - - S W W C / - - - - - - - C",
         cite="The subject of this spell becomes totally resistant to all forms of heat attack "
              "(fireball, fire storm and fire elementals).",
         dmg={"A": 0, "B": 5}),
    Case("resist cold saves from an ice storm",
         A="S S F P - - - - / - - - - - - - -", B="- - - - W S S C / - - - - - - - C",
         cite="The effects of this spell are identical to resist heat but resistance is to cold "
              "(ice storm and ice elementals)",
         dmg={"A": 0, "B": 5}, has={"A": {"resist_cold"}}),
    Case("resist cold is no help against a fire storm",
         A="S S F P - - - - / - - - - - - - -", B="- - - - S W W C / - - - - - - - C",
         cite="but resistance is to cold (ice storm and ice elementals)",
         dmg={"A": 5, "B": 5}),
]

# ---------------------------------------------------------------------------------------------
# Surrender, death, the withhold house rule
# ---------------------------------------------------------------------------------------------
ENDINGS = [
    Case("surrender: P with both hands at once", A="P / P",
         cite="a pair of P gestures made by both hands at the same time signals your surrender.",
         result=("B", "A surrendered")),
    Case("a P with one hand is no surrender", A="P - / - P",
         cite="a pair of P gestures made by both hands at the same time signals your surrender.",
         result=None),
    Case("spells completed with the surrender still take effect",
         A="W F P / - - P",
         cite="The wizard making these gestures, irrespective of whether they terminate spells "
              "or not, surrenders and the contest is over.",
         dmg={"B": 2}, result=("B", "A surrendered")),
    Case("a shield cast with one of the surrender's P's protects",
         A="- P / - P", B="- > / - -",
         cite="Wizards can be killed as they surrender if hit with appropriate spells or "
              "attacked physically",
         dmg={"A": 0}, result=("B", "A surrendered")),
    Case("surrendering with both P's used for other spells: no shield, the stab hits",
         A="- W F P / W W F P", B="- - - > / - - - -",
         cite="Wizards can be killed as they surrender if hit with appropriate spells or "
              "attacked physically",
         dmg={"A": 1, "B": 2}, result=("B", "A surrendered")),
    Case("killed as he surrenders", A="- - - - P / - - - - P", B="D F F D D / - - - - -",
         damage={"A": 10},
         cite="Wizards can be killed as they surrender if hit with appropriate spells",
         alive={"A": False}, result=("B", "")),
    Case("the surrendering wizard wins if his spells killed his opponent",
         A="W F P / - - P", damage={"B": 13},
         cite="The surrendering wizard is deemed to have lost unless his gestures completed "
              "spells which killed his opponent.",
         alive={"B": False}, result=("A", "")),
    Case("surrendering and killing each other: simultaneous death is a draw",
         A="- - W F P / - - - - P", B="D F F D D / - - - - -", damage={"A": 10, "B": 13},
         cite="Simultaneous death is a posthumous draw.",
         alive={"A": False, "B": False}, result=(None, "draw")),
    # docs/rules.md: the surrendering wizard loses "unless his gestures completed spells which
    # killed his opponent"; killed by anything else, both lost: a draw.
    Case("the opponent killed by the surrendering wizard's monster: both lost, a draw",
         A="S F W P / - - - P", damage={"B": 13},
         cite="The surrendering wizard is deemed to have lost unless his gestures completed "
              "spells which killed his opponent.",
         alive={"B": False}, result=(None, "both lost")),
    Case("two simultaneous surrenders: a draw", A="P / P", B="P / P",
         cite="Two simultaneous surrenders count as a draw.",
         result=(None, "surrender")),
    Case("14 points of damage: still alive", B="S D / - -", damage={"A": 13},
         cite="Each wizard can sustain fourteen points of damage",
         dmg={"A": 14}, alive={"A": True}),
    Case("15 points of damage: dead, the survivor wins", B="S D / - -", damage={"A": 14},
         cite="but dies when fifteen or more points of damage are done. The surviving wizard "
              "(if any) is declared the winner.",
         dmg={"A": 15}, alive={"A": False}, result=("B", "A died")),
    Case("more than 15 points: dead", B="D F F D D / - - - - -", damage={"A": 12},
         cite="dies when fifteen or more points of damage are done.",
         alive={"A": False}, result=("B", "A died")),
    Case("damage is cumulative", B="S D D F F D D / - - - - - - -",
         cite="Damage to wizards and monsters is cumulative",
         dmg={"A": 6}),
    Case("simultaneous death: a posthumous draw",
         A="S D / - -", B="S D / - -", damage={"A": 14, "B": 14},
         cite="Simultaneous death is a posthumous draw.",
         alive={"A": False, "B": False}, result=(None, "draw")),
    Case("house rule (003): a completed spell may be withheld",
         A="S D / - -", withhold=True, orders=[cast(2, "A", "L", None)],
         cite="If the caster completes a series that casts a spell, intentionally or "
              "unintentionally, the spell must be cast.",
         dmg={"B": 0}, not_cast=[("A", "missile")]),
    Case("a fire storm cannot be discarded: aimed at nobody it still strikes everyone",
         A="S W W C / - - - C", orders=[cast(4, "A", "B", "fire_storm", "none")],
         cite="some cannot be easily discarded. For example fire storm gets you no matter where "
              "it is released.",
         dmg={"A": 5, "B": 5}),
]

ALL = GESTURES + RECOGNITION + SHIELD + REMOVE + MIRROR + COUNTER + DISPEL + RAISE + CURES + \
    DAMAGE + PROTECT + ENDINGS


test_rule, test_cites_are_quotes, test_names_unique = table_tests(ALL)
