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


def _runs_e2e(config, items, in_e2e) -> bool:
    """Whether ``-m`` keeps any of the ``items`` for which ``in_e2e(item)``. pytest deselects by
    mark after this module's ``pytest_collection_modifyitems`` (which must run before xdist's),
    and tests/e2e/conftest.py marks its tests ``e2e`` after it too, so this asks pytest's own
    expression with that mark added."""
    e2e = [item for item in items if in_e2e(item)]
    markexpr = config.getoption("markexpr", "")
    if not e2e or not markexpr:
        return bool(e2e)
    try:  # pytest's own -m parser (pytest >= 8.2); a bad expression is reported by pytest itself
        from _pytest.mark import MarkMatcher
        from _pytest.mark.expression import Expression

        expr = Expression.compile(markexpr)
    except Exception:
        return True
    return any(expr.evaluate(MarkMatcher.from_markers([*item.iter_markers(), pytest.mark.e2e.mark])) for item in e2e)


@pytest.hookimpl(tryfirst=True)  # before xdist's own hook, which reads the groups into the test ids
def pytest_collection_modifyitems(config, items):
    """Under pytest-xdist (``python build.py test``: tools/testrun.py), the
    e2e tests in one group and all others in a second (:data:`XDIST_GROUPS`), so one worker goes
    through the browser tests while the other runs the Pyodide stage and the core tests. A run
    whose ``-m`` leaves no e2e test (the quick loop) groups by file instead, so both workers share
    it, largest files first. Every worker marks the same way (xdist checks that they collect the
    same tests)."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return
    tests = pathlib.Path(__file__).resolve().parent

    def folder_and_file(item):
        path = pathlib.Path(item.path).resolve()
        if not path.is_relative_to(tests):
            return None, str(path)
        rel = path.relative_to(tests)
        return rel.parts[0], rel.as_posix()

    by_folder = _runs_e2e(config, items, lambda item: folder_and_file(item)[0] == "e2e")
    for item in items:
        folder, file = folder_and_file(item)
        group = XDIST_GROUPS.get(folder, XDIST_OTHER) if by_folder else file
        item.add_marker(pytest.mark.xdist_group(group))
