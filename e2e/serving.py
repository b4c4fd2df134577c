"""A site folder served on a fresh port for one test: its own origin, so its storage, caches and
service worker are its own (conftest's `server_url` is shared by the whole session).

The server is build.py's (the site's MIME types, ETags and policy header); it also records the
paths it was asked for and the policy reports it got, and can answer 404 for one file.
`rewrite_site` turns a copy of the built site into the next build's for a few changed files
(a second build_site of the whole site costs some 10 s of CPU).
"""

from __future__ import annotations

import http.server
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sitebuild.boot import engine_build_module
from sitebuild.common import WEB
from sitebuild.compress import PACKED_SUFFIX
from sitebuild.integrity import site_integrity_module
from sitebuild.page import page_html
from sitebuild.serve import SiteHandler
from sitebuild.serviceworker import service_worker

# What build_site writes from the other files, in its order (sitebuild/site.py).
GENERATED = ("engine-build.js", "site-integrity.js", "index.html", "sw.js")


def boot_name(rel: str) -> str:
    """The file name the engine worker asks for `rel` (the wasm or the Python library) by on the
    suite's servers: its own where they send the `.br` siblings ($WH_SERVE_PRECOMPRESSED; the
    browser unpacks it), else its packed form's (the worker unpacks it)."""
    name = rel.rsplit("/", 1)[-1]
    return name if SiteHandler.precompressed else name + PACKED_SUFFIX


# Either name of the Python library, as a route pattern: its own or its packed form's.
LIBRARY_EITHER_NAME = re.compile(r".*/python_lib\.zip(\.br)?$")


@dataclass
class Served:
    """A served folder: its base URL (with a trailing slash) and what its server saw."""

    root: Path
    url: str = ""
    fetched: list[str] = field(default_factory=list)  # request paths, in the order answered
    methods: list[str] = field(default_factory=list)  # each one's method (GET, HEAD), alike
    reports: list[dict[str, Any]] = field(default_factory=list)  # policy violation reports
    reported: threading.Event = field(default_factory=threading.Event)  # set by the first


@contextmanager
def serving(
    root: Path, missing: str | None = None, precompressed: bool | None = None
) -> Iterator[Served]:
    """Serve `root` on a free port of 127.0.0.1 for the block, with `missing` (a path under
    `root`) answering 404 as if it were not there; `precompressed` says whether it sends the
    `.br` siblings as hosts with precompression do (default: as $WH_SERVE_PRECOMPRESSED says)."""
    served = Served(root)

    class Handler(SiteHandler):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, directory=str(root), **kwargs)

        def do_GET(self) -> None:
            if missing is not None and self.path.split("?")[0] == f"/{missing}":
                self.send_error(404)
                return
            super().do_GET()

        def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
            served.fetched.append(self.path)
            served.methods.append(self.command)
            super().log_request(code, size)

        def csp_violation(self, report: dict[str, Any]) -> None:
            served.reports.append(report)
            served.reported.set()
            super().csp_violation(report)

    if precompressed is not None:
        Handler.precompressed = precompressed
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    served.url = f"http://127.0.0.1:{server.server_address[1]}/"
    try:
        yield served
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def rewrite_site(root: Path, changed: dict[str, bytes]) -> str:
    """Replace files of the built site at `root` (site path -> bytes; not a bundle, and a
    changed file's `.br` sibling given too if it has one) and write again, around
    them, what build_site generates from the others (GENERATED: the integrity chain, the
    engine's identity, the precache list); each file written is a new one, so a copy of hard
    links leaves its original whole.  Returns the new build's content version."""
    files = {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}
    for name in GENERATED:
        files.pop(name)
    files["index.html"] = (WEB / "index.html").read_bytes()
    files.update(changed)
    files["engine-build.js"] = engine_build_module(files)
    files["site-integrity.js"] = site_integrity_module(files)
    files["index.html"] = page_html(files)
    version, files["sw.js"] = service_worker(files)
    for name in (*changed, *GENERATED):
        (root / name).unlink(missing_ok=True)
        (root / name).write_bytes(files[name])
    return version
