"""The built playground served on a free localhost port, for tests.

Used by the Playwright fixtures (``tests/e2e/conftest.py``) and by the check
that the site's wheels install in Pyodide (``tests/pyodide/test_in_pyodide.py``).
The build and the server are the ones ``python build.py`` uses
(``tools/site_build.py``, ``tools/serve.py``).
"""

from __future__ import annotations

import contextlib
import fcntl
import pathlib
import threading
from collections.abc import Iterator

import pytest

from tools.buildutil import BuildError
from tools.serve import make_server, server_url
from tools.site_build import build_site


@contextlib.contextmanager
def served_site(*, isolate: bool = True) -> Iterator[tuple[str, pathlib.Path]]:
    """Build ``web/dist`` (only what is stale) and serve it; yields ``(base URL, dist dir)``.
    ``isolate``: with the COOP/COEP headers ``build.py serve`` sends (the default), or
    without them, as a static host that cannot send them (GitHub Pages) serves the site.

    A failed build fails the calling test with the build's message.
    """
    lock_path = pathlib.Path(__file__).resolve().parents[1] / ".cache" / "site-build.lock"
    lock_path.parent.mkdir(exist_ok=True)
    # one build at a time: pytest-xdist workers (BYTEPAIR_TEST_WORKERS) each start a server; the
    # second waits here and then finds web/dist up to date
    with open(lock_path, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            dist = build_site(quiet=True)
        except BuildError as e:
            pytest.fail(f"python build.py failed: {e}")
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
    server = make_server("127.0.0.1", 0, directory=dist, quiet=True, isolate=isolate)
    thread = threading.Thread(target=server.serve_forever, name="site-server", daemon=True)
    thread.start()
    try:
        yield server_url(server), dist
    finally:
        server.shutdown()
        server.server_close()
