"""Engine speed: time to resolve one phase (step) over random legal duels in CPython.

Goal (issue "Duel engine I"): median one turn <= 1 ms.  Usage:
    python3 bench/engine_bench.py [--duels 200] [--seed 1]
Inputs are generated first (wavinghands.playout), then only `step` is timed (best of --repeat
runs per phase).
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "engine"))

from wavinghands.duel import step
from wavinghands.playout import random_duel


def main() -> None:
    """Print per-turn timing statistics and turns per second."""
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--duels", type=int, default=200)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--repeat", type=int, default=3, help="runs per phase; the best counts")
    args = p.parse_args()
    cases = []
    for i in range(args.duels):
        for game, inputs in random_duel(args.seed * 100_000 + i, max_turns=40)[:-1]:
            cases.append((game, inputs))
    # The pre-generated cases hold thousands of game states, far more than a real game keeps
    # alive; freezing them keeps the collector's full scans of them out of the timings.
    gc.collect()
    gc.freeze()
    for game, inputs in cases[:200]:  # warm caches
        step(game, inputs)
    times = []
    for game, inputs in cases:
        # Best of a few runs of the same phase: other processes on a 2-core machine add noise
        # that says nothing about the engine.
        runs = []
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            step(game, inputs)
            runs.append(time.perf_counter() - t0)
        times.append(min(runs))
    times.sort()
    total = sum(times)
    ms = [t * 1000 for t in times]
    print(f"python {sys.version.split()[0]}; {args.duels} random duels, {len(times)} phases")
    print(f"median {statistics.median(ms):.3f} ms  mean {statistics.mean(ms):.3f} ms  "
          f"p90 {ms[int(len(ms) * 0.9)]:.3f} ms  p99 {ms[int(len(ms) * 0.99)]:.3f} ms  "
          f"max {ms[-1]:.3f} ms")
    print(f"{len(times) / total:.0f} phases resolved per second")


if __name__ == "__main__":
    main()
