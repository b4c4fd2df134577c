"""The computer opponent sees only its observation (issues 10 and 13).

Two states that differ only in what a wizard may not know (the enemy's hidden gestures, banked
spell, sequence start and once-per-battle lightning; while blind, the enemy's damage,
enchantments and unseen monsters; enchantments cast out of sight; the enemy's pending orders and
nonces; log lines the wizard did not witness) must give that wizard the same view and the same
computer input, in every phase: orders, decisions and time stops.

The default run checks the states of 25 random duels (150 under `build.py test --deep`,
tests/sizes.py); WH_AI_FAIRNESS_DUELS=2000 (and WH_AI_FAIRNESS_LEVELS=novice,fair,strong) makes it
a soak.
"""

from __future__ import annotations

import os
import random
from collections import Counter
from dataclasses import replace
from typing import Any, cast

from sizes import size

from wavinghands.ai import LEVELS, choose_input
from wavinghands.duel import parse_input
from wavinghands.legal import input_problems
from wavinghands.model import Effect, Game, Wizard
from wavinghands.playout import random_duel
from wavinghands.spells import EffectKind, all_spells
from wavinghands.view import view, viewer_blind

# Random duels whose states are checked (tests/sizes.py: 25 by default, 150 under --deep, 25 in
# Pyodide; the COVERAGE duels below are always among them, so every kind of hidden difference
# and every phase is met).
DUELS = int(os.environ.get("WH_AI_FAIRNESS_DUELS", size(25, deep=150, pyodide=25)))
LEVEL_NAMES = os.environ.get("WH_AI_FAIRNESS_LEVELS", "novice").split(",")
GESTURES = "FPSWDC>-"
# Duels (as `seed` below) known to reach a blind wizard, a time stop and a decision, so that even
# a short run (inside Pyodide) meets every kind of hidden difference and every phase.
COVERAGE = (105, 116, 0, 1)


def _nonce(rng: random.Random) -> str:
    return f"{rng.getrandbits(64):016x}"


def _alter_input(raw: Any, rng: random.Random) -> Any:
    """The same input with a different nonce (what the enemy's secret part may be)."""
    if isinstance(raw, dict) and "gestures" in raw:
        return dict(raw, nonce=_nonce(rng))
    return raw


def _alter_effect(e: Effect, rng: random.Random) -> Effect:
    end = None if e.end is None else e.end + rng.randint(0, 3)
    return replace(e, end=end)


def hide_differently(game: Game, v: int, rng: random.Random) -> tuple[Game, list[str]]:
    """`game` with everything wizard v may not know drawn afresh; also what was changed."""
    changed: list[str] = []
    o: Wizard = game.wizard(1 - v)
    rows = []
    for r in o.history:
        if r.hidden_from_opponent:
            r = replace(r, left=rng.choice(GESTURES), right=rng.choice(GESTURES))
            changed.append("hidden gestures")
        rows.append(r)
    spells = [s.key for s in all_spells()]
    blind = viewer_blind(game, v)
    effects = []
    for e in o.effects:
        if blind or v not in e.known_to:
            changed.append("unseen effect")
            if rng.random() < 0.5:
                continue  # gone
            e = _alter_effect(e, rng)
        effects.append(e)
    if blind or rng.random() < 0.3:
        # any spell's key as its kind: the viewer cannot know it, whether or not it is one
        kind = cast(EffectKind, rng.choice(spells))
        effects.append(Effect(kind, o.own_turns + 1, o.own_turns + 3, known_to=(1 - v,)))
        changed.append("secret effect")
    o2 = replace(o, history=tuple(rows), effects=tuple(effects),
                 sequence_start=rng.randint(0, len(o.history)),
                 short_lightning_used=rng.random() < 0.5,
                 banked=None if rng.random() < 0.5 else
                 replace(o.banked, spell=rng.choice(spells)) if o.banked is not None else None)
    if blind:
        o2 = replace(o2, damage=rng.randint(0, 14) if o.alive else o.damage)
        changed.append("damage while blind")
    altered = game.with_wizard(o2)
    monsters = []
    for m in altered.monsters:
        if m.alive and v not in m.known_to and blind:
            m = replace(m, damage=rng.randint(0, max(0, m.toughness - 1)))
            changed.append("unseen monster")
        monsters.append(m)
    phase = altered.phase
    if phase.pending:
        phase = replace(phase, pending=tuple((k, _alter_input(x, rng) if k != v else x)
                                             for k, x in phase.pending))
    record = tuple(replace(r, inputs=tuple((k, _alter_input(x, rng) if k != v else x)
                                           for k, x in r.inputs)) for r in altered.record)
    log = tuple(e if v in e.visible_to else replace(e, text=e.text + " (unseen)")
                for e in altered.log)
    return replace(altered, monsters=tuple(monsters), phase=phase, record=record,
                   log=log), changed


def _states(duels: int) -> list[tuple[Game, int, str]]:
    """(state, acting wizard, level) samples of random duels: every decision and time-stop
    phase, and one orders phase a duel, preferring one where the wizard is blind, then one
    where some enemy gestures are hidden from him."""
    out = []
    for seed in sorted(set(range(duels)) | set(COVERAGE)):
        history = random_duel(seed * 7 + 3, max_turns=20)
        level = LEVEL_NAMES[seed % len(LEVEL_NAMES)]
        ranked = []
        for i, (game, _) in enumerate(history[:-1]):
            for v in game.phase.actors:
                if game.phase.kind in ("decision", "time_stop"):
                    out.append((game, v, level))
                elif game.phase.kind == "orders":
                    hidden = any(r.hidden_from_opponent for r in game.wizard(1 - v).history)
                    ranked.append((viewer_blind(game, v), hidden, i == len(history) // 2,
                                   i, v))
        if ranked:
            *_, i, v = max(ranked)
            out.append((history[i][0], v, level))
    return out


def test_the_computer_sees_only_its_view() -> None:
    rng = random.Random(13)
    phases: Counter[str] = Counter()
    hidden: Counter[str] = Counter()
    for game, v, level in _states(DUELS):
        altered, changed = hide_differently(game, v, rng)
        assert view(altered, v) == view(game, v), "the test altered something v can see"
        first = choose_input(game, v, level)
        assert choose_input(altered, v, level) == first, (game.phase.kind, changed)
        assert not input_problems(game, v, parse_input(game, first)), first
        phases[game.phase.kind] += 1
        hidden.update(set(changed))
    # The sample reaches every phase and every kind of hidden difference.
    assert {"orders", "decision", "time_stop"} <= set(phases), phases
    assert {"hidden gestures", "secret effect", "damage while blind"} <= set(hidden), hidden


def test_levels_exist() -> None:
    assert list(LEVELS) == ["novice", "fair", "strong"]
