"""Melee figures (issue 29): code lengths and pastes per player per turn for N = 3..6 over
random melees played entirely through codes (engine/wavinghands/remote/melee.py), and a melee
turn's resolution time in CPython.

    python bench/melee_bench.py [--games 8] [--turns 20] [--ruleset standard|warlocks]

Per N it prints: the median and 90th percentile length (characters) of a commitment code and of
a reveal code; characters a player posts per round (his commitment and his reveal); codes and
pastes per player per round (each paste carries the other players' codes of one step); the
invitation and acceptance lengths; and the engine's `step` time for an orders phase (median,
90th percentile, ms).  Not a test: never run by CI.  bench/melee_pyodide.mjs runs
`step_report` inside Pyodide (the browser's runtime).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "engine")]

from wavinghands.duel import step  # noqa: E402
from wavinghands.model import Game  # noqa: E402
from wavinghands.playout import Player, random_duel  # noqa: E402
from wavinghands.remote.melee import REVEAL, accept, decode, invite, receive, seal  # noqa: E402
from wavinghands.ruleset import Ruleset  # noqa: E402


def pct(xs: list[float], q: float) -> float:
    """The q-quantile (0..1) of xs, nearest rank."""
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


def codes_of(n: int, games: int, turns: int, ruleset: str) -> dict[str, list[float]]:
    """Lengths of every code of `games` random melees of n players played by codes."""
    out: dict[str, list[float]] = {"commit": [], "reveal": [], "posted": [], "invite": [],
                                   "accept": [], "pastes": [], "codes": []}
    for g in range(games):
        rng = random.Random(1000 * n + g)
        host, invitations = invite("Host", n, Ruleset(ruleset), rng.randbytes(4))
        pages = [host]
        acceptances = []
        for seat, code in enumerate(invitations, start=1):
            page, a = accept(code, f"Guest {seat}")
            pages.append(page)
            acceptances.append(a)
        out["invite"] += [len(c) for c in invitations]
        out["accept"] += [len(c) for c in acceptances]
        pages = [receive(p, "\n".join(invitations + acceptances))[0] for p in pages]
        player = Player(rng)
        for _ in range(turns):
            parts = pages[0].participants()
            if not parts:
                break
            game = pages[0].engine_game()
            posted: dict[int, list[str]] = {i: [] for i in parts}
            for i in parts:
                raw = player.input(game, i) if i in game.phase.actors else {}
                pages[i], made = seal(pages[i], raw, rng.randbytes(8))
                posted[i] += made
            chat = [c for i in parts for c in posted[i]]
            reveals = [c for c in chat if decode(c).kind == REVEAL]
            # (every page follows the game, those of wizards out of the fight too)
            for i in range(n):
                pages[i], auto = receive(pages[i], "\n".join(chat))
                if i in parts:
                    posted[i] += auto
                reveals += [c for c in auto if decode(c).kind == REVEAL]
            for i in range(n):
                pages[i], _ = receive(pages[i], "\n".join(reveals))
            for i in parts:
                kinds = [decode(c).kind for c in posted[i]]
                out["commit"] += [len(c) for c, k in zip(posted[i], kinds, strict=True)
                                  if k != REVEAL]
                out["reveal"] += [len(c) for c, k in zip(posted[i], kinds, strict=True)
                                  if k == REVEAL]
                out["posted"].append(sum(len(c) for c in posted[i]))
                out["codes"].append(len(posted[i]))
                out["pastes"].append(2)  # the commitments' step, then the reveals'
    return out


def step_times(n: int, games: int, turns: int, ruleset: str,
               clock: Callable[[], float] = time.process_time,
               boundary: bool = False) -> list[float]:
    """CPU milliseconds (by `clock`, seconds) of the engine's `step` for the orders phases of
    random melees; with `boundary`, of the page's call instead: api.step, JSON in and out."""
    from wavinghands import api

    times: list[float] = []
    for g in range(games):
        history = random_duel(7000 + 100 * n + g, max_turns=turns, ruleset=ruleset, wizards=n)
        for before, inputs in history[:-1]:
            if before.phase.kind != "orders":
                continue
            fresh = Game.from_json(before.to_json())  # (no memo warmed by the playout)
            text = json.dumps(before.to_json())
            given = json.dumps({str(k): v for k, v in inputs.items()})
            # CPU time of this process: the machine is shared, wall time is not this step's
            t0 = clock()
            if boundary:
                assert json.loads(api.step(text, given))["ok"] is True
            else:
                step(fresh, inputs)
            times.append((clock() - t0) * 1000)
    return times


