"""The strong opponent's second turn (ai/lookahead.py) and the table solver under it
(ai/table.py): the solver's values, which replies each searched move must meet, and positions
where only the look-ahead finds the way."""

from __future__ import annotations

import pytest
from citing import cite
from dsl import Duel, hands

from wavinghands.ai import choose_input
from wavinghands.ai.levels import LEVELS, Lookahead
from wavinghands.ai.lookahead import best_replies, best_rows, pressing_reply
from wavinghands.ai.table import Equilibrium, guarded_pick, regret_matching
from wavinghands.duel import step
from wavinghands.model import Game
from wavinghands.situation import constraints


def _against_script(game: Game, level: str, script: str) -> Game:
    """Wizard A plays `level`, B the gestures of `script` (a hand the rules force makes its
    forced gesture); every question after a reveal is answered as each side would."""
    for left, right in hands(script):
        if game.phase.kind == "over":
            break
        c = constraints(game, 1)
        game, _ = step(game, {0: choose_input(game, 0, level),
                              1: {"gestures": [[c.left.forced or left,
                                                c.right.forced or right]]}})
        while game.phase.kind == "decision":
            game, _ = step(game, {v: choose_input(game, v, level) for v in game.phase.actors})
    return game


def test_the_solver_values_matching_pennies_at_nothing() -> None:
    # Neither side can do better than a coin toss: both mixes half and half, the value nought.
    eq = regret_matching([[[1.0, -1.0], [-1.0, 1.0]]], 400)
    assert eq.mine == pytest.approx([0.5, 0.5], abs=0.05)
    assert eq.theirs[0] == pytest.approx([0.5, 0.5], abs=0.05)
    assert eq.value == pytest.approx(0.0, abs=0.05)


def test_the_solver_finds_a_saddle_point() -> None:
    # Row 1 dominates row 0 and column 0 dominates for the enemy: the value is table[1][0].
    eq = regret_matching([[[1.0, 5.0], [3.0, 4.0]]], 200)
    assert eq.mine[1] > 0.95 and eq.theirs[0][0] > 0.95
    assert eq.value == pytest.approx(3.0, abs=0.1)


def test_the_enemy_picks_per_world_the_wizard_once() -> None:
    # In world 0 column 0 beats row 0, in world 1 column 1 does: the enemy, who knows the world,
    # always picks the column that beats the wizard's row, so row 1 (safe in both) is best.
    tables = [[[-5.0, 2.0], [1.0, 1.0]], [[2.0, -5.0], [1.0, 1.0]]]
    eq = regret_matching(tables, 300)
    assert eq.mine[1] > 0.95
    assert eq.value == pytest.approx(1.0, abs=0.1)


def test_every_searched_row_meets_its_own_worst_reply() -> None:
    # The favourite row 0 (a mirror) fears only column 0; row 1 (a shield) dies to column 2 (a
    # finger of death the mirror would reflect).  Searching column 0 alone a second turn would
    # make the shield look safe: the first strong opponent with a look-ahead did just that and
    # shielded instead of mirroring a visible finger of death (tests/test_ai.py).
    table = [[-3.0, 5.0, 9.0], [2.0, 1.0, -1000.0], [0.0, 0.0, 0.0]]
    cols = best_replies(table, [0, 1], [1.0, 0.0, 0.0], 1)
    assert 0 in cols and 2 in cols
    assert best_replies(table, [0, 1], [1.0, 0.0, 0.0], 3) == [0, 2, 1]


def test_the_reply_that_presses_a_kill_is_searched_before_the_merely_harmful() -> None:
    # Column 2 hurts least this turn, but it is the one the second turn must see.
    table = [[-3.0, -4.0, 1.0]]
    assert best_replies(table, [0], [1.0], 2, pressing=2) == [1, 2]
    assert best_replies(table, [0], [1.0], 2) == [1, 0]


@cite("gestures P-W-P-F-S-S-S-D", "The usual way to prevent being harmed by this spell is to "
      "disrupt it during casting")
def test_the_pressing_reply_is_the_one_nearest_a_kill() -> None:
    # B, four gestures from finger of death, either carries it on (S) or drops it (D, W).
    keeps = Duel(A="- - - - - / - - - - -", B="P W P F S / - - - - -").run().game
    drops = Duel(A="- - - - - / - - - - -", B="P W P F D / - - - - -").run().game
    other = Duel(A="- - - - - / - - - - -", B="P W P F W / - - - - -").run().game
    assert pressing_reply([[drops, None, keeps, other]], 0, 0) == 2
    assert pressing_reply([[drops, other]], 0, 0) is None


