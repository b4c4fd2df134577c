"""e2e/waiting.py's bounded poll: it returns the first value that meets the condition, and fails
with what it waited for and the last value read once its bound has passed (no browser needed)."""

from __future__ import annotations

import itertools
import time

import pytest
from waiting import poll


def test_poll_returns_the_first_value_that_meets_the_condition() -> None:
    counter = itertools.count()
    reads: list[int] = []

    def read() -> int:
        reads.append(next(counter))
        return reads[-1]

    assert poll(read, lambda n: n >= 3, timeout_s=60, what="the count to reach 3") == 3
    assert reads == [0, 1, 2, 3]


def test_poll_fails_after_its_bound_naming_the_wait_and_the_last_value() -> None:
    started = time.monotonic()
    said = r"waited 0\.3 s for the cache to fill; last read: 'empty'"
    with pytest.raises(AssertionError, match=said):
        poll(lambda: "empty", lambda v: v == "full", timeout_s=0.3, what="the cache to fill")
    assert 0.3 <= time.monotonic() - started < 30
