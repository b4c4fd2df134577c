"""Enchantments III: blindness and invisibility, and what each wizard's view may show.

The "views leak nothing" checks build pairs of duels that differ only in what the rules hide
from one wizard (the invisible wizard's gestures, what a blind wizard cannot see, a time-stopped
turn) and require that wizard's `view` to be identical in both, log included.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from citing import cite
from dsl import Duel, cast

from wavinghands.view import view

# A: D-W-F-F-(d on turns 1-5: B is blind on turns 6, 7 and 8.
BLIND_A = "D W F F D"
BLIND_A_RIGHT = "- - - - D"
# A: P-P-(w-(s on turns 1-4 on himself: invisible on turns 5, 6 and 7.
INVIS_A = "P P W S"
INVIS_A_RIGHT = "- - W S"


def history(v: dict[str, Any], who: int) -> dict[int, tuple[str, str]]:
    """Turn -> (left, right) of a wizard's normal rows as a view shows them."""
    return {r["turn"]: (r["left"], r["right"]) for r in v["wizards"][who]["history"]
            if r["kind"] == "normal"}


def texts(v: dict[str, Any]) -> list[str]:
    return [e["text"] for e in v["log"]]


# ---------------------------------------------------------------------------------------------
# Blindness
# ---------------------------------------------------------------------------------------------
@cite("For the next 3 turns not including the one in which the spell was cast, the subject is "
      "unable to see. If he is a wizard, he cannot tell what his opponent's gestures are")
def test_blindness_lasts_three_turns_after_the_casting_one() -> None:
    d = Duel(A=f"{BLIND_A} F W S P -/{BLIND_A_RIGHT} W P - - -",
             B="- - - - - - - - - -/- - - - - - - - - -").run()
    assert [d.view_at(t, "B")["blind"] for t in range(5, 11)] == [False, True, True, True,
                                                                     False, False]
    seen = history(d.view("B"), 0)
    assert seen[5] == ("D", "D")  # the casting turn is seen
    assert [seen[t] for t in (6, 7, 8)] == [("?", "?")] * 3  # and stays unseen afterwards
    assert seen[9] == ("P", "-")
    # A sees his own gestures; A is not blind.
    assert history(d.view("A"), 0)[7] == ("W", "P")
    assert history(d.view("A"), 1)[7] == ("-", "-")


@cite("although he must be informed of any which affect him (e.g. summons spells, missile etc "
      "cast at him) but not counter- spells to his own attacks. Indeed he will not know if his "
      "own spells work unless they also affect him")
def test_blind_wizard_is_told_only_what_affects_him() -> None:
    # B blind on turns 6-8.  Turn 7: A's missile at B (S-D, turns 6-7).  Turn 8: B's missile at
    # A (S-D, turns 7-8) meets A's counter-spell (W-W-S, turns 6-8) and A's shield (P).
    d = Duel(A=f"{BLIND_A} S D P -/{BLIND_A_RIGHT} W W S -",
             B="- - - - - - S D -/- - - - - - - - -").run()
    log_b = d.log_of("B")
    assert "A casts Missile at B." in log_b  # cast at him
    assert "The missile hits B for 1." in log_b
    for hidden in ("Counter-spell", "Shield", "B's Missile has no effect"):
        assert hidden not in log_b, hidden
    assert "A casts Counter-spell at A." in d.log_of("A")
    # He does not know how his opponent fares.
    v = d.view_at(8, "B")
    assert v["wizards"][0]["damage"] is None and v["wizards"][0]["effects"] is None


@cite("although he must be informed of any which affect him (e.g. summons spells, missile etc "
      "cast at him)")
def test_blind_wizard_is_told_of_a_summons_cast_at_him() -> None:
    # A: S-F-W on turns 6-8 at B (a goblin for B), while B is blind.
    d = Duel(A=f"{BLIND_A} S F W -/{BLIND_A_RIGHT} - - - -",
             B="- - - - - - - - -/- - - - - - - - -")
    d.orders(8, "A", {"casts": [cast("L", "summon_goblin", "W1")]})
    d.run()
    assert any("brings forth a goblin (M1) for B" in t for t in texts(d.view_at(9, "B")))
    assert [m["id"] for m in d.view_at(9, "B")["monsters"]] == ["M1"]


