"""How good a (determinized) duel state is for one wizard: the search's leaf evaluation.

Zero-sum: `evaluate(game, me)` is my side's worth minus the enemy's.  A side's worth is its
health, its enchantments, its monsters, and its hands' progress toward spells, where each
spell's worth comes from its facts (facts.py) and the situation: an answer (shield,
counter-spell, mirror) is worth the threat it stops, a cure the deadly enchantment it lifts,
and an attack the enemy can still answer in time is worth a fraction of one he cannot.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache

from ..model import Game, Wizard
from ..recognize import Row, UnderWay, under_way
from ..situation import (
    BY_AMNESIA,
    BY_CHARM,
    BY_PARALYSIS,
    PARALYSED_FORM,
    Constraints,
    constraints,
)
from ..spells import Step
from .facts import (
    ANSWERS,
    FREEZES,
    KILLS,
    REPEATS,
    SHIELD,
    Book,
    SpellFacts,
    book_of,
    break_odds,
    breaker_starts,
    fresh_reach,
    quick_shields,
)

WIN = 1000.0
HP_WEIGHT = 3.0
PROGRESS = 0.6  # a spell r gestures away is worth PROGRESS**r of its value
ANSWERED = 0.25  # an attack the enemy is readying an answer to keeps this share of its worth
ANSWERABLE = 0.75  # ... and one he could still answer from scratch, this share
LOOKAHEAD = 4  # turns of a hostile enchantment that count
# Turns of a friendly enchantment that count: more would make renewing one still up look like
# a gain every turn (a wizard renewing protection from evil for ever, never attacking).
KEPT = 2
DOOM = 150.0  # a killing spell one gesture away with no answer ready: all but lost
# ... and a share of that this many gestures away, less the chance of breaking it in time.  2:
# strong's second turn then sees, three turns before the finger of death, that only a breaker
# started now lands on its last S (bench mirror duel 28).  3, when a breaker was taken to need
# two gestures' lead whatever it lands on, lost fair six duels of 22 to the baseline from the
# mirrored book where it lost none (moves all doomed alike lose their order).
DOOM_HORIZON = 2
# ... one gesture further where no answer can be made even from scratch (the enemy's paralysis
# lands on every clap): only a breaker meets it, and one started a gesture later is too late
# (bench mirror duel 66, random 37 and 84: the clap frozen the turn before the finger).
JAMMED_HORIZON = 3
# A turn of shield a wizard under monster attack need not make by hand frees that hand: worth
# this much a point of the monsters' strength (up to MAX_PRESSURE).
FREED_HAND = 1.0
MAX_PRESSURE = 6


@dataclass(frozen=True, slots=True)
class Plan:
    """A sequence under way on one hand, `remaining` gestures from completion."""

    facts: SpellFacts
    hand: str
    remaining: int
    next: Step | None = None  # the step it needs next (None: complete)
    steps: tuple[Step, ...] = ()  # the whole sequence it works through

    def made_and_wanted(self, k: int) -> tuple[str, str] | None:
        """After k more gestures of this plan's hand, the gesture just made and the one its
        next step wants (None: complete by then, or the steps unknown)."""
        i = len(self.steps) - self.remaining + k  # the step wanted next then
        if not 0 < i < len(self.steps):
            return None
        return self.steps[i - 1].gesture, self.steps[i].gesture


def game_book(game: Game) -> Book:
    """The facts of the spell table this game is played with."""
    return book_of(game.ruleset.table)


def plans(rows: tuple[Row, ...], start: int, short: bool, book: Book) -> tuple[Plan, ...]:
    """Every sequence of `book`'s table under way after these rows, with the gestures it still
    needs."""
    # Only the last rows (as many as the longest sequence has steps) can hold a sequence under
    # way, so the cache is keyed on those: the search's many histories share them.
    lo = max(start, len(rows) - longest(book))
    return _plans(rows[lo:], short, book)


@lru_cache(maxsize=16)
def longest(book: Book) -> int:
    """The number of steps of the table's longest sequence."""
    return max(len(steps) for _, _, steps in book.table.sequences)


@lru_cache(maxsize=50000)
def _plans(rows: tuple[Row, ...], short: bool, book: Book) -> tuple[Plan, ...]:
    if not rows:
        return ()
    out = []
    for u in under_way(rows, 0, len(rows) - 1, short, book.table):
        steps = sequence_steps(u, book)
        out.append(Plan(book.facts(u.spell), u.hand, len(steps) - u.done, steps[u.done],
                        steps))
    return tuple(out)


