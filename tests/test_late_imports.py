"""The engine's import leaves the opponent, remote play and a duel's later needs (resolution,
history notes, previews) for later (docs/build.md, "Boot"): the page's cold boot imports
`wavinghands.api` and must not pay for modules its readiness does not need; `api.LATE_MODULES`
names them (the worker imports them once the page is idle), and the calls that need them import
them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import wavinghands
from wavinghands import api

ENGINE = Path(next(iter(wavinghands.__path__))).parent

PROBE = """
import json, sys
import wavinghands.api as api

def loaded():
    return {name: name in sys.modules for name in api.LATE_MODULES}

at_import = loaded()
game = json.loads(api.new_game(json.dumps({"seed": "00112233"})))["game"]
view = json.loads(api.view(json.dumps(game), "0"))["ok"]
after_a_view = loaded()
draft = {"gestures": [["P", "S"]]}
previewed = json.loads(api.preview(json.dumps(game), "0", json.dumps(draft)))["ok"]
played = json.loads(api.ai_input(json.dumps(game), "0"))["ok"]
parsed = json.loads(api.remote_parse(json.dumps("not a code")))["ok"]
stepped = json.loads(api.step(json.dumps(game), json.dumps({"0": draft, "1": draft})))["ok"]
print(json.dumps([at_import, after_a_view, [view, previewed, played, stepped], parsed, loaded()]))
"""

# What a view imports for its notes; the opponent and remote play wait for their own calls.
FOR_A_VIEW = {"wavinghands.account"}


@pytest.mark.skipif(sys.platform == "emscripten", reason="no processes in Pyodide; "
                    "tests/pyodide/run.mjs checks the page's boot there")
def test_the_api_imports_no_late_module_until_a_call_needs_it() -> None:
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=ENGINE, capture_output=True,
                         text=True, check=True, timeout=120)
    at_import, after_a_view, answered, parsed, at_end = json.loads(out.stdout)
    assert at_import == dict.fromkeys(api.LATE_MODULES, False)
    assert [name for name, there in after_a_view.items() if there] == sorted(FOR_A_VIEW)
    assert answered == [True, True, True, True]
    assert parsed is False  # an error as a value, from the remote module imported for it
    assert at_end == dict.fromkeys(api.LATE_MODULES, True)


def test_the_api_offers_each_remote_function_under_its_own_name() -> None:
    """Each of remote.json_api's functions is at the boundary as api.<its name>, says where it
    lives, and answers what json_api answers (an error value for a code that is not one)."""
    from wavinghands import api
    from wavinghands.remote import json_api

    offered = sorted(name for name in api.__all__
                     if name.startswith("remote_") and not name.startswith("remote_melee_"))
    assert offered == sorted(json_api.__all__)
    for name in offered:
        assert getattr(api, name).__name__ == name
        assert f"remote.json_api.{name}," in getattr(api, name).__doc__
    text = json.dumps("not a code")
    assert api.remote_parse(text) == json_api.remote_parse(text)
    assert json.loads(api.remote_parse(text))["ok"] is False
