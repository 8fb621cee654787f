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

import dataclasses
from collections import Counter
from collections.abc import Sequence
from itertools import chain

from ..decoding import token_to_display
from ..errors import ArgumentError
from ..split.pretokenize import compile_pattern, resolve_pattern
from ..surrogates import utf8
from . import textbook

__all__ = [
    "APPLY_MAX_BYTES",
    "ApplyStep",
    "MAX_MERGES",
    "MAX_TEXT_BYTES",
    "MODES",
    "MergeInfo",
    "PAIRS_SHOWN",
    "PairRow",
    "ROWS_SHOWN",
    "Row",
    "StepSession",
    "StepView",
    "apply",
    "apply_start",
    "byte_initial_state",
    "byte_steps",
    "learn_steps",
]

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
            raise ArgumentError(
                f"the text is {n} bytes of UTF-8; the step-through handles at most {MAX_TEXT_BYTES} "
                "bytes (20 KiB): use a shorter text (bytepair.train_iter trains on long texts)",
                field="text",
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
        raise ArgumentError(f"{name} must be {bounds}, got {value}", field=name)
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

        steps.append(
            {
                "index": index,
                "id": z,
                "pair": [display[a], display[b]],
                "pair_ids": [a, b],
                "merged": display[z],
                "count": count,
                "ties": [[display[x], display[y]] for (x, y), _ in rows[1 : 1 + min(n_ties, max_pairs_shown)]],
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
            }
        )
    return steps


# ----------------------------------------------------------------------------- applying merges

#: Longest text :func:`apply` encodes step by step, in bytes of UTF-8.
APPLY_MAX_BYTES = 2000

#: One merge rule that fired in :func:`apply` (the same type as :func:`bytepair.teach.textbook.apply`'s):
#: ``index`` (0-based merge index), ``pair``/``merged`` (displayed tokens), ``symbols``
#: (every piece's tokens after the rule, concatenated), ``positions`` (of the new tokens in ``symbols``).
ApplyStep = textbook.ApplyStep


def _apply_pieces(text: str, pattern: str | None) -> list[list[int]]:
    """The pieces of ``text`` as lists of byte ids (empty pieces dropped), size-checked."""
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, not {type(text).__name__}")
    if not text:
        raise ArgumentError("Type a text to encode.", field="text")
    n = len(utf8(text))
    if n > APPLY_MAX_BYTES:
        raise ArgumentError(f"The text to encode is {n} bytes; use at most {APPLY_MAX_BYTES} bytes here.", field="text")
    regex = resolve_pattern(pattern)
    pieces = compile_pattern(regex).findall(text) if regex is not None else [text]
    return [list(b) for b in map(utf8, pieces) if b]


def apply_start(text: str, *, pattern: str | None = "gpt2") -> list[str]:
    """The tokens :func:`apply` starts from: every piece's bytes, displayed, concatenated.

    Raises: as :func:`apply`."""
    return [token_to_display(bytes((t,))) for seq in _apply_pieces(text, pattern) for t in seq]


def apply(text: str, merges: Sequence[tuple[int, int]], *, pattern: str | None = "gpt2") -> list[ApplyStep]:
    """Encode a (new) text step by step with learned byte-level merges.

    The byte-level twin of :func:`bytepair.teach.textbook.apply`: the text is split by
    the pre-tokenizer into pieces, each piece starts as its UTF-8 bytes (ids
    0..255; a lone surrogate becomes U+FFFD), and each merge, in learned order,
    replaces its pair in every piece left to right without overlap. Merge ``k``
    makes the id ``256 + k``. This equals minbpe's encoding (repeatedly merge
    the pair with the lowest merge id; karpathy/minbpe ``encode_chunk``) and
    :meth:`bytepair.Tokenizer.encode` of a tokenizer built from these merges,
    because a merge only uses ids that earlier merges made.

    Args:
        text: the text (characters), at most :data:`APPLY_MAX_BYTES` bytes of UTF-8.
        merges: ``(left_id, right_id)`` pairs in learned order, e.g.
            ``[ev.pair for ev in train_iter(...)]`` or a session's merges.
        pattern: the pre-tokenizer, as for :func:`byte_steps`.

    Returns:
        One :data:`ApplyStep` per merge that fired, in order (tokens shown with
        :func:`bytepair.token_to_display`); an empty list when no rule applies.
        The tokens before the first rule are :func:`apply_start`'s.

    Raises:
        TypeError: ``text`` not a ``str``; a merge that is not a pair of ints.
        ArgumentError: (a ValueError) ``field="text"``: an empty text or one
            over the limit; ``field="merges"``: a merge that uses an id no
            earlier merge made.
        PatternError: (a ValueError) a bad pattern.
    """
    seqs = _apply_pieces(text, pattern)
    vocab = [bytes((i,)) for i in range(256)]
    display = [token_to_display(b) for b in vocab]
    fired: list[ApplyStep] = []
    for index, pair in enumerate(merges):
        if (
            isinstance(pair, (str, bytes))
            or not isinstance(pair, Sequence)
            or len(pair) != 2
            or not all(isinstance(x, int) and not isinstance(x, bool) for x in pair)
        ):
            raise TypeError(f"merges[{index}] is {pair!r}; each merge must be a (left_id, right_id) pair of ints")
        a, b = pair
        z = 256 + index
        if not (0 <= a < z and 0 <= b < z):
            raise ArgumentError(
                f"merges[{index}] {list(pair)} uses an id that no earlier merge made (ids so far are 0..{z - 1})",
                field="merges",
            )
        vocab.append(vocab[a] + vocab[b])
        display.append(token_to_display(vocab[z]))
        positions: list[int] = []
        offset = 0
        for k, seq in enumerate(seqs):
            if a in seq:
                starts = _occurrences(seq, a, b)
                if starts:
                    seqs[k], found = _replace(seq, starts, z)
                    positions += [offset + p for p in found]
            offset += len(seqs[k])
        if positions:
            symbols = tuple(display[t] for seq in seqs for t in seq)
            fired.append(ApplyStep(index, (display[a], display[b]), display[z], symbols, tuple(positions)))
    return fired


# ----------------------------------------------------------------------------- one step type for both modes

#: The step-through's modes: Sennrich et al.'s word-level BPE (:mod:`bytepair.teach.textbook`) and byte-level BPE.
MODES: tuple[str, ...] = ("textbook", "bytes")
#: Rows of the byte-level pair-count table a :class:`StepSession` keeps per step (the textbook table is complete).
PAIRS_SHOWN = 200
#: Pieces of a byte-level text a :class:`StepView` lists (the counts always cover all of them).
ROWS_SHOWN = 1500


@dataclasses.dataclass(frozen=True, slots=True)
class MergeInfo:
    """The merge a step made. ``index``: 0-based merge index; ``id``: the new
    token id (bytes mode; ``None`` in textbook mode); ``pair``/``merged``:
    displayed symbols; ``ids``: ``(left_id, right_id)`` (bytes mode) or
    ``None``; ``count``: the pair count when chosen; ``n_ties``: other pairs
    with that count."""

    index: int
    id: int | None
    pair: tuple[str, str]
    ids: tuple[int, int] | None
    merged: str
    count: int
    n_ties: int

    def to_dict(self) -> dict:
        return {
            "index": self.index,
            "id": self.id,
            "pair": list(self.pair),
            "ids": list(self.ids) if self.ids is not None else None,
            "merged": self.merged,
            "count": self.count,
            "n_ties": self.n_ties,
        }


@dataclasses.dataclass(frozen=True, slots=True)
class PairRow:
    """A row of the pair-count table: displayed ``pair``, its ``count``,
    ``tie`` (same count as the chosen pair), ``ids`` (bytes mode) or ``None``."""

    pair: tuple[str, str]
    count: int
    tie: bool
    ids: tuple[int, int] | None = None

    def to_dict(self) -> dict:
        return {
            "pair": list(self.pair),
            "count": self.count,
            "tie": self.tie,
            "ids": list(self.ids) if self.ids is not None else None,
        }


@dataclasses.dataclass(frozen=True, slots=True)
class Row:
    """One word (textbook: ``label`` the word, ``count`` its count) or piece
    (bytes: both ``None``) of the corpus: its ``symbols`` and the indices of
    the symbols the step's merge made (``merged``)."""

    label: str | None
    count: int | None
    symbols: tuple[str, ...]
    merged: tuple[int, ...]

    def to_dict(self) -> dict:
        return {"label": self.label, "count": self.count, "symbols": list(self.symbols), "merged": list(self.merged)}


@dataclasses.dataclass(frozen=True, slots=True)
class StepView:
    """Step ``index`` of a step-through, the same type in both modes.

    ``index``: 0 is the start (``merge`` is ``None``), ``k`` the state after
    the k-th merge; ``pair_counts``: the table *before* the merge (row 0 the
    merged pair; textbook: every pair, bytes: the top :data:`PAIRS_SHOWN`
    rows), ``n_pairs`` distinct pairs in all; ``rows``: the corpus *after* the
    merge (bytes: the first :data:`ROWS_SHOWN` pieces), ``n_rows`` in all;
    ``vocab``: textbook every symbol (initial ones first), bytes the learned
    tokens only; ``n_base``: initial symbols (textbook) or 256; ``n_vocab``;
    ``n_symbols``: symbols (tokens) in the corpus after the merge,
    ``n_symbols_start`` before any; ``n_bytes``: UTF-8 bytes of the text
    (bytes mode) or ``None``. Symbols are displayed strings.
    """

    index: int
    n_steps: int
    mode: str
    merge: MergeInfo | None
    pair_counts: tuple[PairRow, ...]
    n_pairs: int
    rows: tuple[Row, ...]
    n_rows: int
    vocab: tuple[str, ...]
    n_base: int
    n_vocab: int
    n_symbols: int
    n_symbols_start: int
    n_bytes: int | None

    def to_dict(self) -> dict:
        """Plain JSON values, the fields above by name (nested objects as dicts)."""
        return {
            "index": self.index,
            "n_steps": self.n_steps,
            "mode": self.mode,
            "merge": self.merge.to_dict() if self.merge is not None else None,
            "pair_counts": [r.to_dict() for r in self.pair_counts],
            "n_pairs": self.n_pairs,
            "rows": [r.to_dict() for r in self.rows],
            "n_rows": self.n_rows,
            "vocab": list(self.vocab),
            "n_base": self.n_base,
            "n_vocab": self.n_vocab,
            "n_symbols": self.n_symbols,
            "n_symbols_start": self.n_symbols_start,
            "n_bytes": self.n_bytes,
        }


class StepSession:
    """Merges learned step by step (:func:`learn_steps`), kept so any step can be shown.

    Attributes: ``mode``; ``requested`` (merges asked for); ``merges``: one
    :class:`MergeInfo` per merge learned (fewer than asked when no pair was
    left); ``n_rows``; ``n_symbols_start``; ``n_bytes`` (bytes mode) or ``None``.
    """

    def __init__(self, mode: str, requested: int, steps: list, initial: dict, *, pattern: str | None = None) -> None:
        self.mode = mode
        self.requested = requested
        self.pattern = pattern
        self._steps = steps
        self._initial = initial
        if mode == "textbook":
            self.merges = [MergeInfo(s.index, None, s.pair, None, s.merged, s.count, len(s.ties)) for s in steps]
            self.n_base = len(initial["vocab"])
            self.n_bytes = None
        else:
            self.merges = [
                MergeInfo(
                    d["index"], d["id"], tuple(d["pair"]), tuple(d["pair_ids"]), d["merged"], d["count"], d["n_ties"]
                )
                for d in steps
            ]
            self.n_base = 256
            self.n_bytes = initial["n_bytes"]
        self.n_rows = len(initial["segmentation"])
        self.n_symbols_start = initial["n_symbols"]

    @property
    def n_steps(self) -> int:
        """Merges learned (steps after the start)."""
        return len(self._steps)

    def step(self, index: int) -> StepView:
        """Step ``index``, 0..:attr:`n_steps` (0: the start).

        Raises:
            ArgumentError: (``field="step"``) ``index`` out of range or not an int.
        """
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index <= self.n_steps:
            raise ArgumentError(f"There is no step {index}: pick a step from 0 to {self.n_steps}.", field="step")
        common = {
            "index": index,
            "n_steps": self.n_steps,
            "mode": self.mode,
            "n_rows": self.n_rows,
            "n_base": self.n_base,
            "n_symbols_start": self.n_symbols_start,
            "n_bytes": self.n_bytes,
        }
        merge = self.merges[index - 1] if index else None
        if self.mode == "textbook":
            if index == 0:
                words, merged_at = self._initial["segmentation"], {}
                rows = tuple(Row(w["word"], w["count"], tuple(w["symbols"]), ()) for w in words)
                return StepView(
                    merge=None,
                    pair_counts=(),
                    n_pairs=0,
                    rows=rows,
                    vocab=tuple(self._initial["vocab"]),
                    n_vocab=len(self._initial["vocab"]),
                    n_symbols=self._initial["n_symbols"],
                    **common,
                )
            s = self._steps[index - 1]
            n_ties = len(s.ties)
            merged_at = {c.word_index: c.positions for c in s.changed_words}
            rows = tuple(Row(w.word, w.count, w.symbols, merged_at.get(i, ())) for i, w in enumerate(s.segmentation))
            table = tuple(PairRow(p, c, 1 <= r <= n_ties) for r, (p, c) in enumerate(s.pair_counts))
            return StepView(
                merge=merge,
                pair_counts=table,
                n_pairs=len(table),
                rows=rows,
                vocab=s.vocab,
                n_vocab=len(s.vocab),
                n_symbols=s.n_symbols,
                **common,
            )
        if index == 0:
            seg, merged_at, vocab = self._initial["segmentation"], {}, []
            table, n_pairs, n_vocab, n_symbols = (), 0, 256, self._initial["n_symbols"]
        else:
            d = self._steps[index - 1]
            seg, vocab = d["segmentation"], d["vocab"]
            merged_at = {c["piece_index"]: c["positions"] for c in d["changed_pieces"]}
            table = tuple(PairRow(tuple(r["pair"]), r["count"], r["tie"], tuple(r["ids"])) for r in d["pair_counts"])
            n_pairs, n_vocab, n_symbols = d["n_pairs"], d["n_vocab"], d["n_symbols"]
        rows = tuple(
            Row(None, None, tuple(seg[p]), tuple(merged_at.get(p, ()))) for p in range(min(len(seg), ROWS_SHOWN))
        )
        return StepView(
            merge=merge,
            pair_counts=table,
            n_pairs=n_pairs,
            rows=rows,
            vocab=tuple(vocab),
            n_vocab=n_vocab,
            n_symbols=n_symbols,
            **common,
        )

    def start_symbols(self, text: str) -> list[str]:
        """The symbols :meth:`apply` starts from (textbook: the word's characters
        and ``</w>``; bytes: the text's bytes, displayed). Raises: as :meth:`apply`."""
        if self.mode == "textbook":
            return textbook.initial_symbols(_check_word_input(text))
        return apply_start(text, pattern=self.pattern)

    def apply(self, text: str) -> list[ApplyStep]:
        """Encode a new word (textbook, :func:`bytepair.teach.textbook.apply`) or a short
        text (bytes, :func:`apply`) with the session's merges; one step per rule that fired.

        Raises:
            ArgumentError: (``field="text"``) an empty input, a word with
                whitespace (textbook), a text over :data:`APPLY_MAX_BYTES` (bytes).
        """
        if self.mode == "textbook":
            return textbook.apply(_check_word_input(text), [m.pair for m in self.merges])
        return apply(text, [m.ids for m in self.merges], pattern=self.pattern)  # type: ignore[misc]


def _check_word_input(word: str) -> str:
    if isinstance(word, str) and not word:
        raise ArgumentError("Type a word to encode.", field="text")
    try:
        return textbook.check_word(word)
    except ValueError as e:
        raise ArgumentError(str(e), field="text") from e


def learn_steps(
    mode: str,
    text: str,
    n_merges: int,
    *,
    input: str = "counts",
    tie_break: str = "first",
    pattern: str | None = "gpt2",
) -> StepSession:
    """Learn up to ``n_merges`` merges step by step, in either mode.

    Args:
        mode: ``"textbook"`` (:func:`bytepair.teach.textbook.learn`) or ``"bytes"`` (:func:`byte_steps`).
        text: textbook: ``word count`` lines (``input="counts"``) or plain text
            whose words are counted (``input="text"``); bytes: the text
            (at most :data:`MAX_TEXT_BYTES` bytes of UTF-8).
        n_merges: 0..:data:`MAX_MERGES`.
        input: ``"counts"`` or ``"text"`` (textbook mode).
        tie_break: ``"first"`` or ``"lexicographic"`` (textbook mode).
        pattern: the pre-tokenizer (bytes mode), as for :func:`byte_steps`.

    Returns:
        A :class:`StepSession`.

    Raises:
        ArgumentError: (a ValueError) ``field`` is ``"mode"``, ``"input"``,
            ``"tie_break"``, ``"n_merges"`` or ``"text"`` (no words, a
            malformed ``word count`` line with its number, a text over the limit).
        PatternError: (a ValueError) a bad pattern, with a short message
            (:func:`bytepair.split.pretokenize.check_pattern`).
        TypeError: wrong argument types.
    """
    from ..split.pretokenize import check_pattern

    if mode not in MODES:
        raise ArgumentError(f"Unknown step-through mode {mode!r}: use 'textbook' or 'bytes'.", field="mode")
    if isinstance(n_merges, bool) or not isinstance(n_merges, int):
        raise TypeError(f"n_merges must be an int, not {type(n_merges).__name__}")
    limit = textbook.MAX_MERGES if mode == "textbook" else MAX_MERGES
    if not 0 <= n_merges <= limit:
        raise ArgumentError(f"n_merges must be between 0 and {limit}, got {n_merges}", field="n_merges")
    if mode == "textbook":
        if input not in ("counts", "text"):
            raise ArgumentError(f"Unknown input {input!r}: use 'counts' or 'text'.", field="input")
        if tie_break not in textbook.TIE_BREAKS:
            raise ArgumentError(f"unknown tie_break {tie_break!r}; use 'first' or 'lexicographic'", field="tie_break")
        try:
            word_counts = textbook.parse_word_counts(text) if input == "counts" else textbook.count_words(text)
        except ValueError as e:
            raise ArgumentError(str(e), field="text") from e
        if not word_counts:
            raise ArgumentError(
                "There are no words yet: type one word and its count per line, e.g. 'low 5'."
                if input == "counts"
                else "There are no words yet: type some text.",
                field="text",
            )
        try:
            initial = textbook.initial_state(word_counts)
        except ValueError as e:
            raise ArgumentError(str(e), field="text") from e
        return StepSession(mode, n_merges, textbook.learn(word_counts, n_merges, tie_break=tie_break), initial)
    if isinstance(text, str) and not text:
        raise ArgumentError("The text is empty: type or paste a few sentences.", field="text")
    check_pattern(pattern)
    steps = byte_steps(text, n_merges, pattern=pattern, max_pairs_shown=PAIRS_SHOWN)
    return StepSession(mode, n_merges, steps, byte_initial_state(text, pattern=pattern), pattern=pattern)
