"""What one turn costs at the engine's boundary as a duel grows (issue 24, bug 10), in CPython.

    python3 bench/turn_cost.py [--turns 300] [--at 5,50,100,200,300] [--engine DIR] [--json]

Plays one fixed duel of `--turns` turns through `wavinghands.api` as the page's local turn loop
does (web/flows/local.js): each turn one `step` and then both wizards' `view`; every phase
(decisions included) is one step.  Both wizards hold a shield up with one hand and cast a magic
missile with the other every second turn, so the duel never ends and every turn writes events,
history rows and notes.  Two ways are measured on the same duel, each call made once per turn,
as the page makes it:

- "json": the calls that take the whole game as JSON (`step(game, inputs)`, `view(game, w)`);
- "session": the calls on a kept duel (`session_step(handle, inputs)`,
  `session_view(handle, w, cursor)`: what changed since the cursor), where the engine has them.

For each turn named by `--at`: the median over the five turns up to it of each call's CPU
milliseconds, and the bytes of JSON that went in and came out.  `--engine DIR` runs another
checkout's engine (a directory holding `wavinghands/`), e.g. `git archive <commit> engine`
unpacked, for a before/after on one machine.  Not a test: its figures go to bench/results.md.
"""

from __future__ import annotations

import argparse
import importlib
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
WINDOW = 5  # turns per median


def orders(turn: int) -> dict[str, Any]:
    """A wizard's orders: a shield (P) in the left hand, S then D (a magic missile) in the right."""
    right = "S" if turn % 2 else "D"
    return {"gestures": [["P", right]], "nonce": f"{turn:032x}"}


def inputs_for(game: dict[str, Any]) -> dict[str, Any]:
    """Every actor's input for the game's current phase (decisions: each one's first option)."""
    phase = game["phase"]
    if phase["kind"] == "decision":
        out: dict[str, Any] = {}
        for d in phase["decisions"]:
            mine = out.setdefault(str(d["wizard"]), {"decisions": {}})["decisions"]
            mine[d["id"]] = d["options"][0]
        return out
    return {str(w): orders(game["turn"]) for w in phase["actors"]}


def timed(fn: Any, *args: str) -> tuple[float, dict[str, Any], int]:
    """(CPU milliseconds, the parsed answer, bytes out) of one call; fails on an error value.
    CPU time, not wall time: the machine is shared, and its load would swamp the figures."""
    t0 = time.process_time()
    text = fn(*args)
    ms = (time.process_time() - t0) * 1000
    answer = json.loads(text)
    if not answer.get("ok"):
        raise SystemExit(f"{fn.__name__} failed: {answer['error']}")
    return ms, answer, len(text.encode())


def play(api: Any, turns: int, sessions: bool) -> dict[int, list[dict[str, float]]]:
    """Play the duel; per game turn, the costs of its phases' calls (one dict per phase)."""
    params = {"names": ["Ann", "Bob"], "seed": "5eed5eed5eed5eed"}
    created = json.loads(api.new_game(json.dumps(params)))
    game_text = json.dumps(created["game"])
    game = created["game"]
    per_turn: dict[int, list[dict[str, float]]] = {}
    handle = ""
    cursors: dict[int, Any] = {0: None, 1: None}
    if sessions:
        opened = json.loads(api.session_open(game_text))
        handle = opened["session"]
    while game["turn"] <= turns:
        if game["phase"]["kind"] == "over":
            raise SystemExit(f"the duel ended at turn {game['turn']}: the bench needs a long one")
        turn = game["turn"]
        given = json.dumps(inputs_for(game))
        row: dict[str, float] = {}
        if sessions:
            ms, answer, out = timed(api.session_step, json.dumps(handle), given)
            row.update(step_ms=ms, step_in=len(given) + len(handle) + 2, step_out=out)
            handle = answer["session"]
            game = apply_game_delta(game, answer["delta"])
            for w in (0, 1):
                args = (json.dumps(handle), json.dumps(w), json.dumps(cursors[w]))
                ms, answer, out = timed(api.session_view, *args)
                row[f"view{w}_ms"], row[f"view{w}_out"] = ms, out
                row[f"view{w}_in"] = sum(len(a) for a in args)
                cursors[w] = answer["cursor"]
        else:
            ms, answer, out = timed(api.step, game_text, given)
            row.update(step_ms=ms, step_in=len(game_text) + len(given), step_out=out)
            game = answer["game"]
            game_text = json.dumps(game)
            for w in (0, 1):
                ms, answer, out = timed(api.view, game_text, str(w))
                row[f"view{w}_ms"], row[f"view{w}_out"] = ms, out
                row[f"view{w}_in"] = len(game_text) + 1
        row["game_bytes"] = len(json.dumps(game))
        per_turn.setdefault(turn, []).append(row)
    return per_turn


def apply_game_delta(game: dict[str, Any], delta: dict[str, Any]) -> dict[str, Any]:
    """The game after a session step, from the one before and the step's delta (as the page
    applies it: web/engine-session.js)."""
    from wavinghands.sessions import apply_game_delta as apply

    result: dict[str, Any] = apply(game, delta)
    return result


def summary(per_turn: dict[int, list[dict[str, float]]], at: list[int]) -> list[dict[str, Any]]:
    """Per checkpoint: medians over the WINDOW turns up to it (a turn's phases summed)."""
    rows = []
    for t in at:
        window = [per_turn[k] for k in range(max(1, t - WINDOW + 1), t + 1) if k in per_turn]
        turns = [{key: sum(p[key] for p in phases) for key in phases[0]} for phases in window]
        med = {key: statistics.median(x[key] for x in turns) for key in turns[0]}
        med["turn_ms"] = med["step_ms"] + med["view0_ms"] + med["view1_ms"]
        rows.append({"turn": t, **med})
    return rows


def main() -> int:
    """Run the bench and print its table (or JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=300)
    parser.add_argument("--at", default="5,50,100,200,300")
    parser.add_argument("--engine", type=Path, default=ROOT / "engine")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    sys.path.insert(0, str(args.engine.resolve()))
    api = importlib.import_module("wavinghands.api")
    at = [int(t) for t in args.at.split(",") if int(t) <= args.turns]
    ways = ["json"] + (["session"] if hasattr(api, "session_step") else [])
    results = {way: summary(play(api, args.turns, way == "session"), at) for way in ways}
    if args.json:
        print(json.dumps(results, indent=1))
        return 0
    print(f"engine: {args.engine}  python {sys.version.split()[0]}  ({args.turns} turns)")
    for way, rows in results.items():
        print(f"\n{way}: CPU ms per call (median of {WINDOW} turns), bytes in/out")
        print("turn | step ms | view ms (w0+w1) | turn ms | step in/out B | view in/out B (w0) "
              "| game B")
        for r in rows:
            print(f"{r['turn']:4d} | {r['step_ms']:7.2f} | {r['view0_ms'] + r['view1_ms']:15.2f} | "
                  f"{r['turn_ms']:7.2f} | {r['step_in']:.0f}/{r['step_out']:.0f} | "
                  f"{r['view0_in']:.0f}/{r['view0_out']:.0f} | {r['game_bytes']:.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
