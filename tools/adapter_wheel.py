"""The worker adapter as a wheel: ``web/src/py/playground/`` ->
``wheels/bytepair_playground-<bytepair version>-py3-none-any.whl``.

The worker installs it with bytepair in one ``pyodide.loadPackage`` call (it is
in the manifest's ``install`` list) and imports ``playground``; the package
directory is the one list of adapter files (:func:`adapter_sources`). The wheel
holds the sources, ``__pycache__/*.pyc`` compiled by Pyodide's Python
(:func:`tools.wheels.add_pyc`) and a ``.dist-info`` (METADATA, WHEEL, RECORD;
PEP 427). Its bytes depend only on the sources and the Pyodide version (fixed
timestamps), so it is rebuilt only when one of them changes.
"""

from __future__ import annotations

import hashlib
import json
import pathlib
import re
import zipfile
from typing import TYPE_CHECKING

from tools.buildutil import CACHE, PY_SRC, ROOT, WEB, BuildError, log
from tools.wheels import _record_hash, add_pyc

if TYPE_CHECKING:
    from tools.distwriter import DistWriter

#: The adapter package (imported as ``playground`` in the worker).
ADAPTER_DIR = WEB / "src" / "py" / "playground"
PACKAGE = "playground"
DIST_NAME = "bytepair_playground"
_DATE = (1980, 1, 1, 0, 0, 0)


def adapter_sources() -> list[pathlib.Path]:
    """The adapter's modules (``web/src/py/playground/*.py``), sorted.

    Raises:
        BuildError: the package has no ``__init__.py``.
    """
    files = sorted(ADAPTER_DIR.glob("*.py"))
    if ADAPTER_DIR / "__init__.py" not in files:
        raise BuildError(f"{ADAPTER_DIR.relative_to(ROOT)}/__init__.py is missing: the worker imports that package")
    return files


def bytepair_version() -> str:
    """``bytepair.__version__`` read from ``py/bytepair/__init__.py`` (the one place it is defined)."""
    text = (PY_SRC / "bytepair" / "__init__.py").read_text(encoding="utf-8")
    m = re.search(r'^__version__ = "([^"]+)"', text, re.M)
    if not m:
        raise BuildError("py/bytepair/__init__.py defines no __version__")
    return m.group(1)


def write_wheel(dst: pathlib.Path, version: str) -> None:
    """Write the adapter wheel (sources and ``.dist-info``, no ``.pyc``) to ``dst``."""
    info = f"{DIST_NAME}-{version}.dist-info"
    members = {f"{PACKAGE}/{p.name}": p.read_bytes() for p in adapter_sources()}
    members[f"{info}/METADATA"] = (
        f"Metadata-Version: 2.1\nName: {DIST_NAME}\nVersion: {version}\n"
        "Summary: The bytepair playground's worker adapter (JSON in and out over bytepair)\n"
        f"Requires-Dist: bytepair=={version}\n"
    ).encode()
    members[f"{info}/WHEEL"] = (
        b"Wheel-Version: 1.0\nGenerator: tools/adapter_wheel.py\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    )
    record = "".join(f"{name},{_record_hash(data)},{len(data)}\n" for name, data in members.items())
    members[f"{info}/RECORD"] = (record + f"{info}/RECORD,,\n").encode()
    tmp = dst.with_name(f".{dst.name}.tmp")
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in members.items():
            z.writestr(zipfile.ZipInfo(name, date_time=_DATE), data, compress_type=zipfile.ZIP_DEFLATED)
    tmp.replace(dst)


def step_adapter_wheel(out: DistWriter) -> dict[str, str]:
    """Build (when its inputs changed) the adapter wheel with ``.pyc`` files and copy it to ``wheels/``.

    Returns:
        ``{"playground": file name}``.

    Raises:
        BuildError: the package is missing, or compiling its ``.pyc`` files fails.
    """
    version = bytepair_version()
    name = f"{DIST_NAME}-{version}-py3-none-any.whl"
    h = hashlib.sha256(version.encode())
    pyodide_lock = ROOT / "node_modules" / "pyodide" / "pyodide-lock.json"
    for p in [
        *adapter_sources(),
        ROOT / "tools" / "compile_pyc.mjs",
        ROOT / "tools" / "wheels.py",
        pathlib.Path(__file__),
    ]:
        h.update(p.name.encode() + b"\0" + p.read_bytes() + b"\0")
    if pyodide_lock.is_file():
        h.update(pyodide_lock.read_bytes())
    work = CACHE / "adapter-wheel"
    stamp, wheel = work / "stamp.json", work / name
    if not wheel.is_file() or not stamp.is_file() or json.loads(stamp.read_text()) != {"fingerprint": h.hexdigest()}:
        work.mkdir(parents=True, exist_ok=True)
        write_wheel(wheel, version)
        n_pyc = add_pyc(wheel, package=PACKAGE)
        stamp.write_text(json.dumps({"fingerprint": h.hexdigest()}))
        log(f"adapter wheel {name}: {len(adapter_sources())} modules, {n_pyc} .pyc files, {wheel.stat().st_size} bytes")
    out.copy(wheel, f"wheels/{name}")
    return {"playground": name}
