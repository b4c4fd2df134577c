"""A boot whose download dies is called hung a while after the last byte, with a sentence the
player can act on and a Reload button, not after a fixed three minutes (web/stall-timer.js);
one whose bytes keep arriving is never cut short (tests/js/stall-timer.test.mjs)."""

from __future__ import annotations

import time
from typing import Any

import pytest
from boot_play import boot_failure_detail
from playwright.sync_api import expect
from serving import LIBRARY_EITHER_NAME

# The quiet after which the page calls the boot hung, shortened for this test (the page's own
# is STALL_MS, a minute): engine.js reads it from the page before the boot starts.
STALL_S = 4
# The boot's first steps (the page, the worker's scripts, the snapshot's lookup) come first; at a
# load of 12 they may take some seconds.
REPORTED_WITHIN_S = 60


@pytest.mark.first_visit
def test_a_download_that_stops_is_called_hung_after_the_quiet_not_after_minutes(
    page: Any, server_url: str
) -> None:
    held: list[Any] = []
    # The connection dies once the download has begun: the library and the wasm never arrive.
    page.route(LIBRARY_EITHER_NAME, lambda route: held.append(route))
    page.route("**/pyodide.asm.wasm*", lambda route: held.append(route))
    page.add_init_script(f"window.__engineStallMs = {STALL_S * 1000};")
    started = time.monotonic()
    page.goto(server_url)
    status = page.locator("[data-testid=engine-status][data-state=error]")
    status.wait_for(timeout=REPORTED_WITHIN_S * 1000)
    waited = time.monotonic() - started
    expect(status).to_contain_text("nothing arrived for a minute")
    expect(status).to_contain_text("Check the connection and reload the page")
    expect(status.get_by_role("button", name="Reload")).to_be_visible()
    detail = boot_failure_detail(page)
    assert f"no word from the engine worker for {STALL_S} s" in detail, detail
    assert held, "the wasm and the library were never asked for"
    # Not before the quiet had passed since the worker's last word.
    assert waited >= STALL_S, waited
