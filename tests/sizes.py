"""How many random duels, inputs and states the property and fuzz tests draw.

The default run (`python3 build.py test`, `pytest tests/`) draws enough for each test to meet
every case it names (the seeds and strategies are chosen so that even a short run reaches a
blind wizard, a time stop, a decision, a hasted turn, a code of every kind); `--deep` (the
environment variable WH_DEEP=1, which `python3 build.py test --deep` sets) draws the larger
numbers, and bench/soak_properties.py thousands.  Inside Pyodide (`--deep`'s whole suite there)
the numbers are smaller again: the same code runs about ten times slower.
"""

from __future__ import annotations

import os
import sys

DEEP = bool(os.environ.get("WH_DEEP"))
IN_PYODIDE = sys.platform == "emscripten"


def size(default: int, deep: int, pyodide: int | None = None) -> int:
    """The number for this run: `pyodide` inside Pyodide (when given), `deep` under WH_DEEP=1,
    else `default`."""
    if IN_PYODIDE and pyodide is not None:
        return pyodide
    return deep if DEEP else default
