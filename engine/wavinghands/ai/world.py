"""Determinization: one full duel state consistent with what the opponent has seen.

The search plays joint moves on such states with the engine's own `step`.  What the view
hides is sampled from the opponent's derived random stream: the enemy's hidden gestures, and
(while blind) his damage and enchantments are taken as none.  Everything the viewer knows is
copied exactly.  Effect windows are kept relative to each being's turn count, which is all the
rules read.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any

from ..model import ORDERS, TIME_STOP, Game
from ..recognize import completed
from ..spells import Ask
from .evaluate import PROGRESS, plans
from .facts import Book
from .observation import HIDDEN, Observation, Row, SeenEffect, SeenWizard

JSON = dict[str, Any]
HIDDEN_GESTURES = "FPSWD>-"  # what a hidden hand may have made (C counts only with both hands)


@lru_cache(maxsize=4096)
def once_per_battle_used(rows: tuple[Row, ...], book: Book) -> bool:
    """Whether these (visible) rows ever completed a once-per-battle sequence."""
    for i in range(len(rows)):
        for c in completed(rows, 0, i, table=book.table):
            if c.sequence in book.table[c.spell].once_per_battle:
                return True
    return False


def _source(e: SeenEffect, subject: int, obs: Observation, book: Book) -> int | None:
    """Who cast a hostile enchantment, as far as the rules' constraints need it: a charmed
    hand is written by the charmer, whom the viewer's own constraints name (`charm_target`) only
    when it is he; otherwise it is the enemy, himself charmed when a mirror turned it back."""
    if not (book.knows(e.kind) and book.facts(e.kind).hostile):
        return None
    if book.table[e.kind].asks is Ask.CHARMED_HAND:
        target = obs.constraint("charm_target")
        if target is not None and int(target["wizard"]) == subject:
            return obs.me
        return 1 - obs.me if len(obs.wizards) == 2 else None
    # (a melee's world is drawn only to check orders: who cast it is not known)
    return 1 - subject if len(obs.wizards) == 2 else None


def _effect_json(e: SeenEffect, own_turns: int, subject: int, last: Row | None,
                 book: Book, obs: Observation) -> JSON:
    known = book.knows(e.kind)
    detail = e.detail
    if detail is None:
        # Amnesia repeats the last gestures, which the viewer saw (or guesses).
        repeats = known and book.facts(e.kind).repeats_last
        detail = f"{last[0]}{last[1]}" if repeats and last is not None else ""
    return {"kind": e.kind, "start": own_turns + 1 + e.starts_in,
            "end": None if e.turns_left is None else own_turns + e.turns_left,
            "source": _source(e, subject, obs, book),
            "detail": detail, "permanent": e.permanent,
            "known_to": list(range(len(obs.wizards)))}


def _wizard_json(w: SeenWizard, me: int, rng: random.Random, book: Book,
                 obs: Observation) -> JSON:
    rows: list[Row] = []
    for left, right in w.rows:
        rows.append((rng.choice(HIDDEN_GESTURES) if left == HIDDEN else left,
                     rng.choice(HIDDEN_GESTURES) if right == HIDDEN else right))
    own = w.index == me
    if not own and any(HIDDEN in r for r in w.rows):
        rows = _wary(w.rows, rows, rng, book)
    own_turns = len(rows)
    last = rows[-1] if rows else None
    return {
        "index": w.index, "name": w.name, "damage": w.damage or 0, "alive": w.alive,
        "surrendered": w.surrendered,
        "history": [{"turn": i + 1, "left": r[0], "right": r[1], "kind": k, "hidden": False}
                    for i, (r, k) in enumerate(zip(rows, w.row_kinds, strict=True))],
        "sequence_start": w.sequence_start if own else 0,
        "effects": [_effect_json(e, own_turns, w.index, last, book, obs)
                    for e in w.effects or ()],
        "short_lightning_used": w.short_lightning_used if own else
        once_per_battle_used(tuple(rows), book),
        "banked": None if w.banked is None else {"spell": w.banked, "turn": 0},
        "own_turns": own_turns,
    }


WARY = 0.5  # the share of the enemy's hidden gestures drawn as the most dangerous one


def _wary(seen: tuple[Row, ...], drawn: list[Row], rng: random.Random,
          book: Book) -> list[Row]:
    """The enemy's rows with some hidden gestures (each with chance WARY) redrawn as the one
    that carries his most dangerous attack furthest (bench random duel 71: the P that began a
    finger of death was made in a time-stopped turn, and a world drawn at random saw no
    finger coming).  Only what the viewer saw decides which: the observation alone."""
    rows = list(drawn)
    for i, row in enumerate(seen):
        for h in (0, 1):
            if row[h] != HIDDEN or rng.random() >= WARY:
                continue
            best: tuple[float, str] | None = None
            for g in HIDDEN_GESTURES:
                cell = (g, rows[i][1]) if h == 0 else (rows[i][0], g)
                trial = (*rows[:i], cell, *rows[i + 1:])
                worth = max((p.facts.value * PROGRESS ** p.remaining
                             for p in plans(trial, 0, False, book) if p.facts.hostile),
                            default=0.0)
                if best is None or worth > best[0]:
                    best = (worth, g)
            assert best is not None
            rows[i] = (best[1], rows[i][1]) if h == 0 else (rows[i][0], best[1])
    return rows


def sample_world(obs: Observation, rng: random.Random) -> Game:
    """A full state of the duel consistent with `obs`, hidden parts drawn from `rng`."""
    book = obs.book
    monsters = [{"id": m.id, "kind": m.kind, "controller": m.controller, "born_turn": 0,
                 "damage": m.damage, "alive": m.alive,
                 "effects": [_effect_json(e, 0, m.controller, None, book, obs)
                             for e in m.effects],
                 "last_target": m.last_target, "own_turns": 0,
                 "known_to": list(range(len(obs.wizards)))}
                for m in obs.monsters]
    ids = [int(m.id[1:]) for m in obs.monsters if m.id[1:].isdigit()]
    phase = obs.phase if obs.phase in (ORDERS, TIME_STOP) else ORDERS
    actors = list(obs.actors) if phase == TIME_STOP else \
        [w.index for w in obs.wizards if w.alive and
         not (w.surrendered and len(obs.wizards) > 2)]
    d: JSON = {
        "format": "wavinghands-game", "version": 1,
        "names": [w.name for w in obs.wizards],
        "ruleset": dict(obs.ruleset),
        "seed": f"{rng.getrandbits(64):016x}",
        "turn": obs.turn,
        "wizards": [_wizard_json(w, obs.me, rng, book, obs) for w in obs.wizards],
        "monsters": monsters,
        "next_monster": max(ids, default=0) + 1,
        "phase": {"kind": phase, "turn": obs.turn, "actors": actors, "decisions": [],
                  "pending": {}, "pending_kind": "", "time_stopped": list(obs.time_stopped),
                  "revealed": {}, "hasted": obs.hasted},
        "result": None, "log": [], "record": [], "dice": {},
    }
    return Game.from_json(d)
