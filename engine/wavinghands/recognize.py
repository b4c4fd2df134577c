"""Spell recognition: which spells a hand completes, and which are under way.

Rules implemented (000, "Gestures"): "the gestures have been made in the correct sequence
without interruption", "no more than one spell is created per gesture", "all gestures for one
spell are made with the same hand"; a two-handed step such as "(w" or "C" needs that gesture
from both hands at once, and "(C with just one hand [is] considered the same as nothing".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .memo import Bounded, ByIdentity
from .spells import STANDARD_TABLE, SpellTable, Step

Row = tuple[str, str]  # (left, right) effective gestures of one gesture set

SPELL_GESTURES = frozenset("FPSWDC")


@dataclass(frozen=True, slots=True)
class Candidate:
    """A spell whose sequence ends with the given row.

    `hand` is "L" or "R" for a spell whose last step is one hand's gesture, "B" for one whose
    last step uses both hands (it then uses up both hands' last gestures).
    """

    spell: str
    sequence: str
    hand: str
    length: int


@dataclass(frozen=True, slots=True)
class UnderWay:
    """A sequence of which the first `done` steps have been made, ending with the latest row."""

    spell: str
    sequence: str
    hand: str  # the hand making its one-handed steps ("B" if all steps are two-handed)
    done: int
    remaining: str  # the notation of the steps still needed


def _gesture(row: Row, hand: str) -> str:
    return row[0] if hand == "L" else row[1]


def _step_matches(step: Step, row: Row, hand: str) -> bool:
    left, right = row
    if step.both_hands:
        return left == step.gesture and right == step.gesture
    # A one-handed step never matches a clap: C is only a gesture when both hands make it, and
    # no spell has C as a one-handed step anyway.
    return _gesture(row, hand) == step.gesture and step.gesture != "C"


def _matches_ending_at(steps: tuple[Step, ...], rows: Sequence[Row], start: int, end: int,
                       hand: str) -> bool:
    n = len(steps)
    first = end - n + 1
    if first < start:
        return False
    return all(_step_matches(step, rows[first + j], hand) for j, step in enumerate(steps))


def _window(rows: Sequence[Row], start: int, index: int, reach: int) -> tuple[Row, ...] | None:
    """The rows a question about row `index` can read (at most `reach` rows ending there, none
    before `start`) as a hashable key, or None when there is none (odd indices, list rows)."""
    lo = max(start, index - reach + 1, 0)
    if not lo <= index < len(rows):
        return None
    window = tuple(rows[lo:index + 1])
    try:
        hash(window)
    except TypeError:
        return None
    return window


def completed(rows: Sequence[Row], start: int, index: int,
              short_lightning_used: bool = False,
              table: SpellTable = STANDARD_TABLE) -> tuple[Candidate, ...]:
    """Every spell of the ruleset's table completed by row `index`, counting only rows from
    `start` on.  A spell whose last step is two-handed (magic mirror) is reported once, as
    hand "B".  (Remembered per table by the rows it reads: no sequence is longer than
    `table.longest`, so only that many rows ending at `index`, and none before `start`.)"""
    window = _window(rows, start, index, table.longest)
    if window is None:
        return _completed(rows, start, index, short_lightning_used, table)
    key = ("completed", window, short_lightning_used)
    found: tuple[Candidate, ...] | None = table.recognised.get(key)
    if found is None:
        found = table.recognised.put(key, _completed(window, 0, len(window) - 1,
                                                     short_lightning_used, table))
    return found


def _completed(rows: Sequence[Row], start: int, index: int, short_lightning_used: bool,
               table: SpellTable) -> tuple[Candidate, ...]:
    out: list[Candidate] = []
    seen_both: set[tuple[str, str]] = set()
    left, right = rows[index]
    for key, text, steps in table.ending_with(left, right):
        if short_lightning_used and text in table[key].once_per_battle:
            continue  # "then the gestures have no effect"
        last_both = steps[-1].both_hands
        for hand in ("L", "R"):
            if not _matches_ending_at(steps, rows, start, index, hand):
                continue
            if last_both:
                if (key, text) not in seen_both:
                    seen_both.add((key, text))
                    out.append(Candidate(key, text, "B", len(steps)))
            else:
                out.append(Candidate(key, text, hand, len(steps)))
    return tuple(out)


def under_way(rows: Sequence[Row], start: int, index: int,
              short_lightning_used: bool = False,
              table: SpellTable = STANDARD_TABLE) -> tuple[UnderWay, ...]:
    """Sequences partly made (at least one step, not complete) ending with row `index`, in
    table order (then steps made, then left hand before right)."""
    trie = _TRIES.get(table)
    if trie is None:
        trie = _TRIES.put(table, None, _prefix_trie(table))
    hits: list[tuple[int, int, int, _Prefix]] = []
    depth = index + 1 - max(start, 0)  # rows a prefix may use: none before `start`
    for hand_order, hand in enumerate(("L", "R")):
        _walk(trie, rows, index, depth, hand, hand_order, hits)
    hits.sort(key=lambda h: h[:3])
    out: list[UnderWay] = []
    seen: set[tuple[str, str, str, int]] = set()
    for _, done, hand_order, p in hits:
        if short_lightning_used and p.text in table[p.spell].once_per_battle:
            continue
        shown = "B" if p.all_both else "LR"[hand_order]
        ident = (p.spell, p.text, shown, done)
        if ident in seen:
            continue
        seen.add(ident)
        out.append(UnderWay(p.spell, p.text, shown, done, p.remaining))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class _Prefix:
    """A proper prefix of one sequence of a table: what `under_way` reports when it matches."""

    order: int  # the sequence's place in `table.sequences`
    done: int  # steps in the prefix
    spell: str
    text: str
    all_both: bool  # every step of the sequence is two-handed
    remaining: str  # the notation of the steps after the prefix


# A trie of every proper prefix of a table's sequences, read backwards (last step first): a
# node is (children keyed by (gesture, both_hands), the prefixes ending there).  Walking it
# back from a row visits only the prefixes that row and those before it can end, instead of
# testing every prefix of every sequence.
_Node = tuple[dict[tuple[str, bool], "_Node"], list[_Prefix]]
_TRIES: ByIdentity[_Node] = ByIdentity(16)


def _prefix_trie(table: SpellTable) -> _Node:
    root: _Node = ({}, [])
    for order, (key, text, steps) in enumerate(table.sequences):
        all_both = all(s.both_hands for s in steps)
        for done in range(1, len(steps)):
            node = root
            for st in reversed(steps[:done]):
                node = node[0].setdefault((st.gesture, st.both_hands), ({}, []))
            remaining = "-".join(s.notation() for s in steps[done:])
            node[1].append(_Prefix(order, done, key, text, all_both, remaining))
    return root


def _walk(root: _Node, rows: Sequence[Row], index: int, depth: int, hand: str,
          hand_order: int, hits: list[tuple[int, int, int, _Prefix]]) -> None:
    """Add every prefix that hand `hand` ends at row `index` (using at most `depth` rows),
    as _step_matches reads a step: a two-handed step needs both hands to make its gesture, a
    one-handed one this hand (never a clap)."""
    stack = [(root, 0)]
    while stack:
        node, k = stack.pop()
        for p in node[1]:
            hits.append((p.order, p.done, hand_order, p))
        if k >= depth:
            continue
        left, right = rows[index - k]
        gesture = left if hand == "L" else right
        if gesture != "C":
            child = node[0].get((gesture, False))
            if child is not None:
                stack.append((child, k + 1))
        if left == right:
            child = node[0].get((left, True))
            if child is not None:
                stack.append((child, k + 1))


def next_completions(rows: Sequence[Row], start: int, short_lightning_used: bool = False,
                     table: SpellTable = STANDARD_TABLE) -> tuple[UnderWay, ...]:
    """Spells that one more gesture set could complete (what a wizard 'threatens' next turn)."""
    index = len(rows) - 1
    out = [u for u in under_way(rows, start, index, short_lightning_used, table)
           if u.done == len(_steps(table, u.spell, u.sequence)) - 1]
    # Single-step spells (shield) are always one gesture away.
    for key, text, steps in table.sequences:
        if len(steps) == 1:
            out.append(UnderWay(key, text, "L", 0, steps[0].notation()))
            out.append(UnderWay(key, text, "R", 0, steps[0].notation()))
    return tuple(out)


def _steps(table: SpellTable, key: str, text: str) -> tuple[Step, ...]:
    for k, t, steps in table.sequences:
        if k == key and t == text:
            return steps
    raise KeyError((key, text))


def is_surrender(row: Row) -> bool:
    """Surrender: "a pair of P gestures made by both hands at the same time"."""
    return row[0] == "P" and row[1] == "P"


@dataclass(frozen=True, slots=True)
class Allocation:
    """The spells one gesture set casts: at most one per hand, or one two-handed spell."""

    spells: tuple[Candidate, ...]


def allocations(cands: Sequence[Candidate], withhold: bool) -> tuple[Allocation, ...]:
    """Every legal way to cast from these candidates.

    Standard rules: a hand with a completed spell must cast one ("the spell must be cast"), unless
    its last gesture went into a two-handed spell.  With the withhold house rule any subset is
    allowed.
    """
    key = (tuple(cands), withhold)
    found = _ALLOCATIONS.get(key)
    if found is None:
        found = _ALLOCATIONS.put(key, _allocations(key[0], withhold))
    return found


# (candidates name their spells: the answer is the same whatever the table)
_ALLOCATIONS: Bounded[tuple[tuple[Candidate, ...], bool], tuple[Allocation, ...]] = \
    Bounded(4096)


def _allocations(cands: Sequence[Candidate], withhold: bool) -> tuple[Allocation, ...]:
    left = [c for c in cands if c.hand == "L"]
    right = [c for c in cands if c.hand == "R"]
    both = [c for c in cands if c.hand == "B"]
    out: list[Allocation] = [Allocation((b,)) for b in both]
    lefts: list[Candidate | None] = list(left) or [None]
    rights: list[Candidate | None] = list(right) or [None]
    if withhold:
        lefts = [*left, None]
        rights = [*right, None]
    for lc in lefts:
        for rc in rights:
            chosen = tuple(c for c in (lc, rc) if c is not None)
            if not chosen and both and not withhold:
                continue  # the two-handed spell must then be cast
            out.append(Allocation(chosen))
    if withhold:
        out.append(Allocation(()))
    # Deduplicate while keeping order.
    uniq: list[Allocation] = []
    for a in out:
        if a not in uniq:
            uniq.append(a)
    return tuple(uniq)


def default_allocation(cands: Sequence[Candidate],
                       table: SpellTable = STANDARD_TABLE) -> Allocation:
    """The default when the orders do not choose: the most gesture steps cast in total, then
    the spell listed first in the table (so finger of death beats missile, as 000 expects:
    "only on odd occasions would the latter spell be chosen in preference to the former").
    (Remembered per table.)"""
    key = ("default_allocation", tuple(cands))
    found: Allocation | None = table.recognised.get(key)
    if found is None:
        found = table.recognised.put(key, _default_allocation(key[1], table))
    return found


def _default_allocation(cands: Sequence[Candidate], table: SpellTable) -> Allocation:
    options = allocations(cands, withhold=False)
    order = table.order

    def score(a: Allocation) -> tuple[int, int, tuple[int, ...]]:
        total = sum(c.length for c in a.spells)
        return (-total, -len(a.spells), tuple(order[c.spell] for c in a.spells))

    return min(options, key=score)
