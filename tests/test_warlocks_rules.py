"""Scenario tests of the Warlocks ruleset's rules that differ from the standard ones: paralysis,
maladroitness, cures and health, monsters under mind spells, disease and poison on monsters,
elementals, and a monster's target.  Each runs the same script under both rulesets where the
standard outcome shows the difference.

Quotes come from the vendored Warlocks rules pages (`cite_warlocks`); where the stored pages do
not cover a rule, the test says it rests on issue 14 (docs/rules.md, "Warlocks").
"""

from __future__ import annotations

from citing import cite_warlocks
from dsl import Duel, Script, cast, problems

from wavinghands.preview import preview

W = "warlocks"


# ---------------------------------------------------------------------------------------------
# Paralysis (a ParaFC game) and maladroitness
# ---------------------------------------------------------------------------------------------
@cite_warlocks("challenges", "this defines the game as a ParaFC game - F will paralyze to C")
def test_a_hand_paralysed_on_f_is_frozen_into_c() -> None:
    script: Script = {"A": "F F F - / - - - -", "B": "- - F P / - - W -"}
    d = Duel(**script, ruleset=W)
    d.orders(4, "A", {"hands": {"paralysis:W1": "L"}})
    assert d.run().row("B", 4)[0] == "C"
    standard = Duel(**script).run(3)
    assert standard.view("B")["constraints"]["left"]["forced"] == "F"


def test_a_hand_paralysed_on_c_s_w_is_frozen_into_c_d_p() -> None:
    # Issue 14: "Paralysis turns F→C, C→C, S→D, W→P".
    for made, frozen in (("C", "C"), ("S", "D"), ("W", "P")):
        d = Duel(A="F F F - / - - - -", B=f"- - {made} P / - - - W", ruleset=W).run()
        assert d.row("B", 4)[0] == frozen, made


def test_the_paralysed_hand_is_chosen_in_the_next_turns_orders() -> None:
    # Issue 14: "The paralysed and the charmed hand are chosen in the next turn's orders".
    d = Duel(A="F F F / - - -", B="- - F / - - S", ruleset=W).run()
    assert not d.decision_log  # nothing asked after the reveal
    para = next(e for e in d.game.wizard(1).effects if e.kind.value == "paralysis")
    assert para.hand == "" and para.repeats == ("C", "D")  # what each hand would freeze into
    assert d.view("A")["constraints"]["hands"] == [
        {"id": "paralysis:W1", "kind": "paralysis", "wizard": 1, "options": ["L", "R"]}]
    assert d.view("B")["constraints"]["left"]["forced"] is None  # B does not know the hand
    draft = preview(d.game, 0, {"gestures": [["-", "-"]], "hands": {"paralysis:W1": "R"}})
    q = next(q for q in draft["questions"] if q["kind"] == "hand")
    assert q["id"] == "paralysis:W1" and q["chosen"] == "R" and q["default"] == "L"
    assert problems(d.game, "A", {"gestures": [["-", "-"]], "hands": {"charm:W1": "L"}}) == \
        ["hand-unexpected"]
    assert problems(d.game, "B", {"gestures": [["-", "-"]], "hands": {"paralysis:W1": "L"}}) \
        == ["hand-unexpected"]
    d.plan[0].append(("-", "-"))
    d.plan[1].append(("W", "W"))
    d.orders(4, "A", {"hands": {"paralysis:W1": "R"}})
    d.run()
    assert d.row("B", 4) == ("W", "D")
    assert "right hand is paralysed into" in d.log_of("B")


def test_the_charmed_hand_and_its_gesture_are_chosen_in_the_next_turns_orders() -> None:
    d = Duel(A="P S D F - / - - - - -", B="- - - - W / - - - - W", ruleset=W)
    d.orders(5, "A", {"hands": {"charm:W1": "R"}, "charm": {"gesture": "S"}})
    d.run()
    assert not d.decision_log
    assert d.row("B", 5) == ("W", "S")
    missing = {"gestures": [["-", "-"]], "hands": {"charm:W1": "L"}}
    assert problems(d.state_at(5), "A", missing) == ["charm-missing"]


def test_maladroitness_makes_both_hands_make_one_gesture_the_next_turn() -> None:
    # Issue 14: "maladroitness (D-S-F: next turn both hands make the same gesture)".
    d = Duel(A="D S F / - - -", B="- - - / - - -", ruleset=W).run()
    game = d.game
    assert "maladroitness" in d.effects("B")
    assert problems(game, "B", {"gestures": [["F", "W"]]}) == ["maladroit"]
    assert problems(game, "B", {"gestures": [["W", "W"]]}) == []
    assert d.view("B")["constraints"]["same_gesture"] is True
    # Only the subject, and only the next turn: the standard rules' view keeps its keys.
    assert "same_gesture" not in d.view("A")["constraints"]
    d.plan[1].append(("W", "W"))
    d.run()
    assert problems(d.game, "B", {"gestures": [["F", "W"]]}) == []


