"""One duel between two computer players, turn by turn: the gestures, the log, the damage.

    python3 bench/opponent_trace.py strong baseline --duel 7 [--seed 1] [--opening 2]
                                    [--opening-by random|novice] [--turns 40]

Plays exactly duel `--duel` of `bench/opponent_match.py --pairs a:b` with the same --seed,
--opening and --opening-by (the first player sits in seat duel % 2, after the twins' opening),
so a loss in a match can be read move by move: what killed whom, what was not stopped.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from opponent_match import OPENERS, match_duel, opening, twin_seed

from wavinghands.model import Game


def main() -> None:
    """Play and print one duel."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--duel", type=int, default=0, help="the duel's number in the match")
    ap.add_argument("--seed", type=int, default=1, help="the match's --seed")
    ap.add_argument("--turns", type=int, default=40)
    ap.add_argument("--opening", type=int, default=2, help="the match's --opening")
    ap.add_argument("--opening-by", choices=OPENERS, default="random")
    args = ap.parse_args()
    seat = args.duel % 2
    names = {seat: args.a, 1 - seat: args.b}
    if args.opening:
        start = opening(twin_seed(args.seed, args.duel), args.opening, args.opening_by)
        print(f"opening ({args.opening} turns by {args.opening_by}):")
        for i, w in enumerate(start.wizards):
            print(f"  {names[i]:<9} {' '.join(f'{r.left}{r.right}' for r in w.history)}")

    def watch(before: Game, after: Game) -> None:
        for e in after.log[len(before.log):]:
            if e.type != "gestures":
                print(f"  t{e.turn:<3} {e.type:<12} {e.text}")
        if after.phase.kind in ("orders", "over") and after.turn > before.turn:
            rows = [" ".join(f"{r.left}{r.right}" for r in w.history[-1:])
                    for w in after.wizards]
            print(f"t{after.turn - 1:<3} {names[0]}:{rows[0]} dmg {after.wizards[0].damage:<3} "
                  f"{names[1]}:{rows[1]} dmg {after.wizards[1].damage}")

    winner, length = match_duel(args.a, args.b, args.seed, args.duel, args.turns, args.opening,
                                args.opening_by, defaultdict(list), watch)
    print(f"result: {'draw' if winner is None else (args.a, args.b)[winner]} after {length} "
          f"turns")


if __name__ == "__main__":
    main()
