"""What one engine call costs at turns 1, 10, 20 and 40 of a duel played by turn codes (CPython;
bench/call_cost.mjs runs the same in Pyodide under Node).

    python3 bench/call_cost.py [--at 1,10,20,40] [--engine DIR] [--repeat 3]

Two players exchange codes through `wavinghands.api` as the page's remote flow does
(web/flows/remote/session.js): each seals orders (`remote_seal`), receives the other's codes
(`remote_receive`), and after each the page asks the session's status (`remote_status`) and
redraws: the view of the session's game (`view`, the game's JSON: each code brings a new game,
so each is a game the engine has not seen) and, on the orders form, a preview (`preview`) and,
while waiting, a draft of the next turn (`remote_draft`, and again for the next gesture picked:
"draft again").  The view as the page asks it for a
game it has not opened (web/engine-session.js: `session_open` then a whole `session_view`) is
timed too ("open+view").  The orders are turn_cost.py's (a shield and a magic missile: the duel
never ends).  For each turn named by `--at`: the median over the calls of that game turn (both
players) of each call's CPU milliseconds.  `--engine DIR` runs another checkout's engine (a
directory holding `wavinghands/`) for a before/after on one machine.  Not a test: its figures
go to bench/results.md.
"""

from __future__ import annotations

import argparse
import importlib
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CALLS = ("view", "open+view", "preview", "remote_draft", "draft again", "remote_seal",
         "remote_receive", "remote_status")


def orders(turn: int) -> dict[str, Any]:
    """A wizard's orders: a shield (P) in the left hand, S then D (a magic missile) in the right."""
    return {"gestures": [["P", "S" if turn % 2 else "D"]]}


class Player:
    """One side of the duel: its session JSON and what its calls cost."""

    def __init__(self, api: Any, clock: Callable[[], float],
                 costs: dict[int, dict[str, list[float]]], session: Any) -> None:
        self.api, self.clock, self.costs, self.session = api, clock, costs, session

    def call(self, name: str, *args: Any) -> dict[str, Any]:
        """The answer of api.`name` on JSON `args`, its CPU time kept under the game's turn
        ("open+view": session_open of the game, then session_view of its handle)."""
        texts = [json.dumps(a) for a in args]
        t0 = self.clock()
        if name == "open+view":
            opened = json.loads(self.api.session_open(texts[0]))
            text = self.api.session_view(json.dumps(opened["session"]), texts[1], "null")
        else:
            text = getattr(self.api, "remote_draft" if name == "draft again" else name)(*texts)
        ms = (self.clock() - t0) * 1000
        answer: dict[str, Any] = json.loads(text)
        if not answer.get("ok"):
            raise SystemExit(f"{name} failed: {answer['error']}")
        game = self.session.get("game") or {}
        self.costs.setdefault(int(game.get("turn", 0)), {}).setdefault(name, []).append(ms)
        if "session" in answer and name.startswith("remote_"):
            self.session = answer["session"]
        return answer

    def redraw(self, status: dict[str, Any]) -> None:
        """What the page asks to draw the duel: the view, then the form's preview or draft."""
        game = self.session["game"]
        if game is None:
            return
        me = self.session["me"]
        self.call("view", game, me)
        self.call("open+view", game, me)
        if status["state"] == "your_input" and status.get("need") == "orders":
            self.call("preview", game, me, orders(game["turn"]))
        elif status["state"] == "waiting":
            self.call("remote_draft", self.session, orders(game["turn"] + 1))
            self.call("draft again", self.session, {"gestures": [["P", "-"]]})  # the next pick


def play(api: Any, turns: int, clock: Callable[[], float]) -> dict[int, dict[str, list[float]]]:
    """Play the duel by codes up to game turn `turns`; per turn, each call's CPU ms."""
    costs: dict[int, dict[str, list[float]]] = {}
    invited = json.loads(api.remote_invite(json.dumps({"name": "Ann"})))
    host = Player(api, clock, costs, invited["session"])
    accepted = json.loads(api.remote_accept(json.dumps(invited["code"]), json.dumps("Bob")))
    guest = Player(api, clock, costs, accepted["session"])
    sides = {0: host, 1: guest}
    inbox: dict[int, list[str]] = {0: [], 1: []}
    for _ in range(20 * turns + 20):
        moved = False
        for w, p in sides.items():
            while inbox[w]:
                got = p.call("remote_receive", p.session, inbox[w].pop(0))
                if got["reply"]:
                    inbox[1 - w].append(got["reply"])
                p.redraw(p.call("remote_status", p.session)["status"])
                moved = True
        for w, p in sides.items():
            status = p.call("remote_status", p.session)["status"]
            if status["state"] == "over":
                raise SystemExit("the duel ended: the bench needs a long one")
            if status["state"] != "your_input":
                continue
            if status["turn"] > turns:
                return costs
            p.redraw(status)
            need = status["need"]
            given = orders(status["turn"]) if need == "orders" else {"decisions": {}}
            sealed = p.call("remote_seal", p.session, given)
            if sealed["code"]:
                inbox[1 - w].append(sealed["code"])
            p.redraw(sealed["status"])
            moved = True
        if not moved:
            raise SystemExit("the exchange stalled")
    return costs


def report(api: Any, at: list[int], clock: Callable[[], float], runtime: str,
           repeat: int = 3) -> str:
    """The table: per checkpoint turn, each call's median CPU ms over `repeat` duels."""
    costs: dict[int, dict[str, list[float]]] = {}
    for _ in range(repeat):
        for turn, calls in play(api, max(at), clock).items():
            for name, ms in calls.items():
                costs.setdefault(turn, {}).setdefault(name, []).extend(ms)
    lines = [f"{runtime}: CPU ms per call (median of the turn's calls, both players, "
             f"{repeat} duels)",
             "turn | " + " | ".join(CALLS)]
    for t in at:
        row = costs.get(t, {})
        lines.append(f"{t:4d} | " + " | ".join(
            f"{statistics.median(row[c]):.2f}" if c in row else "-" for c in CALLS))
    return "\n".join(lines)


def cpu_seconds() -> float:
    """This process's CPU seconds (the machine is shared: wall time would measure its load)."""
    return time.process_time()


def main() -> int:
    """Run the bench and print its table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--at", default="1,10,20,40")
    parser.add_argument("--engine", type=Path, default=ROOT / "engine")
    parser.add_argument("--repeat", type=int, default=3, help="duels played (medians over all)")
    args = parser.parse_args()
    sys.path.insert(0, str(args.engine.resolve()))
    api = importlib.import_module("wavinghands.api")
    at = [int(t) for t in args.at.split(",")]
    print(report(api, at, cpu_seconds, f"python {sys.version.split()[0]}, engine {args.engine}",
                 args.repeat))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
