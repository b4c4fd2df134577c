"""The hot-seat duel through the real page in Debian's Chromium, engine in Pyodide.

A scripted duel is played to its end through the UI only (the engine decides when and how it
ends), with a reload between the two wizards' orders; its record is exported, downloaded and
imported again; the spell reference opens; one turn is played by keyboard alone; and the orders
screen is checked at a phone's 375px width.  Screenshots of the main screens go to test-output/
for a person to look at.

Fixtures `server_url`, `browser`, `page` and `shot` come from e2e/conftest.py.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")

from conftest import Shot
from duel_play import (
    ENGINE_MS,
    HOTSEAT_SCRIPT,
    NAMES,
    import_hasted_turn,
    import_record,
    open_game,
    pick,
    play_duel,
    play_turn,
    record_text,
    script_row,
    start_hotseat,
    to_orders,
    wait_left,
    wait_preview,
    wait_screen,
)

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "test-output"
MAX_TURNS = 20
RELOAD_AT_TURN = 4  # reload after the first wizard of this turn has sealed their orders


def play_until_over(page: Any, shot: Shot) -> None:
    """Follow the duel of duel_play's HOTSEAT_SCRIPT (then nothing and a stab) until the result
    shows; mid-turn RELOAD_AT_TURN, one wizard's orders sealed, the page is reloaded."""
    reloaded = False
    shots: set[str] = set()

    def pass_shot(page: Any) -> None:
        if "pass" not in shots:
            shot(page, "hotseat-pass", full_page=False)
            shots.add("pass")

    def write(page: Any, wizard: int, turn: int) -> None:
        nonlocal reloaded
        assert turn <= MAX_TURNS, "the scripted duel should have ended by now"
        def shots_of_the_orders(page: Any) -> None:
            if turn == 2 and "orders" not in shots:
                shot(page, "hotseat-orders")
                shots.add("orders")
            if turn == 5 and wizard == 0 and "casting" not in shots:
                shot(page, "hotseat-orders-casting")
                shots.add("casting")

        play_turn(page, script_row(HOTSEAT_SCRIPT, wizard, turn), shots_of_the_orders)
        if turn == RELOAD_AT_TURN and not reloaded and wait_screen(page) == "pass-screen":
            # Mid-turn: one wizard's orders are sealed, the other's are not yet written.
            waiting_for = page.inner_text("#pass-title")
            page.reload()
            page.wait_for_function("window.__appReady === true", timeout=ENGINE_MS, polling=100)
            assert wait_screen(page) == "pass-screen"
            assert page.inner_text("#pass-title") == waiting_for, "the sealed orders survive"
            reloaded = True

    play_duel(page, write, screens=4 * MAX_TURNS, decide=None, on_pass=pass_shot)


def test_hotseat_duel_reload_export_import(page: Any, server_url: str, shot: Shot) -> None:
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    open_game(page, server_url)
    shot(page, "start")
    start_hotseat(page)
    play_until_over(page, shot)

    title = page.inner_text("[data-testid=result-title]")
    assert title in ("Alice wins", "Bob wins", "A draw")
    assert page.inner_text("[data-testid=result-how]").strip()
    assert page.locator("[data-testid=battle-log] li").count() > 5
    shot(page, "game-over")

    # Export: the record can be read and downloaded.
    page.click("[data-testid=export-record]")
    record_text = page.input_value("[data-testid=export-text]")
    assert '"wavinghands-record"' in record_text
    with page.expect_download() as download:
        page.click("[data-testid=export-download]")
    OUT.mkdir(exist_ok=True)
    record_file = OUT / "hotseat-record.json"
    download.value.save_as(str(record_file))
    assert record_file.read_text() == record_text
    shot(page, "export", full_page=False)
    page.click("[data-testid=export-close]")

    # The saved list keeps the finished duel.
    page.click("[data-testid=new-duel]")
    page.wait_for_selector("[data-testid=start-screen]")
    assert page.locator("[data-testid=saved-games] li").count() == 1

    # Import: a bad record is refused in words, the downloaded file replays to the same result.
    page.click("[data-testid=import-record]")
    page.fill("[data-testid=import-text]", '{"format": "something else"}')
    page.click("[data-testid=import-submit]")
    page.wait_for_selector("[data-testid=import-error]:visible")
    assert "cannot be loaded" in page.inner_text("[data-testid=import-error]")
    page.set_input_files("[data-testid=import-file]", str(record_file))
    page.wait_for_function(
        "document.querySelector('[data-testid=import-text]').value.includes('wavinghands-record')",
        polling=100,
    )
    shot(page, "import", full_page=False)
    page.click("[data-testid=import-submit]")
    # A finished duel opens in the replay viewer; its last step shows the same result.
    page.wait_for_selector("[data-testid=replay-screen][data-step='0']", timeout=ENGINE_MS)
    page.click("[data-testid=replay-last]")
    page.wait_for_selector("[data-testid=replay-result]", timeout=ENGINE_MS)
    assert page.inner_text("[data-testid=replay-result]").startswith(title)
    assert page.locator("[data-testid=saved-games]").count() == 0
    assert not errors, errors


