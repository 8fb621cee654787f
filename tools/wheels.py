"""The Python wheels the playground installs in Pyodide.

* ``bytepair-<version>-py3-none-any.whl``: built with ``pip wheel`` from a copy
  of this repository's sources, then *slimmed*: ``bytepair/data/*.tiktoken.gz``
  (the OpenAI vocabularies, fetched lazily by the worker instead) removed and
  the RECORD rewritten to list exactly the remaining files (PEP 376/427); and
  ``__pycache__/*.pyc`` of every module added, compiled by Pyodide's own Python
  (``tools/compile_pyc.mjs``), so the playground does not compile bytepair at boot.
* The pinned PyPI wheels of :data:`PYPI_WHEELS` (sha256-checked), downloaded
  once into ``.cache/wheels`` with ``pip download --python-version 3.14``
  (Pyodide's Python, not the one running the build, decides which fit).
* The Chat view's wheels (:func:`step_chat_wheels`): jinja2 from PyPI and a
  pure-Python MarkupSafe built from its sdist (``tools/pure_wheels.py``);
  the worker installs them only when a chat template is first rendered.

Each ``step_*`` copies its wheels into ``web/dist/wheels/`` through a
:class:`tools.site_build.DistWriter` and returns ``{distribution name: file name}``.
"""

from __future__ import annotations

import base64
import csv
import hashlib
import io
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import zipfile
from typing import TYPE_CHECKING

from tools.buildutil import CACHE, PY_SRC, ROOT, BuildError, log, run

if TYPE_CHECKING:
    from tools.distwriter import DistWriter

#: Pure-Python wheels from PyPI the playground installs next to bytepair, in
#: install order: (file name, sha256). Each must be ``py3-none-any`` with no
#: dependency outside this list: the worker installs them with
#: ``pyodide.loadPackage(<url>)``, which unpacks wheels and resolves nothing.
#: (Until issue 7 these were micropip 0.11.1 and packaging 26.1, to run
#: ``micropip.install``; boot without them measured faster.) Empty today;
#: the chat feature adds jinja2 here.
PYPI_WHEELS: tuple[tuple[str, str], ...] = ()


