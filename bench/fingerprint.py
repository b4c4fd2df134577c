"""A fingerprint of many whole duels, to prove an engine change left every result unchanged.

    python3 bench/fingerprint.py                    # this checkout against git merge-base HEAD main
    python3 bench/fingerprint.py --against REF      # ... against any commit
    python3 bench/fingerprint.py --against none     # print this checkout's fingerprint only

It plays, from fixed seeds: duels between computer levels (strong:fair, fair:baseline,
novice:random, and novice:random under Warlocks; each two duels from one random opening, as
bench/opponent_match.py plays them), random playouts (wavinghands.playout, both rulesets, with
and without withholding) and the golden playthroughs (tests/golden).  Each section's digest is
a sha256 over every phase's inputs, both wizards' views and events, and the final state's
canonical JSON (log and record included).  With `--against`, the same script runs on the
engine (and bench/, tests/) of REF, extracted with `git archive` into a temporary
directory, and every section must match: exit status 1 names the sections that differ.
The CPU time per move of each level (orders phases) is printed for both sides (a load figure
beside it: these are CPU seconds, but a loaded machine still slows them a little).

Both sides run with one PYTHONHASHSEED (`--hashseed`): before this script the engine iterated a
set of being ids in phase I11 (dispel magic's "All enchantments on ... are removed" lines) in
string-hash order, which differs between processes; it now sorts them (wizard W0 first).  Seed
3 gives the old code that order in these duels, so the default compares like with like with
commits from before the fix; with `--hashseed` N a run shows the engine's results do not depend
on the seed (compare two runs' digests).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
LEVEL_PAIRS = (("strong", "fair", "standard"), ("fair", "baseline", "standard"),
               ("novice", "random", "standard"), ("novice", "random", "warlocks"))


def _setup(root: Path) -> None:
    """Import the engine, bench/ and tests/ (golden playthroughs) of the tree at `root`."""
    for sub in ("tests", "tests/golden", "bench", "engine"):
        sys.path.insert(0, str(root / sub))


def _policy(name: str, seed: int) -> Any:
    """A player by name: a level, "baseline" (bench/baseline_ai.py) or "random"."""
    from wavinghands.ai import LEVELS, choose_input
    from wavinghands.playout import Player

    if name in LEVELS:
        return lambda game, v: choose_input(game, v, name)
    if name == "baseline":
        import baseline_ai

        return baseline_ai.choose_input
    return Player(random.Random(seed)).input


def _canon(obj: Any) -> bytes:
    from wavinghands.model import canonical_json

    return canonical_json(obj).encode("utf-8")


def _play(game: Any, seats: dict[int, Any], names: dict[int, str], turns: int, h: Any,
          times: dict[str, list[float]]) -> Any:
    """Play to the end (or the turn cap), hashing inputs, views and events of every phase."""
    from wavinghands.duel import step
    from wavinghands.view import view

    phases = 0
    while game.phase.kind != "over" and game.turn <= turns and phases < turns * 4:
        inputs = {}
        for v in game.phase.actors:
            h.update(_canon(view(game, v)))
            t0 = time.process_time()
            inputs[v] = seats[v](game, v)
            if game.phase.kind != "decision":
                times[names[v]].append(time.process_time() - t0)
        h.update(_canon({str(k): x for k, x in inputs.items()}))
        game, events = step(game, inputs)
        h.update(_canon([e.to_json() for e in events]))
        phases += 1
    h.update(_canon(game.to_json()))
    return game


def _opening(seed: int, turns: int, ruleset: str) -> Any:
    """A duel after `turns` turns of random gestures (no surrender), as opponent_match plays."""
    from wavinghands.duel import new_game, step
    from wavinghands.playout import Player
    from wavinghands.rulesets import Ruleset

    game = new_game(("Ann", "Bo"), f"{seed:016x}", Ruleset(ruleset))
    player = Player(random.Random(seed), surrender_rate=0.0)
    while game.phase.kind != "over" and game.turn <= turns:
        game, _ = step(game, {v: player.input(game, v) for v in game.phase.actors})
    return game


def level_duels(a: str, b: str, ruleset: str, duels: int, turns: int,
                times: dict[str, list[float]]) -> str:
    """Digest of `duels` duels a v b, alternating sides, two from each random opening."""
    h = hashlib.sha256()
    for k in range(duels):
        seed = 100003 + (k // 2) * 7919
        start = _opening(seed, 2, ruleset)
        seat = k % 2
        seats = {seat: _policy(a, seed + k % 2), 1 - seat: _policy(b, seed + k % 2 + 1)}
        names = {seat: a, 1 - seat: b}
        _play(start, seats, names, turns, h, times)
    return h.hexdigest()


def playouts(seeds: int) -> str:
    """Digest of random duels (wavinghands.playout): every state, input and view."""
    from wavinghands.playout import random_duel
    from wavinghands.view import view

    h = hashlib.sha256()
    for ruleset, withhold in (("random", False), ("random", True), ("warlocks", False)):
        for seed in range(seeds):
            for game, inputs in random_duel(seed, 30, withhold, ruleset):
                h.update(_canon(game.to_json()))
                h.update(_canon({str(k): x for k, x in inputs.items()}))
                for v in (0, 1):
                    h.update(_canon(view(game, v)))
    return h.hexdigest()


def golden() -> str:
    """Digest of the golden playthroughs' transcripts (tests/golden/make_golden.py)."""
    import make_golden

    return hashlib.sha256(_canon(make_golden.transcripts())).hexdigest()


