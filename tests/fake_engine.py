"""A small stand-in engine with the real engine's JSON shapes, for protocol tests.

Its "rules" exist only to reach every protocol path often: a left-hand F asks the gesturer for a
decision after the reveal (both at once when both do it), (S,S) gives the gesturer a
time-stopped extra turn, (W,W) hastens (two gesture sets for two turns), stabs and dice-driven
D gestures do damage, (P,P) surrenders.  Dice come from the seed and both nonces, like chance.py.
"""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Mapping
from typing import Any

from wavinghands.remote.codes import GESTURE_ALPHABET
from wavinghands.remote.engine import PhaseInfo, phase_from_json

MAX_TURNS = 40


class FakeEngine:
    """Implements session.Engine."""

    def new_game(self, names: tuple[str, str], ruleset: dict[str, Any], seed: str
                 ) -> dict[str, Any]:
        return {"names": list(names), "ruleset": ruleset, "seed": seed, "turn": 1,
                "hp": [8, 8], "haste": [0, 0], "paralysed": [None, None], "result": None,
                "pending_ts": [], "record": [], "monsters": {},
                "phase": {"kind": "orders", "turn": 1, "actors": [0, 1], "decisions": []}}

    def phase(self, game: dict[str, Any]) -> PhaseInfo:
        return phase_from_json(game["phase"])

    def digest(self, game: dict[str, Any]) -> bytes:
        text = json.dumps(game, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).digest()

    def problems(self, game: dict[str, Any], wizard: int, x: dict[str, Any]
                 ) -> list[dict[str, str]]:
        ph = game["phase"]
        if wizard not in ph["actors"]:
            return [{"code": "not-acting", "message": "not your phase", "field": ""}]
        if ph["kind"] == "decision":
            mine = {d["id"]: d for d in ph["decisions"] if d["wizard"] == wizard}
            ans = x.get("decisions") if set(x) <= {"decisions", "nonce"} else None
            if not isinstance(ans, dict) or set(ans) != set(mine):
                return [{"code": "bad-decisions", "message": "answer each decision",
                         "field": "decisions"}]
            for k, v in ans.items():
                if v not in mine[k]["options"]:
                    return [{"code": "bad-choice", "message": f"{v!r} is not an option",
                             "field": k}]
            return []
        sets = x.get("gestures")
        need = 2 if game["haste"][wizard] and ph["kind"] == "orders" else 1
        if not isinstance(sets, list) or len(sets) != need:
            return [{"code": "bad-gestures", "message": f"write {need} gesture set(s)",
                     "field": "gestures"}]
        for pair in sets:
            if not (isinstance(pair, list) and len(pair) == 2
                    and all(isinstance(g, str) and len(g) == 1 and g in GESTURE_ALPHABET
                            for g in pair)):
                return [{"code": "bad-gesture", "message": "bad gesture", "field": "gestures"}]
            if pair == [">", ">"]:
                return [{"code": "two-stabs", "message": "one knife", "field": "gestures"}]
        para = game["paralysed"][wizard]
        if para is not None and sets[0][0 if para == "L" else 1] != "F":
            return [{"code": "paralysed", "message": "paralysed hand makes F",
                     "field": "gestures"}]
        for mid in x.get("monsters", {}) or {}:
            if game["monsters"].get(mid) != wizard:
                return [{"code": "not-yours", "message": f"{mid} is not yours",
                         "field": "monsters"}]
        if set(x) - {"gestures", "casts", "stab", "monsters", "charm", "release", "nonce"}:
            return [{"code": "unknown-field", "message": "unknown field", "field": ""}]
        return []

    def step(self, game: dict[str, Any], inputs: Mapping[int, dict[str, Any]]
             ) -> tuple[dict[str, Any], dict[int, list[Any]]]:
        g = copy.deepcopy(game)
        ph = g["phase"]
        if sorted(inputs) != sorted(ph["actors"]):
            raise ValueError("inputs for the wrong wizards")
        for w, x in inputs.items():
            if self.problems(game, w, x):
                raise ValueError(f"illegal input from W{w}")
        g["record"].append({"kind": ph["kind"], "turn": ph["turn"],
                            "inputs": {str(k): v for k, v in sorted(inputs.items())}})
        events: dict[int, list[Any]] = {0: [], 1: []}
        if ph["kind"] == "decision":
            for w, x in inputs.items():
                for _did, hand in x["decisions"].items():
                    g["paralysed"][1 - w] = hand
                    events[w].append(f"you paralyse the {hand} hand")
                    events[1 - w].append(f"your {hand} hand is paralysed")
            self._next(g, events)
            return g, events
        nonces = {w: str(x.get("nonce", "")) for w, x in inputs.items()}
        material = "|".join([g["seed"], str(ph["turn"]), nonces.get(0, ""),
                             nonces.get(1, "")])
        dice = hashlib.sha256(material.encode()).digest()
        decide: list[int] = []
        for w, x in sorted(inputs.items()):
            sets = x["gestures"]
            if ph["kind"] == "orders" and g["haste"][w]:
                g["haste"][w] -= 1
            g["paralysed"][w] = None
            for k, (left, right) in enumerate(sets):
                hits = [left, right].count(">") + sum(
                    1 for i, h in enumerate((left, right)) if h == "D" and dice[2 * w + i + k] & 1)
                if hits:
                    g["hp"][1 - w] -= hits
                    events[0].append(f"W{w} hits W{1 - w} for {hits}")
                    events[1].append(f"W{w} hits W{1 - w} for {hits}")
                if (left, right) == ("P", "P"):
                    g["result"] = {"winner": 1 - w, "how": "surrender"}
                if (left, right) == ("W", "W") and ph["kind"] == "orders":
                    g["haste"][w] = 2
                if (left, right) == ("C", "C"):
                    mid = f"M{len(g['monsters']) + 1}"
                    g["monsters"][mid] = w
                if left == "F" and w not in decide:
                    decide.append(w)
                if (left, right) == ("S", "S") and ph["kind"] == "orders":
                    g["pending_ts"].append(w)
            for mid, tgt in (x.get("monsters") or {}).items():
                if tgt in ("W0", "W1"):
                    g["hp"][int(tgt[1])] -= 1
                    events[0].append(f"{mid} hits {tgt}")
                    events[1].append(f"{mid} hits {tgt}")
        if decide and g["result"] is None and min(g["hp"]) > 0:
            g["phase"] = {"kind": "decision", "turn": ph["turn"], "actors": sorted(decide),
                          "decisions": [{"id": f"paralysis:{w}", "kind": "paralysis",
                                         "wizard": w, "options": ["L", "R"],
                                         "prompt": "which hand?"} for w in sorted(decide)]}
            return g, events
        self._next(g, events)
        return g, events

    def _next(self, g: dict[str, Any], events: dict[int, list[Any]]) -> None:
        if g["result"] is None and min(g["hp"]) <= 0:
            dead = [w for w in (0, 1) if g["hp"][w] <= 0]
            g["result"] = {"winner": None if len(dead) == 2 else 1 - dead[0], "how": "death"}
        g["turn"] += 1
        if g["result"] is not None or g["turn"] > MAX_TURNS:
            g["result"] = g["result"] or {"winner": None, "how": "time"}
            g["phase"] = {"kind": "over", "turn": g["turn"], "actors": [], "decisions": []}
            return
        if g["pending_ts"]:
            w = g["pending_ts"].pop(0)
            g["phase"] = {"kind": "time_stop", "turn": g["turn"], "actors": [w],
                          "decisions": []}
            return
        g["phase"] = {"kind": "orders", "turn": g["turn"], "actors": [0, 1], "decisions": []}
