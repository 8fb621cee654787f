"""Train on corpora larger than memory: stream text, count pieces in parallel, learn from counts.

Training (:mod:`bytepair.trainer`) needs only how often each distinct piece
(pre-token) occurs, in order of first appearance (minbpe's tie rule: on equal
pair counts, the pair seen first in the text wins). This module computes those
counts from files of any size with memory bounded by the number of distinct
pieces, not the corpus size, and spreads the pre-tokenizing over processes:

1. :func:`read_chunks` reads files (or stdin) as bytes and decodes UTF-8
   incrementally (a character split between two reads is kept whole), cutting
   the text into chunks of about ``chunk_chars`` characters, never inside a
   special-token string and, with normalization, only right before an ASCII
   character (NFC/NFKC never join a character with a following ASCII one, so
   normalizing chunk by chunk gives the same text).
2. Each chunk goes to a worker process with the last characters of the chunk
   before it (for look-behinds) and the first characters of the chunk after it
   (for look-aheads and for pieces that run over the cut). The worker splits
   the text at special tokens, runs the split pattern from the chunk's start
   and counts the pieces that start inside the chunk.
3. The pieces a regex finds depend on where its search starts, and the first
   piece of a chunk may really have started in the chunk before (a cut inside
   a word, between ``\\r`` and ``\\n``, inside a run of spaces). The parent
   stitches: the search continues where the previous chunk's last piece ended;
   the worker reports its first pieces one by one, and from the first place
   where both searches stand at the same position they are the same search.
   If they never meet within those pieces, or a piece runs past the look-ahead,
   the parent scans that chunk itself from the right position (slower, exact).

The result equals ``bytepair.trainer``'s counting of the whole text at once,
for every pattern whose matches and look-arounds reach at most
``LOOKAHEAD_CHARS`` characters past a chunk's end (the OpenAI patterns look one
character ahead); ``tests/core/test_corpus.py`` checks that at awkward cuts.
``pattern="none"`` (each text between special tokens is one piece) cannot be
bounded: the text between special tokens is held whole.

Counts files (``--counts`` on the command line; :func:`read_counts` /
:func:`write_counts`), two formats, pieces in order of first appearance:

* TSV (``.tsv``; any other extension): one piece per line, ``count<TAB>piece``,
  where the piece is written with the escapes ``\\\\`` (backslash), ``\\t``,
  ``\\n``, ``\\r`` and nothing else; UTF-8.
* JSON (``.json``): ``[["piece", count], ...]`` or ``{"piece": count, ...}``.

Produce one with ``bytepair pieces FILE... -o counts.tsv``, or with any tool
that splits text with the same pattern: e.g. Python's ``regex.findall`` plus a
``dict`` (insertion order is first appearance), then write the lines.
"""

from __future__ import annotations

import codecs
import concurrent.futures
import glob
import json
import os
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import IO, Any

from . import specials as _specials
from .errors import ArgumentError, BytepairError, TokenizerFileError
from .formats.jsonguard import load_json
from .normalize import normalize
from .split.pretokenize import compile_pattern, resolve_pattern
from .trainer import check_train_args, tokenizer_from_merges, train_iter_from_counts  # the last: public here too

__all__ = [
    "CHUNK_CHARS",
    "LOOKAHEAD_CHARS",
    "InputDecodeError",
    "count_pieces",
    "expand_sources",
    "read_chunks",
    "read_counts",
    "stitch_counts",
    "train_from_counts",
    "train_iter_from_counts",
    "write_counts",
]

#: Default chunk size in characters.
CHUNK_CHARS = 1 << 20
#: Characters of the next chunk each worker sees past its chunk's end.
LOOKAHEAD_CHARS = 4096
#: Characters of the previous chunk each worker sees before its chunk (for look-behinds).
CONTEXT_CHARS = 256
#: A piece ending this close to the end of what a worker saw is not trusted.
_SAFETY = 256
#: Pieces per chunk that the worker reports one by one for stitching.
_HEAD = 32
_READ_BYTES = 1 << 20


