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
* every pair keeps the set of positions where it occurs, its weighted count
  and a lower bound of its first position; a heap ordered by
  ``(-count, first position)`` with lazy invalidation picks the next merge.

Each merge costs time proportional to the occurrences it touches (times a
log for the heap), so training is near-linear in the text size for every
pattern, ``"none"`` included.
"""

from __future__ import annotations

import dataclasses
import heapq
from collections.abc import Iterator, Sequence

from . import specials as _specials
from .normalize import normalize
from .patterns import resolve_pattern
from .pretokenize import compile_pattern

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
    def rank(self) -> int:
        """0-based merge index (``id - 256``)."""
        return self.id - 256


def _check_args(text, vocab_size, special_tokens, min_frequency) -> list[str]:
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, got {type(text).__name__}; decode bytes first (data.decode('utf-8'))")
    if not isinstance(vocab_size, int) or isinstance(vocab_size, bool):
        raise TypeError(f"vocab_size must be an int, got {vocab_size!r}")
    if not isinstance(min_frequency, int) or isinstance(min_frequency, bool) or min_frequency < 1:
        raise ValueError(f"min_frequency must be an int >= 1, got {min_frequency!r}")
    if special_tokens is None:
        names: list[str] = []
    elif isinstance(special_tokens, str):
        raise TypeError(f"special_tokens must be a list of strings, e.g. [{special_tokens!r}], not a str")
    else:
        names = list(special_tokens)
        for s in names:
            if not isinstance(s, str) or not s:
                raise TypeError(f"each special token must be a non-empty str, got {s!r}")
        if len(set(names)) != len(names):
            raise ValueError(f"special_tokens has duplicates: {names!r}")
    if vocab_size < 256 + len(names):
        raise ValueError(
            f"vocab_size must be at least 256 (one token per byte) + {len(names)} special token(s) = "
            f"{256 + len(names)}, got {vocab_size}"
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
        ValueError: ``vocab_size`` too small, a bad pattern or normalization.

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


def _train(counts: dict[str, int], n_merges: int, min_frequency: int) -> Iterator[MergeEvent]:
    # ---- layout: every distinct piece once, in first-appearance order
    sym: list[int] = []  # token id at each position; -1 once merged into the left neighbour
    wt: list[int] = []  # weight (occurrences of the piece) at each position
    nxt: list[int] = []  # next live position in the same piece, -1 at the end
    prv: list[int] = []  # previous live position in the same piece, -1 at the start
    n_tokens = 0
    for piece, c in counts.items():
        try:
            data = piece.encode("utf-8")
        except UnicodeEncodeError:
            data = piece.encode("utf-16", "surrogatepass").decode("utf-16", "replace").encode("utf-8")
        n = len(data)
        if n == 0:
            continue
        start = len(sym)
        sym.extend(data)
        wt.extend([c] * n)
        nxt.extend(range(start + 1, start + n + 1))
        nxt[-1] = -1
        prv.append(-1)
        prv.extend(range(start, start + n - 1))
        n_tokens += n * c
    n_bytes = n_tokens

    # ---- pair index
    where: dict[tuple[int, int], set[int]] = {}
    count: dict[tuple[int, int], int] = {}
    first: dict[tuple[int, int], int] = {}
    for i in range(len(sym) - 1):
        if nxt[i] < 0:
            continue
        p = (sym[i], sym[i + 1])
        s = where.get(p)
        if s is None:
            where[p] = {i}
            count[p] = wt[i]
            first[p] = i
        else:
            s.add(i)
            count[p] += wt[i]
    heap = [(-c, first[p], p) for p, c in count.items()]
    heapq.heapify(heap)
    dirty: set[tuple[int, int]] = set()  # pairs whose first position is only a lower bound

    vocab: list[bytes] = [bytes((i,)) for i in range(256)]
    pop, push, replace = heapq.heappop, heapq.heappush, heapq.heapreplace

    for new_id in range(256, 256 + n_merges):
        # ---- pick: highest count, then lowest first position
        best = None
        while heap:
            negc, f, p = heap[0]
            c = count.get(p, 0)
            if c != -negc:
                pop(heap)
                continue
            if p in dirty:
                dirty.discard(p)
                first[p] = min(where[p])
            if first[p] != f:
                replace(heap, (negc, first[p], p))
                continue
            best = p
            pop(heap)
            break
        if best is None or -negc < min_frequency:
            return
        pair_count = -negc

        # ---- merge every occurrence, left to right
        a, b = best
        positions = sorted(where.pop(best))
        del count[best]
        first.pop(best, None)
        dirty.discard(best)
        changed: set[tuple[int, int]] = set()
        merged = 0

        def remove(q: tuple[int, int], pos: int, c: int) -> None:
            if q == best:
                return
            where[q].discard(pos)
            count[q] -= c
            changed.add(q)
            if first[q] == pos:
                dirty.add(q)

        def add(q: tuple[int, int], pos: int, c: int) -> None:
            s = where.get(q)
            if s is None:
                where[q] = {pos}
                count[q] = c
                first[q] = pos
                dirty.discard(q)
            else:
                s.add(pos)
                count[q] += c
                if pos < first[q]:
                    first[q] = pos
                    dirty.discard(q)
            changed.add(q)

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
            if h >= 0:
                remove((sym[h], a), h, c)
            if k >= 0:
                remove((b, sym[k]), j, c)
            sym[i] = new_id
            sym[j] = -1
            nxt[i] = k
            if k >= 0:
                prv[k] = i
            if h >= 0:
                add((sym[h], new_id), h, c)
            if k >= 0:
                add((new_id, sym[k]), i, c)

        for q in changed:
            c = count[q]
            if c > 0:
                push(heap, (-c, first[q], q))
            else:
                del count[q], where[q], first[q]
                dirty.discard(q)

        n_tokens -= merged
        token = vocab[a] + vocab[b]
        vocab.append(token)
        yield MergeEvent(id=new_id, pair=best, token=token, count=pair_count, n_tokens=n_tokens, n_bytes=n_bytes)


def train(
    text: str,
    vocab_size: int,
    *,
    pattern: str | None = "cl100k_base",
    special_tokens: Sequence[str] | None = None,
    min_frequency: int = 1,
    normalization: str | None = None,
    name: str = "trained",
):
    """Train a tokenizer on ``text`` (see :func:`train_iter` for the arguments).

    Special tokens get the ids right after the last merge, in the order given.

    Returns:
        A :class:`bytepair.Tokenizer` with ``n_vocab <= vocab_size`` (fewer when
        training ran out of pairs).
    """
    events = train_iter(
        text, vocab_size, pattern=pattern, special_tokens=special_tokens,
        min_frequency=min_frequency, normalization=normalization,
    )
    merges = {ev.pair: ev.id for ev in events}
    from .tokenizer import Tokenizer

    return Tokenizer.from_merges(
        merges, pattern=pattern, special_tokens=list(special_tokens or ()), normalization=normalization, name=name
    )