def file_sha256(path: pathlib.Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def _record_hash(data: bytes) -> str:
    """A RECORD hash field (PEP 376/427): sha256, urlsafe base64 without padding."""
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def _pip_download(names: list[str], dest: pathlib.Path, *extra: str) -> None:
    dest.mkdir(parents=True, exist_ok=True)
    run(
        [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--no-deps",
            "--only-binary=:all:",
            "--disable-pip-version-check",
            "-d",
            dest,
            *extra,
            *names,
        ]
    )


def step_pypi_wheels(out: DistWriter) -> dict[str, str]:
    """Download (once) the pinned :data:`PYPI_WHEELS`, check their sha256, copy them to ``wheels/``.

    Returns ``{distribution name: file name}`` in :data:`PYPI_WHEELS` order.

    Raises:
        BuildError: a download fails or a sha256 differs from its pin (the file is then deleted).
    """
    cache = CACHE / "wheels"
    missing = [f for f, _ in PYPI_WHEELS if not (cache / f).is_file()]
    if missing:
        pins = []
        for f in missing:
            name, version = f.split("-")[:2]
            pins.append(f"{name}=={version}")
        # Pyodide's Python, not this one, decides which versions fit
        _pip_download(pins, cache, "--python-version", "3.14")
    result = {}
    for fname, sha in PYPI_WHEELS:
        path = cache / fname
        if not path.is_file():
            raise BuildError(f"pip download did not produce {path}")
        got = file_sha256(path)
        if got != sha:
            path.unlink()
            raise BuildError(
                f"{fname}: sha256 {got} differs from the pinned {sha}; "
                "deleted it - run the build again to download it anew"
            )
        out.copy(path, f"wheels/{fname}")
        result[fname.split("-")[0]] = fname
    return result


def _package_inputs() -> list[pathlib.Path]:
    """The files that determine the bytepair wheel (vocabularies excluded:
    the slim web wheel drops them)."""
    files = [ROOT / "pyproject.toml"]
    files += [p for p in ROOT.glob("README*") if p.is_file()]
    files += [p for p in ROOT.glob("LICENSE*") if p.is_file()]
    for p in sorted(PY_SRC.rglob("*")):
        rel = p.relative_to(PY_SRC).parts
        if not p.is_file() or "__pycache__" in rel or any(r.endswith(".egg-info") for r in rel):
            continue
        if p.suffix in (".pyc", ".pyo") or p.name.endswith(".tiktoken.gz"):
            continue
        files.append(p)
    return files


def _is_vocab_member(name: str) -> bool:
    return name.startswith("bytepair/data/") and name.endswith(".tiktoken.gz")


def slim_wheel(src: pathlib.Path, dst: pathlib.Path) -> list[str]:
    """Copy wheel ``src`` to ``dst`` without ``bytepair/data/*.tiktoken.gz`` and
    with a RECORD that lists exactly the remaining files with their sha256 and
    size (checked).  Returns the dropped member names."""
    with zipfile.ZipFile(src) as zin:
        infos = zin.infolist()
        records = [i.filename for i in infos if i.filename.endswith(".dist-info/RECORD") and i.filename.count("/") == 1]
        if len(records) != 1:
            raise BuildError(f"{src.name}: expected one .dist-info/RECORD, found {records}")
        record_name = records[0]
        rows = [r for r in csv.reader(io.StringIO(zin.read(record_name).decode("utf-8"))) if r]
        dropped = [i.filename for i in infos if _is_vocab_member(i.filename)]
        listed = {r[0] for r in rows}
        for name in dropped:
            if name not in listed:
                raise BuildError(f"{src.name}: {name} is not listed in {record_name}")
        kept_rows = [r for r in rows if r[0] not in dropped]
        members = {i.filename for i in infos if not i.filename.endswith("/")} - set(dropped)
        if {r[0] for r in kept_rows} != members:
            raise BuildError(f"{src.name}: RECORD and archive disagree: {sorted({r[0] for r in kept_rows} ^ members)}")
        buf = io.StringIO()
        csv.writer(buf, lineterminator="\n").writerows(kept_rows)
        record_data = buf.getvalue().encode("utf-8")
        tmp = dst.with_name(f".{dst.name}.tmp")
        with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as zout:
            for info in infos:
                if info.filename in dropped:
                    continue
                data = record_data if info.filename == record_name else zin.read(info)
                if info.filename != record_name:
                    row = next(r for r in kept_rows if r[0] == info.filename)
                    if row[1] != _record_hash(data) or row[2] != str(len(data)):
                        raise BuildError(f"{src.name}: RECORD hash/size mismatch for {info.filename}")
                zout.writestr(info, data, compress_type=zipfile.ZIP_DEFLATED)
    os.replace(tmp, dst)
    return dropped


def add_pyc(wheel: pathlib.Path, *, package: str = "bytepair") -> int:
    """Add ``__pycache__/*.pyc`` compiled by Pyodide's Python (``tools/compile_pyc.mjs``
    under Node.js) for every ``<package>/*.py`` of ``wheel``, with their RECORD
    rows, so the playground imports ``package`` without compiling it (bytepair:
    about 0.7 s of its boot). The wheel is rewritten with every member stored uncompressed
    (``ZIP_STORED``): its precompressed ``.br`` copy then compresses across files, as the
    standard library's does (``precompress.stored_archive``; the bytepair web wheel: 1.08 MB
    deflated, 0.63 MB on the wire, issue 20). Returns the number added; 0 (and the wheel
    unchanged) without Node.js or npm ``pyodide``."""
    node = shutil.which("node")
    if node is None or not (ROOT / "node_modules" / "pyodide").is_dir():
        log("warning: no node or node_modules/pyodide: the web wheel ships without .pyc files")
        return 0
    with tempfile.TemporaryDirectory(prefix="bytepair-pyc-") as tmpdir:
        tmp = pathlib.Path(tmpdir)
        with zipfile.ZipFile(wheel) as zin:
            infos = zin.infolist()
            sources = [i.filename for i in infos if i.filename.startswith(f"{package}/") and i.filename.endswith(".py")]
            for name in sources:
                (tmp / name).parent.mkdir(parents=True, exist_ok=True)
                (tmp / name).write_bytes(zin.read(name))
            record_name = next(i.filename for i in infos if i.filename.endswith(".dist-info/RECORD"))
            rows = [r for r in csv.reader(io.StringIO(zin.read(record_name).decode("utf-8"))) if r]
            members = {i.filename: zin.read(i) for i in infos}
        site = "/lib/python3.14/site-packages"  # display path only (tracebacks)
        proc = subprocess.run(
            [node, str(ROOT / "tools" / "compile_pyc.mjs"), str(tmp / package), f"{site}/{package}"],
            capture_output=True,
            text=True,
            cwd=ROOT,
        )
        if proc.returncode != 0:
            raise BuildError(f"compiling the web wheel's .pyc files with Pyodide failed:\n{proc.stdout}\n{proc.stderr}")
        pycs = sorted(tmp.rglob("__pycache__/*.pyc"))
        added = {p.relative_to(tmp).as_posix(): p.read_bytes() for p in pycs}
        record_rows = [r for r in rows if r[0] != record_name]
        record_rows += [[name, _record_hash(data), str(len(data))] for name, data in added.items()]
        record_rows.append([record_name, "", ""])
        buf = io.StringIO()
        csv.writer(buf, lineterminator="\n").writerows(record_rows)
        tmp_wheel = wheel.with_name(f".{wheel.name}.tmp")
        with zipfile.ZipFile(tmp_wheel, "w", zipfile.ZIP_STORED) as zout:
            for info in infos:
                if info.filename != record_name:
                    zout.writestr(info, members[info.filename], compress_type=zipfile.ZIP_STORED)
            for name, data in added.items():
                zout.writestr(
                    zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0)), data, compress_type=zipfile.ZIP_STORED
                )
            zout.writestr(
                next(i for i in infos if i.filename == record_name),
                buf.getvalue().encode("utf-8"),
                compress_type=zipfile.ZIP_STORED,
            )
        os.replace(tmp_wheel, wheel)
    return len(added)