def test_spell_reference(page: Any, server_url: str, shot: Shot) -> None:
    open_game(page, server_url)
    page.click("[data-testid=open-reference]")
    dialog = page.locator("dialog[data-testid=reference]")
    dialog.wait_for()
    assert dialog.locator("text=F-S-S-D-D").count() >= 1  # the forward list
    page.click("[data-testid=reference-tab-reverse]")
    assert dialog.locator("text=D-D-S-S-F").count() >= 1  # read backwards
    page.fill("[data-testid=reference-search]", "fireball")
    dialog.locator("button", has_text="Fireball").first.click()
    page.wait_for_selector("[data-testid=ref-spell-fireball]")
    assert "ball of fire" in page.inner_text("[data-testid=ref-spell-fireball]")
    shot(page, "reference", full_page=False)
    page.keyboard.press("Escape")
    dialog.wait_for(state="detached")
    # One key away as well.
    page.keyboard.press("r")
    page.locator("dialog[data-testid=reference]").wait_for()
    page.keyboard.press("Escape")
    # The keyboard help is one key away too.
    page.keyboard.press("?")
    page.locator("dialog[data-testid=help]").wait_for()
    shot(page, "keyboard-help", full_page=False)
    page.keyboard.press("Escape")


def focused_testid(page: Any) -> str | None:
    testid: str | None = page.evaluate(
        "document.activeElement && document.activeElement.dataset.testid || null")
    return testid


def test_keyboard_only_turn(page: Any, server_url: str, shot: Shot) -> None:
    open_game(page, server_url)
    # Tab from the top of the page reaches the first name field.
    for _ in range(12):
        page.keyboard.press("Tab")
        if focused_testid(page) == "name-0":
            break
    assert focused_testid(page) == "name-0"
    page.keyboard.press("Enter")  # submits the new-duel form
    page.wait_for_selector("[data-testid=pass-screen]", timeout=ENGINE_MS)
    assert focused_testid(page) == "pass-ready"
    page.keyboard.press("Enter")

    def keyboard_orders(left_key: str, right_key: str) -> int:
        screen = page.wait_for_selector("[data-testid=orders-screen]")
        wizard = int(screen.get_attribute("data-wizard"))
        page.keyboard.press(left_key)
        page.keyboard.press(right_key)
        wait_preview(page)
        turn = int(screen.get_attribute("data-turn"))
        page.keyboard.press("Control+Enter")
        wait_left(page, wizard, turn)
        return wizard

    first = keyboard_orders("s", "Shift+W")
    page.wait_for_selector("[data-testid=pass-screen]")
    assert focused_testid(page) == "pass-ready"
    page.keyboard.press("Enter")
    second = keyboard_orders("w", "Shift+S")
    assert {first, second} == {0, 1}
    # The turn resolved: the second wizard, still holding the device, writes turn 2's orders and
    # sees both rows of turn 1 in the histories.
    screen = page.wait_for_selector("[data-testid=orders-screen]")
    assert screen.get_attribute("data-turn") == "2"
    history = page.inner_text(f"[data-testid=history-{first}]")
    assert "S" in history and "W" in history
    # The gesture radios are reachable with Tab and show a visible focus ring.
    for _ in range(40):
        page.keyboard.press("Tab")
        if (focused_testid(page) or "").startswith("gesture-0-L-"):
            break
    assert (focused_testid(page) or "").startswith("gesture-0-L-")
    page.keyboard.press("ArrowRight")
    assert page.evaluate(
        "document.activeElement.checked && document.activeElement.name === 'gesture-0-L'"
    )
    outline = page.evaluate(
        "getComputedStyle(document.activeElement.nextElementSibling).outlineStyle"
    )
    assert outline == "solid"
    page.keyboard.press("Enter")  # moves on to the right hand rather than sealing
    assert page.evaluate("document.activeElement.name") == "gesture-0-R"
    shot(page, "keyboard-focus", full_page=False)


