"""Strong's move time is bounded by work, not by the clock: the look-ahead's rows, best first,
stop where the level's work budget would be passed, the same on every machine (a hastened
wizard's rankings included); a deadline (the page's safety net, checked inside the search)
cuts a search short and the answer says so; without one the answer is the same in every run,
whatever Python's string hashes."""

from __future__ import annotations

import gc
import json
import os
import random
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from citing import cite
from dsl import Duel

import wavinghands
from wavinghands import api
from wavinghands.ai import Work, find_level, stream, think
from wavinghands.ai.candidates import candidate_orders
from wavinghands.ai.levels import RANKING, RESOLUTION, ranking_units
from wavinghands.ai.lookahead import turn_cost
from wavinghands.ai.observation import Observation
from wavinghands.ai.search import search
from wavinghands.ai.table import ROUNDS_PER_CHECK, after, regret_matching
from wavinghands.duel import new_game, step
from wavinghands.legal import input_problems
from wavinghands.model import Game
from wavinghands.playout import Player
from wavinghands.view import view

JSON = dict[str, Any]


def _position(seed: int, turns: int) -> Game:
    """A duel after `turns` turns of random gestures (no surrender) from `seed`."""
    game = new_game(("Ann", "Bo"), f"{seed:016x}")
    player = Player(random.Random(seed), surrender_rate=0.0)
    while game.phase.kind != "over" and game.turn <= turns:
        game, _ = step(game, {v: player.input(game, v) for v in game.phase.actors})
    assert game.phase.kind == "orders"
    return game


def _search(game: Game, v: int, work: Work, level_work: int | None) -> tuple[JSON, Work]:
    level = replace(find_level("strong"), work=level_work)
    obs = Observation.from_view(view(game, v))
    choice = search(obs, level, stream(game.seed, obs.turn, obs.phase, v, "strong"), work)
    assert choice is not None
    return choice.orders, work


def test_the_work_budget_stops_the_look_ahead_best_rows_first() -> None:
    game = _position(5, 3)
    free, spent = _search(game, 0, Work(None), None)
    assert spent.deepened == find_level("strong").lookahead.rows  # type: ignore[union-attr]
    # What the first table costs, then room for one look-ahead row only.
    first = Work(0)
    _search(game, 0, first, 0)
    assert first.deepened == 0  # a budget spent by the first table: no look-ahead at all
    # Budgets from the first table's cost upwards, a second-turn search at a time: the rows
    # searched grow one by one, best first (each counted in advance at its nominal size), up
    # to every row (then the top of the range, four searches per column: all rows still).
    step_units = turn_cost(find_level("strong").lookahead)  # type: ignore[arg-type]
    deepened: list[int] = []
    steps = list(range(0, 4 * spent.columns + 1, 2))
    for k in steps:
        if deepened and deepened[-1] == spent.deepened and k != steps[-1]:
            continue  # (every row searched already; the last budget checks it stays so)
        budget = first.units + k * step_units
        tight = Work(budget)
        _search(game, 0, tight, budget)
        deepened.append(tight.deepened)
        if tight.deepened < spent.deepened:
            assert tight.units < spent.units
    assert deepened == sorted(deepened)
    assert deepened[0] == 0 and deepened[-1] == spent.deepened
    assert any(0 < d < spent.deepened for d in deepened)
    # A budget that does not bind changes nothing: the same move, the same work.
    roomy, same = _search(game, 0, Work(10 * spent.units), 10 * spent.units)
    assert roomy == free and same.units == spent.units and same.deepened == spent.deepened


def test_a_deadline_of_zero_still_answers_a_legal_move_and_says_it_was_cut() -> None:
    game = _position(5, 3)
    text = json.dumps(game.to_json())
    out = json.loads(api.ai_input(text, "0", json.dumps("strong"), "0"))
    assert out["ok"], out
    assert out["cut"] is True
    assert json.loads(api.validate(text, "0", json.dumps(out["input"])))["problems"] == []
    # Python-side: the search stopped after its first accepted row.
    choice = think(game, 0, "strong", deadline=lambda: True)
    assert choice.work is not None and choice.work.cut and choice.work.rows == 1
    assert not input_problems(game, 0, wavinghands.duel.parse_input(game, choice.orders))
    # Without a deadline nothing is cut, and a generous one changes nothing.
    plain = json.loads(api.ai_input(text, "0", json.dumps("strong")))
    roomy = json.loads(api.ai_input(text, "0", json.dumps("strong"), "600000"))
    assert plain["cut"] is False and roomy["cut"] is False
    assert plain["input"] == roomy["input"]


