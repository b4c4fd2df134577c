"""The opponent plays the same move in CPython and in Pyodide.

A level is a work budget, not a time budget, precisely so that a duel against the computer
replays bit for bit on any machine; this pins what novice, fair and strong play in a set of
positions, computed in CPython.  The suite also runs inside Pyodide (build.py test), whose
Python is a later version (3.14 against the host's 3.11): there this test proves the search's
arithmetic and tie-breaks agree, and names the first position where they do not.  (CPython 3.12
changed `sum()` of floats to compensated summation; the search's sums have not yet met a case
where that changes a move, and this is the test that would notice.)

If a deliberate change to the opponent moves the pins, say why in the commit and re-pin from
the checkout's root with:
    python3 -c "import sys; sys.path[:0] = ['engine', 'tests']; import test_ai_cross_runtime as t
    t.pin()"
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path

import pytest

from wavinghands.ai import choose_input
from wavinghands.model import Game, canonical_json
from wavinghands.playout import random_duel

PINNED = Path(__file__).resolve().parent / "data" / "ai_cross_runtime.json"
SEEDS = range(4)  # random duels whose orders phases are the positions
EVERY = 3  # every third orders phase of each duel, from the first
LEVEL_POSITIONS = {"novice": 4, "fair": 4, "strong": 2}  # positions per duel and level
# The default run's sample of them (a strong move costs some fifteen novice ones); the deep tier
# (build.py test --deep) checks every pin.
SAMPLE = {"novice": 4, "fair": 2, "strong": 1}


@cache
def positions() -> list[tuple[str, Game]]:
    """(label, state) for the reference positions: orders phases of random duels (played
    once: every level's moves are read from the same positions)."""
    out = []
    for seed in SEEDS:
        phases = [g for g, _ in random_duel(seed, max_turns=30) if g.phase.kind == "orders"]
        for i, game in enumerate(phases[::EVERY]):
            out.append((f"duel {seed} orders phase {i * EVERY}", game))
    return out


def moves(per_level: dict[str, int] | None = None) -> dict[str, str]:
    """Per level, position and wizard, the digest of the input that level chooses (in the first
    `per_level[level]` positions of each duel; all of LEVEL_POSITIONS by default)."""
    got = {}
    for level, per_duel in (per_level or LEVEL_POSITIONS).items():
        by_duel: dict[str, int] = {}
        for label, game in positions():
            duel = label.split(" orders")[0]
            by_duel[duel] = by_duel.get(duel, 0) + 1
            if by_duel[duel] > per_duel:
                continue
            for wizard in (0, 1):
                chosen = canonical_json(choose_input(game, wizard, level))
                key = f"{level}: {label}, wizard {wizard}"
                got[key] = hashlib.sha256(chosen.encode("utf-8")).hexdigest()[:16]
    return got


def pin() -> None:
    """Write the pins from this runtime (run in CPython; see the module's docstring)."""
    PINNED.write_text(json.dumps(moves(), indent=1, sort_keys=True) + "\n", encoding="utf-8")


def test_the_opponent_plays_the_pinned_moves_in_a_sample() -> None:
    """Every level chooses the input pinned in CPython in the first positions of each duel
    (SAMPLE: every novice pin, half the fair ones, one strong position a duel)."""
    want = json.loads(PINNED.read_text(encoding="utf-8"))
    got = moves(SAMPLE)
    assert set(got) <= set(want), "the reference positions changed: re-pin (see above)"
    differ = [k for k in sorted(got) if got[k] != want[k]]
    assert not differ, (f"{len(differ)} of {len(got)} moves differ from the pins, first: "
                        f"{differ[0]}")


@pytest.mark.deep
def test_the_opponent_plays_the_pinned_moves() -> None:
    """Every level chooses, in every reference position, the input pinned in CPython."""
    want = json.loads(PINNED.read_text(encoding="utf-8"))
    got = moves()
    assert sorted(got) == sorted(want), "the reference positions changed: re-pin (see above)"
    differ = [k for k in sorted(want) if got[k] != want[k]]
    assert not differ, (f"{len(differ)} of {len(want)} moves differ from the pins, first: "
                        f"{differ[0]}")
