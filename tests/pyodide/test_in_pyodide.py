"""bytepair inside Pyodide (Node.js): the Python the browser runs.

* ``test_core_tests_pass_in_pyodide`` runs ``tests/core`` inside Pyodide with
  ``run_core_tests.mjs`` (stdlib ``re`` back-end, no tiktoken/tokenizers/regex:
  the tests that need them skip themselves), in ``PYODIDE_SHARDS`` Node.js
  processes side by side (default 2, a CI machine's cores; :func:`core_shards`
  splits the files). Extra arguments for that inner
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
    return _run_node_all([cmd])[0]


def _run_node_all(cmds: list[list[str]]) -> list[subprocess.CompletedProcess]:
    """Run the commands side by side (each its own process); their results in order."""
    procs = [subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE) for cmd in cmds]
    done = []
    try:
        for cmd, p in zip(cmds, procs):
            try:
                out, err = p.communicate(timeout=TIMEOUT_S)
            except subprocess.TimeoutExpired:
                p.kill()
                out, err = p.communicate()
                pytest.fail(
                    f"{shlex.join(cmd)} did not finish in {TIMEOUT_S} s; output so far:\n"
                    f"{out.decode(errors='replace')[-20000:]}"
                )
            proc = subprocess.CompletedProcess(
                cmd, p.returncode, out.decode(errors="replace"), err.decode(errors="replace")
            )
            # Shown by pytest with -s, or under "Captured stdout" when the test fails.
            sys.stdout.write(proc.stdout)
            sys.stderr.write(proc.stderr)
            done.append(proc)
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()
    return done


def _tail(proc: subprocess.CompletedProcess, lines: int = 150) -> str:
    text = proc.stdout + ("\n--- stderr ---\n" + proc.stderr if proc.stderr.strip() else "")
    return "\n".join(text.splitlines()[-lines:])


def core_shards(n: int) -> list[list[str]]:
    """``tests/core``'s test files in ``n`` groups of about equal size (the largest file first,
    each to the group with the fewest bytes so far), each group in name order."""
    files = sorted((ROOT / "tests" / "core").glob("test_*.py"), key=lambda f: (-f.stat().st_size, f.name))
    groups: list[list[pathlib.Path]] = [[] for _ in range(max(1, n))]
    sizes = [0] * len(groups)
    for f in files:
        k = sizes.index(min(sizes))
        groups[k].append(f)
        sizes[k] += f.stat().st_size
    return [sorted(str(f.relative_to(ROOT)) for f in g) for g in groups if g]


def test_core_shards_cover_every_file_once() -> None:
    every = sorted(str(f.relative_to(ROOT)) for f in (ROOT / "tests" / "core").glob("test_*.py"))
    for n in (1, 2, 3):
        shards = core_shards(n)
        assert len(shards) == min(n, len(every)) and sorted(sum(shards, [])) == every


def test_core_tests_pass_in_pyodide(node: str) -> None:
    """``tests/core`` inside Pyodide, in ``PYODIDE_SHARDS`` Node.js processes side by side
    (default: 2, or 1 on a one-core machine), each running a share of the test files."""
    wheels = ensure_pyodide_wheels()
    from tests.pyodide.hf_fixture import write_fixture as write_hf_fixture
    from tests.pyodide.tiktoken_fixture import write_fixture

    write_fixture()  # tiktoken's ids, checked inside by tests/core/test_pyodide_tiktoken_ids.py
    write_hf_fixture()  # tokenizers' / mistral-common's ids and the model files, for test_pyodide_hf_ids.py
    extra = shlex.split(os.environ.get("PYODIDE_PYTEST_ARGS", ""))
    n = int(os.environ.get("PYODIDE_SHARDS") or min(2, os.cpu_count() or 1))
    # The slow full-corpus sweeps (e.g. every UDHR language) run on CPython; inside
    # Pyodide, 2-3x slower, their quick versions keep CI well inside its time limit.
    # PYODIDE_PYTEST_ARGS='-m ""' (a later -m wins) runs them here too.
    cmds = [
        [node, str(RUNNER), "--wheels", str(wheels), "--", *files, "-q", "-m", "not slow", *extra]
        for files in core_shards(n)
    ]
    procs = _run_node_all(cmds)
    for cmd, proc in zip(cmds, procs):
        assert "import regex: ImportError" in proc.stdout, _tail(proc)
        # a shard whose files a -k/-m of PYODIDE_PYTEST_ARGS leaves empty collects nothing (5)
        assert proc.returncode == 0 or (proc.returncode == 5 and extra), (
            f"the core tests failed inside Pyodide (exit code {proc.returncode}: "
            f"{'no tests collected' if proc.returncode == 5 else 'see the output'}).\n"
            f"command: {shlex.join(cmd)}\n{_tail(proc)}"
        )
    assert any(proc.returncode == 0 for proc in procs), "no test ran inside Pyodide"


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
    restores it, has the adapter imported and every encoding's and open model's split pattern
    compiled (tools/snapshot.py WARM), is served as immutable, and encodes like tiktoken."""
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
    assert got["translated"] == []
    # the open models' split regexes are in the snapshot too (tools/model_files.split_regexes):
    # none of the six is translated when its site file is loaded and encodes
    assert len(got["model_translated"]) >= 6, got["model_translated"]
    assert got["model_translated"] == dict.fromkeys(got["model_translated"], []), got["model_translated"]
    assert "immutable" in got["cache_control"]
    enc = tiktoken_for("cl100k_base")
    assert got["ids"] == [enc.encode_ordinary(t) for t in texts]
