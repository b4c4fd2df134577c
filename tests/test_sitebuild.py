"""The build's pure parts (sitebuild/): what they write depends on their input alone, and what
they refuse, they refuse with a message naming the problem.  The whole build (Node, npm, the
Pyodide tarball) is tested by e2e/test_build.py; these need only the standard library."""

from __future__ import annotations

import ast
import base64
import concurrent.futures
import hashlib
import io
import json
import os
import re
import struct
import sys
import threading
import zipfile
import zlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
# The build's own tests need the host (Node, files outside the wheel): `build.py test --deep`
# runs tests/ inside Pyodide too, where they have nothing to check.
pytestmark = pytest.mark.skipif(sys.platform == "emscripten", reason="the build runs on the host")

from sitebuild import boot, common, icon, integrity, page, runtime, serviceworker, testrun, wheel  # noqa: E402
from sitebuild.common import BuildError  # noqa: E402

# The modules in the order sitebuild/__init__.py lists them: each imports only those before it.
ORDER = [
    line.split()[0]
    for line in (ROOT / "sitebuild" / "__init__.py").read_text().split("\n")
    if line.startswith("    ") and line.split()[0].isidentifier()
]


def test_the_package_lists_every_module_once() -> None:
    """__init__'s list is the package's modules, each once."""
    modules = sorted(p.stem for p in (ROOT / "sitebuild").glob("*.py") if p.stem != "__init__")
    assert sorted(ORDER) == modules
    assert len(set(ORDER)) == len(ORDER)


@pytest.mark.parametrize("module", ORDER)
def test_imports_go_one_way(module: str) -> None:
    """A module imports only modules listed above it (no cycles, no reaching up)."""
    tree = ast.parse((ROOT / "sitebuild" / f"{module}.py").read_text())
    imported = {
        node.module.split(".")[0] if node.level else node.module
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
        and node.module
        and (node.level or "sitebuild" in node.module)
    }
    above = set(ORDER[: ORDER.index(module)])
    assert imported <= above, f"{module} imports {sorted(imported - above)}, listed below it"


def test_build_py_is_a_thin_entry_point() -> None:
    """build.py parses the command line and dispatches: at most 150 lines."""
    assert len((ROOT / "build.py").read_text().splitlines()) <= 150


def test_build_py_keeps_its_commands_and_flags() -> None:
    """The commands and flags the README and CI use still parse."""
    sys.path.insert(0, str(ROOT))
    import build

    parse = build.parser().parse_args
    assert parse(["build", "--out", "x"]).out == "x"
    served = parse(["serve", "--port", "0", "--no-build", "--out", "y"])
    assert (served.port, served.no_build, served.out) == (0, True, "y")
    tested = parse(["test", "--skip-e2e", "--no-install"])
    assert (tested.skip_e2e, tested.no_install) == (True, True)


