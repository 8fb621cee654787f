"""Pure-Python wheels of jinja2 and MarkupSafe, for chat templates in Pyodide.

Pyodide's npm package ships no package wheels. jinja2 publishes a pure-Python
wheel (``py3-none-any``); its dependency MarkupSafe publishes only C-extension
wheels on PyPI, but the C part (``markupsafe._speedups``) is optional:
``markupsafe/__init__.py`` falls back to ``markupsafe._native`` when it cannot
import it, and MarkupSafe's own ``setup.py`` builds without the extension when
the compiler fails. (MarkupSafe 3.0.3 has no environment switch for that; the
``setup.py`` fallback only triggers on a failed compile or on PyPy/Jython/GraalVM.)
So :func:`build_markupsafe_wheel` makes the wheel directly from the sdist's
pure-Python files - ``src/markupsafe/{__init__,_native}.py``,
``_speedups.pyi``, ``py.typed`` - with the sdist's ``PKG-INFO`` as METADATA,
``LICENSE.txt``, a ``WHEEL`` file (``py3-none-any``) and a ``RECORD``,
deterministically (fixed timestamps: the same bytes on every machine).

Both downloads go through ``pip download`` (PyPI) with the pinned versions and
sha256s below, checked by pip (``--require-hashes``).

Used by the site build (``build.py`` / the build module) to put the two wheels
next to Pyodide; the web worker installs them when the Chat view needs them::

    python -m tools.pure_wheels DEST      # writes both wheels into DEST, prints their paths
"""

from __future__ import annotations

import base64
import hashlib
import io
import pathlib
import subprocess
import sys
import tarfile
import tempfile
import zipfile

#: Pinned releases and the sha256 of the files pip downloads (PyPI's published hashes).
JINJA2 = (
    "jinja2",
    "3.1.6",
    "jinja2-3.1.6-py3-none-any.whl",
    "85ece4451f492d0c13c5dd7c13a64681a86afae63a5f347908daf103ce6d2f67",
)
MARKUPSAFE = (
    "markupsafe",
    "3.0.3",
    "markupsafe-3.0.3.tar.gz",
    "722695808f4b6457b320fdc131280796bdceb04ab50fe1795cd540799ebe1698",
)

#: The wheel :func:`build_markupsafe_wheel` writes.
MARKUPSAFE_WHEEL = "markupsafe-3.0.3-py3-none-any.whl"

_PURE_FILES = ("__init__.py", "_native.py", "_speedups.pyi", "py.typed")
_DATE = (2025, 9, 27, 0, 0, 0)  # MarkupSafe 3.0.3's release day: fixed zip timestamps


def _pip_download(name: str, version: str, sha256: str, dest: pathlib.Path, *, sdist: bool) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        req = pathlib.Path(tmp) / "requirements.txt"
        req.write_text(f"{name}=={version} --hash=sha256:{sha256}\n", encoding="utf-8")
        fmt = ["--no-binary", ":all:"] if sdist else ["--only-binary", ":all:"]
        cmd = [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--no-deps",
            "--require-hashes",
            "--disable-pip-version-check",
            *fmt,
            "-r",
            str(req),
            "-d",
            str(dest),
        ]
        proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
        if proc.returncode != 0:
            raise RuntimeError(f"pip download of {name}=={version} failed:\n{proc.stdout}\n{proc.stderr}")