class InputDecodeError(BytepairError, ValueError):
    """Input that is not valid UTF-8. ``path``, ``line`` (1-based) and
    ``byte_offset`` (0-based, in the file) say where."""

    type_name = "input_decode"

    def __init__(self, message: str, *, path: str, line: int, byte_offset: int) -> None:
        super().__init__(message, field="file")
        self.path, self.line, self.byte_offset = path, line, byte_offset

    def details(self) -> dict[str, Any]:
        return {"path": self.path, "line": self.line, "byte_offset": self.byte_offset}


# ------------------------------------------------------------------ reading
def expand_sources(sources: Iterable[str]) -> list[str]:
    """File names, glob patterns (``*.txt``, ``**/*.md``) or ``-`` (stdin) -> paths in order.

    Raises:
        ArgumentError: a name that is no file and a glob that matches nothing.
    """
    out: list[str] = []
    for s in sources:
        if s == "-" or os.path.isfile(s):
            out.append(s)
            continue
        if os.path.isdir(s):
            raise ArgumentError(f"{s} is a directory; give files or a glob such as '{s}/**/*.txt'", field="files")
        matches = sorted(p for p in glob.glob(s, recursive=True) if os.path.isfile(p))
        if not matches:
            raise ArgumentError(f"no such file: {s}", field="files")
        out.extend(matches)
    return out


def _raw_stream(source: str | IO[bytes]) -> tuple[IO[bytes], str, bool]:
    if not isinstance(source, str):
        return source, getattr(source, "name", "<stream>"), False
    if source == "-":
        return sys.stdin.buffer, "<stdin>", False
    return open(source, "rb"), source, True


def _decode_error(
    name: str, done: bytes, total_before: int, lines_before: int, e: UnicodeDecodeError
) -> InputDecodeError:
    offset = total_before + e.start
    line = lines_before + done[: e.start].count(b"\n") + 1
    return InputDecodeError(
        f"{name}: invalid UTF-8 at line {line} (byte offset {offset}): {e.reason}; "
        "convert the file to UTF-8, or pass --errors replace to read such bytes as U+FFFD",
        path=name,
        line=line,
        byte_offset=offset,
    )


def read_text(
    sources: Sequence[str | IO[bytes]], *, errors: str = "strict", on_bytes: Callable[[int], None] | None = None
) -> Iterator[str]:
    """The text of ``sources`` one after another (as ``cat`` joins them), in pieces of any size.

    Args:
        sources: paths, ``"-"`` for stdin, or binary streams.
        errors: ``"strict"`` (raise on invalid UTF-8) or ``"replace"`` (U+FFFD).
        on_bytes: called with the number of bytes read after each read.

    Yields:
        Decoded text (characters); a character split between two reads is
        yielded whole.

    Raises:
        InputDecodeError: invalid UTF-8 with ``errors="strict"`` (file, line, byte offset).
    """
    for source in sources:
        stream, name, close = _raw_stream(source)
        try:
            dec = codecs.getincrementaldecoder("utf-8")(errors)
            total = lines = 0
            while True:
                data = stream.read(_READ_BYTES)
                final = not data
                try:
                    text = dec.decode(data, final)
                except UnicodeDecodeError as e:
                    pending, _ = dec.getstate()
                    buf = pending + data if not final else pending
                    raise _decode_error(name, buf, total - len(pending), lines, e) from e
                if data:
                    total += len(data)
                    lines += data.count(b"\n")
                    if on_bytes is not None:
                        on_bytes(len(data))
                if text:
                    yield text
                if final:
                    break
        finally:
            if close:
                stream.close()


def _safe_cut(text: str, want: int, special_rx, ascii_only: bool) -> int:
    """A cut at most ``want`` and above ``want - 65536``, outside special tokens,
    right before an ASCII character if ``ascii_only``; 0 if there is none."""
    lo = max(1, want - 65536)
    b = want
    while b >= lo:
        if ascii_only and not text[b].isascii():
            b -= 1
            continue
        if special_rx is not None:
            hit = next(
                (
                    m
                    for m in special_rx.finditer(text, max(0, b - 512), min(len(text), b + 512))
                    if m.start() < b < m.end()
                ),
                None,
            )
            if hit is not None:
                b = hit.start()
                continue
        return b
    return 0