def zip_of(entries: dict[str, bytes]) -> bytes:
    """A deflated zip holding `entries`, in the given order, with today's timestamps."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in entries.items():
            archive.writestr(name, data)
    return out.getvalue()


def test_normalised_zip_depends_on_content_alone() -> None:
    """Order, timestamps and compression of the input do not show in the output; RECORD is last,
    the dist-info after the package, every member stored with fixed mode and date."""
    entries = {"p-1.dist-info/RECORD": b"r", "p/b.py": b"b", "p-1.dist-info/METADATA": b"m",
               "p/a.py": b"a", "p/": b""}  # fmt: skip
    shuffled = dict(reversed(list(entries.items())))
    first, second = wheel.normalised_zip(zip_of(entries)), wheel.normalised_zip(zip_of(shuffled))
    assert first == second
    with zipfile.ZipFile(io.BytesIO(first)) as archive:
        infos = archive.infolist()
    names = [i.filename for i in infos]
    assert names == ["p/a.py", "p/b.py", "p-1.dist-info/METADATA", "p-1.dist-info/RECORD"]
    assert {(i.compress_type, i.date_time, i.external_attr >> 16) for i in infos} == {
        (zipfile.ZIP_STORED, common.ZIP_DATE, 0o644)
    }


def test_the_engine_wheel_records_each_file_it_holds() -> None:
    """engine_wheel(): same bytes twice; RECORD names every other member with its real digest."""
    name, data = wheel.engine_wheel()
    assert re.fullmatch(r"wavinghands-[\d.]+-py3-none-any\.whl", name)
    assert wheel.engine_wheel() == (name, data)
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        members = {n: archive.read(n) for n in archive.namelist()}
    (record_name,) = (n for n in members if n.endswith(".dist-info/RECORD"))
    rows = [row.split(",") for row in members.pop(record_name).decode().split("\n") if row]
    recorded = {path: (digest, size) for path, digest, size in rows if path != record_name}
    assert set(recorded) == set(members)
    for path, (digest, size) in recorded.items():
        assert int(size) == len(members[path])
        sha = base64.urlsafe_b64encode(hashlib.sha256(members[path]).digest()).rstrip(b"=")
        assert digest == f"sha256={sha.decode()}", path
    assert "wavinghands/api.py" in members


def test_make_lock_lists_exactly_the_shipped_wheels() -> None:
    """pyodide-lock.json names the shipped wheels with their real sha256; Pyodide's own entry
    gives only what the wheel imports and depends on."""
    shipped = {"info": {"python": "3.14"}, "packages": {
        "micropip": {"depends": ["packaging"], "imports": ["micropip"], "sha256": "cdn's"},
        "numpy": {"depends": [], "imports": ["numpy"]},
    }}  # fmt: skip
    wheels = {"micropip-0.11.1-py3-none-any.whl": b"m", "wavinghands-0.1.0-py3-none-any.whl": b"w"}
    lock = json.loads(wheel.make_lock(shipped, wheels))
    assert lock["info"] == {"python": "3.14"}
    assert sorted(lock["packages"]) == ["micropip", "wavinghands"]
    micropip = lock["packages"]["micropip"]
    assert micropip["sha256"] == common.sha256_hex(b"m")
    assert micropip["depends"] == ["packaging"] and micropip["version"] == "0.11.1"
    assert lock["packages"]["wavinghands"]["imports"] == ["wavinghands"]


def test_engine_wheel_path_finds_the_one_engine_wheel() -> None:
    """The engine's wheel is found by its name among the site's files."""
    files = {
        "pyodide/micropip-0.11.1-py3-none-any.whl": b"",
        "pyodide/wavinghands-0.1.0-py3-none-any.whl": b"",
    }
    assert wheel.engine_wheel_path(files) == "pyodide/wavinghands-0.1.0-py3-none-any.whl"


def test_the_runtime_patch_needs_exactly_one_place() -> None:
    """The wrapper patch applies where Emscripten's compilation is, once, or fails the build."""
    runtime_script = b"a;" + runtime.WRAPPER_COMPILE + b"b;"
    assert (
        runtime.compile_wrappers_once(runtime_script)
        == b"a;" + runtime.WRAPPER_COMPILE_ONCE + b"b;"
    )
    for wrong in (b"a;", runtime_script + runtime.WRAPPER_COMPILE):
        with pytest.raises(BuildError, match="wrapper compilation is not where expected"):
            runtime.compile_wrappers_once(wrong)


def png_chunks(data: bytes) -> list[tuple[bytes, bytes]]:
    """The (type, body) chunks of a PNG, each CRC checked."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    chunks, at = [], 8
    while at < len(data):
        (length,) = struct.unpack(">I", data[at : at + 4])
        kind, body = data[at + 4 : at + 8], data[at + 8 : at + 8 + length]
        (crc,) = struct.unpack(">I", data[at + 8 + length : at + 12 + length])
        assert crc == zlib.crc32(kind + body)
        chunks.append((kind, body))
        at += 12 + length
    return chunks


def test_the_app_icon_is_a_valid_png_of_its_size() -> None:
    """app_icon(n): a decodable n x n RGB PNG, its corner the background, its centre the ink."""
    size = 48
    chunks = png_chunks(icon.app_icon(size))
    assert [kind for kind, _ in chunks] == [b"IHDR", b"IDAT", b"IEND"]
    assert struct.unpack(">IIBBBBB", chunks[0][1]) == (size, size, 8, 2, 0, 0, 0)
    raw = zlib.decompress(chunks[1][1])
    rows = [raw[y * (1 + 3 * size) + 1 : (y + 1) * (1 + 3 * size)] for y in range(size)]
    assert tuple(rows[0][:3]) == icon.ICON_BACKGROUND
    centre = size // 2 * 3
    assert tuple(rows[size // 2][centre : centre + 3]) == icon.ICON_INK
    assert icon.app_icon(size) == icon.app_icon(size)


def test_the_meta_policy_leaves_out_what_only_a_header_can_say() -> None:
    """The <meta> policy is the header's without frame-ancestors; both forbid inline script."""
    header, meta = integrity.content_security_policy(), integrity.content_security_policy(meta=True)
    assert "frame-ancestors 'none'" in header and "frame-ancestors" not in meta
    assert header.replace("; frame-ancestors 'none'", "") == meta
    assert "script-src 'self' 'wasm-unsafe-eval'" in meta and "unsafe-inline" not in header


