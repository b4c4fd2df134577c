"""A full storage loses nothing, and saved duels can be seen, deleted and exported (issue 12.2).

Before: when the browser refused to save, sealing still showed the code (only a toast said so);
after a reload the commitment and nonce were gone, the opponent's answer gave `out-of-order` and
sealing again `conflicting-code`. Here the guest's localStorage is filled to its quota (an old
saved duel and filler) before sealing: no code is shown, the message says what to do, a reload
finds the duel as before; deleting the old duel from the dialog the message offers makes room,
sealing again works and the host's answer is accepted. The host, full in turn, does not apply a
pasted code it cannot store, and applies it with "Try again" once there is room. The start
screen lists each duel's size and the total; delete asks by name; export downloads a record
that the import reads back.

Fixtures `browser`, `server_url` and `shot` come from e2e/conftest.py; the duel's driver is
e2e/remote_play.py.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from duel_play import choose_ruleset
from remote_play import (
    FILL_JS,
    FREE_JS,
    NAMES,
    STEP_MS,
    act,
    begin,
    code_to_send,
    deliver,
    invite,
    open_site,
    paste,
    remote_screen,
    screen_state,
    two_players,
    wait_changed,
    write_orders,
)

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "docs" / "examples" / "example-duel.json"
OLD_ID = "old0000000000001"

# A saved duel planted the way storage.js saves one, so the saved-duels list shows it and can
# delete it: by default an old finished duel of about 600 KB (as a long duel imported from a
# record would be), played a day ago.
PLANT_DUEL_JS = """({ id, names = ['Merlin', 'Morgana'], days = 1, over = true,
                       chars = 600_000 }) => {
  const index = JSON.parse(localStorage.getItem('wavinghands:v1:index') || '[]');
  const summary = { title: `${names[0]} vs ${names[1]}`, names, turn: 40, over,
                    resultText: over ? `${names[0]} won (${names[1]} surrendered)` : '' };
  const updatedAt = Date.now() - days * 86_400_000;
  localStorage.setItem(`wavinghands:v1:game:${id}`, JSON.stringify({ id, mode: 'hotseat',
    game: { padding: 'x'.repeat(chars) }, summary, updatedAt }));
  index.push({ id, mode: 'hotseat', updatedAt, ...summary });
  localStorage.setItem('wavinghands:v1:index', JSON.stringify(index));
}"""

STORED_JS = "(id) => localStorage.getItem(`wavinghands:v1:game:${id}`)"
RECORD_READ_JS = """() => document.querySelector('[data-testid=import-text]').value
  .includes('wavinghands-record')"""

@pytest.fixture
def players(browser: Any) -> Iterator[dict[int, Any]]:
    """Two players, each in their own browser context (own storage), host 0 and guest 1."""
    with two_players(browser) as pages:
        yield pages


def import_and_leave(page: Any, record: Path) -> None:
    """Import a record file from the start screen (a finished duel opens in the replay viewer)
    and go back to the start screen."""
    page.click("[data-testid=import-record]")
    page.set_input_files("[data-testid=import-file]", str(record))
    page.wait_for_function(RECORD_READ_JS)
    page.click("[data-testid=import-submit]")
    page.wait_for_selector("[data-testid=replay-screen]", timeout=STEP_MS)
    page.click("[data-testid=leave-duel]")


def unsaved_error(page: Any) -> str:
    """The storage-full message on the duel's screen; returns its text."""
    box = page.wait_for_selector("[data-testid=remote-error][data-code=storage-full]",
                                 timeout=STEP_MS)
    text: str = box.inner_text()
    return text


