"""Vocabulary and merge tables of a compact ``tokenizer.json`` model, filled in as text needs them.

Why: Gemma 3 has 262,144 tokens and 514,906 merges. Building the two dicts
``{token: id}`` and ``{left + sep + right: rank}`` takes most of a second in
Pyodide, yet a short text uses a few thousand of those entries. A compact file
(:func:`bytepair.hf.compact.to_compact`) stores both tables in *buckets*, and
:class:`LazyTables` turns a bucket into dict entries the first time a piece of
text may need it.

Which bucket: an entry's *text* is the token itself, or for a merge its result
(``left + right``). When BPE uses an entry on a piece, that text is a substring
of the piece (symbols spell the piece), so every window of three characters
("trigram") of it occurs in the piece too. Each entry is filed under one of
its trigrams (the rarest one over the whole vocabulary: the smallest buckets;
its two or one characters for shorter texts) and :meth:`LazyTables.need`
loads the buckets of every trigram, bigram and character of a piece before the
piece is encoded. Entries that are not text of the piece (the ``unk_token``,
byte-fallback ``<0xXX>`` tokens and merges holding them, added tokens, looked
up by content when the tokenizer is built) are in bucket 0, loaded at once.
Key ``g`` maps to bucket ``1 + h % n_buckets`` with ``h`` its characters'
code points in base 40503 (:func:`bucket_of`; the same on every Python,
unlike ``hash``).

File sections (``.bpv`` ``kind="hf"``, :mod:`bytepair.formats.vocab_file`), for each
table ``T`` in ``vocab`` / ``merge``: ``T_text`` (text: the entries, bucket
after bucket; merges as ``left + sep + right``), ``T_values`` (u32: id or rank
of each), ``T_starts`` (u32, ``n_buckets + 2``: index of each bucket's first
entry, then the total) and ``T_offsets`` (u32, same length: byte offset of
each bucket's first entry in ``T_text``). Within a bucket, entries are in id /
rank order and ``T_values`` holds the first value, then the differences (they
compress better). ``T_text`` and ``T_values`` are deflated in blocks of
:data:`BLOCK_BUCKETS` buckets (:class:`bytepair.formats.vocab_file.Blocks`): a first
count inflates the few blocks its buckets are in, not the whole table (Gemma 3:
the page's default text loads 282 of 16,381 buckets). Meta ``lazy``: ``{"buckets", "vocab_sep", "merge_sep_char",
"n_tokens", "max_id"}``. An ``id -> token`` lookup of an id not loaded yet
loads everything (:meth:`LazyTables.need_id`): encoding loads the ids it gives.
"""

from __future__ import annotations

import collections
import itertools
import operator
import re
import sys
from array import array
from collections.abc import Iterable, Sequence
from typing import Any

__all__ = ["BLOCK_BUCKETS", "N_BUCKETS", "LazyTables", "block_cuts", "bucket_of", "file_entries"]

#: Buckets per table (prime). Gemma 3's entries have ~34,000 distinct bigrams.
N_BUCKETS = 16381
#: Buckets per deflated block of ``T_text`` / ``T_values``: small blocks inflate little that a
#: text does not use. Gemma 3 (8): 5.1 MB, a gzip of the whole file 4.5 MB; a first count inflates ~13%.
BLOCK_BUCKETS = 8
_MUL = 40503
_add = operator.add


def bucket_of(g: str, n_buckets: int = N_BUCKETS) -> int:
    """The bucket (1..n_buckets) of key ``g`` (a str of 1 to 3 characters)."""
    h = 0
    for c in g:
        h = h * _MUL + ord(c)
    return 1 + h % n_buckets


def _keys(s: str) -> set[str]:
    """The trigrams of ``s`` (its bigrams or its character when shorter): where it may be filed."""
    if len(s) > 2:
        return {s[i : i + 3] for i in range(len(s) - 2)}
    return {s}


def _all_keys(s: str) -> set[str]:
    """Every key an entry inside ``s`` may be filed under: its characters, bigrams and trigrams."""
    out = set(s)
    out.update(map(_add, s, s[1:]))
    out.update(s[i : i + 3] for i in range(len(s) - 2))
    return out


