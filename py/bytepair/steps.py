"""Byte-level BPE, step by step, for small teaching texts.

The same merges as :func:`bytepair.train_iter` (minbpe's semantics, see
:mod:`bytepair.trainer`), recomputed the plain way so that every step can show
what a learner needs: the table of pair counts *before* the merge, the chosen
pair and its ties, the text re-segmented *after* the merge with the merged
spans, the vocabulary so far and the sequence length. Each step recounts
every pair of the text (time proportional to the text's length, per merge;
about 1 s for 500 merges on 20 KiB in CPython or Pyodide) and keeps a
snapshot, which is why inputs are capped at :data:`MAX_TEXT_BYTES` and
:data:`MAX_MERGES`; the tests check that the merges equal
:func:`bytepair.train_iter`'s, pair for pair.

Semantics (as the trainer): the text is split by the pre-tokenizer into
*pieces* (``"none"``: the whole text is one piece); each piece starts as its
UTF-8 bytes (token ids 0..255; a lone surrogate becomes U+FFFD, as in
training); pairs are counted inside pieces only, overlaps included; the most
frequent pair is merged into the new id ``256 + index`` everywhere, left to
right without overlap; equal counts go to the pair that occurs first in the
text. No special tokens, no normalization.

Tokens are shown with :func:`bytepair.token_to_display` (text, with bytes that
are not complete UTF-8 characters as ``<e0a6>`` hex groups).
"""

from __future__ import annotations

from collections import Counter
from itertools import chain

from .decoding import token_to_display
from .patterns import resolve_pattern
from .pretokenize import compile_pattern
from .surrogates import utf8

__all__ = ["MAX_MERGES", "MAX_TEXT_BYTES", "byte_initial_state", "byte_steps"]

#: Largest text :func:`byte_steps` accepts, in bytes of UTF-8 (20 KiB).
MAX_TEXT_BYTES = 20 * 1024
#: Largest ``n_merges`` :func:`byte_steps` accepts.
MAX_MERGES = 500


class _Corpus:
    """The text as pieces: each distinct piece once (with its number of
    occurrences), in order of first appearance, plus the order of all pieces."""

    def __init__(self, text, pattern) -> None:
        if not isinstance(text, str):
            raise TypeError(f"text must be a str, not {type(text).__name__}")
        n = len(text.encode("utf-8", "surrogatepass"))
        if n > MAX_TEXT_BYTES:
            raise ValueError(
                f"the text is {n} bytes of UTF-8; the step-through handles at most {MAX_TEXT_BYTES} "
                "bytes (20 KiB): use a shorter text (bytepair.train_iter trains on long texts)"
            )
        regex = resolve_pattern(pattern)
        pieces = compile_pattern(regex).findall(text) if regex is not None else [text]
        index: dict[bytes, int] = {}
        self.order: list[int] = []  # distinct-piece index of every (non-empty) piece, in text order
        self.seqs: list[list[int]] = []  # current token ids of each distinct piece
        self.weights: list[int] = []  # occurrences of each distinct piece
        self.occurrences: list[list[int]] = []  # piece indices of each distinct piece
        self.n_bytes = 0
        for piece in pieces:
            data = utf8(piece)
            if not data:
                continue
            self.n_bytes += len(data)
            d = index.get(data)
            if d is None:
                d = index[data] = len(self.seqs)
                self.seqs.append(list(data))
                self.weights.append(0)
                self.occurrences.append([])
            self.weights[d] += 1
            self.occurrences[d].append(len(self.order))
            self.order.append(d)
        self.vocab: list[bytes] = [bytes((i,)) for i in range(256)]
        self.display: list[str] = [token_to_display(b) for b in self.vocab]
        # display strings of each distinct piece's tokens (replaced, never mutated, on change)
        self.shown: list[list[str]] = [[self.display[t] for t in seq] for seq in self.seqs]
        # each distinct piece's pairs, repeated once per occurrence of the piece
        self.pairs: list = [_pairs(s, w) for s, w in zip(self.seqs, self.weights)]

    def pair_counts(self) -> Counter:
        """Pair counts over every piece occurrence (overlaps included); the
        dict order is the order of first occurrence in the text."""
        return Counter(chain.from_iterable(self.pairs))

    def segmentation(self) -> list[list[str]]:
        return [self.shown[d] for d in self.order]

    def n_tokens(self) -> int:
        return sum(len(s) * w for s, w in zip(self.seqs, self.weights))