# Deep: e2e/test_phone_duel.py checks every orders screen of a whole duel at 375 px for a page
# that scrolls sideways (docs/test-tiers.md).
@pytest.mark.deep
def test_phone_width(page: Any, server_url: str, shot: Shot) -> None:
    # The kept desktop context's page, narrowed to a phone's width (a context of its own would
    # boot the engine from the Python library).
    page.set_viewport_size({"width": 375, "height": 812})
    open_game(page, server_url)
    shot(page, "phone-start")
    start_hotseat(page)
    page.click("[data-testid=pass-ready]")
    page.wait_for_selector("[data-testid=orders-screen]")
    pick(page, ("S", "W"))
    wait_preview(page)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 375, f"the page scrolls sideways at 375px ({width}px wide)"
    shot(page, "phone-orders")
    page.click("[data-testid=open-reference]")
    page.locator("dialog[data-testid=reference]").wait_for()
    shot(page, "phone-reference", full_page=False)


@pytest.mark.first_visit  # a service worker would serve the wasm the route aborts
def test_engine_failure_is_explained(page: Any, server_url: str) -> None:
    # The runtime cannot be fetched: the page must still show itself and say why it cannot play.
    # ("*.wasm*": the runtime travels packed, as pyodide.asm.wasm.br, docs/build.md.)
    page.route("**/*.wasm*", lambda route: route.abort())
    page.goto(server_url)
    page.wait_for_selector("[data-testid=start-screen]", timeout=10_000)
    status = page.wait_for_selector(
        "[data-testid=engine-status][data-state=error]", timeout=ENGINE_MS
    )
    assert "could not start" in status.inner_text()
    page.click("[data-testid=start-game]")
    error = page.wait_for_selector("[data-testid=start-error]:visible")
    assert error.inner_text().strip()


def test_rule_options_come_from_the_engine(page: Any, server_url: str) -> None:
    # The start screen keeps no list of rules: the withhold option is the engine's
    # (api.rulesets), shown once the engine is up, and a duel started with it carries it.
    open_game(page, server_url)
    box = page.wait_for_selector("[data-testid=option-withhold]", state="attached")
    label = page.locator("label.choice", has=page.locator("[data-testid=option-withhold]"))
    assert "withheld" in label.inner_text()
    assert not box.is_checked()
    box.check()
    start_hotseat(page)
    page.wait_for_function(
        "Object.values(localStorage).some((v) => v.includes('\"withhold\":true'))",
        timeout=ENGINE_MS, polling=100)


