"""e2e/waiting.py's bounded waits.  `poll` returns the first value that meets the condition, and
fails with what it waited for and the last value read once its bound has passed (no browser
needed); `settled` returns what a page's promise settles to, and fails naming what it awaited
when the promise has not settled in its bound (a blank page of the worker's browser)."""

from __future__ import annotations

import itertools
import time
from typing import Any

import pytest
from waiting import poll, settled


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


def test_settled_returns_the_answer_and_fails_in_its_bound_when_none_comes(browser: Any) -> None:
    page = browser.new_page()
    try:
        assert settled(page, "(n) => Promise.resolve(n + 1)", 41, timeout_s=30, what="n + 1") == 42
        with pytest.raises(Exception, match="no engine"):  # a rejection raises as evaluate's does
            settled(page, "() => Promise.reject(new Error('no engine'))", timeout_s=30, what="x")
        started = time.monotonic()
        said = r"waited 0\.5 s for a promise that never settles; it never settled"
        with pytest.raises(AssertionError, match=said):
            settled(page, "() => new Promise(() => {})", timeout_s=0.5,
                    what="a promise that never settles")
        assert 0.5 <= time.monotonic() - started < 30
    finally:
        page.close()
