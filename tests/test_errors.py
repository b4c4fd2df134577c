"""One error vocabulary: every engine error is a narrow `WavingHandsError` with a kebab-case
code, the JSON boundary dispatches on the class, and the page's headings key on real codes."""

from __future__ import annotations

import ast
import importlib
import json
import re
from pathlib import Path

import pytest
from test_layers import GRAPH, module_files

from wavinghands import boundary
from wavinghands.errors import IllegalInput, WavingHandsError
from wavinghands.orders import OrderError
from wavinghands.remote import codes

KEBAB = re.compile(r"^[a-z]+(-[a-z]+)*$")
# Engine errors that stand for a family of codes, each raised as Class("the-code", message).
CODE_FIRST = {"OrderError", "MalformedOrders", "SetupError", "ApiError"}
# A refused code's heading, keyed `remote-title-<error code>` with the page's other sentences.
WEB_TITLES = Path(__file__).resolve().parent.parent / "web" / "ui" / "words" / "remote.js"
# The heading of an error the page has no title for (web/ui/remote.js), not an error code.
FALLBACK_TITLE = "unusable"


def _exception_classes() -> list[type[BaseException]]:
    found = []
    for name in sorted(GRAPH):
        module = importlib.import_module(name)
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, BaseException) \
                    and value.__module__ == name:
                found.append(value)
    return found


CLASSES = _exception_classes()


def test_the_scan_finds_the_errors() -> None:
    """The classes below are judged (else the next tests would prove nothing)."""
    names = {c.__name__ for c in CLASSES}
    assert {"WavingHandsError", "IllegalInput", "CodeError", "OrderError", "SetupError",
            "RecordError", "RulesetError", "ApiError", "Desync"} <= names


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: f"{c.__module__}.{c.__name__}")
def test_every_error_has_the_one_root(cls: type[BaseException]) -> None:
    """Every exception class the engine defines is a WavingHandsError (one root)."""
    assert issubclass(cls, WavingHandsError)


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: f"{c.__module__}.{c.__name__}")
def test_class_codes_are_kebab_case(cls: type[WavingHandsError]) -> None:
    """A class's own code is kebab-case ("not-this-game", never "not_this_game")."""
    assert KEBAB.match(cls.code), cls.code


def test_class_codes_are_distinct() -> None:
    """Two classes never share a code, so the page can tell them apart."""
    own = [vars(c)["code"] for c in CLASSES if "code" in vars(c)]
    assert len(own) == len(set(own)), sorted(own)


def _literal_codes() -> list[tuple[str, str]]:
    """Every code written as the first argument of Class("code", ...) in the engine."""
    found = []
    for name, path in module_files().items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                    and node.func.id in CODE_FIRST and node.args \
                    and isinstance(node.args[0], ast.Constant) \
                    and isinstance(node.args[0].value, str):
                found.append((f"{name}:{node.lineno}", node.args[0].value))
    return found


def test_instance_codes_are_kebab_case() -> None:
    """The codes of orders, set-up and boundary errors, as written where they are raised."""
    found = _literal_codes()
    assert len(found) > 30  # legal.py and orders.py alone raise dozens
    assert [(where, c) for where, c in found if not KEBAB.match(c)] == []


def _envelope(e: BaseException) -> dict[str, object]:
    out = json.loads(boundary.error_from(e))
    assert out["ok"] is False
    error: dict[str, object] = out["error"]
    return error


def test_boundary_dispatches_on_the_class() -> None:
    """An engine error gives its own code (and field/problems); a stray ValueError is a bad
    request; anything else is internal, never a crash."""
    assert _envelope(codes.NotThisGame("another game"))["code"] == "not-this-game"
    wrong = _envelope(OrderError("stab-self", "you cannot stab yourself", "stab"))
    assert (wrong["code"], wrong["field"]) == ("stab-self", "stab")
    illegal = _envelope(IllegalInput([OrderError("no-monster", "there is no M3", "monsters")]))
    assert illegal["code"] == "illegal-input"
    assert illegal["problems"] == [{"code": "no-monster", "message": "there is no M3",
                                    "field": "monsters"}]
    assert illegal["message"] == "There is no M3."
    assert _envelope(ValueError("x"))["code"] == "bad-request"
    assert _envelope(RuntimeError("x"))["code"] == "internal"


def test_a_code_attribute_alone_is_not_trusted() -> None:
    """Dispatch is by class: a foreign exception carrying a `code` does not pick the code."""

    class Foreign(Exception):
        code = "desync"

    assert _envelope(Foreign("x"))["code"] == "internal"


def _web_titles() -> set[str]:
    text = WEB_TITLES.read_text(encoding="utf-8")
    return set(re.findall(r"^\s*'remote-title-([a-z-]+)':", text, re.M)) - {FALLBACK_TITLE}


def test_the_page_titles_the_remote_errors() -> None:
    """web/ui/remote.js heads each remote error by its code (its sentences in
    web/ui/words/remote.js, `remote-title-<code>`): every key is a real code, and
    every error a pasted code or a seal can raise has a heading."""
    titles = _web_titles()
    remote = {c.code for c in vars(codes).values()
              if isinstance(c, type) and issubclass(c, codes.CodeError)
              and c is not codes.CodeError} | {IllegalInput.code}
    assert titles == remote