@cite("He can control his monsters")
def test_blind_wizard_controls_his_monsters() -> None:
    # B's goblin M1 (turns 1-3); B blind on turns 6-8 orders it to rest, then to attack A.
    d = Duel(A=f"{BLIND_A} - - -/{BLIND_A_RIGHT} - - -", B="S F W - - - - -/- - - - - - - -")
    d.orders(6, "B", {"monsters": {"M1": "none"}}).orders(7, "B", {"monsters": {"M1": "W0"}})
    d.run()
    hits = {t: [dict(e.data)["target"] for e in d.events if e.turn == t and e.type == "damage"]
            for t in (6, 7)}
    assert hits == {6: [], 7: ["W0"]}
    assert d.view_at(7, "B")["constraints"]["monsters"] == ["M1"]


@cite("Blinded monsters are instantly destroyed and cannot attack in that turn.",
      "Any monster made invisible is destroyed due to the unstable nature of such magically "
      "created creatures.",
      "Since both are simultaneous, the monster will attack that turn whilst being destroyed.")
@pytest.mark.parametrize("spell, left, right, attacks", [
    ("blindness", "D W F F D", "- - - - D", False),
    ("invisibility", "- P P W S", "- - - W S", True),
])
def test_blinded_or_invisible_monster_is_destroyed(spell: str, left: str, right: str,
                                                   attacks: bool) -> None:
    # B's goblin M1 (turns 1-3); A's spell at it completes on turn 8.
    d = Duel(A=f"- - - {left} -/- - - {right} -", B="S F W - - - - - -/- - - - - - - - -")
    d.orders(8, "A", {"casts": [cast("B", spell, "M1")]})
    d.run()
    (m,) = d.monsters(alive=False)
    assert not m.alive
    # Blindness says "instantly ... cannot attack in that turn"; invisibility says only
    # "destroyed", so the goblin attacks as it goes, as any monster destroyed in a turn does
    # (docs/rules.md, "Readings").
    hits = [dict(e.data)["target"] for e in d.events if e.turn == 8 and e.type == "damage"]
    assert hits == (["W0"] if attacks else [])


# ---------------------------------------------------------------------------------------------
# Invisibility
# ---------------------------------------------------------------------------------------------
@cite("This spell is similar to blindness only the subject of the spell becomes invisible to "
      "his opponent and his monsters. All spells he creates, though not gestures, can be seen by "
      "his opponent and identified.")
def test_invisible_wizard_gestures_hidden_spells_seen() -> None:
    # A invisible on turns 5-7 casts a missile at B (S-D, turns 6-7) and a shield (turn 7).
    d = Duel(A=f"{INVIS_A} - S D - -/{INVIS_A_RIGHT} - - P - -",
             B="- - - - - - - - -/- - - - - - - - -").run()
    seen = history(d.view("B"), 0)
    assert seen[4] == ("S", "S")
    assert [seen[t] for t in (5, 6, 7)] == [("?", "?")] * 3
    assert seen[8] == ("-", "-")
    log_b = d.log_of("B")
    assert "A casts Missile at B." in log_b and "A casts Shield at A." in log_b
    # B is not blind: A's damage and enchantments stay in view.
    v = d.view_at(6, "B")
    assert v["wizards"][0]["damage"] == 0
    assert [e["kind"] for e in v["wizards"][0]["effects"]] == ["invisibility"]


@cite("The subject cannot be attacked by any monsters although they can be directed at him in "
      "case he becomes visible prematurely.")
def test_monsters_cannot_attack_an_invisible_wizard() -> None:
    # B's goblin M1 (turns 1-3) is directed at A every turn; A invisible on turns 5-7.
    d = Duel(A=f"{INVIS_A} - - - -/{INVIS_A_RIGHT} - - - -", B="S F W - - - - -/- - - - - - - -")
    for t in range(4, 9):  # (on turn 3 it attacks A by default)
        d.orders(t, "B", {"monsters": {"M1": "W0"}})
    d.run()
    hits = {t: [dict(e.data)["target"] for e in d.events if e.turn == t and e.type == "damage"]
            for t in range(3, 9)}
    # Turns 3 and 4: A's P are shields on turns 1-2 only; the goblin hits on 3 and 4 (the
    # casting turn), not on 5-7, and again on 8.
    assert hits == {3: ["W0"], 4: ["W0"], 5: [], 6: [], 7: [], 8: ["W0"]}


