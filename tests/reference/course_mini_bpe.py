"""The Bangla course's own 40-line byte-level BPE (``/work/shared/seeds`` 003, "Code এ ছোট্ট একটা BPE"),
as the course prints it, minus its progress prints: the oracle for the course's quoted figures.
The course writes its replace loop out twice (in ``train_bpe`` and ``encode``); here it is
written once, as :func:`_replace`, the same loop.

It learns on the whole text with no pre-tokenizer: ``Counter.most_common(1)`` takes the first
pair seen among equal counts (insertion order), and each merge is replaced left to right.
"""

from __future__ import annotations

from collections import Counter


def _replace(ids: list[int], a: int, b: int, new: int) -> list[int]:
    """The course's replace loop: every ``(a, b)`` in ``ids`` becomes ``new``, left to right."""
    out, i = [], 0
    while i < len(ids):
        if i + 1 < len(ids) and (ids[i], ids[i + 1]) == (a, b):
            out.append(new)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out


def train_bpe(text: str, merges: int) -> tuple[list[tuple[int, int, int]], dict[int, bytes]]:
    """The course's ``train_bpe``: ``(rules, vocab)``; rules are ``(a, b, new_id)`` in learned order."""
    ids = list(text.encode("utf-8"))
    vocab = {i: bytes([i]) for i in range(256)}
    rules = []
    for step in range(merges):
        pairs = Counter(zip(ids, ids[1:]))
        (a, b), _count = pairs.most_common(1)[0]
        new = 256 + step
        vocab[new] = vocab[a] + vocab[b]
        rules.append((a, b, new))
        ids = _replace(ids, a, b, new)
    return rules, vocab


def encode(text: str, rules: list[tuple[int, int, int]]) -> list[int]:
    """The course's ``encode``: the merges applied in the order they were learned."""
    ids = list(text.encode("utf-8"))
    for a, b, new in rules:
        ids = _replace(ids, a, b, new)
    return ids
