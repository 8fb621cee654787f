"""Incremental byte-level BPE training with minbpe's exact semantics.

Semantics (karpathy/minbpe ``RegexTokenizer.train``; Sennrich et al. 2016 for
BPE itself):

1. The text is cut at special tokens (never counted, never merged), split by
   the pattern into pieces ("none": each segment is one piece, so merges may
   cross spaces), and each piece becomes its UTF-8 bytes (ids 0..255).
2. Count every adjacent pair inside each piece, overlaps included (``aaaa``
   counts ``(a, a)`` three times).
3. Merge the most frequent pair; on equal counts the pair whose first
   occurrence in the current token sequence (pieces in text order) comes first
   - which is what ``max(stats, key=stats.get)`` over minbpe's insertion-ordered
   ``stats`` dict picks. Occurrences are replaced left to right without overlap.
4. Repeat until ``vocab_size`` is reached, no pair is left, or the best count
   falls below ``min_frequency``.

How it stays fast (nothing is recounted per merge):

* identical pieces are stored once with a weight (their number of occurrences),
  laid out one after another in order of first appearance, so "first
  occurrence in the text" == "lowest position in this layout";
* the positions form a doubly linked list (``nxt``/``prv``) so a merge
  rewrites only the positions where the pair occurs;
* every pair that ever occurs gets a small int id; ``pid[i]`` is the id of the
  pair at live position i (so the merge loop needs no token ids and no dict,
  only list indexing), and each pair keeps its weighted count and the sorted
  positions where it occurs (dead ones are skipped, a dead prefix is cut off
  when the pair reaches the top of the heap, so its first live entry is its
  first position); a heap ordered by ``(-count, first position)`` with lazy
  invalidation picks the next merge;
* little for the garbage collector to do: position lists are
  ``array.array`` objects (it does not traverse their items), and a pair with one occurrence (more
  than half of them) keeps its position as an int, with no array at all.

Each merge costs time proportional to the occurrences it touches (times a
log for the heap), so training is near-linear in the text size for every
pattern, ``"none"`` included.
"""

from __future__ import annotations

import dataclasses
import heapq
import itertools
import operator
import sys
from array import array
from collections import Counter, deque
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING

from . import specials as _specials
from .errors import ArgumentError, ArgumentTypeError
from .normalize import normalize
from .split.pretokenize import compile_pattern, resolve_pattern
from .surrogates import utf8

if TYPE_CHECKING:
    from .tokenizer import Tokenizer

__all__ = ["MergeEvent", "check_train_args", "tokenizer_from_merges", "train", "train_iter"]


@dataclasses.dataclass(frozen=True, slots=True)
class MergeEvent:
    """One learned merge.

    ``id``: the new token id (256 + merge index); ``pair``: ``(left_id,
    right_id)``; ``token``: the new token's bytes; ``count``: the pair count
    when it was chosen (overlapping occurrences included, as minbpe counts);
    ``n_tokens``: how many tokens the training text (special tokens left out)
    has after this merge - ``n_bytes / n_tokens`` is the compression so far;
    ``n_bytes``: UTF-8 bytes of that text (constant over a run).
    """

    id: int
    pair: tuple[int, int]
    token: bytes
    count: int
    n_tokens: int
    n_bytes: int

    @property
    def merge_index(self) -> int:
        """0-based merge index (``id - 256``): the order in which merges are
        learned and applied."""
        return self.id - 256

    @property
    def rank(self) -> int:
        """Deprecated alias of :attr:`merge_index` (in tiktoken a *rank* is a
        token id, which is :attr:`id` here); will be removed."""
        return self.id - 256


