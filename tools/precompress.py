"""Precompressed copies of the built site: ``FILE.br`` and ``FILE.gz`` next to every compressible ``FILE``.

Static hosts and CDNs send such copies with ``Content-Encoding: br`` / ``gzip`` to browsers that
accept them (nginx ``gzip_static``/``brotli_static``, Netlify, Cloudflare, ``tools/serve.py``), so
the 9.6 MB Pyodide runtime crosses the wire as about 2.7 MB (issue 20). Files already compressed
(``.gz``, ``.zip``, ``.whl``, images: :data:`SKIP_SUFFIXES`) are left alone, and a copy is kept only
when it is at most :data:`MAX_RATIO` of the file (smaller gains cost a request's worth of CPU for
nothing). Brotli quality 11 and gzip level 9 run in Node.js (its ``zlib``; ``tools/precompress.mjs``),
so the build stays on Python's standard library.

Incremental: ``.cache/precompress.json`` remembers, per file, the size and mtime it was compressed
at and which copies it kept; a file that has not changed is not compressed again (a file whose copies
gained too little is not retried either). Standard library only.
"""

from __future__ import annotations

import json
import os
import pathlib
import shutil
import subprocess
import tempfile
import time

from tools.buildutil import CACHE, ROOT, BuildError, log
from tools.distwriter import DistWriter

#: Content encodings, in the server's order of preference, and the suffix of their copies.
ENCODINGS = {"br": ".br", "gzip": ".gz"}

#: Keep a copy only when it is at most this fraction of the file (a gain of at least 5 %).
MAX_RATIO = 0.95

#: Files that are compressed already (or too small to gain): never given copies.
SKIP_SUFFIXES = (".gz", ".br", ".zip", ".whl", ".png", ".jpg", ".jpeg", ".gif", ".webp", ".ico", ".woff2")

#: Files smaller than this many bytes are sent as they are (a few hundred bytes gain nothing
#: measurable, and the copies would double the file count).
MIN_SIZE = 256

SCRIPT = ROOT / "tools" / "precompress.mjs"
STATE = CACHE / "precompress.json"


def wants_copies(rel: str, size: int) -> bool:
    """Whether ``rel`` (a path under dist/, ``size`` bytes) should get precompressed copies."""
    return size >= MIN_SIZE and not rel.lower().endswith(SKIP_SUFFIXES)


def step_precompress(out: DistWriter, files: list[str], *, state_file: pathlib.Path = STATE) -> dict[str, dict]:
    """Write ``FILE.br`` and ``FILE.gz`` for each of ``files`` (paths under ``out.root``) that
    :func:`wants_copies` and whose copies gain at least 5 %; claim them in ``out`` (so prune keeps
    them and drops the copies of files gone). Only files changed since the last build are compressed.

    Returns ``{rel: {"size": bytes, "br": bytes or None, "gzip": bytes or None}}`` for every file
    considered (None: no copy, it would not gain enough).

    Raises:
        BuildError: a copy would collide with a file the build produces (``X`` and ``X.gz`` both
            built), or Node.js is missing or failed.
    """
    t0 = time.perf_counter()
    try:
        state = json.loads(state_file.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        state = {}
    results: dict[str, dict] = {}
    jobs: list[str] = []
    for rel in files:
        path = out.root / rel
        st = path.stat()
        if not wants_copies(rel, st.st_size):
            continue
        for suffix in ENCODINGS.values():
            if rel + suffix in files:
                raise BuildError(f"web/dist/{rel}{suffix} is both a built file and {rel}'s precompressed copy")
        known = state.get(rel)
        if (
            known
            and known["size"] == st.st_size
            and known["mtime_ns"] == st.st_mtime_ns
            and all(known[enc] is None or (out.root / (rel + suffix)).is_file() for enc, suffix in ENCODINGS.items())
        ):
            results[rel] = {"size": st.st_size, **{enc: known[enc] for enc in ENCODINGS}}
        else:
            jobs.append(rel)
    if jobs:
        node = shutil.which("node")
        if node is None:
            raise BuildError("node (Node.js) is not on PATH: the site build needs it to precompress web/dist")
        stats = {rel: (out.root / rel).stat() for rel in jobs}
        spec = {
            "max_ratio": MAX_RATIO,
            "jobs": [
                {"src": str(out.root / rel), "encodings": [s.lstrip(".") for s in ENCODINGS.values()]} for rel in jobs
            ],
        }
        with tempfile.TemporaryDirectory(prefix="bytepair-precompress-") as tmp:
            spec_file = pathlib.Path(tmp) / "spec.json"
            spec_file.write_text(json.dumps(spec), encoding="utf-8")
            proc = subprocess.run([node, str(SCRIPT), str(spec_file)], capture_output=True, text=True, cwd=ROOT)
        if proc.returncode != 0:
            raise BuildError(f"precompressing web/dist failed (node {SCRIPT.name}):\n{proc.stderr.strip()}")
        done = json.loads(proc.stdout)
        for rel in jobs:
            r = done[str(out.root / rel)]
            results[rel] = {"size": r["size"], **{enc: r[suffix.lstrip(".")] for enc, suffix in ENCODINGS.items()}}
            out.updated.extend(rel + suffix for enc, suffix in ENCODINGS.items() if results[rel][enc] is not None)
        for rel in jobs:
            st = stats[rel]
            state[rel] = {
                "size": st.st_size,
                "mtime_ns": st.st_mtime_ns,
                **{enc: results[rel][enc] for enc in ENCODINGS},
            }
    for rel, r in results.items():
        for enc, suffix in ENCODINGS.items():
            if r[enc] is not None:
                out.claim(rel + suffix)
    state = {rel: v for rel, v in state.items() if rel in results}
    state_file.parent.mkdir(parents=True, exist_ok=True)
    tmp_state = state_file.with_name(state_file.name + ".tmp")
    tmp_state.write_text(json.dumps(state, indent=0, sort_keys=True) + "\n", encoding="utf-8")
    os.replace(tmp_state, state_file)
    if jobs:
        raw = sum(results[rel]["size"] for rel in jobs)
        br = sum(results[rel]["br"] or results[rel]["size"] for rel in jobs)
        log(
            f"precompressed {len(jobs)} files ({raw / 1e6:.2f} MB -> {br / 1e6:.2f} MB with brotli) "
            f"in {time.perf_counter() - t0:.1f} s"
        )
    return results
