"""Bounded polls for state the page cannot be waited on for with a locator.

Playwright's `expect(...)` and `wait_for_selector` wait on the DOM; `wait_for_function` polls a
predicate in the page but does not await a promise it returns (an async predicate's promise is
truthy, so the wait ends at once, whatever the promise would say).  State that only an async
read gives (Cache Storage, IndexedDB, a worker's answer) or that lives outside the page (the
test server's log) is polled here instead: read, test, and read again until the condition holds
or the bound passes, then fail with the last value read.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

# Between two reads: short next to any bound, long enough not to load a busy machine.
EVERY_S = 0.1


def poll(read: Callable[[], T], done: Callable[[T], bool], *, timeout_s: float, what: str) -> T:
    """Call `read()` until `done(value)` holds and return that value; after `timeout_s` seconds
    without it, fail the test with `what` was awaited and the last value read."""
    deadline = time.monotonic() + timeout_s
    while True:
        value = read()
        if done(value):
            return value
        if time.monotonic() >= deadline:
            raise AssertionError(f"waited {timeout_s:g} s for {what}; last read: {value!r}")
        time.sleep(EVERY_S)
