"""Count a corpus's pieces partition by partition on a cluster (Dask; the same functions on Spark or Ray).

The counts equal :func:`bytepair.corpus.count_pieces` on the whole text (and so
what :func:`bytepair.train` counts), in order of first appearance, with the same
pre-tokenizer, special tokens, normalization and chunk-boundary rules: each
partition is scanned by :func:`bytepair.corpus._scan` with the characters
before it (look-behind context) and after it (look-ahead), and the driver joins
the scans with :func:`bytepair.corpus.stitch_counts`, which re-scans a partition
(on the cluster) from the true position when its own search did not meet the
whole text's search (a cut inside a word, between ``\\r`` and ``\\n``, inside a
run of spaces, or a piece longer than the look-ahead).

Partition edges move to a safe cut, the rule of :func:`bytepair.corpus.read_chunks`:
never inside a UTF-8 character or a special token and, with normalization,
only right before an ASCII character (where NFC/NFKC treat the two sides
separately). Every partition's cut is found from the text around the edge only,
so the planning is cheap:

* files (:func:`plan_file_partitions`): the corpus is the files joined as
  ``cat`` joins them, cut into byte ranges of about ``partition_bytes``; the
  driver reads a few KiB around each edge; each worker reads its own range, so
  the files must be readable at the same paths from the driver and the workers.
* texts (:func:`plan_text_partitions`): the corpus is the partitions' texts
  joined in order (nothing added between texts: end each document with
  ``"\\n"`` or a special token if that is meant); a first pass
  (:func:`text_summary` per partition) sends the driver each partition's
  length, first ``HEAD_CHARS`` and last characters; a partition's source is
  read twice (``.persist()`` a collection that is expensive to make).

Engine-neutral steps (what a Spark ``mapPartitions`` or a Ray Data
``map_batches`` job calls; see ``docs/DISTRIBUTED.md``)::

    summaries = [text_summary(texts_of_partition(i), ctx_chars=...) for i ...]       # on workers
    jobs = plan_text_partitions(summaries, special_tokens=..., normalization=...)     # on the driver
    scans = [scan_text_job(opts, [texts_of_partition(j.index)], [j]) for j in jobs]  # on workers
    counts = stitch_counts(zip(jobs, scans), rescan)                                  # on the driver

The driver holds one counts table (distinct pieces, see ``docs/DISTRIBUTED.md``
for the bound); each worker holds one partition's text and its counts.
"""

from __future__ import annotations

import bisect
import codecs
import os
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from . import specials as _specials
from .corpus import (
    _HEAD,
    CHUNK_CHARS,
    CONTEXT_CHARS,
    LOOKAHEAD_CHARS,
    InputDecodeError,
    _add,
    _scan,
    check_count_options,
    read_chunks,
    stitch_counts,
)
from .errors import ArgumentError, ArgumentTypeError

__all__ = [
    "HEAD_CHARS",
    "PARTITION_BYTES",
    "CountOptions",
    "FileJob",
    "TextJob",
    "count_files_dask",
    "count_texts_dask",
    "dask_client",
    "plan_file_partitions",
    "plan_text_partitions",
    "scan_file_job",
    "scan_text_job",
    "text_summary",
]

#: Default partition size for files, in bytes.
PARTITION_BYTES = 32 << 20
#: How far past a partition's nominal edge a safe cut is looked for (characters or bytes).
_CUT_SEARCH = 1 << 16
#: Characters of each partition's start that the first pass sends the driver.
HEAD_CHARS = _CUT_SEARCH + LOOKAHEAD_CHARS + 1024


@dataclass(frozen=True)
class CountOptions:
    """The counting rules, checked once (:meth:`make`), sent with every job.

    ``pattern``: the resolved regex (``None`` is refused: pattern ``"none"``
    holds each text between special tokens whole, so it cannot be cut);
    ``special_tokens``; ``normalization`` (``None``, ``"NFC"``, ``"NFKC"``).
    """

    pattern: str
    special_tokens: tuple[str, ...]
    normalization: str | None

    @classmethod
    def make(
        cls, *, pattern: str | None, special_tokens: Sequence[str] = (), normalization: str | None = None
    ) -> CountOptions:
        """Check and resolve the options as :func:`bytepair.corpus.count_pieces` does.

        Raises:
            ArgumentError: bad pattern (or ``"none"``), normalization or special tokens.
        """
        pat, names = check_count_options(pattern=pattern, special_tokens=special_tokens, normalization=normalization)
        if pat is None:
            raise ArgumentError(
                "pattern 'none' keeps each text between special tokens whole and cannot be counted in "
                "partitions; count it with bytepair.corpus.count_pieces",
                field="pattern",
            )
        return cls(pat, names, normalization)

    @property
    def ctx_chars(self) -> int:
        """Characters of look-behind context each partition gets."""
        return CONTEXT_CHARS + max(map(len, self.special_tokens), default=0)


