"""`build.py test`: the checks, run two at a time, each streamed under its name and summed up."""

from __future__ import annotations

import concurrent.futures
import contextlib
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from .common import DEFAULT_OUT, ROOT, BuildError
from .machine import VENV, apt_install, debian_packages_missing, dev_venv
from .pins import pyodide_test_wheels
from .site import build_site

STARTED = time.monotonic()
# Steps run side by side; one lock keeps their lines whole.
OUTPUT_LOCK = threading.Lock()


def progress(msg: str) -> None:
    """Print a progress line of `test`, stamped with the seconds since the command started."""
    with OUTPUT_LOCK:
        print(f"[test {time.monotonic() - STARTED:6.1f}s] {msg}", flush=True)


@contextlib.contextmanager
def timed(what: str) -> Iterator[None]:
    """Report when a set-up step starts and how long it took."""
    started = time.monotonic()
    progress(f"{what} ...")
    yield
    progress(f"{what}: done in {time.monotonic() - started:.1f}s")


@dataclass
class StepResult:
    """Outcome of one test step, for the closing summary."""

    name: str
    ok: bool
    summary: str
    seconds: float  # wall time
    cpu_seconds: float  # user + system time of the step's processes
    failures: tuple[str, ...] = ()  # its lines naming a failed test (and what it waited on)


# pytest's closing line ("12 passed, 1 skipped in 3.2s"), or node --test's "# pass 29" counts.
PYTEST_SUMMARY = re.compile(
    r"(\d+ (passed|failed|errors?|skipped|xfailed|xpassed|deselected)|no tests ran)"
)
NODE_COUNT = re.compile(r"^# (tests|pass|fail|skipped) (\d+)$")
# A line naming a failed check: pytest's short summary (FAILED/ERROR), e2e/conftest.py's line
# saying what a failed browser test waited on (WAITED), node --test's `not ok`, and the
# in-Pyodide runner's own checks (FAILED ...).
FAILURE_LINE = re.compile(r"^(FAILED|ERROR|WAITED) |^not ok \d+ ")


@dataclass(frozen=True)
class Step:
    """One check: its name, its command, and the set-up it must wait for before it starts."""

    name: str
    cmd: Sequence[str]
    needs: tuple[concurrent.futures.Future[None], ...] = ()


def run_step(step: Step, env: dict[str, str]) -> StepResult:
    """Run one check, streaming its output line by line under its name; keep its summary."""
    try:
        for need in step.needs:
            need.result()
    except BuildError as exc:
        progress(f"{step.name}: not run, its set-up failed")
        return StepResult(step.name, False, f"not run: {exc}", 0.0, 0.0)
    progress(f"{step.name}: started  ({' '.join(step.cmd)})")
    started = time.monotonic()
    proc = subprocess.Popen(
        list(step.cmd), cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        text=True,
    )  # fmt: skip
    assert proc.stdout is not None
    summary = ""
    node_counts: dict[str, str] = {}
    failures: list[str] = []
    for line in proc.stdout:
        with OUTPUT_LOCK:
            sys.stdout.write(f"{step.name} | {line}")
            sys.stdout.flush()
        if FAILURE_LINE.match(line) and line.strip() not in failures:
            failures.append(line.strip())
        elif PYTEST_SUMMARY.search(line):
            summary = line.strip().strip("=").strip()
        elif match := NODE_COUNT.match(line.strip()):
            node_counts[match[1]] = match[2]
    # wait4 rather than wait: the CPU time of the step and everything it started, a figure that
    # depends far less than the wall time on what else the machine is doing.
    _, status, usage = os.wait4(proc.pid, 0)
    code = proc.returncode = os.waitstatus_to_exitcode(status)
    if node_counts and not summary:
        summary = ", ".join(f"{v} {k}" for k, v in node_counts.items())
    seconds = time.monotonic() - started
    summary = summary or ("ok" if code == 0 else f"exit {code}")
    cpu = usage.ru_utime + usage.ru_stime
    result = StepResult(step.name, code == 0, summary, seconds, cpu, tuple(failures))
    progress(f"{step.name}: {'PASS' if result.ok else 'FAIL'} in {seconds:.1f}s, "
             f"CPU {result.cpu_seconds:.1f}s  ({result.summary})")  # fmt: skip
    return result


def run_steps(steps: Sequence[Step], env: dict[str, str], workers: int) -> list[StepResult]:
    """Run the steps on `workers` threads, each taking the next step not yet started when it is
    free (so a long step on one never leaves the other idle); results in the steps' order."""
    queue = iter(enumerate(steps))
    lock = threading.Lock()
    results: dict[int, StepResult] = {}

    def worker() -> None:
        while True:
            with lock:
                index, step = next(queue, (-1, None))
            if step is None:
                return
            results[index] = run_step(step, env)

    with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:
        for future in [pool.submit(worker) for _ in range(workers)]:
            future.result()
    return [results[i] for i in range(len(steps))]


