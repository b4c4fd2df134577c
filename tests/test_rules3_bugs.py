"""Issue 26, Rules III: the bugs found against harder cases read off the rules text and the
Warlocks pages (a blind wizard's log: tests/test_rules3_sight.py and the property test
tests/test_view_secrecy.py).

Each scenario quotes the sentence it rests on (000, checked word for word by
tests/test_citations.py; Warlocks rules not on the stored pages rest on issue 14, as
docs/rules.md "Warlocks" says).  Notation: tests/dsl.py.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest
from citing import cite
from dsl import Duel, Script, cast, problems

from wavinghands import api, record
from wavinghands.model import Effect, Monster
from wavinghands.record import RecordError
from wavinghands.spells import EffectKind

W = "warlocks"


# ---------------------------------------------------------------------------------------------
# A record cannot fix the dice (bug 6)
# ---------------------------------------------------------------------------------------------
# A: D-S-F on turns 1-3 at B, so B is confused on turn 4; the record holds turns 1-3 only.
CONFUSE_B: Script = {"A": "D S F / - - -", "B": "- - - / - - -"}


def _unfinished(dice: dict[str, Any]) -> dict[str, Any]:
    """The record of CONFUSE_B's three turns, carrying `dice`."""
    rec = record.export_record(Duel(**CONFUSE_B).run().game)
    rec["dice"] = dice
    return rec


def _refusal(rec: dict[str, Any]) -> str:
    answer = json.loads(api.import_record(json.dumps(rec)))
    assert answer["ok"] is False, answer
    message: str = answer["error"]["message"]
    return message


@cite("rolls 2 dice to determine which gesture is superseded due to his being confused. The "
      "first die indicates left hand on 1-3, right on 4-6.")
def test_a_die_out_of_its_range_is_refused_on_import() -> None:
    # Two dice of six faces: 99 is no roll of them.  It used to import, and every attempt to
    # resolve turn 4 then failed ("explicit die ... outside 1..6").
    message = _refusal(_unfinished({"4:confusion:1:0:hand": 99}))
    assert "4:confusion:1:0:hand" in message and "1..6" in message
    for bad in (0, -3, True, 2.5, "4"):
        with pytest.raises(RecordError):
            record.import_record(_unfinished({"3:confusion:1:0:gesture": bad}))
    with pytest.raises(RecordError, match="no die"):
        record.import_record(_unfinished({"3:fate:0": 2}))


@cite("after exposing them, rolls 2 dice to determine which gesture is superseded")
def test_a_records_dice_never_reach_a_turn_it_has_not_played() -> None:
    # In range, but for turn 4, which the record has not played: the dice are rolled "after
    # exposing" the gestures of a turn, so a record may carry only rolls already made; one for
    # a turn still to come would let whoever wrote the record choose the dice of the game played
    # on (it used to be kept and decide turn 4).
    message = _refusal(_unfinished({"4:confusion:1:0:hand": 2, "4:confusion:1:0:gesture": 2}))
    assert "turn 4" in message and "not played" in message
    # The same dice for a turn the record holds import, and decide that turn as ever.
    played = Duel(A="D S F - / - - - -", B="- - - W / - - - W",
                  dice={"4:confusion:1:0:hand": 2, "4:confusion:1:0:gesture": 2}).run()
    game = record.import_record(record.export_record(played.game))
    assert game.wizard(1).history[-1].left == "D"
    assert dict(game.dice) == {"4:confusion:1:0:hand": 2, "4:confusion:1:0:gesture": 2}


# ---------------------------------------------------------------------------------------------
# Warlocks: a maladroit wizard can stab (bug 5)
# ---------------------------------------------------------------------------------------------
@cite("The wizard only has one knife so can only stab with one hand in any turn, although which "
      "hand doesn't matter.")
def test_a_maladroit_wizard_stabs_with_one_hand_the_other_doing_nothing() -> None:
    # Issue 14: "maladroitness (D-S-F: next turn both hands make the same gesture)".  Both
    # hands cannot stab (one knife), so the maladroit wizard's stab is one hand's, the other
    # hand doing nothing (docs/rules.md, "Warlocks: maladroitness"); it used to be refused as
    # two different gestures, and two stabs as "two-stabs", so he could not stab at all.
    d = Duel(A="D S F - / - - - -", B="- - - > / - - - -", ruleset=W).run(3)
    assert "maladroitness" in d.effects("B")
    for stab in ([">", "-"], ["-", ">"]):
        assert problems(d.game, "B", {"gestures": [stab]}) == []
    assert problems(d.game, "B", {"gestures": [[">", ">"]]}) == ["two-stabs"]
    assert problems(d.game, "B", {"gestures": [[">", "W"]]}) == ["maladroit"]
    d.run()
    assert d.damage("A") == 1


