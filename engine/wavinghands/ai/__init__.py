"""The computer opponent: sampled joint-move search over what its wizard may know.

Its input is `view(game, wizard)` (read as an `Observation`) and its own random stream, derived
from the game's seed, the turn, the phase and the wizard, so a duel against it replays bit for
bit; it never reads the `Game` itself.  Levels (novice, fair, strong) are search budgets.

Layout (imports point down only): levels, facts -> observation -> world, evaluate ->
candidates -> decisions, search -> this module.
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

from ..model import Game
from ..view import view
from .decisions import decide
from .levels import DEFAULT_LEVEL, LEVELS, Deadline, Level, UnknownLevel, Work, find_level
from .melee import Projection, aim_at_focus, focus_of, in_melee, legal_or_less, unanswered
from .observation import Observation
from .search import Choice, search

JSON = dict[str, Any]
NOTHING = "-"


def stream(seed: str, turn: int, phase: str, wizard: int, level: str) -> random.Random:
    """The opponent's own random stream for one phase: a hash, never the global generator."""
    digest = hashlib.sha256(f"ai|{seed}|{turn}|{phase}|{wizard}|{level}".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def _fallback(obs: Observation, focus: int | None = None) -> JSON:
    """Orders that are always legal: what the rules force, nothing elsewhere (in a melee, a
    forced stab aimed at the `focus`)."""
    sets = int(obs.constraint("sets") or 1)
    hands = [(obs.constraint(h) or {}).get("forced") or NOTHING for h in ("left", "right")]
    d: JSON = {"gestures": [list(hands) for _ in range(sets)]}
    if obs.constraint("charm_target") is not None:
        d["charm"] = {"gesture": NOTHING}
    if focus is not None and ">" in hands:
        d["stab"] = f"W{focus}"
    return d


def advise(obs: Observation, level: Level, rng: random.Random,
           deadline: Deadline | None = None) -> Choice:
    """The move (and one line of why) this level plays for the wizard of `obs`; `deadline`
    (the caller's: it says when time is up) cuts the search short, which the work says."""
    work = Work(level.work, deadline)
    if obs.phase == "decision":
        return Choice(decide(obs, rng), "Answers the question the rules ask.", work)
    choice = search(obs, level, rng, work)
    if choice is None:
        return Choice(_fallback(obs), "Only the gestures the rules force.", work)
    return choice


def play(v: JSON, level: Level, rng: random.Random,
         deadline: Deadline | None = None) -> Choice:
    """The move for the wizard of the view `v`: a duel's as `advise`; a melee's by the duel's
    search against one enemy at a time (ai/melee.py), aimed and checked there."""
    if not in_melee(v):
        return advise(Observation.from_view(v), level, rng, deadline)
    full = Observation.from_view(v)
    focus = focus_of(v)
    projection = Projection(v, focus) if focus is not None else None
    if full.phase == "decision":
        answers = unanswered(v, projection)
        work = None
        if projection is not None and projection.view["phase"]["decisions"]:
            sub = advise(Observation.from_view(projection.view), level, rng, deadline)
            answers.update(projection.orders_back(sub.orders)["decisions"])
            work = sub.work
        return Choice({"decisions": answers}, "Answers the question the rules ask.", work)
    if projection is None or focus is None:
        return Choice(_fallback(full), "Only the gestures the rules force.", None)
    sub = advise(Observation.from_view(projection.view), level, rng, deadline)
    aimed = aim_at_focus(full, projection.orders_back(sub.orders), focus)
    orders = legal_or_less(full, aimed, rng, lambda: _fallback(full, focus))
    why = f"{sub.why} (fighting {v['names'][focus]} this turn)"
    return Choice(orders, why, sub.work)


def think(game: Game, v: int, level: str = DEFAULT_LEVEL,
          deadline: Deadline | None = None) -> Choice:
    """The computer's move for wizard v in the current phase (always legal) with what its
    search spent; a `deadline` (a callable saying when time is up) may cut it, and only then
    does the move depend on the machine."""
    seen = view(game, v)
    lv = find_level(level)
    phase = str(seen["phase"]["kind"])
    return play(seen, lv, stream(game.seed, int(seen["turn"]), phase, v, lv.name), deadline)


def input_from_view(v: JSON, seed: str, level: str = DEFAULT_LEVEL) -> JSON:
    """The opponent's input for the phase `v` (a view) shows; `seed` feeds its own stream."""
    lv = find_level(level)
    rng = stream(seed, int(v["turn"]), str(v["phase"]["kind"]), int(v["wizard"]), lv.name)
    return play(v, lv, rng).orders


def choose_input(game: Game, v: int, level: str = DEFAULT_LEVEL) -> JSON:
    """The computer's input for wizard v in the current phase (always legal)."""
    return input_from_view(view(game, v), game.seed, level)


def coach(game: Game, v: int) -> Choice:
    """What the strong opponent would play in wizard v's place, with one line of why."""
    seen = view(game, v)
    lv = find_level("strong")
    return play(seen, lv, stream(game.seed, int(seen["turn"]), "coach", v, lv.name))


__all__ = ["DEFAULT_LEVEL", "LEVELS", "Choice", "Deadline", "Level", "Observation",
           "UnknownLevel", "Work", "advise", "choose_input", "coach", "find_level",
           "input_from_view", "play", "stream", "think"]
