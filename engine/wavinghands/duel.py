"""The Python-level game API: start a duel, feed it each phase's input, replay a record."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from .errors import WavingHandsError
from .model import MAX_WIZARDS, MIN_WIZARDS, Event, Game, Phase, new_wizards
from .names import check_names
from .orders import DecisionInput, OrderError, Orders, parse_decisions, parse_orders
from .rulesets import Ruleset

_SEED_RE = re.compile(r"^[0-9a-f]{8,128}$")


class SetupError(WavingHandsError):
    """A new game cannot start with these names, seed or options."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message, code=code)


def new_game(names: tuple[str, ...], seed: str, ruleset: Ruleset | None = None,
             dice: Mapping[str, int] | None = None) -> Game:
    """A fresh duel (two names) or melee (three to six), its names normalised
    (names.check_names).  `seed` is lowercase hex; every die also mixes every acting wizard's
    per-turn nonce, so no player alone decides or foresees a roll (docs/protocol.md)."""
    if not MIN_WIZARDS <= len(names) <= MAX_WIZARDS:
        raise SetupError("bad-names", "Give two wizard names for a duel, or three to six for "
                         "a melee.")
    clean = check_names(tuple(names))  # the one canonical form (names.normalise_name)
    if not _SEED_RE.match(seed):
        raise SetupError("bad-seed", "The seed must be 8 to 128 lowercase hex digits.")
    return Game(names=clean, ruleset=ruleset or Ruleset(), seed=seed,
                wizards=new_wizards(clean),
                phase=Phase("orders", 1, tuple(range(len(clean)))),
                dice=tuple(sorted((dice or {}).items())))


def parse_input(game: Game, raw: Any) -> Orders | DecisionInput:
    """Parse one wizard's JSON input for the current phase (orders or decisions)."""
    if game.phase.kind == "decision":
        if isinstance(raw, dict) and "gestures" in raw:
            raise OrderError("want-decision", "this phase wants decisions after the reveal, not "
                             "orders")
        return parse_decisions(raw)
    return parse_orders(raw)


def step(game: Game, inputs: Mapping[int, Any]) -> tuple[Game, tuple[Event, ...]]:
    """Resolve the current phase from JSON inputs keyed by wizard; raises ValueError subclasses."""
    # Imported here, not with this module: resolution (with its attacks, effects and settling)
    # is a third of the engine's import, and a page's cold boot needs none of it before the
    # first step (api.LATE_MODULES; docs/build.md, "Boot").
    from .resolve import resolve

    parsed = {int(k): parse_input(game, v) for k, v in inputs.items()}
    return resolve(game, parsed)
