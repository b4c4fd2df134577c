"""Answers to the questions the rules ask after a reveal, from the observation alone.

Paralysis and charm person: take the hand whose visible work (the history as the viewer sees
it plus the gestures just revealed, the ones that get frozen) leads to the most valuable spell;
on oneself (a reflected paralysis), the hand that matters least.  Elemental: the element the
viewer resists, else the one the enemy does not.
"""

from __future__ import annotations

import random

from ..recognize import under_way
from .evaluate import PROGRESS, sequence_length
from .facts import Book, resisting
from .observation import Observation, Row

HANDS = ("L", "R")


def hand_worth(rows: tuple[Row, ...], start: int, book: Book) -> dict[str, float]:
    """For each hand, the best spell its visible work leads to, discounted by distance."""
    worth = {"L": 0.0, "R": 0.0}
    if not rows:
        return worth
    for u in under_way(rows, start, len(rows) - 1, table=book.table):
        f = book.facts(u.spell)
        value = f.value * PROGRESS ** (sequence_length(u, book) - u.done)
        for hand in HANDS if u.hand == "B" else (u.hand,):
            worth[hand] = max(worth[hand], value)
    return worth


def _subject_rows(obs: Observation, subject: int) -> tuple[Row, ...]:
    # A hidden gesture ("?") matches no step, so it simply breaks the sequences it is in.
    return obs.wizards[subject].rows + dict(obs.revealed).get(subject, ())


def _hand_choice(obs: Observation, did: str, options: tuple[str, ...]) -> str:
    subject = int(did.split(":W")[1]) if ":W" in did else 1 - obs.me
    start = obs.mine.sequence_start if subject == obs.me else 0
    worth = hand_worth(_subject_rows(obs, subject), start, obs.book)
    ranked = sorted(options, key=lambda h: (-worth.get(h, 0.0), h))
    return ranked[-1] if subject == obs.me else ranked[0]


def _element(obs: Observation, options: tuple[str, ...], rng: random.Random) -> str:
    for element in options:
        if any(obs.mine.effect(k) is not None for k in resisting(element, obs.book)):
            return element  # it cannot hurt me
    for element in options:
        other = next((o for o in options if o != element), element)
        if any(obs.enemy.effect(k) is not None for k in resisting(other, obs.book)):
            return element  # the other one could not hurt him
    return options[rng.randrange(len(options))]


def decide(obs: Observation, rng: random.Random) -> dict[str, dict[str, str]]:
    """The viewer's answers to every decision the view asks of him."""
    answers: dict[str, str] = {}
    for x in obs.decisions:
        if x.kind == "elemental":
            answers[x.id] = _element(obs, x.options, rng)
        else:
            answers[x.id] = _hand_choice(obs, x.id, x.options)
    return {"decisions": answers}
