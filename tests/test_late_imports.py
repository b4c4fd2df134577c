"""The engine's import leaves the opponent and remote play for later (docs/build.md, "Boot"):
the page's cold boot imports `wavinghands.api` and must not pay for modules its first duel does
not call; `api.LATE_MODULES` names them (the worker imports them once the page is idle), and
the calls that need them import them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import wavinghands

ENGINE = Path(next(iter(wavinghands.__path__))).parent

PROBE = """
import json, sys
import wavinghands.api as api

def loaded():
    return [name in sys.modules for name in api.LATE_MODULES]

at_import = loaded()
game = json.loads(api.new_game(json.dumps({"seed": "00112233"})))["game"]
view = json.loads(api.view(json.dumps(game), "0"))["ok"]
after_a_view = loaded()
played = json.loads(api.ai_input(json.dumps(game), "0"))["ok"]
parsed = json.loads(api.remote_parse(json.dumps("not a code")))["ok"]
print(json.dumps([at_import, view, after_a_view, played, parsed, loaded()]))
"""


@pytest.mark.skipif(sys.platform == "emscripten", reason="no processes in Pyodide; "
                    "tests/pyodide/run.mjs checks the page's boot there")
def test_the_api_imports_no_late_module_until_a_call_needs_it() -> None:
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=ENGINE, capture_output=True,
                         text=True, check=True, timeout=120)
    at_import, view, after_a_view, played, parsed, at_end = json.loads(out.stdout)
    assert at_import == after_a_view == [False, False]
    assert view and played
    assert parsed is False  # an error as a value, from the remote module imported for it
    assert at_end == [True, True]


def test_the_api_offers_each_remote_function_under_its_own_name() -> None:
    """Each of remote.json_api's functions is at the boundary as api.<its name>, says where it
    lives, and answers what json_api answers (an error value for a code that is not one)."""
    from wavinghands import api
    from wavinghands.remote import json_api

    offered = sorted(name for name in api.__all__ if name.startswith("remote_"))
    assert offered == sorted(json_api.__all__)
    for name in offered:
        assert getattr(api, name).__name__ == name
        assert f"remote.json_api.{name}," in getattr(api, name).__doc__
    text = json.dumps("not a code")
    assert api.remote_parse(text) == json_api.remote_parse(text)
    assert json.loads(api.remote_parse(text))["ok"] is False