def test_the_integrity_manifest_skips_the_br_siblings() -> None:
    """Every file a browser may ask for by name, in SRI form; the .br siblings never."""
    manifest = integrity.integrity_manifest({"a.js": b"x", "a.js.br": b"y"})
    assert manifest == {"a.js": common.sri_sha256(b"x")}
    # printf x | openssl dgst -sha256 -binary | base64
    assert manifest["a.js"] == "sha256-LXEWQrcmsEQBYnyp+6wy9chTD7GQPMTbAiWHF5IaSIE="


def worker_files(worker: str = 'import "./engine-build.js";\n') -> dict[str, bytes]:
    """The site files site_integrity_module reads, with the given engine worker."""
    files = {path: path.encode() for path in integrity.WORKER_SCRIPTS}
    files["engine-worker.js"] = worker.encode()
    files[integrity.COMPILE_AHEAD] = b'import "./integrity.js";\n'
    return files


def test_site_integrity_lists_the_workers_scripts() -> None:
    """site-integrity.js: each worker script's integrity, and compile-ahead.js with its imports."""
    files = worker_files()
    text = integrity.site_integrity_module(files).decode()
    scripts = json.loads(text.split("WORKER_SCRIPTS = ")[1].split(";\n")[0])
    assert scripts == {p: common.sri_sha256(files[p]) for p in integrity.WORKER_SCRIPTS}
    ahead = json.loads(text.split("COMPILE_AHEAD = ")[1].split(";\n")[0])
    assert sorted(ahead) == sorted([integrity.COMPILE_AHEAD, "integrity.js"])


def test_a_worker_import_missing_from_the_list_fails_the_build() -> None:
    """A script the worker imports but WORKER_SCRIPTS lacks would run unchecked: refused."""
    files = worker_files('import { x } from "./unlisted.js";\n')
    with pytest.raises(BuildError, match=r"imports \['unlisted.js'\]: add them to WORKER_SCRIPTS"):
        integrity.site_integrity_module(files)


def page_files(html: str) -> dict[str, bytes]:
    """The files page_html reads: index.html, the bundles, the external modules, early scripts."""
    files = {
        rel: rel.encode() for rel in (*page.PAGE_BUNDLES, *page.PAGE_EXTERNAL, *page.EARLY_SCRIPTS)
    }
    files["index.html"] = html.encode()
    return files


INDEX = """<!doctype html>
<html><head>
<meta charset="utf-8">
  <link rel="stylesheet" href="./style.css">
  <script type="module" src="./app.js"></script>
</head><body></body></html>
"""


def test_page_html_puts_integrity_on_every_module_and_the_policy_first() -> None:
    """index.html: the policy right after <meta charset>, the early scripts before the stylesheet,
    integrity on the app's module and a preload with integrity for every other module."""
    files = page_files(INDEX)
    html = page.page_html(files).decode()
    sri = {rel: common.sri_sha256(data) for rel, data in files.items()}
    assert f'<script type="module" src="./app.js" integrity="{sri["app.js"]}">' in html
    for rel in (*page.PAGE_BUNDLES, *page.PAGE_EXTERNAL):
        if rel != "app.js":
            assert f'<link rel="modulepreload" href="./{rel}" integrity="{sri[rel]}">' in html
    policy = html.index('http-equiv="Content-Security-Policy"')
    early = [html.index(f'src="./{path}" integrity="{sri[path]}"') for path in page.EARLY_SCRIPTS]
    assert html.index("<meta charset") < policy < early[0] < early[1] < html.index("stylesheet")


@pytest.mark.parametrize(
    ("html", "message"),
    [
        (INDEX.replace("<body>", "<body><script>alert(1)</script>"), "inline script"),
        (INDEX.replace("<body>", '<body style="x">'), "inline script, style="),
        (INDEX.replace("<body>", '<body onload="x()">'), "on\\*="),
        (INDEX.replace("./app.js", "./other.js"), r"loads \['other.js'\]"),
        (
            INDEX.replace("</head>", '<script src="./boot-guard.js"></script></head>'),
            "writes their tags",
        ),
    ],
)
def test_page_html_refuses_what_the_policy_or_the_build_would_break(
    html: str, message: str
) -> None:
    """Inline code, an unknown module or an early script index.html loads itself: refused."""
    with pytest.raises(BuildError, match=message):
        page.page_html(page_files(html))