# ------------------------------------------------------------------ safe cuts
def _first_safe(
    s: str | bytes, i: int, rx: re.Pattern | None, ok: Callable[[int], bool], reach: int, longest: int
) -> int | None:
    """The first index ``q`` in ``[i, i + reach)`` of ``s`` where ``ok(q)`` and no match of
    ``rx`` (special tokens) runs over ``q``; ``None`` if there is none there."""
    q, end = i, min(len(s), i + reach)
    while q < end:
        if not ok(q):
            q += 1
            continue
        if rx is not None:
            hit = next((m for m in rx.finditer(s, max(0, q - longest), q + longest) if m.start() < q < m.end()), None)
            if hit is not None:
                q = hit.end()
                continue
        return q
    return None


# ------------------------------------------------------------------ one partition
def _scan_chunked(options: CountOptions, ctx: str, text: str, ext: str, start: int | None, at_eof: bool) -> tuple:
    """``corpus._scan`` of a whole partition, run on chunks of about ``CHUNK_CHARS``
    characters (the regex search on one long string is slower than on several
    short ones): the same result as one scan of ``text``.

    The chunks are cut as :func:`bytepair.corpus.read_chunks` cuts them; each is
    searched from where the search over the one before stopped (so the chunks
    need no stitching), with the text before it as context and the text after
    it as look-ahead; a chunk whose last piece runs past its look-ahead is
    scanned again together with the next one.
    """
    o = options
    head_n = _HEAD if start is None else 0
    pos = start or 0
    chunks = list(
        read_chunks(
            [text], chunk_chars=CHUNK_CHARS, special_tokens=o.special_tokens, ascii_cuts=o.normalization is not None
        )
    )
    if len(chunks) <= 1:
        return _scan(o.pattern, o.special_tokens, o.normalization, ctx, text, ext, pos, at_eof, head_n)
    ends = [0]
    for chunk in chunks:
        ends.append(ends[-1] + len(chunk))
    ctxn = o.ctx_chars
    head: list = []
    counts: dict[str, int] = {}
    done = 0  # normalized characters of the chunks scanned
    resume = pos
    i = 0
    while i < len(chunks):
        j = i + 1
        while True:
            a, b = ends[i], ends[j]
            last = j == len(chunks)
            before = text[a - ctxn : a] if a >= ctxn else (ctx + text[:a])[-ctxn:]
            after = text[b : b + LOOKAHEAD_CHARS]
            if len(after) < LOOKAHEAD_CHARS:
                after += ext[: LOOKAHEAD_CHARS - len(after)]
            h, c, r, complete, nlen = _scan(
                o.pattern,
                o.special_tokens,
                o.normalization,
                before,
                text[a:b],
                after,
                max(pos, 0),
                at_eof and last,
                head_n if i == 0 else 0,
            )
            if complete:
                break
            if last:  # a piece runs past the partition's own look-ahead: the driver re-scans
                return head, counts, resume, False, done + nlen
            j += 1
        head.extend(h)
        _add(counts, c)
        resume = done + r
        pos = r - nlen
        done += nlen
        i = j
    return head, counts, resume, True, done


# ------------------------------------------------------------------ texts (bags, dataframe columns)
def _join(partition: Any) -> str:
    """A partition's texts joined: a list of str (Dask bag), a pandas Series, or one str."""
    if isinstance(partition, str):
        return partition
    if hasattr(partition, "tolist"):
        partition = partition.tolist()
    items = list(partition)
    for k, t in enumerate(items):
        if not isinstance(t, str):
            raise ArgumentTypeError(f"item {k} of a partition is {type(t).__name__}, not str", field="texts")
    return "".join(items)


