"""The Pyodide test runner (``run_core_tests.mjs``) and the pure-Python wheels it
installs, shared by ``tests/pyodide/test_in_pyodide.py`` and
``tests/chat_pyodide/test_chat_wheels.py``."""

from __future__ import annotations

import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
HERE = pathlib.Path(__file__).resolve().parent
RUNNER = HERE / "run_core_tests.mjs"
REQUIREMENTS = HERE / "requirements.txt"
WHEELS = ROOT / ".cache" / "pyodide-wheels"


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "_", name).lower()


def _pins() -> dict[str, str]:
    pins = {}
    for line in REQUIREMENTS.read_text(encoding="utf-8").splitlines():
        line = line.split("#")[0].strip()
        if line:
            name, _, version = line.partition("==")
            pins[_norm(name)] = version.strip()
    return pins


def ensure_pyodide_wheels() -> pathlib.Path:
    """Download the pinned pure-Python wheels of requirements.txt into
    .cache/pyodide-wheels (once) and remove any other wheel there."""
    pins = _pins()
    WHEELS.mkdir(parents=True, exist_ok=True)
    have = {}
    for whl in WHEELS.glob("*.whl"):
        name, version = whl.name.split("-")[:2]
        if pins.get(_norm(name)) == version:
            have[_norm(name)] = whl
        else:
            whl.unlink()
    if set(have) != set(pins):
        from tools.buildutil import BuildError
        from tools.wheels import _pip_download

        try:  # pure wheels for Pyodide's Python, whatever Python runs this
            _pip_download(
                ["-r", str(REQUIREMENTS)],
                WHEELS,
                *("--python-version", "3.14", "--implementation", "py", "--abi", "none", "--platform", "any"),
            )
        except BuildError as e:
            pytest.fail(str(e))
    return WHEELS
