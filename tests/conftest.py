"""Shared pytest setup: make the repository root (for ``tools``, ``tests``) and
``py/`` (for ``bytepair``, without installing it) importable; the ``adapter``
fixture: the worker adapter package ``web/src/py/playground``."""

import os
import pathlib
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
WEB_PY = ROOT / "web" / "src" / "py"  # holds the package `playground` (the worker adapter)
for p in (ROOT / "py", ROOT):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

from tests import hypothesis_profiles  # noqa: E402 - (after the path set-up)

hypothesis_profiles.load()  # ci / dev / pyodide (tests/hypothesis_profiles.py)


@pytest.fixture(scope="session")
def adapter():
    """The worker adapter (``import playground`` from ``web/src/py``, as the site's
    wheel installs it); skips where the web sources are not present."""
    if not (WEB_PY / "playground" / "__init__.py").is_file():
        pytest.skip("web/src/py/playground is not here")
    if str(WEB_PY) not in sys.path:
        sys.path.insert(0, str(WEB_PY))
    import playground

    return playground


def pytest_collection_modifyitems(config, items):
    """Under pytest-xdist (``python build.py test``: tools/testrun.py), the Pyodide stage first:
    its few tests run for minutes in Node.js processes of their own, so the other worker goes
    through the short tests meanwhile rather than waiting for it at the end. Every worker sorts
    the same way (xdist checks that they collect the same order)."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        items.sort(key=lambda item: item.get_closest_marker("pyodide") is None)  # stable: else as collected