def sequence_steps(u: UnderWay, book: Book) -> tuple[Step, ...]:
    """The steps of the sequence `u` is working through."""
    s = book.table[u.spell]
    return s.parsed[s.sequences.index(u.sequence)]


def sequence_length(u: UnderWay, book: Book) -> int:
    """The number of gestures of the sequence `u` is working through."""
    return len(sequence_steps(u, book))


def can_go_on(p: Plan, c: Constraints) -> bool:
    """Whether the wizard can make the next step of plan `p` next turn, as the rules let him
    move: not with a hand paralysed or repeating (amnesia) into another gesture, a gesture
    fear forbids, or a hand a charmer writes."""
    if p.next is None:
        return True
    if p.next.gesture in c.banned:
        return False
    both = p.next.both_hands or p.next.gesture == "C" or p.hand == "B"
    for hand in ("L", "R") if both else (p.hand,):
        hc = c.hand(hand)
        if hc.why == BY_CHARM or (hc.forced is not None and hc.forced != p.next.gesture):
            return False
    return True


def going_on(p: Plan, c: Constraints) -> Plan | None:
    """Plan `p` as it stands after next turn's forced gestures: itself if its wizard can make
    its next step (`can_go_on`); a gesture later where the hands must repeat its first step
    (amnesia on a clap: C-C again, then the W-W completes the mirror a turn later); None where
    the rules break it."""
    if can_go_on(p, c):
        return p
    first = p.steps[0] if p.steps else None
    if first is None or len(p.steps) - p.remaining != 1 or first.gesture in c.banned:
        return None
    both = first.both_hands or first.gesture == "C" or p.hand == "B"
    for hand in ("L", "R") if both else (p.hand,):
        hc = c.hand(hand)
        if hc.why == BY_CHARM or (hc.forced is not None and hc.forced != first.gesture):
            return None
    return Plan(p.facts, p.hand, p.remaining + 1, first, (first, *p.steps))


def free_hands(c: Constraints) -> int:
    """How many of the wizard's hands he may move as he likes next turn."""
    return sum(1 for hc in (c.left, c.right) if hc.forced is None and not hc.why)


def rows_of(w: Wizard) -> tuple[Row, ...]:
    """A wizard's history as (left, right) pairs."""
    return tuple((r.left, r.right) for r in w.history)


def wizard_plans(w: Wizard, book: Book) -> tuple[Plan, ...]:
    """The sequences under way for this wizard."""
    return plans(rows_of(w), w.sequence_start, w.short_lightning_used, book)


def answer_reach(w: Wizard, ps: Iterable[Plan], book: Book,
                 fresh: bool = True, c: Constraints | None = None,
                 threats: Iterable[Plan] = ()) -> dict[str, int]:
    """For each answer kind, the fewest gestures this wizard needs to cast one (only counting
    answers already under way or in force unless `fresh`; with his constraints `c`, a fresh
    two-handed answer, the mirror, needs both hands free next turn, and one free of the
    enemy's `threats`: a breaker of his landing this turn spoils a clap made now)."""
    reach = dict(fresh_reach(book)) if fresh else {a: 99 for a in ANSWERS}
    if fresh and c is not None:
        # "a clap": a mirror's first step needs both hands, and its second the clap kept.
        late = 99 if free_hands(c) < 2 else jam(threats)
        if late:
            reach = {a: (r + late if a in two_handed_answers(book) else r)
                     for a, r in reach.items()}
    for p in ps:
        if p.facts.answer:
            reach[p.facts.answer] = min(reach[p.facts.answer], p.remaining)
    own = w.own_turns + 1
    for e in w.effects:
        if book.knows(e.kind) and book.facts(e.kind).answer and e.active_on(own):
            reach[book.facts(e.kind).answer] = 0  # e.g. protection from evil already up
    return reach


def jam(threats: Iterable[Plan]) -> int:
    """The gestures by which an enemy breaker landing this turn (one gesture from casting)
    delays a clap made now: a paralysis freezes it into F (99: a paralysis is cast again each
    turn, F-F-F..., so no clap comes while it lasts); amnesia repeats it (1: the W-W follows a
    turn later); a charm or an anti-spell spoils it (2: clap again); fear forbids only the
    next C, and confusion's die may spare it (0)."""
    worst = 0
    for t in threats:
        if t.facts.breaks and t.remaining <= 1 and break_odds(t.facts, "C", "W") >= 1.0:
            worst = max(worst, 99 if t.facts.grip == FREEZES else
                        1 if t.facts.grip == REPEATS else 2)
    return worst


