"""Recognition's fast paths change no answer: `under_way` (a trie of every proper prefix, read
backwards from the latest row) gives exactly what testing every prefix of every sequence gives,
in the same order, for both rulesets' tables, any start and the once-per-battle rule."""

from __future__ import annotations

import random
from collections.abc import Sequence

from gesture_rows import random_rows

from wavinghands.recognize import UnderWay, _matches_ending_at, under_way
from wavinghands.rulesets import find_ruleset
from wavinghands.spells import STANDARD_TABLE, SpellTable


def direct_under_way(rows: Sequence[tuple[str, str]], start: int, index: int, short: bool,
                     table: SpellTable) -> tuple[UnderWay, ...]:
    """The definition: every proper prefix of every sequence, each hand, in table order."""
    out: list[UnderWay] = []
    seen: set[tuple[str, str, str, int]] = set()
    for key, text, steps in table.sequences:
        if short and text in table[key].once_per_battle:
            continue
        all_both = all(s.both_hands for s in steps)
        for done in range(1, len(steps)):
            for hand in ("L", "R"):
                if not _matches_ending_at(steps[:done], rows, start, index, hand):
                    continue
                shown = "B" if all_both else hand
                if (key, text, shown, done) in seen:
                    continue
                seen.add((key, text, shown, done))
                out.append(UnderWay(key, text, shown, done,
                                    "-".join(s.notation() for s in steps[done:])))
    return tuple(out)


def test_under_way_is_the_direct_definition() -> None:
    rng = random.Random(29)
    tables = [STANDARD_TABLE, find_ruleset("warlocks").table]
    found = 0
    for case in range(4000):
        table = tables[case % 2]
        rows = random_rows(rng, rng.randint(1, 12), alike=0.3)
        index = rng.randrange(len(rows))
        start = rng.randint(0, index + 1)
        short = rng.random() < 0.3
        fast = under_way(rows, start, index, short, table)
        assert fast == direct_under_way(rows, start, index, short, table), (rows, start, index)
        found += len(fast)
    assert found > 4000  # the cases do exercise sequences under way


def test_a_known_case() -> None:
    # D-P-P (amnesia) and D-S-F (confusion) under way on the left; (w-(w ... none on the right
    rows = [("D", "W"), ("P", "W")]
    got = {(u.spell, u.hand, u.done) for u in under_way(rows, 0, 1)}
    assert ("amnesia", "L", 2) in got
    assert not any(u.hand == "R" and u.spell == "amnesia" for u in under_way(rows, 0, 1))
