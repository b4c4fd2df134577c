"""Hostile input at the JSON boundary (issue 12, items 4 and 9): every text is measured before
anything parses it, so deep nesting and oversized pastes fail at once with a clear error value
instead of overflowing Pyodide's stack or freezing the page."""

from __future__ import annotations

import inspect
import json
import re
import time
from itertools import accumulate
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sizes import size

from wavinghands import api, boundary

WEB = Path(__file__).resolve().parent.parent / "web"


def _real_function(name: str) -> Any:
    """The function behind api.<name>: past boundary.guard's `*args` wrapper (`__wrapped__`),
    and for a remote one, past the late import to wavinghands.remote.json_api's own."""
    target = inspect.unwrap(getattr(api, name))
    if callable(target) and not inspect.isfunction(target):  # api._LateRemote
        from wavinghands.remote import json_api
        target = inspect.unwrap(getattr(json_api, name))
    return target


def _arity(name: str) -> int:
    """How many strings api.<name> takes, optional ones included."""
    params = inspect.signature(_real_function(name)).parameters.values()
    assert all(p.kind is p.POSITIONAL_OR_KEYWORD for p in params), (name, params)
    return len(params)


# Every function the page may call, with how many JSON strings it takes.
API = {name: _arity(name) for name in api.__all__}


def _depth(value: Any) -> int:
    if isinstance(value, dict):
        return 1 + max((_depth(v) for v in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((_depth(v) for v in value), default=0)
    return 0


def _envelope(text: str) -> dict[str, Any]:
    result = json.loads(text)
    assert isinstance(result, dict) and isinstance(result.get("ok"), bool)
    return result


# Examples per property (tests/sizes.py).  In Pyodide (tests/pyodide/in_pyodide.txt runs this
# file there for its stack) fewer: hypothesis draws some ten times slower there, and what
# Pyodide can change is the stack, not the logic: nesting_depth is two regular expressions and
# a running sum (no recursion), the same code CPython checks at the full size every run, so 40
# texts there show it runs alike; every (function, argument) pair is refused at the first depth
# past the limit by the parametrized test, so 50 draws of depths to 20,000 over the four
# openers and 60 calls of a function with texts of any kind suffice there.
NESTING = size(300, deep=300, pyodide=40)
TOO_DEEP = size(200, deep=200, pyodide=50)
ANY_TEXT = size(300, deep=300, pyodide=60)

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(alphabet='[]{}"\\,:ab '),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner,
                                                                max_size=3),
    max_leaves=30)


@settings(max_examples=NESTING, deadline=None)
@given(JSON_VALUES)
def test_nesting_depth_is_the_json_depth(value: Any) -> None:
    """Brackets inside strings (escaped quotes too) do not count; real nesting does."""
    assert boundary.nesting_depth(json.dumps(value)) == _depth(value)


def _regex_depth(text: str) -> int:
    """nesting_depth as two regular expressions and a running sum (its way for texts with
    escapes): strings out, then the peak of +1 per opening bracket and -1 per closing one."""
    brackets = re.findall(r"[\[\]{}]", re.sub(r'"[^"\\]*(?:\\.[^"\\]*)*"', "", text, flags=re.S))
    return max(accumulate(1 if b in "[{" else -1 for b in brackets), default=0)


@settings(max_examples=NESTING, deadline=None)
@given(st.text(alphabet='[]{}"\\ab\u00e9\U0001f600', max_size=80)
       | st.text(alphabet='[]{}"a', max_size=80))
def test_nesting_depth_of_any_text_is_the_regex_count(text: str) -> None:
    """The bytes-only way (a text without backslashes) counts what the regular expressions
    count, JSON or not: unclosed strings, unbalanced or mixed brackets, other characters."""
    assert boundary.nesting_depth(text) == _regex_depth(text)


def test_the_arities_are_the_real_functions_not_the_guard() -> None:
    """boundary.guard's wrapper takes `*args`: read through it, the table would say one argument
    for every function, and the tests below would damage only the first."""
    assert API["view"] == 2 and API["preview"] == 3 and API["rulesets"] == 0
    assert API["remote_route_live"] == 3 and API["remote_link"] == 2
    assert max(API.values()) >= 3


# Every (function, argument) pair of the boundary: each argument is a JSON text or a string
# checked as one (guard measures them all).
ARGUMENTS = sorted((name, i) for name, arity in API.items() for i in range(arity))


@pytest.mark.parametrize(("function", "position"), ARGUMENTS)
def test_every_argument_of_every_function_refuses_deep_json(function: str, position: int) -> None:
    """Issue 12.4 for each argument in turn, the others left harmless."""
    args = ['"x"'] * API[function]
    args[position] = "[" * (boundary.MAX_JSON_DEPTH + 1)
    result = _envelope(getattr(api, function)(*args))
    assert result["ok"] is False
    assert result["error"]["code"] == "too-deep", (function, position, result)