def file_entries(
    texts: Sequence[str],
    *,
    special: Iterable[str] = (),
    unk: str | None = None,
    byte_fallback: bool = False,
    n_buckets: int = N_BUCKETS,
) -> list[int]:
    """The bucket of each entry whose *text* is ``texts[i]`` (0: load at once).

    ``special``: texts that must be in bucket 0 (added tokens, the unk token:
    looked up by content when a tokenizer is built). Entries containing ``unk``
    or, with ``byte_fallback``, a ``<0xXX>`` token are not text of the piece
    and go to bucket 0 as well.
    """
    always = set(special)
    keys = [_keys(s) for s in texts]
    counts: collections.Counter[str] = collections.Counter()
    for k in keys:
        counts.update(k)
    fallback = re.compile(r"<0x[0-9A-Fa-f]{2}>").search if byte_fallback else None
    out = []
    for s, k in zip(texts, keys):
        if not s or s in always or (unk and unk in s) or (fallback is not None and fallback(s)):
            out.append(0)
        else:
            out.append(bucket_of(min(k, key=lambda g: (counts[g], g)), n_buckets))  # ties: the same on every run
    return out


def block_cuts(firsts: Sequence[int], *, scale: int = 1, every: int = BLOCK_BUCKETS) -> list[int]:
    """Where the deflated blocks of a table section end (bytes): at the first entry of every
    ``every``-th bucket. ``firsts``: ``T_offsets`` (``scale=1``) or ``T_starts`` (``scale=4``: u32
    values), whose last item is the section's end."""
    return [scale * firsts[b] for b in range(every, len(firsts) - 1, every)] + [scale * firsts[-1]]


class _U32Blocks:
    """A deflated u32 section (:class:`bytepair.formats.vocab_file.Blocks`) read as ``array('I')`` slices."""

    __slots__ = ("blocks",)

    def __init__(self, blocks: Any) -> None:
        self.blocks = blocks

    def __len__(self) -> int:
        return len(self.blocks) // 4

    def __getitem__(self, s: slice) -> array:
        a, b, _ = s.indices(len(self))
        out = array("I")
        out.frombytes(self.blocks[4 * a : 4 * b])
        if sys.byteorder != "little":  # pragma: no cover
            out.byteswap()
        return out


class _Table:
    """One bucketed table: bucket ``b`` -> its (keys, values)."""

    __slots__ = ("loaded", "offsets", "sep", "starts", "text", "values")

    def __init__(self, text: Any, values: Any, starts: array, offsets: array, sep: str) -> None:
        """``text``: a memoryview, or Blocks when deflated; ``values``: an array, or Blocks."""
        if not isinstance(values, array):
            values = _U32Blocks(values)
        self.text, self.values, self.starts, self.offsets, self.sep = text, values, starts, offsets, sep
        n = len(starts) - 1
        if len(offsets) != n + 1 or starts[n] != len(values) or offsets[n] > len(text):
            raise ValueError("bucket tables do not match their sections")
        self.loaded = bytearray(n)

    def take(self, b: int) -> tuple[list[str], Any]:
        """Bucket ``b``'s keys and values (empty when already taken)."""
        if self.loaded[b]:
            return [], ()
        self.loaded[b] = 1
        i, j = self.starts[b], self.starts[b + 1]
        if i == j:
            return [], ()
        a, z = self.offsets[b], self.offsets[b + 1]
        # the next bucket's first entry starts after a separator (none after the last bucket)
        end = z - len(self.sep.encode("utf-8")) if j < len(self.values) else z
        keys = str(self.text[a:end], "utf-8", "surrogatepass").split(self.sep)
        if len(keys) != j - i:
            raise ValueError(f"bucket {b} holds {len(keys)} entries; its table says {j - i}")
        return keys, itertools.accumulate(self.values[i:j])

    def take_all(self) -> tuple[list[str], Any]:
        """Every bucket's keys and values (bucket 0 included), all in C loops: the buckets
        are split in one go, and each value is the running sum of the differences minus the
        sum before its bucket."""
        n = len(self.starts) - 1
        self.loaded[:] = b"\x01" * n
        if not len(self.values):
            return [], ()
        keys = str(self.text[: self.offsets[n]], "utf-8", "surrogatepass").split(self.sep)
        if len(keys) != len(self.values):
            raise ValueError(f"the table holds {len(keys)} entries; its buckets say {len(self.values)}")
        sums = list(itertools.accumulate(self.values[0 : len(self.values)]))
        starts = self.starts
        counts = [starts[b + 1] - starts[b] for b in range(n)]
        bases = [sums[starts[b] - 1] if starts[b] else 0 for b in range(n)]
        each = itertools.chain.from_iterable(map(itertools.repeat, bases, counts))
        return keys, map(operator.sub, sums, each)


