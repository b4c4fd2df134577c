"""The command line: replay a record as text or JSON, print the spell table."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from dsl import Duel

import wavinghands
from wavinghands.__main__ import main
from wavinghands.record import export_record

EXAMPLE = Path(__file__).resolve().parent.parent / "docs" / "examples" / "example-duel.json"


def _record(tmp_path: Path) -> Path:
    # A's fireball (F-S-S-D-D, with the missile inside it) then cause heavy wounds.
    d = Duel(A="F S S D D W P F D / - - - - - - - - -",
             B="- - - - - - - - - / - - - - - - - - -").run()
    path = tmp_path / "duel.json"
    path.write_text(json.dumps(export_record(d.game)))
    return path


def test_replay_json_gives_damage_per_turn_and_the_result(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(_record(tmp_path)), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    damages = [t["wizards"][1]["damage"] for t in out["turns"]]
    # Missile on turn 4 (1), fireball on turn 5 (5 more), cause heavy wounds on turn 9 (3 more).
    assert damages == [0, 0, 0, 1, 6, 6, 6, 6, 9]
    assert all(t["wizards"][1]["alive"] for t in out["turns"])
    assert out["result"] is None


def test_replay_text_is_a_readable_account(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(_record(tmp_path))]) == 0
    text = capsys.readouterr().out
    assert "Turn 5:" in text and "The fireball engulfs B: 5 damage." in text


def test_a_bad_record_is_refused_with_a_reason(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"format": "wavinghands-record", "version": 1, "players": ["A", "B"],
                                "seed": "00000000", "phases": [{"kind": "orders", "turn": 1,
                                                                "inputs": {"0": {}}}]}))
    assert main(["replay", str(path)]) == 2
    assert "phase 1 of the record cannot be replayed" in capsys.readouterr().err


def test_the_shipped_example_replays_to_its_result() -> None:
    if not EXAMPLE.exists():
        pytest.skip("docs/ is not part of an installed wheel")
    if sys.platform == "emscripten":
        pytest.skip("Pyodide has no subprocesses")
    engine = str(Path(wavinghands.__file__).resolve().parent.parent)
    env = {**os.environ, "PYTHONPATH": engine}
    proc = subprocess.run([sys.executable, "-m", "wavinghands", "replay", str(EXAMPLE), "--json"],
                          capture_output=True, text=True, check=True, env=env)
    out = json.loads(proc.stdout)
    assert out["result"]["winner"] == "Morgana"


def test_spells_lists_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["spells"]) == 0
    text = capsys.readouterr().out
    assert "Lightning bolt" in text and "W-D-D-C" in text and "(p" in text