def test_a_maladroit_wizard_with_a_paralysed_hand_copies_it_with_the_other() -> None:
    # A permanent paralysis and a maladroitness meet: the hand the rules fix leads.
    d = Duel(A="S P F P S D W F F F D S F - / - - - - - - - - - - - - - -",
             B="- - - - - - - - - C C C C C / - - - - - - - - - - - - - F", ruleset=W)
    d.orders(10, "A", {"casts": [cast("L", "paralysis", permanent=True)]})
    d.run()
    before = {e.kind.value for e in d.state_at(14).wizard(1).effects}
    assert {"paralysis", "maladroitness"} <= before
    assert d.row("B", 14) == ("C", "C")


# ---------------------------------------------------------------------------------------------
# Cures and health
# ---------------------------------------------------------------------------------------------
def test_a_cure_does_not_offset_the_same_turns_damage() -> None:
    # Issue 14: "Cures never raise health above the maximum, so they do not offset the same
    # turn's damage."
    script: Script = {"A": "- - > / - - -", "B": "D F W / - - -"}
    d = Duel(**script, ruleset=W).run()
    assert d.damage("B") == 1
    assert Duel(**script).run().damage("B") == 0


def test_a_cure_still_heals_earlier_damage_before_the_turns_damage_lands() -> None:
    d = Duel(A="> - > / - - -", B="D F W / - - -", ruleset=W).run()
    assert d.damage("B") == 1  # 1, cured to 0, then 1 more


def test_a_monsters_health_may_be_cured_one_above_its_starting_health() -> None:
    # Issue 14: "Monsters: maximum health one above starting".  A cured goblin survives a
    # missile that kills a goblin at its starting health.
    script: Script = {"A": "S F W - - / - D F W - ", "B": "- - - S D / - - - - -"}

    def play(ruleset: str) -> Duel:
        d = Duel(**script, ruleset=ruleset)
        d.orders(4, "A", {"casts": [cast("R", "cure_light_wounds", "M1")]})
        d.orders(5, "B", {"casts": [cast("L", "missile", "M1")]})
        return d.run()

    assert [m.id for m in play(W).monsters()] == ["M1"]
    assert play("t").monsters() == []


# ---------------------------------------------------------------------------------------------
# Monsters
# ---------------------------------------------------------------------------------------------
def test_paralysis_on_a_monster_stops_its_attack_the_same_turn() -> None:
    # Issue 14: "paralysis, amnesia, fear and maladroitness make a monster skip this turn's
    # attack".
    script: Script = {"A": "S F W - - / - - - - -", "B": "- - F F F / - - - - -"}

    def play(ruleset: str) -> Duel:
        d = Duel(**script, ruleset=ruleset)
        d.orders(5, "B", {"casts": [cast("L", "paralysis", "M1")]})
        return d.run()

    w = play(W)
    assert w.damage("B") == 2  # turns 3 and 4; none on 5
    assert "does not attack (under paralysis)" in w.log()
    assert "paralysis" not in {e.kind.value for m in w.game.monsters for e in m.effects}
    assert play("t").damage("B") == 3  # standard: it attacks that turn, skips the next


def test_fear_and_amnesia_and_maladroitness_stop_a_monster_the_same_turn() -> None:
    for spell, seq in (("fear", "S W D"), ("amnesia", "D P P"), ("maladroitness", "D S F")):
        d = Duel(A="S F W - - / - - - - -", B=f"- - {seq} / - - - - -", ruleset=W)
        d.orders(5, "B", {"casts": [cast("L", spell, "M1")]})
        d.run()
        assert f"does not attack (under {spell})" in d.log(), spell


def test_disease_kills_a_monster_at_the_end_of_the_turn_it_is_cast() -> None:
    # Issue 14: "disease and poison kill a monster at the end of the casting turn".
    script: Script = {"A": "S F W - - - / - - - - - -", "B": "D S F F F C / - - - - - C"}

    def play(ruleset: str) -> Duel:
        d = Duel(**script, ruleset=ruleset)
        d.orders(6, "B", {"casts": [cast("B", "disease", "M1")]})
        return d.run()

    w = play(W)
    assert w.monsters() == [] and w.damage("B") == 4  # it attacked on turns 3 to 6
    assert "destroyed (disease)" in w.log()
    assert [m.id for m in play("t").monsters()] == ["M1"]


def test_the_newest_elemental_of_a_kind_absorbs_the_older() -> None:
    # Issue 14: "the newest of a kind absorbs the older".
    d = Duel(A="C W S S W - / C - - - - -", B="- C W S S W / - C - - - -", ruleset=W).run()
    alive = d.monsters()
    assert [(m.id, m.kind) for m in alive] == [("M2", "fire_elemental")]


def test_an_elemental_summons_cannot_be_countered() -> None:
    # Issue 14: elementals "cannot be countered".
    d = Duel(A="C W S S W / C - - - -", B="- - W P P / - - - - -", ruleset=W)
    d.orders(5, "B", {"casts": [cast("L", "counter_spell", "W0")]})
    d.run()
    assert [m.kind for m in d.monsters()] == ["fire_elemental"]


