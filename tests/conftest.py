"""Make the engine importable from a source checkout as well as from an installed wheel."""

import sys
from pathlib import Path

try:
    import wavinghands  # noqa: F401
except ImportError:  # running from a checkout without `pip install -e .`
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "engine"))