def check_train_args(
    vocab_size: int,
    *,
    special_tokens: Sequence[str] | None = None,
    min_frequency: int = 1,
    pattern: str | None = "cl100k_base",
    normalization: str | None = None,
    name: str = "trained",
) -> tuple[list[str], str | None]:
    """Check the training options, once, for every way to train
    (:func:`train_iter`, :func:`train`, :func:`train_iter_from_counts`,
    :func:`bytepair.corpus.train_from_counts`), before any work is done.

    Args: as :func:`train` (``vocab_size`` in tokens).

    Returns:
        ``(special token names as a list, resolved split pattern or None)``.

    Raises:
        ArgumentTypeError (a TypeError; ``field`` names the argument): a
            ``vocab_size`` / ``min_frequency`` that is not an int, ``special_tokens``
            given as one str or a dict, a special token that is not a non-empty
            str, a ``name`` that is not a str.
        ArgumentError (a ValueError; ``field``): ``vocab_size`` below 256 + the
            special tokens, ``min_frequency`` < 1, duplicate special tokens, an
            unknown normalization.
        PatternError (a ValueError, ``field="pattern"``): a bad pattern.
    """
    if not isinstance(vocab_size, int) or isinstance(vocab_size, bool):
        raise ArgumentTypeError(f"vocab_size must be an int, got {vocab_size!r}", field="vocab_size")
    if not isinstance(min_frequency, int) or isinstance(min_frequency, bool):
        raise ArgumentTypeError(f"min_frequency must be an int >= 1, got {min_frequency!r}", field="min_frequency")
    if min_frequency < 1:
        raise ArgumentError(f"min_frequency must be an int >= 1, got {min_frequency!r}", field="min_frequency")
    if not isinstance(name, str):
        raise ArgumentTypeError(f"name must be a str, got {type(name).__name__}", field="name")
    normalize("", normalization)  # ArgumentError(field="normalization") for an unknown form
    if special_tokens is None:
        names: list[str] = []
    elif isinstance(special_tokens, Mapping):
        raise ArgumentTypeError(
            "special_tokens is a list of strings; they get the ids right after the merges. "
            "For ids of your choice, call tokenizer.register_special_tokens({...}) after training",
            field="special_tokens",
        )
    elif isinstance(special_tokens, str):
        raise ArgumentTypeError(
            f"special_tokens must be a list of strings, e.g. [{special_tokens!r}], not a str", field="special_tokens"
        )
    else:
        names = list(special_tokens)
        for s in names:
            if not isinstance(s, str) or not s:
                raise ArgumentTypeError(
                    f"each special token must be a non-empty str, got {s!r}", field="special_tokens"
                )
        if len(set(names)) != len(names):
            raise ArgumentError(f"special_tokens has duplicates: {names!r}", field="special_tokens")
    if vocab_size < 256 + len(names):
        raise ArgumentError(
            f"vocab_size must be at least 256 (one token per byte) + {len(names)} special token(s) = "
            f"{256 + len(names)}, got {vocab_size}",
            field="vocab_size",
        )
    return names, resolve_pattern(pattern)


def tokenizer_from_merges(
    merges: Mapping[tuple[int, int], int],
    *,
    pattern: str | None,
    special_tokens: Sequence[str] | None,
    normalization: str | None,
    name: str,
) -> Tokenizer:
    """The :class:`bytepair.Tokenizer` of learned ``merges`` (``{(left_id, right_id): id}``)
    with ``special_tokens`` after the last merge: the last step of :func:`train` and
    :func:`bytepair.corpus.train_from_counts` (options already checked by
    :func:`check_train_args`)."""
    from .tokenizer import Tokenizer

    return Tokenizer.from_merges(
        merges, pattern=pattern, special_tokens=list(special_tokens or ()), normalization=normalization, name=name
    )


def _pieces(text: str, pattern: str | None, special_names: Sequence[str]) -> dict[str, int]:
    """Piece -> number of occurrences, in order of first appearance."""
    counts: Counter[str] = Counter()  # counted in C; a dict in insertion order
    split = compile_pattern(pattern).findall if pattern is not None else None
    for segment, is_special in _specials.split_on_specials(text, frozenset(special_names)):
        if is_special:
            continue
        counts.update(split(segment) if split is not None else (segment,))
    return counts


