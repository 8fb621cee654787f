"""Set up a machine for building and testing: what ``python build.py [test]`` installs or asks for.

* Python 3.11+, Node.js 20+ and npm must be there (:func:`check_prerequisites`
  names what is missing and how to get it).
* npm packages: ``npm ci`` when ``node_modules`` is missing or older than
  ``package-lock.json`` (:func:`ensure_node_modules`).
* Python packages: ``pip install -e ".[test]"`` when bytepair's dependencies or
  its ``test`` extra (``pyproject.toml``) are missing; on an externally managed
  Python (Debian's) in ``.venv``, re-running the command with that interpreter
  (:func:`ensure_python_test_env`).
* For the tests, Debian packages (:data:`APT_PACKAGES`): Chromium, the King
  James Bible and the Noto fonts the screenshots need. As root on
  Debian/Ubuntu they are installed with ``apt-get``; otherwise the one
  ``sudo apt-get install ...`` command is printed (an error under ``CI=true``,
  a warning otherwise: the tests that need them skip).
"""

from __future__ import annotations

import json
import os
import pathlib
import shutil
import subprocess
import sys

from tools.buildutil import CHROMIUM, IS_CI, NODE_MODULES, ROOT, BuildError, log, run

#: Debian packages the tests need: (package, how to tell it is installed).
APT_PACKAGES = (
    ("chromium", lambda: CHROMIUM.exists()),
    ("bible-kjv", lambda: shutil.which("bible") is not None),
    ("fonts-noto-core", lambda: _dpkg_installed("fonts-noto-core")),
    ("fonts-noto-cjk", lambda: _dpkg_installed("fonts-noto-cjk")),
    ("fonts-noto-color-emoji", lambda: _dpkg_installed("fonts-noto-color-emoji")),
)


def _dpkg_installed(package: str) -> bool:
    """True if dpkg says ``package`` is installed; True as well where there is no dpkg (not Debian)."""
    dpkg = shutil.which("dpkg-query")
    if dpkg is None:
        return True
    out = subprocess.run([dpkg, "-W", "-f=${Status}", package], capture_output=True, text=True)
    return out.returncode == 0 and out.stdout.strip().endswith(" installed")


def _node_major() -> int | None:
    node = shutil.which("node")
    if not node:
        return None
    out = subprocess.run([node, "--version"], capture_output=True, text=True).stdout.strip()
    try:
        return int(out.lstrip("v").split(".")[0])
    except ValueError:
        return None


def missing_apt_packages() -> list[str]:
    """The packages of :data:`APT_PACKAGES` this machine lacks (Debian names)."""
    return [name for name, present in APT_PACKAGES if not present()]


def _can_apt_install() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0 and shutil.which("apt-get") is not None


def ensure_apt_packages() -> None:
    """Install the missing :data:`APT_PACKAGES` as root on Debian/Ubuntu, else say how.

    Raises:
        BuildError: under ``CI=true`` when they cannot be installed, or when apt-get fails.
    """
    need = missing_apt_packages()
    if not need:
        return
    if _can_apt_install():
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        run(["apt-get", "update", "-qq"], env=env)
        run(["apt-get", "install", "-y", "-qq", "--no-install-recommends", *need], env=env)
        return
    hint = f"sudo apt-get install {' '.join(need)}"
    if IS_CI:
        raise BuildError(f"this machine lacks {', '.join(need)}; run: {hint}")
    log(f"warning: {', '.join(need)} missing; the tests that need them will be skipped. Run: {hint}")


def check_prerequisites(*, for_tests: bool = False) -> None:
    """Check Python, Node.js and npm; for tests also install (or ask for) the Debian packages.

    Raises:
        BuildError: listing what this machine lacks, with the commands that install it.
    """
    missing: list[str] = []
    if sys.version_info < (3, 11):
        missing.append(f"Python 3.11 or newer (this is {sys.version.split()[0]})")
    major = _node_major()
    if major is None or major < 20:
        found = "not found" if major is None else f"found v{major}"
        missing.append(f"Node.js 20 or newer ({found}); https://nodejs.org or your package manager")
    if not shutil.which("npm"):
        missing.append("npm (comes with Node.js)")
    if missing:
        raise BuildError("this machine lacks:\n  - " + "\n  - ".join(missing))
    if for_tests:
        ensure_apt_packages()