# ---------------------------------------------------------------------------------------------
# What a blind wizard learns of his own spells and attacks (bug 1; the property over random
# duels: tests/test_view_secrecy.py)
# ---------------------------------------------------------------------------------------------
# A: D-W-F-F-(d at B on turns 1-5, so B is blind on turns 6, 7 and 8.  On turns 6-8 A's right
# hand makes W-W-S, a counter-spell on himself (COUNTERED), or nothing (OPEN).
BLIND_B_OPEN = "D W F F D - - - / - - - - D - - -"
BLIND_B_COUNTERED = "D W F F D - - - / - - - - D W W S"


def _blind_b_reads(a_open: str, a_guarded: str, b: str) -> tuple[str, str]:
    """B's log (what he may read) when A leaves himself open and when A guards himself."""
    return Duel(A=a_open, B=b).run().log_of("B"), Duel(A=a_guarded, B=b).run().log_of("B")


@cite("although he must be informed of any which affect him (e.g. summons spells, missile etc "
      "cast at him) but not counter- spells to his own attacks. Indeed he will not know if his "
      "own spells work unless they also affect him")
def test_a_blind_wizard_is_told_he_cast_his_missile_whether_or_not_it_works() -> None:
    # Blind B: S-D on turns 7-8, a missile at A.  It used to be "B casts Missile at A." when it
    # hit and no line when A's counter-spell stopped it: the difference told B of the counter.
    hit, countered = _blind_b_reads(BLIND_B_OPEN, BLIND_B_COUNTERED,
                                    "- - - - - - S D / - - - - - - - -")
    assert hit == countered
    assert "B casts Missile at A." in hit
    assert "The missile hits A" not in hit and "Counter-spell" not in countered


@cite("Indeed he will not know if his own spells work unless they also affect him")
def test_a_blind_wizard_is_not_told_whether_his_enchantment_took_hold() -> None:
    # Blind B: D-P-P on turns 6-8, amnesia at A; "A is under Amnesia." used to tell him it worked.
    works, countered = _blind_b_reads(BLIND_B_OPEN, BLIND_B_COUNTERED,
                                      "- - - - - D P P / - - - - - - - -")
    assert works == countered and "B casts Amnesia at A." in works
    assert "under Amnesia" not in works


@cite("Indeed he will not know if his own spells work unless they also affect him")
def test_a_blind_caster_names_the_paralysed_hand_whether_or_not_it_works() -> None:
    # Blind B: F-F-F on turns 6-8 at A.  Only a paralysis that worked used to ask B for the hand,
    # so being asked told him.  Now he is asked either way (the answer counts only if it works).
    b = "- - - - - F F F / - - - - - - - -"
    works, countered = Duel(A=BLIND_B_OPEN, B=b).run(), Duel(A=BLIND_B_COUNTERED, B=b).run()
    assert works.decision_log == countered.decision_log == [
        (8, "paralysis:W0", 1, ("L", "R"))]
    assert works.log_of("B") == countered.log_of("B")
    assert works.effect("A", "paralysis") is not None
    assert countered.effect("A", "paralysis") is None


@cite("Unless protected in that turn by a shield spell or another spell with the same effect, "
      "the being stabbed suffers 1 point of damage.",
      "he will not know if his own spells work unless they also affect him")
def test_a_blind_wizard_is_not_told_whether_his_stab_was_stopped() -> None:
    # Blind B stabs A on turn 6; A's left hand makes P (a shield) or nothing.  "B's stab is
    # stopped by A's shield." used to be his, while a stab that landed was hidden from him.
    stopped, landed = _blind_b_reads("D W F F D P / - - - - D -", "D W F F D - / - - - - D -",
                                     "- - - - - > / - - - - - -")
    assert stopped == landed and "stab is stopped" not in stopped


