"""Serve ``web/dist/`` over HTTP: the ``python build.py serve`` server, also used by the tests.

Static files with the right MIME types (``.gz`` as application/gzip bytes, no
Content-Encoding; ``.wasm`` as application/wasm); a file's precompressed copy
(``FILE.br`` / ``FILE.gz``, tools/precompress.py) with ``Content-Encoding: br`` /
``gzip`` when the request's ``Accept-Encoding`` allows it, as static hosts send
them (``Vary: Accept-Encoding`` on every file that has copies); ``Cache-Control: no-cache``
so a rebuilt file is never served stale (``immutable`` for the content-named
files of :data:`IMMUTABLE_PREFIXES`), no directory listings, and by default
the COOP/COEP headers of cross-origin isolation (:data:`ISOLATION_HEADERS`,
also written to ``web/dist/_headers`` for static hosts that read that file).
Standard library only.
"""

from __future__ import annotations

import collections
import functools
import http.server
import os
import pathlib
import sys
import time

from tools.buildutil import DIST, ROOT

MIME_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript",
    ".mjs": "text/javascript",
    ".css": "text/css",
    ".json": "application/json",
    ".map": "application/json",
    ".wasm": "application/wasm",
    ".gz": "application/gzip",
    ".whl": "application/zip",
    ".zip": "application/zip",
    ".py": "text/x-python; charset=utf-8",
    ".txt": "text/plain; charset=utf-8",
    ".md": "text/markdown; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".webmanifest": "application/manifest+json",
}


#: Cross-origin isolation: the page may then use SharedArrayBuffer, which Pyodide's
#: interrupt buffer needs (Stop lands inside a merge, issue 11). Every file the site
#: loads is of its own origin, so ``require-corp`` blocks nothing.
ISOLATION_HEADERS = {
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Embedder-Policy": "require-corp",
}


#: Sent with every file: the site is public and static, and a course page on another site loads
#: ``widget.js`` (a module script, so fetched in CORS mode) and the modules it imports
#: (``src/links.js``, ``vendor/lz-string.min.js``) from here. GitHub Pages sends the same.
CORS_HEADERS = {"Access-Control-Allow-Origin": "*"}


#: Files whose name holds a hash of their content (``snapshot/python-<key>.snap.gz``,
#: tools/snapshot.py) or that sit in a folder named by their version (``pyodide/<version>/``,
#: buildutil.pyodide_site_dir): a changed file gets a new URL, so browsers may keep these
#: without asking again. Everything else is revalidated (``no-cache``).
IMMUTABLE_PREFIXES = ("/snapshot/", "/pyodide/")
IMMUTABLE = "public, max-age=31536000, immutable"


#: Content encodings the server can send, best first, and the suffix of their precompressed copies
#: (tools/precompress.py writes those copies).
ENCODINGS = {"br": ".br", "gzip": ".gz"}


def accepted_encodings(header: str) -> set[str]:
    """The content codings an ``Accept-Encoding`` value allows (RFC 9110 section 12.5.3): names
    lower-cased, ``q=0`` ones left out, ``*`` standing for every coding of :data:`ENCODINGS`."""
    accepted: set[str] = set()
    refused: set[str] = set()
    for item in header.split(","):
        name, *params = (part.strip() for part in item.split(";"))
        if not name:
            continue
        q = 1.0
        for param in params:
            key, _, value = param.partition("=")
            if key.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        (accepted if q > 0 else refused).add(name.lower())
    if "*" in accepted:
        accepted |= set(ENCODINGS) - refused
    return accepted - {"*"}


