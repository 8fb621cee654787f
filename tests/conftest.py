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
#: Browser test files in a third group, which xdist hands to the worker that finishes first (the
#: "python" one: it has the most tests, so it starts first, and the browser group the other): in a
#: quiet clean-clone run the Python group took 1,030 s and the browser group 1,523 s, so the
#: Python worker idled for 8 minutes at the end. These files check words, layout and axe rules,
#: not timing, so they may overlap the browser group's last minutes in a second Chromium.
XDIST_LATE_BROWSER = frozenset(
    {"e2e/test_locales.py", "e2e/test_rtl_views.py", "e2e/test_pseudo_locale.py", "e2e/test_compare_locales.py"}
)


def _runs(config, items, chosen, *, e2e: bool) -> bool:
    """Whether ``-m`` keeps any of the ``items`` for which ``chosen(item)``. pytest deselects by
    mark after this module's ``pytest_collection_modifyitems`` (which must run before xdist's),
    and tests/e2e/conftest.py marks its tests ``e2e`` after it too, so this asks pytest's own
    expression, with that mark added when ``e2e``."""
    picked = [item for item in items if chosen(item)]
    markexpr = config.getoption("markexpr", "")
    if not picked or not markexpr:
        return bool(picked)
    try:  # pytest's own -m parser (pytest >= 8.2); a bad expression is reported by pytest itself
        from _pytest.mark import MarkMatcher
        from _pytest.mark.expression import Expression

        expr = Expression.compile(markexpr)
    except Exception:
        return True
    extra = [pytest.mark.e2e.mark] if e2e else []
    return any(expr.evaluate(MarkMatcher.from_markers([*item.iter_markers(), *extra])) for item in picked)


@pytest.hookimpl(tryfirst=True)  # before xdist's own hook, which reads the groups into the test ids
def pytest_collection_modifyitems(config, items):
    """Under pytest-xdist (``python build.py test``: tools/testrun.py), the
    e2e tests in one group and all others in a second (:data:`XDIST_GROUPS`), so one worker goes
    through the browser tests while the other runs the Pyodide stage and the core tests, then the
    files of :data:`XDIST_LATE_BROWSER` (when the run has both kinds). A run
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

    by_folder = _runs(config, items, lambda item: folder_and_file(item)[0] == "e2e", e2e=True)
    # (a run of browser tests alone keeps them in one group: two would start side by side)
    late = by_folder and _runs(config, items, lambda item: folder_and_file(item)[0] != "e2e", e2e=False)
    for item in items:
        folder, file = folder_and_file(item)
        if not by_folder:
            group = file
        elif late and file in XDIST_LATE_BROWSER:
            group = "browser-late"
        else:
            group = XDIST_GROUPS.get(folder, XDIST_OTHER)
        item.add_marker(pytest.mark.xdist_group(group))
