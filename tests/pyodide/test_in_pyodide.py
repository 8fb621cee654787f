"""bytepair inside Pyodide (Node.js): the Python the browser runs.

* ``test_core_tests_pass_in_pyodide`` runs ``tests/core`` inside Pyodide with
  ``run_core_tests.mjs`` (stdlib ``re`` back-end, no tiktoken/tokenizers/regex:
  the tests that need them skip themselves). Extra arguments for that inner
  pytest run: environment variable ``PYODIDE_PYTEST_ARGS`` (e.g. ``"-x -k encode"``).
  Before that, ``tiktoken_fixture.write_fixture`` stores tiktoken's ids for a
  sample of the corpora, which ``tests/core/test_pyodide_tiktoken_ids.py``
  compares against inside Pyodide.
* ``test_adapter_errors_travel_with_their_call`` runs ``check_adapter_errors.mjs``:
  interleaved adapter calls, through the worker's own call path, each reject with
  their own structured error.
* ``test_site_wheels_install_in_pyodide`` serves the built site (``build.py``)
  and installs its wheels the way the web worker does (``pyodide.loadPackage``
  of the manifest's wheel URLs, no micropip), over HTTP, with the Pyodide
  copied into ``web/dist``.

Both need Node.js and ``npm ci``; without them they skip, except under CI=true,
where they fail.
"""

from __future__ import annotations

import os
import pathlib
import shlex
import shutil
import subprocess
import sys

import pytest

from tests.pyodide.runner import RUNNER, ensure_pyodide_wheels
from tests.site_server import served_site
from tools.buildutil import pyodide_site_dir

pytestmark = pytest.mark.pyodide

ROOT = pathlib.Path(__file__).resolve().parents[2]
HERE = pathlib.Path(__file__).resolve().parent
SITE_CHECK = HERE / "check_site_wheels.mjs"
IS_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")
TIMEOUT_S = 45 * 60


def _unavailable(reason: str) -> None:
    if IS_CI:
        pytest.fail(f"{reason} (CI=true: a missing prerequisite is a failure)")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def node() -> str:
    exe = shutil.which("node")
    if exe is None:
        _unavailable("Node.js is not installed (needed to run Pyodide)")
    if not (ROOT / "node_modules" / "pyodide" / "pyodide.mjs").is_file():
        _unavailable("node_modules/pyodide is missing: run `npm ci` (or `python build.py`)")
    return exe


def _run_node(cmd: list[str]) -> subprocess.CompletedProcess:
    try:
        proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired as e:
        out = (e.stdout or b"").decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
        pytest.fail(f"{shlex.join(cmd)} did not finish in {TIMEOUT_S} s; output so far:\n{out[-20000:]}")
    # Shown by pytest with -s, or under "Captured stdout" when the test fails.
    sys.stdout.write(proc.stdout)
    sys.stderr.write(proc.stderr)
    return proc


def _tail(proc: subprocess.CompletedProcess, lines: int = 150) -> str:
    text = proc.stdout + ("\n--- stderr ---\n" + proc.stderr if proc.stderr.strip() else "")
    return "\n".join(text.splitlines()[-lines:])


def test_core_tests_pass_in_pyodide(node: str) -> None:
    wheels = ensure_pyodide_wheels()
    from tests.pyodide.hf_fixture import write_fixture as write_hf_fixture
    from tests.pyodide.tiktoken_fixture import write_fixture

    write_fixture()  # tiktoken's ids, checked inside by tests/core/test_pyodide_tiktoken_ids.py
    write_hf_fixture()  # tokenizers' / mistral-common's ids and the model files, for test_pyodide_hf_ids.py
    extra = shlex.split(os.environ.get("PYODIDE_PYTEST_ARGS", ""))
    # The slow full-corpus sweeps (e.g. every UDHR language) run on CPython; inside
    # Pyodide, 2-3x slower, their quick versions keep CI well inside its time limit.
    # PYODIDE_PYTEST_ARGS='-m ""' (a later -m wins) runs them here too.
    cmd = [node, str(RUNNER), "--wheels", str(wheels), "--", "tests/core", "-q", "-m", "not slow", *extra]
    proc = _run_node(cmd)
    assert "import regex: ImportError" in proc.stdout, _tail(proc)
    assert proc.returncode == 0, (
        f"the core tests failed inside Pyodide (exit code {proc.returncode}: "
        f"{'no tests collected' if proc.returncode == 5 else 'see the output'}).\n"
        f"command: {shlex.join(cmd)}\n{_tail(proc)}"
    )


def test_adapter_errors_travel_with_their_call(node: str) -> None:
    """Interleaved adapter calls through the worker's call path (web/src/pycall.js) each
    reject with their own structured error (check_adapter_errors.mjs)."""
    cmd = [node, str(HERE / "check_adapter_errors.mjs")]
    proc = _run_node(cmd)
    assert proc.returncode == 0, f"command: {shlex.join(cmd)}\n{_tail(proc)}"


def test_site_wheels_install_in_pyodide(node: str) -> None:
    with served_site() as (url, dist):
        cmd = [node, str(SITE_CHECK), url, str(dist / pyodide_site_dir())]
        proc = _run_node(cmd)
    assert proc.returncode == 0, f"command: {shlex.join(cmd)}\n{_tail(proc)}"


def test_site_snapshot_restores_and_encodes_like_tiktoken(node: str, tmp_path) -> None:
    """The built site's memory snapshot (tools/snapshot.py), restored as the worker
    restores it, has the adapter imported, is served as immutable, and encodes
    like tiktoken."""
    import json

    from tests.e2e.helpers import tiktoken_for

    texts = ["hello world", "naïve café 東京 🙂 1234567", "  def f(x):\n\treturn x**2  # ok\r\n"]
    (tmp_path / "texts.json").write_text(json.dumps(texts), encoding="utf-8")
    with served_site() as (url, dist):
        cmd = [
            node,
            str(HERE / "check_site_snapshot.mjs"),
            url,
            str(dist / pyodide_site_dir()),
            str(tmp_path / "texts.json"),
        ]
        proc = _run_node(cmd)
    assert proc.returncode == 0, f"command: {shlex.join(cmd)}\n{_tail(proc)}"
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    assert got["boot_modules"] == ["bytepair", "bytepair.tokenizer", "playground"]
    assert "immutable" in got["cache_control"]
    enc = tiktoken_for("cl100k_base")
    assert got["ids"] == [enc.encode_ordinary(t) for t in texts]