@settings(max_examples=TOO_DEEP, deadline=None)
@given(depth=st.integers(boundary.MAX_JSON_DEPTH + 1, 20_000),
       opener=st.sampled_from(["[", '{"a":', "[1,", '[{"k":[']),
       argument=st.sampled_from(ARGUMENTS))
def test_deep_json_is_refused_before_parsing(depth: int, opener: str,
                                             argument: tuple[str, int]) -> None:
    """Issue 12.4: `[` x 10,000 overflowed Pyodide's stack inside json.loads.  Any argument of
    any boundary function nesting deeper than the formats do is refused as too-deep."""
    function, position = argument
    args = ['"x"'] * API[function]
    args[position] = opener * depth
    result = _envelope(getattr(api, function)(*args))
    assert result["ok"] is False
    assert result["error"]["code"] == "too-deep", result
    assert f"{boundary.MAX_JSON_DEPTH}" in result["error"]["message"]


@settings(max_examples=ANY_TEXT, deadline=None)
@given(function=st.sampled_from(sorted(API)), texts=st.lists(st.text(max_size=60), max_size=3))
def test_any_text_gives_an_envelope(function: str, texts: list[str]) -> None:
    """Nothing crosses the boundary but a result envelope, whatever the strings hold."""
    args = (texts + ["null"] * API[function])[:API[function]]
    result = _envelope(getattr(api, function)(*args))
    if not result["ok"]:
        assert result["error"]["code"] != "internal", result


def test_oversized_input_is_refused_at_once() -> None:
    """Issue 12.9: a 10 MB paste froze the page for seconds; now it is refused before parsing,
    with the sizes in the message, in well under a tenth of a second."""
    huge = json.dumps("x" * 10_000_000)
    # This process's CPU time, not the wall clock: on a busy machine (CI runs three suites on
    # two cores) the wall clock also counts the time other processes ran.
    started = time.process_time()
    result = _envelope(api.remote_parse(huge))
    elapsed = time.process_time() - started
    assert result["error"]["code"] == "too-large"
    assert "4,000,000" in result["error"]["message"]
    assert elapsed < 0.1


def test_a_real_game_passes_the_limits() -> None:
    """The limits leave the formats alone: a new game, its view and record pass."""
    game = json.loads(api.new_game(json.dumps({"names": ["Ann", "Bo"], "seed": "0123abcd"})))
    assert game["ok"], game
    text = json.dumps(game["game"])
    assert boundary.nesting_depth(text) < boundary.MAX_JSON_DEPTH
    assert _envelope(api.view(text, "0"))["ok"]
    record = _envelope(api.export_record(text))
    assert _envelope(api.import_record(json.dumps(record["record"])))["ok"]


def test_json_inside_a_code_meets_the_depth_limit() -> None:
    """remote.codes and remote.inputs parse an invitation's rules and a raw input with
    boundary.loads, so JSON inside a code meets the same limit (and is refused as a ValueError,
    which the decoders turn into a malformed code)."""
    with pytest.raises(boundary.InputTooDeep):
        boundary.loads("[" * 1000 + "]" * 1000, "input")
    assert boundary.loads("[" * 32 + "]" * 32) is not None
    assert issubclass(boundary.InputTooDeep, ValueError)


def test_the_page_checks_the_same_limits() -> None:
    """web/limits.js holds the engine's two numbers, and web/api.js checks them before the
    worker parses anything; the paste box and the record import check their own limits."""
    limits = (WEB / "limits.js").read_text(encoding="utf-8")
    numbers = {k: int(v.replace("_", "")) for k, v in
               re.findall(r"export const (MAX_\w+) = ([\d_]+);", limits)}
    assert numbers["MAX_TEXT_CHARS"] == boundary.MAX_TEXT_CHARS
    assert numbers["MAX_JSON_DEPTH"] == boundary.MAX_JSON_DEPTH
    assert "textProblem(text)" in (WEB / "api.js").read_text(encoding="utf-8")
    assert "MAX_PASTE_CHARS" in (WEB / "ui" / "remote.js").read_text(encoding="utf-8")
    # The record import's own, tighter, limit: tests/test_record_limits.py.
    assert "MAX_RECORD_BYTES" in (WEB / "ui" / "records.js").read_text(encoding="utf-8")


def test_an_infinite_number_in_a_game_is_a_bad_request() -> None:
    """Found by tools/fuzz_boundary.py: 1e999 in a saved game reached int() as infinity and
    came back as an "internal" error; it is damaged input."""
    game = json.loads(api.new_game(json.dumps({"names": ["Ann", "Bo"], "seed": "0123abcd"})))
    text = json.dumps(game["game"])
    broken = re.sub(r'"turn": ?\d+', '"turn": 1e999', text, count=1)
    assert broken != text
    result = _envelope(api.view(broken, "0"))
    assert result["ok"] is False and result["error"]["code"] != "internal", result
