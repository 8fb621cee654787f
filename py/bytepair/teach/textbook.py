"""Textbook BPE, step by step: Sennrich, Haddow & Birch (2016), Algorithm 1.

Source: Rico Sennrich, Barry Haddow, Alexandra Birch. "Neural Machine
Translation of Rare Words with Subword Units". ACL 2016, section 3.2 and
Algorithm 1 (https://aclanthology.org/P16-1162/, arXiv:1508.07909). The
semantics were learned from the paper and its toy script ``bpe_toy.py`` in
https://github.com/rsennrich/subword-nmt; no code was copied.

The model, as the paper teaches it:

* The input is a vocabulary of *words* with counts (``low 5``, ``lower 2``,
  ``newest 6``, ``widest 3``). A word is a whitespace-free string; words never
  interact, so no merge crosses a word boundary.
* Symbols are *characters* (Python ``str`` code points), and every word ends
  with the end-of-word marker :data:`END_OF_WORD` ``"</w>"``.
* **Convention: ``</w>`` is a symbol of its own**, ``low`` -> ``l o w </w>``,
  exactly as in the vocabulary of the paper's Algorithm 1
  (``{'l o w </w>': 5, ...}``); that is what reproduces the paper's published
  merge sequence ``e s``, ``es t``, ``est </w>``, ``l o``, ``lo w``, ...
  The released tool ``subword-nmt`` (learn_bpe.py since its version 0.2)
  instead glues the marker to the last character (``l o w</w>``), which saves
  one merge per word ending (its first merges on the same input are ``e s``,
  ``es t</w>``) and, on equal counts, takes the lexicographically *largest*
  pair and stops below ``min_frequency`` 2. Neither is done here.
* At each step every adjacent pair of symbols inside every word is counted,
  weighted by the word's count (overlaps included: ``a a a`` counts ``(a, a)``
  twice); the most frequent pair is merged into one new symbol everywhere,
  left to right without overlap (``a a a`` -> ``aa a``). Training stops early
  when no pair is left (every word is one symbol).
* Equal counts are broken by a visible rule, ``tie_break``:
  ``"first"`` - the pair that occurs first when scanning the words in their
  given order, each left to right (what ``max(pairs, key=pairs.get)`` in the
  paper's Algorithm 1 does on an insertion-ordered dict; also minbpe's rule);
  ``"lexicographic"`` - the smallest pair as a ``(left, right)`` tuple of
  strings, compared by code point (Python ``str`` order).

Words may not contain whitespace or the marker ``</w>`` itself (a learned
symbol ``</w>`` would be indistinguishable from the marker). Sizes are capped
for interactive use: at most :data:`MAX_WORDS` distinct words and
:data:`MAX_MERGES` merges (each step keeps a full snapshot).

Results are frozen dataclasses with ``to_dict()`` giving plain JSON values
(lists, dicts, str, int) for the web worker.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence

__all__ = [
    "END_OF_WORD",
    "MAX_MERGES",
    "MAX_WORDS",
    "TIE_BREAKS",
    "ApplyStep",
    "Step",
    "WordChange",
    "WordSegmentation",
    "apply",
    "count_words",
    "initial_state",
    "initial_symbols",
    "learn",
    "parse_word_counts",
]

#: The end-of-word marker, a symbol of its own at the end of every word.
END_OF_WORD = "</w>"
#: Accepted values of ``tie_break``.
TIE_BREAKS: tuple[str, ...] = ("first", "lexicographic")
#: Largest ``n_merges`` :func:`learn` accepts.
MAX_MERGES = 500
#: Largest number of distinct words :func:`learn` accepts.
MAX_WORDS = 2000

Pair = tuple[str, str]


@dataclasses.dataclass(frozen=True, slots=True)
class WordSegmentation:
    """One word of the vocabulary and its current symbols.

    ``word``: the word (characters); ``count``: its count in the input;
    ``symbols``: its symbols, the last one ending with (or being) ``</w>``.
    """

    word: str
    count: int
    symbols: tuple[str, ...]

    def to_dict(self) -> dict:
        return {"word": self.word, "count": self.count, "symbols": list(self.symbols)}


@dataclasses.dataclass(frozen=True, slots=True)
class WordChange:
    """A word that one merge touched.

    ``word_index``: 0-based index of the word in the input order;
    ``positions``: 0-based indices, into the word's symbols *after* the merge,
    of every new merged symbol (increasing).
    """

    word_index: int
    word: str
    positions: tuple[int, ...]

    def to_dict(self) -> dict:
        return {"word_index": self.word_index, "word": self.word, "positions": list(self.positions)}


@dataclasses.dataclass(frozen=True, slots=True)
class Step:
    """One merge learned by :func:`learn`, with everything a step view shows.

    Attributes:
        index: 0-based merge index (the merge's rank; ``apply`` fires merges
            in this order).
        pair: ``(left, right)`` symbols merged.
        merged: the new symbol, ``left + right``.
        count: the pair count when chosen (occurrences in words, weighted by
            the word counts, overlaps included).
        ties: the *other* pairs that had the same count, in tie-rule order.
        pair_counts: the full table of pair counts *before* this merge, as
            ``((left, right), count)`` rows: count descending, equal counts in
            tie-rule order (first occurrence, or lexicographic). So row 0 is
            always ``(pair, count)`` and the next ``len(ties)`` rows are the ties.
        segmentation: every word (input order) with its symbols *after* the merge.
        changed_words: the words the merge touched, with the merged positions.
        vocab: the symbol vocabulary after the merge in order of creation: the
            initial symbols (characters in order of first appearance, scanning
            words in order, each left to right, then ``</w>`` where first
            reached), then each merge's new symbol. Each string is listed
            once: should a merge ever produce a string already listed, the
            list does not grow.
        n_symbols: total symbols over the corpus after the merge, weighted by
            the word counts (``</w>`` included).
    """

    index: int
    pair: Pair
    merged: str
    count: int
    ties: tuple[Pair, ...]
    pair_counts: tuple[tuple[Pair, int], ...]
    segmentation: tuple[WordSegmentation, ...]
    changed_words: tuple[WordChange, ...]
    vocab: tuple[str, ...]
    n_symbols: int

    def to_dict(self) -> dict:
        """Plain JSON values::

            {"index": 0, "pair": ["e", "s"], "merged": "es", "count": 9,
             "ties": [["s", "t"], ["t", "</w>"]],
             "pair_counts": [{"pair": ["e", "s"], "count": 9, "tie": false}, ...],
             "segmentation": [{"word": "low", "count": 5, "symbols": [...]}, ...],
             "changed_words": [{"word_index": 2, "word": "newest", "positions": [3]}, ...],
             "vocab": ["l", "o", ...], "n_symbols": 86}

        ``pair_counts[i]["tie"]`` is true for the rows listed in ``ties``.
        """
        n_ties = len(self.ties)
        return {
            "index": self.index,
            "pair": list(self.pair),
            "merged": self.merged,
            "count": self.count,
            "ties": [list(p) for p in self.ties],
            "pair_counts": [
                {"pair": list(p), "count": c, "tie": 1 <= i <= n_ties} for i, (p, c) in enumerate(self.pair_counts)
            ],
            "segmentation": [s.to_dict() for s in self.segmentation],
            "changed_words": [c.to_dict() for c in self.changed_words],
            "vocab": list(self.vocab),
            "n_symbols": self.n_symbols,
        }


@dataclasses.dataclass(frozen=True, slots=True)
class ApplyStep:
    """One merge rule that fired while encoding a word with :func:`apply`.

    ``index``: 0-based index of the rule in the merge list; ``pair``/``merged``
    the rule; ``symbols``: the word's symbols after it fired; ``positions``:
    0-based indices into ``symbols`` of the new merged symbols.
    """

    index: int
    pair: Pair
    merged: str
    symbols: tuple[str, ...]
    positions: tuple[int, ...]

    def to_dict(self) -> dict:
        return {
            "index": self.index,
            "pair": list(self.pair),
            "merged": self.merged,
            "symbols": list(self.symbols),
            "positions": list(self.positions),
        }


# ---------------------------------------------------------------- input


def parse_word_counts(text: str) -> dict[str, int]:
    """Read a word-count list, one ``word count`` per line.

    Lines are separated by ``"\\n"`` (a trailing ``"\\r"`` is ignored); each
    non-blank line is a word, whitespace, and a positive integer in ASCII
    digits (``low 5``). Blank lines are skipped. A word listed twice has its
    counts **summed** and keeps the position of its first line.

    Args:
        text: the list (characters).

    Returns:
        ``{word: count}`` in order of first appearance (possibly empty).

    Raises:
        TypeError: ``text`` is not a ``str``.
        ValueError: a line is not ``word count``; the message gives the
            1-based line number, the line, and the expected form.
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, not {type(text).__name__}")
    counts: dict[str, int] = {}
    for number, line in enumerate(text.split("\n"), start=1):
        fields = line.split()
        if not fields:
            continue
        if len(fields) == 1:
            problem = "has no count"
        elif len(fields) > 2:
            problem = "has more than two fields (a word cannot contain spaces)"
        elif not (fields[1].isascii() and fields[1].isdigit()):
            problem = f"has count {fields[1]!r}, which is not a whole number"
        elif int(fields[1]) == 0:
            problem = "has count 0; counts must be at least 1"
        else:
            word, count = fields[0], int(fields[1])
            counts[word] = counts.get(word, 0) + count
            continue
        raise ValueError(
            f"line {number}: {line.strip()!r} {problem}; expected one word and a positive count per line, e.g. 'low 5'"
        )
    return counts


