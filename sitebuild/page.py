"""The page: its modules bundled by esbuild, and index.html with its policy and the integrity of
every module and early script."""

from __future__ import annotations

import json
import re
import tempfile
from pathlib import Path

from .common import BuildError, run
from .integrity import COMPILE_AHEAD, WORKER_SCRIPTS, content_security_policy, integrity_manifest
from .pins import QR_SITE_PATH, bundler

# Classic scripts index.html runs first, in this order, before its stylesheet and modules:
# boot-guard.js names a page script that failed its integrity, engine-start.js starts the engine
# worker (engine.js takes it over).  build.py writes their tags, with their integrity.
EARLY_SCRIPTS = ("boot-guard.js", "engine-start.js")
# Worker-side modules and early classic scripts: the page never imports them, so index.html
# does not preload them.
NOT_PAGE_MODULES = frozenset(
    {"sw.js", COMPILE_AHEAD, *EARLY_SCRIPTS, *WORKER_SCRIPTS} - {"integrity.js"}
)
# The page loads its modules bundled: each of these entries with every page module it imports,
# in one file at the entry's own path (bundled_page).  One file, where there were some 35: on a
# warm visit each module cost a request answered from the service worker's cache and the
# module map's work, about 100 ms of CPU in all among the browser's processes, beside the
# engine's boot on a 2-core machine (bench/results.md, the first visit's last row).  web/ keeps
# the modules as written; the site serves them too (tests import one afresh), unprecached.
PAGE_BUNDLES = ("app.js", "sw-register.js")
# Page modules the bundles import at run time instead of holding: the worker scripts' integrity
# list, written after the bundles' sources (a change of the worker needs no new bundle), and the
# QR code library remote.js loads on first use.  index.html preloads them with their integrity.
PAGE_EXTERNAL = ("site-integrity.js", QR_SITE_PATH)


# The first line of each bundle.
BUNDLE_BANNER = "// The page's modules, bundled by build.py (esbuild): web/ holds them as written."
# What app.js's bundle exports besides running the app: each page module it holds, by site path.
BUNDLE_MODULES_EXPORT = "modules"


def page_modules(files: dict[str, bytes]) -> list[str]:
    """The site's JS modules the page may import (everything but worker-side scripts)."""
    return sorted(
        rel for rel in files
        if rel.endswith((".js", ".mjs")) and rel not in NOT_PAGE_MODULES
        and not rel.startswith("pyodide/")
    )  # fmt: skip


def page_sources(files: dict[str, bytes]) -> list[str]:
    """The page modules the bundles hold (PAGE_BUNDLES): served as written, never loaded by the
    page itself, so not precached (the worker's own scripts among them excepted)."""
    loaded = {*PAGE_BUNDLES, *PAGE_EXTERNAL, *WORKER_SCRIPTS}
    return [rel for rel in page_modules(files) if rel not in loaded]


def app_entry(held: list[str]) -> str:
    """The source esbuild bundles as app.js: app.js itself, and `modules` for the rest."""
    lines = [
        "// Built by build.py: app.js and the page modules it imports, in one file (web/ holds",
        f"// them as written).  `{BUNDLE_MODULES_EXPORT}`: each of them by its site path, the very",
        "// instances the page runs, for tests and the browser's console; app.js's own too.",
        'import * as shell from "./app.js";',
    ]
    lines += [f"import * as m{i} from {json.dumps('./' + rel)};" for i, rel in enumerate(held)]
    entries = "".join(f"\n  {json.dumps(rel)}: m{i}," for i, rel in enumerate(held))
    entries += '\n  "app.js": shell,'
    lines.append(f"export const {BUNDLE_MODULES_EXPORT} = Object.freeze({{{entries}\n}});")
    return "\n".join(lines) + "\n"