def test_a_full_storage_shows_no_code_and_loses_nothing(players: dict[int, Any], server_url: str,
                                                        shot: Any) -> None:
    host, guest = players[0], players[1]
    open_site(host, server_url)
    open_site(guest, server_url)
    invite(host, guest, "codes")

    # Turn 1 goes by codes as usual: the guest commits, the host answers in plain.
    assert act(guest) == "orders"
    deliver(host, code_to_send(guest))
    assert act(host) == "orders"
    deliver(guest, code_to_send(host))
    turn2 = screen_state(guest)
    assert turn2 and turn2["state"] == "your_input" and turn2["turn"] == "2", turn2

    # The guest's storage is full: an old 600 KB duel and filler up to the quota.
    guest.evaluate(PLANT_DUEL_JS, {"id": OLD_ID})
    assert guest.evaluate(FILL_JS) > 0
    write_orders(guest)
    text = unsaved_error(guest)
    assert "storage for this page is full" in text and "no code was shown or sent" in text
    assert "delete or export old duels, then seal again" in text
    assert screen_state(guest) == turn2, "a step that was not saved changes nothing"
    assert guest.locator("[data-testid=remote-code]").count() == 0
    shot(guest, "storage-full-seal")

    # A reload finds the duel exactly as it was: same turn, same message number, nothing sent.
    guest.reload()
    guest.wait_for_function("() => window.__appReady === true", timeout=STEP_MS)
    guest.wait_for_selector("[data-testid=orders-screen]", timeout=STEP_MS)
    assert screen_state(guest) == turn2

    # Sealing again while still full: refused again; the message leads to the saved duels.
    write_orders(guest)
    unsaved_error(guest)
    guest.click("[data-testid=open-saved-duels]")
    dialog = guest.locator("dialog[data-testid=saved-duels]")
    dialog.wait_for(timeout=STEP_MS)
    old = dialog.locator(f"[data-testid=saved-{OLD_ID}]")
    assert old.locator(f"[data-testid=size-{OLD_ID}]").inner_text() in ("586 KB", "587 KB")
    # The duel being played is listed but cannot be deleted from here.
    current = dialog.locator("[data-testid^=delete-r-]")
    assert current.count() == 1 and current.is_disabled()
    shot(guest, "storage-full-dialog", full_page=False)
    old.locator(f"[data-testid=delete-{OLD_ID}]").click()
    confirm = dialog.locator(f"[data-testid=confirm-{OLD_ID}]")
    assert "Delete Merlin vs Morgana (Merlin won" in confirm.inner_text()
    dialog.locator(f"[data-testid=confirm-delete-{OLD_ID}]").click()
    old.wait_for(state="detached", timeout=STEP_MS)
    guest.click("[data-testid=saved-duels-close]")

    # Room made: the same orders seal, the code shows, and the host's answer is accepted.
    guest.click("[data-testid=submit-orders]")
    wait_changed(guest, turn2)
    assert remote_screen(guest)["state"] == "waiting"
    deliver(host, code_to_send(guest))
    assert act(host) == "orders"
    deliver(guest, code_to_send(host))
    after = remote_screen(guest)
    assert after["state"] == "your_input" and after["turn"] == "3", after
    assert guest.locator("[data-testid=remote-error]").count() == 0

    # The host's storage is full when the guest's next code arrives: it is not applied (it
    # could not be stored), and "Try again" applies it once there is room.
    assert act(guest) == "orders"
    code = code_to_send(guest)
    assert host.evaluate(FILL_JS) > 0
    waiting = screen_state(host)
    paste(host, code)
    text = unsaved_error(host)
    assert "then apply the code again" in text
    assert screen_state(host) == waiting
    host.evaluate(FREE_JS)
    host.click("[data-testid=retry-unsaved]")
    wait_changed(host, waiting)
    moved = remote_screen(host)
    assert moved["state"] == "your_input" and moved["turn"] == "3", moved
    assert host.locator("[data-testid=remote-error]").count() == 0


def test_saved_duels_show_their_size_and_can_be_exported_and_deleted(
        page: Any, server_url: str, shot: Any, tmp_path: Path) -> None:
    open_site(page, server_url)
    # A finished duel, imported from the example record.
    import_and_leave(page, EXAMPLE)
    item = page.locator("[data-testid=saved-games] li").first
    item.wait_for(timeout=STEP_MS)
    duel_id = item.get_attribute("data-testid").removeprefix("saved-")
    stored = len(page.evaluate(STORED_JS, duel_id))
    # Its size is its entry's characters (key and text), shown in KB.
    expected = stored + len(f"wavinghands:v1:game:{duel_id}")
    assert item.get_attribute("data-size") == str(expected)
    assert 10 * 1024 < expected < 100 * 1024, expected
    assert page.inner_text(f"[data-testid=size-{duel_id}]") == f"{round(expected / 1024)} KB"
    assert page.inner_text("[data-testid=storage-use]").startswith("Saved duels take ")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=storage-quota]').textContent.includes('MB')",
        timeout=STEP_MS)
    shot(page, "saved-duels-desktop")
    page.set_viewport_size({"width": 390, "height": 844})
    shot(page, "saved-duels-phone")
    page.set_viewport_size({"width": 1200, "height": 900})

    # Export: the downloaded record is the example duel's, and the import reads it back.
    page.click(f"[data-testid=export-{duel_id}]")
    with page.expect_download() as download:
        page.click("[data-testid=export-download]")
    saved = tmp_path / "exported.json"
    download.value.save_as(str(saved))
    exported = json.loads(saved.read_text(encoding="utf-8"))
    assert exported["phases"] == json.loads(EXAMPLE.read_text(encoding="utf-8"))["phases"]
    page.click("[data-testid=export-close]")

    # Delete: the confirmation names the duel; "Keep it" keeps it, "Delete it" deletes it.
    page.click(f"[data-testid=delete-{duel_id}]")
    confirm = page.inner_text(f"[data-testid=confirm-{duel_id}]")
    names = json.loads(EXAMPLE.read_text(encoding="utf-8"))["players"]
    assert confirm.startswith(f"Delete {names[0]} vs {names[1]} ("), confirm
    assert "cannot be brought back" in confirm
    shot(page, "saved-duels-confirm-delete", full_page=False)
    page.click(f"[data-testid=keep-{duel_id}]")
    assert page.is_visible(f"[data-testid=saved-{duel_id}]")
    page.click(f"[data-testid=delete-{duel_id}]")
    page.click(f"[data-testid=confirm-delete-{duel_id}]")
    page.wait_for_selector(f"[data-testid=saved-{duel_id}]", state="detached", timeout=STEP_MS)
    assert page.evaluate(STORED_JS, duel_id) is None

    # The exported file imports again: the duel is back in the list.
    import_and_leave(page, saved)
    page.wait_for_selector("[data-testid=saved-games] li", timeout=STEP_MS)
    assert page.locator("[data-testid=saved-games] li").count() == 1


