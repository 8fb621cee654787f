"""Precompressed copies of the built site: ``FILE.br`` and ``FILE.gz`` next to every compressible ``FILE``.

Static hosts and CDNs send such copies with ``Content-Encoding: br`` / ``gzip`` to browsers that
accept them (nginx ``gzip_static``/``brotli_static``, Netlify, Cloudflare, ``tools/serve.py``), so
the 9.6 MB Pyodide runtime crosses the wire as about 2.7 MB (issue 20). Files already compressed
(``.gz``, ``.zip``, ``.whl``, images: :data:`SKIP_SUFFIXES`) are left alone, except archives the build
stores uncompressed for these copies (the standard library, our wheels), and a copy is kept only
when it is at most :data:`MAX_RATIO` of the file (smaller gains cost a request's worth of CPU for
nothing). Brotli quality 11 and gzip level 9 run in Node.js (its ``zlib``; ``tools/precompress.mjs``),
so the build stays on Python's standard library.

Incremental, and kept across clean builds: the copies are made in ``.cache/precompress/`` under the
SHA-256 of the file's content (``<sha>.br``, ``<sha>.gz``; ``index.json`` says which copies gained
enough) and copied into dist/ from there, so a file whose content was compressed before (even after
``web/dist`` was deleted) is not compressed again. Brotli 11 takes about a minute for the 9.6 MB
runtime on a busy machine, once. Standard library only.
"""

from __future__ import annotations

import hashlib
import json
import os
import pathlib
import shutil
import subprocess
import tempfile
import time
import zipfile

from tools.buildutil import CACHE, ROOT, BuildError, log
from tools.distwriter import DistWriter
from tools.serve import ENCODINGS  # the codings the server sends, and the suffix of their copies

#: Keep a copy only when it is at most this fraction of the file (a gain of at least 5 %).
MAX_RATIO = 0.95

#: Files that are compressed already (or too small to gain): never given copies.
SKIP_SUFFIXES = (".gz", ".br", ".zip", ".whl", ".png", ".jpg", ".jpeg", ".gif", ".webp", ".ico", ".woff2")

#: Files smaller than this many bytes are sent as they are (a few hundred bytes gain nothing
#: measurable, and the copies would double the file count).
MIN_SIZE = 256

#: A file brotli's fastest quality shrinks by less than 1 % is not compressed further.
PROBE_RATIO = 0.99

SCRIPT = ROOT / "tools" / "precompress.mjs"
STORE = CACHE / "precompress"


def stored_archive(path: pathlib.Path) -> bool:
    """Whether ``path`` is a zip archive (``.zip``, ``.whl``) whose members are all stored
    uncompressed: the trimmed standard library (``stdlib_trim.py``) and the site's own wheels
    (``wheels.add_pyc``) are written so, and then compress across their files in the ``.br``
    copies (the bytepair web wheel: 1.08 MB deflated, 0.63 MB as brotli of the stored zip)."""
    try:
        with zipfile.ZipFile(path) as z:
            infos = z.infolist()
    except (OSError, zipfile.BadZipFile):
        return False
    return bool(infos) and all(i.compress_type == zipfile.ZIP_STORED for i in infos)


def wants_copies(rel: str, size: int, path: pathlib.Path | None = None) -> bool:
    """Whether ``rel`` (a path under dist/, ``size`` bytes; ``path``: the file, to look inside a
    ``.zip`` or ``.whl``) should get precompressed copies: compressible files of at least
    :data:`MIN_SIZE` bytes, and archives stored uncompressed (:func:`stored_archive`)."""
    if rel.lower().endswith((".zip", ".whl")) and path is not None and stored_archive(path):
        return True
    return size >= MIN_SIZE and not rel.lower().endswith(SKIP_SUFFIXES)