@cite("This spell protects the subject from all attacks from monsters")
def test_a_blind_wizard_is_not_told_whether_his_monster_was_stopped() -> None:
    # B's goblin (S-F-W, turns 1-3) attacks A every turn; on turn 6, with B blind, A's left
    # hand makes P or nothing.  "A's shield stops the attack of B's goblin" used to be his.
    b = "S F W - - - / - - - - - -"
    stopped, landed = _blind_b_reads("D W F F D P / - - - - D -", "D W F F D - / - - - - D -",
                                     b)
    assert stopped == landed
    assert "shield stops" not in stopped


# ---------------------------------------------------------------------------------------------
# A storm meeting two opposite elementals (bug 2)
# ---------------------------------------------------------------------------------------------
@cite("The spell cancels wholly, causing no damage, with either an ice storm or an ice "
      "elemental. It will destroy but not be destroyed by a fire elemental.",
      "Two elementals of the opposite type will also destroy each other before attacking",
      "and will also neutralize the canceling spell")
def test_a_fire_storm_meeting_a_fire_and_an_ice_elemental_does_no_damage() -> None:
    # A: summon elemental (fire, turns 1-5) and fire storm (S-W-W on the right, turns 3-5, and
    # the clap of turn 6); B: summon elemental (turns 2-6), an ice elemental on turn 6.  On
    # turn 6 all three meet: the elementals destroy each other, the fire storm engulfs the fire
    # elemental, and the ice elemental cancels the storm.  The engine used to let the
    # elementals destroy each other first and the storm then hit both wizards for 5 (both at 8).
    d = Duel(A="C S W W S C / C - S W W C", B="- C S W W S / - C - - - -")
    d.decide(6, {"elemental:1:L": "ice"}).run()
    assert d.damage("A") == d.damage("B") == 3  # the fire elemental's blow on turn 5 only
    assert not d.monsters()
    assert any("Fire storm has no effect" in line for line in d.fizzled())


# Every combination of storms, elementals already there and new, a counter-spell on an elemental
# and the wizards' resistances, on turn 5 of a scripted duel; each is checked against the
# sentences applied all at once (`_expected`), written apart from the engine.
FIRE, ICE = "fire", "ice"
OPPOSITE = {FIRE: ICE, ICE: FIRE}
RESISTS = {"resist_heat": FIRE, "resist_cold": ICE}
STORM_HANDS = {FIRE: ("- S W W C", "- - - - C"), ICE: ("- W S S C", "- - - - C")}
STORM_WIZARD = {FIRE: "A", ICE: "B"}
OLD_CONTROLLER = {FIRE: 0, ICE: 1}


def _expected(storms: set[str], elementals: set[str], sheltered: set[str],
              resist: dict[str, set[str]]) -> tuple[dict[str, int], set[str]]:
    """Turn 5's damage to each wizard and the elements of the elementals left, from the
    pairwise sentences: opposite elementals destroy each other; opposite storms cancel; a storm
    cancels with an opposite elemental in its reach (not counter-spelled), destroying it; a storm
    engulfs an elemental of its type in its reach; a storm does 5, an elemental 3, to every
    wizard not resistant to its element."""
    destroyed = set(elementals) if elementals == {FIRE, ICE} else set()
    reach = elementals - sheltered
    working = set()
    for storm in storms:
        if OPPOSITE[storm] in reach:
            destroyed.add(OPPOSITE[storm])
        if storm in reach:
            destroyed.add(storm)
        if OPPOSITE[storm] not in storms and OPPOSITE[storm] not in reach:
            working.add(storm)
    left = elementals - destroyed
    damage = {who: sum(5 for s in working if s not in resist[who]) +
              sum(3 for e in left if e not in resist[who]) for who in ("A", "B")}
    return damage, left


Combination = tuple[frozenset[str], frozenset[str], frozenset[str], str,
                    tuple[tuple[str, str], ...]]


def _combinations() -> list[Combination]:
    """(storms, old elementals, new elementals, counter-spelled elemental ("fire" for the old
    one, "new fire" for the new one, "" for none), resistances) that two wizards can make in
    one turn: a storm takes its caster's two hands (the clap), a new elemental or a
    counter-spell one hand.  (A counter-spell on a new elemental that joins an old one of its
    type is left out: which of the two the counter-spell shelters the text does not say.)"""
    subsets = [frozenset(), frozenset({FIRE}), frozenset({ICE}), frozenset({FIRE, ICE})]
    resistances = [(), (("A", "resist_heat"),), (("A", "resist_cold"),),
                   (("A", "resist_heat"), ("B", "resist_cold"))]
    out: list[Combination] = []
    for storms in subsets:
        free_hands = 4 - 2 * len(storms)
        for old in subsets:
            for new in subsets:
                for counter in ["", *sorted(old), *(f"new {e}" for e in sorted(new - old))]:
                    if len(new) + bool(counter) > free_hands:
                        continue
                    out.extend((storms, old, new, counter, r) for r in resistances)
    return out


