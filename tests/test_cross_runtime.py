"""Bit-for-bit replay across runtimes: the same random duels must reach the same states in
CPython and in Pyodide.  The digests were computed in CPython; the suite also runs inside
Pyodide (build.py test), where this test proves the dice and every state agree, and names the
first duel and turn where they do not.

tests/data/cross_runtime.json pins, for every reference duel, the digest of each state it goes
through (one per phase resolved).  If a deliberate rules change moves them, say why in the
commit and re-pin from the checkout's root with:
    python3 -c "import sys; sys.path[:0] = ['engine', 'tests']; import test_cross_runtime as t
    t.pin()"
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from wavinghands.model import Game, canonical_json
from wavinghands.playout import random_duel

DUELS = 30  # seeds 0..29
MAX_TURNS = 30
PINNED = Path(__file__).resolve().parent / "data" / "cross_runtime.json"
# sha256 over the canonical JSON of the final state of every reference duel (the digest this
# test compared before the per-turn pins; kept as a one-line summary of them).  Last moved by
# issue 27: the log's events carry their structured fields (events.py); rules states unchanged.
EXPECTED = "b5d9ffe2ba83d0fcfe4d875edaa07bbde05ec30f17c6fe98b87eb9b3cfac1412"

Trace = list[tuple[Game, dict[int, dict[str, Any]]]]


def state_digest(game: Game) -> str:
    """A short digest of one state's canonical JSON."""
    return hashlib.sha256(canonical_json(game.to_json()).encode("utf-8")).hexdigest()[:16]


def play_all() -> dict[int, Trace]:
    """Every reference duel, as (state before, inputs) per phase, the final state last."""
    return {seed: random_duel(seed, max_turns=MAX_TURNS) for seed in range(DUELS)}


def digests(traces: dict[int, Trace]) -> dict[str, list[str]]:
    """Per duel (keyed by seed), the digest of every state it went through."""
    return {str(seed): [state_digest(g) for g, _ in trace] for seed, trace in traces.items()}


def final_digest(traces: dict[int, Trace]) -> str:
    """The summary digest over the final states (EXPECTED)."""
    h = hashlib.sha256()
    for seed in range(DUELS):
        h.update(canonical_json(traces[seed][-1][0].to_json()).encode("utf-8"))
    return h.hexdigest()


def first_divergence(pinned: dict[str, list[str]], traces: dict[int, Trace]) -> str | None:
    """None when every state matches its pin; else a sentence naming the first duel and the
    phase whose resolution first reached a different state (with that phase's inputs)."""
    got = digests(traces)
    for seed in sorted(set(pinned) | set(got), key=int):
        want, have = pinned.get(seed, []), got.get(seed, [])
        for i in range(max(len(want), len(have))):
            if i < len(want) and i < len(have) and want[i] == have[i]:
                continue
            trace = traces.get(int(seed), [])
            if i == 0:
                where = "its starting state"
            else:
                before, inputs = trace[i - 1]
                where = (f"the state after the {before.phase.kind} phase of turn "
                         f"{before.phase.turn} (step {i}; inputs "
                         f"{json.dumps(inputs, sort_keys=True)})")
            if i >= len(want):
                return f"duel seed {seed} goes on past its pinned end: {where} is new"
            if i >= len(have):
                return (f"duel seed {seed} ends after {len(have)} states; "
                        f"{len(want)} are pinned")
            return f"duel seed {seed} first diverges at {where}: {have[i]} != pinned {want[i]}"
    return None


def test_reference_duels_replay_bit_for_bit() -> None:
    pinned = json.loads(PINNED.read_text(encoding="utf-8"))
    assert (pinned["duels"], pinned["max_turns"]) == (DUELS, MAX_TURNS)
    traces = play_all()
    divergence = first_divergence(pinned["digests"], traces)
    assert divergence is None, divergence
    assert final_digest(traces) == EXPECTED


def test_a_divergence_is_reported_with_its_duel_and_turn() -> None:
    # The reporter can fail: one altered pin in the middle of a duel is named exactly.
    traces = {3: random_duel(3, max_turns=6)}
    pinned = digests(traces)
    assert first_divergence(pinned, traces) is None
    longer = {"3": [*pinned["3"], "0" * 16]}
    assert (first_divergence(longer, traces) or "").startswith("duel seed 3 ends after")
    step = len(pinned["3"]) // 2
    before = traces[3][step - 1][0]
    pinned["3"][step] = "0" * 16
    message = first_divergence(pinned, traces)
    assert message is not None
    assert message.startswith(f"duel seed 3 first diverges at the state after the "
                              f"{before.phase.kind} phase of turn {before.phase.turn} "
                              f"(step {step}; inputs ")
    assert message.endswith(f"!= pinned {'0' * 16}")


def pin() -> None:
    """Write tests/data/cross_runtime.json from this runtime (one line per duel)."""
    table = digests(play_all())
    rows = ",\n".join(f'  "{seed}": {json.dumps(ds)}' for seed, ds in table.items())
    head = f'"duels": {DUELS}, "max_turns": {MAX_TURNS}'
    PINNED.write_text(f'{{{head}, "digests": {{\n{rows}\n}}}}\n', encoding="utf-8")
    print(f"pinned {sum(len(ds) for ds in table.values())} states in {PINNED}")