def train_iter(
    text: str,
    vocab_size: int,
    *,
    pattern: str | None = "cl100k_base",
    special_tokens: Sequence[str] | None = None,
    min_frequency: int = 1,
    normalization: str | None = None,
) -> Iterator[MergeEvent]:
    """Learn merges from ``text``, yielding each one as it is learned.

    Args:
        text: training text (characters).
        vocab_size: final vocabulary size in tokens: 256 byte tokens + merges +
            special tokens; at most ``vocab_size - 256 - len(special_tokens)``
            merges are learned.
        pattern: pre-tokenizer: ``"none"``, an encoding name (``"gpt2"``,
            ``"cl100k_base"``, ``"o200k_base"``, aliases ``"gpt4"``, ``"gpt4o"``) or
            a custom regex with ``\\p{..}`` classes.
        special_tokens: strings that are cut out of the text before counting
            (they get ids after the merges in :func:`train`).
        min_frequency: stop when the most frequent pair occurs fewer times.
        normalization: ``None``, ``"NFC"`` or ``"NFKC"`` applied to ``text`` first.

    Yields:
        :class:`MergeEvent` per merge. Stopping iteration early is fine.

    Raises:
        TypeError: ``text`` not a str, ``vocab_size`` not an int.
        ArgumentError (a ValueError; ``field`` names the argument):
            ``vocab_size`` too small, ``min_frequency`` < 1, duplicate
            special tokens, an unknown normalization.
        PatternError (a ValueError, ``field="pattern"``): a bad pattern.

    Example::

        >>> [(e.pair, e.id) for e in train_iter("aaabdaaabac", 259, pattern="none")]
        [((97, 97), 256), ((256, 97), 257), ((257, 98), 258)]
    """
    if not isinstance(text, str):
        raise ArgumentTypeError(
            f"text must be a str, got {type(text).__name__}; decode bytes first (data.decode('utf-8'))", field="text"
        )
    names, pattern = check_train_args(
        vocab_size,
        special_tokens=special_tokens,
        min_frequency=min_frequency,
        pattern=pattern,
        normalization=normalization,
    )
    text = normalize(text, normalization)
    counts = _pieces(text, pattern, names)
    n_merges = vocab_size - 256 - len(names)
    return _train(counts, n_merges, min_frequency)


#: Ids of the pairs of two bytes, ``1 + 256 * x + y``; pairs made by merges come after.
BYTE_PAIRS = 256 * 256


def _fill(lst: list[int] | array[int], indices: list[int], value: int) -> None:
    """``lst[i] = value`` for each i in ``indices``, looped in C (``map`` drained by a
    zero-length deque): a Python ``for`` loop cost 3-6x more, most in Pyodide."""
    deque(map(lst.__setitem__, indices, itertools.repeat(value)), maxlen=0)


def _layout(counts: dict[str, int]) -> tuple[bytes, list[int], array[int], array[int], list[int], int]:
    """Lay out every distinct piece once: ``(data, wt, nxt, prv, last, n_bytes)``.

    ``data[i]``: the byte at position i (the pieces' UTF-8 joined);
    ``wt[i]``: occurrences of the piece holding position i; ``nxt``/``prv``
    (arrays): the next/previous live position in the same piece, -1 at the
    piece's ends; ``last``: each piece's last position; ``n_bytes``: UTF-8
    bytes of the text the pieces came from. Lone surrogates become U+FFFD
    first, as in encoding. Built with whole-list operations (no loop per byte).
    """
    try:  # one C call per piece (utf8() is a Python call: a tenth of the layout's time)
        datas = list(map(str.encode, counts))
    except UnicodeEncodeError:  # lone surrogates
        datas = list(map(utf8, counts))
    weights = list(counts.values())
    if "" in counts:
        weights = [c for piece, c in counts.items() if piece]
        datas = list(filter(None, datas))
    lens = list(map(len, datas))
    data = b"".join(datas)
    n = len(data)
    wt = list(itertools.chain.from_iterable(map(itertools.repeat, weights, lens)))
    ends = list(itertools.accumulate(lens))
    last = [e - 1 for e in ends]
    # arrays, not lists: compact (4 bytes a position, no int objects), nothing
    # for the garbage collector to traverse; the merge loop ran ~10% faster
    pos = array("i" if n < 2**31 - 2 else "q", range(-1, n + 1))
    prv = pos[:n]
    nxt = pos[2:]
    del pos
    _fill(nxt, last, -1)
    _fill(prv, ends[:-1], -1)
    return data, wt, nxt, prv, last, sum(map(operator.mul, lens, weights))