class _LazyPairs:
    """The adjacent pairs of a long piece, produced when iterated (no list kept)."""

    __slots__ = ("seq",)

    def __init__(self, seq: list[int]) -> None:
        self.seq = seq

    def __iter__(self):
        return zip(self.seq, self.seq[1:])


def _pairs(seq: list[int], weight: int):
    """The adjacent pairs of a piece, left to right, ``weight`` times over:
    a list for short or repeated pieces, lazily for a long single piece."""
    if weight == 1 and len(seq) > 64:
        return _LazyPairs(seq)
    return list(zip(seq, seq[1:])) * weight


def _occurrences(seq: list, a, b) -> list[int]:
    """Start indices of the non-overlapping occurrences of ``a, b`` in ``seq``, left to right."""
    starts: list[int] = []
    last = len(seq) - 1
    i = 0
    try:
        while True:
            i = seq.index(a, i, last)
            if seq[i + 1] == b:
                starts.append(i)
                i += 2
            else:
                i += 1
    except ValueError:  # no more `a` before the last position
        return starts


def _replace(seq: list, starts: list[int], new) -> tuple[list, list[int]]:
    """``seq`` with the two items at each start replaced by ``new``; also the
    indices of ``new`` in the result."""
    out: list = []
    positions: list[int] = []
    prev = 0
    for i in starts:
        out += seq[prev:i]
        positions.append(len(out))
        out.append(new)
        prev = i + 2
    out += seq[prev:]
    return out, positions


