"""Plays whole duels through turn codes, for tests and benchmarks.

Two sessions exchange codes as two people would; `policy` writes each input.  Randomness comes
from a `random.Random` instance (never the module's global state), so a seed replays a duel.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from wavinghands.remote import codes, session
from wavinghands.remote.engine import Engine, PhaseInfo
from wavinghands.remote.session import Session

Policy = Callable[[Engine, dict[str, Any], int, PhaseInfo, random.Random], dict[str, Any]]


@dataclass
class Exchange:
    """A finished (or stopped) duel: both sessions and every code with its kind."""

    host: Session
    guest: Session
    codes: list[tuple[str, str]] = field(default_factory=list)  # (kind, code)
    direct_inputs: list[tuple[PhaseInfo, dict[int, dict[str, Any]]]] = field(
        default_factory=list)


def code_kind(code: str) -> str:
    """A label for benchmarks: invite, accept, or what a turn message carries."""
    m = codes.decode_message(code, codes.ROUTING)  # any ruleset's code: no table is needed
    if m.type is codes.MsgType.INVITE:
        return "invite"
    if m.type is codes.MsgType.ACCEPT:
        return "accept"
    parts = []
    if m.reveal is not None:
        parts.append("reveal")
    if m.solo:
        parts.append("decision")
    if isinstance(m.final, codes.Commit):
        parts.append("commit")
    elif isinstance(m.final, codes.Sealed):
        parts.append("nonce-only" if m.final.input == {} else "plain")
    return "+".join(parts) or "empty"


def _legal(eng: Engine, game: dict[str, Any], me: int, x: dict[str, Any],
           rng: random.Random) -> bool:
    found = eng.problems(game, me, x)
    if any(p.get("code") == "charm-missing" for p in found):
        x["charm"] = {"gesture": rng.choice("FPSWDC>-")}  # I control one of the opponent's hands
        found = eng.problems(game, me, x)
    return not found


def random_policy(eng: Engine, game: dict[str, Any], me: int, ph: PhaseInfo,
                  rng: random.Random) -> dict[str, Any]:
    """Random legal input: random gestures (retrying until the engine accepts), random answers."""
    if ph.kind == "decision":
        return {"decisions": {d.id: rng.choice(d.options) for d in ph.decisions
                              if d.wizard == me}}
    for _ in range(60):
        nsets = rng.choice((1, 2))
        x: dict[str, Any] = {"gestures": [[rng.choice("FPSWDC>-"), rng.choice("FPSWDC>-")]
                                          for _ in range(nsets)]}
        if rng.random() < 0.2:
            x["stab"] = f"W{1 - me}"
        if _legal(eng, game, me, x, rng):
            return x
        x.pop("stab", None)
        if _legal(eng, game, me, x, rng):
            return x
    # Forced gestures (amnesia, paralysis, fear) leave few legal orders: try them all.
    pairs = [[a, b] for a in "FPSWDC>-" for b in "FPSWDC>-"]
    rng.shuffle(pairs)
    for nsets in (1, 2):
        for pair in pairs:
            x = {"gestures": [pair] * nsets}
            if _legal(eng, game, me, x, rng):
                return x
    raise RuntimeError("no legal random orders found")


def rand_from(rng: random.Random) -> Callable[[int], bytes]:
    """A deterministic byte source for the sessions' secrets."""
    return rng.randbytes


def reloaded(s: Session) -> Session:
    """The session as the page gets it back from storage after a reload."""
    return Session.from_json(json.loads(json.dumps(s.to_json())))


def play(eng: Engine, rng: random.Random, policy: Policy = random_policy,
         max_messages: int = 400, on_code: Callable[[str, Session], None] | None = None,
         reload: bool = False, release: bool = False,
         rules: dict[str, Any] | None = None) -> Exchange:
    """Play one duel entirely through codes, under `rules` (the invitation's ruleset object;
    default the standard game); returns both sessions and the codes.

    `on_code(code, receiver)` sees every code before it is delivered; `reload` round-trips the
    sessions through JSON between all operations, as a page reload would; `release` sends every
    owed reveal alone as soon as it can go (live play: docs/protocol.md).
    """
    rand = rand_from(rng)
    out = session.create_invitation("Alice", rules or {}, rand)
    host = out.session
    assert out.code is not None
    ex = Exchange(host, host)
    ex.codes.append(("invite", out.code))
    guest = session.accept_invitation(out.code, "Bob", eng)
    sides = {0: host, 1: guest}
    inbox: dict[int, list[str]] = {0: [], 1: []}

    def deliver(code: str, to: int) -> None:
        ex.codes.append((code_kind(code), code))
        inbox[to].append(code)

    def released(w: int) -> None:
        if release:
            r = session.release(sides[w], eng)
            sides[w] = r.session
            if r.code:
                deliver(r.code, 1 - w)

    for _ in range(max_messages):
        progressed = False
        for w in (0, 1):
            while inbox[w]:
                code = inbox[w].pop(0)
                if on_code is not None:
                    on_code(code, sides[w])
                if reload:
                    sides[w] = reloaded(sides[w])
                r = session.receive(sides[w], code, eng, rand)
                sides[w] = r.session
                if r.code:
                    deliver(r.code, 1 - w)
                released(w)
                progressed = True
        for w in (0, 1):
            s = sides[w]
            st = session.status(s, eng)
            if st["state"] == "your_input":
                assert s.game is not None
                ph = eng.phase(s.game)
                x = policy(eng, s.game, w, ph, rng)
                r = session.seal(reloaded(s) if reload else s, x, eng, rand)
                sides[w] = r.session
                if r.code:
                    deliver(r.code, 1 - w)
                released(w)
                progressed = True
        if not progressed:
            break
    ex.host, ex.guest = sides[0], sides[1]
    return ex
