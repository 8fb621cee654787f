"""Shared pytest setup: make the repository root (for ``tools``, ``tests``) and
``py/`` (for ``bytepair``, without installing it) importable; the ``adapter``
fixture: the worker adapter package ``web/src/py/playground``; the ``tiktoken_get`` fixture:
tiktoken's encodings as references."""

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


@pytest.fixture(scope="session")
def tiktoken_get():
    """``get(name)``: tiktoken's Encoding for ``name``, built offline from bytepair's ranks (each
    once a session); skips without tiktoken."""
    pytest.importorskip("tiktoken")
    from tests.reference import tiktoken_for

    return tiktoken_for


#: pytest-xdist groups by test folder (``--dist loadgroup``: tools/testrun.py): two groups, one per
#: worker of a 2-core machine. Each group runs in one worker, in collection order. The browser
#: tests share one server and one Chromium and never run two pages' Pyodide side by side (under
#: ``--dist loadfile`` on 2 cores, two e2e tests timed out); every other folder (core, the
#: Pyodide stage's Node.js runs) is the second group. With the core modules as groups of their
#: own, xdist (which hands out the group with the most tests first) started the browser group
#: only after the largest core modules, and the run waited on it at the end.
XDIST_GROUPS = {"e2e": "browser"}
#: the group of every folder not in :data:`XDIST_GROUPS`
XDIST_OTHER = "python"


@pytest.hookimpl(tryfirst=True)  # before xdist's own hook, which reads the groups into the test ids
def pytest_collection_modifyitems(config, items):
    """Under pytest-xdist (``python build.py test``: tools/testrun.py), the
    e2e tests in one group and all others in a second (:data:`XDIST_GROUPS`), so one worker goes
    through the browser tests while the other runs the Pyodide stage and the core tests. Every
    worker marks the same way (xdist checks that they collect the same tests)."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return
    tests = pathlib.Path(__file__).resolve().parent
    for item in items:
        path = pathlib.Path(item.path).resolve()
        folder = path.relative_to(tests).parts[0] if path.is_relative_to(tests) else None
        item.add_marker(pytest.mark.xdist_group(XDIST_GROUPS.get(folder, XDIST_OTHER)))
