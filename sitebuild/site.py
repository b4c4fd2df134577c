"""The whole static site: every file it ships, assembled, then written atomically."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from .boot import engine_build_module
from .common import (
    DEFAULT_OUT,
    PYTHON_LIBRARY,
    REFERENCE,
    ROOT,
    SOURCE_DATE_EPOCH,
    WEB,
    BuildError,
    log,
    sha256_hex,
    swap_in,
)
from .compress import packed_files, precompressed_siblings
from .icon import ICON_SIZES, app_icon
from .integrity import site_integrity_module
from .page import bundled_page, page_html
from .pins import (
    MICROPIP_WHEEL,
    PYODIDE_FILES,
    QR_INTEGRITY,
    QR_PACKAGE,
    QR_SITE_PATH,
    QR_VERSION,
    micropip_wheel,
    pyodide_dist,
    vendored_module,
)
from .runtime import COMPILE_HINT, PYODIDE_RUNTIME_SCRIPT, compile_wrappers_once, python_library
from .serviceworker import service_worker
from .wheel import engine_wheel, make_lock


@dataclass(frozen=True)
class Site:
    """What a build produced: its folder, its content version and its file manifest."""

    root: Path
    version: str
    manifest: dict[str, str]  # relative path -> sha256, for every file including sw.js

    @property
    def size(self) -> int:
        """Total bytes of the site."""
        return sum((self.root / p).stat().st_size for p in self.manifest)


def source_files(web: Path = WEB) -> dict[str, bytes]:
    """Every file the site ships but the Python library and what depends on it, by site path;
    `web`: the page's sources (web/ of the checkout, or a changed copy a test builds from)."""
    files: dict[str, bytes] = {}
    for path in sorted(web.rglob("*")):
        rel = path.relative_to(web).as_posix()
        if path.is_file() and "__pycache__" not in rel and rel != "sw.js":
            files[rel] = path.read_bytes()
    if "index.html" not in files:
        raise BuildError("web/index.html is missing")
    for size in ICON_SIZES:
        files[f"icons/icon-{size}.png"] = app_icon(size)
    files["ice.json"] = site_ice_config(web)
    files[REFERENCE] = engine_reference()
    files[QR_SITE_PATH] = vendored_module(QR_PACKAGE, QR_VERSION, QR_INTEGRITY, "dist/index.mjs")
    pyo = pyodide_dist()
    for name in PYODIDE_FILES:
        files[f"pyodide/{name}"] = (pyo / name).read_bytes()
    runtime = f"pyodide/{PYODIDE_RUNTIME_SCRIPT}"
    files[runtime] = COMPILE_HINT + compile_wrappers_once(files[runtime])
    wheel_name, wheel_bytes = engine_wheel()
    wheels = {wheel_name: wheel_bytes, MICROPIP_WHEEL: micropip_wheel().read_bytes()}
    for name, data in wheels.items():
        files[f"pyodide/{name}"] = data
    shipped = json.loads((pyo / "pyodide-lock.json").read_text())
    files["pyodide/pyodide-lock.json"] = make_lock(shipped, wheels)
    return files


def site_ice_config(web: Path = WEB) -> bytes:
    """The site's ice.json (docs/webrtc.md): $WH_ICE_JSON if set, else web/ice.json; checked to be
    a JSON object, so a typo fails the build rather than every live connection."""
    given = os.environ.get("WH_ICE_JSON")
    path = Path(given) if given else web / "ice.json"
    try:
        data = path.read_bytes()
        value = json.loads(data)
    except (OSError, ValueError) as e:
        raise BuildError(f"{path}: not a readable JSON file ({e})") from e
    if not isinstance(value, dict) or not set(value) <= {"stun", "turn"}:
        raise BuildError(f'{path}: expected an object with "stun" and "turn" (docs/webrtc.md)')
    return data


def engine_reference() -> bytes:
    """reference.json: {"spells": api.spells(), "rulesets": api.rulesets(), "books": {name:
    api.spells({"name": name}) for every ruleset}}, as the engine answers them, so that the page
    shows every ruleset's spell reference and the new-duel options while the engine is still
    downloading.  Asked of the checkout's engine under this Python (the engine is pure Python,
    so CPython answers as Pyodide would); nothing is written by hand."""
    script = (
        "import json, sys\n"
        "sys.path.insert(0, sys.argv[1])\n"
        "from wavinghands import api\n"
        "listed = json.loads(api.rulesets())\n"
        "books = {r['name']: json.loads(api.spells(json.dumps({'name': r['name']})))\n"
        "         for r in listed.get('rulesets', [])}\n"
        "answers = {'spells': json.loads(api.spells()), 'rulesets': listed, 'books': books}\n"
        "print(json.dumps(answers, sort_keys=True, separators=(',', ':'), ensure_ascii=False))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", script, str(ROOT / "engine")],
        capture_output=True, text=True, encoding="utf-8", check=False,
    )  # fmt: skip
    if proc.returncode != 0:
        raise BuildError(f"the engine could not list its spells and rulesets:\n{proc.stderr}")
    answers = json.loads(proc.stdout)
    asked = {"spells()": answers["spells"], "rulesets()": answers["rulesets"]}
    asked.update({f"spells({name!r})": book for name, book in answers["books"].items()})
    for name, answer in asked.items():
        if answer.get("ok") is not True:
            raise BuildError(f"the engine's {name} answered {answer!r}")
    return proc.stdout.encode("utf-8")


def build_site(out: Path = DEFAULT_OUT, *, reuse_library: bool = True, web: Path = WEB) -> Site:
    """Build the whole static site from `web` into `out` (replaced atomically); its manifest."""
    out = out.resolve()
    files = source_files(web)
    files[PYTHON_LIBRARY] = python_library(files, reuse=reuse_library)
    files.update(packed_files(files))
    files["engine-build.js"] = engine_build_module(files)
    files.update(bundled_page(files))
    files.update(precompressed_siblings(files))
    # Integrity, inside out: the worker's scripts in site-integrity.js, every page module in
    # index.html, every file in sw.js's precache list.
    files["site-integrity.js"] = site_integrity_module(files)
    files["index.html"] = page_html(files)
    version, sw = service_worker(files, web)
    files["sw.js"] = sw
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".site-", dir=out.parent))
    try:
        for rel, data in sorted(files.items()):
            dest = staging / rel
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.write_bytes(data)
            os.chmod(dest, 0o644)
        for path in sorted(staging.rglob("*"), reverse=True):
            os.utime(path, (SOURCE_DATE_EPOCH, SOURCE_DATE_EPOCH))
        os.chmod(staging, 0o755)
        os.utime(staging, (SOURCE_DATE_EPOCH, SOURCE_DATE_EPOCH))
        swap_in(staging, out)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    site = Site(out, version, {rel: sha256_hex(data) for rel, data in sorted(files.items())})
    log(f"site {version}: {len(files)} files, {site.size:,} bytes in {out}")
    return site


def manifest_of(root: Path) -> dict[str, str]:
    """sha256 of every file under root (relative posix path -> hex), to compare two builds."""
    return {
        p.relative_to(root).as_posix(): sha256_hex(p.read_bytes())
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }
