#!/usr/bin/env python3
"""Build, serve and test the Waving Hands static site; see docs/build.md.

    python3 build.py build [--out DIR]     write the self-contained site (default dist/site/)
    python3 build.py serve [--port N]      build, then serve it on http://127.0.0.1:N/ (blocks)
    python3 build.py test [--skip-e2e]     fill .venv/ with the dev tools, then run every check
    python3 build.py test --deep           ... and the long runs (docs/build.md, "Testing")

The work is done by the package sitebuild/ (one module per job, listed in its __init__); this
file parses the command line and dispatches.  Only the standard library is imported, so the
commands start on a fresh machine before anything has been installed.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from sitebuild.common import DEFAULT_OUT, BuildError
from sitebuild.machine import apt_install, debian_packages_missing
from sitebuild.serve import serve_until_interrupted
from sitebuild.site import build_site
from sitebuild.testrun import run_tests


def parser() -> argparse.ArgumentParser:
    """The command line: `build`, `serve` and `test`, with their flags."""
    parser = argparse.ArgumentParser(prog="build.py", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p_build = sub.add_parser("build", help="write the static site")
    p_build.add_argument("--out", default=str(DEFAULT_OUT), help="output folder")
    p_serve = sub.add_parser("serve", help="build, then serve on 127.0.0.1")
    p_serve.add_argument("--out", default=str(DEFAULT_OUT), help="site folder")
    p_serve.add_argument("--port", type=int, default=8000)
    p_serve.add_argument("--no-build", action="store_true", help="serve the existing build")
    p_test = sub.add_parser("test", help="install prerequisites and run every test")
    p_test.add_argument("--skip-e2e", action="store_true", help="leave out the browser tests")
    p_test.add_argument("--no-install", action="store_true", help="assume prerequisites exist")
    p_test.add_argument(
        "--deep", action="store_true",
        help="also the long runs: tests/ in Pyodide, the property soak, the fuzzer",
    )  # fmt: skip
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry point: 0 on success, 1 on a build error or a failed check."""
    args = parser().parse_args(argv)
    try:
        # Building needs Python's standard library, Node.js and npm: nothing from PyPI.
        building = args.command in ("build", "serve") and not getattr(args, "no_build", False)
        if building and (missing := debian_packages_missing(for_tests=False)):
            apt_install(missing)
        if args.command == "build":
            build_site(Path(args.out))
            return 0
        if args.command == "serve":
            root = Path(args.out).resolve() if args.no_build else build_site(Path(args.out)).root
            return serve_until_interrupted(root, args.port)
        return run_tests(skip_e2e=args.skip_e2e, install=not args.no_install, deep=args.deep)
    except BuildError as exc:
        print(f"build.py: error: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
