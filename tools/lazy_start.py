"""Modules Pyodide's start-up imports but the page never uses, executed on first use instead.

tools/python_lib.mjs puts this file in the site's Python library as `sitecustomize`, which
Python's `site` imports while the interpreter starts, before Pyodide's own start-up
(`_pyodide_core`, `pyodide`) imports anything: so there it calls `install()` with the page's
choice (LAZY, STAND_INS, AFTER, AT_IMPORT).  Nothing else runs it: CPython, the engine's wheel
and the in-Pyodide test run (the full stdlib) never see it (docs/build.md, "Boot").

A module named in `names` is found and created as usual, but its code runs only when something
first reads or sets one of its attributes ("realizes" it).  Importing it again does not: the
import system reads only `__spec__` (answered as it is) and, for `from m import x`, `__path__`
(answered from the spec for a module that is not a package); `isinstance` reads `__class__`
(answered as it is).  `from m import x` and `m.x` realize it, so a module used at import time
by anything still loaded gains nothing, but loses nothing either: realized, it is the same
module object, run by its own loader.  Pyodide's C core keeps `asyncio` and `traceback` as
module objects and reads them only on first use (an awaited JavaScript promise, an error),
which is what makes them worth deferring.

`stand_ins` answers a few (module, attribute) reads without realizing the module, for start-up
code that reads a name only to call it later or to run it at once for an effect that can wait;
each answers the first read of its name only (the start-up's), and any later read realizes the
module, so other code meets the module's own objects.  `after` runs a function on a module
right after it is realized; `at_import` runs one when it is imported (for an effect of its
import that cannot wait).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from importlib.machinery import ModuleSpec
from types import ModuleType
from typing import Any

# The page's choice, and why each is never used on its path (a duel's engine: JSON strings in
# and out, no asyncio, no files, no processes).  Realized, each loads from the library as before.
LAZY: tuple[str, ...] = (
    # Pyodide's event loop: `pyodide/__init__.py` imports it and starts it at once (below).
    "pyodide.webloop",
    # asyncio and what it imports: kept by Pyodide's C core, used when a promise is awaited.
    "asyncio", "concurrent.futures", "logging", "selectors", "signal", "socket", "ssl",
    "subprocess",
    # Kept by the C core for printing Python errors; it imports `_colorize`, whose dataclasses
    # are compiled when it runs.
    "traceback",
    # Probed by `shutil` and `zipfile` (`import bz2` in a `try`), used to read such archives.
    "bz2", "lzma", "compression.zstd",
    # Pyodide's package installer (with pathlib, zipfile, tempfile, shutil): the page installs
    # no package; Pyodide's start-up reads three of its names (below).
    "pyodide._package_loader",
)  # fmt: skip


def _print_exception(*args: Any, **kwargs: Any) -> Any:
    """`traceback.print_exception` for Pyodide's start-up, which sets it as `sys.excepthook`
    (`_pyodide.set_excepthook`): realizes `traceback` when an error is first printed."""
    traceback = sys.modules["traceback"]
    _realize(traceback)  # first: then the name is traceback's own function, never this one
    return traceback.print_exception(*args, **kwargs)


# Whether Pyodide's start-up asked for its event loop (a list: a module-level flag to set), and
# the JavaScript objects the webloop's import would have taken by then (see below).
_wanted_event_loop: list[bool] = []
_held: list[object] = []


def _initialize_event_loop_later() -> None:
    """What `pyodide/__init__.py` calls at start-up in place of webloop's
    `_initialize_event_loop` (installing Pyodide's event loop, patching `asyncio.run` and
    `time.sleep`): remember it, and do it when `asyncio` or the webloop is realized.

    The webloop's import takes `pyodide_js._api.scheduleCallback` at this point of the start-up,
    and Pyodide's memory snapshot expects the JavaScript objects Python holds to come in that
    order (its first seven, checked when the snapshot is made and restored): so take it here
    too, and keep it."""
    _wanted_event_loop.append(True)
    from pyodide_js._api import scheduleCallback  # type: ignore[import-not-found]

    _held.append(scheduleCallback)


def _after_webloop(webloop: ModuleType) -> None:
    """Webloop realized: install the event loop, if Pyodide's start-up asked for it."""
    if _wanted_event_loop:
        _wanted_event_loop.clear()
        webloop._initialize_event_loop()


