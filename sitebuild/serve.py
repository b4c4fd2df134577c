"""The static server the tests, the benchmarks and `serve` use: the MIME types Pyodide needs,
strong ETags, no stale caches, the site's policy as a header."""

from __future__ import annotations

import contextlib
import http.server
import json
import os
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .common import BuildError, sha256_hex
from .integrity import content_security_policy

MIME_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".wasm": "application/wasm",  # any other type makes Pyodide hang without a word
    ".zip": "application/zip",
    ".whl": "application/zip",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".webmanifest": "application/manifest+json",
    ".txt": "text/plain; charset=utf-8",
    # The packed files and the decoder's wasm (sitebuild/compress.py): bytes to unpack, sent
    # as they are, never with a Content-Encoding.
    ".br": "application/octet-stream",
    ".gz": "application/gzip",
}


_ETAGS: dict[tuple[str, int, int, int], str] = {}


def file_etag(path: str) -> str:
    """A strong ETag for a file: its content's sha256 (cached while the file is unchanged)."""
    st = os.stat(path)
    key = (path, st.st_ino, st.st_size, st.st_mtime_ns)
    if key not in _ETAGS:
        _ETAGS[key] = f'"{sha256_hex(Path(path).read_bytes())[:32]}"'
    return _ETAGS[key]


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    """Static files with the MIME types Pyodide needs and no stale-cache surprises."""

    extensions_map = {"": "application/octet-stream", **MIME_TYPES}  # noqa: RUF012
    etag: str | None = None
    # Whether to serve a file's `.br` sibling in its place (Content-Encoding: br) to a browser
    # that accepts brotli, as hosts with precompression do (nginx `brotli_static`); set by
    # $WH_SERVE_PRECOMPRESSED, so that the e2e tests run against either kind of host
    # (docs/hosting.md).  Without it, every file goes out as it is on disk.
    precompressed = bool(os.environ.get("WH_SERVE_PRECOMPRESSED"))
    sibling: str | None = None

    def translate_path(self, path: str) -> str:
        """The file to send: the request's, or its `.br` sibling when send_head chose it."""
        local = super().translate_path(path)
        return self.sibling if self.sibling is not None and local + ".br" == self.sibling else local

    def guess_type(self, path: str | os.PathLike[str]) -> str:
        """The type of the file asked for, also when its `.br` sibling is sent."""
        text = os.fspath(path)
        if self.sibling is not None and text == self.sibling:
            text = text.removesuffix(".br")
        return super().guess_type(text)

    def send_head(self) -> Any:
        """Serve a file with its ETag; a request that already holds it (If-None-Match) gets 304.
        With `no-cache` a browser revalidates every time: a repeated request (engine.js checking
        the worker's scripts) costs a round trip, not the file again."""
        self.sibling = None
        path = self.translate_path(self.path)
        offered = self.headers.get("Accept-Encoding", "").split(",")
        accepted = {e.split(";")[0].strip() for e in offered}
        if self.precompressed and "br" in accepted and os.path.isfile(path + ".br"):
            self.sibling = path = path + ".br"
        self.etag = None
        if os.path.isfile(path):
            self.etag = file_etag(path)
            if self.etag in (self.headers.get("If-None-Match") or ""):
                self.send_response(http.HTTPStatus.NOT_MODIFIED)
                self.end_headers()
                return None
        return super().send_head()

    # Where browsers send reports of what the policy blocked (only this server has the endpoint,
    # so the policy docs/build.md gives hosts leaves report-uri out).
    CSP_REPORT_PATH = "/csp-report"

    def end_headers(self) -> None:
        """Ask browsers to revalidate every time: the service worker does the offline caching.
        Every response carries the site's policy: a worker's scripts get theirs from their own
        response (the page's <meta> tag does not reach a worker), and only a header can say
        frame-ancestors."""
        self.send_header("Cache-Control", "no-cache")
        if self.precompressed:
            self.send_header("Vary", "Accept-Encoding")
        if self.sibling is not None:
            self.send_header("Content-Encoding", "br")
        if self.etag is not None:
            self.send_header("ETag", self.etag)
        policy = content_security_policy()
        self.send_header("Content-Security-Policy", f"{policy}; report-uri {self.CSP_REPORT_PATH}")
        super().end_headers()

    def do_POST(self) -> None:
        """Take a browser's report of a Content-Security-Policy violation (see csp_violation)."""
        if self.path != self.CSP_REPORT_PATH:
            self.send_error(405)
            return
        length = min(int(self.headers.get("Content-Length") or 0), 65536)
        try:
            report = json.loads(self.rfile.read(length))["csp-report"]
        except (ValueError, KeyError, TypeError):
            report = {"unreadable": True}
        self.csp_violation(report)
        self.send_response(204)
        self.end_headers()

    def csp_violation(self, report: dict[str, Any]) -> None:
        """Say what the policy blocked, on stderr: a violation is a bug of the site."""
        what = [report.get(k) for k in ("violated-directive", "blocked-uri", "source-file")]
        print(f"CSP violation: {what}", file=sys.stderr, flush=True)

    def send_header(self, keyword: str, value: str) -> None:
        """Drop Last-Modified: every built file has the same fixed mtime, so it would mislead."""
        if keyword.lower() != "last-modified":
            super().send_header(keyword, value)

    def handle(self) -> None:
        """Serve the connection; a browser that hangs up mid-response (it navigated away, closed
        the page, cancelled a fetch) lost nothing, so that ends it without a traceback."""
        try:
            super().handle()
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True

    def log_message(self, format: str, *args: object) -> None:
        """Stay quiet unless WH_SERVER_LOG is set; tests and benchmarks would drown in it."""
        if os.environ.get("WH_SERVER_LOG"):
            super().log_message(format, *args)


class SiteServer(http.server.ThreadingHTTPServer):
    """A threaded static server for one site folder."""

    daemon_threads = True

    def __init__(self, root: Path, host: str = "127.0.0.1", port: int = 8000) -> None:
        """Bind to host:port (port 0 picks a free one) serving `root`."""
        directory = str(root)

        class Handler(SiteHandler):
            def __init__(self, *args: object, **kwargs: object) -> None:
                super().__init__(*args, directory=directory, **kwargs)  # type: ignore[arg-type]

        super().__init__((host, port), Handler)

    @property
    def url(self) -> str:
        """The base URL, with a trailing slash."""
        host, port = self.server_address[:2]
        return f"http://{host!s}:{port}/"


@contextlib.contextmanager
def serving(root: Path, port: int = 0) -> Iterator[SiteServer]:
    """Serve `root` in a background thread for the duration of the block."""
    server = SiteServer(root, port=port)
    thread = threading.Thread(target=server.serve_forever, name="site-server", daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def serve_until_interrupted(root: Path, port: int) -> int:
    """`serve`: serve `root` on 127.0.0.1:port until Ctrl-C; 0 when stopped."""
    try:
        server = SiteServer(root, port=port)
    except OSError as exc:
        raise BuildError(f"cannot listen on 127.0.0.1:{port}: {exc}") from exc
    try:
        print(f"Serving {root} at {server.url}", flush=True)
        print("This terminal stays busy while the site is served; Ctrl-C stops it.", flush=True)
        server.serve_forever()
    except KeyboardInterrupt:
        print("Stopped.", flush=True)
    finally:
        server.server_close()
    return 0