def test_an_oversized_record_file_is_refused_by_its_size(page: Any, server_url: str,
                                                          tmp_path: Path) -> None:
    """A record file over MAX_RECORD_BYTES is refused before it is read, naming the limit."""
    open_site(page, server_url)
    big = tmp_path / "big.json"
    big.write_text('{"format": "wavinghands-record", "pad": "' + "x" * 2_000_000 + '"}')
    page.click("[data-testid=import-record]")
    page.set_input_files("[data-testid=import-file]", str(big))
    error = page.locator("[data-testid=import-error]")
    error.wait_for(state="visible", timeout=STEP_MS)
    assert "2,000,000" in error.inner_text() and "2,000,043 bytes" in error.inner_text()
    assert page.input_value("[data-testid=import-text]") == ""


def test_finished_duels_older_than_an_age_go_at_once(page: Any, server_url: str, shot: Any) -> None:
    """"Finished duels not played for more than a month": the confirmation says how many, which
    and how much room; only those go (not a recent one, not an unfinished old one)."""
    # Planted from a document of the site's origin that is not the page (no app, no engine): the
    # page then opens once, on them.
    page.goto(server_url + "manifest.webmanifest")
    plants = [{"id": "old1", "names": ["Ann", "Bo"], "days": 40, "chars": 20_000},
              {"id": "old2", "names": ["Cy", "Di"], "days": 100, "chars": 30_000},
              {"id": "new1", "names": ["Ed", "Flo"], "days": 3, "chars": 1_000},
              {"id": "open1", "names": ["Gus", "Hal"], "days": 200, "over": False, "chars": 1_000}]
    for plant in plants:
        page.evaluate(PLANT_DUEL_JS, plant)
    page.goto(server_url)
    page.wait_for_selector("[data-testid=saved-old1]", timeout=STEP_MS)
    assert page.input_value("[data-testid=tidy-age]") == "30"
    page.click("[data-testid=tidy-ask]")
    confirm = page.inner_text("[data-testid=tidy-confirm]")
    assert confirm.startswith("Delete these 2 finished duels (49 KB)"), confirm
    assert "Ann vs Bo" in confirm and "Cy vs Di" in confirm and "Ed vs Flo" not in confirm
    shot(page, "saved-duels-tidy", full_page=False)
    page.click("[data-testid=tidy-delete]")
    page.wait_for_selector("[data-testid=saved-old1]", state="detached", timeout=STEP_MS)
    listed = page.locator("[data-testid=saved-list] > li").evaluate_all(
        "(items) => items.map((li) => li.dataset.testid)")
    assert sorted(listed) == ["saved-new1", "saved-open1"], listed
    assert page.evaluate("() => localStorage.getItem('wavinghands:v1:game:old2')") is None
    # No finished duel is older than a year now.
    page.select_option("[data-testid=tidy-age]", "365")
    page.click("[data-testid=tidy-ask]")
    page.wait_for_selector("[data-testid=tidy-none]")