# Deep: e2e/test_order_form.py's test_warlocks_the_paralysed_hand_is_named_on_the_form_and_not_in_a_
# hasted_turn plays a Warlocks hasted turn through the same screens (docs/test-tiers.md).
@pytest.mark.deep
def test_a_warlocks_hasted_turn_is_played_by_the_hastened_wizard_alone(page: Any, server_url: str,
                                                                        shot: Shot) -> None:
    # A Warlocks duel (imported record) in which Alice hastened herself on turn 6: after her
    # normal turn 7 comes the hasted turn 8, which only she plays (one gesture set), with a
    # hand-over screen that says so; Bob then writes his turn-9 orders as usual.
    import json
    import sys

    sys.path.insert(0, str(ROOT / "engine"))
    from wavinghands import duel as engine_duel
    from wavinghands.record import export_record
    from wavinghands.rulesets import find_ruleset

    game = engine_duel.new_game(NAMES, "5eed5eed", find_ruleset("warlocks"))
    for left, right in zip("PWPWWC-", "-----C-", strict=True):
        game, _ = engine_duel.step(game, {0: {"gestures": [[left, right]]},
                                          1: {"gestures": [["-", "-"]]}})
    assert game.phase.kind == "time_stop" and game.phase.hasted and game.phase.turn == 8
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    open_game(page, server_url)
    import_hasted_turn(page, json.dumps(export_record(game)), 8)
    pick(page, ("S", "D"))
    wait_preview(page)
    shot(page, "warlocks-hasted-turn")
    page.click("[data-testid=submit-orders]")
    wait_left(page, 0, 8)
    # The next screen is turn 9's: the hasted turn resolved with Alice's orders alone.
    assert to_orders(page)[1] == 9
    assert page.text_content("[data-testid=phase-tag]") != "hasted turn"
    assert not errors, errors


@pytest.mark.deep  # docs/test-tiers.md: the engine's limit is tests/test_record_limits.py's
def test_a_duel_that_reaches_turn_1000_ends_drawn_and_says_why(
    page: Any, server_url: str, shot: Shot
) -> None:
    # Not a rule but a limit of this implementation (docs/rules.md, "Limits of this
    # implementation"): a duel (here imported with 999 turns of nothing) still going when turn
    # 1,000 resolves ends as a draw with a message, and stays a duel that can be saved and
    # imported again, instead of going on to a turn no record may hold.
    import json

    from wavinghands.record import MAX_RECORD_TURNS  # (duel_play puts engine/ on the path)

    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    open_game(page, server_url)
    import_record(page, record_text([("--", "--")] * (MAX_RECORD_TURNS - 1)))
    for wizard in (0, 1):
        page.wait_for_selector("[data-testid=pass-screen]", timeout=ENGINE_MS)
        page.click("[data-testid=pass-ready]")
        page.wait_for_selector(
            f"[data-testid=orders-screen][data-wizard='{wizard}'][data-turn='1000']",
            timeout=ENGINE_MS,
        )
        pick(page, ("-", "-"))
        wait_preview(page)
        assert "Turn 1,000 is the last this implementation plays" in page.inner_text(
            "[data-testid=asks]"
        )
        page.click("[data-testid=submit-orders]")
        wait_left(page, wizard, MAX_RECORD_TURNS)
    page.wait_for_selector("[data-testid=game-over]", timeout=ENGINE_MS)
    assert page.inner_text("[data-testid=result-title]") == "A draw"
    how = page.inner_text("[data-testid=result-how]")
    assert "Turn 1,000 is the last this implementation plays" in how, how
    assert "not of the rules" in how, how
    shot(page, "hotseat-turn-limit", full_page=False)  # the page holds 1,000 history rows
    # The finished duel was saved, and its record (1,000 turns) is one the import takes.
    saved = page.evaluate(
        "() => Object.keys(localStorage).filter((k) => k.startsWith('wavinghands:v1:game:'))"
        ".map((k) => JSON.parse(localStorage.getItem(k)))"
    )
    assert [d["summary"]["over"] for d in saved] == [True], saved
    from wavinghands import api

    game = json.dumps(saved[0]["game"])
    record = json.loads(api.export_record(game))["record"]
    assert json.loads(api.import_record(json.dumps(record)))["ok"]
    assert not errors, errors