def _check_int(name: str, value, low: int, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, not {type(value).__name__}")
    if value < low or (high is not None and value > high):
        bounds = f"between {low} and {high}" if high is not None else f"at least {low}"
        raise ValueError(f"{name} must be {bounds}, got {value}")
    return value


def byte_initial_state(text: str, *, pattern: str | None = "gpt2") -> dict:
    """The state before the first merge ("step 0" of a step view).

    Args:
        text, pattern: as for :func:`byte_steps`.

    Returns:
        ``{"segmentation": [[str, ...], ...], "vocab": [], "n_vocab": 256,
        "n_symbols": int, "n_bytes": int}`` with the meanings of
        :func:`byte_steps`'s fields (every token a single byte).

    Raises:
        as :func:`byte_steps`.
    """
    corpus = _Corpus(text, pattern)
    return {
        "segmentation": corpus.segmentation(),
        "vocab": [],
        "n_vocab": 256,
        "n_symbols": corpus.n_tokens(),
        "n_bytes": corpus.n_bytes,
    }


def byte_steps(
    text: str,
    n_merges: int,
    *,
    pattern: str | None = "gpt2",
    max_pairs_shown: int = 50,
) -> list[dict]:
    """Learn up to ``n_merges`` byte-level merges on ``text``, keeping every step.

    Args:
        text: the training text (characters), at most :data:`MAX_TEXT_BYTES`
            bytes of UTF-8.
        n_merges: how many merges, 0..:data:`MAX_MERGES`.
        pattern: the pre-tokenizer: ``"none"``/``None``, an encoding name
            (``"gpt2"``, ``"cl100k_base"``, ``"o200k_base"``, aliases) or a
            custom regex (see :func:`bytepair.resolve_pattern`).
        max_pairs_shown: how many rows of the pair-count table (and of the tie
            list) each step keeps, >= 1.

    Returns:
        One dict per merge (fewer when no pair is left), plain JSON values
        (the numbers below are illustrative)::

            {"index": 0,                    # 0-based merge index
             "id": 256,                     # the new token id, 256 + index
             "pair": [" ", "t"],            # the merged tokens, displayed
             "pair_ids": [32, 116],
             "merged": " t",                # the new token, displayed
             "count": 12,                   # its pair count (overlaps included)
             "ties": [["t", "h"], ...],     # other pairs with that count, first
                                            #   occurrence first (at most max_pairs_shown)
             "n_ties": 1,                   # how many ties in all
             "pair_counts": [{"pair": [" ", "t"], "ids": [32, 116], "count": 12,
                              "tie": false}, ...],
                                            # the table BEFORE the merge, top
                                            #   max_pairs_shown rows: count descending,
                                            #   equal counts in order of first
                                            #   occurrence; row 0 is the merged
                                            #   pair, "tie" marks the ties
             "n_pairs": 95,                 # distinct pairs in the whole table
             "segmentation": [["The"], [" t", "o", "k", "e", "n"], ...],
                                            # the text AFTER the merge: one list of
                                            #   displayed tokens per piece, in text
                                            #   order (lists of unchanged pieces are
                                            #   shared between steps: read-only)
             "changed_pieces": [{"piece_index": 1, "positions": [0]}, ...],
                                            # pieces the merge touched and the indices
                                            #   of the new token in their token lists
             "vocab": [" t"],               # learned tokens so far, displayed, in id
                                            #   order (the 256 byte tokens not listed)
             "n_vocab": 257,                # 256 + merges so far
             "n_symbols": 180,              # tokens in the text after the merge
             "n_bytes": 192}                # bytes of the text (pieces), constant

    Raises:
        TypeError: ``text`` not a ``str``; ``n_merges`` / ``max_pairs_shown``
            not ints; ``pattern`` neither ``None`` nor a ``str``.
        ValueError: text over :data:`MAX_TEXT_BYTES`, ``n_merges`` out of
            0..:data:`MAX_MERGES`, ``max_pairs_shown`` < 1, a bad pattern.
    """
    _check_int("n_merges", n_merges, 0, MAX_MERGES)
    _check_int("max_pairs_shown", max_pairs_shown, 1)
    corpus = _Corpus(text, pattern)
    seqs, weights, shown, display = corpus.seqs, corpus.weights, corpus.shown, corpus.display
    n_tokens = corpus.n_tokens()
    steps: list[dict] = []
    for index in range(n_merges):
        # ---- the table: dict order = order of first occurrence in the text
        table = corpus.pair_counts()
        if not table:
            break
        # most_common: count descending, equal counts in the order first encountered
        rows = table.most_common(max_pairs_shown + 1)
        (a, b), count = rows[0]
        n_ties = list(table.values()).count(count) - 1

        # ---- merge (a, b) -> z everywhere, left to right
        z = 256 + index
        token = corpus.vocab[a] + corpus.vocab[b]
        corpus.vocab.append(token)
        display.append(token_to_display(token))
        changed: dict[int, list[int]] = {}
        for d, seq in enumerate(seqs):
            if a not in seq:  # a quick scan in C skips most pieces
                continue
            starts = _occurrences(seq, a, b)
            if starts:
                seqs[d], positions = _replace(seq, starts, z)
                corpus.pairs[d] = _pairs(seqs[d], weights[d])
                shown[d], _ = _replace(shown[d], starts, display[z])
                changed[d] = positions
                n_tokens -= len(starts) * weights[d]

        steps.append({
            "index": index,
            "id": z,
            "pair": [display[a], display[b]],
            "pair_ids": [a, b],
            "merged": display[z],
            "count": count,
            "ties": [[display[x], display[y]] for (x, y), _ in rows[1:1 + min(n_ties, max_pairs_shown)]],
            "n_ties": n_ties,
            "pair_counts": [
                {"pair": [display[x], display[y]], "ids": [x, y], "count": c, "tie": 1 <= r <= n_ties}
                for r, ((x, y), c) in enumerate(rows[:max_pairs_shown])
            ],
            "n_pairs": len(table),
            "segmentation": corpus.segmentation(),
            "changed_pieces": [
                {"piece_index": p, "positions": list(changed[d])}
                for p, d in sorted((p, d) for d in changed for p in corpus.occurrences[d])
            ],
            "vocab": display[256:],
            "n_vocab": z + 1,
            "n_symbols": n_tokens,
            "n_bytes": corpus.n_bytes,
        })
    return steps
