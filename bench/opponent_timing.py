"""One level's move time over many varied duels, move by move (CPython or Pyodide).

    python3 bench/opponent_timing.py [--level strong] [--duels 16] [--turns 20]
                                     [--against baseline,fair] [--opening 2]
                                     [--deadline MS] [--clock wall|cpu] [--out moves.jsonl]
                                     [--progress]

`--level` plays `--duels` duels against each player of `--against` (a level, "baseline" or
"random"), alternating sides, each from its own random opening of `--opening` turns (the
twins' openings of bench/opponent_match.py, so the positions are varied).  Every orders move
of `--level` is timed (CPU and wall) and recorded with the work its search spent, whether a
deadline cut it, and what made it big (worlds sampled, candidate rows and columns, second-turn
rows deepened).  Prints the distribution (median, 90th and 99th percentile, worst) and the
slowest moves.  bench/opponent_pyodide.mjs runs this same module inside Pyodide.

Each move is asked for as the page asks: `api.ai_input` with the game as a JSON string (made
before the clock starts: the page holds it so), so a move's time includes reading the game and
writing the answer.  `--deadline` passes the page's deadline (milliseconds) to every move and
reports the moves it cut and, for those, how long after the deadline the answer came.  With
`--clock cpu` the deadline counts the process's CPU time instead of wall time (the engine's
own clock reading is replaced), so that figure is what the engine adds after its deadline,
whatever else the machine runs.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "engine"))
    sys.path.insert(0, str(Path(__file__).resolve().parent))

from opponent_match import opening, policy, twin_seed

import wavinghands.ai
from wavinghands import api
from wavinghands.ai import choose_input
from wavinghands.duel import step

# An engine from before the work budget (for a before/after figure) has no `think`: its moves
# are timed through `choose_input`, without work figures or a deadline.
WITH_WORK = hasattr(wavinghands.ai, "think")

Clock = Callable[[], float]
UNKNOWN = {"units": 0, "cut": False, "worlds": "?", "rows": "?", "columns": "?", "first": "?",
           "planned": "?", "deepened": "?"}


def timed_moves(level: str, against: list[str], duels: int, turns: int, opening_turns: int,
                deadline_ms: float | None, cpu: Clock, seed: int = 7,
                progress: Callable[[str], None] | None = None,
                cpu_deadline: bool = False) -> list[dict[str, Any]]:
    """Play the duels and return one record per orders move of `level`; `cpu_deadline`
    counts the deadline in this process's CPU time (`cpu`), not wall time."""
    moves: list[dict[str, Any]] = []
    for other in against:
        for k in range(duels):
            me = k % 2
            start_seed = twin_seed(seed, k)
            game = opening(start_seed, opening_turns, "random")
            rival = policy(other, start_seed + 1)
            while game.phase.kind != "over" and game.turn <= turns:
                inputs = {}
                for v in game.phase.actors:
                    if v != me:
                        inputs[v] = rival(game, v)
                        continue
                    text = json.dumps(game.to_json())
                    t0, c0 = time.perf_counter(), cpu()
                    if WITH_WORK:
                        inputs[v], work = _asked(text, v, level, deadline_ms,
                                                 cpu if cpu_deadline else None)
                    else:
                        inputs[v], work = choose_input(game, v, level), dict(UNKNOWN)
                    c1, t1 = cpu(), time.perf_counter()
                    if deadline_ms is not None:  # the answer's time past the deadline
                        work["over"] = (c1 - c0 if cpu_deadline else t1 - t0) - deadline_ms / 1000
                    if game.phase.kind != "decision":
                        moves.append({"against": other, "duel": k, "turn": game.turn,
                                      "phase": game.phase.kind, "cpu": c1 - c0,
                                      "wall": t1 - t0, **work})
                        if progress is not None:  # a run stopped early still tells its moves
                            progress("move " + json.dumps(moves[-1]))
                game, _ = step(game, inputs)
            if progress is not None:
                result = "draw" if game.result is None or game.result.winner is None else \
                    ("won" if game.result.winner == me else "lost")
                progress(f"  {level} v {other} duel {k}: {result} after {game.turn} turns, "
                         f"{len(moves)} moves timed")
    return moves


class _Clock:
    """A stand-in for the `time` module of the engine's modules that read the clock for a
    deadline (api, and before this branch ai.levels): its `perf_counter` is `clock`."""

    def __init__(self, clock: Clock) -> None:
        self.perf_counter = clock


