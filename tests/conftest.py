"""Test the engine of this checkout, even where another checkout's engine is installed."""

import sys
from pathlib import Path

# First on the path, so an editable install made from another work tree (or an older wheel in
# site-packages) can never stand in for the code under test.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "engine"))
