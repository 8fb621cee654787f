"""What every build/setup/test step shares: paths, the error type, logging, running commands.

Used by ``build.py`` and the ``tools`` modules it dispatches to (``tools.site_build``,
``tools.wheels``, ``tools.serve``, ``tools.setup_env``, ``tools.testrun``).
Standard library only.
"""

from __future__ import annotations

import contextlib
import os
import pathlib
import shlex
import subprocess

ROOT = pathlib.Path(__file__).resolve().parent.parent
WEB = ROOT / "web"
DIST = WEB / "dist"
CACHE = ROOT / ".cache"
NODE_MODULES = ROOT / "node_modules"
PY_SRC = ROOT / "py"
CHROMIUM = pathlib.Path("/usr/bin/chromium")
#: How Chromium is launched (by Playwright, ``executable_path=CHROMIUM``) in the
#: e2e tests and the browser benchmarks: no sandbox (containers), no GPU, no
#: background requests to Google's servers.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

IS_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")


def npm_version(package: str) -> str:
    """The version of the installed npm package ``package`` (its package.json).

    Raises:
        BuildError: the package is not installed (run ``npm ci``).
    """
    import json

    meta = NODE_MODULES / package / "package.json"
    if not meta.is_file():
        raise BuildError(f"{meta} is missing: run `npm ci` at the repository root")
    return json.loads(meta.read_text(encoding="utf-8"))["version"]


def pyodide_site_dir() -> str:
    """Where the Pyodide runtime sits in the built site: ``pyodide/<version>`` (no slashes
    at the ends), the version of npm ``pyodide``. A folder named by its version is never
    changed in place, so servers may send it as immutable (``tools/serve.py``): a second
    visit then reads the 9.6 MB runtime from the cache without asking the server again."""
    return f"pyodide/{npm_version('pyodide')}"


class BuildError(Exception):
    """A build, setup or test step failed; the message says what failed and what to do."""


def log(msg: str) -> None:
    """Print ``msg`` prefixed with ``[build]`` (flushed, so it interleaves with subprocess output)."""
    print(f"[build] {msg}", flush=True)


def run(cmd: list, *, cwd: pathlib.Path = ROOT, env: dict[str, str] | None = None) -> None:
    """Run ``cmd`` (printed first).

    Raises:
        BuildError: naming the command when it is not found or exits non-zero.
    """
    printable = shlex.join(str(c) for c in cmd)
    log(f"$ {printable}" + (f"   (in {cwd})" if cwd != ROOT else ""))
    try:
        proc = subprocess.run([str(c) for c in cmd], cwd=cwd, env=env)
    except FileNotFoundError as e:
        raise BuildError(f"command not found: {cmd[0]!r} while running: {printable}") from e
    if proc.returncode != 0:
        raise BuildError(f"command failed with exit code {proc.returncode}: {printable}   (in {cwd})")


@contextlib.contextmanager
def launch_chromium():
    """A headless Chromium (Playwright, :data:`CHROMIUM` with :data:`CHROMIUM_ARGS`),
    closed on exit: the one launch of the e2e tests and ``tools/bench_browser.py``.

    Raises:
        ImportError: the ``playwright`` package is missing.
    """
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        try:
            yield browser
        finally:
            browser.close()
