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
* the symbols live in arrays with a doubly linked list (``nxt``/``prv``) so a
  merge rewrites only the positions where the pair occurs;
* every pair keeps the sorted list of positions where it occurs (dead ones
  are skipped, a dead prefix is cut off when the pair reaches the top of the
  heap, so its first live entry is its first position) and its weighted
  count; a heap ordered by ``(-count, first position)`` with lazy
  invalidation picks the next merge.

Each merge costs time proportional to the occurrences it touches (times a
log for the heap), so training is near-linear in the text size for every
pattern, ``"none"`` included.
"""

from __future__ import annotations

import dataclasses
import heapq
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING

from . import specials as _specials
from .errors import ArgumentError
from .normalize import normalize
from .patterns import resolve_pattern
from .pretokenize import compile_pattern
from .surrogates import utf8

if TYPE_CHECKING:
    from .tokenizer import Tokenizer

__all__ = ["MergeEvent", "train", "train_iter"]


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


def _check_args(text, vocab_size, special_tokens, min_frequency) -> list[str]:
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, got {type(text).__name__}; decode bytes first (data.decode('utf-8'))")
    if not isinstance(vocab_size, int) or isinstance(vocab_size, bool):
        raise TypeError(f"vocab_size must be an int, got {vocab_size!r}")
    if not isinstance(min_frequency, int) or isinstance(min_frequency, bool) or min_frequency < 1:
        raise ArgumentError(f"min_frequency must be an int >= 1, got {min_frequency!r}", field="min_frequency")
    if special_tokens is None:
        names: list[str] = []
    elif isinstance(special_tokens, Mapping):
        raise TypeError(
            "special_tokens is a list of strings; they get the ids right after the merges. "
            "For ids of your choice, call tokenizer.register_special_tokens({...}) after training"
        )
    elif isinstance(special_tokens, str):
        raise TypeError(f"special_tokens must be a list of strings, e.g. [{special_tokens!r}], not a str")
    else:
        names = list(special_tokens)
        for s in names:
            if not isinstance(s, str) or not s:
                raise TypeError(f"each special token must be a non-empty str, got {s!r}")
        if len(set(names)) != len(names):
            raise ArgumentError(f"special_tokens has duplicates: {names!r}", field="special_tokens")
    if vocab_size < 256 + len(names):
        raise ArgumentError(
            f"vocab_size must be at least 256 (one token per byte) + {len(names)} special token(s) = "
            f"{256 + len(names)}, got {vocab_size}",
            field="vocab_size",
        )
    return names


def _pieces(text: str, pattern: str | None, special_names: Sequence[str]) -> dict[str, int]:
    """Piece -> number of occurrences, in order of first appearance."""
    counts: dict[str, int] = {}
    split = compile_pattern(pattern).findall if pattern is not None else None
    for segment, is_special in _specials.split_on_specials(text, frozenset(special_names)):
        if is_special:
            continue
        for piece in split(segment) if split is not None else (segment,):
            counts[piece] = counts.get(piece, 0) + 1
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
    names = _check_args(text, vocab_size, special_tokens, min_frequency)
    pattern = resolve_pattern(pattern)
    text = normalize(text, normalization)
    counts = _pieces(text, pattern, names)
    n_merges = vocab_size - 256 - len(names)
    return _train(counts, n_merges, min_frequency)


def _key_shift(n_merges: int) -> int:
    """Bits of the right id in a pair key ``left_id << shift | right_id``.

    As few as the largest id needs (14 for vocab 16384), not a fixed 32: keys
    then stay below 2**30, one digit in CPython's int (fast paths), and on
    32-bit builds (Pyodide, WebAssembly: ``sys.hash_info.width == 32``) an int
    hashes to itself modulo 2**31 - 1, where ``x << 32 | y`` hashed to
    ``2 * x + y``: pairs collided by the thousand and dict lookups went linear
    (training took 2.3x CPython's time in Pyodide).
    """
    return max(8, (255 + n_merges).bit_length())


def _layout(counts: dict[str, int]) -> tuple[list[int], list[int], list[int], list[int], int]:
    """Lay out every distinct piece once: ``(sym, wt, nxt, prv, n_bytes)``.

    ``sym[i]``: token id at position i (-1 once merged into its left neighbour);
    ``wt[i]``: occurrences of the piece holding position i; ``nxt``/``prv``: the
    next/previous live position in the same piece, -1 at the piece's ends.
    Lone surrogates become U+FFFD first, as in encoding.
    """
    sym: list[int] = []
    wt: list[int] = []
    nxt: list[int] = []
    prv: list[int] = []
    n_bytes = 0
    for piece, c in counts.items():
        data = utf8(piece)
        n = len(data)
        if n == 0:
            continue
        start = len(sym)
        sym += data
        wt += [c] * n
        nxt += range(start + 1, start + n + 1)
        nxt[-1] = -1
        prv.append(-1)
        prv += range(start, start + n - 1)
        n_bytes += n * c
    return sym, wt, nxt, prv, n_bytes


def _train(counts: dict[str, int], n_merges: int, min_frequency: int) -> Iterator[MergeEvent]:
    sym, wt, nxt, prv, n_bytes = _layout(counts)
    n_tokens = n_bytes
    shift = _key_shift(n_merges)
    mask = (1 << shift) - 1

    # ---- pair index: key -> positions, weighted count.
    # A position list is sorted and never grows after the merge that created
    # its pair (only pairs with the newest token gain occurrences), so it only
    # goes stale: dead entries are skipped when used, and a dead prefix is cut
    # off when the pair reaches the top of the heap (then lst[0] is its exact
    # first position).
    where: dict[int, list[int]] = {}
    count: dict[int, int] = {}
    keys = [(x << shift) | y for x, y in zip(sym, sym[1:])]
    for i in [i for i, j in enumerate(nxt) if j < 0]:
        if i < len(keys):
            keys[i] = -1  # piece boundary: no pair
    for i, key in enumerate(keys):
        lst = where.get(key)
        if lst is None:
            where[key] = [i]
        else:
            lst.append(i)
    where.pop(-1, None)
    if all(w == 1 for w in wt):
        for key, lst in where.items():
            count[key] = len(lst)
    else:
        for key, lst in where.items():
            count[key] = sum(map(wt.__getitem__, lst))
    # heap entries (-count, first, key), packed into one int so the heap holds
    # no tuples (the garbage collector tracks tuples, and traversing hundreds
    # of thousands of them cost ~10% of a multilingual run):
    # ``(top - count) << cshift | first << kbits | key``. Ordering by the int is
    # ordering by (-count, first, key). count may be too high and first too
    # low (both only move that way between pushes); fixed when popped.
    kbits = 2 * shift
    kmask = (1 << kbits) - 1
    cshift = kbits + max(1, len(sym)).bit_length()
    fmask = (1 << (cshift - kbits)) - 1
    top = n_bytes + 1  # above every count
    heap = [((top - c) << cshift) | (where[k][0] << kbits) | k for k, c in count.items()]
    heapq.heapify(heap)

    vocab: list[bytes] = [bytes((i,)) for i in range(256)]
    pop, push, replace = heapq.heappop, heapq.heappush, heapq.heapreplace

    for z in range(256, 256 + n_merges):
        # ---- pick: highest count, then lowest first position
        while heap:
            e = heap[0]
            best = e & kmask
            c = count.get(best, 0)
            if c == 0:
                pop(heap)
                where.pop(best, None)
                count.pop(best, None)
                continue
            # position lists are sorted: drop the dead prefix (c > 0, so a
            # live occurrence is left); then lst[0] is the exact first position
            x, y = best >> shift, best & mask
            lst = where[best]
            k = 0
            while True:
                i = lst[k]
                j = nxt[i]
                if sym[i] == x and j >= 0 and sym[j] == y:
                    break
                k += 1
            if k:
                del lst[:k]
            f = lst[0]
            if top - c != e >> cshift or f != (e >> kbits) & fmask:
                replace(heap, ((top - c) << cshift) | (f << kbits) | best)
                continue
            pop(heap)
            break
        else:
            return
        if c < min_frequency:
            return
        pair_count = c

        # ---- merge every occurrence, left to right
        a, b = best >> shift, best & mask
        positions = where.pop(best)
        positions.sort()
        del count[best]
        fresh: set[int] = set()  # pairs made in this merge (they involve z)
        merged = 0
        za = z << shift
        bs = b << shift
        for i in positions:
            if sym[i] != a:
                continue
            j = nxt[i]
            if j < 0 or sym[j] != b:
                continue
            c = wt[i]
            merged += c
            h = prv[i]
            k = nxt[j]
            sym[i] = z
            sym[j] = -1
            nxt[i] = k
            if h >= 0:
                xs = sym[h] << shift
                q = xs | a
                if q != best:  # the pair (x, a) at h is gone
                    count[q] -= c
                q = xs | z  # (x, z) at h is new
                lst = where.get(q)
                if lst is None:
                    where[q] = [h]
                    count[q] = c
                    fresh.add(q)
                else:
                    lst.append(h)
                    count[q] += c
            if k >= 0:
                prv[k] = i
                y = sym[k]
                q = bs | y
                if q != best:  # the pair (b, y) at j is gone
                    count[q] -= c
                q = za | y  # (z, y) at i is new
                lst = where.get(q)
                if lst is None:
                    where[q] = [i]
                    count[q] = c
                    fresh.add(q)
                else:
                    lst.append(i)
                    count[q] += c
        for q in fresh:
            # positions were appended in increasing order, so where[q][0] is
            # the lowest (a lower bound if a later occurrence took it away)
            c = count[q]
            if c:
                push(heap, ((top - c) << cshift) | (where[q][0] << kbits) | q)
            else:
                del where[q], count[q]

        n_tokens -= merged
        token = vocab[a] + vocab[b]
        vocab.append(token)
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
    if not isinstance(name, str):
        raise TypeError(f"name must be a str, got {type(name).__name__}")
    events = train_iter(
        text,
        vocab_size,
        pattern=pattern,
        special_tokens=special_tokens,
        min_frequency=min_frequency,
        normalization=normalization,
    )
    merges = {ev.pair: ev.id for ev in events}
    from .tokenizer import Tokenizer

    return Tokenizer.from_merges(
        merges, pattern=pattern, special_tokens=list(special_tokens or ()), normalization=normalization, name=name
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
    names = _check_args("", vocab_size, special_tokens, min_frequency)
    for piece, c in counts.items():
        if not isinstance(piece, str) or not isinstance(c, int) or isinstance(c, bool):
            raise TypeError(f"counts maps str pieces to int counts, got {piece!r}: {c!r}")
        if c < 1:
            raise ValueError(f"piece {piece!r} has count {c}; counts are >= 1")
    return _train(dict(counts), vocab_size - 256 - len(names), min_frequency)