def test_app_entry_exports_each_held_module_by_its_path() -> None:
    """app.js's entry runs app.js and exports every module it holds, and app.js's own exports,
    under its site path."""
    entry = page.app_entry(["a.js", "ui/b.js"])
    assert 'import * as shell from "./app.js";' in entry
    assert '\n  "app.js": shell,\n' in entry
    assert 'import * as m1 from "./ui/b.js";' in entry
    assert f'export const {page.BUNDLE_MODULES_EXPORT} = Object.freeze({{\n  "a.js": m0,' in entry


def site_files() -> dict[str, bytes]:
    """A small site: the snapshot's inputs, a page source app.js's bundle holds, a wheel, a .br."""
    files = {path: path.encode() for path in boot.SNAPSHOT_INPUTS}
    files.update({"app.js": b"bundle", "ui/held.js": b"source", "index.html": b"<html>"})
    files.update(
        {"pyodide/wavinghands-0.1.0-py3-none-any.whl": b"w", "pyodide/python_stdlib.zip": b"s"}
    )
    files[common.PYTHON_LIBRARY + ".br"] = b"br"
    return files


def test_the_engine_id_follows_the_snapshot_inputs_only() -> None:
    """A change of a snapshot input renames the kept snapshot; a change elsewhere keeps it."""
    files = site_files()
    same = boot.engine_id(files)
    assert boot.engine_id({**files, "app.js": b"other"}) == same
    assert boot.engine_id({**files, "engine-snapshot.js": b"changed"}) != same


def test_the_precache_leaves_out_what_the_boot_never_asks_for() -> None:
    """sw.js precaches the boot's files with their integrity, never the .br siblings, the wheels,
    the full stdlib or the page sources the bundle holds; its version follows every file."""
    files = site_files()
    version, sw = serviceworker.service_worker(files)
    text = sw.decode()
    precache = json.loads(text.split("const PRECACHE = ")[1].split(";\n")[0])
    paths = {rel for rel, _ in precache}
    assert {"app.js", "index.html", common.PYTHON_LIBRARY} <= paths
    assert not paths & {"ui/held.js", "pyodide/python_stdlib.zip", common.PYTHON_LIBRARY + ".br"}
    assert not any(rel.endswith(".whl") for rel in paths)
    assert dict(precache)["app.js"] == common.sri_sha256(b"bundle")
    assert f'const ENGINE_ID = "{boot.engine_id(files)}";' in text
    assert serviceworker.service_worker({**files, "ui/held.js": b"x"})[0] != version


@pytest.mark.parametrize(
    ("summary", "passed", "failed"),
    [
        ("535 passed, 3 skipped in 10.2s", 535, 0),
        ("2 failed, 40 passed, 1 error in 3s", 40, 3),
        ("2 failed, 151 passed, 6 errors in 3341.69s (0:55:41)", 151, 8),
        ("29 tests, 29 pass, 0 fail", 29, 0),
        ("ok", 0, 0),
    ],
)
def test_the_runner_counts_each_summary(summary: str, passed: int, failed: int) -> None:
    """The closing totals add each step's passed and failed counts, in pytest's and node's words."""
    assert testrun._count(summary, ("passed", "pass")) == passed
    assert testrun._count(summary, testrun.FAILED_WORDS) == failed


def test_a_failed_line_is_kept_for_the_closing_list() -> None:
    """pytest's FAILED/ERROR lines, e2e's WAITED lines and node's `not ok` are failures."""
    for line in ("FAILED e2e/test_x.py::test_y - TimeoutError", "ERROR tests/a.py::b",
                 "WAITED e2e/test_x.py::test_y (call) at e2e/test_x.py:6 `x`: waiting for y",
                 "not ok 3 - codec round trip"):  # fmt: skip
        assert testrun.FAILURE_LINE.match(line), line
    assert not testrun.FAILURE_LINE.match("e2e/test_x.py::test_y FAILED")  # the progress line


