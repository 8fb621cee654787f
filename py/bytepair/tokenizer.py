"""The :class:`Tokenizer`: pre-tokenize, merge, add special tokens; and back.

One class serves both kinds of vocabulary:

* real encodings (``Tokenizer.from_ranks``): token bytes -> rank, tiktoken's
  merge rule; ids are tiktoken's ranks, so output is id-for-id tiktoken's;
* trained tokenizers (``Tokenizer.from_merges``): ``(left, right) -> new id``
  in learned order, minbpe's merge rule; ids 0..255 are the single bytes.

Encoding: text -> (optional Unicode normalization) -> cut at allowed special
tokens -> split pattern (pre-tokenizer) -> each piece's UTF-8 bytes -> merges.
Pieces are cached (most text repeats its words), which is what makes a
pure-Python encoder fast.
"""

from __future__ import annotations

import bisect
import codecs
import dataclasses
import functools
import itertools
from collections.abc import Callable, Collection, Generator, Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import ClassVar, Literal

from . import bpe, offsets, specials
from .errors import TokenizerFileError
from .formats.serialize import read_json, to_json
from .normalize import normalize
from .protocol import LIMIT_BATCH, PipelineKind, check_count, count_within
from .split.pretokenize import compile_pattern, resolve_pattern
from .surrogates import fix_surrogates

__all__ = ["Tokenizer", "TokenSpan"]

_CACHE_MAX_ENTRIES = 200_000
_CACHE_MAX_PIECE_CHARS = 128


@dataclasses.dataclass(frozen=True, slots=True)
class TokenSpan:
    """One token and where it came from.

    ``id``: token id; ``token``: its bytes; ``[start, end)``: the smallest span
    of the input text (in characters, or UTF-16 code units with
    ``units="utf16"``) whose UTF-8 encoding covers the token's bytes. Tokens that
    are fragments of one character (emoji, CJK) share that character's span.
    ``special`` is True for a special token.
    """

    id: int
    token: bytes
    start: int
    end: int
    special: bool = False


