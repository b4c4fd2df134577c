"""Test the engine of this checkout, even where another checkout's engine is installed; leave
out the deep tier unless asked."""

import sys
from pathlib import Path

import pytest

# First on the path, so an editable install made from another work tree (or an older wheel in
# site-packages) can never stand in for the code under test.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "engine"))

from sizes import DEEP  # tests/ is on the path: pytest puts a conftest's folder there

# The deep tier (as in e2e/conftest.py): a test marked `deep` runs only under WH_DEEP=1
# (`python3 build.py test --deep`); docs/test-tiers.md names the default tests that catch its
# kind of bug.
DEEP_MARKER = ("deep: runs only under WH_DEEP=1 (build.py test --deep); docs/test-tiers.md says "
               "which default tests catch its kind of bug")  # fmt: skip


def pytest_configure(config: pytest.Config) -> None:
    """Register the `deep` marker."""
    config.addinivalue_line("markers", DEEP_MARKER)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Leave out the `deep` tests unless DEEP."""
    if DEEP:
        return
    deep = [item for item in items if item.get_closest_marker("deep")]
    if deep:
        config.hook.pytest_deselected(items=deep)
        items[:] = [item for item in items if not item.get_closest_marker("deep")]