def test_the_output_ends_with_the_totals_even_when_the_set_up_fails(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A build that fails before any check still ends with its error and the totals line."""

    def broken(**_: object) -> list[testrun.StepResult]:
        raise BuildError("the Pyodide tarball lacks ['package/pyodide.mjs']")

    monkeypatch.setattr(testrun, "run_checks", broken)
    assert testrun.run_tests() == 1
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[-1] == "total: 0 passed, 1 failed"
    assert "set-up | ERROR set-up: the Pyodide tarball lacks" in lines[-2]


def test_the_default_run_proves_pyodide_on_a_chosen_set_and_deep_runs_everything() -> None:
    """Default: the Pyodide runner's chosen set, e2e with durations; --deep adds the whole suite
    in Pyodide, the soak and the fuzzer."""
    done: concurrent.futures.Future[None] = concurrent.futures.Future()
    done.set_result(None)
    default = testrun.check_steps("py", Path("site"), (done, done, done), skip_e2e=False,
                                  deep=False)
    commands = {step.name: list(step.cmd) for step in default}
    assert "--deep" not in commands["tests in Pyodide (Node)"]
    assert commands["tests in Pyodide (Node)"][-2:] == ["--python", "py"]
    assert {"--durations=15", "--no-loadscope-reorder"} <= set(commands["pytest e2e/"])
    assert not dict(next(s for s in default if s.name == "pytest tests/").env)
    # No screenshots by default (a person's to look at), taken under --deep.
    assert dict(next(s for s in default if s.name == "pytest e2e/").env) == {"WH_SHOTS": "0"}
    # The network lab runs beside the two workers, as a step of its own.
    assert f"--ignore={testrun.NETWORK_LAB}" in commands["pytest e2e/"]
    assert testrun.NETWORK_LAB in commands["pytest e2e/ network lab"]
    deep_e2e = testrun.check_steps("py", Path("site"), (done, done, done), skip_e2e=False,
                                   deep=True)
    # --deep: the browser tests' deep tier too (tests marked `deep`), with screenshots.
    for name in ("pytest e2e/", "pytest e2e/ network lab"):
        assert dict(next(s for s in deep_e2e if s.name == name).env) == {"WH_DEEP": "1"}
    deep = testrun.check_steps("py", Path("site"), (done, done, done), skip_e2e=True, deep=True)
    names = [step.name for step in deep]
    assert not [name for name in names if name.startswith("pytest e2e/")]
    assert {"deep: tests/ in Pyodide", "deep: property soak", "deep: fuzz codes"} <= set(names)
    # --deep runs tests/ at the larger sizes (tests/sizes.py).
    assert dict(next(s for s in deep if s.name == "pytest tests/").env) == {"WH_DEEP": "1"}


def test_each_step_starts_when_its_set_up_is_ready_within_the_slots() -> None:
    """A step waits for its own set-up only; at most `slots` of the lower-priority ones run at
    once; results keep the steps' order; a step whose set-up failed is not run and says why."""
    later: concurrent.futures.Future[None] = concurrent.futures.Future()
    failed: concurrent.futures.Future[None] = concurrent.futures.Future()
    failed.set_exception(BuildError("no site"))
    py = sys.executable
    steps = [
        testrun.Step("waits", [py, "-c", "print('1 passed')"], (later,), nice=5),
        testrun.Step("first", [py, "-c", "print('2 passed')"], (), nice=5),
        testrun.Step("broken", [py, "-c", "print('x')"], (failed,)),
    ]
    threading.Timer(0.5, later.set_result, (None,)).start()
    results = testrun.run_steps(steps, dict(os.environ), slots=1)
    assert [(r.name, r.ok, r.summary) for r in results] == [
        ("waits", True, "1 passed"), ("first", True, "2 passed"),
        ("broken", False, "not run: no site")]  # fmt: skip


def test_the_cross_runtime_comparison_names_the_first_difference() -> None:
    """tests/pyodide/vectors.py's comparison: None when equal, else the first differing name."""
    sys.path.insert(0, str(ROOT / "tests" / "pyodide"))
    import vectors

    host = {"ai/x": "1", "duel/0": "a b", "duel/1": "c"}
    assert vectors.first_difference(host, dict(host)) is None
    assert vectors.first_difference(host, {**host, "duel/0": "a z"}) == (
        "duel/0: CPython 'a b', Pyodide 'a z'"
    )
    missing = {k: v for k, v in host.items() if k != "ai/x"}
    assert vectors.first_difference(host, missing) == "ai/x: CPython '1', Pyodide None"


def test_the_in_pyodide_list_names_test_files() -> None:
    """tests/pyodide/in_pyodide.txt: test files of tests/, each with a comment saying why."""
    text = (ROOT / "tests" / "pyodide" / "in_pyodide.txt").read_text()
    listed = [line for line in text.splitlines() if line and not line.startswith("#")]
    assert listed and all(re.fullmatch(r"test_\w+\.py", name) for name in listed)
    lines = text.splitlines()
    for name in listed:
        assert lines[lines.index(name) - 1].startswith("#"), f"{name}: say why it runs there"