def text_summary(partition: Any, *, ctx_chars: int) -> tuple[int, str, str]:
    """First pass over one partition of texts: ``(length, head, tail)``.

    ``length`` in characters; ``head`` its first :data:`HEAD_CHARS` characters
    (the whole text when it is at most ``HEAD_CHARS + ctx_chars`` long, and then
    ``tail`` is ``""``); ``tail`` its last ``ctx_chars`` characters.
    """
    text = _join(partition)
    if len(text) <= HEAD_CHARS + ctx_chars:
        return len(text), text, ""
    return len(text), text[:HEAD_CHARS], text[-ctx_chars:]


@dataclass(frozen=True)
class TextJob:
    """One partition's share of the text: ``partition[skip:] + extra``.

    ``index``: the partition; ``skip``: characters at its start that belong to the
    partition before; ``extra``: characters of the partitions after it, up to
    the safe cut; ``ctx`` / ``ext``: the text just before / after this share;
    ``at_eof``: this share ends the corpus.
    """

    index: int
    skip: int
    extra: str
    ctx: str
    ext: str
    at_eof: bool


class _Known:
    """The parts of the whole text the driver knows, by global character offset."""

    def __init__(self) -> None:
        self.starts: list[int] = []
        self.parts: list[list[str]] = []
        self.ends: list[int] = []

    def add(self, start: int, s: str) -> None:
        if not s:
            return
        if self.ends and self.ends[-1] == start:
            self.parts[-1].append(s)
            self.ends[-1] += len(s)
        else:
            self.starts.append(start)
            self.parts.append([s])
            self.ends.append(start + len(s))

    def freeze(self) -> None:
        self.texts = ["".join(p) for p in self.parts]

    def at(self, pos: int) -> tuple[int, str] | None:
        """The known run holding the character at ``pos``."""
        k = bisect.bisect_right(self.starts, pos) - 1
        if k >= 0 and pos < self.ends[k]:
            return self.starts[k], self.texts[k]
        return None


def plan_text_partitions(summaries: Sequence[tuple[int, str, str]], options: CountOptions) -> list[TextJob]:
    """The driver's plan: each partition's share of the text, cut at safe places.

    Args:
        summaries: :func:`text_summary` of every partition, in order.
        options: the counting rules.

    Returns:
        One :class:`TextJob` per non-empty share, in text order.

    Raises:
        ArgumentError: no safe cut within ``_CUT_SEARCH`` characters after a
            partition's edge (with normalization: that many characters without
            an ASCII one); repartition the collection.
    """
    known = _Known()
    starts = []
    total = 0
    for n, head, tail in summaries:
        starts.append(total)
        known.add(total, head)
        known.add(total + n - len(tail), tail)
        total += n
    known.freeze()
    rx = _specials.special_regex(frozenset(options.special_tokens))
    longest = max(map(len, options.special_tokens), default=0)
    cuts = [0]
    for b in starts[1:]:
        if b >= total:
            cuts.append(total)
            continue
        r0, s = known.at(b)  # type: ignore[misc]  # the head of the first non-empty partition from b on
        if options.normalization is not None:

            def ok(q: int, s: str = s) -> bool:
                return s[q].isascii()

        else:

            def ok(q: int, s: str = s) -> bool:
                return True

        q = _first_safe(s, b - r0, rx, ok, _CUT_SEARCH, longest)
        if q is None:
            if r0 + len(s) == total and len(s) - (b - r0) < _CUT_SEARCH:
                cuts.append(total)
                continue
            raise ArgumentError(
                f"no safe cut within {_CUT_SEARCH} characters after character {b} (the start of partition "
                f"{len(cuts)}): with normalization a cut must come right before an ASCII character; repartition",
                field="texts",
            )
        cuts.append(max(r0 + q, cuts[-1]))
    cuts.append(total)
    jobs = []
    ctxn = options.ctx_chars
    for i, b in enumerate(starts):
        lo, hi = cuts[i], cuts[i + 1]
        if lo >= hi:
            continue
        n = summaries[i][0]
        own_end = b + n
        skip = min(max(lo - b, 0), n)
        extra = ""
        if hi > own_end:
            e0 = max(lo, own_end)
            r0, s = known.at(e0)  # type: ignore[misc]
            extra = s[e0 - r0 : hi - r0]
        ctx = ""
        if lo > 0:
            r0, s = known.at(lo - 1)  # type: ignore[misc]
            ctx = s[max(0, lo - ctxn - r0) : lo - r0]
        ext = ""
        if hi < total:
            r0, s = known.at(hi)  # type: ignore[misc]
            ext = s[hi - r0 : hi - r0 + LOOKAHEAD_CHARS]
        jobs.append(TextJob(i, skip, extra, ctx, ext, hi >= total))
    return jobs


