"""The long soak of the property tests: thousands of random duels instead of the default run's
few hundred, every one checked against every invariant (tests/test_properties.py).

    python3 bench/soak_properties.py [--examples 5000] [--workers 2]

Runs pytest on tests/test_properties.py with WH_PROPERTY_EXAMPLES set, spread over pytest-xdist
workers when there is more than one (each worker draws its own duels: hypothesis is not
derandomized there, so a soak explores new duels every time).  Needs the dev tools (.venv/ as
`python3 build.py test` makes it, or `pip install -e .[dev]`).  Not a test: never run by CI.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    """Run the soak; pytest's exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=5000, help="random duels per property")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    venv = ROOT / ".venv" / "bin" / "python"
    python = str(venv) if venv.exists() else sys.executable
    env = dict(os.environ, WH_PROPERTY_EXAMPLES=str(args.examples), WH_PROPERTY_RANDOM="1")
    cmd = [python, "-m", "pytest", "tests/test_properties.py", "-p", "no:cacheprovider",
           "--durations=5"]  # fmt: skip
    if args.workers > 1:
        # Each worker runs every property with its share of the examples.
        env["WH_PROPERTY_EXAMPLES"] = str(-(-args.examples // args.workers))
        cmd += ["-n", str(args.workers), "--dist", "each"]
    print(" ".join(cmd), f"(WH_PROPERTY_EXAMPLES={env['WH_PROPERTY_EXAMPLES']})", flush=True)
    return subprocess.run(cmd, cwd=ROOT, env=env, check=False).returncode


if __name__ == "__main__":
    sys.exit(main())
