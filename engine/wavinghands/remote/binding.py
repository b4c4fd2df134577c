"""A live connection is bound to one duel (docs/protocol.md, threat model: issue 12, finding 1).

A code that arrives over a live connection comes from whoever is at the other end of it, and the
player made that connection for one duel.  So a live code is used only for that duel: routing it
by its own game id to any duel saved in the browser would let the opponent of one duel push the
codes of another (its invitation, its turn codes) and point the connection, and with it the
player's next codes for that other duel, at themselves.  The one exception is the invitation of a
*new* duel, which may be offered to the player (who accepts it or not) when the connection
carries no duel yet (it was made from the start screen) or the duel it carries is over (a
rematch).  Everything else is refused with `OtherDuel` before any session is looked at, so no
duel and no binding changes.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..model import OVER
from .code_errors import OtherDuel
from .engine import Engine, default_engine
from .session import Session, describe

ROUTE_DUEL = "duel"  # apply the code to the bound duel's session (`session.receive`)
ROUTE_INVITATION = "invitation"  # offer the player a new duel's invitation


def _free_for_a_new_duel(bound: Session | None, eng: Engine) -> bool:
    # Unbound (made from the start screen, waiting for an invitation), or its duel has ended.
    if bound is None:
        return True
    return bound.game is not None and eng.phase(bound.game).kind == OVER


def route_live(bound: Session | None, text: str, saved: Iterable[str],
               engine: Engine | None = None) -> dict[str, Any]:
    """Where a code that came over a live connection may go: {"route": "duel" | "invitation",
    "code": describe(text)}; raises OtherDuel for a code of any other duel (`saved`: the game ids,
    in hex, of every remote duel saved in this browser) and the code's own error if it is bad."""
    info = describe(text)
    if bound is not None and info["game_id"] == bound.game_id.hex():
        return {"route": ROUTE_DUEL, "code": info}
    known = info["game_id"] in set(saved)
    eng = engine or default_engine()
    if info["kind"] == "invite" and not known and _free_for_a_new_duel(bound, eng):
        return {"route": ROUTE_INVITATION, "code": info}
    if bound is None:
        raise OtherDuel("a code for a duel this live connection was not made for came over it (the "
                        "connection was made from the start screen, for a new duel's invitation); "
                        "it was ignored. To play a saved duel live, paste the connection code into "
                        "that duel's own box")
    opp = bound.names[bound.other] or "your opponent"
    if info["kind"] == "invite" and not known:
        why = " (a new duel's invitation can come this way only once this duel is over)"
    else:
        why = ""
    raise OtherDuel(f"{opp} sent a code for another duel over the live connection; it was "
                    f"ignored{why}. This connection carries only your duel with {opp}; every "
                    "other duel goes on as it was")


__all__ = ["ROUTE_DUEL", "ROUTE_INVITATION", "route_live"]
