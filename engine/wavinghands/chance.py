"""Derived randomness: every die is a hash of the game seed, the turn, every wizard's nonce and
a label, so a game replays bit-for-bit anywhere and no player alone decides a roll.

Nothing here touches the `random` module's global state.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping


def roll(seed: str, turn: int, nonces: Mapping[int, str], label: str, sides: int,
         explicit: Mapping[str, int] | None = None, wizards: int = 2) -> int:
    """A number in 1..sides for this (turn, label) from every one of the game's `wizards`'
    nonces; an explicit outcome wins if the record has one.

    The hash gives 8 bytes; reducing them modulo `sides` (at most 12 here) biases a face by under
    one part in 10**17, far below anything observable.
    """
    key = f"{turn}:{label}"
    if explicit is not None and key in explicit:
        value = explicit[key]
        if not 1 <= value <= sides:
            raise ValueError(f"explicit die {key} = {value} is outside 1..{sides}")
        return value
    # Every wizard's nonce in index order (a duel's two; a melee's N: docs/protocol.md)
    material = "|".join([seed, str(turn), *(nonces.get(i, "") for i in range(wizards)), label])
    digest = hashlib.sha256(material.encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") % sides + 1