class Cells:
    """Counts the joint moves `after` plays through one module's name for it (the search's
    first table or the look-ahead's second turn), so a fake deadline can expire mid-search."""

    def __init__(self, module: Any, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        real = module.after

        def counted(*args: Any, **kwargs: Any) -> Game | None:
            self.count += 1
            state: Game | None = real(*args, **kwargs)
            return state
        monkeypatch.setattr(module, "after", counted)


def _strong(game: Game, v: int, deadline: Any) -> Work:
    """Strong's search of wizard v's move with this deadline, and what it spent."""
    choice = think(game, v, "strong", deadline=deadline)
    assert choice.work is not None
    assert not input_problems(game, v, wavinghands.duel.parse_input(game, choice.orders))
    return choice.work


def test_the_deadline_stops_the_first_table_inside_a_row(monkeypatch: pytest.MonkeyPatch) -> None:
    game = _position(5, 3)
    cells = Cells(sys.modules["wavinghands.ai.search"], monkeypatch)
    whole = _strong(game, 0, None)
    per_row = whole.columns  # one row of the first table: every column of every world
    assert whole.rows > 2 and per_row > 2
    # Time is up one joint move into the second row: the search stops there (not at the
    # row's end), drops that row and plays from the first.
    cells.count = 0
    cut = _strong(game, 0, lambda: cells.count > per_row)
    assert cut.cut and cut.rows == 1 and cut.deepened == 0
    assert cells.count == per_row + 1


def test_the_deadline_stops_a_second_turn_search_between_its_rows(
        monkeypatch: pytest.MonkeyPatch) -> None:
    look_ahead = sys.modules["wavinghands.ai.lookahead"]
    game = _position(5, 3)
    cells = Cells(look_ahead, monkeypatch)
    searches: list[int] = []  # the joint moves each second-turn search played
    real = look_ahead.second_turn

    def counted(*args: Any, **kwargs: Any) -> float:
        before = cells.count
        value: float = real(*args, **kwargs)
        searches.append(cells.count - before)
        return value
    monkeypatch.setattr(look_ahead, "second_turn", counted)
    whole = _strong(game, 0, None)
    assert whole.deepened > 0 and not whole.cut
    one_search = searches[0]  # the joint moves of the first second-turn search, whole
    # Time is up at the second joint move of the look-ahead: its first second-turn search
    # stops after the row it is on (not at the search's end), the look-ahead is dropped and
    # the first table's move is played.
    cells.count = 0
    searches.clear()
    cut = _strong(game, 0, lambda: cells.count >= 2)
    assert cut.cut and cut.deepened == 0 and cut.rows == whole.rows
    assert len(searches) == 1 and 2 <= cells.count <= one_search // 2, (cells.count, one_search)


def test_the_solver_stops_when_time_is_up_and_not_otherwise() -> None:
    rng = random.Random(3)
    tables = [[[rng.uniform(-1, 1) for _ in range(6)] for _ in range(8)] for _ in range(2)]
    full = regret_matching(tables, 150)
    assert regret_matching(tables, 150, lambda: False) == full
    asked = []

    def stop() -> bool:
        asked.append(1)
        return True
    early = regret_matching(tables, 150, stop)
    assert len(asked) == 1 and early == regret_matching(tables, ROUNDS_PER_CHECK) != full


def test_a_deadline_that_never_passes_changes_nothing() -> None:
    game = _position(8, 4)
    plain = think(game, 1, "strong")
    never = think(game, 1, "strong", deadline=lambda: False)
    assert plain.orders == never.orders and not never.work.cut  # type: ignore[union-attr]
    assert plain.work.as_json() == never.work.as_json()  # type: ignore[union-attr]


@cite("For the next 3 turns, the subject (but not his monsters if a wizard) makes an extra set "
      "of gestures due to being speeded up. This takes effect in the following turn so that "
      "instead of giving one pair of gestures, 2 are given")
def test_a_hastened_wizards_second_sets_are_charged_to_the_work() -> None:
    # A casts haste (P-W-P-W-W-C) on turns 1-6: on turn 7 he writes two gesture sets, and
    # candidates.py ranks every legal pair again as the second set of each first set it keeps.
    game = Duel(A="P W P W W C/- - - - - C", B="- - - W W S/- - - - - -").run(6).game
    assert view(game, 0)["constraints"]["sets"] == 2
    strong = find_level("strong")
    budget = strong.lookahead
    assert budget is not None
    mine = candidate_orders(game, 0, strong.width, random.Random(1))
    theirs = candidate_orders(game, 1, strong.replies, random.Random(1))
    assert ranking_units([c.orders for c in mine]) == RANKING * (1 + strong.width)
    assert ranking_units([c.orders for c in theirs]) == RANKING  # B is not hastened
    _, work = _search(game, 0, Work(None), None)
    assert work.worlds == 1
    cells = work.rows * work.columns  # every joint move of the first table (one world)
    assert work.first == RANKING * (1 + strong.width) + RANKING + RESOLUTION * cells
    # A second turn from turn 8 (A still hastened) is counted with his rankings in advance,
    # for him as for his enemy.
    later = after(game, 0, {"gestures": [["-", "-"], ["-", "-"]]}, {"gestures": [["-", "-"]]})
    assert later is not None and later.turn == 8
    assert turn_cost(budget, later, 0) == turn_cost(budget) + RANKING * budget.width
    assert turn_cost(budget, later, 1) == turn_cost(budget) + RANKING * budget.answers


def test_a_call_with_a_deadline_keeps_full_collections_off_older_objects(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # A full collection walks every object at once: for the search, those made before the
    # call are frozen (gc.freeze), and handed back after it.
    import wavinghands.ai as ai
    frozen: list[int] = []
    real = ai.think

    def think(*args: Any) -> Any:
        frozen.append(gc.get_freeze_count())
        return real(*args)
    monkeypatch.setattr(ai, "think", think)
    text = json.dumps(_position(5, 3).to_json())
    assert json.loads(api.ai_input(text, "0", json.dumps("strong"), "600000"))["ok"]
    assert json.loads(api.ai_input(text, "0", json.dumps("strong")))["ok"]
    assert frozen[0] > 0 and frozen[1] == 0  # without a deadline, nothing changes
    assert gc.get_freeze_count() == 0


def test_a_bad_deadline_is_refused_by_name() -> None:
    text = json.dumps(json.loads(api.new_game(json.dumps({"seed": "abcdef01"})))["game"])
    for bad in ('"soon"', "-1", "true", "1e9", "{"):
        out = json.loads(api.ai_input(text, "0", json.dumps("strong"), bad))
        assert not out["ok"]
        assert out["error"]["code"] in ("bad-deadline", "bad-json"), (bad, out)


SCRIPT = """
import json, random, sys
sys.path[:0] = [{engine!r}]
from wavinghands import api
from wavinghands.duel import new_game, step
from wavinghands.playout import Player
out = []
for seed in (3, 8):
    game = new_game(("Ann", "Bo"), f"{{seed:016x}}")
    player = Player(random.Random(seed), surrender_rate=0.0)
    while game.turn <= 3 and game.phase.kind != "over":
        game, _ = step(game, {{v: player.input(game, v) for v in game.phase.actors}})
    text = json.dumps(game.to_json())
    out.append(api.ai_input(text, str(seed % 2), json.dumps("strong")))
print(json.dumps(out))
"""


def test_default_calls_are_the_same_in_every_run_whatever_the_hashes() -> None:
    if sys.platform == "emscripten":
        pytest.skip("Pyodide has no subprocesses")
    engine = Path(wavinghands.__file__).resolve().parent.parent
    script = SCRIPT.format(engine=str(engine))
    seen = set()
    for seed in ("1", "2", "3"):
        seen.add(subprocess.run([sys.executable, "-c", script], capture_output=True,
                                text=True, check=True,
                                env=dict(os.environ, PYTHONHASHSEED=seed)).stdout.strip())
    assert len(seen) == 1
    answers = [json.loads(a) for a in json.loads(seen.pop())]
    assert all(a["ok"] and a["cut"] is False for a in answers)


@cite("the subject of the spell becomes invisible to his opponent and his monsters")
def test_strong_budget_binds_where_the_enemy_is_hidden() -> None:
    # With the enemy's gestures hidden strong samples two worlds, so its first table and
    # look-ahead are twice as wide: the rare big move its work budget is there for.
    d = Duel(A="- - - - - W / - - - - - D", B="P P W S F S / - - W S - -").run()
    game = d.game
    obs = Observation.from_view(view(game, 0))
    assert any("?" in row for row in obs.enemy.rows)
    strong = find_level("strong")
    assert strong.work is not None
    _, free = _search(game, 0, Work(None), None)
    _, bound = _search(game, 0, Work(strong.work), strong.work)
    assert free.worlds == bound.worlds == 2
    assert free.first + free.planned > strong.work  # unbounded, it would pass the budget
    assert bound.first + bound.planned <= strong.work
    assert bound.deepened < free.deepened and bound.units < free.units