def test_a_monster_keeps_its_last_target_until_reordered() -> None:
    # Issue 14: "a monster keeps its last target until re-ordered".
    script: Script = {"A": "S F W - - / - - - - -", "B": "- - - - - / - - - - -"}

    def play(ruleset: str) -> Duel:
        d = Duel(**script, ruleset=ruleset)
        d.orders(4, "A", {"monsters": {"M1": "none"}})
        return d.run()

    assert play(W).damage("B") == 1  # turn 3 only: told to attack nobody, it goes on so
    assert play("t").damage("B") == 2  # standard: unordered, it attacks the enemy again


@cite_warlocks("monsters", "Note that when a Charm Monster spell affects a monster, it does not "
               "change the monster's target")
def test_a_charmed_monster_keeps_attacking_its_old_target() -> None:
    script: Script = {"A": "S F W - - / - - - - -", "B": "- P S D D / - - - - -"}

    def play(ruleset: str) -> Duel:
        d = Duel(**script, ruleset=ruleset)
        d.orders(5, "B", {"casts": [cast("L", "charm_monster", "M1")]})
        return d.run()

    w = play(W)
    assert w.monster("M1").controller == 1
    # (B's S-D makes a missile at A on turn 4)
    assert w.damage("B") == 3 and w.damage("A") == 1  # it still attacks B on turn 5
    standard = play("t")
    assert standard.damage("B") == 2 and standard.damage("A") == 2


# ---------------------------------------------------------------------------------------------
# Forfeit
# ---------------------------------------------------------------------------------------------
PERMANENT_PARALYSIS: Script = {"A": "S P F P S D W F F F - / - - - - - - - - - - -",
                       "B": "- - - - - - - - - - - / - - - - - - - - - - -"}


def test_the_victim_of_a_permanent_paralysis_may_forfeit() -> None:
    # Issue 14: "The victim of a permanent paralysis, amnesia or charm person may forfeit."
    d = Duel(**PERMANENT_PARALYSIS, ruleset=W)
    d.orders(10, "A", {"casts": [cast("L", "paralysis", permanent=True)]})
    d.run(10)
    assert d.view("B")["constraints"]["can_forfeit"] is True
    assert "can_forfeit" not in d.view("A")["constraints"]
    assert problems(d.game, "A", {"gestures": [["-", "-"]], "forfeit": True}) == \
        ["forfeit-not-allowed"]
    d.orders(11, "B", {"forfeit": True})
    d.run()
    assert d.result() == (0, "B surrendered")
    assert "B forfeits the duel." in d.log_of("A")


def test_a_passing_paralysis_gives_no_forfeit_and_the_standard_rules_none() -> None:
    d = Duel(**PERMANENT_PARALYSIS, ruleset=W).run(10)
    assert "can_forfeit" not in d.view("B")["constraints"]
    standard = Duel(**PERMANENT_PARALYSIS)
    standard.orders(10, "A", {"casts": [cast("L", "paralysis", permanent=True)]})
    standard.run(10)
    assert problems(standard.game, "B", {"gestures": [["-", "-"]], "forfeit": True}) == \
        ["forfeit-not-allowed"]


# ---------------------------------------------------------------------------------------------
# Time stop on a monster
# ---------------------------------------------------------------------------------------------
def test_a_time_stopped_monster_strikes_again_at_once_through_shields() -> None:
    # Issue 14: "a time-stopped monster gets an extra attack in the same turn that ignores
    # shields".  B's palms shield him on turns 3 and 5; the goblin hits him on turn 4, and on
    # turn 5 its second attack passes the shield.  No extra turn follows.
    d = Duel(A="S F W - - / - - - - -", B="S P P F D / - - - - P", ruleset=W)
    d.orders(5, "B", {"casts": [cast("L", "time_stop", "M1")]})
    d.run()
    assert (1, "time_stop", "M1") in d.casts()
    assert d.damage("B") == 2
    assert "strikes again, through any shield" in d.log()
    assert all(g.phase.kind != "time_stop" for g in d.states)


def test_a_time_stopped_wizards_extra_turn_ignores_his_lasting_effects() -> None:
    # Issue 14: "A time-stopped wizard's extra turn ignores lasting effects".  B's fear and A's
    # time stop land together on turn 4: fear holds A's next own turn, the time-stopped one.
    script: Script = {"A": "S P P C / - - - C", "B": "- S W D / - - - -"}

    def stopped(ruleset: str) -> Duel:
        d = Duel(**script, ruleset=ruleset)
        d.run(stop=lambda g: g.phase.kind == "time_stop")
        assert d.game.phase.kind == "time_stop"
        return d

    w = stopped(W)
    assert "fear" in w.effects("A")
    assert problems(w.game, "A", {"gestures": [["S", "D"]]}) == []
    assert w.view("A")["constraints"]["banned"] == []
    assert problems(stopped("t").game, "A", {"gestures": [["S", "D"]]}) == ["fear", "fear"]
