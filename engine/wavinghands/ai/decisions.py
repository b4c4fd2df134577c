"""Answers to the questions the rules ask after a reveal, from the observation alone.

Paralysis and charm person: take the hand whose visible work (the history as the viewer sees
it plus the gestures just revealed, the ones that get frozen) leads to the most valuable spell,
for paralysis less what the frozen gesture would keep casting (never freeze the F of F-F-F);
a killing spell counts in full while a mirror or breaker could still meet it (its hand is the
one to freeze, early); on oneself (a reflected paralysis), the hand that matters least.
Elemental: the element the viewer resists, else the one the enemy does not.  The search
answers the same questions in its sampled worlds with `world_answers`.
"""

from __future__ import annotations

import random

from ..model import Game
from ..recognize import completed, under_way
from ..situation import PARALYSED_FORM
from ..spells import Ask
from .evaluate import PROGRESS, game_book, sequence_length
from .facts import KILLS, Book, resisting
from .observation import Observation, Row

HANDS = ("L", "R")
NOTHING = "-"
PARALYSIS = Ask.PARALYSED_HAND.value
ELEMENT = Ask.ELEMENT.value
# A killing spell further than this many gestures away is discounted as any other spell; up
# to it, it counts in full: there is still time to break it (or ready a mirror).
KILL_LEAD = 3
FROZEN_TURNS = 2  # turns a paralysed hand is looked ahead frozen (W-P-P: a W frozen breaks late)


def hand_worth(rows: tuple[Row, ...], start: int, book: Book) -> dict[str, float]:
    """For each hand, the best spell its visible work leads to, discounted by distance."""
    worth = {"L": 0.0, "R": 0.0}
    if not rows:
        return worth
    for u in under_way(rows, start, len(rows) - 1, table=book.table):
        f = book.facts(u.spell)
        remaining = sequence_length(u, book) - u.done
        if f.damage == KILLS and u.done > 1:  # (a lone first gesture starts many things)
            remaining = max(0, remaining - KILL_LEAD)
        value = f.value * PROGRESS ** remaining
        for hand in HANDS if u.hand == "B" else (u.hand,):
            worth[hand] = max(worth[hand], value)
    return worth


def _subject_rows(obs: Observation, subject: int) -> tuple[Row, ...]:
    # A hidden gesture ("?") matches no step, so it simply breaks the sequences it is in.
    return obs.wizards[subject].rows + dict(obs.revealed).get(subject, ())


def frozen_loss(rows: tuple[Row, ...], start: int, hand: str, book: Book) -> float:
    """The work a hand loses by being frozen into its last gesture for FROZEN_TURNS turns (a
    paralysis is usually cast again: "continually paralyze a hand"), less what the frozen
    gesture casts meanwhile (a hand paralysed into the F of F-F casts paralysis back every
    turn; an S frozen into the D of a finger of death completes it)."""
    if not rows:
        return 0.0
    made = rows[-1][0] if hand == "L" else rows[-1][1]
    frozen = PARALYSED_FORM.get(made, made)  # "C, S or W ... into F, D or P respectively"
    row = (frozen, NOTHING) if hand == "L" else (NOTHING, frozen)
    extended, gain, weight = rows, 0.0, 1.0
    for _ in range(FROZEN_TURNS):
        extended = (*extended, row)
        gain += weight * sum(book.facts(c.spell).value for c in
                             completed(extended, start, len(extended) - 1, table=book.table)
                             if c.hand == hand)
        weight *= PROGRESS
    return hand_worth(rows, start, book)[hand] - hand_worth(extended, start, book)[hand] - gain


def choose_hand(rows: tuple[Row, ...], start: int, kind: str, options: tuple[str, ...],
                own: bool, book: Book) -> str:
    """The hand to paralyse or charm of a wizard whose rows (this turn's included) are `rows`:
    the enemy's that matters most, or (`own`: a reflected spell) one's own that matters least."""
    worth = hand_worth(rows, start, book)
    if kind == PARALYSIS:
        # "that hand is paralyzed into the position it is in this turn": the work lost, less
        # what the frozen gesture keeps casting.
        worth = {h: frozen_loss(rows, start, h, book) for h in HANDS}
    ranked = sorted(options, key=lambda h: (-worth.get(h, 0.0), h))
    return ranked[-1] if own else ranked[0]


def _subject(did: str, viewer: int) -> int:
    """The wizard a hand question is about ("paralysis:W1" -> 1; else the viewer's enemy)."""
    return int(did.split(":W")[1]) if ":W" in did else 1 - viewer


def _hand_choice(obs: Observation, did: str, kind: str, options: tuple[str, ...]) -> str:
    subject = _subject(did, obs.me)
    start = obs.mine.sequence_start if subject == obs.me else 0
    return choose_hand(_subject_rows(obs, subject), start, kind, options, subject == obs.me,
                       obs.book)


def world_answers(game: Game, viewer: int) -> dict[str, str]:
    """The viewer's answers to the decisions of a sampled world's decision phase, as `decide`
    would give them (the search uses it so a paralysis it weighs freezes the hand it would)."""
    out: dict[str, str] = {}
    revealed = dict(game.phase.revealed)
    for x in game.phase.decisions:
        if x.wizard != viewer:
            continue
        if x.kind == ELEMENT or not x.options:
            out[x.id] = x.options[0]
            continue
        subject = _subject(x.id, viewer)
        w = game.wizard(subject)
        rows = tuple((r.left, r.right) for r in (*w.history, *revealed.get(subject, ())))
        out[x.id] = choose_hand(rows, w.sequence_start, x.kind, x.options, subject == viewer,
                                game_book(game))
    return out


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