def stale_node_modules() -> list[str]:
    """The packages of ``package-lock.json`` that ``node_modules`` lacks or holds
    at another version (``name``, or ``name installed X, locked Y``); empty
    when the install matches the lock file. Compares contents, not file times.
    """
    lock = json.loads((ROOT / "package-lock.json").read_text(encoding="utf-8"))
    stale = []
    for key, meta in lock.get("packages", {}).items():
        if not key.startswith("node_modules/") or meta.get("optional") or meta.get("link"):
            continue
        manifest = ROOT / key / "package.json"
        if not manifest.is_file():
            stale.append(key.removeprefix("node_modules/"))
            continue
        got = json.loads(manifest.read_text(encoding="utf-8")).get("version")
        if got != meta.get("version"):
            stale.append(f"{key.removeprefix('node_modules/')} installed {got}, locked {meta.get('version')}")
    return stale


def ensure_node_modules() -> None:
    """Run ``npm ci`` when ``node_modules`` does not match ``package-lock.json``.

    Never through a symbolic link: when ``node_modules`` links to a shared
    install, ``npm ci`` would empty the shared directory for everyone using
    it; then this raises instead.

    Raises:
        BuildError: npm is missing, ``npm ci`` fails, or a linked install is stale.
    """
    stale = stale_node_modules()
    if not stale:
        return
    what = ", ".join(stale[:5]) + (f" and {len(stale) - 5} more" if len(stale) > 5 else "")
    if NODE_MODULES.is_symlink():
        raise BuildError(
            f"node_modules links to a shared install ({os.readlink(NODE_MODULES)}) that does not "
            f"match package-lock.json ({what}); not running `npm ci` through the link (it would "
            "empty the shared directory): update the shared install, or replace the link "
            "with a directory of your own and run `npm ci`"
        )
    npm = shutil.which("npm")
    if not npm:
        raise BuildError("npm not found: install Node.js 20+ with npm, then run `python build.py` again")
    log(f"node_modules does not match package-lock.json ({what})")
    run([npm, "ci", "--no-audit", "--no-fund"])


def _in_venv() -> bool:
    return sys.prefix != sys.base_prefix


def _externally_managed() -> bool:
    import sysconfig

    return not _in_venv() and (pathlib.Path(sysconfig.get_path("stdlib")) / "EXTERNALLY-MANAGED").exists()


def _missing_test_requirements() -> list[str]:
    import importlib.metadata
    import re
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    reqs = list(project.get("optional-dependencies", {}).get("test", []))
    reqs += list(project.get("dependencies", []))  # regex: needed on CPython (marker: not emscripten)
    missing = []
    for req in reqs:
        name = re.match(r"[A-Za-z0-9_.\-]+", req).group(0)
        try:
            importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            missing.append(name)
    return missing


def ensure_python_test_env(argv: list[str]) -> None:
    """Install bytepair and its test extras (``pip install -e ".[test]"``) when
    any is missing.  On an externally managed Python (Debian's), do it in
    ``.venv`` and re-run this command with that interpreter."""
    missing = _missing_test_requirements()
    if not missing:
        return
    if _externally_managed():
        venv_python = ROOT / ".venv" / "bin" / "python"
        if not venv_python.exists():
            log(f"{sys.executable} is externally managed; creating .venv for the tests")
            try:
                run([sys.executable, "-m", "venv", ROOT / ".venv"])
            except BuildError as e:
                raise BuildError(f"{e}\n  Debian/Ubuntu: sudo apt-get install python3-venv") from e
        log(f"re-running with {venv_python}")
        os.execv(str(venv_python), [str(venv_python), str(ROOT / "build.py"), *argv])
    log(f"installing bytepair and its test requirements (missing: {', '.join(missing)})")
    run([sys.executable, "-m", "pip", "install", "--disable-pip-version-check", "-e", ".[test]"])