def fingerprint(args: argparse.Namespace) -> dict[str, Any]:
    """Every section's digest and the move times, for the tree already on sys.path."""
    times: dict[str, list[float]] = defaultdict(list)
    digests: dict[str, str] = {}
    for a, b, ruleset in LEVEL_PAIRS:
        n = args.duels if ruleset == "standard" else max(2, args.duels // 4)
        t0 = time.process_time()
        name = f"{a}:{b} {ruleset} x{n}"
        digests[name] = level_duels(a, b, ruleset, n, args.turns, times)
        if args.progress:
            print(f"  {name}: {digests[name][:16]} ({time.process_time() - t0:.1f} s CPU)",
                  file=sys.stderr, flush=True)
    digests[f"playouts x{args.seeds}"] = playouts(args.seeds)
    digests["golden"] = golden()
    return {"digests": digests, "times": {k: v for k, v in times.items()}}


def _summary(ts: list[float]) -> str:
    ts = sorted(ts)
    return (f"mean {1000 * statistics.mean(ts):6.1f}  median {1000 * ts[len(ts) // 2]:6.1f}  "
            f"p90 {1000 * ts[int(len(ts) * 0.9)]:6.1f}  max {1000 * ts[-1]:6.1f} ms "
            f"({len(ts)} moves)")


def _run_child(root: Path, args: argparse.Namespace) -> dict[str, Any]:
    """This script's fingerprint of the tree at `root`, in a fresh process."""
    cmd = [sys.executable, str(Path(__file__).resolve()), "--root", str(root), "--json",
           "--duels", str(args.duels), "--turns", str(args.turns), "--seeds", str(args.seeds)]
    if args.progress:
        cmd.append("--progress")
    env = dict(os.environ, PYTHONHASHSEED=str(args.hashseed))
    out = subprocess.run(cmd, check=True, stdout=subprocess.PIPE, text=True, env=env,
                         stderr=None if args.progress else subprocess.PIPE)
    return dict(json.loads(out.stdout))


def _extract(ref: str, into: Path) -> None:
    """The engine, bench/ and tests/ of commit `ref`, via git archive."""
    top = HERE.parent
    archive = subprocess.run(["git", "-C", str(top), "archive", ref, "engine", "bench",
                              "tests"], check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)


def main() -> int:
    """Print the fingerprint; with --against, compare it with REF's and say what differs."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--against", default="merge-base",
                   help="commit to compare with ('merge-base': git merge-base HEAD main; "
                   "'none': no comparison)")
    p.add_argument("--duels", type=int, default=40, help="duels per level pairing")
    p.add_argument("--turns", type=int, default=20, help="turn cap of the level duels")
    p.add_argument("--seeds", type=int, default=60, help="random playouts per ruleset")
    p.add_argument("--hashseed", type=int, default=3, help="PYTHONHASHSEED of both runs")
    p.add_argument("--progress", action="store_true")
    p.add_argument("--root", help=argparse.SUPPRESS)
    p.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.root:
        _setup(Path(args.root))
        print(json.dumps(fingerprint(args)))
        return 0
    here = _run_child(HERE.parent, args)
    sides = [("this checkout", here)]
    if args.against != "none":
        ref = args.against
        if ref == "merge-base":
            ref = subprocess.run(["git", "-C", str(HERE.parent), "merge-base", "HEAD", "main"],
                                 check=True, capture_output=True, text=True).stdout.strip()
        with tempfile.TemporaryDirectory() as tmp:
            _extract(ref, Path(tmp))
            sides.append((f"{ref[:12]}", _run_child(Path(tmp), args)))
    print(f"load {os.getloadavg()[0]:.1f}; PYTHONHASHSEED={args.hashseed}")
    for label, r in sides:
        print(f"{label}:")
        for name, digest in r["digests"].items():
            print(f"  {name:<34} {digest[:16]}")
        for level, ts in sorted(r["times"].items()):
            print(f"  {level:<8} CPU per move: {_summary(ts)}")
    if len(sides) == 1:
        return 0
    differ = [k for k in here["digests"] if here["digests"][k] != sides[1][1]["digests"].get(k)]
    if differ:
        print("DIFFERENT: " + ", ".join(differ))
        return 1
    print("identical: every section matches")
    return 0


if __name__ == "__main__":
    sys.exit(main())