def test_the_rows_searched_are_the_first_turns_favourites() -> None:
    first = Equilibrium([0.1, 0.6, 0.0, 0.3], [[1.0]], 0.0)
    assert best_rows(first, [0.0, 0.0, 5.0, 0.0], 3) == [1, 3, 0]
    # Equal weight: the better prior goes first.
    tie = Equilibrium([0.0, 0.0, 0.0], [[1.0]], 0.0)
    assert best_rows(tie, [1.0, 3.0, 2.0], 2) == [1, 2]


def test_a_move_played_for_sure_is_the_one_its_worst_reply_hurts_least() -> None:
    # Row 0 (wait with the clap) is the equilibrium's favourite but loses outright to column 0
    # (the finger of death cast into it); row 1 (the mirror now) loses only a little if the
    # enemy holds back.  Played for sure, the mirror; row 2 is played too rarely to count.
    table = [[-1000.0, 20.0], [1000.0, -170.0], [50.0, 50.0]]
    assert guarded_pick([table], [table], [0.6, 0.39, 0.01], 0.25, [0.0, 0.0, 0.0]) == 1
    assert guarded_pick([table], [table], [0.6, 0.39, 0.01], 1.0, [0.0, 0.0, 0.0]) == 0
    # Both lose to a guess two turns out (-1000): the one that cannot lose this turn.
    deep = [[-1000.0, 996.0], [1000.0, -1000.0]]
    once = [[-1000.0, 20.0], [1000.0, -170.0]]
    assert guarded_pick([deep], [once], [0.63, 0.37], 0.25, [0.0, 0.0]) == 1


def test_only_strong_looks_a_turn_further() -> None:
    assert LEVELS["novice"].lookahead is None and LEVELS["fair"].lookahead is None
    assert isinstance(LEVELS["strong"].lookahead, Lookahead)


@cite("on the next turn that hand is paralyzed into the position it is in this turn",
      "next turn he must repeat identically the gestures he made in the current turn",
      "except dispel magic and finger of death")
def test_the_clap_a_paralysis_will_freeze_is_not_played() -> None:
    # B is two gestures from finger of death (P-W-P-F-S-S, then S and D) and one from
    # paralysis (F-F, then F); a counter-spell would not stop the finger of death.  A clap now
    # (C-C, a magic mirror's first half) looks like an answer ready in time to a one-turn
    # search, but B's paralysis freezes one of A's hands into F and the mirror's W-W never
    # comes.  A's right hand is a P from amnesia (D-P, then P): it makes B repeat this turn's
    # S instead of the D, and the finger of death never comes.  Strong's second turn of search
    # found the amnesia first; fair now finds it too, from the evaluation's worth of a breaker
    # that lands two gestures early, so this position no longer tells the levels apart.
    start = Duel(A="- - - - - - / - - - - D P", B="P W P F S S / - - - - F F").run().game
    script = "S D / F F"
    fair = _against_script(start, "fair", script)
    # (h2: fair no longer claps either: a breaker two gestures early is worth the duel it saves)
    assert fair.wizard(0).alive and fair.wizard(1).history[-1].left == "S", "fair's amnesia"
    strong = _against_script(start, "strong", script)
    assert strong.wizard(0).alive and strong.phase.kind != "over"
    assert strong.wizard(1).history[-1].left == "S", "amnesia made B repeat the S"


def _against_paralyser(game: Game, level: str, script: str, hand: str) -> Game:
    """As `_against_script`, but B answers his paralysis of A with `hand` (the caster's
    choice: the opponent must not bet on which hand B freezes)."""
    for left, right in hands(script):
        if game.phase.kind == "over":
            break
        c = constraints(game, 1)
        left, right = ("-" if g in c.banned else g for g in (left, right))  # (fear)
        game, _ = step(game, {0: choose_input(game, 0, level),
                              1: {"gestures": [[c.left.forced or left,
                                                c.right.forced or right]]}})
        while game.phase.kind == "decision":
            inputs = {v: choose_input(game, v, level) for v in game.phase.actors}
            if 1 in inputs:
                inputs[1] = {"decisions": {x.id: hand if hand in x.options else x.options[0]
                                           for x in game.phase.decisions if x.wizard == 1}}
            game, _ = step(game, inputs)
    return game


@cite("the caster selects one of the wizard's hands and on the next turn that hand is "
      "paralyzed into the position it is in this turn",
      "In the turn following the casting of this spell, the subject cannot perform a C, D, F "
      "or S gesture",
      "next turn he must repeat identically the gestures he made in the current turn")
