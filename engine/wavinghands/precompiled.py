"""Dataclass methods compiled at build time, for the page's cold boot (docs/build.md, "Boot").

`dataclasses` writes each class's methods (`__init__`, `__eq__`, ...) as Python source and
compiles it when the class is defined; in the browser's Python (CPython in wasm) that compiling
is over half of the engine's import.  tools/python_lib.mjs records those source texts while it
builds the site's Python library with the site's own interpreter, compiles them there and
stores the code objects (`marshal`) in the library beside this module, as CODE_FILE.

Importing this module hands them to `dataclasses` (`install`): a source text found in the file
runs the code stored for it (what the same compiler made of the same text), any other text is
compiled as usual.  Where the file is absent (CPython, the engine's wheel) or was made by
another Python version, nothing changes.  The engine's package imports this module first,
before any dataclass.
"""

from __future__ import annotations

import builtins
import dataclasses
import importlib.util
import marshal
import os
from types import CodeType
from typing import Any

# The file's name beside this module; tools/python_lib.mjs writes it (same name).
CODE_FILE = "dataclass_code.marshal"


def load(data: bytes) -> dict[str, CodeType]:
    """The source-to-code table in a CODE_FILE's bytes; empty if another Python version made it
    or it is not such a file."""
    magic = importlib.util.MAGIC_NUMBER
    if not data.startswith(magic):
        return {}
    try:
        table = marshal.loads(data[len(magic):])
    except (EOFError, ValueError, TypeError):
        return {}
    if not isinstance(table, dict):
        return {}
    return {k: v for k, v in table.items() if isinstance(k, str) and isinstance(v, CodeType)}


def dump(table: dict[str, CodeType]) -> bytes:
    """A CODE_FILE's bytes for a source-to-code table (this Python version's magic first)."""
    return importlib.util.MAGIC_NUMBER + marshal.dumps(dict(sorted(table.items())))


def _read() -> bytes | None:
    """CODE_FILE's bytes through this module's own loader (a zip in the page), or None."""
    loader: Any = __spec__.loader if __spec__ is not None else None
    if loader is None or not hasattr(loader, "get_data"):
        return None
    try:
        data: bytes = loader.get_data(os.path.join(os.path.dirname(__file__), CODE_FILE))
    except OSError:
        return None
    return data


def install(table: dict[str, CodeType]) -> None:
    """Let `dataclasses` run the code `table` holds for a source text, and compile any other;
    an empty table installs nothing."""
    if not table:
        return

    def exec_stored(source: str, globals: dict[str, Any], locals: dict[str, Any]) -> None:
        code = table.get(source) if isinstance(source, str) else None
        builtins.exec(source if code is None else code, globals, locals)

    # dataclasses calls `exec(text, globals, namespace)` by its global name: a module global
    # of that name is found before the builtin.
    setattr(dataclasses, "exec", exec_stored)  # noqa: B010 (mypy: no such attribute declared)


_table = load(_read() or b"")
STORED: int = len(_table)  # how many source texts CODE_FILE holds here (0: none, or no file)
install(_table)
