"""The engine's imports run one way (docs/architecture.md, "Layers"), read from the source.

Every `import` and `from ... import` in every module of the package counts, including the ones
inside functions (a late import is still a dependency).  A module's layer may import its own
layer and the layers listed for it, never one above:

    face    api, api_melee, __main__, the package's __init__  -> remote, bots, duel, rules, data
    remote  remote/ (wire format, session, engine adapter, its JSON entry points)
                                                  -> duel, rules, data (never api, never bots)
    bots    ai (or ai/), playout                 -> duel, rules, data  (the aim is duel and data
                                                    only: the bots still read rules modules)
    duel    duel, view, preview, record, account, puzzles, lessons -> rules, data
    rules   resolve, effects, attacks, scratch, recognize, legal, situation, orders, chance
                                                  -> data
    data    spells, spelltext, ruleset(s), model, errors, boundary, names, precompiled

A module missing from this map fails the test: place it in a layer when you add it.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import wavinghands

PACKAGE = "wavinghands"
ROOT = Path(next(iter(wavinghands.__path__)))

ALLOWED: dict[str, frozenset[str]] = {
    "face": frozenset({"face", "remote", "bots", "duel", "rules", "data"}),
    "remote": frozenset({"remote", "duel", "rules", "data"}),
    "bots": frozenset({"bots", "duel", "rules", "data"}),
    "duel": frozenset({"duel", "rules", "data"}),
    "rules": frozenset({"rules", "data"}),
    "data": frozenset({"data"}),
}
# Top-level module (or subpackage) name -> layer.
LAYER_OF: dict[str, str] = {
    "": "face", "api": "face", "api_melee": "face", "__main__": "face",
    "remote": "remote",
    "ai": "bots", "playout": "bots",
    "duel": "duel", "draft": "duel", "view": "duel", "preview": "duel", "record": "duel",
    "account": "duel", "puzzles": "duel", "lessons": "duel", "events": "duel",
    "sessions": "duel",
    "resolve": "rules", "effects": "rules", "recognize": "rules", "legal": "rules",
    "situation": "rules", "orders": "rules", "chance": "rules", "scratch": "rules",
    "settle": "rules", "attacks": "rules",
    "spells": "data", "spelltext": "data", "ruleset": "data", "rulesets": "data",
    "model": "data", "errors": "data", "boundary": "data", "names": "data", "memo": "data",
    "precompiled": "data",
}


def module_files(root: Path = ROOT) -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its own name)."""
    found = {}
    for path in sorted(root.rglob("*.py")):
        parts = [PACKAGE, *path.relative_to(root).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def imports_of(name: str, path: Path, modules: set[str]) -> set[str]:
    """The package's modules that module `name` (at `path`) imports, anywhere in its body."""
    is_package = path.name == "__init__.py"
    here = name if is_package else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.split(".")[0] == PACKAGE)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base_parts = here.split(".")
                base = ".".join(base_parts[:len(base_parts) - (node.level - 1)])
                source = f"{base}.{node.module}" if node.module else base
            else:
                source = node.module or ""
            if source.split(".")[0] != PACKAGE:
                continue
            # `from .. import duel` depends on the module wavinghands.duel; the package's own
            # __init__ counts only when a name is not a submodule.
            subs = {f"{source}.{a.name}" for a in node.names}
            out.update(subs & modules)
            if not subs <= modules:
                out.add(source)
    return {m for m in out if m in modules and m != name}


def layer(name: str) -> str:
    """The layer of a dotted module name; KeyError if the map does not place it."""
    top = name.removeprefix(PACKAGE).lstrip(".").split(".")[0]
    return LAYER_OF[top]


def import_graph(root: Path = ROOT) -> dict[str, set[str]]:
    """Module -> the package's modules it imports."""
    files = module_files(root)
    return {name: imports_of(name, path, set(files)) for name, path in files.items()}


def violations(graph: dict[str, set[str]]) -> list[str]:
    """Every import that runs against the layers, as 'a (layer) -> b (layer)'."""
    bad = []
    for src, targets in sorted(graph.items()):
        for dst in sorted(targets):
            if layer(dst) not in ALLOWED[layer(src)]:
                bad.append(f"{src} ({layer(src)}) -> {dst} ({layer(dst)})")
    return bad


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import cycles (each as a path that comes back to its start), by depth-first search."""
    found: list[list[str]] = []
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                found.append([*path[path.index(nxt):], nxt])
            elif nxt not in state:
                visit(nxt)
        path.pop()
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node)
    return found


GRAPH = import_graph()


def test_the_scan_sees_the_package() -> None:
    """The scan finds the modules and the imports it must judge (else it would prove nothing)."""
    assert {"wavinghands.api", "wavinghands.duel", "wavinghands.remote.session",
            "wavinghands.remote.codes", "wavinghands.remote.engine"} <= set(GRAPH)
    assert "wavinghands.remote.json_api" in GRAPH["wavinghands.api"]
    assert "wavinghands.duel" in GRAPH["wavinghands.remote.engine"]
    assert "wavinghands.remote.codes" in GRAPH["wavinghands.remote.session"]


def test_every_module_has_a_layer() -> None:
    """A new module is placed in a layer (LAYER_OF above) when it is added."""
    unplaced = [m for m in GRAPH if m.removeprefix(PACKAGE).lstrip(".").split(".")[0]
                not in LAYER_OF]
    assert not unplaced, f"place these modules in a layer in tests/test_layers.py: {unplaced}"


def test_imports_run_one_way() -> None:
    """Nothing imports a layer above its own: remote never imports api or the bots, and the
    engine below never imports remote, api, ai or playout."""
    assert violations(GRAPH) == []


def test_no_import_cycles() -> None:
    """No module reaches itself through imports (late imports inside functions count)."""
    assert cycles(GRAPH) == []


@pytest.mark.parametrize(("src", "dst"), [
    ("wavinghands.remote.session", "wavinghands.api"),  # the cycle this package once had
    ("wavinghands.remote.engine", "wavinghands.ai"),
    ("wavinghands.duel", "wavinghands.remote.codes"),
    ("wavinghands.resolve", "wavinghands.playout"),
    ("wavinghands.model", "wavinghands.orders"),
])
def test_an_upward_import_is_caught(src: str, dst: str) -> None:
    """Adding one upward import to the real graph makes the check fail, naming it."""
    graph = {k: set(v) for k, v in GRAPH.items()}
    graph[src].add(dst)
    assert violations(graph) == [f"{src} ({layer(src)}) -> {dst} ({layer(dst)})"]


def test_a_late_import_counts(tmp_path: Path) -> None:
    """An import inside a function is seen, relative or absolute, and a cycle is reported."""
    pkg = tmp_path / PACKAGE
    (pkg / "remote").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "api.py").write_text("from .remote import session\n")
    (pkg / "remote" / "__init__.py").write_text("")
    (pkg / "remote" / "session.py").write_text(
        "def f():\n    from .. import api\n    import wavinghands.duel\n")
    (pkg / "duel.py").write_text("")
    graph = import_graph(pkg)
    assert graph["wavinghands.remote.session"] == {"wavinghands.api", "wavinghands.duel"}
    assert violations(graph) == ["wavinghands.remote.session (remote) -> wavinghands.api (face)"]
    assert ["wavinghands.api", "wavinghands.remote.session", "wavinghands.api"] in cycles(graph)
