"""A long duel costs the page what a short one does (issue 24, bug 10).

A duel at turn 60 (bench/turn_cost.py's: shields and magic missiles) is imported and one turn is
played through the page's forms.  What the page sends the engine worker for that turn holds no
whole game (the engine keeps the duel: web/engine-session.js), the orders form holds a bounded
number of elements (the log and the histories draw their newest turns), and nothing is lost: the
earlier turns are one click away.  The figures at turns 5 to 300 are bench/turn_cost_page.py's.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from turn_cost_page import ENGINE_MS, record_at, seal, the_form, write_orders  # noqa: E402

TURN = 60
# Elements on the orders form at turn 60 with the log's and histories' newest turns drawn (about
# 1,000; about 2,400 when every turn was drawn).
MOST_ELEMENTS = 1_500

# Installed before any page script: the characters of every call's arguments posted to the
# engine's worker, in order.
COUNT_POSTS = """(() => {
  window.__posted = [];
  const post = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (message, ...rest) {
    if (message && typeof message.fn === 'string') {
      window.__posted.push([message.fn, (message.args || []).reduce((n, a) => n + a.length, 0)]);
    }
    return post.call(this, message, ...rest);
  };
})();"""


def test_a_turn_of_a_long_duel_sends_no_whole_game_and_draws_a_bounded_page(
    page: Any, server_url: str
) -> None:
    record = record_at(TURN)
    page.add_init_script(COUNT_POSTS)
    page.goto(server_url)
    page.wait_for_function("window.__appReady === true", timeout=ENGINE_MS)
    page.click("[data-testid=import-record]")
    page.fill("[data-testid=import-text]", record)
    page.click("[data-testid=import-submit]")
    wizard, turn = the_form(page)
    assert turn == TURN
    page.evaluate("window.__posted.length = 0")
    write_orders(page, turn)
    seal(page, wizard, turn)
    assert the_form(page)[1] == turn
    write_orders(page, turn)
    page.click("[data-testid=submit-orders]")
    page.wait_for_selector(f"[data-testid=orders-screen][data-turn='{turn + 1}']",
                           timeout=ENGINE_MS)
    posted = page.evaluate("window.__posted")
    calls = [fn for fn, _ in posted]
    assert "session_step" in calls and "step" not in calls, calls
    biggest = max(size for _, size in posted)
    assert biggest < len(record) / 10, f"a call of a turn sent {biggest} characters: {posted}"

    elements = page.evaluate("document.getElementsByTagName('*').length")
    assert elements <= MOST_ELEMENTS, f"{elements} elements on the orders form at turn {TURN}"
    # Nothing is lost: the earlier turns of the log are there when asked for.
    page.evaluate("document.querySelector('[data-testid=log-panel]').open = true")
    earlier = page.locator("[data-testid=battle-log-earlier]")
    assert earlier.is_visible()
    earlier.click()
    assert page.locator("[data-testid=battle-log] li.turn-head[data-turn='1']").count() == 1
    history = page.locator("[data-testid=history-0-earlier]")
    history.click()
    assert page.locator("[data-testid=history-0] tbody tr").count() >= TURN
