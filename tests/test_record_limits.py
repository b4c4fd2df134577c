"""What an imported record may hold (issue 12.2, docs/record-format.md "Limits"): a byte cap
checked before parsing, a phase cap checked before replaying, and a turn cap checked while
replaying; each refusal names its limit and imports nothing."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from wavinghands import api, duel, record
from wavinghands.playout import random_duel
from wavinghands.preview import preview
from wavinghands.record import (
    MAX_RECORD_BYTES,
    MAX_RECORD_PHASES,
    MAX_RECORD_TURNS,
    RecordTooLarge,
    RecordTooLong,
    export_record,
    load_record,
    replay,
)

WEB = Path(__file__).resolve().parent.parent / "web"


def idle_record(turns: int, phases: int | None = None) -> dict[str, Any]:
    """A record of `turns` turns in which both wizards do nothing (the duel never ends), or of
    `phases` such entries, whatever turns they claim."""
    count = turns if phases is None else phases
    nothing = {"gestures": [["-", "-"]]}
    return {"format": "wavinghands-record", "version": 1, "players": ["Ann", "Bo"],
            "seed": "0123abcd",
            "phases": [{"kind": "orders", "turn": t, "inputs": {"0": nothing, "1": nothing}}
                       for t in range(1, count + 1)]}


def _error(text: str) -> dict[str, Any]:
    result = json.loads(text)
    assert result["ok"] is False, result
    error: dict[str, Any] = result["error"]
    return error


def test_a_record_over_the_byte_cap_is_refused_before_parsing() -> None:
    """The size is measured in UTF-8 bytes (what a file's size says) before json.loads runs:
    a text that is not even JSON is refused for its size, naming both numbers."""
    text = "{" + " " * MAX_RECORD_BYTES + "}"
    with pytest.raises(RecordTooLarge) as caught:
        load_record(text)
    message = str(caught.value)
    assert f"{MAX_RECORD_BYTES + 2:,} bytes" in message and f"{MAX_RECORD_BYTES:,}" in message
    error = _error(api.import_record(text))
    assert error["code"] == "record-too-large"
    assert _error(api.replay_step(text, "0"))["code"] == "record-too-large"


def test_the_byte_cap_counts_bytes_not_characters() -> None:
    """Names in a non-Latin script take two or three bytes a character: a record under the cap
    in characters but over it in bytes is refused, as the page refuses the file by its size."""
    name = "魔" * (MAX_RECORD_BYTES // 3 + 1)
    text = json.dumps({"format": "wavinghands-record", "players": [name, "Bo"]},
                      ensure_ascii=False)
    assert len(text) < MAX_RECORD_BYTES < len(text.encode("utf-8"))
    with pytest.raises(RecordTooLarge):
        load_record(text)


def test_a_record_with_too_many_phases_is_refused_before_replaying(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """More entries than MAX_RECORD_PHASES: refused at once, without stepping the engine."""
    def no_replay(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("replayed a record that is over the phase cap")

    monkeypatch.setattr(record, "replay", no_replay)
    text = json.dumps(idle_record(0, phases=MAX_RECORD_PHASES + 1))
    error = _error(api.import_record(text))
    assert error["code"] == "record-too-long"
    assert f"holds {MAX_RECORD_PHASES + 1:,} phases" in error["message"]
    assert f"{MAX_RECORD_TURNS:,} turns" in error["message"]


def test_a_record_beyond_the_turn_cap_is_refused_with_the_turn() -> None:
    """A record within the phase cap whose duel goes on past MAX_RECORD_TURNS stops at the
    first phase beyond it; a cap passed to replay is honoured the same way."""
    with pytest.raises(RecordTooLong) as caught:
        replay(idle_record(6), max_turns=5)
    assert "goes on to turn 6 (phase 6)" in str(caught.value)
    assert len(replay(idle_record(5), max_turns=5)) == 6


def test_the_boundary_applies_the_turn_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    """import_record and replay_step (a record from a file or a #replay= link) both replay
    under the cap; lowered here so the test need not replay a thousand turns."""
    monkeypatch.setattr(record, "MAX_RECORD_TURNS", 4)
    text = json.dumps(idle_record(5))
    error = _error(api.import_record(text))
    assert error["code"] == "record-too-long" and "at most 4 turns" in error["message"]
    assert _error(api.replay_step(text, "0"))["code"] == "record-too-long"
    assert json.loads(api.import_record(json.dumps(idle_record(4))))["ok"]


def test_real_duels_are_far_inside_the_caps() -> None:
    """The caps' reasons, measured: random legal duels never put more than two phases on one
    turn number (so MAX_RECORD_PHASES = 2 x MAX_RECORD_TURNS loses no duel under the turn cap),
    end far below the turn cap, and their pretty-printed records take far less than
    MAX_RECORD_BYTES / MAX_RECORD_TURNS bytes a turn."""
    assert MAX_RECORD_PHASES == 2 * MAX_RECORD_TURNS
    longest = 0
    for seed in range(30):
        game = random_duel(seed, max_turns=150)[-1][0]
        turns = [entry.turn for entry in game.record]
        assert max(turns.count(t) for t in set(turns)) <= 2
        longest = max(longest, game.phase.turn)
        text = json.dumps(export_record(game), indent=2, ensure_ascii=False)
        assert len(text.encode("utf-8")) / game.phase.turn < MAX_RECORD_BYTES / MAX_RECORD_TURNS / 2
        assert json.loads(api.import_record(text))["ok"]
    assert longest < MAX_RECORD_TURNS / 5


def test_the_page_refuses_an_oversized_record_file_by_the_same_number() -> None:
    """web/limits.js holds MAX_RECORD_BYTES, and the import dialog measures the file's size
    against it before reading the file."""
    limits = (WEB / "limits.js").read_text(encoding="utf-8")
    found = re.search(r"export const MAX_RECORD_BYTES = ([\d_]+);", limits)
    assert found and int(found.group(1).replace("_", "")) == MAX_RECORD_BYTES
    records = (WEB / "ui" / "records.js").read_text(encoding="utf-8")
    assert "chosen.size > MAX_RECORD_BYTES" in records


def test_a_duel_in_play_ends_drawn_at_the_turn_cap_and_its_record_imports() -> None:
    """Not a rule (docs/rules.md, "Limits of this implementation"): the engine plays no turn
    after MAX_RECORD_TURNS, so a duel still going when that turn resolves is a draw, said in
    words, and its record (which import_record would refuse one turn later) imports."""
    states = replay(idle_record(MAX_RECORD_TURNS))
    before, last = states[-2], states[-1]
    assert before.result is None and before.phase.turn == MAX_RECORD_TURNS
    # The orders form says so in that turn, and not before.
    notes = [w["code"] for w in preview(before, 0, {"gestures": [["-", "-"]]})["warnings"]]
    assert notes == ["last-turn"], notes
    assert "last-turn" not in [w["code"] for w in preview(states[-3], 0, {})["warnings"]]
    assert last.result is not None and last.result.winner is None, last.phase
    assert last.phase.kind == "over" and last.phase.turn == MAX_RECORD_TURNS
    assert f"turn {MAX_RECORD_TURNS:,} is the last this implementation plays" in last.result.how
    game = json.loads(api.import_record(json.dumps(export_record(last))))
    assert game["ok"], game
    assert game["game"]["result"] == last.result.to_json()
    # No turn after it: the over phase refuses orders.
    with pytest.raises(ValueError, match="the duel is over"):
        duel.step(last, {0: {"gestures": [["-", "-"]]}, 1: {"gestures": [["-", "-"]]}})