def count_words(text: str) -> dict[str, int]:
    """Count the words of plain text (split on whitespace, as ``str.split()``).

    Args:
        text: any text (characters); punctuation stays attached to words.

    Returns:
        ``{word: occurrences}`` in order of first appearance (empty for blank text).

    Raises:
        TypeError: ``text`` is not a ``str``.
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, not {type(text).__name__}")
    counts: dict[str, int] = {}
    for word in text.split():
        counts[word] = counts.get(word, 0) + 1
    return counts


def check_word(word, what: str = "word") -> str:
    """``word`` if it is one non-empty word of the textbook method (``what`` names it in messages).

    Raises:
        TypeError: not a ``str``. ValueError: empty, holding whitespace or the end-of-word marker.
    """
    if not isinstance(word, str):
        raise TypeError(f"{what} must be a str, not {type(word).__name__}")
    if not word:
        raise ValueError(f"{what} must not be empty")
    if any(ch.isspace() for ch in word):
        raise ValueError(
            f"{what} {word!r} contains whitespace; type a single word (textbook BPE works on one word at a time)"
        )
    if END_OF_WORD in word:
        raise ValueError(f"{what} {word!r} contains the end-of-word marker {END_OF_WORD!r}; remove it from the input")
    return word


def _check_word_counts(word_counts) -> list[tuple[str, int]]:
    if not isinstance(word_counts, Mapping):
        raise TypeError(
            f"word_counts must be a dict {{word: count}}, not {type(word_counts).__name__}; "
            "build one with parse_word_counts or count_words"
        )
    if len(word_counts) > MAX_WORDS:
        raise ValueError(
            f"{len(word_counts)} distinct words is more than the step-through handles ({MAX_WORDS}); use a shorter text"
        )
    items = []
    for word, count in word_counts.items():
        check_word(word)
        if isinstance(count, bool) or not isinstance(count, int):
            raise TypeError(f"the count of {word!r} must be an int, not {type(count).__name__}")
        if count < 1:
            raise ValueError(f"the count of {word!r} is {count}; counts must be at least 1")
        items.append((word, count))
    return items


def _check_n_merges(n_merges) -> int:
    if isinstance(n_merges, bool) or not isinstance(n_merges, int):
        raise TypeError(f"n_merges must be an int, not {type(n_merges).__name__}")
    if not 0 <= n_merges <= MAX_MERGES:
        raise ValueError(f"n_merges must be between 0 and {MAX_MERGES}, got {n_merges}")
    return n_merges


# ---------------------------------------------------------------- the algorithm


def initial_symbols(word: str) -> list[str]:
    """The symbols a word starts as: its characters, then ``"</w>"``.

    ``initial_symbols("low")`` -> ``["l", "o", "w", "</w>"]``.

    Raises:
        TypeError / ValueError: ``word`` is not a non-empty ``str`` without
            whitespace and without ``"</w>"``.
    """
    return [*check_word(word), END_OF_WORD]


def _initial_vocab(segments: Iterable[Sequence[str]]) -> dict[str, None]:
    vocab: dict[str, None] = {}
    for symbols in segments:
        for s in symbols:
            vocab.setdefault(s)
    return vocab


def initial_state(word_counts: Mapping[str, int]) -> dict:
    """The state before the first merge ("step 0" of a step view).

    Args:
        word_counts: ``{word: count}`` as for :func:`learn`.

    Returns:
        ``{"segmentation": [{"word", "count", "symbols"}, ...], "vocab": [...],
        "n_symbols": int}`` with the meanings of :class:`Step`'s fields.

    Raises:
        TypeError / ValueError: as :func:`learn` for ``word_counts``.
    """
    items = _check_word_counts(word_counts)
    segments = [[*w, END_OF_WORD] for w, _ in items]
    return {
        "segmentation": [{"word": w, "count": c, "symbols": list(s)} for (w, c), s in zip(items, segments)],
        "vocab": list(_initial_vocab(segments)),
        "n_symbols": sum((len(w) + 1) * c for w, c in items),
    }


def _merge(symbols: list[str], pair: Pair, merged: str) -> tuple[list[str], list[int]]:
    """Replace every occurrence of ``pair`` left to right, without overlap.

    Returns the new symbols and the indices (in them) of the merged symbols.
    """
    left, right = pair
    out: list[str] = []
    positions: list[int] = []
    i, n = 0, len(symbols)
    while i < n:
        if i + 1 < n and symbols[i] == left and symbols[i + 1] == right:
            positions.append(len(out))
            out.append(merged)
            i += 2
        else:
            out.append(symbols[i])
            i += 1
    return out, positions


def _pair_counts(segments: Sequence[Sequence[str]], counts: Sequence[int]) -> dict[Pair, int]:
    """Weighted pair counts; dict order = order of first occurrence."""
    table: dict[Pair, int] = {}
    for symbols, c in zip(segments, counts):
        for pair in zip(symbols, symbols[1:]):
            table[pair] = table.get(pair, 0) + c
    return table


def learn(
    word_counts: Mapping[str, int],
    n_merges: int,
    *,
    tie_break: str = "first",
) -> list[Step]:
    """Learn up to ``n_merges`` merges from a word-count vocabulary, keeping every step.

    Algorithm 1 of Sennrich, Haddow & Birch (2016), with ``</w>`` as a symbol
    of its own (see the module docstring for the model and conventions).

    Args:
        word_counts: ``{word: count}``; word order matters for
            ``tie_break="first"``. Words: non-empty, no whitespace, no
            ``"</w>"``; counts: ints >= 1; at most :data:`MAX_WORDS` words.
        n_merges: how many merges to learn, 0..:data:`MAX_MERGES`.
        tie_break: ``"first"`` (first occurrence scanning the words in order,
            left to right; minbpe's and Algorithm 1's rule) or
            ``"lexicographic"`` (smallest ``(left, right)`` tuple by code point).

    Returns:
        The :class:`Step` of each merge, in order; fewer than ``n_merges`` when
        no pair is left (every word became a single symbol).

    Raises:
        TypeError: wrong argument types.
        ValueError: a bad word or count, too many words, ``n_merges`` out of
            range, or an unknown ``tie_break``.

    Example::

        >>> steps = learn({"low": 5, "lower": 2, "newest": 6, "widest": 3}, 3)
        >>> [(s.pair, s.count) for s in steps]
        [(('e', 's'), 9), (('es', 't'), 9), (('est', '</w>'), 9)]
    """
    if tie_break not in TIE_BREAKS:
        raise ValueError(f"unknown tie_break {tie_break!r}; use 'first' or 'lexicographic'")
    items = _check_word_counts(word_counts)
    _check_n_merges(n_merges)
    words = [w for w, _ in items]
    counts = [c for _, c in items]
    segments = [[*w, END_OF_WORD] for w in words]
    vocab = _initial_vocab(segments)
    n_symbols = sum(len(s) * c for s, c in zip(segments, counts))

    steps: list[Step] = []
    for index in range(n_merges):
        table = _pair_counts(segments, counts)
        if not table:
            break
        if tie_break == "first":
            rows = sorted(table.items(), key=lambda row: -row[1])  # stable: keeps first-occurrence order
        else:
            rows = sorted(table.items(), key=lambda row: (-row[1], row[0]))
        pair, count = rows[0]
        ties = []
        for p, c in rows[1:]:
            if c != count:
                break
            ties.append(p)
        merged = pair[0] + pair[1]

        changes: list[WordChange] = []
        for wi, symbols in enumerate(segments):
            new, positions = _merge(symbols, pair, merged)
            if positions:
                segments[wi] = new
                n_symbols -= len(positions) * counts[wi]
                changes.append(WordChange(wi, words[wi], tuple(positions)))
        vocab.setdefault(merged)

        steps.append(
            Step(
                index=index,
                pair=pair,
                merged=merged,
                count=count,
                ties=tuple(ties),
                pair_counts=tuple(rows),
                segmentation=tuple(WordSegmentation(w, c, tuple(s)) for w, c, s in zip(words, counts, segments)),
                changed_words=tuple(changes),
                vocab=tuple(vocab),
                n_symbols=n_symbols,
            )
        )
    return steps


def _check_merges(merges) -> list[Pair]:
    if isinstance(merges, (str, bytes)) or not isinstance(merges, Iterable):
        raise TypeError("merges must be a list of (left, right) string pairs, e.g. [s.pair for s in learn(...)]")
    out: list[Pair] = []
    for i, m in enumerate(merges):
        if isinstance(m, (str, bytes)) or not isinstance(m, Sequence) or len(m) != 2:
            raise TypeError(f"merges[{i}] is {m!r}; each merge must be a (left, right) pair of strings")
        left, right = m
        if not (isinstance(left, str) and isinstance(right, str) and left and right):
            raise TypeError(f"merges[{i}] is {m!r}; both symbols must be non-empty strings")
        out.append((left, right))
    return out


def apply(word: str, merges: Sequence[Pair]) -> list[ApplyStep]:
    """Encode a (new) word step by step with learned merges.

    The word starts as :func:`initial_symbols` (characters, then ``"</w>"``);
    each merge is tried once, in the order given (the learned order), and
    replaces every occurrence of its pair left to right without overlap. This
    gives the same result as the paper's segmentation of unseen words (and as
    repeatedly merging the pair with the lowest merge index, subword-nmt's
    ``apply_bpe``), because a merge can only use symbols made by earlier ones.

    Args:
        word: the word to encode (characters; non-empty, no whitespace, no
            ``"</w>"``). It need not be in the training vocabulary.
        merges: ``(left, right)`` pairs in learned order, e.g.
            ``[s.pair for s in learn(...)]`` (lists of two strings are fine).

    Returns:
        One :class:`ApplyStep` per merge that fired, in order; rules that do
        not fire are skipped (an empty list: no rule applies). The final
        segmentation is the last step's ``symbols`` (or the initial symbols).

    Raises:
        TypeError / ValueError: a bad word or a malformed merge (its index is named).

    Example (the paper's merges on ``{low: 5, lower: 2, newest: 6, widest: 3}``)::

        >>> merges = [s.pair for s in learn({"low": 5, "lower": 2, "newest": 6, "widest": 3}, 10)]
        >>> apply("lowest", merges)[-1].symbols
        ('low', 'est</w>')
    """
    symbols = initial_symbols(word)
    rules = _check_merges(merges)
    fired: list[ApplyStep] = []
    for index, pair in enumerate(rules):
        merged = pair[0] + pair[1]
        new, positions = _merge(symbols, pair, merged)
        if positions:
            symbols = new
            fired.append(ApplyStep(index, pair, merged, tuple(symbols), tuple(positions)))
    return fired