def scan_text_job(
    options: CountOptions, partitions: Sequence[Any], jobs: Sequence[TextJob], start: int | None = None
) -> tuple:
    """Scan the shares of ``jobs`` (consecutive; ``partitions`` their partitions' texts) joined.

    Returns what :func:`bytepair.corpus.stitch_counts` takes: with ``start=None``
    (one job) the scan from the share's start with its first events reported
    one by one; with ``start`` an int (a re-scan from the true position,
    characters into the first share after normalization) only counts.
    """
    parts = []
    for part, job in zip(partitions, jobs):
        parts.append(_join(part)[job.skip :] + job.extra)
    return _scan_chunked(options, jobs[0].ctx, "".join(parts), jobs[-1].ext, start, jobs[-1].at_eof)


# ------------------------------------------------------------------ files (byte ranges)
@dataclass(frozen=True)
class FileJob:
    """One partition of the files joined (as ``cat`` joins them): bytes ``[lo, hi)``.

    ``files``: ``(path, size)`` of every file, in order; ``ctx`` / ``ext``: the
    text just before / after the range; ``at_eof``: the range ends the corpus;
    ``errors``: ``"strict"`` or ``"replace"`` for invalid UTF-8.
    """

    files: tuple[tuple[str, int], ...]
    lo: int
    hi: int
    ctx: str
    ext: str
    at_eof: bool
    errors: str


def _read_range(files: Sequence[tuple[str, int]], lo: int, hi: int) -> bytes:
    """Bytes ``[lo, hi)`` of the files joined."""
    out = []
    pos = 0
    for path, size in files:
        a, b = max(lo, pos), min(hi, pos + size)
        if a < b:
            with open(path, "rb") as f:
                f.seek(a - pos)
                out.append(f.read(b - a))
        pos += size
        if pos >= hi:
            break
    return b"".join(out)


def _locate(files: Sequence[tuple[str, int]], offset: int) -> tuple[str, int]:
    """``(path, offset in that file)`` of a global byte offset."""
    pos = 0
    for path, size in files:
        if offset < pos + size:
            return path, offset - pos
        pos += size
    return files[-1][0], files[-1][1]


def _decode_range(files: Sequence[tuple[str, int]], lo: int, hi: int, errors: str) -> str:
    data = _read_range(files, lo, hi)
    try:
        return data.decode("utf-8", errors)
    except UnicodeDecodeError as e:
        path, off = _locate(files, lo + e.start)
        with open(path, "rb") as f:
            line = f.read(off).count(b"\n") + 1
        raise InputDecodeError(
            f"{path}: invalid UTF-8 at line {line} (byte offset {off}): {e.reason}; "
            "convert the file to UTF-8, or pass --errors replace to read such bytes as U+FFFD",
            path=path,
            line=line,
            byte_offset=off,
        ) from e


