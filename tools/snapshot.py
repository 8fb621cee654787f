"""The Pyodide memory snapshot of the playground: a build step (``tools/make_snapshot.mjs`` under Node.js).

Starting Python is most of the playground's Navigation -> Ready time (issue 12:
``loadPyodide`` ~3.5 s of ~4.3 s on this machine). A memory snapshot is the
WebAssembly heap of a Python that has already started and imported bytepair
and the worker adapter; the worker restores it (``web/src/pyboot.js``) instead
of starting Python, installing the wheels and importing. It is tied to the exact
``pyodide.asm.wasm`` (Pyodide checks its build id when restoring) and holds no
file: the worker still makes the data directory.

:func:`step_snapshot` writes ``web/dist/snapshot/python-<key>.snap.gz`` (gzip;
the worker unzips it with the browser's ``DecompressionStream``) and returns
the ``snapshot`` entry of ``wheels/manifest.json``. ``<key>`` is a hash of every
input (the Pyodide files, the wheels (the adapter's among them), the snapshot
script and the paths below), so a stale snapshot is never served under a cached name,
and an unchanged one is reused from ``.cache/snapshot/`` without Node.js.
"""

from __future__ import annotations

import hashlib
import json
import pathlib
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from typing import TYPE_CHECKING

from tools.buildutil import CACHE, DIST, ROOT, BuildError, log, pyodide_site_dir

if TYPE_CHECKING:
    from tools.distwriter import DistWriter

SCRIPT = ROOT / "tools" / "make_snapshot.mjs"
SNAPSHOT_CACHE = CACHE / "snapshot"

#: Where the worker (``web/src/worker.js`` ``DATA_DIR``) keeps the vocabularies inside
#: Pyodide (``$BYTEPAIR_DATA_DIR``); the snapshot is made with the same path and the
#: manifest records it, so the worker can refuse a snapshot made for another.
DATA_DIR = "/home/pyodide/bytepair-data"
DATA_DIR_ENV = "BYTEPAIR_DATA_DIR"
#: The adapter package the worker imports (``pyodide.pyimport``), from its wheel
#: (``tools/adapter_wheel.py``, one of the manifest's ``install`` wheels).
ADAPTER_IMPORT = "playground"

#: Files of ``web/dist/pyodide/<version>/`` the snapshot depends on.
PYODIDE_INPUTS = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "pyodide-lock.json")


#: The adapter's function make_snapshot.mjs calls before the snapshot: it compiles every encoding's
#: split pattern and the open models' split regexes it is given (``playground.loading.warm``;
#: :func:`step_snapshot`'s ``patterns``), so no first count in the page waits for a compile.
WARM = "warm"


def _inputs(wheels: list[pathlib.Path], stdlib: pathlib.Path) -> list[pathlib.Path]:
    return [*(DIST / pyodide_site_dir() / n for n in PYODIDE_INPUTS), stdlib, *wheels, SCRIPT]


def snapshot_key(wheels: list[pathlib.Path], stdlib: pathlib.Path, patterns: Sequence[str] = ()) -> str:
    """sha256 (hex) over every input's name and bytes, the paths used inside Pyodide and the
    patterns the snapshot compiles."""
    h = hashlib.sha256()
    h.update(json.dumps([DATA_DIR, DATA_DIR_ENV, ADAPTER_IMPORT, WARM, list(patterns)]).encode())
    for p in _inputs(wheels, stdlib):
        h.update(p.name.encode() + b"\0" + p.read_bytes() + b"\0")
    return h.hexdigest()


def step_snapshot(
    out: DistWriter, *, pyodide_version: str, install: list[str], stdlib: str, patterns: Sequence[str] = ()
) -> dict | None:
    """Make (or reuse) the snapshot for the wheels ``install`` (file names in
    ``web/dist/wheels/``, install order) and the standard library ``stdlib`` (its path under
    web/dist: the trimmed archive the worker loads) and copy it to ``snapshot/``. ``patterns``:
    split regexes the snapshot compiles besides the encodings' (the open models',
    :func:`tools.model_files.split_regexes`).

    Returns:
        The manifest entry ``{"file", "bytes", "raw_bytes", "build_id", "pyodide",
        "data_dir", "adapter", "modules"}`` (``file`` relative to the
        site root), or None when Node.js is missing (the site then starts Python
        without a snapshot, as before).

    Raises:
        BuildError: the snapshot script failed, or the snapshot it made could not be
            restored (its output is included).
    """
    node = shutil.which("node")
    if node is None:
        log("warning: no node: the site ships without a Pyodide memory snapshot (slower start)")
        return None
    wheels = [DIST / "wheels" / name for name in install]
    key = snapshot_key(wheels, DIST / stdlib, patterns)
    name = f"python-{key[:16]}.snap.gz"
    cached, info_file = SNAPSHOT_CACHE / name, SNAPSHOT_CACHE / f"{name}.json"
    if not (cached.is_file() and info_file.is_file()):
        SNAPSHOT_CACHE.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(prefix="bytepair-snapshot-") as tmpdir:
            tmp = pathlib.Path(tmpdir)
            spec = {
                "pyodide_dir": str(DIST / pyodide_site_dir()),
                "stdlib": str(DIST / stdlib),
                "wheels": [str(w) for w in wheels],
                "adapter_import": ADAPTER_IMPORT,
                "packages": ["bytepair", ADAPTER_IMPORT],
                "warm": WARM,
                "warm_patterns": list(patterns),
                "data_dir": DATA_DIR,
                "data_dir_env": DATA_DIR_ENV,
                "out": str(tmp / name),
            }
            (tmp / "spec.json").write_text(json.dumps(spec))
            log(f"$ node {SCRIPT.relative_to(ROOT)} (Pyodide memory snapshot)")
            proc = subprocess.run([node, str(SCRIPT), str(tmp / "spec.json")], capture_output=True, text=True, cwd=ROOT)
            if proc.returncode != 0:
                raise BuildError(
                    f"making the Pyodide memory snapshot failed (node {SCRIPT.name}):\n"
                    f"{proc.stdout[-4000:]}\n{proc.stderr[-4000:]}"
                )
            made = json.loads(proc.stdout.strip().splitlines()[-1])
            for old in SNAPSHOT_CACHE.glob("python-*"):
                old.unlink()
            shutil.move(tmp / name, cached)
            info_file.write_text(json.dumps(made))
        log(
            f"snapshot/{name}: {made['bytes'] / 1e6:.1f} MB -> {made['gzip_bytes'] / 1e6:.1f} MB gzip, "
            f"{made['modules']} modules, made in {made['make_ms'] / 1000:.1f} s, restored in {made['restore_ms']} ms; "
            f"not imported: {', '.join(made['not_imported']) or 'none'}"
        )
    made = json.loads(info_file.read_text())
    out.copy(cached, f"snapshot/{name}")
    return {
        "file": f"snapshot/{name}",
        "bytes": cached.stat().st_size,
        "raw_bytes": made["bytes"],
        "build_id": made["build_id"],
        "pyodide": pyodide_version,
        "data_dir": DATA_DIR,
        "adapter": ADAPTER_IMPORT,
        "modules": made["modules"],
    }