class Tokenizer:
    """A byte-level BPE tokenizer. Build one with :meth:`from_ranks`,
    :meth:`from_merges`, :func:`bytepair.get_encoding`, :func:`bytepair.train`
    or :func:`bytepair.from_json`.

    Implements :class:`bytepair.protocol.TokenizerLike`; its pipeline stages, public inside the
    package: :meth:`prepare_text` (normalize), the split pattern (pre-tokenize, :attr:`pattern`),
    :meth:`count_pieces` / :meth:`piece_spans` (the model on pre-tokenized pieces).
    """

    #: Capabilities (:mod:`bytepair.protocol`): tiktoken's allowed_special / disallowed_special
    #: instead of add_special_tokens; special-token strings are text unless allowed; rank BPE on split pieces.
    adds_special_tokens: ClassVar[bool] = False
    special_tokens_in_text: ClassVar[Literal["switch", "always", "never"]] = "switch"
    pipeline: ClassVar[PipelineKind] = "rank"
    writes_files: ClassVar[bool] = True

    def __init__(
        self,
        *,
        name: str,
        pattern: str | None,
        ranks: Mapping[bytes, int] | None = None,
        merges: Mapping[tuple[int, int], int] | None = None,
        special_tokens: Mapping[str, int] | None = None,
        normalization: str | None = None,
        share_ranks: bool = False,
    ) -> None:
        """Prefer the ``from_*`` constructors. Exactly one of ``ranks`` / ``merges``.
        ``share_ranks``: keep the ``ranks`` dict itself, not a copy (see :meth:`from_ranks`).

        Raises:
            ValueError: both or neither of ranks/merges; an invalid pattern or
                normalization; colliding ids.
        """
        if (ranks is None) == (merges is None):
            raise ValueError("give exactly one of ranks= (a real encoding) or merges= (a trained tokenizer)")
        self.name = name
        self._pattern = resolve_pattern(pattern)
        self._split = compile_pattern(self._pattern).findall if self._pattern is not None else None
        normalize("", normalization)  # validates the form
        self.normalization = normalization
        self._ranks: dict[bytes, int] | None = None
        self._merges: dict[tuple[int, int], int] | None = None
        if ranks is not None:
            # (a copy of o200k_base's 199,998 ranks: ~10 MB and in Pyodide 5-20 ms, more while the heap grows)
            self._ranks = ranks if share_ranks and type(ranks) is dict else dict(ranks)
            # the inverse, {rank: token bytes}, built by dict() in C: in Pyodide 20 ms against 52 ms
            # for a comprehension over o200k_base's 199,998 ranks (on CPython 16 ms against 12 ms)
            self._vocab = dict(zip(self._ranks.values(), self._ranks.keys()))
            if len(self._vocab) != len(self._ranks):
                raise ValueError("two tokens share one rank; each rank must be unique")
            missing = [b for b in range(256) if bytes((b,)) not in self._ranks]
            if missing:
                raise ValueError(
                    f"a byte-level vocabulary needs a token for each of the 256 bytes; {len(missing)} are missing "
                    f"(first: {bytes((missing[0],))!r})"
                )
            self._encode_piece: Callable[[bytes], Sequence[int]] = bpe.rank_encoder(self._ranks)
        else:
            self._merges = dict(merges)  # type: ignore[arg-type]
            _check_merges(self._merges)  # (the vocabulary itself is built on first use: _vocab)
            merges_get = self._merges
            self._encode_piece = lambda b: bpe.encode_piece_merges(b, merges_get)
        self._special_tokens: dict[str, int] = {}
        self._cache: dict[str, Sequence[int]] = {}  # tuples from bpe.rank_encoder, lists from encode_piece_merges
        self._span_cache: dict[str, list[tuple[int, int, int]]] = {}
        self._derived_merges: dict[tuple[int, int], int] | None = None
        self._shared = False  # set for get_encoding()'s cached objects: no in-place changes
        if special_tokens:
            self.register_special_tokens(special_tokens)

    # ----------------------------------------------------------- constructors
    @classmethod
    def from_ranks(
        cls,
        ranks: Mapping[bytes, int],
        *,
        pattern: str | None,
        special_tokens: Mapping[str, int] | None = None,
        name: str = "custom",
        normalization: str | None = None,
        share_ranks: bool = False,
    ) -> Tokenizer:
        """A tokenizer over tiktoken-style ranks (token bytes -> rank = id).

        ``share_ranks``: keep ``ranks`` itself (a ``dict``) instead of a copy, for a caller that
        will never change it (:func:`bytepair.get_encoding`'s cached ranks; the tokenizer
        never changes its ranks either): one table in memory, not two."""
        return cls(
            name=name,
            pattern=pattern,
            ranks=ranks,
            special_tokens=special_tokens,
            normalization=normalization,
            share_ranks=share_ranks,
        )

    @classmethod
    def from_merges(
        cls,
        merges: Mapping[tuple[int, int], int] | Iterable[tuple[int, int]],
        *,
        pattern: str | None = "cl100k_base",
        special_tokens: Mapping[str, int] | Sequence[str] | None = None,
        normalization: str | None = None,
        name: str = "trained",
    ) -> Tokenizer:
        """A tokenizer from learned merges (minbpe convention).

        Args:
            merges: ``{(left_id, right_id): new_id}`` or a sequence of pairs in
                learned order (merge *k* gets id ``256 + k``).
            pattern: ``"none"``, an encoding name, or a custom regex.
            special_tokens: ``{token: id}``, or a list of token strings that get
                the ids right after the last merge, in order.

        Raises:
            ValueError: a merge refers to an id that does not exist yet, or ids
                are not ``256, 257, ...`` in order.
        """
        if isinstance(merges, (str, bytes)):
            raise TypeError(
                "merges must be {(left_id, right_id): new_id} or a list of (left_id, right_id) pairs, not a string"
            )
        if not isinstance(merges, Mapping):
            pairs = list(merges)
            for k, p in enumerate(pairs):
                if not (
                    isinstance(p, (tuple, list))
                    and len(p) == 2
                    and all(isinstance(x, int) and not isinstance(x, bool) for x in p)
                ):
                    raise TypeError(f"merge {k} must be a (left_id, right_id) pair of ints, got {p!r}")
            merges = {(p[0], p[1]): 256 + k for k, p in enumerate(pairs)}
        if special_tokens is not None and not isinstance(special_tokens, Mapping):
            first = 256 + len(merges)
            special_tokens = {s: first + k for k, s in enumerate(special_tokens)}
        return cls(
            name=name, pattern=pattern, merges=merges, special_tokens=special_tokens, normalization=normalization
        )

    # ------------------------------------------------------------ properties
    @property
    def pattern(self) -> str | None:
        """The split pattern (regex source), or None for no pre-tokenizer ("none")."""
        return self._pattern

    @property
    def has_split_pattern(self) -> bool:
        """Capability: a split pattern divides the text into pieces encoded on their own."""
        return self._pattern is not None

    @property
    def counts_in_steps(self) -> bool:
        """Capability: :meth:`count_steps` divides the count (with a split pattern; without one,
        BPE merges across any cut and the text is counted in one go)."""
        return self._pattern is not None

    @property
    def special_tokens(self) -> dict[str, int]:
        """``{token string: id}`` (a copy)."""
        return dict(self._special_tokens)

    @property
    def special_tokens_set(self) -> set[str]:
        return set(self._special_tokens)

    @functools.cached_property
    def _vocab(self) -> dict[int, bytes]:
        """``{id: token bytes}`` of a trained tokenizer, built from its merges on first use (a real
        encoding's is set in ``__init__``). Late merges of a long run without a pre-tokenizer make
        tokens of many KB: hundreds of MB in all, seconds to build; a tokenizer made at the end of a
        training run (or read from a file) is usable for encoding before then (issue 19: Stop)."""
        vocab = _vocab_from_merges(self._merges)  # type: ignore[arg-type]
        for tok, i in self._special_tokens.items():
            vocab[i] = tok.encode("utf-8")
        return vocab

    def _n_tokens(self) -> int:
        """``len(self._vocab)``, without building a trained tokenizer's vocabulary."""
        if self._merges is not None and "_vocab" not in self.__dict__:
            return 256 + len(self._merges) + len(self._special_tokens)
        return len(self._vocab)

    @property
    def n_vocab(self) -> int:
        """Largest token id + 1 (tiktoken's definition; real encodings have holes)."""
        if self._merges is not None and "_vocab" not in self.__dict__:
            return max([255 + len(self._merges), *self._special_tokens.values()]) + 1
        return max(self._vocab) + 1

    @property
    def vocab(self) -> Mapping[int, bytes]:
        """``{id: token bytes}``, special tokens included (read-only view)."""
        return MappingProxyType(self._vocab)

    @property
    def is_trained(self) -> bool:
        """True for a tokenizer built from merges (minbpe rule), False for ranks (tiktoken rule)."""
        return self._merges is not None

    @property
    def merges(self) -> dict[tuple[int, int], int]:
        """``{(left_id, right_id): new_id}`` in learned order.

        For a real encoding the merges are derived from the ranks: each token of
        two or more bytes, in rank order, split by BPE with the lower ranks only;
        tokens that do not split into exactly two earlier tokens are left out.
        Deriving takes a few seconds for the 200k-token o200k_base.
        """
        if self._merges is not None:
            return dict(self._merges)
        if self._derived_merges is None:
            self._derived_merges = bpe.recover_merges(self._ranks)  # type: ignore[arg-type]
        return dict(self._derived_merges)

    def __repr__(self) -> str:
        kind = "merges" if self.is_trained else "ranks"
        return f"<Tokenizer {self.name!r} ({kind}) n_vocab={self.n_vocab}>"

    def copy(self) -> Tokenizer:
        """An independent tokenizer with the same vocabulary, merges and special tokens.

        Use it to add special tokens to a real encoding: the object
        :func:`bytepair.get_encoding` returns is shared by every caller and
        cannot change. The (read-only) ranks or merges and the piece cache are
        shared, so a copy is cheap.
        """
        new = object.__new__(Tokenizer)
        new.__dict__.update(self.__dict__)
        new._vocab = dict(self._vocab)
        new._special_tokens = dict(self._special_tokens)
        new._shared = False
        return new

    # --------------------------------------------------------- special tokens
    def mark_shared(self) -> None:
        """Mark this object as shared by every caller (:func:`bytepair.get_encoding`'s cached
        encodings): in-place changes (:meth:`register_special_tokens`) then raise; change a
        :meth:`copy` instead."""
        self._shared = True

    def register_special_tokens(self, tokens: Mapping[str, int]) -> None:
        """Add special tokens ``{token string: id}`` (or move one to a new id).

        Raises:
            TypeError: a token is not a non-empty ``str`` or an id not an ``int``.
            ValueError: an id is negative or already used by another token; or
                this is a shared :func:`bytepair.get_encoding` object (use :meth:`copy`).
        """
        if self._shared:
            raise ValueError(
                f"the {self.name!r} tokenizer from get_encoding() is shared by every caller and cannot change; "
                f"add special tokens to a copy: enc = bytepair.get_encoding({self.name!r}).copy(); enc.register_special_tokens(...)"
            )
        if not isinstance(tokens, Mapping):
            raise TypeError(
                f"special tokens must be a mapping {{token string: id}}, e.g. {{'<|endoftext|>': {self.n_vocab}}}, got {type(tokens).__name__}"
            )
        ids_in_call: dict[int, str] = {}
        for tok, i in tokens.items():
            if isinstance(i, int) and i in ids_in_call:
                raise ValueError(
                    f"special tokens {ids_in_call[i]!r} and {tok!r} both ask for id {i}; give each its own id"
                )
            ids_in_call[i] = tok
            if not isinstance(tok, str) or not tok:
                raise TypeError(f"a special token must be a non-empty str, got {tok!r}")
            if not isinstance(i, int) or isinstance(i, bool):
                raise TypeError(f"the id of special token {tok!r} must be an int, got {i!r}")
            if i < 0:
                raise ValueError(f"the id of special token {tok!r} must be >= 0, got {i}")
            owner = self._vocab.get(i)
            if owner is not None and self._special_tokens.get(tok) != i:
                raise ValueError(
                    f"id {i} for special token {tok!r} is already taken by {owner!r}; pick an id >= {self.n_vocab}"
                )
        for tok, i in tokens.items():
            old = self._special_tokens.get(tok)
            if old is not None:
                del self._vocab[old]
            self._special_tokens[tok] = i
            self._vocab[i] = tok.encode("utf-8")

    # --------------------------------------------------------------- encoding
    def encode_ordinary(self, text: str) -> list[int]:
        """Encode ``text`` ignoring special tokens (their strings are plain text).

        Returns token ids. Raises TypeError if ``text`` is not a ``str``.
        """
        text = self._prepare(text)
        try:
            return self._encode_segment(text)
        except UnicodeEncodeError:
            return self._encode_segment(fix_surrogates(text))

    def encode(
        self,
        text: str,
        *,
        allowed_special: Literal["all"] | Collection[str] = frozenset(),
        disallowed_special: Literal["all"] | Collection[str] = "all",
    ) -> list[int]:
        """Encode ``text`` to token ids, tiktoken's contract for special tokens.

        Args:
            text: the text (characters).
            allowed_special: special tokens encoded as their special id when the
                text contains them; ``"all"`` for every one.
            disallowed_special: special tokens whose presence raises; ``"all"``
                (default) = every special token not allowed; ``()`` to encode
                them as ordinary text.

        Returns:
            Token ids.

        Raises:
            TypeError: ``text`` is not a ``str``.
            ValueError: the text contains a disallowed special token (the message
                names it and both ways out).
        """
        text = self._prepare(text)
        allowed, disallowed = specials.resolve_special_sets(self._special_tokens, allowed_special, disallowed_special)
        if disallowed:
            specials.check_disallowed(text, disallowed)
        try:
            return self._encode_with_specials(text, allowed)
        except UnicodeEncodeError:
            return self._encode_with_specials(fix_surrogates(text), allowed)

    def _prepare(self, text: str) -> str:
        if not isinstance(text, str):
            raise TypeError(f"text must be a str, got {type(text).__name__}; decode bytes first (data.decode('utf-8'))")
        if self.normalization is not None:
            text = normalize(text, self.normalization)
        return text

    def prepare_text(self, text: str) -> str:
        """The normalize stage: ``text`` as :meth:`encode` encodes it (NFC/NFKC over the whole
        text, lone surrogates replaced by U+FFFD as its retry does).

        Raises:
            TypeError: ``text`` is not a ``str``.
        """
        work = self._prepare(text)
        try:
            work.encode("utf-8")
        except UnicodeEncodeError:
            work = fix_surrogates(work)
        return work

    def count_steps(
        self,
        text: str,
        *,
        add_special_tokens: bool = True,
        allowed_special: Literal["all"] | Collection[str] = frozenset(),
        disallowed_special: Literal["all"] | Collection[str] = "all",
        batch: int = 2048,
    ) -> Generator[tuple[int, int], None, int]:
        """Count ``text`` as :meth:`encode` (same ``allowed_special`` / ``disallowed_special``;
        ``add_special_tokens`` is ignored: this kind adds none), yielding ``(tokens so far,
        position in :meth:`prepare_text`'s text)`` every ``batch`` pieces; returns the total.

        With a split pattern the pieces come from one lazy ``finditer`` over the whole text (the
        same pieces as :meth:`encode_ordinary`, whatever the pattern's look-arounds); without one
        the text is counted in one go (no yield). See :func:`bytepair.app.chunked.count_steps`.

        Raises:
            TypeError: ``text`` is not a ``str``. ValueError: ``batch`` < 1; a disallowed special
            token in the text (before anything is counted); an ``allowed_special`` name that is
            not a special token.
        """
        if batch < 1:
            raise ValueError(f"batch must be >= 1, got {batch}")
        work = self.prepare_text(text)
        allowed, disallowed = specials.resolve_special_sets(self._special_tokens, allowed_special, disallowed_special)
        if disallowed:
            specials.check_disallowed(work, disallowed)
        if self._pattern is None:
            return len(self._encode_with_specials(work, allowed))
        finditer = compile_pattern(self._pattern).finditer
        count_pieces = self.count_pieces
        count = offset = 0
        for segment, is_special in specials.split_on_specials(work, allowed) if allowed else ((work, False),):
            if is_special:
                count += 1
            else:
                matches = finditer(segment)
                while pieces := list(itertools.islice(matches, batch)):
                    count += count_pieces(m.group() for m in pieces)
                    yield count, offset + pieces[-1].end()
            offset += len(segment)
        return count

    def _encode_with_specials(self, text: str, allowed: frozenset[str]) -> list[int]:
        if not allowed:
            return self._encode_segment(text)
        out: list[int] = []
        for segment, is_special in specials.split_on_specials(text, allowed):
            if is_special:
                out.append(self._special_tokens[segment])
            else:
                out += self._encode_segment(segment)
        return out

    def _encode_segment(self, text: str) -> list[int]:
        """Ordinary text (no special tokens) -> ids. May raise UnicodeEncodeError."""
        if self._split is None:
            return list(self._encode_piece(text.encode("utf-8"))) if text else []
        get = self._cache.get
        miss = self._piece_miss
        out: list[int] = []
        for piece in self._split(text):
            ids = get(piece)
            if ids is None:
                ids = miss(piece)
            out += ids
        return out

    def _count_segment(self, text: str) -> int:
        """``len(self._encode_segment(text))`` without the list of ids (same cache). May raise UnicodeEncodeError."""
        if self._split is None:
            return len(self._encode_segment(text))
        return self.count_pieces(self._split(text))

    def count_pieces(self, pieces: Iterable[str]) -> int:
        """The model stage, counted: tokens of pre-tokenizer pieces (``str``, as the split pattern
        cut them), through the piece cache. May raise UnicodeEncodeError (lone surrogates)."""
        get = self._cache.get
        miss = self._piece_miss
        n = 0
        for piece in pieces:
            ids = get(piece)
            if ids is None:
                ids = miss(piece)
            n += len(ids)
        return n

    def _piece_miss(self, piece: str) -> Sequence[int]:
        """The ids of a piece not in the cache: merged, and cached when short. May raise UnicodeEncodeError."""
        ids = self._encode_piece(piece.encode("utf-8"))
        if len(piece) <= _CACHE_MAX_PIECE_CHARS:
            cache = self._cache
            if len(cache) >= _CACHE_MAX_ENTRIES:
                cache.clear()
            cache[piece] = ids
        return ids

    def count_ordinary(self, text: str) -> int:
        """Number of tokens :meth:`encode_ordinary` gives for ``text`` (special-token strings
        are plain text), counted without building the list of ids.

        Raises TypeError if ``text`` is not a ``str``.
        """
        text = self._prepare(text)
        try:
            return self._count_segment(text)
        except UnicodeEncodeError:
            return self._count_segment(fix_surrogates(text))

    def count(self, text: str) -> int:
        """Number of tokens of ``text`` encoded with every special token allowed."""
        return len(self.encode(text, allowed_special="all"))

    def is_within_limit(
        self,
        text: str,
        limit: int,
        *,
        allowed_special: Literal["all"] | Collection[str] = frozenset(),
        disallowed_special: Literal["all"] | Collection[str] = "all",
    ) -> int | Literal[False]:
        """The token count of ``text`` (as :meth:`encode`) if at most ``limit``, else ``False``,
        stopping as soon as the count passes ``limit`` (:func:`bytepair.app.limits.is_within_limit`).

        Raises:
            ArgumentError: ``limit`` is negative or not an int (``field="limit"``).
            TypeError: ``text`` is not a ``str``. ValueError: a disallowed special token in the text.
        """
        check_count(limit, "limit", minimum=0)
        steps = self.count_steps(
            text, allowed_special=allowed_special, disallowed_special=disallowed_special, batch=LIMIT_BATCH
        )
        return count_within(steps, limit)

    def encode_with_spans(
        self,
        text: str,
        *,
        allowed_special: Literal["all"] | Collection[str] = frozenset(),
        disallowed_special: Literal["all"] | Collection[str] = "all",
        units: Literal["chars", "utf16"] = "chars",
    ) -> list[TokenSpan]:
        """Encode and say which part of ``text`` each token covers.

        Same ids as :meth:`encode`. Offsets index the ``text`` you pass, in
        characters (``units="chars"``) or UTF-16 code units (``"utf16"``, for
        JavaScript strings). A character split over several tokens gives each
        of them that character's span. When normalization or the U+FFFD
        replacement of lone surrogates changes the text, a token's span is the
        smallest run of input characters whose normalized form holds it.

        Raises:
            TypeError / ValueError: as :meth:`encode`; ValueError for bad ``units``.
        """
        if units not in ("chars", "utf16"):
            raise ValueError(f'units must be "chars" or "utf16", got {units!r}')
        original = text
        work = self._prepare(text)
        try:
            work.encode("utf-8")
        except UnicodeEncodeError:
            work = fix_surrogates(work)
        allowed, disallowed = specials.resolve_special_sets(self._special_tokens, allowed_special, disallowed_special)
        if disallowed:
            specials.check_disallowed(work, disallowed)
        raw: list[tuple[int, int, int, bool]] = []  # (id, start, end, special) in characters of `work`
        offset = 0
        for segment, is_special in specials.split_on_specials(work, allowed):
            if is_special:
                raw.append((self._special_tokens[segment], offset, offset + len(segment), True))
            else:
                self._segment_spans(segment, offset, raw)
            offset += len(segment)
        if work != original:
            raw = offsets.map_back(original, work, raw, self.normalization)
        if units == "utf16":
            raw = offsets.chars_to_utf16(original, raw)
        vocab = self._vocab
        return [TokenSpan(t, vocab[t], a, b, sp) for t, a, b, sp in raw]

    def _segment_spans(self, segment: str, offset: int, out: list[tuple[int, int, int, bool]]) -> None:
        """Append ``(id, start, end, False)`` for ordinary text ``segment`` placed at ``offset``."""
        if self._split is None:
            pieces = [(0, segment)] if segment else []
        else:
            pieces = [(m.start(), m.group()) for m in compile_pattern(self._pattern).finditer(segment)]  # type: ignore[arg-type]
        cache = self._span_cache
        for start, piece in pieces:
            rel = cache.get(piece)
            if rel is None:
                rel = self.piece_spans(piece)
                if len(piece) <= _CACHE_MAX_PIECE_CHARS:
                    if len(cache) >= _CACHE_MAX_ENTRIES:
                        cache.clear()
                    cache[piece] = rel
            base = offset + start
            out += [(t, base + a, base + b, False) for t, a, b in rel]

    def piece_spans(self, piece: str) -> list[tuple[int, int, int]]:
        """The model stage with offsets: ``(id, start, end)`` in characters of ``piece`` (one
        pre-tokenizer piece, or the whole text without a split pattern) for each of its tokens.
        May raise UnicodeEncodeError (lone surrogates)."""
        data = piece.encode("utf-8")
        ids = self._encode_piece(data)
        vocab = self._vocab
        rel = []
        pos = 0
        if len(data) == len(piece):  # ASCII: bytes == characters
            for t in ids:
                n = len(vocab[t])
                rel.append((t, pos, pos + n))
                pos += n
            return rel
        char_starts = [0]  # byte offset where each character starts, plus the end
        for ch in piece:
            char_starts.append(char_starts[-1] + len(ch.encode("utf-8")))
        for t in ids:
            end = pos + len(vocab[t])
            rel.append((t, bisect.bisect_right(char_starts, pos) - 1, bisect.bisect_left(char_starts, end)))
            pos = end
        return rel

    # --------------------------------------------------------------- decoding
    def decode_bytes(self, ids: Iterable[int]) -> bytes:
        """Token ids -> the exact bytes (no UTF-8 decoding).

        Raises:
            KeyError: an id is not in the vocabulary (the message names it).
            TypeError: an id is not an int.
        """
        ids = ids if isinstance(ids, (list, tuple)) else list(ids)
        vocab = self._vocab
        try:
            return b"".join([vocab[i] for i in ids])
        except (KeyError, TypeError):
            for i in ids:
                self.decode_single_token_bytes(i)
            raise

    def decode(self, ids: Iterable[int], errors: str = "replace") -> str:
        """Token ids -> text. With ``errors="replace"`` (default) invalid UTF-8
        (a token sequence cut inside a character) becomes U+FFFD; never raises
        for valid ids. Other ``errors`` values are those of ``bytes.decode``.
        """
        try:
            codecs.lookup_error(errors)
        except (LookupError, TypeError) as e:
            raise ValueError(
                f'unknown errors={errors!r}: use "replace" (default), "strict", "ignore" or "backslashreplace"'
            ) from e
        return self.decode_bytes(ids).decode("utf-8", errors=errors)

    def decode_single_token_bytes(self, token: int) -> bytes:
        """The bytes of one token id.

        Raises:
            TypeError: ``token`` is not an int.
            KeyError: no token has this id (e.g. cl100k_base's holes at 100256
                and 100261-100275, or a negative id).
        """
        if not isinstance(token, int) or isinstance(token, bool):
            raise TypeError(f"token ids are ints, got {token!r} ({type(token).__name__})")
        b = self._vocab.get(token)
        if b is None:
            raise KeyError(
                f"token id {token} is not in the vocabulary of {self.name!r}: valid ids are 0..{self.n_vocab - 1}"
                + (" except the unused ids in between" if len(self._vocab) != self.n_vocab else "")
            )
        return b

    token_bytes = decode_single_token_bytes

    def decode_tokens_bytes(self, ids: Iterable[int]) -> list[bytes]:
        """Token ids -> each token's bytes."""
        return [self.decode_single_token_bytes(i) for i in ids]

    def token_string(self, token: int) -> str:
        """Token ``token`` spelled as a Hugging Face byte-level vocabulary spells it
        (GPT-2's byte-to-unicode map: ``b" hello"`` -> ``"Ġhello"``); special tokens: their text.

        Same method as :meth:`bytepair.HFTokenizer.token_string`, so views show every kind alike.

        Raises:
            KeyError: no token has this id.
        """
        from .decoding import gpt2_view

        for s, i in self._special_tokens.items():
            if i == token:
                return s
        return gpt2_view(self.decode_single_token_bytes(token))

    def describe(self) -> dict:
        """JSON-friendly facts for an info panel, with the keys of :meth:`bytepair.HFTokenizer.describe`
        where they apply.

        ``model``: ``"BPE (tiktoken ranks)"`` (a real encoding: tiktoken's merge rule)
        or ``"BPE (learned merges)"`` (minbpe's rule); ``vocab_size``: tokens
        (bytes + merges; special tokens not included); ``n_vocab``: largest id + 1;
        ``normalizer``: ``None`` or ``{"type": "NFC"|"NFKC"}``; ``pre_tokenizer``:
        ``{"type": "Split", "regex", "name"}`` (``name``: the encoding whose pattern it
        is, or ``None``) or ``None``; byte-level, no byte fallback, nothing added
        by a post-processor (no BOS/EOS).
        """
        from .split.patterns import PATTERNS

        pattern = self._pattern
        pattern_name = next((n for n, p in PATTERNS.items() if p == pattern), None) if pattern else None
        n_special = len(self._special_tokens)
        return {
            "name": self.name,
            "model": "BPE (learned merges)" if self.is_trained else "BPE (tiktoken ranks)",
            "vocab_size": self._n_tokens() - n_special,
            "n_vocab": self.n_vocab,
            "n_merges": len(self._merges) if self._merges is not None else len(self._vocab) - n_special - 256,
            "n_added_tokens": n_special,
            "byte_level": True,
            "byte_fallback": False,
            "normalizer": {"type": self.normalization} if self.normalization else None,
            "pre_tokenizer": {"type": "Split", "regex": pattern, "name": pattern_name} if pattern else None,
            "split_patterns": [pattern] if pattern else [],
            "post_processor": None,
            "decoder": None,
            "special_tokens": self.special_tokens,
            "bos_token": None,
            "eos_token": None,
            "has_chat_template": False,
        }

    # ------------------------------------------------------------------ files
    def to_json(self) -> str:
        """The versioned JSON form of a trained tokenizer (see :mod:`bytepair.formats.serialize`)."""
        return to_json(self)

    def to_tiktoken(self) -> bytes:
        """The ``.tiktoken`` rank file (``base64(token) rank`` per line) of the ordinary tokens.

        Raises:
            ValueError: two ids of a trained tokenizer have the same bytes (a
                rank file cannot express that; save JSON instead).
        """
        from .formats.tiktoken_file import dump_tiktoken_bpe

        return dump_tiktoken_bpe(self.mergeable_ranks())

    def to_tokenizer_json(self) -> str:
        """A Hugging Face ``tokenizer.json`` with the same ids (see :func:`bytepair.formats.hf_export.to_tokenizer_json`)."""
        from .formats.hf_export import to_tokenizer_json

        return to_tokenizer_json(self)

    def to_tokenizer_config_json(self) -> str:
        """The matching ``tokenizer_config.json`` (see :func:`bytepair.formats.hf_export.to_tokenizer_config_json`)."""
        from .formats.hf_export import to_tokenizer_config_json

        return to_tokenizer_config_json(self)

    def mergeable_ranks(self) -> dict[bytes, int]:
        """``{token bytes: rank}`` of the ordinary (non-special) tokens."""
        if self._ranks is not None:
            return dict(self._ranks)
        specials_ids = set(self._special_tokens.values())
        ranks: dict[bytes, int] = {}
        for i, b in self._vocab.items():
            if i in specials_ids:
                continue
            if b in ranks:
                raise ValueError(
                    f"ids {ranks[b]} and {i} both stand for {b!r}; a .tiktoken rank file cannot hold that — save with to_json()"
                )
            ranks[b] = i
        return ranks