def plan_file_partitions(
    paths: Sequence[str], options: CountOptions, *, partition_bytes: int = PARTITION_BYTES, errors: str = "strict"
) -> list[FileJob]:
    """The driver's plan for files: byte ranges of about ``partition_bytes``, cut at safe places.

    Args:
        paths: files, in order (their text is joined as ``cat`` joins them).
        options: the counting rules.
        partition_bytes: the nominal partition size in bytes.
        errors: ``"strict"`` or ``"replace"`` (invalid UTF-8 as U+FFFD).

    Returns:
        One :class:`FileJob` per non-empty range, in order.

    Raises:
        ArgumentError: ``"-"`` (stdin cannot be partitioned), a file that does not exist.
    """
    if errors not in ("strict", "replace"):
        raise ArgumentError(f"errors must be 'strict' or 'replace', got {errors!r}", field="errors")
    files = []
    for p in paths:
        if p == "-" or not os.path.isfile(p):
            raise ArgumentError(f"{p}: give files (stdin cannot be read in partitions)", field="files")
        files.append((os.path.abspath(p), os.path.getsize(p)))
    files_t = tuple(files)
    total = sum(s for _, s in files)
    step = max(int(partition_bytes), 1)
    toks = sorted({t.encode() for t in options.special_tokens}, key=lambda t: (-len(t), t))
    rx = re.compile(b"|".join(re.escape(t) for t in toks)) if toks else None
    longest = max(map(len, toks), default=0)
    ascii_only = options.normalization is not None
    cuts = [0]
    for b in range(step, total, step):
        if b <= cuts[-1]:
            continue
        reach = _CUT_SEARCH
        while True:
            w0 = max(0, b - longest)
            win = _read_range(files_t, w0, b + reach + longest)

            def ok(q: int, win: bytes = win) -> bool:
                c = win[q]
                return c < 0x80 if ascii_only else not 0x80 <= c < 0xC0

            q = _first_safe(win, b - w0, rx, ok, reach, longest)
            if q is not None:
                cuts.append(w0 + q)
                break
            if b + reach >= total:
                break
            reach *= 4
    cuts.append(total)
    ctx_bytes = 4 * options.ctx_chars
    jobs = []
    for lo, hi in zip(cuts, cuts[1:]):
        if lo >= hi:
            continue
        c = _read_range(files_t, max(0, lo - ctx_bytes), lo)
        k = 0
        while lo > ctx_bytes and k < min(3, len(c)) and 0x80 <= c[k] < 0xC0:
            k += 1  # the window began inside a character
        ctx = c[k:].decode("utf-8", "replace")[-options.ctx_chars :]
        ext = ""
        if hi < total:
            e = _read_range(files_t, hi, hi + 4 * LOOKAHEAD_CHARS + 4)
            ext = codecs.getincrementaldecoder("utf-8")("replace").decode(e, hi + len(e) >= total)[:LOOKAHEAD_CHARS]
        jobs.append(FileJob(files_t, lo, hi, ctx, ext, hi >= total, errors))
    return jobs


def scan_file_job(options: CountOptions, jobs: Sequence[FileJob], start: int | None = None) -> tuple:
    """Read and scan the byte ranges of ``jobs`` (consecutive) joined; see :func:`scan_text_job`.

    Raises:
        InputDecodeError: invalid UTF-8 with ``errors="strict"`` (path, line, byte offset).
    """
    first, last = jobs[0], jobs[-1]
    text = _decode_range(first.files, first.lo, last.hi, first.errors)
    return _scan_chunked(options, first.ctx, text, last.ext, start, last.at_eof)


# ------------------------------------------------------------------ Dask
def _in_order(tasks: Sequence[Any], window: int) -> Iterator[Any]:
    """Compute Dask delayed ``tasks`` and yield their results in order, at most
    ``window`` at a time in flight (on the distributed client if there is one)."""
    import dask

    try:
        from distributed import get_client

        client = get_client()
    except (ImportError, ValueError):
        client = None
    if client is None:
        for k in range(0, len(tasks), window):
            yield from dask.compute(*tasks[k : k + window])
        return
    futures = client.compute(list(tasks[:window]))
    nxt = len(futures)
    for k in range(len(tasks)):
        fut = futures[k]
        res = fut.result()
        futures[k] = None  # release it on the cluster
        if nxt < len(tasks):
            futures.append(client.compute(tasks[nxt]))
            nxt += 1
        yield res


def _window() -> int:
    try:
        from distributed import get_client

        return max(2 * sum(get_client().nthreads().values()), 2)
    except (ImportError, ValueError):
        return 2 * (os.cpu_count() or 1)


