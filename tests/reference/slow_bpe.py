"""Slow reference BPE: training (minbpe semantics) and two encoding rules.

Written from the definitions, for clarity only; every function rescans its whole
input at every step (quadratic or worse). Used by the parity tests as the oracle.

Semantics (learned from reading Karpathy's minbpe, https://github.com/karpathy/minbpe,
and OpenAI's tiktoken, https://github.com/openai/tiktoken; no code copied):

* Training: the text is pre-tokenized into chunks; every chunk starts as its
  UTF-8 bytes (ids 0..255). At each step all adjacent pairs *inside* each chunk
  are counted (overlaps included: ``aaaa`` counts ``(a, a)`` three times), the
  most frequent pair wins, ties go to the pair whose first occurrence in the
  current token sequence (chunks in order) comes first, and every
  non-overlapping occurrence is replaced left to right by the new id 256 + k.
  Training stops early when no pair is left.
* Encoding with merges (minbpe): repeatedly merge, everywhere, the adjacent
  pair with the lowest merge id.
* Encoding with ranks (tiktoken): repeatedly merge the single adjacent pair of
  parts whose concatenated bytes have the lowest rank; the leftmost on ties.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Iterator, Sequence

Pair = tuple[int, int]


@dataclasses.dataclass(frozen=True)
class SlowStep:
    """One merge learned by :func:`slow_train_steps`.

    ``pair`` (left id, right id); ``new_id`` = 256 + k; ``token`` its bytes;
    ``count`` the pair count (overlapping occurrences) when it was chosen;
    ``n_tokens`` total tokens in all chunks after the merge.
    """

    pair: Pair
    new_id: int
    token: bytes
    count: int
    n_tokens: int


def split_chunks(
    text: str,
    split: Callable[[str], Iterable[str]] | None,
    *,
    special_tokens: Sequence[str] = (),
) -> list[str]:
    """Pre-tokenize ``text`` (characters) into chunks.

    Special token strings are cut out first (longest first at each position,
    leftmost match), they are not part of any chunk. Each remaining segment is
    split with ``split`` (``None``: the segment is one chunk). Empty chunks are
    dropped.
    """
    segments: list[str] = []
    if special_tokens:
        specials = sorted(set(special_tokens), key=len, reverse=True)
        start = i = 0
        while i < len(text):
            hit = next((s for s in specials if text.startswith(s, i)), None)
            if hit is None:
                i += 1
                continue
            segments.append(text[start:i])
            i += len(hit)
            start = i
        segments.append(text[start:])
    else:
        segments = [text]
    chunks: list[str] = []
    for seg in segments:
        if not seg:
            continue
        if split is None:
            chunks.append(seg)
        else:
            chunks.extend(c for c in split(seg) if c)
    return chunks


def merge_all(ids: list[int], pair: Pair, new_id: int) -> list[int]:
    """Replace every non-overlapping occurrence of ``pair``, scanning left to right."""
    out: list[int] = []
    i = 0
    while i < len(ids):
        if i + 1 < len(ids) and ids[i] == pair[0] and ids[i + 1] == pair[1]:
            out.append(new_id)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out


def count_pairs(chunks: list[list[int]]) -> tuple[dict[Pair, int], dict[Pair, int]]:
    """Count adjacent pairs inside each chunk.

    Returns ``(counts, first)``: ``first[p]`` is the position of the first
    occurrence of ``p`` in the concatenated token sequence (chunks in order).
    """
    counts: dict[Pair, int] = {}
    first: dict[Pair, int] = {}
    pos = 0
    for ids in chunks:
        for j in range(len(ids) - 1):
            p = (ids[j], ids[j + 1])
            counts[p] = counts.get(p, 0) + 1
            if p not in first:
                first[p] = pos + j
        pos += len(ids)
    return counts, first


def slow_train_steps(
    text: str,
    n_merges: int,
    *,
    split: Callable[[str], Iterable[str]] | None = None,
    special_tokens: Sequence[str] = (),
    min_frequency: int = 1,
) -> Iterator[SlowStep]:
    """Yield up to ``n_merges`` merges learned from ``text`` (see module docstring).

    Stops early when no pair is left or the best count is below ``min_frequency``.
    """
    chunks = [list(c.encode("utf-8")) for c in split_chunks(text, split, special_tokens=special_tokens)]
    vocab = {i: bytes([i]) for i in range(256)}
    for k in range(n_merges):
        counts, first = count_pairs(chunks)
        if not counts:
            return
        best = None
        for p in counts:
            if best is None or counts[p] > counts[best] or (counts[p] == counts[best] and first[p] < first[best]):
                best = p
        if counts[best] < min_frequency:
            return
        new_id = 256 + k
        vocab[new_id] = vocab[best[0]] + vocab[best[1]]
        chunks = [merge_all(ids, best, new_id) for ids in chunks]
        yield SlowStep(best, new_id, vocab[new_id], counts[best], sum(len(c) for c in chunks))


def slow_train(
    text: str,
    n_merges: int,
    *,
    split: Callable[[str], Iterable[str]] | None = None,
    special_tokens: Sequence[str] = (),
    min_frequency: int = 1,
) -> list[tuple[Pair, int, int]]:
    """minbpe training; returns ``[((left, right), new_id, count), ...]`` in learned order."""
    return [
        (s.pair, s.new_id, s.count)
        for s in slow_train_steps(
            text, n_merges, split=split, special_tokens=special_tokens, min_frequency=min_frequency
        )
    ]


def slow_encode_merges(text_bytes_chunks: Iterable[bytes], merges: dict[Pair, int]) -> list[int]:
    """minbpe encoding of already pre-tokenized chunks (bytes); ids of all chunks concatenated.

    In each chunk: while some adjacent pair is a merge, merge every occurrence of
    the pair with the lowest merge id (left to right, non-overlapping).
    """
    out: list[int] = []
    for chunk in text_bytes_chunks:
        ids = list(chunk)
        while len(ids) >= 2:
            present = {(ids[j], ids[j + 1]) for j in range(len(ids) - 1)} & merges.keys()
            if not present:
                break
            pair = min(present, key=lambda p: merges[p])
            ids = merge_all(ids, pair, merges[pair])
        out.extend(ids)
    return out


def slow_encode_ranks(piece: bytes, ranks: dict[bytes, int]) -> list[int]:
    """tiktoken's rule for one piece (bytes) -> token ids (ranks).

    Start from single bytes; while some adjacent pair of parts concatenates to a
    ranked byte string, merge the pair with the lowest rank (the leftmost one on
    ties). Raises KeyError if a final part has no rank.
    """
    parts = [piece[i : i + 1] for i in range(len(piece))]
    while len(parts) >= 2:
        best_j = None
        best_rank = None
        for j in range(len(parts) - 1):
            r = ranks.get(parts[j] + parts[j + 1])
            if r is not None and (best_rank is None or r < best_rank):
                best_j, best_rank = j, r
        if best_j is None:
            break
        parts[best_j : best_j + 2] = [parts[best_j] + parts[best_j + 1]]
    return [ranks[p] for p in parts]


def merges_vocab(merges: dict[Pair, int]) -> dict[int, bytes]:
    """Bytes of every id: 0..255 single bytes, then each merge's concatenation."""
    vocab = {i: bytes([i]) for i in range(256)}
    for (a, b), new_id in sorted(merges.items(), key=lambda kv: kv[1]):
        vocab[new_id] = vocab[a] + vocab[b]
    return vocab
