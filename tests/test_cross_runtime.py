"""Bit-for-bit replay across runtimes: the same random duels must reach the same states in
CPython and in Pyodide.  The digest below was computed in CPython; the suite also runs inside
Pyodide (build.py test), where this test proves the dice and every state agree."""

from __future__ import annotations

import hashlib

from wavinghands.model import canonical_json
from wavinghands.playout import random_duel

# sha256 over the canonical JSON of the final state of random duels with seeds 0..29.  If a
# deliberate rules change moves it, print the new value with:
#   python3 -c "import sys; sys.path[:0]=['engine','tests']; import test_cross_runtime as t; \
#               print(t.digest())"
# Last moved by issue 16: the summons line says "an ogre" (the log is part of the state).
EXPECTED = "0422a7237fefd1f5e8d9f5101ca48affb35ec95901b85ecbed9d678bd692bffc"


def digest() -> str:
    """The digest of the reference duels in this runtime."""
    h = hashlib.sha256()
    for seed in range(30):
        final = random_duel(seed, max_turns=30)[-1][0]
        h.update(canonical_json(final.to_json()).encode("utf-8"))
    return h.hexdigest()


def test_reference_duels_replay_bit_for_bit() -> None:
    assert digest() == EXPECTED