@lru_cache(maxsize=16)
def two_handed_answers(book: Book) -> frozenset[str]:
    """The answer kinds every sequence of which starts with both hands (the mirror's clap)."""
    firsts: dict[str, list[bool]] = {}
    for key, _, steps in book.table.sequences:
        a = book.facts(key).answer
        if a:
            firsts.setdefault(a, []).append(steps[0].both_hands or steps[0].gesture == "C")
    return frozenset(a for a, starts in firsts.items() if all(starts))


def break_chance(t: Plan, ps: Iterable[Plan], book: Book, c: Constraints,
                 frozen: bool = False) -> float:
    """The best chance this wizard has of breaking the enemy's threat `t` in time: with a
    breaker under way that he can go on with, or one from scratch on a free hand.  Where
    the enemy's paralysis lands this turn (`frozen`: F-F-F..., he picks the hand), he freezes
    the hand of the better breaker: only the other hand's counts, or one a freeze does not
    stop (bench random duel 37: a fear on one hand, its W frozen into P)."""
    odds = {"L": 0.0, "R": 0.0}  # each hand's best breaker
    kept = {"L": 0.0, "R": 0.0}  # ... that goes on though that hand is frozen
    for p in ps:
        if p.facts.breaks:
            o = landing_odds(p.facts, p.remaining, t)
            for hand in ("L", "R") if p.hand == "B" else (p.hand,):
                odds[hand] = max(odds[hand], o)
                if p.hand != "B" and survives_freeze(p):
                    kept[hand] = max(kept[hand], o)
    for gesture, steps, f in breaker_starts(book):
        if gesture in c.banned:
            continue
        for hand in ("L", "R"):
            hc = c.hand(hand)
            if hc.forced == gesture or (hc.forced is None and not hc.why):
                odds[hand] = max(odds[hand], landing_odds(f, steps, t))
    if not frozen:
        return max(odds.values())
    # "If the wizard already had a paralyzed hand, it must be the same hand which is
    # paralyzed again": then the other hand's breakers are safe.
    held = [h for h in ("L", "R") if c.hand(h).why == BY_PARALYSIS]
    return min(max(odds[other], kept[h]) for h, other in (("L", "R"), ("R", "L"))
               if not held or h in held)


def survives_freeze(p: Plan) -> bool:
    """Whether plan `p` goes on though its hand is paralysed after its next gesture (the F
    of F-F-F stays an F; a W frozen into P spoils S-W-D)."""
    mw = p.made_and_wanted(1)
    return mw is None or PARALYSED_FORM.get(mw[0], mw[0]) == mw[1]


def freezing(threats: Iterable[Plan]) -> bool:
    """Whether an enemy paralysis lands this turn (one gesture from casting), on the hand of
    his choosing."""
    return any(t.facts.grip == FREEZES and t.remaining <= 1 for t in threats)


def killing(t: Plan, hp: int) -> bool:
    """Whether the enemy's plan `t` kills a wizard with `hp` points left."""
    return t.facts.damage == KILLS or t.facts.damage >= hp


def answered(threat: Plan, reach: Mapping[str, int]) -> bool:
    """Whether an answer that stops this threat can be ready when it lands."""
    return any(reach[a] <= threat.remaining for a in threat.facts.stopped_by)


def _deadly_on(w: Wizard, book: Book) -> set[str]:
    own = w.own_turns + 1
    return {e.kind for e in w.effects if book.knows(e.kind) and book.facts(e.kind).deadly and
            (e.end is None or e.end >= own)}


SURRENDER_GESTURE = "P"  # "If a wizard makes two P gestures ... he surrenders"


def can_shield(game: Game, x: int, book: Book) -> bool:
    """Whether wizard x can shield himself next turn with one gesture, as the rules let him
    move (not while a charmer writes one hand: he would write P on it too)."""
    c = constraints(game, x)
    for g in quick_shields(book):
        for hand, other in (("L", "R"), ("R", "L")):
            hc = c.hand(hand)
            if hc.forced == g:
                return True
            if hc.forced is None and hc.why != BY_CHARM and g not in c.banned and \
                    not (g == SURRENDER_GESTURE and c.hand(other).why == BY_CHARM):
                return True
    return False


