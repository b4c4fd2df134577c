"""Matches between computer opponents: the levels, today's opponent (bench/baseline_ai.py, the
fixed baseline of issue 13) and random play.

    python3 bench/opponent_match.py [--duels 200] [--turns 40] [--opening 2] [--pairs a:b,...]

Each pair plays `--duels` duels, alternating sides, each from its own seed; a duel still going
after `--turns` turns is a draw.  The levels that play their best move (fair, strong) play the
same duel from every seed, so each two duels (one per side) first play `--opening` turns of
random gestures, the same for both duels of the two: like a chess engine match's opening book,
it measures play from many positions instead of one game repeated.  Prints win/draw/loss for
the first player of each pair, the share of decided duels it won, the average length and the
CPython move time (CPU) per player.
Strong's move time in Pyodide: bench/opponent_pyodide.mjs.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "engine"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import baseline_ai

from wavinghands.ai import LEVELS, choose_input
from wavinghands.duel import new_game, step
from wavinghands.model import Game
from wavinghands.playout import Player

Policy = Callable[[Game, int], dict[str, Any]]
DEFAULT_PAIRS = ("strong:baseline,fair:baseline,strong:novice,strong:fair,novice:random,"
                 "fair:random,strong:random")


def policy(name: str, seed: int) -> Policy:
    """A player by name: a level, "baseline" (today's opponent) or "random"."""
    if name in LEVELS:
        return lambda game, v: choose_input(game, v, name)
    if name == "baseline":
        return baseline_ai.choose_input
    if name == "random":
        player = Player(random.Random(seed))
        return player.input
    raise SystemExit(f"unknown player {name!r}")


def opening(seed: int, turns: int) -> Game:
    """A duel after `turns` turns of random gestures (no surrender), from `seed`."""
    game = new_game(("Ann", "Bo"), f"{seed:016x}")
    player = Player(random.Random(seed), surrender_rate=0.0)
    while game.phase.kind != "over" and game.turn <= turns:
        game, _ = step(game, {v: player.input(game, v) for v in game.phase.actors})
    return game


def duel(a: str, b: str, seed: int, a_seat: int, turns: int, times: dict[str, list[float]],
         start: Game | None = None) -> tuple[int | None, int]:
    """One duel (from `start` if given); returns (winner as 0 = a, 1 = b, None = draw, turns
    played)."""
    seats = {a_seat: policy(a, seed), 1 - a_seat: policy(b, seed + 1)}
    names = {a_seat: a, 1 - a_seat: b}
    game = start or new_game(("Ann", "Bo"), f"{seed:016x}")
    phases = 0
    while game.phase.kind != "over" and game.turn <= turns and phases < turns * 4:
        inputs = {}
        for v in game.phase.actors:
            t0 = time.process_time()
            inputs[v] = seats[v](game, v)
            if game.phase.kind != "decision":
                times[names[v]].append(time.process_time() - t0)
        game, _ = step(game, inputs)
        phases += 1
    if game.result is None or game.result.winner is None:
        return None, game.turn
    return (0 if game.result.winner == a_seat else 1), game.turn


def main() -> None:
    """Run the matches and print the table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--duels", type=int, default=200)
    ap.add_argument("--turns", type=int, default=40)
    ap.add_argument("--pairs", default=DEFAULT_PAIRS)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--progress", action="store_true", help="each duel's result on stderr")
    ap.add_argument("--opening", type=int, default=2,
                    help="turns of random gestures before each two duels (0: none)")
    args = ap.parse_args()
    times: dict[str, list[float]] = defaultdict(list)
    print(f"{args.duels} duels a pair, alternating sides, draw after {args.turns} turns, "
          f"{args.opening} random opening turns")
    print(f"{'pair':<18} {'win':>5} {'draw':>5} {'loss':>5} {'won of decided':>15} "
          f"{'avg turns':>9}")
    for pair in args.pairs.split(","):
        a, b = pair.split(":")
        score = [0, 0, 0]
        lengths = []
        for k in range(args.duels):
            seed = args.seed * 100003 + (k // 2) * 7919  # both sides of one opening
            start = opening(seed, args.opening) if args.opening else None
            winner, length = duel(a, b, seed + k % 2, k % 2, args.turns, times, start)
            if args.progress:
                print(f"  {a} v {b} duel {k + 1}: "
                      f"{'draw' if winner is None else (a, b)[winner]} after {length} turns",
                      file=sys.stderr, flush=True)
            score[0 if winner == 0 else 2 if winner == 1 else 1] += 1
            lengths.append(length)
        decided = score[0] + score[2]
        share = f"{100 * score[0] / decided:.1f} %" if decided else "-"
        print(f"{a + ' v ' + b:<18} {score[0]:>5} {score[1]:>5} {score[2]:>5} {share:>15} "
              f"{statistics.mean(lengths):>9.1f}", flush=True)
    # CPU time: on a shared machine wall time would also count everyone else's work.
    print("\nmove time in CPython, CPU seconds (orders phases)")
    for name, ts in sorted(times.items()):
        ts.sort()
        print(f"{name:<10} mean {1000 * statistics.mean(ts):7.1f} ms   median "
              f"{1000 * ts[len(ts) // 2]:7.1f} ms   max {1000 * ts[-1]:7.1f} ms   "
              f"({len(ts)} moves)")


if __name__ == "__main__":
    main()