def _byte_pair_ids(data: bytes) -> list[int]:
    """``[1 + 256 * data[i] + data[i + 1] for i in range(len(data) - 1)]`` followed
    by two or three placeholders (the :data:`BYTE_PAIRS` id of the pair
    starting at each position), built without a loop per byte: the pairs at
    even and odd positions are read as big-endian 16-bit words, and equal ids
    share one int object (a million fresh ints cost tens of MB and cache
    misses in the merge loop). About half the time of mapping over the bytes
    twice, on CPython and in Pyodide."""
    m = len(data) + len(data) % 2  # even
    padded = data + b"\0\0"
    even = array("H", padded[:m])  # the pairs at 0, 2, ..., m - 2
    odd = array("H", padded[1 : m + 1])  # the pairs at 1, 3, ..., m - 1
    if sys.byteorder == "little":
        even.byteswap()
        odd.byteswap()
    ids = list(range(1, BYTE_PAIRS + 1))
    pid = [0] * (m + 2)
    pid[0:m:2] = map(ids.__getitem__, even)
    pid[1:m:2] = map(ids.__getitem__, odd)
    return pid


def _train(counts: dict[str, int], n_merges: int, min_frequency: int) -> Iterator[MergeEvent]:
    data, wt, nxt, prv, last, n_bytes = _layout(counts)
    del counts  # a copy (train_iter_from_counts) or the in-memory pieces: not needed past the layout
    n_tokens = n_bytes
    n = len(data)

    # ---- pair index. Every pair that ever occurs gets a small int id p (0 is
    # "no pair"): left[p], right[p] its token ids, cnt[p] its weighted count, wh[p]
    # the sorted positions where it occurred (an ``array``), one[p] the first of
    # them (wh[p] is None while a pair has only that one: no array object for
    # more than half of the pairs). pid[i] is the id of the
    # pair starting at live position i (0 at a piece's last position and at
    # dead positions), kept exact: "p still occurs at i" is ``pid[i] == p``,
    # and the token at a position is the left id of its pair (the merge loop
    # reads no token ids). A position list never grows after the merge that
    # created its pair (only pairs with the newest token gain occurrences), so
    # it only goes stale: dead entries are skipped when used, and a dead prefix
    # is cut off when the pair reaches the top of the heap (then wh[p][0] is
    # its exact first position).
    # Ids: the pair of bytes (x, y) is 1 + 256 * x + y (a dense table of
    # 65,536 slots, most of them unused), so the index is built by list
    # indexing alone (no hashing of pair keys: 32-bit Pyodide hashes ints
    # modulo 2**31 - 1, and a dict over a million keys cost more there than on
    # CPython); pairs made by merges get ids from BYTE_PAIRS + 1 on. Ids never
    # decide a tie (first positions do), so the numbering leaves merges as
    # they are.
    # (through ``ids``, so that positions share one int object per pair: a
    # million fresh ints would cost tens of MB and cache misses in the loop)
    pid = _byte_pair_ids(data)
    del pid[n:]
    _fill(pid, last, 0)  # a piece's last position: no pair
    del last
    tc = "i" if n < 2**31 else "q"  # array type of positions
    left = [0, *(x for x in range(256) for _ in range(256))]
    right = [0, *range(256)] + list(range(256)) * 255
    # position lists are arrays: the garbage collector does not traverse them
    # (traversing lists of positions was most of its work: ~10% of a run); one
    # only for the pairs that occur (a few thousand of the 65,536)
    empty = array(tc)
    occ: list[array[int]] = [empty] * len(left)
    for p in set(pid):
        occ[p] = array(tc)
    for i, p in enumerate(pid):
        occ[p].append(i)
    occ[0] = empty
    one = [lst[0] if lst else 0 for lst in occ]
    if max(wt, default=1) == 1:
        cnt = list(map(len, occ))
    else:  # a loop of its own: less than mapping wt.__getitem__ over the positions, most in Pyodide
        cnt = [0] * len(occ)
        for p, w in zip(pid, wt):
            cnt[p] += w
        cnt[0] = 0
    # wh: the positions of pairs that occur more than once (one: the first of each pair)
    wh: list[array[int] | None] = [lst if len(lst) > 1 else None for lst in occ]
    del occ
    # heap entries (-count, first position, id), packed into one int so the
    # heap holds no tuples (the garbage collector tracks tuples, and traversing
    # hundreds of thousands of them cost ~10% of a multilingual run):
    # ``(top - count) << cshift | first << pbits | id``. Ordering by the int is
    # ordering by (-count, first). count may be too high and first too low
    # (both only move that way between pushes); fixed when popped.
    pbits = (BYTE_PAIRS + 2 * n + 2).bit_length()  # ids: <= 65,536 byte pairs + 2 per merged occurrence
    pmask = (1 << pbits) - 1
    cshift = pbits + max(1, n).bit_length()
    fmask = (1 << (cshift - pbits)) - 1
    top = n_bytes + 1  # above every count
    heap = [((top - c) << cshift) | (one[p] << pbits) | p for p, c in enumerate(cnt) if c]
    heapq.heapify(heap)
    # lz[x] / rz[y]: id of the pair (x, z) / (z, y) made by the current merge z,
    # valid when >= base (the first id that merge hands out)
    lz = [0] * (256 + n_merges)
    rz = [0] * (256 + n_merges)

    # each token's length in bytes; its bytes are data[f : f + length] at a position f where it
    # occurs, read for its merge's event only: keeping every token whole grew as the square of the
    # merges once pairs are unique (no pre-tokenizer: 1.7 GB at 56,000 merges of 1.5 MB of text, and
    # past 2 GB the Pyodide heap failed, issue 19)
    size = [1] * 256
    pop, push, replace = heapq.heappop, heapq.heappush, heapq.heapreplace

    for z in range(256, 256 + n_merges):
        # ---- pick: highest count, then lowest first position
        while heap:
            e = heap[0]
            p = e & pmask
            c = cnt[p]
            if c == 0:
                pop(heap)
                wh[p] = None
                continue
            # position lists are sorted: drop the dead prefix (c > 0, so a
            # live occurrence is left); then lst[0] is the exact first position
            lst = wh[p]
            if lst is None:
                f = one[p]
            else:
                k = 0
                while pid[lst[k]] != p:
                    k += 1
                if k:
                    del lst[:k]
                f = lst[0]
            if top - c != e >> cshift or f != (e >> pbits) & fmask:
                replace(heap, ((top - c) << cshift) | (f << pbits) | p)
                continue
            pop(heap)
            break
        else:
            return
        if c < min_frequency:
            return
        pair_count = c

        # ---- merge every occurrence, left to right
        positions: Sequence[int] | None = wh[p]
        if positions is None:
            positions = (one[p],)
        wh[p] = None
        base = len(cnt)  # pairs made in this merge (they involve z) get ids from here
        for i in positions:
            if pid[i] != p:  # no longer there (dead, or taken by an overlapping occurrence)
                continue
            j = nxt[i]
            c = wt[i]
            h = prv[i]
            k = nxt[j]
            nxt[i] = k
            # The left-neighbour and right-neighbour updates below mirror each other on
            # purpose: this is the trainer's hot loop, and a shared helper (a call per
            # occurrence) costs more than the repetition (see tools/bench_train_large.py).
            if h >= 0:
                q = pid[h]  # the pair (x, a) at h is gone
                cnt[q] -= c
                x = left[q]
                q = lz[x]  # (x, z) at h is new
                if q < base:
                    q = lz[x] = len(cnt)
                    cnt.append(c)
                    wh.append(None)
                    one.append(h)
                    left.append(x)
                    right.append(z)
                else:
                    cnt[q] += c
                    lst = wh[q]
                    if lst is None:
                        wh[q] = array(tc, (one[q], h))
                    else:
                        lst.append(h)
                pid[h] = q
            if k >= 0:
                prv[k] = i
                q = pid[j]  # the pair (b, y) at j is gone (p itself when it overlaps: b == a, y == b)
                cnt[q] -= c
                y = right[q]
                q = rz[y]  # (z, y) at i is new
                if q < base:
                    q = rz[y] = len(cnt)
                    cnt.append(c)
                    wh.append(None)
                    one.append(i)
                    left.append(z)
                    right.append(y)
                else:
                    cnt[q] += c
                    lst = wh[q]
                    if lst is None:
                        wh[q] = array(tc, (one[q], i))
                    else:
                        lst.append(i)
                pid[i] = q
            else:
                pid[i] = 0
            pid[j] = 0
        for q in range(base, len(cnt)):
            # positions were appended in increasing order, so wh[q][0] is
            # the lowest (a lower bound if a later occurrence took it away)
            c = cnt[q]
            if c:
                push(heap, ((top - c) << cshift) | (one[q] << pbits) | q)
            else:
                wh[q] = None

        # cnt[p] lost exactly the occurrences that overlapped a merged one (the
        # "gone (b, y)" update above): what is left is the number merged
        merged = cnt[p]
        n_tokens -= merged
        a, b = left[p], right[p]
        length = size[a] + size[b]
        size.append(length)
        token = data[f : f + length]  # f: the pair's first position when it was picked
        yield MergeEvent(id=z, pair=(a, b), token=token, count=pair_count, n_tokens=n_tokens, n_bytes=n_bytes)