def test_an_invitation_that_cannot_be_saved_is_not_shown(page: Any, server_url: str) -> None:
    """Beginning a duel by codes with a full storage: the start screen says why, shows no
    invitation, and the saved-duels list is on the same screen to make room."""
    open_site(page, server_url)
    assert page.evaluate(FILL_JS) > 0
    begin(page, "codes", NAMES[0])
    error = page.locator("[data-testid=start-error]")
    error.wait_for(state="visible", timeout=STEP_MS)
    assert "storage for this page is full" in error.inner_text()
    assert "then begin again" in error.inner_text()
    assert page.locator("[data-testid=remote-code]").count() == 0
    page.evaluate(FREE_JS)
    page.click("[data-testid=start-game]")
    page.wait_for_selector("[data-testid=remote-code]", timeout=STEP_MS)


def test_a_hotseat_duel_that_cannot_be_saved_says_so_until_it_is(page: Any,
                                                                  server_url: str) -> None:
    """Hot-seat with a full storage: the duel goes on in memory, and a note that does not fade
    says a reload would lose it, offers the saved duels to make room and "Save now"; once saved,
    the note goes and a reload resumes the duel."""
    open_site(page, server_url)
    assert page.evaluate(FILL_JS) > 0
    page.check("[data-testid=mode-hotseat]")
    page.click("[data-testid=start-game]")
    page.wait_for_selector("[data-testid=pass-screen]", timeout=STEP_MS)
    note = page.locator("[data-testid=unsaved-note]")
    note.wait_for(state="visible", timeout=STEP_MS)
    assert "storage for this page is full" in note.inner_text()
    assert "a reload would lose" in note.inner_text()
    page.click("[data-testid=unsaved-make-room]")
    page.wait_for_selector("dialog[data-testid=saved-duels]", timeout=STEP_MS)
    page.click("[data-testid=saved-duels-close]")
    page.wait_for_selector("dialog[data-testid=saved-duels]", state="detached", timeout=STEP_MS)
    page.evaluate(FREE_JS)
    page.click("[data-testid=unsaved-save-again]")
    note.wait_for(state="detached", timeout=STEP_MS)
    page.reload()
    page.wait_for_selector("[data-testid=pass-screen]", timeout=STEP_MS)


# A duel saved before the list named the rules: its index entry says nothing of them, its game
# does (the standard rules with the withholding house rule).
PLANT_LEGACY_JS = """(id) => {
  const index = JSON.parse(localStorage.getItem('wavinghands:v1:index') || '[]');
  const summary = { title: 'Merlin vs Morgana', names: ['Merlin', 'Morgana'], turn: 3, over: false,
                    resultText: '' };
  const updatedAt = Date.now() - 60_000;
  localStorage.setItem(`wavinghands:v1:game:${id}`, JSON.stringify({ id, mode: 'hotseat',
    game: { ruleset: { name: 'standard', withhold: true } }, summary, updatedAt }));
  index.push({ id, mode: 'hotseat', updatedAt, ...summary });
  localStorage.setItem('wavinghands:v1:index', JSON.stringify(index));
}"""


def test_the_saved_duels_show_each_duels_rules(page: Any, server_url: str, shot: Any) -> None:
    """A Warlocks duel and a standard one (saved before the list named the rules) each say
    their rules in the start screen's list of saved duels."""
    open_site(page, server_url)
    page.evaluate(PLANT_LEGACY_JS, OLD_ID)
    choose_ruleset(page, "warlocks")
    page.fill("[data-testid=name-0]", "Alice")
    page.fill("[data-testid=name-1]", "Bob")
    page.check("[data-testid=mode-hotseat]")
    page.click("[data-testid=start-game]")
    page.click("[data-testid=pass-ready]", timeout=STEP_MS)
    page.click("[data-testid=leave-duel]", timeout=STEP_MS)
    warlocks = page.locator("[data-testid=saved-games] [data-rules=warlocks]")
    warlocks.wait_for(timeout=STEP_MS)
    assert warlocks.inner_text() == "Warlocks"
    legacy = page.locator(f"[data-testid=rules-{OLD_ID}]")
    assert legacy.inner_text() == (
        "Waving Hands (house rule: completed spells may be withheld)"
    ), legacy.inner_text()
    shot(page, "saved-duels-rules", full_page=False)
    # The duel's own save wrote its rules into the list (no need to read the duel again).
    entries = page.evaluate("() => JSON.parse(localStorage.getItem('wavinghands:v1:index'))")
    assert [e.get("ruleset") for e in entries if e["id"] != OLD_ID] == [
        {"name": "warlocks", "withhold": False}
    ], entries