@pytest.mark.parametrize("hand", ["L", "R"])
def test_a_breaker_is_started_on_both_hands_when_the_enemy_paralyses_one(hand: str) -> None:
    # Bench mirror duel 28: B is four gestures from finger of death (P-W-P-F, then S-S-S-D) and
    # paralyses one of A's hands every turn from now on (F-F, then F-F-F...).  A mirror's clap
    # would be frozen, a counter-spell does not stop the finger.  A fear (S-W-D) or an amnesia
    # (D-P-P) landing on B's last S stops the D; but B picks the hand he freezes (an S frozen
    # into D, a W into P), so a breaker started on one hand is a bet on his choice.  Started on
    # both (S or D on each), whichever hand he freezes, the other carries it through.  The
    # opponent used to guess his choice with its own rule of thumb: one of the two hands lost.
    start = Duel(A="- - - - / - - - -", B="P W P F / - - F F").run().game
    script = "S S S D / F F F F"
    strong = _against_paralyser(start, "strong", script, hand)
    assert strong.wizard(0).alive, f"B froze A's {hand} hand and the finger of death struck"
    assert not any(e.type == "death_spell" for e in strong.log), "the finger of death completed"


@cite("next turn he must repeat identically the gestures he made in the current turn",
      "Any spell cast on a subject protected by this spell is reflected back upon the caster "
      "of that spell")
@pytest.mark.parametrize("level", ["novice", "fair", "strong"])
def test_a_clap_an_amnesia_repeats_still_makes_the_mirror(level: str) -> None:
    # Bench random duel 42: B is three gestures from finger of death (P-W-P-F-S, then S-S-D)
    # and one from amnesia (D-P, then P) at A.  No breaker from scratch lands in time, and a
    # counter-spell does not stop the finger.  A clap now (C-C) is repeated next turn, and the
    # mirror's W-W comes the turn after, with the D.  The opponent took the repeat for a
    # broken mirror (the hands forced into C, not the W it wanted) and gave the duel up.
    start = Duel(A="- - - - - / - - - - -", B="P W P F S / - - - D P").run().game
    end = _against_script(start, level, "S S D / P - -")
    assert [(r.left, r.right) for r in end.wizard(0).history[5:7]] == [("C", "C")] * 2
    assert end.wizard(0).alive and not end.wizard(1).alive, "the finger of death reflected"


@cite("If the wizard already had a paralyzed hand, it must be the same hand which is "
      "paralyzed again",
      "In the turn following the casting of this spell, the subject cannot perform a C, D, F "
      "or S gesture")
@pytest.mark.parametrize("level", ["fair", "strong"])
def test_the_free_hand_breaks_the_finger_while_the_other_stays_paralysed(level: str) -> None:
    # Bench random duel 37: A's left hand is paralysed into P every turn (B's F-F-F-F...) and
    # B is four gestures from finger of death (P-W-P-F, then S-S-S-D).  B must freeze the same
    # hand again, so A's right hand is free to break the finger: a fear (S-W-D) landing on the
    # last S forbids the D (amnesia would need a P beside the frozen P: a surrender; a
    # paralysis would freeze the last S into the very D).  Counting on B to freeze whichever
    # hand held the breaker, the opponent saw every breaker spoilt and let a confusion's die
    # decide the duel (or, before, did not see the finger coming in time).
    d = Duel(A="P P P P / - - - -", B="F F F F / P W P F")
    start = d.decide(3, {"paralysis:W0": "L"}).decide(4, {"paralysis:W0": "L"}).run().game
    end = _against_paralyser(start, level, "F F F F F / S S S D -", "L")
    assert [r.right for r in end.wizard(0).history[4:7]] == ["S", "W", "D"], "A's fear"
    assert end.wizard(0).alive, "the finger of death struck"
    assert not any(e.type == "death_spell" for e in end.log), "the finger of death completed"


@cite("A favourite ploy is to continually paralyze a hand (F-F-F-F-F-F etc.)",
      "if the hand being paralyzed is performing a C, S or W it is instead paralyzed into F, D "
      "or P respectively")
@pytest.mark.parametrize("level", ["fair", "strong"])
@pytest.mark.parametrize("hand", ["L", "R"])
def test_under_a_paralysis_every_turn_the_breaker_starts_before_the_mirror_is_too_late(
        level: str, hand: str) -> None:
    # Bench mirror duel 66: B is five gestures from finger of death (P-W-P, then F-S-S-S-D) and
    # paralyses one of A's hands every turn from now on.  Every clap A makes is frozen into an
    # F, so no mirror can meet the finger: only a breaker landing on one of its S's can, and it
    # must be under way before the finger is two gestures away.  The opponent counted a mirror
    # two gestures away as an answer in reach, saw the doom too late, and clapped into the
    # paralysis on the last turn.
    start = Duel(A="- - - / - - -", B="P W P / - F F").run().game
    end = _against_paralyser(start, level, "F S S S D - / F F F F F F", hand)
    assert end.wizard(0).alive, f"B froze A's {hand} hand and the finger of death struck"
    assert not any(e.type == "death_spell" for e in end.log), "the finger of death completed"