def from_json(text: str | bytes) -> Tokenizer:
    """Load a tokenizer saved by :meth:`Tokenizer.to_json` (format: :mod:`bytepair.formats.serialize`).

    Args:
        text: the JSON text (``str`` or UTF-8 ``bytes``).

    Returns:
        A :class:`Tokenizer` built from the file's merges.

    Raises:
        TypeError: ``text`` is neither ``str`` nor ``bytes``.
        TokenizerFileError (a ValueError): see :func:`bytepair.formats.serialize.read_json`; also a file whose
            fields the tokenizer refuses (an invalid pattern or normalization).
    """
    fields = read_json(text)
    try:
        return Tokenizer.from_merges(**fields)
    except (TypeError, ValueError) as e:
        raise TokenizerFileError(f"tokenizer file is invalid: {e}") from e


def _check_merges(merges: dict[tuple[int, int], int]) -> None:
    """Merge ids are 256, 257, ... in learned order, each made of ids made before it.

    Raises:
        ValueError: which merge breaks that, and how.
    """
    for k, ((a, b), new) in enumerate(merges.items()):
        if new != 256 + k:
            raise ValueError(f"merge {k} ({a}, {b}) has id {new}; merge ids must be 256, 257, ... in learned order")
        if not (isinstance(a, int) and isinstance(b, int) and 0 <= a < new and 0 <= b < new):
            raise ValueError(f"merge {k} ({a}, {b}) uses an id that no earlier merge made; ids so far are 0..{new - 1}")


def _vocab_from_merges(merges: dict[tuple[int, int], int]) -> dict[int, bytes]:
    """ids 0..255 = bytes; each merge's id = its two parts joined (minbpe ``_build_vocab``).

    Raises:
        ValueError: as :func:`_check_merges`.
    """
    _check_merges(merges)
    vocab = {i: bytes((i,)) for i in range(256)}
    for (a, b), new in merges.items():
        vocab[new] = vocab[a] + vocab[b]
    return vocab