def _after_asyncio(asyncio: ModuleType) -> None:
    """asyncio realized: realize the webloop too (so the event loop is Pyodide's before anyone
    asks for one), unless the webloop is what imported asyncio (then it finishes first)."""
    webloop = sys.modules.get("pyodide.webloop")
    if webloop is not None:
        _realize(webloop)


class _PathText:
    """A path as Pyodide's start-up reads it from the package loader (`SITE_PACKAGES.__str__()`
    from JavaScript), without `pathlib`."""

    def __init__(self, text: str) -> None:
        """The path's text."""
        self.text = text

    def __str__(self) -> str:
        """The path's text."""
        return self.text

    def __fspath__(self) -> str:
        """The path's text."""
        return self.text


def _package_loader_paths() -> tuple[_PathText, _PathText]:
    """The package loader's SITE_PACKAGES and DSO_DIR, computed as it computes them."""
    import site

    site_packages = site.getsitepackages()[0]
    if sys.base_prefix == sys.prefix:
        return _PathText(site_packages), _PathText("/usr/lib")
    return _PathText(site_packages), _PathText(os.path.dirname(os.path.dirname(site_packages)))


# Whether Pyodide's start-up asked the package loader to list the packages already installed.
_wanted_loaded_packages: list[bool] = []


def _init_loaded_packages_later() -> None:
    """What Pyodide's start-up calls in place of the package loader's `init_loaded_packages`
    (listing the packages site-packages holds, the page's none): done when it is realized, before
    whatever realizes it installs one."""
    _wanted_loaded_packages.append(True)


def _take_loaded_packages() -> None:
    """The package loader's import takes `pyodide_js.loadedPackages` first: take it when the
    module is imported, for the memory snapshot's order (see _initialize_event_loop_later)."""
    from pyodide_js import loadedPackages  # type: ignore[import-not-found]

    _held.append(loadedPackages)


def _after_package_loader(package_loader: ModuleType) -> None:
    """Package loader realized: list the installed packages, if Pyodide's start-up asked."""
    if _wanted_loaded_packages:
        _wanted_loaded_packages.clear()
        package_loader.init_loaded_packages()


STAND_INS: dict[tuple[str, str], object] = {
    ("pyodide.webloop", "_initialize_event_loop"): _initialize_event_loop_later,
    ("traceback", "print_exception"): _print_exception,
    ("pyodide._package_loader", "init_loaded_packages"): _init_loaded_packages_later,
}
AFTER: dict[str, Callable[[ModuleType], None]] = {
    "pyodide.webloop": _after_webloop,
    "asyncio": _after_asyncio,
    "pyodide._package_loader": _after_package_loader,
}
AT_IMPORT: dict[str, Callable[[], None]] = {"pyodide._package_loader": _take_loaded_packages}


class _Plan:
    """What to do with one lazy module: its stand-ins (attribute -> object), what to run after
    it is realized and what to run when it is imported; kept in its spec's `loader_state`."""

    def __init__(
        self,
        stand_ins: Mapping[str, object],
        after: Callable[[ModuleType], None] | None,
        at_import: Callable[[], None] | None,
    ) -> None:
        """The module's stand-ins, its after-realization and at-import functions (or None)."""
        self.stand_ins = stand_ins
        self.after = after
        self.at_import = at_import


class _LazyModule(ModuleType):
    """A module whose code has not run yet: any attribute read or write runs it first."""

    def __getattribute__(self, attr: str) -> Any:
        """The attribute, after realizing the module (except what the import system reads,
        and the module's stand-ins)."""
        spec: ModuleSpec = object.__getattribute__(self, "__spec__")
        if attr in ("__spec__", "__class__"):  # (isinstance reads __class__: a lazy module)
            return object.__getattribute__(self, attr)
        if attr == "__path__" and spec.submodule_search_locations is None:
            raise AttributeError(f"module {spec.name!r} has no attribute '__path__'")
        stand_in = spec.loader_state.stand_ins.pop(attr, None)  # one read each
        if stand_in is not None:
            return stand_in
        _realize(self)
        return getattr(self, attr)

    def __setattr__(self, attr: str, value: Any) -> None:
        """Set the attribute on the realized module (its code would overwrite it otherwise)."""
        _realize(self)
        setattr(self, attr, value)

    def __delattr__(self, attr: str) -> None:
        """Delete the attribute from the realized module."""
        _realize(self)
        delattr(self, attr)


