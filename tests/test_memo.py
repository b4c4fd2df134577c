"""The engine's memos (memo.py) change no answer: recognition remembered per table by the rows it
reads, answers about one game object remembered by its identity, every memo bounded; and the
one result that followed Python's string hashes (phase I11's order) no longer does."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from dsl import Duel
from gesture_rows import random_rows

import wavinghands
from wavinghands import recognize
from wavinghands.memo import Bounded, ByIdentity
from wavinghands.recognize import completed
from wavinghands.rulesets import find_ruleset
from wavinghands.situation import constraints
from wavinghands.spells import STANDARD_TABLE, Category, Does, Spell, SpellTable, UsualTarget


def test_remembered_recognition_is_the_direct_one() -> None:
    rng = random.Random(13)
    tables = [STANDARD_TABLE, find_ruleset("warlocks").table]
    for case in range(3000):
        table = tables[case % 2]
        rows = random_rows(rng, rng.randint(1, 24), alike=0.2)
        index = rng.randrange(len(rows))
        start = rng.randint(0, index + 1)  # an anti-spell may wipe the very last rows
        short = rng.random() < 0.3
        assert completed(rows, start, index, short, table) == \
            recognize._completed(rows, start, index, short, table), (rows, start, index)


def test_lists_as_rows_are_still_recognised() -> None:
    # (lists cannot key a memo: such a caller is answered directly, the same answer)
    rows = [["W", "-"], ["F", "-"], ["P", "-"]]
    as_tuples = [("W", "-"), ("F", "-"), ("P", "-")]
    found = completed(rows, 0, 2)  # type: ignore[arg-type]
    assert found == completed(as_tuples, 0, 2)
    assert "shield" in [c.spell for c in found]  # (P alone: "The shield ... P")


def test_two_tables_never_share_a_remembered_answer() -> None:
    # One table in which F-D is a spell, the standard one in which it is not, asked in turns.
    zap = Spell("zap", "Zap", ("F-D",), Category.DAMAGE, UsualTarget.OPPONENT, 38, Does.DAMAGE,
                amount=2, hit_text="A zap stings {subject} for {amount}.")
    zap_table = SpellTable((*STANDARD_TABLE.rows, zap))
    rows = [("F", "-"), ("D", "-")]
    for _ in range(2):
        assert [c.spell for c in completed(rows, 0, 1, table=zap_table)] == ["zap"]
        assert completed(rows, 0, 1, table=STANDARD_TABLE) == ()


def test_a_bounded_memo_never_holds_more_than_its_size() -> None:
    memo: Bounded[int, int] = Bounded(5)
    for i in range(100):
        memo.put(i, i * i)
        assert len(memo) <= 5
    assert memo.get(99) == 99 * 99


def test_an_identity_memo_tells_equal_objects_apart() -> None:
    memo: ByIdentity[str] = ByIdentity(4)
    a, b = [1, 2], [1, 2]  # equal, not the same object
    memo.put(a, "x", "a's answer")
    assert memo.get(a, "x") == "a's answer"
    assert memo.get(b, "x") is None
    assert memo.get(a, "y") is None
    for i in range(10):
        memo.put([i], None, str(i))
        assert len(memo) <= 4


def test_constraints_of_a_game_and_of_its_equal_copy_agree() -> None:
    d = Duel(A="D P P / - - -", B="- - - / - - -")  # amnesia on B: his next gestures are fixed
    d.run()
    game = d.game
    copy = replace(game)
    assert copy is not game and copy == game
    assert constraints(copy, 1) == constraints(game, 1)
    assert constraints(game, 0) == constraints(copy, 0)
    assert constraints(game, 0) != constraints(game, 1)


DISPEL_SCRIPT = """
import sys
sys.path[:0] = [{tests!r}, {engine!r}]
from dsl import Duel
# Both wizards cast resist heat on themselves (W-W-F-P), then A dispels magic (C-D-P-W): phase
# I11 strips both, and says so once per wizard.
d = Duel(A="W W F P C D P W / - - - - C - - -", B="W W F P - - - - / - - - - - - - -")
d.run()
print([e.text for e in d.events if e.type == "disenchant"])
"""


def test_dispel_strips_wizards_in_one_order_whatever_the_string_hashes() -> None:
    if sys.platform == "emscripten":
        pytest.skip("Pyodide has no subprocesses")
    engine = Path(wavinghands.__file__).resolve().parent.parent
    script = DISPEL_SCRIPT.format(tests=str(Path(__file__).resolve().parent), engine=str(engine))
    seen = set()
    for seed in ("1", "2", "3", "4"):
        out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                             check=True, env=dict(os.environ, PYTHONHASHSEED=seed)).stdout
        seen.add(out.strip())
    assert seen == {"['All enchantments on A are removed.', "
                    "'All enchantments on B are removed.']"}