def read_chunks(
    texts: Iterable[str], *, chunk_chars: int = CHUNK_CHARS, special_tokens: Sequence[str] = (), ascii_cuts: bool = True
) -> Iterator[str]:
    """Re-cut a stream of text into chunks of about ``chunk_chars`` characters.

    Cuts never fall inside one of ``special_tokens``, and with ``ascii_cuts``
    only right before an ASCII character (where NFC/NFKC normalization can
    treat the two sides separately); a chunk with no such place grows until
    one comes. Joined, the chunks are the input text.
    """
    rx = _specials.special_regex(frozenset(special_tokens))
    pending = ""
    for t in texts:
        pending += t
        while len(pending) > chunk_chars:
            b = _safe_cut(pending, chunk_chars, rx, ascii_cuts)
            if b == 0 and len(pending) > 2 * chunk_chars + 65536:
                b = _safe_cut(pending, len(pending) - 1, rx, ascii_cuts)
            if b == 0:
                break
            yield pending[:b]
            pending = pending[b:]
    if pending:
        yield pending


# ------------------------------------------------------------------ counting


def _scan(
    pattern: str,
    special_names: tuple[str, ...],
    form: str | None,
    ctx: str,
    chunk: str,
    ext: str,
    start: int,
    at_eof: bool,
    head_n: int,
) -> tuple[list[tuple[int, int, str | None]], dict[str, int], int, bool, int]:
    """Scan one chunk from ``start`` (characters, relative to the chunk).

    Returns ``(head, counts, resume, complete, chunk_len)``: the first
    ``head_n`` events ``(start, end, piece or None for a special token)``
    relative to the chunk; the counts of the later pieces that start inside the
    chunk; the search position after the last event; whether every event
    starting in the chunk is trusted (ends well before the end of what this
    scan saw); the chunk's length after normalization.
    """
    if form is not None:
        ctx, chunk, ext = normalize(ctx, form), normalize(chunk, form), normalize(ext, form)
    split = compile_pattern(pattern)
    a = len(ctx)
    b = a + len(chunk)
    text = ctx + chunk + ext
    safety = _SAFETY + max(map(len, special_names), default=0)
    limit = len(text) if at_eof else len(text) - safety
    head: list[tuple[int, int, str | None]] = []
    counts: dict[str, int] = {}
    resume = start
    pos = 0
    origin = a + start
    for seg, is_special in _specials.split_on_specials(text, frozenset(special_names)):
        seg_start, pos = pos, pos + len(seg)
        if pos <= origin:
            continue
        if seg_start >= b:
            break
        if is_special:
            if seg_start < origin:
                continue  # began before the search position: counted with the chunk before
            if pos > limit:
                return head, counts, resume, False, len(chunk)
            if len(head) < head_n:
                head.append((seg_start - a, pos - a, None))
            resume = pos - a
            continue
        for m in split.finditer(seg, max(origin, seg_start) - seg_start):
            s, e = m.start() + seg_start, m.end() + seg_start
            if s >= b:
                break
            if e > limit:
                return head, counts, resume, False, len(chunk)
            piece = m.group()
            if len(head) < head_n:
                head.append((s - a, e - a, piece))
            else:
                counts[piece] = counts.get(piece, 0) + 1
            resume = e - a
    return head, counts, resume, True, len(chunk)


def _scan_job(args):
    return _scan(*args)