def _sha256(path: pathlib.Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        while chunk := f.read(1 << 20):
            h.update(chunk)
    return h.hexdigest()


def step_precompress(
    out: DistWriter, files: list[str], *, store: pathlib.Path = STORE, forget: bool = True, place: bool = True
) -> dict[str, dict]:
    """Write ``FILE.br`` and ``FILE.gz`` for each of ``files`` (paths under ``out.root``) that
    :func:`wants_copies` and whose copies gain at least 5 %; claim them in ``out`` (so prune keeps
    them and drops the copies of files gone). Only content not compressed before is compressed
    (``store``: the content-addressed copies; with ``forget``, entries none of ``files`` uses are
    deleted: pass ``forget=False`` when ``files`` is not the whole site). ``place=False``: the sizes
    only, no copy written into ``out`` (a later call with the whole site places them).

    Returns ``{rel: {"size": bytes, "br": bytes or None, "gzip": bytes or None}}`` for every file
    considered (None: no copy, it would not gain enough).

    Raises:
        BuildError: a copy would collide with a file the build produces (``X`` and ``X.gz`` both
            built), or Node.js is missing or failed.
    """
    t0 = time.perf_counter()
    index_file = store / "index.json"
    try:
        index = json.loads(index_file.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        index = {}
    wanted: dict[str, str] = {}  # rel -> sha256 of its content
    jobs: dict[str, str] = {}  # sha -> rel (one file per content)
    for rel in files:
        path = out.root / rel
        if not wants_copies(rel, path.stat().st_size, path):
            continue
        for suffix in ENCODINGS.values():
            if rel + suffix in files:
                raise BuildError(f"web/dist/{rel}{suffix} is both a built file and {rel}'s precompressed copy")
        sha = wanted[rel] = _sha256(path)
        known = index.get(sha)
        if not known or not all(
            known[enc] is None or (store / f"{sha}{suffix}").is_file() for enc, suffix in ENCODINGS.items()
        ):
            jobs.setdefault(sha, rel)
    store.mkdir(parents=True, exist_ok=True)
    if jobs:
        node = shutil.which("node")
        if node is None:
            raise BuildError("node (Node.js) is not on PATH: the site build needs it to precompress web/dist")
        spec = {
            "max_ratio": MAX_RATIO,
            "probe_ratio": PROBE_RATIO,
            "jobs": [
                {"src": str(out.root / rel), "out": str(store / sha), "encodings": [s[1:] for s in ENCODINGS.values()]}
                for sha, rel in jobs.items()
            ],
        }
        with tempfile.TemporaryDirectory(prefix="bytepair-precompress-") as tmp:
            spec_file = pathlib.Path(tmp) / "spec.json"
            spec_file.write_text(json.dumps(spec), encoding="utf-8")
            proc = subprocess.run([node, str(SCRIPT), str(spec_file)], capture_output=True, text=True, cwd=ROOT)
        if proc.returncode != 0:
            raise BuildError(f"precompressing web/dist failed (node {SCRIPT.name}):\n{proc.stderr.strip()}")
        done = json.loads(proc.stdout)
        for sha, rel in jobs.items():
            r = done[str(out.root / rel)]
            index[sha] = {"size": r["size"], **{enc: r[suffix[1:]] for enc, suffix in ENCODINGS.items()}}
    results: dict[str, dict] = {}
    for rel, sha in wanted.items():
        results[rel] = index[sha]
        for enc, suffix in ENCODINGS.items():
            if place and index[sha][enc] is not None:
                out.copy(store / f"{sha}{suffix}", rel + suffix)
    # forget content no file has any more (the store holds this build's copies only)
    keep = set(wanted.values()) if forget else set(index)
    index = {sha: v for sha, v in index.items() if sha in keep}
    for p in store.iterdir():
        if p.name != "index.json" and p.name.split(".", 1)[0] not in keep:
            p.unlink()
    tmp_index = index_file.with_name("index.json.tmp")
    tmp_index.write_text(json.dumps(index, indent=0, sort_keys=True) + "\n", encoding="utf-8")
    os.replace(tmp_index, index_file)
    if jobs:
        raw = sum(index[sha]["size"] for sha in jobs)
        br = sum(index[sha]["br"] or index[sha]["size"] for sha in jobs)
        log(
            f"precompressed {len(jobs)} files ({raw / 1e6:.2f} MB -> {br / 1e6:.2f} MB with brotli) "
            f"in {time.perf_counter() - t0:.1f} s"
        )
    return results
