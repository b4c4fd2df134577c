"""Command line: `python -m wavinghands replay RECORD.json [--json]` and `... spells`."""

from __future__ import annotations

import argparse
import json
import sys
from itertools import pairwise
from typing import Any

from .model import DECISION, TIME_STOP, Game
from .record import load_record, replay_imported
from .rulesets import STANDARD_NAME, Ruleset, UnknownRuleset, check_known, find_ruleset
from .spelltext import spell_reference
from .view import view


def _rows(game: Game, index: int) -> list[str]:
    return [f"{r.left if r.left != '-' else ' '}{r.right if r.right != '-' else ' '}"
            for r in game.wizard(index).history]


def account(states: list[Game]) -> str:
    """A readable turn-by-turn account of a replayed game (the full, referee's view)."""
    final = states[-1]
    names = final.names
    lines = [f"{names[0]} v {names[1]} — ruleset {final.ruleset.name}, seed {final.seed}", ""]
    for before, after in pairwise(states):
        phase = before.phase
        if phase.kind == DECISION:
            lines.append(f"Turn {phase.turn} decisions:")
        else:
            label = "time-stopped turn" if phase.kind == TIME_STOP else "Turn"
            lines.append(f"{label} {phase.turn}:")
        entry = after.record[-1]
        for i, inp in entry.inputs:
            if "gestures" in inp:
                sets = "  then  ".join(f"L {g[0]}  R {g[1]}" for g in inp["gestures"])
                lines.append(f"  {names[i]:<12} {sets}")
            else:
                lines.append(f"  {names[i]:<12} decides {inp.get('decisions')}")
        new_events = after.log[len(before.log):]
        for e in new_events:
            lines.append(f"    {e.text}")
        if after.phase.kind != "decision":
            status = ", ".join(f"{w.name} {w.damage} damage{'' if w.alive else ' (dead)'}"
                               for w in after.wizards)
            lines.append(f"  -> {status}")
    if final.result is not None:
        who = "draw" if final.result.winner is None else f"{names[final.result.winner]} wins"
        lines.append(f"\nResult: {who} — {final.result.how}")
    return "\n".join(lines)


def summary(states: list[Game]) -> dict[str, Any]:
    """Per turn each wizard's damage and whether he lives, then the result."""
    turns = []
    for before, after in pairwise(states):
        if after.phase.kind == "decision":
            continue
        turns.append({"turn": before.phase.turn, "kind": before.phase.kind
                      if before.phase.kind != "decision" else before.phase.pending_kind,
                      "wizards": [{"name": w.name, "damage": w.damage, "alive": w.alive}
                                  for w in after.wizards]})
    final = states[-1]
    result = None if final.result is None else {
        "winner": None if final.result.winner is None else final.names[final.result.winner],
        "draw": final.result.winner is None, "how": final.result.how}
    return {"turns": turns, "result": result}


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the exit status."""
    p = argparse.ArgumentParser(prog="python -m wavinghands", description=__doc__)
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("replay", help="replay a game record")
    r.add_argument("record")
    r.add_argument("--json", action="store_true", help="per-turn damage and the result as JSON")
    r.add_argument("--view", type=int, choices=(0, 1), help="print the final view of a wizard")
    sp = sub.add_parser("spells", help="print the spell table")
    sp.add_argument("--ruleset", default=STANDARD_NAME, help="whose table (default: standard)")
    args = p.parse_args(argv)
    if args.cmd == "spells":
        try:
            ref = spell_reference(find_ruleset(args.ruleset))
        except UnknownRuleset as e:
            print(e, file=sys.stderr)
            return 2
        print(f"{'Spell':<22} {'Gestures':<26} {'Category':<12} Usual target")
        for s in ref["spells"]:
            seqs = " or ".join(s["sequences"])
            once = " (+ once per battle)" if s["once_per_battle"] else ""
            print(f"{s['name']:<22} {seqs:<26} {s['category']:<12} {s['usual_target']}{once}")
        print(f"{'Surrender (not a spell)':<22} {'(p':<26}")
        return 0
    try:
        with open(args.record, encoding="utf-8") as fh:
            rec = load_record(fh.read())
        if isinstance(rec, dict) and isinstance(rec.get("ruleset"), dict):
            check_known(Ruleset.from_json(rec["ruleset"]), "this record's duel")
        states = replay_imported(rec)
    except (OSError, UnicodeDecodeError, ValueError) as e:  # RecordError, UnknownRuleset, ...
        print(f"cannot replay {args.record}: {e}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(summary(states), indent=1))
    elif args.view is not None:
        print(json.dumps(view(states[-1], args.view), indent=1))
    else:
        print(account(states))
    return 0


if __name__ == "__main__":
    sys.exit(main())