def shields_him(c: Constraints, book: Book) -> bool:
    """Whether a spell on his mind makes a hand of his repeat a shield next turn (a hand
    paralysed into P is shielded every turn: that paralysis costs him nothing)."""
    return any(hc.forced in quick_shields(book) and hc.why in (BY_PARALYSIS, BY_AMNESIA)
               for hc in (c.left, c.right))


def monster_pressure(game: Game, x: int) -> int:
    """The damage the enemy's monsters do to wizard x next turn if he is not shielded."""
    return sum(m.strength for m in game.monsters
               if m.alive and m.controller != x and not m.is_elemental)


def lasting_shield(f: SpellFacts, turns: int, pressure: int) -> float:
    """What `turns` of a shield that lasts (protection from evil) are worth under monster
    attack of strength `pressure`: each frees the hand that would make one."""
    if f.answer != SHIELD or f.turns <= 1 or not pressure or turns <= 0:
        return 0.0
    return FREED_HAND * min(pressure, MAX_PRESSURE) * min(turns, KEPT)


def shielded_turns(w: Wizard, book: Book) -> int:
    """How many more of his turns a lasting shield (protection from evil) covers wizard w."""
    own = w.own_turns + 1
    left = 0
    for e in w.effects:
        if book.knows(e.kind) and book.facts(e.kind).answer == SHIELD and e.active_on(own):
            left = max(left, KEPT if e.end is None else min(KEPT, e.end - own + 1))
    return left


def plan_worth(p: Plan, threats: tuple[Plan, ...], deadly: set[str],
               enemy_reach: Mapping[str, int], book: Book, pressure: int = 0,
               covered: int = 0, lag: int = 0) -> float:
    """What completing plan `p` would be worth now, before discounting for distance
    (`pressure`: the strength of the enemy monsters attacking the planner; `covered`: the
    turns a lasting shield already on him has left; `lag`: gestures the threats make before
    the planner's count starts, 1 where `p` already holds this turn's gesture and the threats
    do not, as in a candidate's prior)."""
    f = p.facts
    if f.cures & deadly:
        return 35.0
    if f.answer == SHIELD and f.turns > 1 and pressure:
        # Only the turns it adds count: renewing a shield still up gains little.
        return f.value + lasting_shield(f, min(f.turns, KEPT) - covered, pressure)
    if f.answer == SHIELD and pressure and not covered:
        # A shield cast now under monster attack keeps their blows off this turn.
        return f.value + FREED_HAND * min(pressure, MAX_PRESSURE)
    if f.answer:
        # An answer is worth the threats it would meet when ready: one that lands later than
        # that finds it gone (a mirror or counter-spell lasts a turn), so it counts less.
        stops = [t.facts.value * PROGRESS ** (t.remaining - lag - p.remaining) for t in threats
                 if f.answer in t.facts.stopped_by and t.remaining - lag >= p.remaining]
        return max([f.value, *(0.8 * s for s in stops)])
    if f.breaks:
        # A breaker landing before a killing spell completes is worth the life it saves, as
        # likely as it stops the step it lands on (the enemy may still answer it: ANSWERED):
        # discounted for distance as the threat is, 0.8 of the threat's worth (more, and the
        # enemy would gain by dropping a threat it meets).
        saves = [0.8 * t.facts.value * odds *
                 PROGRESS ** (t.remaining - lag - p.remaining)
                 for t in threats if t.facts.damage == KILLS
                 for odds in (landing_odds(f, p.remaining + lag, t),) if odds > 0]
        if saves:
            share = ANSWERED if answered(p, enemy_reach) else 1.0
            return max(f.value, *saves) * share
    if f.hostile and answered(p, enemy_reach):
        return f.value * ANSWERED
    if f.hostile and answered(p, fresh_reach(book)):
        return f.value * ANSWERABLE
    return f.value


def landing_odds(breaker: SpellFacts, k: int, t: Plan) -> float:
    """The chance that `breaker`, landing after k more gestures of threat t's hand, stops the
    step t wants next (0 once t completes by then)."""
    mw = t.made_and_wanted(k)
    return 0.0 if mw is None or k >= t.remaining else break_odds(breaker, *mw)