def run_tests(*, skip_e2e: bool = False, install: bool = True, deep: bool = False) -> int:
    """`test`: install prerequisites (unless not `install`), build, then run every check (the
    browser tests unless `skip_e2e`; with `deep`, the long runs too: the whole suite inside
    Pyodide, the property soak and the fuzzer); 0 if all pass, else 1.  The output always ends
    with the failed tests' lines and the totals line, whatever failed."""
    try:
        results = run_checks(skip_e2e=skip_e2e, install=install, deep=deep)
    except BuildError as exc:
        results = [
            StepResult("set-up", False, f"not run: {exc}", 0.0, 0.0, (f"ERROR set-up: {exc}",))
        ]
    print("\n===== summary (wall and CPU seconds per step)", flush=True)
    for r in results:
        verdict = "PASS" if r.ok else "FAIL"
        times = f"{r.seconds:6.1f}s {r.cpu_seconds:6.1f}s"
        print(f"{verdict}  {r.name:<26} {times}  {r.summary}", flush=True)
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    progress(f"all steps finished; load average {load} (1, 5, 15 min)")
    failed_lines = [f"{r.name} | {line}" for r in results for line in r.failures]
    if failed_lines:
        print("\n===== failed (the test, and what a browser test waited on)", flush=True)
        print("\n".join(failed_lines), flush=True)
    # One closing line over every runner, in the plain form CI reads ("N passed, N failed").
    passed = sum(_count(r.summary, ("passed", "pass")) for r in results)
    failed = sum(_count(r.summary, ("failed", "fail")) for r in results) + sum(
        1 for r in results if not r.ok and not _count(r.summary, ("failed", "fail"))
    )
    print(f"total: {passed} passed, {failed} failed", flush=True)
    return 0 if all(r.ok for r in results) else 1


def run_checks(*, skip_e2e: bool, install: bool, deep: bool) -> list[StepResult]:
    """Set up (Debian's packages, .venv/, the site), then run the checks two at a time."""
    venv_python = VENV / "bin" / "python"
    py = str(venv_python if install or venv_python.exists() else Path(sys.executable))

    def debian() -> None:
        if install and (missing := debian_packages_missing(for_tests=True)):
            with timed(f"apt-get install {' '.join(missing)}"):
                apt_install(missing)

    def venv() -> None:
        if install:
            with timed("dev tools in .venv/ (pip install of pyproject.toml's dev extra)"):
                dev_venv()

    # Set-up: Debian's packages, the venv and the site build are independent, so they run side
    # by side; each check then waits only for what it uses (the in-Pyodide and JS tests need
    # no venv, so they start as soon as the site is built).
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as setup:
        debian_ready, venv_ready = setup.submit(debian), setup.submit(venv)
        if not (shutil.which("node") and shutil.which("npm")):
            debian_ready.result()
        with timed("site build"):
            site = build_site(DEFAULT_OUT)
        with timed("Pyodide test wheels"):
            pyodide_test_wheels()  # fetched now so the in-Pyodide run needs no network
        env = dict(os.environ, WH_SITE_DIR=str(site.root), PYTHONDONTWRITEBYTECODE="1")
        return run_steps(check_steps(py, site.root, (debian_ready, venv_ready), skip_e2e, deep),
                         env, workers=2)  # fmt: skip


def check_steps(
    py: str, site: Path, ready: tuple[concurrent.futures.Future[None], ...], skip_e2e: bool,
    deep: bool,
) -> list[Step]:  # fmt: skip
    """The checks, in the order they start (two at a time, for two cores); `ready` is
    (Debian's packages, .venv/)."""
    debian_ready, venv_ready = ready
    # The browser tests mostly wait on Chromium (boots, connections, timeouts), so they start
    # first, beside the CPU-bound checks, over two pytest-xdist workers, a module each (a module
    # shares one browser; --dist loadfile keeps it whole); --verbosity=1: a line per test;
    # --durations: the slowest tests (e2e/conftest.py adds the time per file, and the engine
    # downloads, at the end).
    e2e = [py, "-m", "pytest", "e2e", "-p", "no:cacheprovider", "--verbosity=1",
           "-n", "2", "--dist", "loadfile", "--durations=15"]  # fmt: skip
    # What only Pyodide shows (tests/pyodide/run.mjs), the vectors' CPython side in `py`.
    pyodide = ["node", "tests/pyodide/run.mjs", "--site", str(site), "--python", py]
    # pyproject's strict set (the engine, build.py, sitebuild/, tests/), and e2e/ apart: its
    # module names repeat tests/'s (conftest, test_hostile, test_rulesets).
    mypy = [py, "-m", "mypy"]
    tests = [py, "-m", "pytest", "tests", "-p", "no:cacheprovider"]
    steps = [
        Step("pytest e2e/", e2e, (debian_ready, venv_ready)),
        Step("tests in Pyodide (Node)", pyodide),
        Step("pytest tests/", tests, (venv_ready,)),
        Step("mypy --strict", mypy, (venv_ready,)),
        Step("mypy --strict e2e/", [*mypy, "e2e"], (venv_ready,)),
        Step("ruff", [py, "-m", "ruff", "check", "."], (venv_ready,)),
        Step("JS unit tests (Node)", ["node", "--test", "tests/js/"]),
    ]
    if skip_e2e:
        steps = [step for step in steps if step.name != "pytest e2e/"]
    if deep:
        steps += [
            # The whole engine suite again, inside Pyodide, from the site's wheel.
            Step("deep: tests/ in Pyodide", [*pyodide, "--deep"]),
            # The property tests over thousands of random duels, hypothesis not derandomized.
            Step(
                "deep: property soak",
                [py, "bench/soak_properties.py", "--examples", "2000", "--workers", "2"],
                (venv_ready,),
            ),
            # The code decoder, the session's receive path and validation, fuzzed.
            Step("deep: fuzz codes", [py, "bench/fuzz_codes.py", "--runs", "20000"], (venv_ready,)),
        ]
    return steps


def _count(summary: str, words: tuple[str, ...]) -> int:
    """The number before any of `words` in a runner's summary ("535 passed", "29 pass")."""
    total = 0
    for m in re.finditer(r"(\d+) (\w+)", summary):
        if m.group(2) in words:
            total += int(m.group(1))
    return total