@cite("The subject cannot be attacked by any monsters")
def test_elementals_cannot_attack_an_invisible_wizard() -> None:
    # B: C-S-W-W-S on turns 1-5 (a fire elemental); A invisible on turns 5-7.
    d = Duel(A=f"{INVIS_A} - - -/{INVIS_A_RIGHT} - - -", B="C S W W S - - -/C - - - - - - -")
    d.decide(5, {"elemental:1:L": "fire"})
    d.run(7)
    assert d.damage("A") == 0
    assert d.damage("B") == 9  # the elemental attacks everyone else on turns 5-7
    d.run()
    assert d.damage("A") == 3  # visible again on turn 8


@cite("Wizards can still stab and direct spells at him, with the same hope.")
def test_stabs_and_spells_at_an_invisible_wizard_may_be_made_but_miss() -> None:
    # A invisible on turns 5-7; B stabs at him on turn 5 and casts a missile at him on turn 6.
    d = Duel(A=f"{INVIS_A} - - - -/{INVIS_A_RIGHT} - - - -",
             B="- - - - > S D -/- - - - - - - -").run()
    assert d.damage("A") == 0
    assert (1, "missile", "W0") not in d.casts()


# ---------------------------------------------------------------------------------------------
# Views leak nothing: pairs of duels that differ only in what one wizard may not know
# ---------------------------------------------------------------------------------------------
def _canon(v: dict[str, Any]) -> str:
    return json.dumps(v, sort_keys=True)


def assert_same_views(d1: Duel, d2: Duel, who: str, states: list[int]) -> None:
    """The views of `who` agree in the given states (indices into d.states)."""
    idx = 0 if who == "A" else 1
    for i in states:
        v1, v2 = view(d1.states[i], idx), view(d2.states[i], idx)
        assert _canon(v1) == _canon(v2), f"{who}'s view differs in state {i}"


@cite("All spells he creates, though not gestures, can be seen by his opponent and identified.")
@pytest.mark.parametrize("variant", ["F W/W F", "D -/- D", "S S/W W", "C C/- -"])
def test_view_hides_the_invisible_wizards_gestures(variant: str) -> None:
    # A invisible on turns 5-7 makes gestures that complete no spell; two variants of them.
    one, other = variant.split("/")
    g1, g2 = [*one.split(), "-"][:2], [*other.split(), "-"][:2]
    duels = []
    for g in (g1, g2):
        d = Duel(A=f"{INVIS_A} {g[0]} - - -/{INVIS_A_RIGHT} {g[1]} - - -",
                 B="- - - - - W - -/- - - - - - - -")
        duels.append(d.run())
    d1, d2 = duels
    assert d1.game.wizard(0).history != d2.game.wizard(0).history
    assert_same_views(d1, d2, "B", list(range(len(d1.states))))


BLIND_VARIANTS: dict[str, tuple[str, str, dict[int, dict[str, Any]]]] = {
    # A, wounded, heals himself (D-F-W) and shields himself against B's missile of turn 8.
    "heals-and-shields": ("D F W", "- - P", {}),
    # A summons a goblin for himself (S-F-W) and keeps it idle (the D-S-F inside, a confusion,
    # he shoots off at nobody).
    "summons-an-idle-goblin": ("S F W", "- - -", {
        7: {"casts": [cast("L", "confusion", "none")]},
        8: {"monsters": {"new:0:L": "none"}}}),
    # A waves his hands to no purpose.
    "waves": ("W W F", "- - -", {}),
}


@cite("If he is a wizard, he cannot tell what his opponent's gestures are, although he must be "
      "informed of any which affect him",
      "Indeed he will not know if his own spells work unless they also affect him")
@pytest.mark.parametrize("one, other", [("heals-and-shields", "waves"),
                                        ("summons-an-idle-goblin", "waves"),
                                        ("heals-and-shields", "summons-an-idle-goblin")])