def _sha256_file(path: pathlib.Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _fetch(spec: tuple[str, str, str, str], dest: pathlib.Path, *, sdist: bool) -> pathlib.Path:
    name, version, filename, sha256 = spec
    dest.mkdir(parents=True, exist_ok=True)
    path = dest / filename
    if not (path.is_file() and _sha256_file(path) == sha256):
        _pip_download(name, version, sha256, dest, sdist=sdist)
    if _sha256_file(path) != sha256:
        raise RuntimeError(f"{path}: sha256 is not the pinned {sha256}")
    return path


def fetch_jinja2_wheel(dest: pathlib.Path | str) -> pathlib.Path:
    """Download jinja2's pure-Python wheel (pinned, sha256-checked) into ``dest``.

    Returns the wheel's path (reused when already there with the right hash).
    Raises RuntimeError when pip fails or the hash differs."""
    return _fetch(JINJA2, pathlib.Path(dest), sdist=False)


def _record_line(arcname: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{arcname},sha256={digest},{len(data)}"


def build_markupsafe_wheel(
    dest: pathlib.Path | str, *, sdist: pathlib.Path | str | None = None, cache: pathlib.Path | str | None = None
) -> pathlib.Path:
    """Build MarkupSafe's pure-Python wheel (no ``_speedups`` C extension) into ``dest``.

    Args:
        dest: output directory (created).
        sdist: the ``markupsafe-3.0.3.tar.gz`` to use; default: downloaded
            with pip (pinned, sha256-checked) into ``cache`` (kept for the next
            build), or into a temporary directory when ``cache`` is ``None``.

    Returns:
        The path of ``markupsafe-3.0.3-py3-none-any.whl``; its bytes depend
        only on the sdist.

    Raises:
        RuntimeError: the download fails, the sdist's hash differs, or a file is missing.
    """
    dest = pathlib.Path(dest)
    dest.mkdir(parents=True, exist_ok=True)
    if sdist is None:
        if cache is None:
            with tempfile.TemporaryDirectory() as tmp:
                return build_markupsafe_wheel(dest, sdist=_fetch(MARKUPSAFE, pathlib.Path(tmp), sdist=True))
        sdist = _fetch(MARKUPSAFE, pathlib.Path(cache), sdist=True)
    sdist_path = pathlib.Path(sdist)
    if _sha256_file(sdist_path) != MARKUPSAFE[3]:
        raise RuntimeError(f"{sdist_path}: sha256 is not the pinned {MARKUPSAFE[3]}")
    _, version = MARKUPSAFE[0], MARKUPSAFE[1]
    root = f"markupsafe-{version}"
    with tarfile.open(sdist_path, "r:gz") as tar:

        def read(member: str) -> bytes:
            f = tar.extractfile(f"{root}/{member}")
            if f is None:
                raise RuntimeError(f"{sdist_path}: {member} missing")
            return f.read()

        files = {f"markupsafe/{n}": read(f"src/markupsafe/{n}") for n in _PURE_FILES}
        metadata = read("PKG-INFO")
        license_text = read("LICENSE.txt")
    info = f"markupsafe-{version}.dist-info"
    files[f"{info}/METADATA"] = metadata
    files[f"{info}/licenses/LICENSE.txt"] = license_text
    files[f"{info}/WHEEL"] = (
        b"Wheel-Version: 1.0\nGenerator: bytepair tools/pure_wheels.py\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    )
    files[f"{info}/top_level.txt"] = b"markupsafe\n"
    record = [_record_line(n, d) for n, d in files.items()] + [f"{info}/RECORD,,"]
    files[f"{info}/RECORD"] = ("\n".join(record) + "\n").encode()
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for name, data in files.items():
            zi = zipfile.ZipInfo(name, date_time=_DATE)
            zi.external_attr = 0o644 << 16
            zi.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(zi, data)
    out = dest / MARKUPSAFE_WHEEL
    out.write_bytes(buf.getvalue())
    return out


def chat_wheels(dest: pathlib.Path | str, *, cache: pathlib.Path | str | None = None) -> list[pathlib.Path]:
    """Both wheels the Chat view needs, in ``dest``: ``[jinja2, markupsafe]``
    (``cache``: where the MarkupSafe sdist is kept between builds)."""
    return [fetch_jinja2_wheel(dest), build_markupsafe_wheel(dest, cache=cache)]


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python -m tools.pure_wheels DEST")
    for p in chat_wheels(sys.argv[1]):
        print(p)