def _realize(module: ModuleType) -> None:
    """Run a lazy module's code with its own loader (once; a plain module is left alone); on
    failure it leaves sys.modules, as a failed import does, and the error goes to whoever
    touched the module."""
    if type(module) is not _LazyModule:
        return
    spec: ModuleSpec = object.__getattribute__(module, "__spec__")
    plan: _Plan = spec.loader_state
    # A plain module from here on: reads during its own execution (circular imports) see the
    # partly run module, as with any import.
    object.__setattr__(module, "__class__", ModuleType)
    try:
        spec.loader.exec_module(module)  # type: ignore[union-attr]
    except BaseException:
        if sys.modules.get(spec.name) is module:
            del sys.modules[spec.name]
        raise
    if plan.after is not None:
        plan.after(module)


class _LazyLoader:
    """Creates the module with the real loader and leaves its execution for first use."""

    def __init__(self, loader: Any, plan: _Plan) -> None:
        """Wrap the loader that will run the module."""
        self.loader = loader
        self.plan = plan

    def create_module(self, spec: ModuleSpec) -> ModuleType | None:
        """What the real loader creates (None: a plain module)."""
        created: ModuleType | None = self.loader.create_module(spec)
        return created

    def exec_module(self, module: ModuleType) -> None:
        """Make the module lazy instead of running it; the real loader runs it when realized."""
        spec: ModuleSpec = module.__spec__  # type: ignore[assignment]
        spec.loader = module.__loader__ = self.loader
        spec.loader_state = self.plan
        object.__setattr__(module, "__class__", _LazyModule)
        if self.plan.at_import is not None:
            self.plan.at_import()


class LazyFinder:
    """A meta-path finder that hands out the named modules lazily (found by the finders after
    it, so from the same place as otherwise)."""

    def __init__(
        self,
        names: Iterable[str],
        stand_ins: Mapping[tuple[str, str], object] | None = None,
        after: Mapping[str, Callable[[ModuleType], None]] | None = None,
        at_import: Mapping[str, Callable[[], None]] | None = None,
    ) -> None:
        """The fully qualified names of the modules to defer, the (module, attribute) reads to
        answer without realizing, what to run on a module once it is realized, and what to run
        when it is imported (for effects its import had that cannot wait)."""
        self.names = frozenset(names)
        self.stand_ins = dict(stand_ins or {})
        self.after = dict(after or {})
        self.at_import = dict(at_import or {})
        self._finding: set[str] = set()

    def find_spec(
        self, name: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        """The module's usual spec with a lazy loader, for a name to defer; else None."""
        if name not in self.names or name in self._finding:
            return None
        # Another finder that asks the others in turn (as this one does) asks this one again.
        self._finding.add(name)
        try:
            for finder in sys.meta_path:
                if isinstance(finder, LazyFinder) or not hasattr(finder, "find_spec"):
                    continue
                spec: ModuleSpec | None = finder.find_spec(name, path, target)
                if spec is not None:
                    break
            else:
                return None
        finally:
            self._finding.discard(name)
        if spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return spec
        stand_ins = {attr: obj for (mod, attr), obj in self.stand_ins.items() if mod == name}
        plan = _Plan(stand_ins, self.after.get(name), self.at_import.get(name))
        spec.loader = _LazyLoader(spec.loader, plan)  # type: ignore[assignment]
        return spec


def is_lazy(module: object) -> bool:
    """Whether a module's code has not run yet."""
    return type(module) is _LazyModule


def install() -> LazyFinder:
    """Defer the page's choice (LAZY, STAND_INS, AFTER, AT_IMPORT) from now on; returns the
    finder."""
    site_packages, dso_dir = _package_loader_paths()
    stand_ins = {
        **STAND_INS,
        ("pyodide._package_loader", "SITE_PACKAGES"): site_packages,
        ("pyodide._package_loader", "DSO_DIR"): dso_dir,
    }
    finder = LazyFinder(LAZY, stand_ins, AFTER, AT_IMPORT)
    sys.meta_path.insert(0, finder)
    return finder


if __name__ == "sitecustomize":
    install()
