"""Which test names ran at an earlier commit and where each runs now (issue 25: nothing dropped).

    python3 tools/test_names.py [--before COMMIT] [--python .venv/bin/python]

Collects the pytest node ids of tests/ and e2e/ (`pytest --collect-only`) and the JS tests'
names (`node --test` on tests/js/, which prints each) in this work tree and in COMMIT's tree
(unpacked with `git archive` into a temporary folder), and prints for every name of COMMIT's
where it runs now: `pytest tests/` (CPython, default run; the whole of tests/ again inside
Pyodide under `--deep`), `pytest e2e/` (default run) or the JS tests (default run); a test
marked `deep` (docs/test-tiers.md) runs only under `--deep`, and is counted apart.  Exits 1 and
lists the names that no longer run anywhere, if any.  Sizes (tests/sizes.py) change how many
examples a test draws, never whether it runs.
"""

from __future__ import annotations

import argparse
import io
import os
import re
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WHERE = {
    "tests": "pytest tests/ (default, CPython; --deep: also inside Pyodide)",
    "e2e": "pytest e2e/ (default)",
    "js": "node --test tests/js/ (default)",
}


def collected(tree: Path, python: str, folder: str, *, deep: bool) -> set[str]:
    """The pytest node ids of `folder` in `tree`: the default run's, or with `deep` every one."""
    env = {**os.environ, "WH_DEEP": "1"} if deep else {
        k: v for k, v in os.environ.items() if k != "WH_DEEP"}  # fmt: skip
    out = subprocess.run(
        [python, "-m", "pytest", folder, "--collect-only", "-q", "-o", "addopts=",
         "-p", "no:cacheprovider"],
        cwd=tree, capture_output=True, text=True, check=False, env=env,
    ).stdout  # fmt: skip
    return {line for line in out.splitlines() if "::" in line}


def names(tree: Path, python: str) -> dict[str, set[str]]:
    """The test names of `tree`, by where they run (the keys of WHERE), each deep tier whole."""
    found: dict[str, set[str]] = {}
    for folder in ("tests", "e2e"):
        found[folder] = collected(tree, python, folder, deep=True)
    out = subprocess.run(["node", "--test", "--test-reporter=tap", "tests/js/"], cwd=tree,
                         capture_output=True, text=True, check=False).stdout  # fmt: skip
    found["js"] = {m[1] for m in re.finditer(r"^\s*(?:not )?ok \d+ - (.*)$", out, re.M)}
    return found


def main() -> int:
    """Compare COMMIT's test names with this work tree's; 1 if any no longer runs."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default="17ff137", help="the earlier commit (issue 25's run)")
    parser.add_argument("--python", default=str(ROOT / ".venv" / "bin" / "python"))
    args = parser.parse_args()
    if "/" in args.python:  # a path: the earlier tree is collected from another folder
        args.python = os.path.abspath(args.python)  # not resolve(): a venv's python is a link
    archive = subprocess.run(["git", "archive", args.before], cwd=ROOT, capture_output=True,
                             check=True).stdout  # fmt: skip
    with tempfile.TemporaryDirectory(prefix="wh-names-") as tmp:
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(tmp, filter="data")
        before = names(Path(tmp), args.python)
    now = names(ROOT, args.python)
    missing = []
    for where, ids in before.items():
        kept = ids & now[where]
        deep_only: set[str] = set()
        if where in ("tests", "e2e"):
            deep_only = kept - collected(ROOT, args.python, where, deep=False)
        print(f"{len(kept) - len(deep_only):5d} of {len(ids):5d} names of {args.before}'s "
              f"{where}/ run in {WHERE[where]}")  # fmt: skip
        if deep_only:
            print(f"{len(deep_only):5d} of {len(ids):5d} run only under --deep (marked `deep`, "
                  "docs/test-tiers.md)")  # fmt: skip
            for name in sorted(deep_only):
                print(f"        deep: {name}")
        missing += [f"{where}: {name}" for name in sorted(ids - now[where])]
    added = sum(len(now[w] - before[w]) for w in now)
    print(f"{added:5d} names added since {args.before}")
    for line in missing:
        print(f"NOT RUN {line}")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