def cache_control(path: str) -> str:
    """The ``Cache-Control`` value for the URL path ``path`` (query ignored)."""
    path = path.split("?", 1)[0]
    return IMMUTABLE if path.startswith(IMMUTABLE_PREFIXES) else "no-cache"


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    """Static files with the right MIME types, revalidating caches, no
    directory listings.  ``.gz`` files are sent as application/gzip bytes
    (no Content-Encoding), so the page receives them compressed."""

    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **MIME_TYPES}
    protocol_version = "HTTP/1.1"  # keep-alive: every response has a Content-Length
    quiet = False
    isolate = True

    def send_head(self):
        self.encoding: str | None = None  # the coding of the copy being sent (translate_path)
        self.has_copies = False  # the file has precompressed copies: the answer varies
        return super().send_head()

    def translate_path(self, path: str) -> str:
        """The file for the URL ``path``; its precompressed copy when the request accepts one."""
        local = super().translate_path(path)
        if os.path.isdir(local) and path.split("?", 1)[0].endswith("/"):
            local = os.path.join(local, "index.html")  # a copy of index.html for "/" too
        if not os.path.isfile(local):
            return local
        accepted = accepted_encodings(self.headers.get("Accept-Encoding", ""))
        chosen = local
        for encoding, suffix in ENCODINGS.items():
            if os.path.isfile(local + suffix):
                self.has_copies = True
                if self.encoding is None and encoding in accepted:
                    self.encoding, chosen = encoding, local + suffix
        return chosen

    def guess_type(self, path) -> str:
        if getattr(self, "encoding", None):  # the type of the file, not of its copy
            path = str(path).removesuffix(ENCODINGS[self.encoding])
        return super().guess_type(path)

    def send_response(self, code, message=None) -> None:
        self.status = code
        super().send_response(code, message)

    def send_header(self, keyword: str, value: str) -> None:
        if keyword.lower() == "content-length" and getattr(self, "status", None) == 200 and self.command != "HEAD":
            self.server.body_bytes[self.path.split("?", 1)[0]] += int(value)
            self.server.sent.append((time.time(), int(value)))
        super().send_header(keyword, value)

    def end_headers(self) -> None:
        if getattr(self, "has_copies", False):
            self.send_header("Vary", "Accept-Encoding")
            if self.encoding and self.status == 200:
                self.send_header("Content-Encoding", self.encoding)
        # Revalidate (Last-Modified / If-Modified-Since answer 304 when unchanged),
        # so a rebuilt file is never served stale; content-named files are immutable.
        self.send_header("Cache-Control", cache_control(self.path))
        self.send_header("X-Content-Type-Options", "nosniff")
        for name, value in CORS_HEADERS.items():
            self.send_header(name, value)
        if self.isolate:
            for name, value in ISOLATION_HEADERS.items():
                self.send_header(name, value)
        super().end_headers()

    def list_directory(self, path):
        self.send_error(404, "No directory listings")
        return None

    def log_request(self, code="-", size="-"):
        self.server.hits[self.path.split("?", 1)[0]] += 1
        super().log_request(code, size)

    def log_message(self, format, *args):
        if not self.quiet:
            super().log_message(format, *args)


class SiteServer(http.server.ThreadingHTTPServer):
    """``hits``: how many times each path (query left out) was requested, for tests and benchmarks;
    ``body_bytes``: the bytes of the bodies sent for it with status 200 (compressed when a copy
    was sent: what crossed the wire, headers left out); ``sent``: the same bodies in order, with
    the time each started (epoch seconds)."""

    daemon_threads = True

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.hits: collections.Counter[str] = collections.Counter()
        self.body_bytes: collections.Counter[str] = collections.Counter()
        self.sent: list[tuple[float, int]] = []  # (epoch s when a 200's headers went out, body bytes)

    def handle_error(self, request, client_address):
        if isinstance(sys.exc_info()[1], (ConnectionResetError, BrokenPipeError)):
            return  # the browser cancelled a request
        super().handle_error(request, client_address)


def make_server(
    host: str = "127.0.0.1",
    port: int = 8000,
    *,
    directory: pathlib.Path = DIST,
    quiet: bool = False,
    isolate: bool = True,
) -> SiteServer:
    """An HTTP server for ``directory`` (not yet serving; call serve_forever).
    Port 0 picks a free port: read it from ``server.server_address[1]``.
    ``quiet``: no request log; ``isolate`` (default): send the COOP/COEP headers of
    cross-origin isolation (the page may use SharedArrayBuffer); ``isolate=False``
    serves the site as a static host without those headers would (the page then
    stops training between merges)."""
    attrs = {"quiet": quiet, "isolate": isolate}
    handler = functools.partial(type("Handler", (SiteHandler,), attrs), directory=str(directory))
    return SiteServer((host, port), handler)


def server_url(server: SiteServer) -> str:
    host, port = server.server_address[:2]
    if host in ("0.0.0.0", "::"):
        host = "127.0.0.1"
    return f"http://{host}:{port}/"


def serve(host: str = "127.0.0.1", port: int = 8000, *, quiet: bool = False, isolate: bool = True) -> None:
    """Serve ``web/dist/`` until Ctrl+C, printing the URL first (port 0: a free port)."""
    server = make_server(host, port, quiet=quiet, isolate=isolate)
    print(f"Serving {DIST.relative_to(ROOT)} at {server_url(server)}  (Ctrl+C stops)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print("\nstopped")
    finally:
        server.server_close()