@cite("Two elementals of the opposite type will also destroy each other before attacking, and "
      "two of the same type will join together to form a single elemental of normal strength.",
      "The spell cancels wholly, causing no damage, with either an ice storm or an ice "
      "elemental. It will destroy but not be destroyed by a fire elemental.",
      "In the case of blanket spells, which affect more than one person, the subject of the "
      "counter-spell alone is protected.",
      "Everything not resistant to heat sustains 5 points of damage that turn.")
@pytest.mark.parametrize("storms, old, new, counter, resist", _combinations())
def test_storms_and_elementals_all_at_once(storms: frozenset[str], old: frozenset[str],
                                           new: frozenset[str], counter: str,
                                           resist: tuple[tuple[str, str], ...]) -> None:
    hands: dict[tuple[str, str], str] = {}  # (wizard, hand) -> five gestures
    for storm in storms:
        left, right = STORM_HANDS[storm]
        hands[(STORM_WIZARD[storm], "L")], hands[(STORM_WIZARD[storm], "R")] = left, right
    free = [(w, h) for w in ("A", "B") for h in ("L", "R") if (w, h) not in hands]
    decide: dict[str, str] = {}
    summoners = set()
    summoned_by: dict[str, str] = {}  # element -> "new:<wizard>:<hand>", its summons
    for element, (w, h) in zip(sorted(new), free, strict=False):
        hands[(w, h)] = "C S W W S"
        summoners.add(w)
        decide[f"elemental:{'AB'.index(w)}:{h}"] = element
        summoned_by[element] = f"new:{'AB'.index(w)}:{h}"
    counter_hand = free[len(new)] if counter else None
    if counter_hand is not None:
        hands[counter_hand] = "- - W W S"
    for w in summoners:  # the summons' first gesture is a clap: both hands
        for h in ("L", "R"):
            line = hands.get((w, h), "- - - - -")
            hands[(w, h)] = "C" + line[1:]
    script = {w: f"{hands.get((w, 'L'), '- - - - -')} / {hands.get((w, 'R'), '- - - - -')}"
              for w in ("A", "B")}
    d = Duel(A=script["A"], B=script["B"]).decide(5, decide).run(4)
    # Turn 5 begins with the old elementals there and the resistances in force.
    monsters = tuple(Monster(f"M{i + 1}", f"{e}_elemental", OLD_CONTROLLER[e], 4)
                     for i, e in enumerate(sorted(old)))
    game = replace(d.game, monsters=monsters, next_monster=len(monsters) + 1)
    for who, kind in resist:
        wiz = game.wizard("AB".index(who))
        game = game.with_wizard(replace(wiz, effects=(*wiz.effects,
                                                      Effect(EffectKind(kind), 1, None))))
    d.game = game
    if counter_hand is not None:
        mid = summoned_by[counter[4:]] if counter.startswith("new ") else \
            next(m.id for m in monsters if m.kind == f"{counter}_elemental")
        d.orders(5, counter_hand[0], {"casts": [cast(counter_hand[1], "counter_spell", mid)]})
    d.run()
    guard = {who: {RESISTS[kind] for by, kind in resist if by == who} for who in ("A", "B")}
    sheltered = {counter.split()[-1]} if counter else set()
    damage, survivors = _expected(set(storms), set(old | new), sheltered, guard)
    assert {who: d.damage(who) for who in ("A", "B")} == damage
    assert {m.kind.removesuffix("_elemental") for m in d.monsters()} == survivors


# ---------------------------------------------------------------------------------------------
# Warlocks: permanency on delayed effect and on permanency (bug 3); a permanent paralysis on a
# monster (bug 4)
# ---------------------------------------------------------------------------------------------
PERMANENCY_A = "S P F P S D W"  # turns 1-7: a permanency on A, waiting through turn 10


@cite("This means that the effect of the extended spell on the first turn of its duration is "
      "repeated eternally.")
