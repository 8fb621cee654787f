"""The built playground served on a free localhost port, for tests.

Used by the Playwright fixtures (``tests/e2e/conftest.py``) and by the check
that the site's wheels install in Pyodide (``tests/pyodide/test_in_pyodide.py``).
"""

from __future__ import annotations

import contextlib
import importlib.util
import pathlib
import threading
from collections.abc import Iterator

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent


def load_build_module():
    """``build.py`` as a module (it is a script at the repository root, not a package)."""
    spec = importlib.util.spec_from_file_location("bytepair_build", ROOT / "build.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@contextlib.contextmanager
def served_site() -> Iterator[tuple[str, pathlib.Path]]:
    """Build ``web/dist`` (only what is stale) and serve it; yields ``(base URL, dist dir)``.

    A failed build fails the calling test with build.py's message.
    """
    build = load_build_module()
    try:
        dist = build.build_site(quiet=True)
    except build.BuildError as e:
        pytest.fail(f"python build.py failed: {e}")
    server = build.make_server("127.0.0.1", 0, directory=dist, quiet=True)
    thread = threading.Thread(target=server.serve_forever, name="site-server", daemon=True)
    thread.start()
    try:
        yield build.server_url(server), dist
    finally:
        server.shutdown()
        server.server_close()