def test_view_of_a_blind_wizard_hides_what_does_not_affect_him(one: str, other: str) -> None:
    # B blind on turns 6-8, casting a missile at A on turn 8.  Two different things A does on
    # turns 6-8 that do not affect B: B may not tell them apart while blind.
    duels = []
    for name in (one, other):
        left, right, extra = BLIND_VARIANTS[name]
        d = Duel(A=f"{BLIND_A} {left} -/{BLIND_A_RIGHT} {right} -",
                 B="- - - - - - S D -/- - - - - - - - -")
        for turn, o in extra.items():
            d.orders(turn, "A", o)
        d.set_damage("A", 3)
        duels.append(d.run(8))
    d1, d2 = duels
    assert d1.game.to_json()["wizards"][0] != d2.game.to_json()["wizards"][0] or \
        d1.game.monsters != d2.game.monsters
    blind_states = [i for i, g in enumerate(d1.states) if view(g, 1)["blind"]]
    assert len(blind_states) == 3
    assert_same_views(d1, d2, "B", blind_states)
    # What happened on the blind turns stays out of B's log for good.
    last = len(d1.states) - 1
    blind_turns = {6, 7, 8}
    log1 = [e for e in view(d1.states[last], 1)["log"] if e["turn"] in blind_turns]
    log2 = [e for e in view(d2.states[last], 1)["log"] if e["turn"] in blind_turns]
    assert log1 == log2


@cite("The subject of this spell immediately takes an extra turn, on which no-one can see or "
      "know about unless they are harmed.")
@pytest.mark.parametrize("extra1, extra2", [("F/W", "W/F"), ("P/-", "-/-"), ("D/D", "S/S")])
def test_view_hides_a_time_stopped_turn(extra1: str, extra2: str) -> None:
    # A: S-P-P-C on turns 1-4 (time stop); two variants of his extra turn 5, neither harming B.
    duels = []
    for extra in (extra1, extra2):
        d = Duel(A="S P P C - -/- - - C - -", B="- - - - W -/- - - - - -").extra(5, "A", extra)
        duels.append(d.run())
    d1, d2 = duels
    assert d1.game.wizard(0).history != d2.game.wizard(0).history
    assert_same_views(d1, d2, "B", list(range(len(d1.states))))
    # While A takes his extra turn, B waits and is shown nothing to do.
    stopped = next(g for g in d1.states if g.phase.kind == "time_stop")
    vb = view(stopped, 1)
    assert vb["to_act"] is False and "constraints" not in vb
    assert vb["phase"]["kind"] == "waiting"


@cite("The subject is told which of his hands will be controlled at the time the spell hits")
def test_view_during_a_decision_shows_only_the_deciders_choices() -> None:
    # While A chooses B's paralysed hand, B's view is the same whichever hand A will choose.
    views = []
    for hand in ("L", "R"):
        d = Duel(A="F F F -/- - - -", B="- - S -/- - W -").decide(3, {"paralysis:W1": hand})
        d.until(3)
        views.append(_canon(view(d.game, 1)))
        assert view(d.game, 1)["phase"]["decisions"] == []
        assert view(d.game, 0)["phase"]["decisions"][0]["id"] == "paralysis:W1"
    assert views[0] == views[1]


@cite("If he is a wizard, he cannot tell what his opponent's gestures are",
      "after gestures have been revealed, the caster selects one of the wizard's hands")
def test_blind_caster_chooses_the_paralysed_hand_without_seeing() -> None:
    # B blinds A (D-W-F-F-(d, turns 1-5: A blind on 6-8); A's F-F-F (turns 6-8) paralyses B.
    views = []
    for b8 in (("S", "W"), ("W", "S")):
        d = Duel(A="- - - - - F F F/- - - - - - - -",
                 B=f"D W F F D - - {b8[0]}/- - - - D - - {b8[1]}").until(8)
        va = view(d.game, 0)
        assert va["blind"] is True
        assert va["phase"]["revealed"]["1"] == [["?", "?"]]
        assert va["phase"]["revealed"]["0"] == [["F", "-"]]
        views.append(_canon(va))
    assert views[0] == views[1]


@cite("All spells he creates, though not gestures, can be seen by his opponent and identified.")
def test_view_during_a_decision_hides_the_invisible_wizards_gestures() -> None:
    # A, invisible on turns 5-7, paralyses B on turn 7 (F-F-F, turns 5-7) with two variants of
    # his right hand.  While A chooses B's hand, B's view is the same in both.
    views = []
    for right in ("W W F", "F F W"):
        d = Duel(A=f"{INVIS_A} F F F/{INVIS_A_RIGHT} {right}", B="- - - - - - -/- - - - - - -")
        d.until(7)
        vb = view(d.game, 1)
        assert vb["phase"]["revealed"]["0"] == [["?", "?"]]
        assert view(d.game, 0)["phase"]["revealed"]["0"] == [["F", right.split()[-1]]]
        views.append(_canon(vb))
    assert views[0] == views[1]