def bundled_page(files: dict[str, bytes]) -> dict[str, bytes]:
    """PAGE_BUNDLES, each bundled by esbuild with the page modules it imports (PAGE_EXTERNAL
    left to load at run time); app.js's bundle holds every page source (page_sources)."""
    # Every page source, and the page's instance of the one worker script it imports (integrity.js).
    held = page_sources(files) + [rel for rel in page_modules(files) if rel in WORKER_SCRIPTS]
    with tempfile.TemporaryDirectory() as tmp:
        src, out = Path(tmp, "src"), Path(tmp, "out")
        for rel in page_modules(files):
            (src / rel).parent.mkdir(parents=True, exist_ok=True)
            (src / rel).write_bytes(files[rel])
        (src / "page-entry.js").write_text(app_entry(sorted(held)))
        entries = {"app": "page-entry.js", "sw-register": "sw-register.js"}
        if sorted(f"{name}.js" for name in entries) != sorted(PAGE_BUNDLES):
            raise BuildError("bundled_page's entries are not PAGE_BUNDLES")
        run(
            [
                "node", str(bundler()), *(f"{name}=./{entry}" for name, entry in entries.items()),
                "--bundle", "--format=esm", "--charset=utf8", "--log-level=warning",
                f"--outdir={out}", f"--metafile={Path(tmp, 'meta.json')}",
                *(f"--external:./{rel}" for rel in PAGE_EXTERNAL),
                f"--banner:js={BUNDLE_BANNER}",
            ],
            cwd=src, quiet=True,
        )  # fmt: skip
        meta = json.loads(Path(tmp, "meta.json").read_text())
        bundles = {f"{name}.js": (out / f"{name}.js").read_bytes() for name in entries}
    inputs = {rel for output in meta["outputs"].values() for rel in output["inputs"]}
    if missing := sorted(set(held) - inputs):
        raise BuildError(f"app.js's bundle does not hold {missing}")
    if inside := sorted(inputs & set(PAGE_EXTERNAL)):
        raise BuildError(f"the page's bundles hold {inside}, which must load on their own")
    return bundles


MODULE_TAG = re.compile(
    r"""<(?:link rel="modulepreload" href|script type="module" src)="\./([^"]+)"(?=[ >])"""
)


def page_html(files: dict[str, bytes]) -> bytes:
    """index.html with the site's policy in a <meta> tag and integrity on every module.

    Each module the page loads gets the integrity of its bytes: on its `<script type=module>` or
    its `<link rel=modulepreload>`, which Chromium uses for the later `import` of the same URL
    (the module map keeps the preloaded, checked module).  The page loads PAGE_BUNDLES and
    PAGE_EXTERNAL; those index.html does not list are preloaded after its own list.
    EARLY_SCRIPTS come first, before the stylesheet (a script after it would wait for it).
    Inline script, inline style and event-handler attributes are refused (the policy forbids them).
    """
    html = files["index.html"].decode()
    if re.search(r"<script(?![^>]*\ssrc=)[^>]*>|\sstyle=|\son[a-z]+=", html):
        raise BuildError("web/index.html: inline script, style= or on*= (the CSP forbids them)")
    manifest = integrity_manifest(files)
    modules = [rel for rel in (*PAGE_BUNDLES, *PAGE_EXTERNAL) if rel in files]
    listed = set(MODULE_TAG.findall(html))
    scripts = set(re.findall(r'<script[^>]*\ssrc="\./([^"]+)"', html))
    if early := sorted(scripts & set(EARLY_SCRIPTS)):
        raise BuildError(f"web/index.html loads {early} itself: build.py writes their tags first")
    if unknown := sorted(listed - set(modules)):
        raise BuildError(f"web/index.html loads {unknown}: the page loads only {modules}")
    html = MODULE_TAG.sub(lambda m: f'{m[0]} integrity="{manifest[m[1]]}"', html)
    preloads = "".join(
        f'  <link rel="modulepreload" href="./{rel}" integrity="{manifest[rel]}">\n'
        for rel in modules if rel not in listed
    )  # fmt: skip
    first_script = html.index('  <script type="module"')
    html = html[:first_script] + preloads + html[first_script:]
    head = re.search(r"<meta charset=[^>]*>\n", html)
    if head is None:
        raise BuildError("web/index.html: no <meta charset> to put the policy after")
    policy = content_security_policy(meta=True)
    guard = "".join(
        f'  <script src="./{path}" integrity="{manifest[path]}"></script>\n'
        for path in EARLY_SCRIPTS
    )
    meta = f'  <meta http-equiv="Content-Security-Policy" content="{policy}">\n'
    first_link = html.index("  <link ")
    html = html[: head.end()] + meta + html[head.end() : first_link] + guard + html[first_link:]
    return html.encode()