def step_report(games: int, turns: int, ruleset: str, clock: Callable[[], float],
                where: str) -> str:
    """The step times per N (engine, and api.step through JSON) as a table's lines."""
    lines = [f"{where}: a melee turn's resolution (orders phases of random melees, {games} per "
             f"N, up to {turns} rounds, rules {ruleset}), CPU ms",
             "N | engine step med/p90 | api.step (JSON in and out) med/p90 | turns"]
    for n in range(3, 7):
        t = step_times(n, games, turns, ruleset, clock)
        b = step_times(n, games, turns, ruleset, clock, boundary=True)
        lines.append(f"{n} | {statistics.median(t):.1f}/{pct(t, .9):.1f} | "
                     f"{statistics.median(b):.1f}/{pct(b, .9):.1f} | {len(t)}")
    return "\n".join(lines)


def opponent_times(n: int, seeds: tuple[str, ...], turns: int) -> dict[str, list[float]]:
    """CPU milliseconds of each computer move, per level, in melees of n wizards where every
    seat is that level, from each seed, for `turns` turns."""
    from wavinghands.ai import choose_input
    from wavinghands.duel import new_game

    out: dict[str, list[float]] = {}
    for level in ("novice", "fair", "strong"):
        times = out.setdefault(level, [])
        for seed in seeds:
            game = new_game(tuple("ABCDEF"[:n]), seed)
            for _ in range(turns):
                if game.phase.kind == "over":
                    break
                inputs = {}
                for v in game.phase.actors:
                    t0 = time.process_time()
                    inputs[v] = choose_input(game, v, level)
                    times.append((time.process_time() - t0) * 1000)
                game, _ = step(game, inputs)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=8)
    ap.add_argument("--turns", type=int, default=20)
    ap.add_argument("--ruleset", default="standard")
    ap.add_argument("--opponent", type=int, metavar="N", default=0,
                    help="instead: the computer's move time per level in melees of N wizards "
                         "(seeds feedbeef and 0badcafe, --turns turns each)")
    a = ap.parse_args()
    if a.opponent:
        for level, t in opponent_times(a.opponent, ("feedbeef", "0badcafe"), a.turns).items():
            print(f"{level}: {len(t)} moves, CPU ms median {statistics.median(t):.0f}, "
                  f"p90 {pct(t, .9):.0f}, max {max(t):.0f}")
        return
    print(f"random melees, {a.games} per N, up to {a.turns} rounds, rules {a.ruleset}")
    print("N | commit med/p90 | reveal med/p90 | chars posted per player per round med/p90 | "
          "codes/player/round | pastes/player/round | invite | accept | step CPU ms med/p90 (n)")
    for n in range(3, 7):
        c = codes_of(n, a.games, a.turns, a.ruleset)
        t = step_times(n, a.games, a.turns, a.ruleset)
        print(f"{n} | {statistics.median(c['commit']):.0f}/{pct(c['commit'], .9):.0f} | "
              f"{statistics.median(c['reveal']):.0f}/{pct(c['reveal'], .9):.0f} | "
              f"{statistics.median(c['posted']):.0f}/{pct(c['posted'], .9):.0f} | "
              f"{statistics.median(c['codes']):.0f} | {statistics.median(c['pastes']):.0f} | "
              f"{statistics.median(c['invite']):.0f} | {statistics.median(c['accept']):.0f} | "
              f"{statistics.median(t):.1f}/{pct(t, .9):.1f} ({len(t)})")


if __name__ == "__main__":
    main()