def test_warlocks_permanency_makes_a_delayed_effect_bank_for_ever() -> None:
    # Issue 14: permanency works "only on haste, protection, paralysis, amnesia, maladroitness,
    # fear, charm person, blindness, invisibility, permanency and delayed effect".  A: the
    # permanency (left, turns 1-7), then D-W-S-S-S-P on the right (turns 5-10), a delayed effect
    # ordered permanent; then S-D missiles on turns 11-12 and 16-17, each ordered banked, and
    # released on turns 13 and 18.  The engine used to accept `permanent: true`, extend nothing,
    # and refuse the second bank ("no delayed effect waits to bank a spell").
    d = Duel(A=f"{PERMANENCY_A} - - - S D - - - S D - / - - - - D W S S S P - - - - - - - -",
             B="- - - - - - - - - - - - - - - - - - / - - - - - - - - - - - - - - - - - -",
             ruleset=W)
    d.orders(10, "A", {"casts": [cast("R", "delayed_effect", permanent=True)]})
    d.orders(12, "A", {"casts": [cast("L", "missile", "W1", bank=True)]})
    d.orders(13, "A", {"release": True})
    d.orders(17, "A", {"casts": [cast("L", "missile", "W1", bank=True)]})
    d.run(16)
    delayed = d.effect("A", "delayed_effect")
    assert delayed is not None and delayed.permanent and delayed.end is None
    # (S-D inside the permanency's gestures is a missile on turn 6)
    assert d.banked("A") is None and d.damage("B") == 2  # banked on 12, released on 13
    assert problems(d.game, "A", {"gestures": [["D", "-"]], "casts": [
        cast("L", "missile", "W1", bank=True)]}) == []
    d.orders(18, "A", {"release": True})
    d.run()
    assert d.damage("B") == 3
    assert d.effect("A", "delayed_effect") == delayed


@cite("This means that the effect of the extended spell on the first turn of its duration is "
      "repeated eternally.")
def test_warlocks_permanency_made_permanent_extends_every_spell_ordered() -> None:
    # A: the permanency (left, turns 1-7), a second one on the right (turns 4-10) ordered
    # permanent; then W-W-P (protection from evil, turns 11-13) and D-P-P (amnesia at B, turns
    # 16-18), both ordered permanent, beyond any one permanency's four turns.
    d = Duel(A=f"{PERMANENCY_A} - - - W W P - - D P P / - - - S P F P S D W - - - - - - - -",
             B="- - - - - - - - - - - - - - - - - - / - - - - - - - - - - - - - - - - - -",
             ruleset=W)
    d.orders(10, "A", {"casts": [cast("R", "permanency", permanent=True)]})
    d.orders(13, "A", {"casts": [cast("L", "protection_from_evil", permanent=True)]})
    d.orders(18, "A", {"casts": [cast("L", "amnesia", "W1", permanent=True)]})
    d.run()
    permanency = d.effect("A", "permanency")
    assert permanency is not None and permanency.end is None
    protection, amnesia = d.effect("A", "protection_from_evil"), d.effect("B", "amnesia")
    assert protection is not None and protection.permanent
    assert amnesia is not None and amnesia.permanent


@cite("This means that the effect of the extended spell on the first turn of its duration is "
      "repeated eternally.")
def test_warlocks_permanent_paralysis_keeps_a_monster_from_attacking_for_ever() -> None:
    # Issue 14: paralysis cast on a monster "stops its attack in the turn" it hits it.  B's
    # goblin (S-F-W, turns 1-3) attacks A; A: permanency (turns 1-7), then F-F-F at the goblin
    # (turns 8-10) ordered permanent.  The goblin used to skip turn 10 only and attack again.
    d = Duel(A=f"{PERMANENCY_A} F F F - - - / - - - - - - - - - - - - -",
             B="S F W - - - - - - - - - - / - - - - - - - - - - - - -", ruleset=W)
    d.orders(10, "A", {"casts": [cast("L", "paralysis", "M1", permanent=True)]})
    d.run(9)
    before = d.damage("A")
    d.run()
    assert d.damage("A") == before
    assert d.log().count("does not attack") == 4  # turns 10 to 13
    paralysis = next(e for e in d.monster("M1").effects if e.kind == "paralysis")
    assert paralysis.permanent