def train(
    text: str,
    vocab_size: int,
    *,
    pattern: str | None = "cl100k_base",
    special_tokens: Sequence[str] | None = None,
    min_frequency: int = 1,
    normalization: str | None = None,
    name: str = "trained",
) -> Tokenizer:
    """Train a tokenizer on ``text`` (see :func:`train_iter` for the arguments).

    Special tokens get the ids right after the last merge, in the order given.

    Returns:
        A :class:`bytepair.Tokenizer` with ``n_vocab <= vocab_size`` (fewer when
        training ran out of pairs).
    """
    check_train_args(
        vocab_size,
        special_tokens=special_tokens,
        min_frequency=min_frequency,
        pattern=pattern,
        normalization=normalization,
        name=name,
    )
    events = train_iter(
        text,
        vocab_size,
        pattern=pattern,
        special_tokens=special_tokens,
        min_frequency=min_frequency,
        normalization=normalization,
    )
    merges = {ev.pair: ev.id for ev in events}
    return tokenizer_from_merges(
        merges, pattern=pattern, special_tokens=special_tokens, normalization=normalization, name=name
    )


def train_iter_from_counts(
    counts: Mapping[str, int],
    vocab_size: int,
    *,
    special_tokens: Sequence[str] | None = None,
    min_frequency: int = 1,
) -> Iterator[MergeEvent]:
    """Learn merges from piece counts instead of text (corpora larger than memory).

    Args:
        counts: ``{piece: occurrences}``, insertion order = first appearance in
            the text (the tie rule depends on it); pieces as the pattern cut
            them, special tokens left out. :func:`bytepair.corpus.count_pieces`
            makes them from files.
        vocab_size, special_tokens, min_frequency: as in :func:`train_iter`.

    Yields:
        :class:`MergeEvent` per merge; the same as :func:`train_iter` on the text.

    Raises:
        TypeError: a piece that is not a str or a count that is not an int.
        ValueError: a count < 1, ``vocab_size`` too small.
    """
    names, _ = check_train_args(vocab_size, special_tokens=special_tokens, min_frequency=min_frequency, pattern=None)
    for piece, c in counts.items():
        if not isinstance(piece, str) or not isinstance(c, int) or isinstance(c, bool):
            raise TypeError(f"counts maps str pieces to int counts, got {piece!r}: {c!r}")
        if c < 1:
            raise ValueError(f"piece {piece!r} has count {c}; counts are >= 1")
    return _train(dict(counts), vocab_size - 256 - len(names), min_frequency)