def _ignore_sigint() -> None:
    """Worker initializer: Ctrl+C is the parent's to handle (no traceback from every worker)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _add(total: dict[str, int], counts: Mapping[str, int]) -> None:
    get = total.get
    for p, c in counts.items():
        total[p] = get(p, 0) + c


def check_count_options(
    *, pattern: str | None, special_tokens: Sequence[str], normalization: str | None
) -> tuple[str | None, tuple[str, ...]]:
    """Check the counting options of :func:`count_pieces` (and ``cluster_count``'s), once.

    Returns:
        ``(regex, special_tokens)``: the resolved split pattern (``None`` for ``"none"``: no
        split) and the special tokens as a tuple.

    Raises:
        ArgumentError: a special token that is not a non-empty ``str`` (field ``special_tokens``),
            an unknown normalization (``normalization``) or a bad pattern (``pattern``).
    """
    names = tuple(special_tokens)
    for s in names:
        if not isinstance(s, str) or not s:
            raise ArgumentError(f"each special token must be a non-empty str, got {s!r}", field="special_tokens")
    try:
        normalize("", normalization)
    except ValueError as e:
        raise ArgumentError(str(e), field="normalization") from e
    try:
        pat = resolve_pattern(pattern)
    except ValueError as e:
        raise ArgumentError(str(e), field="pattern") from e
    return pat, names


def count_pieces(
    texts: Iterable[str],
    *,
    pattern: str | None = "cl100k_base",
    special_tokens: Sequence[str] = (),
    normalization: str | None = None,
    workers: int | None = None,
    chunk_chars: int = CHUNK_CHARS,
    on_chunk: Callable[[int], None] | None = None,
) -> dict[str, int]:
    """Piece -> occurrences, in order of first appearance, of the joined ``texts``.

    Equal to what :func:`bytepair.train` counts on ``"".join(texts)`` (text
    cut at ``special_tokens``, split by ``pattern``, after ``normalization``),
    computed chunk by chunk, in ``workers`` processes (see the module docstring).

    Args:
        texts: the text in pieces of any size (e.g. :func:`read_text`).
        pattern: as in :func:`bytepair.train` (``"none"``: the text between
            special tokens is one piece and is held whole).
        special_tokens: strings cut out of the text (never counted).
        normalization: ``None``, ``"NFC"`` or ``"NFKC"``.
        workers: processes (default: ``os.cpu_count()``; 1 or 0 = in this process).
        chunk_chars: characters per chunk.
        on_chunk: called with each chunk's length (characters) once it is counted.

    Returns:
        ``{piece: count}`` (empty pieces left out), insertion order = first appearance.

    Raises:
        ArgumentError: bad pattern, normalization or special tokens.
    """
    pat, names = check_count_options(pattern=pattern, special_tokens=special_tokens, normalization=normalization)
    if pat is None:
        return _count_whole(texts, names, normalization, on_chunk)
    chunk_chars = max(int(chunk_chars), 1)
    if workers is None:
        workers = os.cpu_count() or 1
    ctx_chars = CONTEXT_CHARS + max(map(len, names), default=0)
    chunks = read_chunks(texts, chunk_chars=chunk_chars, special_tokens=names, ascii_cuts=normalization is not None)

    def jobs() -> Iterator[tuple[str, str, str, bool]]:
        # (context before, chunk, look-ahead, chunk ends the text), one chunk read ahead
        prev, cur = "", None
        for nxt in chunks:
            if cur is not None:
                yield prev[-ctx_chars:], cur, nxt[:LOOKAHEAD_CHARS], False
                prev = cur
            cur = nxt
        if cur is not None:
            yield prev[-ctx_chars:], cur, "", True

    def results() -> Iterator[tuple[tuple[str, str, str, bool], Any]]:
        if workers <= 1:
            for job in jobs():
                yield job, _scan(pat, names, normalization, job[0], job[1], job[2], 0, job[3], _HEAD)
            return
        with concurrent.futures.ProcessPoolExecutor(max_workers=workers, initializer=_ignore_sigint) as pool:
            inflight: list = []
            for job in jobs():
                args = (pat, names, normalization, job[0], job[1], job[2], 0, job[3], _HEAD)
                inflight.append((job, pool.submit(_scan_job, args)))
                while len(inflight) > 2 * workers:
                    jb, fut = inflight.pop(0)
                    yield jb, fut.result()
            for jb, fut in inflight:
                yield jb, fut.result()

    def rescan(keys: list[tuple[str, str, str, bool]], p: int):
        # the worker's search did not meet the true one: scan here from the true position
        ctx, chunk = keys[0][0], "".join(k[1] for k in keys)
        return _scan(pat, names, normalization, ctx, chunk, keys[-1][2], p, keys[-1][3], 0)

    def done(keys: list[tuple[str, str, str, bool]]) -> None:
        if on_chunk is not None:
            on_chunk(sum(len(k[1]) for k in keys))

    return stitch_counts(results(), rescan, on_done=done)


def stitch_counts(
    results: Iterable[tuple[Any, tuple | None]],
    rescan: Callable[[list[Any], int], tuple],
    *,
    on_done: Callable[[list[Any]], None] | None = None,
) -> dict[str, int]:
    """Join the scans of consecutive chunks into the counts of the whole text.

    Args:
        results: ``(key, scan)`` per chunk, in text order; ``scan`` is what
            ``_scan`` returned for the chunk searched from its start (``head``
            events, counts, resume, complete, normalized length), or ``None``.
            ``key`` is anything that names the chunk for ``rescan``.
        rescan: ``rescan(keys, p)`` -> the scan (no head) of the chunks named by
            ``keys`` joined, searched from ``p`` (characters into the first one,
            after normalization); called when a chunk's own search did not meet
            the true one, or with several keys when a piece ran past the look-ahead.
        on_done: called with the keys of each chunk (or run of chunks) once counted.

    Returns:
        ``{piece: count}``, insertion order = first appearance in the whole text.
    """
    total: dict[str, int] = {}
    p = 0  # the search position, relative to the start of the next chunk (<= 0: its start)
    carry: list[Any] = []  # keys of chunks scanned together (a piece ran past the look-ahead)
    for key, res in results:
        if carry:
            carry.append(key)
            res = None
        else:
            carry = [key]
        p = max(p, 0)
        if res is not None:
            head, counts, resume, complete, nlen = res
            positions = [0] + [e for _, e, _ in head]
            if complete and p in positions:
                for _, _, piece in head[positions.index(p) :]:
                    if piece:
                        total[piece] = total.get(piece, 0) + 1
                _add(total, counts)
                p = resume - nlen
                if on_done is not None:
                    on_done(carry)
                carry = []
                continue
        _, counts, resume, complete, nlen = rescan(carry, p)
        if not complete:  # a piece runs past the look-ahead: scan it together with the next chunk
            continue
        _add(total, counts)
        p = resume - nlen
        if on_done is not None:
            on_done(carry)
        carry = []
    total.pop("", None)
    return total


def _count_whole(
    texts: Iterable[str], names: tuple[str, ...], form: str | None, on_chunk: Callable[[int], None] | None
) -> dict[str, int]:
    """``pattern="none"``: each text between special tokens is one piece."""
    text = "".join(texts)
    if on_chunk is not None:
        on_chunk(len(text))
    text = normalize(text, form)
    counts: dict[str, int] = {}
    for seg, is_special in _specials.split_on_specials(text, frozenset(names)):
        if not is_special:
            counts[seg] = counts.get(seg, 0) + 1
    return counts


# ------------------------------------------------------------------ training
def train_from_counts(
    counts: Mapping[str, int],
    vocab_size: int,
    *,
    pattern: str | None = "cl100k_base",
    special_tokens: Sequence[str] | None = None,
    min_frequency: int = 1,
    normalization: str | None = None,
    name: str = "trained",
    on_merge: Callable[[Any], None] | None = None,
):
    """A :class:`bytepair.Tokenizer` trained from piece counts.

    ``train_from_counts(count_pieces(texts, pattern=P, ...), N, pattern=P, ...)``
    equals ``bytepair.train("".join(texts), N, pattern=P, ...)``.

    Args:
        counts: ``{piece: occurrences}`` in order of first appearance (pieces
            as the pattern cut them; special tokens left out).
        vocab_size: 256 byte tokens + merges + special tokens.
        pattern, normalization: stored in the tokenizer (the counts must have
            been made with them).
        special_tokens: get the ids after the last merge, in order.
        min_frequency: stop when the best pair occurs fewer times.
        name: the tokenizer's name.
        on_merge: called with each :class:`bytepair.MergeEvent`; raising
            ``KeyboardInterrupt`` in it (or pressing Ctrl+C) keeps the merges
            learned so far, see :func:`learn_merges`.

    Returns:
        The tokenizer.

    Raises:
        ArgumentError / ArgumentTypeError / PatternError (``field`` names the
            argument): any option :func:`bytepair.trainer.check_train_args`
            refuses, raised before learning starts; TypeError / ValueError:
            bad counts (see :func:`bytepair.trainer.train_iter_from_counts`).
    """
    check_train_args(
        vocab_size,
        special_tokens=special_tokens,
        min_frequency=min_frequency,
        pattern=pattern,
        normalization=normalization,
        name=name,
    )
    merges, _ = learn_merges(
        counts, vocab_size, special_tokens=special_tokens, min_frequency=min_frequency, on_merge=on_merge
    )
    return tokenizer_from_merges(
        merges, pattern=pattern, special_tokens=special_tokens, normalization=normalization, name=name
    )


def learn_merges(
    counts: Mapping[str, int],
    vocab_size: int,
    *,
    special_tokens: Sequence[str] | None = None,
    min_frequency: int = 1,
    on_merge: Callable[[Any], None] | None = None,
) -> tuple[dict[tuple[int, int], int], bool]:
    """Merges learned from ``counts``; ``(merges, interrupted)``.

    A ``KeyboardInterrupt`` (Ctrl+C) during learning stops it and returns the
    merges learned so far with ``interrupted=True``: each merge is final the
    moment it is learned, so a prefix of them is a valid, smaller tokenizer.
    """
    merges: dict[tuple[int, int], int] = {}
    try:
        for ev in train_iter_from_counts(
            counts, vocab_size, special_tokens=special_tokens, min_frequency=min_frequency
        ):
            merges[ev.pair] = ev.id
            if on_merge is not None:
                on_merge(ev)
    except KeyboardInterrupt:
        return merges, True
    return merges, False


# ------------------------------------------------------------------ counts files
def _unescape(s: str, where: str) -> str:
    out = []
    i = 0
    while i < len(s):
        c = s[i]
        if c == "\\":
            e = s[i + 1 : i + 2]
            if e not in ("\\", "t", "n", "r"):
                raise TokenizerFileError(f"{where}: unknown escape \\{e} (use \\\\, \\t, \\n, \\r)", where=where)
            out.append({"\\": "\\", "t": "\t", "n": "\n", "r": "\r"}[e])
            i += 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


def _escape(s: str) -> str:
    return s.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")


def read_counts(path: str) -> dict[str, int]:
    """Read a counts file (TSV ``count<TAB>piece`` or JSON; see the module docstring).

    Raises:
        TokenizerFileError: a malformed line (``where`` = ``"line N"``), a
            count that is not a positive integer, a repeated piece.
    """
    with open(path, "rb") as f:
        data = f.read()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        at = data[: e.start].count(b"\n") + 1
        raise TokenizerFileError(f"{path}: not UTF-8 at line {at} (byte {e.start})", where=f"line {at}") from e
    counts: dict[str, int] = {}
    if path.endswith(".json"):
        obj = load_json(text, what=path)
        items = obj.items() if isinstance(obj, dict) else obj
        if not isinstance(items, (list, type({}.items()))):
            raise TokenizerFileError(f'{path}: expected [["piece", count], ...] or {{"piece": count}}')
        for k, item in enumerate(items):
            if not (
                isinstance(item, (list, tuple))
                and len(item) == 2
                and isinstance(item[0], str)
                and isinstance(item[1], int)
                and not isinstance(item[1], bool)
                and item[1] > 0
            ):
                raise TokenizerFileError(
                    f"{path}: entry {k}: expected [piece, positive count], got {item!r}", where=f"entry {k}"
                )
            if item[0] in counts:
                raise TokenizerFileError(f"{path}: entry {k}: piece {item[0]!r} appears twice", where=f"entry {k}")
            counts[item[0]] = item[1]
        return counts
    for n, line in enumerate(text.split("\n"), 1):
        if line == "":
            continue
        line = line.removesuffix("\r")
        where = f"line {n}"
        c, tab, piece = line.partition("\t")
        if not tab or not c.isdigit() or int(c) <= 0:
            raise TokenizerFileError(
                f"{path}: {where}: expected count<TAB>piece with a positive count, got {line[:60]!r}", where=where
            )
        piece = _unescape(piece, f"{path}: {where}")
        if piece in counts:
            raise TokenizerFileError(f"{path}: {where}: piece {piece!r} appears twice", where=where)
        counts[piece] = int(c)
    return counts


def write_counts(counts: Mapping[str, int], out: IO[str], *, fmt: str = "tsv") -> None:
    """Write ``counts`` to the text stream ``out`` as ``"tsv"`` or ``"json"`` (see the module docstring)."""
    if fmt == "json":
        out.write("[\n")
        items = list(counts.items())
        for k, (p, c) in enumerate(items):
            out.write(f"  [{json.dumps(p, ensure_ascii=False)}, {c}]" + (",\n" if k < len(items) - 1 else "\n"))
        out.write("]\n")
        return
    if fmt != "tsv":
        raise ArgumentError(f"unknown counts format {fmt!r}: use 'tsv' or 'json'", field="format")
    for p, c in counts.items():
        out.write(f"{c}\t{_escape(p)}\n")
