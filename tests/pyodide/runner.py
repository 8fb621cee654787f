"""The Pyodide test runner (``run_core_tests.mjs``) and the pure-Python wheels it
installs, shared by ``tests/pyodide/test_in_pyodide.py`` and
``tests/chat_pyodide/test_chat_wheels.py``."""

from __future__ import annotations

import pathlib
import re
import shlex
import subprocess
import sys

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
        cmd = [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--no-deps",
            "--only-binary=:all:",
            "--disable-pip-version-check",
            "--python-version",
            "3.14",
            "--implementation",
            "py",
            "--abi",
            "none",
            "--platform",
            "any",
            "-r",
            str(REQUIREMENTS),
            "-d",
            str(WHEELS),
        ]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0:
            pytest.fail(f"command failed: {shlex.join(cmd)}\n{proc.stdout}\n{proc.stderr}")
    return WHEELS
