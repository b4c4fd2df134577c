"""Bounded polls for state the page cannot be waited on for with a locator.

Playwright's `expect(...)` and `wait_for_selector` wait on the DOM; `wait_for_function` polls a
predicate in the page but does not await a promise it returns (an async predicate's promise is
truthy, so the wait ends at once, whatever the promise would say).  State that only an async
read gives (Cache Storage, IndexedDB, a worker's answer) or that lives outside the page (the
test server's log) is polled here instead: read, test, and read again until the condition holds
or the bound passes, then fail with the last value read.  A promise the page gives once (the
engine's answer, its kept snapshot) is awaited with `settled`, bounded the same way.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

# Between two reads: short next to any bound, long enough not to load a busy machine.
EVERY_S = 0.1


def poll(read: Callable[[], T], done: Callable[[T], bool], *, timeout_s: float, what: str,
         pause: Callable[[float], None] = time.sleep) -> T:  # fmt: skip
    """Call `read()` until `done(value)` holds and return that value; after `timeout_s` seconds
    without it, fail the test with `what` was awaited and the last value read.  Between reads
    it calls `pause(EVERY_S)` (a page's wait_for_timeout lets Playwright deliver its events)."""
    deadline = time.monotonic() + timeout_s
    while True:
        value = read()
        if done(value):
            return value
        if time.monotonic() >= deadline:
            raise AssertionError(f"waited {timeout_s:g} s for {what}; last read: {value!r}")
        pause(EVERY_S)


# `page.evaluate` awaits the promise its function returns with no bound of its own: a promise
# that never settles (an engine that never answers, a service worker that never installs) would
# hold the test, and the run, for ever.  So `settled` races it against a timer in the page.
BOUNDED_JS = """async ([arg, ms]) => {
  let timer;
  const late = new Promise((resolve) => { timer = setTimeout(() => resolve({ late: ms }), ms); });
  const answer = Promise.resolve((FUNCTION)(arg)).then((value) => ({ value }));
  try {
    return await Promise.race([answer, late]);
  } finally {
    clearTimeout(timer);
  }
}"""


def settled(page: Any, function: str, arg: Any = None, *, timeout_s: float, what: str) -> Any:
    """What the page function `function` (JS source, called with `arg`) returns, its promise
    awaited; a rejection raises as `page.evaluate`'s does; if it has not settled after
    `timeout_s` seconds, fail the test saying `what` was awaited."""
    outcome = page.evaluate(BOUNDED_JS.replace("FUNCTION", function), [arg, int(timeout_s * 1000)])
    if "late" in outcome:
        raise AssertionError(f"waited {timeout_s:g} s for {what}; it never settled")
    return outcome.get("value")