def step_bytepair_wheel(out: DistWriter) -> dict[str, str]:
    """Build the bytepair wheel with pip from a copy of the sources (so no
    build/ or egg-info lands in the repository), slim it, copy it to dist."""
    work = CACHE / "bytepair-wheel"
    h = hashlib.sha256()
    for p in [*_package_inputs(), ROOT / "tools" / "compile_pyc.mjs", pathlib.Path(__file__)]:
        h.update(p.relative_to(ROOT).as_posix().encode() + b"\0" + p.read_bytes() + b"\0")
    fingerprint = h.hexdigest()
    stamp = work / "stamp.json"
    state = json.loads(stamp.read_text()) if stamp.is_file() else {}
    slim = work / "slim" / state.get("wheel", "-")
    if state.get("fingerprint") != fingerprint or not slim.is_file():
        if not (ROOT / "README.md").is_file():
            raise BuildError("README.md is missing (pyproject.toml names it as the readme)")
        with tempfile.TemporaryDirectory(prefix="bytepair-wheel-") as tmpdir:
            tmp = pathlib.Path(tmpdir)
            src = tmp / "src"
            src.mkdir()
            for p in [ROOT / "pyproject.toml", *ROOT.glob("README*"), *ROOT.glob("LICENSE*")]:
                if p.is_file():
                    shutil.copy2(p, src / p.name)
            shutil.copytree(PY_SRC, src / "py", ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info"))
            try:
                run(
                    [
                        sys.executable,
                        "-m",
                        "pip",
                        "wheel",
                        "--no-deps",
                        "--disable-pip-version-check",
                        "-q",
                        "-w",
                        tmp / "out",
                        src,
                    ]
                )
            except BuildError as e:
                raise BuildError(
                    f"{e}\n  (building the bytepair wheel from a temporary copy of "
                    "pyproject.toml, README.md and py/; the error is printed above)"
                ) from e
            wheels = list((tmp / "out").glob("bytepair-*.whl"))
            if len(wheels) != 1:
                raise BuildError(f"pip wheel produced {wheels}, expected one bytepair-*.whl")
            full = wheels[0]
            if work.exists():
                shutil.rmtree(work)
            (work / "slim").mkdir(parents=True)
            shutil.copy2(full, work / full.name)
            slim = work / "slim" / full.name
            dropped = slim_wheel(full, slim)
            n_pyc = add_pyc(slim)
            log(
                f"bytepair wheel {full.name}: {full.stat().st_size} bytes, web copy "
                f"{slim.stat().st_size} bytes without {len(dropped)} vocabulary files, with {n_pyc} .pyc files"
            )
        stamp.write_text(json.dumps({"fingerprint": fingerprint, "wheel": slim.name}))
    out.copy(slim, f"wheels/{slim.name}")
    return {"bytepair": slim.name}


def step_chat_wheels(out: DistWriter) -> dict[str, str]:
    """jinja2's wheel (PyPI, pinned) and MarkupSafe's pure wheel (built from its
    pinned sdist), via :func:`tools.pure_wheels.chat_wheels` into
    ``.cache/chat-wheels`` (the sdist kept in ``.cache/sdists``), copied to
    ``wheels/``. Not in the manifest's ``install`` list: the worker loads them
    lazily (``manifest["lazy"]["chat"]``), so boot does not pay for them.

    Returns:
        ``{"markupsafe": file name, "jinja2": file name}`` (install order).

    Raises:
        BuildError: a download or the MarkupSafe build fails (pip's message included).
    """
    from tools import pure_wheels

    try:
        jinja, markup = pure_wheels.chat_wheels(CACHE / "chat-wheels", cache=CACHE / "sdists")
    except RuntimeError as e:
        raise BuildError(f"the Chat view's wheels (jinja2, MarkupSafe): {e}") from e
    result = {}
    for name, path in (("markupsafe", markup), ("jinja2", jinja)):
        out.copy(path, f"wheels/{path.name}")
        result[name] = path.name
    return result
