"""One duel between two computer players, turn by turn: the gestures, the log, the damage.

    python3 bench/opponent_trace.py strong fair [--seed 3] [--seat 0] [--turns 40]

For finding out why a level loses: what kills it, what it failed to stop.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from opponent_match import opening, policy

from wavinghands.duel import new_game, step


def main() -> None:
    """Play and print one duel."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--seat", type=int, default=0, help="the seat of the first player")
    ap.add_argument("--turns", type=int, default=40)
    ap.add_argument("--opening", type=int, default=0, help="turns of random gestures first")
    args = ap.parse_args()
    seats = {args.seat: policy(args.a, args.seed), 1 - args.seat: policy(args.b, args.seed + 1)}
    names = {args.seat: args.a, 1 - args.seat: args.b}
    game = opening(args.seed, args.opening) if args.opening else \
        new_game((names[0], names[1]), f"{args.seed:016x}")
    seen = 0
    while game.phase.kind != "over" and game.turn <= args.turns:
        game, _ = step(game, {v: seats[v](game, v) for v in game.phase.actors})
        for e in game.log[seen:]:
            if e.type not in ("gestures",):
                print(f"  t{e.turn:<3} {e.type:<12} {e.text}")
        seen = len(game.log)
        if game.phase.kind in ("orders", "over"):
            rows = [" ".join(f"{r.left}{r.right}" for r in w.history[-1:])
                    for w in game.wizards]
            print(f"t{game.turn - 1:<3} {names[0]}:{rows[0]} dmg {game.wizards[0].damage:<3} "
                  f"{names[1]}:{rows[1]} dmg {game.wizards[1].damage}")
    print("result:", game.result)


if __name__ == "__main__":
    main()