# ---------------------------------------------------------------------------------------------
# Readings (docs/rules.md, "Readings")
# ---------------------------------------------------------------------------------------------
@cite("The surrendering wizard is deemed to have lost unless his gestures completed spells "
      "which killed his opponent.",
      "will kill him at the end of 6 turns counting from the one upon which the spell is cast")
@pytest.mark.parametrize("spell", [
    "D S F F F C - - - - P / - - - - - C - - - - P",  # disease, turns 1-6 (C: both hands)
    "D W W F W D - - - - P / - - - - - - - - - - P",  # poison, turns 1-6
])
def test_a_wizard_who_surrenders_as_his_disease_kills_the_opponent_wins(spell: str) -> None:
    # A's disease (poison) on B from turn 6 kills him at the end of turn 11, the turn A
    # surrenders: A's gestures completed the spell that killed his opponent.  It used to be a
    # draw (only spells that did damage in the surrender's own turn counted).
    d = Duel(A=spell, B="- - - - - - - - - - - / - - - - - - - - - - -").run()
    assert not d.alive("B") and d.alive("A")
    result = d.result()
    assert result is not None and result[0] == 0, result


@cite("Any other spell cast upon the subject in the same turn has no effect",
      "The wizard making these gestures, irrespective of whether they terminate spells or not, "
      "surrenders and the contest is over.")
def test_003s_surrender_example_the_counter_spell_stops_the_resist_heat() -> None:
    # 003's note: resist heat (W-W-F-P, left, turns 1-4) and counter-spell (W-P-P, right, turns
    # 2-4) completed with the surrender's two P's "would take effect".  000's counter-spell
    # stops every other spell cast on its subject that turn, his own included, and 000 wins
    # where the copies disagree: the counter-spell works, the resist heat does not.
    d = Duel(A="W W F P / - W P P", B="- - - - / - - - -").run()
    assert d.result() == (1, "A surrendered")
    assert (0, "counter_spell", "W0") in d.casts()
    assert any("Resist heat has no effect" in line for line in d.fizzled())
    assert "resist_heat" not in d.effects("A")


@cite("Control of the monster is transferred to the caster of the spell (or retained by him) as "
      "of this turn",
      "All enchantments are also removed (as per the spell)")
def test_a_charmed_monster_raised_from_the_dead_stays_with_the_charmer() -> None:
    # B's goblin (S-F-W, turns 1-3); A charms it (P-S-D-D, turns 1-4), kills it with a missile
    # (S-D, right, turns 5-6); B raises it (D-W-W-F-W-C, right, turns 2-7, the clap with both
    # hands).  Raise dead removes enchantments, but the charm's transfer of control is not one
    # that lasts: the raised goblin is A's, as it was when it died.
    d = Duel(A="P S D D - - - / - - - - S D -", B="S F W - - - C / - D W W F W C")
    d.orders(4, "A", {"casts": [cast("L", "charm_monster", "M1")]})
    d.orders(6, "A", {"casts": [cast("R", "missile", "M1")]})
    d.orders(7, "B", {"casts": [cast("B", "raise_dead", "M1")]})  # (both hands end it)
    d.run(6)
    assert not d.monster("M1").alive and d.monster("M1").controller == 0
    d.run()
    assert d.monster("M1").alive and d.monster("M1").controller == 0


@cite("If the subject of the spell is a monster, it attacks at random that turn",
      "he will not know if his own spells work unless they also affect him")
def test_a_blind_master_is_not_shown_where_his_confused_monster_strikes() -> None:
    # B blind on turns 6-8; B's goblin M1 (S-F-W, turns 1-3); A's goblin M2 (S-F-W, right, turns
    # 6-8), which B has not seen; A's confusion at M1 (D-S-F, left, turns 6-8), and the die sends
    # M1 at M2.  "B's goblin (M1) is confused and attacks A's goblin (M2)." used to be B's to
    # read, naming a monster he never saw.
    d = Duel(A="D W F F D D S F / - - - - D S F W", B="S F W - - - - - / - - - - - - - -",
             dice={"8:monster:M1:0": 3})
    d.orders(8, "A", {"casts": [cast("L", "confusion", "M1")], "monsters": {"new:0:R": "none"}})
    d.run()
    assert "is confused and attacks A's goblin (M2)" in d.log()
    assert "(M2)" not in d.log_of("B")
    assert "A casts Confusion at B's goblin (M1)." in d.log_of("B")
