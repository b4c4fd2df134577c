# mypy: disable-error-code="import-not-found"
# (the modules these tests import are written by the `defer` fixture at run time)
"""tools/lazy_start.py: modules deferred until first use (docs/build.md, "Boot").

The page's Python library carries it as `sitecustomize`, so Pyodide's start-up finds asyncio,
ssl, traceback and the rest created but not run.  These tests check the mechanism under CPython
on small modules written for the purpose: an import leaves the module's code unrun, importing it
again still does, the first attribute read or write runs it once and it then behaves as if
imported eagerly; stand-ins answer without running it, the after-function runs once, and a
module whose code fails fails at its first use and can be imported again.  (The page's own
choice is checked in Pyodide by tests/pyodide/run.mjs: what stays unrun after the boot, and that
asyncio still works once touched, after a snapshot's restore too.)
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

LAZY_START = Path(__file__).resolve().parent.parent / "tools" / "lazy_start.py"


def _load_lazy_start() -> ModuleType:
    """tools/lazy_start.py as a module of its own name (not `sitecustomize`: nothing installs)."""
    spec = importlib.util.spec_from_file_location("lazy_start", LAZY_START)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


lazy_start = _load_lazy_start()

# Each module counts its runs in this list (sys: reachable from the modules, shared by all).
RUNS = "_lazy_start_test_runs"

MODULES = {
    "lz_plain.py": f"import sys\nsys.{RUNS}.append('lz_plain')\nVALUE = 42\nSEEN = 'as written'\n",
    "lz_failing.py": f"import sys\nsys.{RUNS}.append('lz_failing')\nraise RuntimeError('broken')\n",
    "lz_pkg/__init__.py": f"import sys\nsys.{RUNS}.append('lz_pkg')\nNAME = 'pkg'\n",
    "lz_pkg/sub.py": f"import sys\nsys.{RUNS}.append('lz_pkg.sub')\nNAME = 'sub'\n",
    "lz_user.py": "import lz_plain\nfrom lz_plain import VALUE\nDOUBLED = VALUE * 2\n",
}
NAMES = ("lz_plain", "lz_failing", "lz_pkg", "lz_pkg.sub", "lz_user")


@pytest.fixture
def defer(tmp_path: Path) -> Iterator[Callable[..., list[str]]]:
    """defer(names, stand_ins=None, after=None): write the test modules, put them on the path
    and defer `names`; returns the list of module runs.  Everything is undone afterwards."""
    for name, text in MODULES.items():
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text(text)
    runs: list[str] = []
    setattr(sys, RUNS, runs)
    sys.path.insert(0, str(tmp_path))
    finders: list[Any] = []

    def install(
        names: tuple[str, ...],
        stand_ins: dict[tuple[str, str], object] | None = None,
        after: dict[str, Callable[[ModuleType], None]] | None = None,
        at_import: dict[str, Callable[[], None]] | None = None,
    ) -> list[str]:
        finder = lazy_start.LazyFinder(names, stand_ins, after, at_import)
        sys.meta_path.insert(0, finder)
        finders.append(finder)
        return runs

    try:
        yield install
    finally:
        for finder in finders:
            sys.meta_path.remove(finder)
        sys.path.remove(str(tmp_path))
        for name in NAMES:
            sys.modules.pop(name, None)
        delattr(sys, RUNS)
        importlib.invalidate_caches()


def test_an_import_leaves_the_code_unrun_until_an_attribute_is_read(defer: Any) -> None:
    runs = defer(("lz_plain",))
    import lz_plain

    assert lazy_start.is_lazy(lz_plain) and runs == []
    # Imported again, by statement and by name: the import system reads only __spec__.
    import lz_plain as again

    assert importlib.import_module("lz_plain") is again is lz_plain
    assert lazy_start.is_lazy(lz_plain) and runs == []
    assert lz_plain.VALUE == 42
    assert runs == ["lz_plain"] and not lazy_start.is_lazy(lz_plain)
    assert lz_plain.SEEN == "as written" and runs == ["lz_plain"]  # run once
    assert sys.modules["lz_plain"] is lz_plain and lz_plain.__name__ == "lz_plain"


def test_a_module_not_named_is_imported_as_usual(defer: Any) -> None:
    runs = defer(("lz_failing",))
    import lz_plain

    assert not lazy_start.is_lazy(lz_plain) and runs == ["lz_plain"]


def test_from_import_runs_the_module_a_plain_import_of_a_module_does_not(defer: Any) -> None:
    runs = defer(("lz_plain",))
    import lz_plain

    assert runs == []
    assert not hasattr(lz_plain, "__path__")  # not a package: answered without running it
    assert runs == []
    import lz_user

    assert lz_user.DOUBLED == 84 and runs == ["lz_plain"]


def test_a_submodule_import_runs_its_lazy_package_first(defer: Any) -> None:
    runs = defer(("lz_pkg", "lz_pkg.sub"))
    import lz_pkg

    assert runs == []
    import lz_pkg.sub

    # The package had to run to give its __path__; the submodule itself waits for its first use.
    assert runs == ["lz_pkg"] and lazy_start.is_lazy(sys.modules["lz_pkg.sub"])
    assert lz_pkg.sub.NAME == "sub" and runs == ["lz_pkg", "lz_pkg.sub"]


def test_writing_an_attribute_runs_the_module_first_and_the_value_stays(defer: Any) -> None:
    runs = defer(("lz_plain",))
    import lz_plain

    lz_plain.SEEN = "patched"
    assert runs == ["lz_plain"] and lz_plain.SEEN == "patched"


def test_stand_ins_answer_without_running_the_module(defer: Any) -> None:
    marker = object()
    runs = defer(("lz_plain",), stand_ins={("lz_plain", "LATER"): marker, ("other", "VALUE"): 0})
    import lz_plain

    assert lz_plain.LATER is marker and runs == []
    # One read each: the next read of the name runs the module, whose own attributes answer.
    with pytest.raises(AttributeError):
        _ = lz_plain.LATER
    assert runs == ["lz_plain"] and lz_plain.VALUE == 42  # another module's stand-in: not here


def test_the_after_function_runs_once_on_the_realized_module(defer: Any) -> None:
    seen: list[tuple[str, int]] = []
    defer(("lz_plain",), after={"lz_plain": lambda m: seen.append((m.__name__, m.VALUE))})
    import lz_plain

    assert seen == []
    _ = lz_plain.VALUE, lz_plain.SEEN
    assert seen == [("lz_plain", 42)]


def test_the_at_import_function_runs_when_the_module_is_imported(defer: Any) -> None:
    imported: list[str] = []
    runs = defer(("lz_plain",), at_import={"lz_plain": lambda: imported.append("lz_plain")})
    import lz_plain

    assert imported == ["lz_plain"] and runs == []
    import lz_plain as again  # noqa: F401

    assert imported == ["lz_plain"] and runs == []  # imported again: not run again
    _ = lz_plain.VALUE
    assert imported == ["lz_plain"] and runs == ["lz_plain"]


def test_isinstance_and_the_class_do_not_run_the_module(defer: Any) -> None:
    runs = defer(("lz_plain",))
    import lz_plain

    assert isinstance(lz_plain, ModuleType) and lz_plain.__class__ is not ModuleType
    assert runs == []
    _ = lz_plain.VALUE
    assert lz_plain.__class__ is ModuleType and runs == ["lz_plain"]


def test_a_failing_module_fails_at_first_use_and_can_be_imported_again(defer: Any) -> None:
    runs = defer(("lz_failing",))
    import lz_failing

    assert runs == []
    with pytest.raises(RuntimeError, match="broken"):
        _ = lz_failing.ANYTHING
    assert "lz_failing" not in sys.modules  # as after a failed import
    again = importlib.import_module("lz_failing")
    assert again is not lz_failing and lazy_start.is_lazy(again)
    with pytest.raises(RuntimeError, match="broken"):
        _ = again.ANYTHING
    assert runs == ["lz_failing", "lz_failing"]


def test_the_pages_choice_names_modules_and_stand_ins_that_exist() -> None:
    # The stand-ins and the after- and at-import functions belong to deferred modules (else
    # they never apply).
    assert {module for module, _ in lazy_start.STAND_INS} <= set(lazy_start.LAZY)
    assert set(lazy_start.AFTER) | set(lazy_start.AT_IMPORT) <= set(lazy_start.LAZY)
    # Every deferred stdlib module exists in this Python too (Pyodide's own may not here).
    for name in lazy_start.LAZY:
        if not name.startswith("pyodide") and name != "compression.zstd":
            assert importlib.util.find_spec(name) is not None, name


class _Delegating:
    """A meta-path finder that asks the others in turn (as a profiler's would)."""

    def __init__(self) -> None:
        self.asked: list[str] = []

    def find_spec(self, name: str, path: Any, target: Any = None) -> Any:
        self.asked.append(name)
        for finder in sys.meta_path:
            if finder is not self and hasattr(finder, "find_spec"):
                spec = finder.find_spec(name, path, target)
                if spec is not None:
                    return spec
        return None


def test_a_finder_that_asks_the_others_in_turn_does_not_loop(defer: Any) -> None:
    runs = defer(("lz_plain",))
    delegating = _Delegating()
    sys.meta_path.insert(0, delegating)
    try:
        import lz_plain
    finally:
        sys.meta_path.remove(delegating)
    assert "lz_plain" in delegating.asked
    assert lazy_start.is_lazy(lz_plain) and runs == []
    assert lz_plain.VALUE == 42 and runs == ["lz_plain"]
