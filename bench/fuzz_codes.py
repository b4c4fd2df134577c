"""Fuzz the turn-code decoder, the remote session's receive path and order validation.

    pip install atheris        # optional; without it hypothesis drives the same targets
    python bench/fuzz_codes.py [--runs 1000000] [--driver atheris|hypothesis]

Every input goes to one of six targets (chosen by its first byte):
  0  arbitrary pasted text            -> extract_code + decode_message
  1  arbitrary bytes with a valid CRC -> decode_message; what decodes must re-encode to itself
  2  arbitrary bytes                  -> decode_input; orders that decode go to api.validate
  3  arbitrary bytes as JSON text     -> api.validate (order validation on any JSON)
  4  a genuine header + fuzzed payload with a valid CRC -> session.receive on a live session
  5  arbitrary strings                -> the remote_* JSON functions
Allowed outcomes: a WavingHandsError (codec, session) or an error value (api, remote.json_api).
Anything else is an uncaught exception and stops the run.  Prints the number of inputs at the end.
Not a test: never run by CI.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
import zlib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "engine"), str(ROOT / "tests")]

COUNT = 0
RUNS = 0
START = time.perf_counter()


def _prepare() -> tuple[list[tuple[Any, str]], list[str]]:
    """Live sessions (each just before a genuine code arrives) and stored games of real duels."""
    from remote_driver import play

    from wavinghands.remote.engine import PythonEngine

    eng = PythonEngine()
    snaps: list[tuple[Any, str]] = []
    for seed in range(3):
        play(eng, random.Random(seed), on_code=lambda c, s: snaps.append((s, c)))
    snaps = [x for x in snaps if x[0].game is not None][::7][:40]
    games = [json.dumps(s.game) for s, _ in snaps[:12]]
    return snaps, games


def make_target() -> Any:
    """The one-input function both drivers call."""
    from wavinghands import api
    from wavinghands.errors import WavingHandsError
    from wavinghands.remote import codes, session
    from wavinghands.remote import json_api as remote_api
    from wavinghands.remote.engine import PythonEngine

    snaps, games = _prepare()
    eng = PythonEngine()
    remote_fns = [getattr(remote_api, n) for n in remote_api.__all__]

    def with_crc(body: bytes) -> str:
        return codes.PREFIX + codes._b64encode(body + zlib.crc32(body).to_bytes(4, "big"))

    def check_api(result: str) -> None:
        if not isinstance(json.loads(result).get("ok"), bool):
            raise AssertionError("an api result without ok")

    def one(data: bytes) -> None:
        global COUNT
        COUNT += 1
        if COUNT % 100_000 == 0 or COUNT == RUNS:
            _report()  # libFuzzer leaves through _exit, so atexit would never print
        if not data:
            return
        sel, pick, rest = data[0] % 6, data[0] // 6, data[1:]
        try:
            if sel == 0:
                codes.decode_message(codes.extract_code(rest.decode("utf-8", "replace")))
            elif sel == 1:
                code = with_crc(rest)
                m = codes.decode_message(code)
                if codes.encode_message(m) != code:
                    raise AssertionError("a decoded message re-encodes differently")
            elif sel == 2:
                x = codes.decode_input(rest)
                if codes.encode_input(x) != rest:
                    raise AssertionError("a decoded input re-encodes differently")
                if isinstance(x, dict):
                    check_api(api.validate(games[pick % len(games)], str(pick % 2),
                                           json.dumps(x)))
            elif sel == 3:
                check_api(api.validate(games[pick % len(games)], str(pick % 2),
                                       rest.decode("utf-8", "replace")))
            elif sel == 4:
                s, code = snaps[pick % len(snaps)]
                body = codes.unwrap(code)
                head = len(body) - len(rest) if len(rest) < len(body) - 16 else 16
                session.receive(s, with_crc(body[:max(head, 16)] + rest), eng, os.urandom)
            else:
                fn = remote_fns[pick % len(remote_fns)]
                text = rest.decode("utf-8", "replace")
                parts = text.split("\x00", 2)
                try:
                    check_api(fn(*parts))
                except TypeError as e:  # wrong arity for this function: not data
                    if "positional argument" not in str(e):
                        raise
        except WavingHandsError:
            pass

    return one


def _report() -> None:
    secs = time.perf_counter() - START
    print(f"fuzz_codes: {COUNT} inputs, no uncaught exception, {secs:.0f} s", flush=True)


def run_atheris(runs: int) -> None:
    """Coverage-guided, seeded with genuine codes."""
    import tempfile

    import atheris  # type: ignore[import-untyped]

    with atheris.instrument_imports():
        from wavinghands.remote import codes, session  # noqa: F401

    target = make_target()
    corpus = Path(tempfile.mkdtemp(prefix="wh-fuzz-"))
    from fake_engine import FakeEngine
    from remote_driver import play

    ex = play(FakeEngine(), random.Random(1))
    for i, (_, code) in enumerate(ex.codes[:60]):
        body = codes.unwrap(code)
        (corpus / f"a{i}").write_bytes(bytes([1]) + body)
        (corpus / f"b{i}").write_bytes(bytes([4]) + body[16:])
        (corpus / f"c{i}").write_bytes(bytes([0]) + code.encode())
    atheris.Setup([sys.argv[0], f"-runs={runs}", "-max_len=400", str(corpus)], target)
    atheris.Fuzz()


def run_hypothesis(runs: int) -> None:
    """Random bytes through the same targets, in batches."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    target = make_target()

    @settings(max_examples=runs, deadline=None, database=None, derandomize=False,
              suppress_health_check=list(HealthCheck))
    @given(st.binary(max_size=300))
    def fuzz(data: bytes) -> None:
        target(data)

    fuzz()


def main() -> None:
    """Parse arguments and run."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=1_000_000)
    ap.add_argument("--driver", choices=("atheris", "hypothesis"), default=None)
    args = ap.parse_args()
    global RUNS
    RUNS = args.runs
    driver = args.driver
    if driver is None:
        try:
            import atheris  # noqa: F401

            driver = "atheris"
        except ImportError:
            driver = "hypothesis"
    print(f"fuzz_codes: {args.runs} inputs with {driver}", flush=True)
    if driver == "atheris":
        run_atheris(args.runs)
    else:
        run_hypothesis(args.runs)


if __name__ == "__main__":
    main()
