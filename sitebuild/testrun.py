"""`build.py test`: the checks, each started as soon as what it needs is ready, streamed under
its name and summed up."""

from __future__ import annotations

import concurrent.futures
import contextlib
import ctypes
import os
import re
import resource
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
    """One check: its name, its command, the set-up it must wait for before it starts, and its
    niceness (the checks off the critical path yield the CPU to the browser tests and the
    build, and take what those leave idle while they wait)."""

    name: str
    cmd: Sequence[str]
    needs: tuple[concurrent.futures.Future[None], ...] = ()
    nice: int = 0
    env: tuple[tuple[str, str], ...] = ()  # set for this step only


# e2e/conftest.py's closing line of CPU per file: the CPU of the browsers too, which the step's
# own figure misses (Playwright's driver and the browsers it starts are never waited for by
# their parent, so their CPU reaches no rusage of ours).
E2E_CPU_LINE = re.compile(r"^\s*[\d.]+ s\s+([\d.]+) s CPU .*\(all\)$")


def run_step(step: Step, env: dict[str, str]) -> StepResult:
    """Run one check, streaming its output line by line under its name; keep its summary."""
    progress(f"{step.name}: started  ({' '.join(step.cmd)})")
    started = time.monotonic()
    cmd = ["nice", "-n", str(step.nice), *step.cmd] if step.nice else list(step.cmd)
    proc = subprocess.Popen(
        cmd, cwd=ROOT, env={**env, **dict(step.env)}, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    assert proc.stdout is not None
    summary = ""
    node_counts: dict[str, str] = {}
    failures: list[str] = []
    browsers_cpu = 0.0
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
        elif match := E2E_CPU_LINE.match(line.rstrip()):
            browsers_cpu = float(match[1])
    # wait4 rather than wait: the CPU time of the step and everything it started and waited for,
    # a figure that depends far less than the wall time on what else the machine is doing.
    _, status, usage = os.wait4(proc.pid, 0)
    code = proc.returncode = os.waitstatus_to_exitcode(status)
    if node_counts and not summary:
        summary = ", ".join(f"{v} {k}" for k, v in node_counts.items())
    seconds = time.monotonic() - started
    summary = summary or ("ok" if code == 0 else f"exit {code}")
    cpu = max(usage.ru_utime + usage.ru_stime, browsers_cpu)
    result = StepResult(step.name, code == 0, summary, seconds, cpu, tuple(failures))
    progress(f"{step.name}: {'PASS' if result.ok else 'FAIL'} in {seconds:.1f}s, "
             f"CPU {result.cpu_seconds:.1f}s  ({result.summary})")  # fmt: skip
    return result


def run_steps(steps: Sequence[Step], env: dict[str, str], slots: int) -> list[StepResult]:
    """Run the steps, each as soon as what it needs is ready: at full priority at once, at a
    lower one (`nice`) when fewer than `slots` of those run (of the steps ready at once, the
    first listed first); results in the steps' order."""
    results: dict[int, StepResult] = {}
    turn = threading.Condition()
    running: list[int] = []
    ready: set[int] = set()

    def runner(index: int, step: Step) -> None:
        try:
            for need in step.needs:
                need.result()
        except BuildError as exc:
            progress(f"{step.name}: not run, its set-up failed")
            results[index] = StepResult(step.name, False, f"not run: {exc}", 0.0, 0.0)
            return
        if not step.nice:
            results[index] = run_step(step, env)
            return
        with turn:
            ready.add(index)
            turn.wait_for(lambda: len(running) < slots and min(ready) == index)
            ready.remove(index)
            running.append(index)
            turn.notify_all()
        try:
            results[index] = run_step(step, env)
        finally:
            with turn:
                running.remove(index)
                turn.notify_all()

    with concurrent.futures.ThreadPoolExecutor(max_workers=len(steps)) as pool:
        for future in [pool.submit(runner, i, step) for i, step in enumerate(steps)]:
            future.result()
    return [results[i] for i in range(len(steps))]


def run_tests(*, skip_e2e: bool = False, install: bool = True, deep: bool = False) -> int:
    """`test`: install prerequisites (unless not `install`), build, then run every check (the
    browser tests unless `skip_e2e`; with `deep`, the long runs too: the whole suite inside
    Pyodide, the property soak and the fuzzer); 0 if all pass, else 1.  The output always ends
    with the failed tests' lines and the totals line, whatever failed."""
    adopted = adopt_orphans()
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
    if adopted:
        reap_orphans()
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        progress(f"CPU of every process the command started, set-up included: "
                 f"{usage.ru_utime:.1f}s user + {usage.ru_stime:.1f}s system")  # fmt: skip
    failed_lines = [f"{r.name} | {line}" for r in results for line in r.failures]
    if failed_lines:
        print("\n===== failed (the test, and what a browser test waited on)", flush=True)
        print("\n".join(failed_lines), flush=True)
    # One closing line over every runner, in the plain form CI reads ("N passed, N failed").
    passed = sum(_count(r.summary, ("passed", "pass")) for r in results)
    failed = sum(_count(r.summary, FAILED_WORDS) for r in results) + sum(
        1 for r in results if not r.ok and not _count(r.summary, FAILED_WORDS)
    )
    print(f"total: {passed} passed, {failed} failed", flush=True)
    return 0 if all(r.ok for r in results) else 1


def adopt_orphans() -> bool:
    """Become the reaper of the orphans of the processes this one starts (Linux's
    PR_SET_CHILD_SUBREAPER), so that the CPU of every one of them, the browsers whose parents
    never wait for them too, reaches this process's rusage; False where that is not possible."""
    try:
        return bool(sys.platform == "linux" and ctypes.CDLL(None).prctl(36, 1, 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False


def reap_orphans() -> None:
    """Wait for every adopted process that has ended (once every step has finished)."""
    with contextlib.suppress(ChildProcessError):
        while os.waitpid(-1, os.WNOHANG)[0]:
            pass


def run_checks(*, skip_e2e: bool, install: bool, deep: bool) -> list[StepResult]:
    """Set up (Debian's packages, .venv/, the site), and run each check as soon as what it uses
    is ready: the checks that need no site run while it is built."""
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

    def site() -> None:
        if not (shutil.which("node") and shutil.which("npm")):
            debian_ready.result()
        with timed("site build"):
            built = build_site(DEFAULT_OUT)
        if built.root.resolve() != DEFAULT_OUT.resolve():
            raise BuildError(f"the site was built in {built.root}, not {DEFAULT_OUT}")
        with timed("Pyodide test wheels"):
            pyodide_test_wheels()  # fetched now so the in-Pyodide run needs no network

    # Debian's packages, the venv and the site build are independent, so they run side by side;
    # each check waits only for what it uses.
    with concurrent.futures.ThreadPoolExecutor(max_workers=3) as setup:
        debian_ready, venv_ready = setup.submit(debian), setup.submit(venv)
        site_ready = setup.submit(site)
        env = dict(os.environ, WH_SITE_DIR=str(DEFAULT_OUT.resolve()), PYTHONDONTWRITEBYTECODE="1")
        steps = check_steps(py, DEFAULT_OUT.resolve(), (debian_ready, venv_ready, site_ready),
                            skip_e2e, deep)  # fmt: skip
        return run_steps(steps, env, slots=2)


# e2e/'s module that builds network namespaces (the two NATed homes); a step of its own.
NETWORK_LAB = "e2e/test_netplay.py"


def check_steps(
    py: str, site: Path, ready: tuple[concurrent.futures.Future[None], ...], skip_e2e: bool,
    deep: bool,
) -> list[Step]:  # fmt: skip
    """The checks, in the order they are preferred when several could start; `ready` is
    (Debian's packages, .venv/, the site built)."""
    debian_ready, venv_ready, site_ready = ready
    # The browser tests are the longest step, so they go first as soon as the site is built, at
    # full priority, over two pytest-xdist workers, a module each (--dist loadfile; each worker
    # keeps one browser and the kept contexts of e2e/conftest.py for the whole run, and takes
    # the longest modules first); --verbosity=1: a line per test; --durations: the slowest
    # tests (e2e/conftest.py adds the time, CPU and engine downloads per file at the end);
    # --no-loadscope-reorder: the modules in e2e/conftest.py's order (the longest first), not
    # by their number of tests.
    e2e = [py, "-m", "pytest", "e2e", "-p", "no:cacheprovider", "--verbosity=1",
           "-n", "2", "--dist", "loadfile", "--no-loadscope-reorder", "--durations=15",
           f"--ignore={NETWORK_LAB}"]  # fmt: skip
    # The network lab's tests spend most of their time waiting out the page's clocks (ICE that
    # cannot succeed, an answer that comes a minute late: 250 s of wall for 110 s of CPU), so
    # they run beside the two workers as a step of their own rather than holding one of them.
    lab = [py, "-m", "pytest", NETWORK_LAB, "-p", "no:cacheprovider", "--verbosity=1"]
    # What only Pyodide shows (tests/pyodide/run.mjs), the vectors' CPython side in `py`.
    pyodide = ["node", "tests/pyodide/run.mjs", "--site", str(site), "--python", py]
    # pyproject's strict set (the engine, build.py, sitebuild/, tests/), and e2e/ apart: its
    # module names repeat tests/'s (conftest, test_hostile, test_rulesets).
    mypy = [py, "-m", "mypy"]
    tests = [py, "-m", "pytest", "tests", "-p", "no:cacheprovider", "--durations=10"]
    # The short checks run at a lower priority: they fill the cores while the build downloads
    # and while the browser tests wait on Chromium, and yield to them otherwise.  pytest tests/
    # (one process, minutes of CPU) does not: starved until the browser tests end, it would
    # finish alone on one core.
    background = 10
    # --deep: the deep tier (tests marked `deep`, docs/test-tiers.md) and the larger sizes.
    deep_sizes = (("WH_DEEP", "1"),) if deep else ()
    shots = deep_sizes if deep else (("WH_SHOTS", "0"),)
    # Node is Debian's: the JS tests wait for it only where it is missing.
    node = () if shutil.which("node") else (debian_ready,)
    steps = [
        # No screenshots unless --deep (a person's to look at, not a check; e2e/conftest.py).
        Step("pytest e2e/", e2e, (debian_ready, venv_ready, site_ready), 0, shots),
        Step("pytest e2e/ network lab", lab, (debian_ready, venv_ready, site_ready), 0, shots),
        Step("tests in Pyodide (Node)", pyodide, (*node, site_ready)),
        # --deep: the property, fuzz and soak-like tests at their larger sizes (tests/sizes.py).
        Step("pytest tests/", tests, (venv_ready,), 0, deep_sizes),
        Step("JS unit tests (Node)", ["node", "--test", "tests/js/"], node, background),
        Step("mypy --strict", mypy, (venv_ready,), background),
        Step("mypy --strict e2e/", [*mypy, "e2e"], (venv_ready,), background),
        Step("ruff", [py, "-m", "ruff", "check", "."], (venv_ready,), background),
    ]
    if skip_e2e:
        steps = [step for step in steps if not step.name.startswith("pytest e2e/")]
    if deep:
        steps += [
            # The whole engine suite again, inside Pyodide, from the site's wheel.
            Step("deep: tests/ in Pyodide", [*pyodide, "--deep"], (*node, site_ready)),
            # The property tests over thousands of random duels, hypothesis not derandomized.
            Step(
                "deep: property soak",
                [py, "bench/soak_properties.py", "--examples", "2000", "--workers", "2"],
                (venv_ready,),
                background,
            ),
            # The code decoder, the session's receive path and validation, fuzzed.
            Step(
                "deep: fuzz codes",
                [py, "bench/fuzz_codes.py", "--runs", "20000"],
                (venv_ready,),
                background,
            ),
        ]
    return steps


# The words of a summary that count a test that did not pass (pytest's errors are tests too:
# a fixture that failed, e.g. the network lab's).
FAILED_WORDS = ("failed", "fail", "error", "errors")


def _count(summary: str, words: tuple[str, ...]) -> int:
    """The number before any of `words` in a runner's summary ("535 passed", "29 pass")."""
    total = 0
    for m in re.finditer(r"(\d+) (\w+)", summary):
        if m.group(2) in words:
            total += int(m.group(1))
    return total
