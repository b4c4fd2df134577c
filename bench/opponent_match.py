"""Matches between computer opponents: the levels, today's opponent (bench/baseline_ai.py, the
fixed baseline of issue 13) and random play.

    python3 bench/opponent_match.py [--duels 200] [--turns 40] [--opening 2]
                                    [--opening-by random|novice] [--pairs a:b,...]

Each pair plays `--duels` duels, alternating sides, each from its own seed; a duel still going
after `--turns` turns is a draw.  The levels that play their best move (fair, strong) play the
same duel from every seed, so each two duels (twins: one per side) first play `--opening`
turns, the same for both twins, like a chess engine match's opening book: it measures play from
many positions instead of one game repeated.  The opening is played by `--opening-by`:

- random: random gestures (bench's `Player`).  An opening can leave a position one side cannot
  save whoever plays it, which caps "won of decided" below 100 %;
- mirror: the same random gestures for both sides (the balanced book: the position after it
  is the same from either seat, yet as varied as the random one);
- novice: the novice level plays both sides from the pair's seed (balanced, but from the empty
  start it plays two or three openings in all: WW then PF or FP).

Prints win/draw/loss for the first player of each pair, the share of decided duels it won, the
average length, and how the first player's losses split by their twin: "seat lost twice"
(the twin's player in the loser's seat lost too: the opening lost it whoever played it) and
"lost both sides" (the loser also lost the twin from the other seat), with "won of decided"
recounted without the openings whose seat was lost twice.  Then the CPython move time (CPU:
mean, median, 90th and 99th percentile, worst).  Strong's move time in Pyodide, move by move:
bench/opponent_pyodide.mjs (bench/opponent_timing.py in CPython).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "engine"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import baseline_ai

from wavinghands.ai import LEVELS, choose_input
from wavinghands.duel import new_game, parse_input, step
from wavinghands.legal import input_problems
from wavinghands.model import Game
from wavinghands.playout import Player

Policy = Callable[[Game, int], dict[str, Any]]
Watch = Callable[[Game, Game], None]  # called with the state before and after each step
DEFAULT_PAIRS = ("strong:baseline,fair:baseline,strong:novice,strong:fair,novice:random,"
                 "fair:random,strong:random")
OPENERS = ("random", "mirror", "novice")


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


def opening(seed: int, turns: int, by: str = "random") -> Game:
    """A duel after `turns` turns played by `by` for both sides ("random": random gestures, no
    surrender; "novice": the novice level), from `seed`."""
    game = new_game(("Ann", "Bo"), f"{seed:016x}")
    if by in ("random", "mirror"):
        randomly = Player(random.Random(seed), surrender_rate=0.0)
        play = randomly.input
        if by == "mirror":
            play = _mirrored(randomly)
    elif by == "novice":
        play = policy("novice", seed)
    else:
        raise SystemExit(f"unknown opening player {by!r}: choose one of {', '.join(OPENERS)}")
    while game.phase.kind != "over" and game.turn <= turns:
        game, _ = step(game, {v: play(game, v) for v in game.phase.actors})
    return game


def _mirrored(randomly: Player) -> Policy:
    """Wizard 0's random gestures for both wizards (default targets), while the rules let
    wizard 1 make them; random input otherwise (decisions, a hand only one side has lost)."""
    drawn: dict[tuple[int, int], dict[str, Any]] = {}  # wizard 0's draw for a phase, once

    def play(game: Game, v: int) -> dict[str, Any]:
        if game.phase.kind == "decision":
            return randomly.input(game, v)
        phase = (game.turn, len(game.log))
        if phase not in drawn:
            drawn.clear()
            drawn[phase] = randomly.input(game, 0)
        copied = {"gestures": drawn[phase]["gestures"]}
        if v == 0:
            return copied
        if input_problems(game, v, parse_input(game, copied)):
            return randomly.input(game, v)
        return copied
    return play


def twin_seed(match_seed: int, k: int) -> int:
    """The seed of duel k's opening: duels 2j and 2j+1 (twins, one per side) share it."""
    return match_seed * 100003 + (k // 2) * 7919


def duel(a: str, b: str, seed: int, a_seat: int, turns: int, times: dict[str, list[float]],
         start: Game | None = None, watch: Watch | None = None) -> tuple[int | None, int]:
    """One duel (from `start` if given); returns (winner as 0 = a, 1 = b, None = draw, turns
    played).  `watch` sees every step (bench/opponent_trace.py prints them)."""
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
        before = game
        game, _ = step(game, inputs)
        if watch is not None:
            watch(before, game)
        phases += 1
    if game.result is None or game.result.winner is None:
        return None, game.turn
    return (0 if game.result.winner == a_seat else 1), game.turn


def match_duel(a: str, b: str, match_seed: int, k: int, turns: int, opening_turns: int,
               opening_by: str, times: dict[str, list[float]],
               watch: Watch | None = None) -> tuple[int | None, int]:
    """Duel k of a match between a and b: a sits in seat k % 2, after the twins' opening."""
    seed = twin_seed(match_seed, k)
    start = opening(seed, opening_turns, opening_by) if opening_turns else None
    return duel(a, b, seed + k % 2, k % 2, turns, times, start, watch)


@dataclass(frozen=True, slots=True)
class Tally:
    """A pair's results, and how the first player's losses split by their twin duel."""

    win: int
    draw: int
    loss: int
    seat_lost_twice: int  # losses whose twin the other player lost from the same seat
    lost_both_sides: int  # losses whose twin the loser lost too, from the other seat
    avg_turns: float

    def won_of_decided(self) -> str:
        """The share of decided duels the first player won."""
        decided = self.win + self.loss
        return f"{100 * self.win / decided:.1f} %" if decided else "-"

    def won_of_fair_decided(self) -> str:
        """The same share without the twins whose one seat lost whoever played it."""
        win, loss = self.win - self.seat_lost_twice, self.loss - self.seat_lost_twice
        return f"{100 * win / (win + loss):.1f} %" if win + loss else "-"


def tally(winners: list[int | None], lengths: list[int]) -> Tally:
    """Count a pair's duels (winners[k]: 0 = first player, 1 = second, None = draw; duel k's
    first player sits in seat k % 2, twins 2j and 2j+1 share an opening)."""
    win = sum(1 for w in winners if w == 0)
    loss = sum(1 for w in winners if w == 1)
    seat_lost_twice = lost_both = 0
    for j in range(0, len(winners) - 1, 2):
        pair = winners[j], winners[j + 1]
        if pair == (1, 0) or pair == (0, 1):
            seat_lost_twice += 1  # the same seat lost both: a's loss was the opening's
        elif pair == (1, 1):
            lost_both += 2
    return Tally(win, len(winners) - win - loss, loss, seat_lost_twice, lost_both,
                 statistics.mean(lengths) if lengths else 0.0)


def main() -> None:
    """Run the matches and print the table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--duels", type=int, default=200)
    ap.add_argument("--turns", type=int, default=40)
    ap.add_argument("--pairs", default=DEFAULT_PAIRS)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--progress", action="store_true", help="each duel's result on stderr")
    ap.add_argument("--opening", type=int, default=2,
                    help="turns played before each two duels by --opening-by (0: none)")
    ap.add_argument("--opening-by", choices=OPENERS, default="random",
                    help="who plays the opening turns for both sides")
    args = ap.parse_args()
    times: dict[str, list[float]] = defaultdict(list)
    print(f"{args.duels} duels a pair, alternating sides, draw after {args.turns} turns, "
          f"{args.opening} opening turns by {args.opening_by}")
    print(f"{'pair':<18} {'win':>5} {'draw':>5} {'loss':>5} {'won of decided':>15} "
          f"{'avg turns':>9} {'seat lost twice':>15} {'lost both sides':>15} "
          f"{'won, fair twins':>15}")
    for pair in args.pairs.split(","):
        a, b = pair.split(":")
        winners: list[int | None] = []
        lengths = []
        for k in range(args.duels):
            winner, length = match_duel(a, b, args.seed, k, args.turns, args.opening,
                                        args.opening_by, times)
            if args.progress:
                print(f"  {a} v {b} duel {k}: "
                      f"{'draw' if winner is None else (a, b)[winner]} after {length} turns",
                      file=sys.stderr, flush=True)
            winners.append(winner)
            lengths.append(length)
        t = tally(winners, lengths)
        print(f"{a + ' v ' + b:<18} {t.win:>5} {t.draw:>5} {t.loss:>5} "
              f"{t.won_of_decided():>15} {t.avg_turns:>9.1f} {t.seat_lost_twice:>15} "
              f"{t.lost_both_sides:>15} {t.won_of_fair_decided():>15}", flush=True)
    # CPU time: on a shared machine wall time would also count everyone else's work.
    print("\nmove time in CPython, CPU seconds (orders phases)")
    for name, ts in sorted(times.items()):
        ts.sort()
        def at(q: float, ts: list[float] = ts) -> float:
            return 1000 * ts[min(len(ts) - 1, int(len(ts) * q))]
        print(f"{name:<10} mean {1000 * statistics.mean(ts):7.1f} ms   median "
              f"{at(0.5):7.1f} ms   p90 {at(0.9):7.1f} ms   p99 {at(0.99):7.1f} ms   "
              f"max {1000 * ts[-1]:7.1f} ms   ({len(ts)} moves)")


if __name__ == "__main__":
    main()
