"""The test command: a lint stage, then pytest, judged by its junit report.

``python build.py test`` (no pytest arguments: the whole suite, as CI runs it)
first runs :func:`lint`, the checks of :data:`LINT_COMMANDS`; ``python build.py
test <pytest args>`` (a targeted run) skips it, and ``python build.py lint``
runs it alone. The configuration is ``pyproject.toml`` (``[tool.ruff]``,
``[tool.mypy]``: the types of ``py/bytepair``),
``.prettierrc.json`` / ``.prettierignore`` and ``eslint.config.mjs``.

The tests run in :func:`workers` pytest-xdist processes side by side (the default,
:data:`DEFAULT_WORKERS`, is 2; ``BYTEPAIR_TEST_WORKERS=1`` runs one process), with ``--dist
loadgroup``: the e2e tests go to one worker, in order, with one server and one Chromium,
and all other tests (the Pyodide stage, the core tests) to the other, which then takes a few
e2e files that check words and layout, not timing (``tests/conftest.py``: ``XDIST_GROUPS``,
``XDIST_LATE_BROWSER``; it had idled for 8 minutes at the end). Otherwise two browser pages
never run side by side: under ``--dist loadfile`` on a shared 2-core machine two e2e tests
timed out. Arguments that need one
process (``-n``, ``-p no:xdist``, ``-s``, ``--pdb``, ``--trace``) turn it off.

pytest's own exit code decides, plus two rules of ours: collecting no test
(exit code 5) fails, and so does a run where no test passed (everything
skipped or deselected), read from the junit XML report.
"""

from __future__ import annotations

import importlib.util
import os
import shlex
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

from tools.buildutil import CACHE, NODE_MODULES, ROOT, log

#: The lint checks: (name, command). None of them changes a file; the fixing
#: commands are ``ruff check --fix .``, ``ruff format .``,
#: ``node_modules/.bin/prettier --write .`` and ``node_modules/.bin/eslint --fix .``; mypy's
#: errors are fixed by hand (its files and options: ``[tool.mypy]`` in pyproject.toml).
LINT_COMMANDS = (
    ("ruff check", [sys.executable, "-m", "ruff", "check", "--no-fix", "--output-format", "concise", "."]),
    ("ruff format", [sys.executable, "-m", "ruff", "format", "--check", "--output-format", "concise", "."]),
    ("prettier", [str(NODE_MODULES / ".bin" / "prettier"), "--check", "--log-level", "warn", "."]),
    ("eslint", [str(NODE_MODULES / ".bin" / "eslint"), "--max-warnings", "0", "."]),
    ("mypy", [sys.executable, "-m", "mypy"]),
)


def lint() -> int:
    """Run every check of :data:`LINT_COMMANDS` (all of them, even after a failure).

    Returns 0 when all pass, else 1 (the failing checks are named in the log).
    """
    failed = []
    for name, cmd in LINT_COMMANDS:
        log(f"lint: $ {shlex.join(cmd)}")
        try:
            rc = subprocess.call(cmd, cwd=ROOT)
        except FileNotFoundError:
            rc = 127
            log(f"lint: {cmd[0]} not found (run `npm ci` / `pip install -e '.[test]'`)")
        if rc != 0:
            failed.append(name)
    if failed:
        log(
            f"FAILED: lint ({', '.join(failed)}); the fixes: `ruff check --fix .`, `ruff format .`, "
            "`node_modules/.bin/prettier --write .`, `node_modules/.bin/eslint --fix .`"
        )
        return 1
    log("lint: all checks passed")
    return 0


def junit_counts(path: Path) -> dict[str, int]:
    counts = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    for case in ET.parse(path).getroot().iter("testcase"):
        counts["tests"] += 1
        for kind, key in (("failure", "failures"), ("error", "errors"), ("skipped", "skipped")):
            if case.find(kind) is not None:
                counts[key] += 1
                break
    counts["passed"] = counts["tests"] - counts["failures"] - counts["errors"] - counts["skipped"]
    return counts


#: Environment variable: how many pytest-xdist workers (1: none, the tests run in one process).
WORKERS_ENV = "BYTEPAIR_TEST_WORKERS"
#: Workers without the environment variable. 2 since a whole clean-clone run with two (the
#: grouping above) passed on a 2-core machine: pytest 1,322 s against 2,675 s in one process.
DEFAULT_WORKERS = 2
#: pytest arguments after which the run stays in one process (their own -n, or output/debuggers
#: that need the test in the foreground).
SERIAL_ARGS = ("-n", "--numprocesses", "--dist", "no:xdist", "-s", "--capture=no", "--pdb", "--trace")


def workers(pytest_args: list[str]) -> int:
    """How many pytest-xdist workers a run of ``pytest_args`` gets: ``$BYTEPAIR_TEST_WORKERS``
    (at most the machine's cores), else :data:`DEFAULT_WORKERS`; 1 when pytest-xdist is not
    installed or an argument of :data:`SERIAL_ARGS` is given (``-n 3`` chooses for itself)."""
    if importlib.util.find_spec("xdist") is None:
        return 1
    if any(
        a == s or a.startswith(s + "=") or (s == "-n" and a.startswith("-n")) for a in pytest_args for s in SERIAL_ARGS
    ):
        return 1
    raw = os.environ.get(WORKERS_ENV, "").strip()
    if raw:
        try:
            return max(1, min(int(raw), os.cpu_count() or 1))
        except ValueError:
            log(f"{WORKERS_ENV}={raw!r} is not a number: using 1 (the tests in one process)")
            return 1
    return min(DEFAULT_WORKERS, os.cpu_count() or 1)


def run_pytest(pytest_args: list[str]) -> int:
    """Run pytest with ``pytest_args`` and a junit report, in :func:`workers` processes; return
    the exit code to use (0 = success)."""
    CACHE.mkdir(exist_ok=True)
    junit = CACHE / "pytest-junit.xml"
    junit.unlink(missing_ok=True)
    n = workers(pytest_args)
    parallel = ["-n", str(n), "--dist", "loadgroup"] if n > 1 else []
    if parallel:
        log(f"pytest: {n} workers side by side, the e2e tests in one of them ({WORKERS_ENV}=1: one process)")
    cmd = [sys.executable, "-m", "pytest", "-ra", f"--junitxml={junit}", *parallel, *pytest_args]
    log(f"$ {shlex.join(cmd)}")
    t0 = time.perf_counter()
    rc = subprocess.call(cmd, cwd=ROOT)
    log(f"pytest exit code {rc} after {time.perf_counter() - t0:.0f} s")
    if rc == 5:
        log("FAILED: pytest collected no tests (exit code 5); no tests ran is not a success")
        return rc
    if rc != 0:
        log(f"FAILED: pytest exited with {rc}: {shlex.join(cmd)}")
        return rc
    if junit.is_file():
        c = junit_counts(junit)
        log(f"{c['passed']} passed, {c['skipped']} skipped, {c['failures']} failed, {c['errors']} errors")
        if c["passed"] == 0:
            log("FAILED: no test passed (all were skipped or deselected)")
            return 1
    return 0
