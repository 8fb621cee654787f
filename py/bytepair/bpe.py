"""The BPE merge loop for one pre-token ("piece").

Two rules, both "repeatedly merge the best adjacent pair, leftmost on ties":

* :func:`encode_piece_ranks` - tiktoken's rule for real encodings: the best pair
  of adjacent parts is the one whose *concatenated bytes* have the lowest rank
  (tiktoken ``src/lib.rs``, ``_byte_pair_merge``).
* :func:`encode_piece_merges` - minbpe's rule for trained tokenizers: the best
  pair of adjacent ids is the one with the lowest *merge id*
  (karpathy/minbpe ``regex.py``, ``encode_chunk``). minbpe replaces every
  occurrence of the chosen pair in one sweep; merging one occurrence at a time,
  leftmost first, gives the same result because a merge only ever creates pairs
  with higher merge ids than its own.

Short pieces use the direct quadratic scan (fast in Python for a few dozen
parts). Long pieces use a heap of candidate pairs over a linked list of parts,
so a 1 MB piece costs O(n log n), not O(n^2).

Example (minbpe's Wikipedia example, merges learned from ``"aaabdaaabac"``)::

    >>> merges = {(97, 97): 256, (256, 97): 257, (257, 98): 258}
    >>> encode_piece_merges(b"aaabdaaabac", merges)
    [258, 100, 258, 97, 99]
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Mapping, Sequence
from itertools import repeat

__all__ = ["encode_piece_merges", "encode_piece_ranks", "rank_encoder", "recover_merges"]

# Pieces with at least this many bytes go through the heap-based loop.
_LONG_PIECE = 48
_NO_RANK = 1 << 62


def encode_piece_ranks(piece: bytes, ranks: Mapping[bytes, int]) -> list[int]:
    """Encode one piece with tiktoken's rule.

    Args:
        piece: the UTF-8 bytes of one pre-token.
        ranks: token bytes -> rank (= token id); must contain every single byte
            that occurs in ``piece``.

    Returns:
        The token ids (ranks), in order; their bytes concatenate to ``piece``.

    Raises:
        KeyError: a single byte of ``piece`` is not in ``ranks`` (the vocabulary
            has no byte fallback for it).
    """
    token = ranks.get(piece)
    if token is not None:
        return [token]
    try:
        if len(piece) >= _LONG_PIECE:
            bounds = _merge_long(piece, ranks)
            return [ranks[piece[bounds[i] : bounds[i + 1]]] for i in range(len(bounds) - 1)]
        return _merge_short(piece, ranks)
    except KeyError as e:
        raise KeyError(
            f"byte {e.args[0]!r} has no token in this vocabulary; "
            "a byte-level vocabulary must contain all 256 single bytes"
        ) from e


_SINGLE_BYTES = [bytes((i,)) for i in range(256)]


def _merge_short(piece: bytes, ranks: Mapping[bytes, int]) -> list[int]:
    """Quadratic scan over the parts (as bytes objects); returns their ranks."""
    # rank_encoder's inner ``encode`` holds a copy of this loop on purpose (inline there: no
    # call per piece on the encoder's hot path); change both together.
    get = ranks.get
    no_rank = _NO_RANK
    parts = list(map(_SINGLE_BYTES.__getitem__, piece))
    # pair_ranks[i] = rank of parts i and i+1 joined
    pair_ranks = [get(a + b, no_rank) for a, b in zip(parts, parts[1:])]
    while pair_ranks:
        best = min(pair_ranks)
        if best == no_rank:
            break
        i = pair_ranks.index(best)  # leftmost on ties
        parts[i] += parts.pop(i + 1)
        del pair_ranks[i]
        if i < len(pair_ranks):
            pair_ranks[i] = get(parts[i] + parts[i + 1], no_rank)
        if i > 0:
            pair_ranks[i - 1] = get(parts[i - 1] + parts[i], no_rank)
    return list(map(ranks.__getitem__, parts))


class _PairRows(dict):
    """``rows[a][b]`` = rank of the two bytes ``a, b`` joined, or ``_NO_RANK``.

    One row (a list of 256 ranks) per first byte, built the first time that byte
    starts a pair, so a short text pays for a few rows, not for all 65,536 pairs.
    """

    def __init__(self, ranks: Mapping[bytes, int]) -> None:
        super().__init__()
        self._get = ranks.get

    def __missing__(self, a: int) -> list[int]:
        row = list(map(self._get, map(bytes.__add__, repeat(_SINGLE_BYTES[a]), _SINGLE_BYTES), repeat(_NO_RANK)))
        self[a] = row
        return row


def rank_encoder(ranks: dict[bytes, int]) -> Callable[[bytes], tuple[int, ...]]:
    """:func:`encode_piece_ranks` bound to one rank table: same results, less work per piece.

    For an encoder that meets many new pieces (a cold cache on multilingual text:
    one merge loop per distinct piece). It saves, per piece, the two extra Python
    calls of going through :func:`encode_piece_ranks`, and it looks the initial
    pairs of single bytes up in a table of lists (``_PairRows``) instead of
    joining two bytes objects and hashing the result. The merge loop itself is
    :func:`_merge_short`'s (min rank, leftmost; its ranks are looked up by the
    joined bytes); pieces of ``_LONG_PIECE`` bytes or more go to the heap loop.

    The ids come back as a tuple: a piece cache keeps one result per distinct
    piece, and tuples of ints drop out of the cyclic garbage collector's lists
    after its first pass, while lists are traversed again by every full
    collection (on a cold UDHR encode that is ~156,000 cached results; measured
    ~5-10% of the cold encode time, ``tools/bench.py``).

    Args:
        ranks: token bytes -> rank (= token id). Not copied: it must not change
            while the encoder is in use.

    Returns:
        ``encode(piece: bytes) -> tuple[int, ...]``, the token ids of one piece.
        It raises ``KeyError`` as :func:`encode_piece_ranks` does (a byte with no
        token).
    """
    get = ranks.get
    lookup = ranks.__getitem__
    single = _SINGLE_BYTES.__getitem__
    row = _PairRows(ranks).__getitem__
    row_get = list.__getitem__
    no_rank = _NO_RANK
    long_piece = _LONG_PIECE

    def encode(piece: bytes) -> tuple[int, ...]:
        token = get(piece)
        if token is not None:
            return (token,)
        if len(piece) >= long_piece:
            return tuple(encode_piece_ranks(piece, ranks))
        # the loop of _merge_short, kept inline (no call per piece); a copy on purpose: change both together
        parts = list(map(single, piece))
        pair_ranks = list(map(row_get, map(row, piece), piece[1:]))
        while pair_ranks:
            best = min(pair_ranks)
            if best == no_rank:
                break
            i = pair_ranks.index(best)  # leftmost on ties
            parts[i] += parts.pop(i + 1)
            del pair_ranks[i]
            if i < len(pair_ranks):
                pair_ranks[i] = get(parts[i] + parts[i + 1], no_rank)
            if i:
                pair_ranks[i - 1] = get(parts[i - 1] + parts[i], no_rank)
        try:
            return tuple(map(lookup, parts))
        except KeyError as e:
            raise KeyError(
                f"byte {e.args[0]!r} has no token in this vocabulary; "
                "a byte-level vocabulary must contain all 256 single bytes"
            ) from e

    return encode


# The heap loop below has two twins kept as copies on purpose: _merges_long (id pairs) and
# HFTokenizer._merge_long (symbol strings); see the note above _merges_long.
def _merge_long(piece: bytes, ranks: Mapping[bytes, int]) -> list[int]:
    """Heap + linked list version of :func:`_merge_short`; same result.

    Parts are named by their start offset. ``nxt[s]`` is the start of the part
    after the one starting at ``s`` (``n`` at the end); ``prv`` the reverse;
    ``nxt[s] == -1`` marks a start that was merged away. Heap entries are
    ``(rank, start)``; an entry is checked against the current parts when it is
    popped and dropped if stale.
    """
    n = len(piece)
    get = ranks.get
    nxt = list(range(1, n + 1))
    prv = list(range(-1, n - 1))
    heap = []
    for i in range(n - 1):
        r = get(piece[i : i + 2])
        if r is not None:
            heap.append((r, i))
    heapq.heapify(heap)
    pop, push = heapq.heappop, heapq.heappush
    while heap:
        r, s = pop(heap)
        m = nxt[s]
        if m == -1 or m >= n:
            continue
        e = nxt[m]
        if get(piece[s:e]) != r:
            continue  # stale: the parts around s changed since the push
        # merge the part at s with the part at m
        nxt[s] = e
        nxt[m] = -1
        if e < n:
            prv[e] = s
            r2 = get(piece[s : nxt[e]])
            if r2 is not None:
                push(heap, (r2, s))
        p = prv[s]
        if p >= 0:
            r2 = get(piece[p:e])
            if r2 is not None:
                push(heap, (r2, p))
    bounds = [0]
    s = 0
    while s < n:
        s = nxt[s]
        bounds.append(s)
    return bounds


def encode_piece_merges(piece: bytes | Sequence[int], merges: Mapping[tuple[int, int], int]) -> list[int]:
    """Encode one piece with minbpe's rule (lowest merge id first).

    Args:
        piece: the UTF-8 bytes of one pre-token (or its byte ids, 0..255).
        merges: ``(left_id, right_id) -> new_id`` in learned order; a lower new
            id means an earlier merge.

    Returns:
        The token ids, in order.
    """
    ids = list(piece)
    if len(ids) < 2:
        return ids
    if len(ids) >= _LONG_PIECE:
        return _merges_long(ids, merges)
    get = merges.get
    no_rank = _NO_RANK
    while len(ids) >= 2:
        best_rank = no_rank
        best_i = -1
        for i in range(len(ids) - 1):
            r = get((ids[i], ids[i + 1]), no_rank)
            if r < best_rank:
                best_rank, best_i = r, i
        if best_i < 0:
            break
        ids[best_i : best_i + 2] = (best_rank,)
    return ids


# _merges_long is the heap loop of encode_piece_ranks again, keyed by id pairs instead of
# byte slices (HFTokenizer._merge_long: by symbol strings). Kept as separate copies on
# purpose: each is an encoder's hot loop, and a shared loop taking a key function costs a
# call per pair lookup (tools/bench.py, tools/bench_hf.py measure them).
def _merges_long(ids: list[int], merges: Mapping[tuple[int, int], int]) -> list[int]:
    """Heap + linked list version of the merge-id rule, O(n log n)."""
    n = len(ids)
    get = merges.get
    sym = ids[:]  # sym[i]: id of the part starting at position i; -1 once merged away
    nxt = list(range(1, n + 1))
    prv = list(range(-1, n - 1))
    heap = []
    for i in range(n - 1):
        r = get((sym[i], sym[i + 1]))
        if r is not None:
            heap.append((r, i))
    heapq.heapify(heap)
    pop, push = heapq.heappop, heapq.heappush
    while heap:
        r, s = pop(heap)
        a = sym[s]
        m = nxt[s]
        if a < 0 or m >= n or get((a, sym[m])) != r:
            continue
        e = nxt[m]
        sym[s] = r
        sym[m] = -1
        nxt[s] = e
        if e < n:
            prv[e] = s
            r2 = get((r, sym[e]))
            if r2 is not None:
                push(heap, (r2, s))
        p = prv[s]
        if p >= 0:
            r2 = get((sym[p], r))
            if r2 is not None:
                push(heap, (r2, p))
    return [t for t in sym if t >= 0]


def recover_merges(ranks: Mapping[bytes, int]) -> dict[tuple[int, int], int]:
    """Recover the merge list of a rank-based vocabulary (tiktoken ranks).

    Shape of minbpe's ``recover_merges`` (karpathy/minbpe ``gpt4.py``): every
    token of two or more bytes, in rank order, is encoded with
    :func:`encode_piece_ranks` using only the *lower* ranks; when that gives
    exactly two tokens, they are the pair that merges into it. Tokens that do
    not split into exactly two lower-ranked tokens (or contain a byte with no
    lower-ranked token) are left out.

    Args:
        ranks: token bytes -> rank (= token id).

    Returns:
        ``{(left_rank, right_rank): rank}`` in rank order. Takes a few seconds
        for the 200k-token o200k_base.
    """
    merges: dict[tuple[int, int], int] = {}
    for tok, rank in sorted(ranks.items(), key=lambda kv: kv[1]):
        if len(tok) < 2:
            continue
        older = _LowerRanks(ranks, rank)
        parts = encode_piece_ranks(tok, older) if all(bytes((c,)) in older for c in tok) else []
        if len(parts) == 2:
            merges[(parts[0], parts[1])] = rank
    return merges


class _LowerRanks(Mapping):
    """The ranks strictly below ``limit`` (a view for :func:`recover_merges`)."""

    def __init__(self, ranks: Mapping[bytes, int], limit: int) -> None:
        self._ranks, self._limit = ranks, limit

    def __getitem__(self, key: bytes) -> int:
        r = self._ranks[key]
        if r >= self._limit:
            raise KeyError(key)
        return r

    def get(self, key, default=None):
        r = self._ranks.get(key)
        return r if r is not None and r < self._limit else default

    def __contains__(self, key) -> bool:
        return self.get(key) is not None

    def __iter__(self):
        return (k for k, v in self._ranks.items() if v < self._limit)

    def __len__(self) -> int:
        return sum(1 for _ in self)