def count_files_dask(
    paths: Sequence[str],
    *,
    pattern: str | None = "cl100k_base",
    special_tokens: Sequence[str] = (),
    normalization: str | None = None,
    errors: str = "strict",
    partition_bytes: int = PARTITION_BYTES,
    on_partition: Callable[[int], None] | None = None,
) -> dict[str, int]:
    """Piece counts of files on Dask, equal to :func:`bytepair.corpus.count_pieces` of their text.

    Runs on the current Dask distributed client (``distributed.Client(...)``,
    see :func:`dask_client`) or else Dask's default scheduler.

    Args:
        paths: files (not ``"-"``), joined as ``cat`` joins them; readable at the
            same paths by the workers.
        pattern, special_tokens, normalization: as in :func:`bytepair.train`.
        errors: ``"strict"`` or ``"replace"`` for invalid UTF-8.
        partition_bytes: bytes per partition (each worker holds one partition's text).
        on_partition: called with each partition's size in bytes once it is counted.

    Returns:
        ``{piece: count}``, insertion order = first appearance.

    Raises:
        ArgumentError: bad options or files; InputDecodeError: invalid UTF-8 (strict).
    """
    from dask import delayed

    options = CountOptions.make(pattern=pattern, special_tokens=special_tokens, normalization=normalization)
    jobs = plan_file_partitions(paths, options, partition_bytes=partition_bytes, errors=errors)
    scan = delayed(scan_file_job, pure=True)
    tasks = [scan(options, [j]) for j in jobs]

    def rescan(keys: list[FileJob], p: int) -> tuple:
        return scan(options, keys, p).compute()

    def done(keys: list[FileJob]) -> None:
        if on_partition is not None:
            on_partition(keys[-1].hi - keys[0].lo)

    return stitch_counts(zip(jobs, _in_order(tasks, _window())), rescan, on_done=done)


def count_texts_dask(
    texts: Any,
    *,
    pattern: str | None = "cl100k_base",
    special_tokens: Sequence[str] = (),
    normalization: str | None = None,
) -> dict[str, int]:
    """Piece counts of a Dask bag of str, or a Dask dataframe column (Series) of str.

    The corpus is the texts joined in order, partition by partition (nothing
    between them). Equal to :func:`bytepair.corpus.count_pieces` of that text.
    Two passes over the collection (``.persist()`` it if making it is costly).

    Args:
        texts: ``dask.bag.Bag`` or ``dask.dataframe.Series`` (a column) of str.
        pattern, special_tokens, normalization: as in :func:`bytepair.train`.

    Returns:
        ``{piece: count}``, insertion order = first appearance.

    Raises:
        ArgumentTypeError: not a bag or a column, or an item that is not a str.
        ArgumentError: bad options; no safe cut near a partition edge.
    """
    from dask import delayed

    if not hasattr(texts, "to_delayed") or getattr(texts, "ndim", 1) != 1:  # a bag, or a column (not a frame)
        raise ArgumentTypeError(
            f"texts must be a Dask bag or a dataframe column (df['text']), got {type(texts).__name__}", field="texts"
        )
    options = CountOptions.make(pattern=pattern, special_tokens=special_tokens, normalization=normalization)
    parts = texts.to_delayed()
    window = _window()
    summary = delayed(text_summary, pure=True)
    summaries = list(_in_order([summary(p, ctx_chars=options.ctx_chars) for p in parts], window))
    jobs = plan_text_partitions(summaries, options)
    scan = delayed(scan_text_job, pure=True)
    tasks = [scan(options, [parts[j.index]], [j]) for j in jobs]

    def rescan(keys: list[TextJob], p: int) -> tuple:
        return scan(options, [parts[j.index] for j in keys], keys, p).compute()

    return stitch_counts(zip(jobs, _in_order(tasks, window)), rescan)


def dask_client(spec: str):
    """A Dask distributed client for ``spec``: ``"local:N"`` (a local cluster of N
    worker processes, one thread each, no dashboard) or a scheduler address
    (``"tcp://host:8786"``). Close it (``with`` block) when done.

    Raises:
        ArgumentError: ``local:N`` with N not a positive integer.
        ImportError: Dask is not installed (``pip install "bytepair[dask]"``).
    """
    from distributed import Client, LocalCluster

    if spec.startswith("local:"):
        n = spec.removeprefix("local:")
        if not n.isdigit() or int(n) < 1:
            raise ArgumentError(f"--dask local:N needs a positive N, got {spec!r}", field="dask")
        cluster = LocalCluster(
            n_workers=int(n), threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=40
        )
        return _Closing(Client(cluster), cluster)
    return _Closing(Client(spec), None)


class _Closing:
    """``with dask_client(spec) as client:`` closes the client and a local cluster."""

    def __init__(self, client: Any, cluster: Any) -> None:
        self.client, self.cluster = client, cluster

    def __enter__(self):
        return self.client

    def __exit__(self, *exc: object) -> None:
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()
