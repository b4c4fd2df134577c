"""Answers to the questions the rules ask after a reveal, from the observation alone.

Paralysis and charm person: take the hand whose visible work (the history as the viewer sees
it plus the gestures just revealed, the ones that get frozen) leads to the most valuable spell,
for paralysis less what the frozen gesture would keep casting (never freeze the F of F-F-F);
on oneself (a reflected paralysis), the hand that matters least.  Elemental: the element the
viewer resists, else the one the enemy does not.
"""

from __future__ import annotations

import random

from ..recognize import completed, under_way
from ..situation import PARALYSED_FORM
from ..spells import Ask
from .evaluate import PROGRESS, sequence_length
from .facts import Book, resisting
from .observation import Observation, Row

HANDS = ("L", "R")
NOTHING = "-"
PARALYSIS = Ask.PARALYSED_HAND.value


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


def repeat_gain(rows: tuple[Row, ...], start: int, hand: str, book: Book) -> float:
    """What a hand frozen into its last gesture would cast by repeating it next turn (a hand
    paralysed into the F of F-F casts paralysis back every turn)."""
    if not rows:
        return 0.0
    last = rows[-1]
    made = last[0] if hand == "L" else last[1]
    frozen = PARALYSED_FORM.get(made, made)  # "C, S or W ... into F, D or P respectively"
    row = (frozen, NOTHING) if hand == "L" else (NOTHING, frozen)
    extended = (*rows, row)
    return sum(book.facts(c.spell).value for c in
               completed(extended, start, len(rows), table=book.table) if c.hand == hand)


def _hand_choice(obs: Observation, did: str, kind: str, options: tuple[str, ...]) -> str:
    subject = int(did.split(":W")[1]) if ":W" in did else 1 - obs.me
    start = obs.mine.sequence_start if subject == obs.me else 0
    rows = _subject_rows(obs, subject)
    worth = hand_worth(rows, start, obs.book)
    if kind == PARALYSIS:
        # "the subject ... must repeat the same gesture": the work lost, less what the frozen
        # gesture keeps casting.
        worth = {h: worth[h] - repeat_gain(rows, start, h, obs.book) for h in HANDS}
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
            answers[x.id] = _hand_choice(obs, x.id, x.kind, x.options)
    return {"decisions": answers}
