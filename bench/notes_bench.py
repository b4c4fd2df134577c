"""Cost of the history notes that `api.view` adds (wavinghands.account) in CPython.

Usage:
    python3 bench/notes_bench.py [--duels 10] [--turns 30]
For each random duel: the first api.view of its final state (the record replayed from scratch),
a second view by the other wizard (states cached, notes computed), a repeat (notes cached), and
viewing every state in order as a game is played (each one phase on from the last).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "engine"))

from wavinghands import account, api
from wavinghands.playout import random_duel


def ms(fn: Callable[..., str], *args: str) -> float:
    """Milliseconds one call takes."""
    t = time.perf_counter()
    fn(*args)
    return (time.perf_counter() - t) * 1000


def main() -> None:
    """Print median milliseconds per kind of call."""
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--duels", type=int, default=10)
    p.add_argument("--turns", type=int, default=30)
    args = p.parse_args()
    cold: list[float] = []
    other: list[float] = []
    repeat: list[float] = []
    played: list[float] = []
    for seed in range(args.duels):
        states = random_duel(seed, max_turns=args.turns)
        text = json.dumps(states[-1][0].to_json())
        account._CACHE.clear()
        account._BY_HISTORY.clear()
        cold.append(ms(api.view, text, "0"))
        other.append(ms(api.view, text, "1"))
        repeat.append(ms(api.view, text, "1"))
        account._CACHE.clear()
        account._BY_HISTORY.clear()
        played += [ms(api.view, json.dumps(s.to_json()), "0") for s, *_ in states]
    for name, xs in (("first view (replay)", cold), ("other wizard", other),
                     ("same view again", repeat), ("each state as played", played)):
        print(f"{name:22s} median {statistics.median(xs):7.1f} ms  max {max(xs):7.1f} ms")


if __name__ == "__main__":
    main()