def _asked(text: str, v: int, level: str, deadline_ms: float | None,
           clock: Clock | None = None) -> tuple[Any, Any]:
    """The input `api.ai_input` answers for wizard v of the game `text`, as the page asks
    for it, and the work its search spent (caught on its way out of `ai.think`); `clock`
    (calibration: CPU time, so the figure does not count other processes) replaces the wall
    clock the deadline is read from."""
    spent: list[Any] = []
    real = wavinghands.ai.think

    def think(*args: Any) -> Any:
        choice = real(*args)
        spent.append(choice.work)
        return choice
    wavinghands.ai.think = think  # api.ai_input imports it when called
    timed = [m for m in (api, sys.modules.get("wavinghands.ai.levels")) if hasattr(m, "time")]
    # (before this branch the search's Work read `time.perf_counter`, bound as a default)
    old_work: Any = getattr(sys.modules.get("wavinghands.ai.levels"), "Work", None)
    defaults = old_work.__init__.__defaults__ if len(timed) > 1 else None
    if clock is not None:
        for m in timed:
            m.time = _Clock(clock)  # type: ignore[union-attr]
        if defaults is not None:
            old_work.__init__.__defaults__ = (*defaults[:-1], clock)
    try:
        extra = [] if deadline_ms is None else [json.dumps(deadline_ms)]
        answer = json.loads(api.ai_input(text, str(v), json.dumps(level), *extra))
    finally:
        wavinghands.ai.think = real
        for m in timed:
            m.time = time  # type: ignore[union-attr]
        if defaults is not None:
            old_work.__init__.__defaults__ = defaults
    if not answer["ok"]:
        raise SystemExit(f"ai_input failed: {answer['error']}")
    work = spent[0].as_json() if spent and spent[0] is not None else dict(UNKNOWN)
    work["cut"] = answer["cut"]
    return answer["input"], work


def set_work(level: str, work: int | None) -> None:
    """Calibration only: play `level` with another work budget (None: unbounded)."""
    from dataclasses import replace

    from wavinghands.ai import LEVELS
    LEVELS[level] = replace(LEVELS[level], work=work)


def spread(values: list[float]) -> str:
    """Median, 90th and 99th percentile and worst of seconds, in milliseconds."""
    if not values:
        return "no moves"
    ts = sorted(values)

    def at(q: float) -> str:
        return f"{1000 * ts[min(len(ts) - 1, int(len(ts) * q))]:.0f} ms"
    return (f"median {at(0.5)}, 90th percentile {at(0.9)}, 99th percentile {at(0.99)}, "
            f"worst {1000 * ts[-1]:.0f} ms, mean {1000 * sum(ts) / len(ts):.0f} ms")


def report(moves: list[dict[str, Any]], level: str, where: str, slowest: int = 8) -> str:
    """The distribution of the moves' CPU and wall time, cuts, work, and the slowest moves."""
    lines = [f"{level} in {where}, {len(moves)} moves",
             f"  CPU time:  {spread([m['cpu'] for m in moves])}",
             f"  wall time: {spread([m['wall'] for m in moves])}",
             f"  work units: {spread([m['units'] / 1000 for m in moves]).replace(' ms', '')}",
             f"  cut by the deadline: {sum(1 for m in moves if m['cut'])} of {len(moves)}",
             *([f"  answer - deadline, cut moves: "
                f"{spread([m['over'] for m in moves if m['cut']])}"]
               if any("over" in m for m in moves) else []),
             "  slowest (CPU):"]
    for m in sorted(moves, key=lambda m: -m["cpu"])[:slowest]:
        lines.append(f"    {1000 * m['cpu']:5.0f} ms  v {m['against']} duel {m['duel']} turn "
                     f"{m['turn']}: {m['units']} units ({m['first']} first, "
                     f"{m['planned']} planned), worlds {m['worlds']}, rows {m['rows']}, "
                     f"columns {m['columns']}, deepened {m['deepened']}"
                     f"{', CUT' if m['cut'] else ''}")
    return "\n".join(lines)


def main() -> None:
    """Time the moves and print the report (and the records with --out)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--level", default="strong")
    ap.add_argument("--against", default="baseline,fair")
    ap.add_argument("--duels", type=int, default=16)
    ap.add_argument("--turns", type=int, default=20)
    ap.add_argument("--opening", type=int, default=2)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--deadline", type=float, default=None, help="milliseconds a move")
    ap.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                    help="what the deadline counts: wall time (the page's) or this process's "
                         "CPU time (what the engine itself adds, whatever the load)")
    ap.add_argument("--out", default=None, help="write every move as a JSON line here")
    ap.add_argument("--work", default=None,
                    help="calibration: another work budget for the level ('none': no bound)")
    ap.add_argument("--progress", action="store_true")
    args = ap.parse_args()
    if args.work is not None:
        set_work(args.level, None if args.work == "none" else int(args.work))
    say = (lambda s: print(s, file=sys.stderr, flush=True)) if args.progress else None
    moves = timed_moves(args.level, args.against.split(","), args.duels, args.turns,
                        args.opening, args.deadline, time.process_time, args.seed, say,
                        args.clock == "cpu")
    if args.out:
        Path(args.out).write_text("".join(json.dumps(m) + "\n" for m in moves))
    print(report(moves, args.level, f"CPython {sys.version.split()[0]}"))


if __name__ == "__main__":
    main()