def doom(threats: Iterable[Plan], my_reach: Mapping[str, int], mine: tuple[Plan, ...],
         book: Book, c: Constraints, hp: int) -> float:
    """What the enemy's killing spells cost a wizard whose answers are `my_reach`, whose own
    plans are `mine` and whose constraints are `c` (the breakers he can still make)."""
    # "Finger of death must be broken early or met with a mirror": an enemy spell that would
    # kill next turn, with no answer that can be ready by then, is all but a lost duel; one
    # that kills in r turns that neither an answer nor a breaker landing on a step it stops
    # can meet in time is on its way there (the search must start the breaker now, not too
    # late).
    worst = 0.0
    threats = tuple(threats)
    frozen = freezing(threats)
    for t in threats:
        horizon = JAMMED_HORIZON if not any(my_reach[a] < 99 for a in t.facts.stopped_by) \
            else DOOM_HORIZON
        if killing(t, hp) and t.remaining <= horizon and not answered(t, my_reach):
            worst = max(worst, DOOM * PROGRESS ** (t.remaining - 1) *
                        (1.0 - break_chance(t, mine, book, c, frozen)))
    return worst


def side_worth(game: Game, x: int, book: Book) -> float:
    """One wizard's worth: health, enchantments, monsters and hands."""
    w = game.wizard(x)
    y = game.wizard(1 - x)
    hp = max(0, game.ruleset.variant.wizard_death - w.damage)
    # Concave: a point lost near death costs more, so the search presses a wounded enemy.
    score = HP_WEIGHT * hp + 15.0 * (1.0 - 0.75 ** hp)
    own = w.own_turns + 1
    pressure = monster_pressure(game, x)
    covered = shielded_turns(w, book)
    cx, cy = constraints(game, x), constraints(game, 1 - x)
    for e in w.effects:
        if not book.knows(e.kind) or (e.end is not None and e.end < own):
            continue
        f = book.facts(e.kind)
        left = LOOKAHEAD if e.end is None else min(LOOKAHEAD, e.end - own + 1)
        if f.deadly:
            score -= 30.0 + 3.0 * (LOOKAHEAD - left)
        elif f.hostile and not (f.mind and shields_him(cx, book)):
            score -= 0.6 * f.value * left * (1.5 if e.permanent else 1.0)
        else:
            kept = min(left, KEPT)
            score += 0.4 * f.value * kept * (1.5 if e.permanent else 1.0)
            score += lasting_shield(f, kept, pressure)
    for m in game.monsters:
        if m.alive and m.controller == x and not m.is_elemental:
            score += 2.5 * m.strength + (m.toughness - m.damage)
    # A sequence whose next step the rules will not let its wizard make next turn (his hand
    # paralysed or repeating into another gesture, fear, a charmer writing it) is broken.
    mine = tuple(q for p in wizard_plans(w, book) if (q := going_on(p, cx)) is not None)
    theirs = tuple(q for t in wizard_plans(y, book) if (q := going_on(t, cy)) is not None)
    threats = tuple(t for t in theirs if t.facts.hostile)
    enemy_reach = answer_reach(y, theirs, book, fresh=False)
    deadly = _deadly_on(w, book)
    score -= doom(threats, answer_reach(w, mine, book, c=cx, threats=threats), mine, book, cx,
                  hp)
    # Monsters a wizard cannot shield from next turn (charmed, paralysed off his palm...) hit
    # him in full: the one-turn search would otherwise not see a charm's second turn.
    if pressure and not can_shield(game, x, book):
        score -= HP_WEIGHT * min(pressure, hp) + (DOOM if pressure >= hp else 0.0)
    best = {"L": 0.0, "R": 0.0}
    for p in mine:
        worth = plan_worth(p, threats, deadly, enemy_reach, book, pressure, covered) * \
            PROGRESS ** p.remaining
        if p.facts.damage == KILLS and worth > 0:
            worth *= 1.0 if p.remaining <= 3 else 0.5
        for hand in (("L", "R") if p.hand == "B" else (p.hand,)):
            best[hand] = max(best[hand], worth / (2 if p.hand == "B" else 1))
    return score + best["L"] + best["R"]


def evaluate(game: Game, me: int) -> float:
    """How good this state is for wizard `me` (zero-sum; a won duel is WIN)."""
    if game.result is not None:
        if game.result.winner is None:
            return 0.0
        return WIN if game.result.winner == me else -WIN
    book = game_book(game)
    return side_worth(game, me, book) - side_worth(game, 1 - me, book)
