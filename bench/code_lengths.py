"""Turn-code lengths over random duels played entirely through codes (docs/protocol.md).

    python bench/code_lengths.py [--duels 200] [--policy random|ai|rich|all] [--engine real|fake]
                                 [--ruleset standard|warlocks]

Prints, per message kind (what the message carries), how many were sent and the median, 90th
percentile and maximum length in characters, then the same over all turn messages (everything
but the invitation).  Goal: median <= 64 characters per turn message.  Not a test: never run
by CI.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "engine"), str(ROOT / "tests")]

from remote_driver import play, random_policy  # noqa: E402

from wavinghands.remote.engine import Engine, PhaseInfo, PythonEngine  # noqa: E402


def ai_policy(eng: Engine, game: dict[str, Any], me: int, ph: PhaseInfo,
              rng: random.Random) -> dict[str, Any]:
    """The engine's computer opponent writes the input (realistic casts and targets)."""
    from wavinghands import api

    r = json.loads(api.ai_input(json.dumps(game), json.dumps(me)))
    if not r.get("ok"):
        return random_policy(eng, game, me, ph, rng)
    x: dict[str, Any] = r["input"]
    return x


def rich_policy(eng: Engine, game: dict[str, Any], me: int, ph: PhaseInfo,
                rng: random.Random) -> dict[str, Any]:
    """Random gestures, then every question the preview asks answered explicitly (a cast
    entry with a random target for each completed spell) and every monster given a target:
    the longest orders a player is likely to write."""
    from wavinghands import api

    x = random_policy(eng, game, me, ph, rng)
    if ph.kind == "decision":
        return x
    g, w = json.dumps(game), json.dumps(me)
    p = json.loads(api.preview(g, w, json.dumps(x)))
    if not p.get("ok"):
        return x
    rich = dict(x)
    casts = []
    for q in p["preview"].get("questions", []):
        if q.get("kind") == "target" and q.get("options"):
            casts.append({"set": q["set"], "hand": q["hand"], "spell": q["spell"],
                          "target": rng.choice(q["options"])["id"]})
    if casts:
        rich["casts"] = casts
    mons = p["preview"]["constraints"].get("monsters", [])
    if mons:
        rich["monsters"] = {m: rng.choice(("W0", "W1", *mons)) for m in mons}
    return rich if not eng.problems(game, me, rich) else x


def percentile(values: list[int], q: float) -> int:
    """The q-quantile by nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def report(title: str, lengths: dict[str, list[int]]) -> None:
    """Print the table for one batch of duels."""
    print(f"\n{title}")
    print(f"{'kind':28} {'count':>7} {'median':>7} {'p90':>5} {'max':>5}")
    turn: list[int] = []
    for kind in sorted(lengths, key=lambda k: -len(lengths[k])):
        v = lengths[kind]
        print(f"{kind:28} {len(v):7} {statistics.median(v):7.0f} {percentile(v, .9):5} "
              f"{max(v):5}")
        if kind != "invite":
            turn += v
    print(f"{'ALL TURN MESSAGES':28} {len(turn):7} {statistics.median(turn):7.0f} "
          f"{percentile(turn, .9):5} {max(turn):5}")


def main() -> None:
    """Run the benchmark."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--duels", type=int, default=200)
    ap.add_argument("--policy", choices=("random", "ai", "rich", "all"), default="all")
    ap.add_argument("--engine", choices=("real", "fake"), default="real")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--ruleset", default="standard", help="the duels' rules (e.g. warlocks)")
    args = ap.parse_args()
    if args.engine == "real":
        eng: Engine = PythonEngine()
    else:
        from fake_engine import FakeEngine

        eng = FakeEngine()
    policies = {"random": random_policy, "ai": ai_policy, "rich": rich_policy}
    chosen = list(policies) if args.policy == "all" else [args.policy]
    for name in chosen:
        lengths: dict[str, list[int]] = {}
        turns: list[int] = []
        t0 = time.perf_counter()
        for i in range(args.duels):
            ex = play(eng, random.Random(args.seed * 1_000_003 + i), policies[name],
                      rules={"name": args.ruleset})
            assert ex.host.game == ex.guest.game, "the two sides disagree"
            assert ex.host.game is not None
            turns.append(int(eng.phase(ex.host.game).turn))
            for kind, code in ex.codes:
                lengths.setdefault(kind, []).append(len(code))
        report(f"{args.engine} engine, {name} orders: {args.duels} duels, median length "
               f"{statistics.median(turns):.0f} turns, {time.perf_counter() - t0:.1f} s",
               lengths)


if __name__ == "__main__":
    main()