class LazyTables:
    """Fills ``vocab`` (``{token: id}``), ``id_to_token`` (``{id: token}``) and ``ranks``
    (``{left + sep + right: rank}``) bucket by bucket; see the module docstring.

    Args:
        sections: the compact file's sections (``*_text`` as raw bytes / memoryview).
        meta: its ``lazy`` meta.

    Raises:
        ValueError: sections that do not match each other.
    """

    def __init__(self, sections: dict[str, Any], meta: dict[str, Any]) -> None:
        self.n_buckets = int(meta["buckets"])
        self.n_tokens = int(meta["n_tokens"])
        self.max_id = int(meta["max_id"])
        self._vocab_t = _Table(
            sections["vocab_text"], sections["vocab_values"], sections["vocab_starts"], sections["vocab_offsets"],
            meta["vocab_sep"],
        )  # fmt: skip
        self._merge_t = _Table(
            sections["merge_text"], sections["merge_values"], sections["merge_starts"], sections["merge_offsets"],
            meta["merge_sep_char"],
        )  # fmt: skip
        self.vocab: dict[str, int] = {}
        self.id_to_token: dict[int, str] = {}
        self.ranks: dict[str, int] = {}
        self._seen: set[str] = set()
        self._left = self.n_buckets  # buckets not loaded yet (of 1..n_buckets)
        self.load(0)

    @property
    def n_merges(self) -> int:
        """How many merges the table holds (loaded or not)."""
        return len(self._merge_t.values)

    @property
    def complete(self) -> bool:
        """Is every bucket loaded?"""
        return self._left == 0

    def load(self, b: int) -> None:
        """Load bucket ``b`` of both tables."""
        keys, values = self._vocab_t.take(b)
        if keys:
            values = list(values)
            self.vocab.update(zip(keys, values))
            self.id_to_token.update(zip(values, keys))
        keys, values = self._merge_t.take(b)
        if keys:
            self.ranks.update(zip(keys, values))
        if b:
            self._left -= 1

    def need(self, piece: str) -> None:
        """Load what encoding ``piece`` (a model-level string: normalized, byte-mapped) can use."""
        if not self._left:
            return
        new = _all_keys(piece)
        new -= self._seen
        if new and self._left < self.n_buckets * 3 // 4:  # a quarter loaded: the rest in one go is quicker
            self.load_all()
        elif new:
            self._seen |= new
            n, loaded = self.n_buckets, self._vocab_t.loaded
            for g in new:
                h = 0
                for c in g:
                    h = h * _MUL + ord(c)
                if not loaded[1 + h % n]:
                    self.load(1 + h % n)

    def need_id(self, tid: int) -> None:
        """Make ``id_to_token`` hold token id ``tid`` if the vocabulary has it (loads everything left)."""
        if tid not in self.id_to_token and 0 <= tid <= self.max_id:
            self.load_all()

    def load_all(self) -> None:
        """Load every bucket left (the loaded ones again: the same entries)."""
        if self._left == 0:
            return
        keys, values = self._vocab_t.take_all()
        values = list(values)
        self.vocab.update(zip(keys, values))
        self.id_to_token.update(zip(values, keys))
        keys, values = self._merge_t.take_all()
        self.ranks.update(zip(keys, values))
        self._left = 0
