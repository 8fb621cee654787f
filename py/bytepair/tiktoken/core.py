"""tiktoken's ``Encoding`` class on bytepair's tokenizer (tiktoken 0.14.0 ``tiktoken/core.py``).

The merge rule, the split pattern and the piece cache are
:class:`bytepair.Tokenizer`'s; this class adds tiktoken's method names,
argument handling and errors on top. Units: *text* is ``str`` (characters),
*tokens* are ``int`` ids (tiktoken's ranks), *bytes* are UTF-8 bytes.
"""

from __future__ import annotations

import bisect
import functools
import re
from collections.abc import Callable, Collection, Sequence
from typing import TYPE_CHECKING, Any, Literal, NoReturn

from bytepair import bpe, specials
from bytepair.errors import ArgumentError, ArgumentTypeError
from bytepair.split.patterns import ALIASES, PATTERNS
from bytepair.split.pretokenize import compile_pattern
from bytepair.surrogates import fix_surrogates
from bytepair.tokenizer import Tokenizer

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np
    import numpy.typing as npt

__all__ = ["Encoding", "raise_disallowed_special_token"]

SpecialSet = Literal["all"] | Collection[str]

#: Bytes that count as space in tiktoken's "token is all space" rule
#: (``_increase_last_piece_token_len`` in tiktoken's ``src/lib.rs``).
_SPACE_BYTES = frozenset(b" \n\t")
#: Characters Python's ``str.isspace`` accepts that Unicode's White_Space
#: (Rust's ``char::is_whitespace``) does not: the four information separators.
_NOT_WHITE_SPACE = frozenset("\x1c\x1d\x1e\x1f")


class Encoding:
    """A tiktoken ``Encoding``: same constructor, attributes and methods, same ids.

    Build one as tiktoken does (``Encoding(name, pat_str=..., mergeable_ranks=...,
    special_tokens=...)``), or get a registered one with
    :func:`bytepair.tiktoken.get_encoding`.
    """

    def __init__(
        self,
        name: str,
        *,
        pat_str: str,
        mergeable_ranks: dict[bytes, int],
        special_tokens: dict[str, int],
        explicit_n_vocab: int | None = None,
    ) -> None:
        """An encoding from its parts, as ``tiktoken.Encoding(...)``.

        Args:
            name: the encoding's name (pickling registered encodings goes by it).
            pat_str: the split pattern, a regex in ``regex`` syntax.
            mergeable_ranks: ``{token bytes: rank}``; the rank is the token id
                and the merge priority. Kept as given (``_mergeable_ranks``).
            special_tokens: ``{token text: id}``. Kept as given (``_special_tokens``).
            explicit_n_vocab: if given, the number of mergeable plus special
                tokens, which must also be ``max_token_value + 1``.

        Raises:
            ValueError: ``explicit_n_vocab`` does not fit (tiktoken asserts);
                ``mergeable_ranks`` is empty, lacks one of the 256 single bytes,
                or gives two tokens one rank; ``pat_str`` is not a valid regex.
            TypeError: a special token is not a non-empty ``str`` with an ``int`` id.
        """
        max_token_value = max(max(mergeable_ranks.values()), max(special_tokens.values(), default=0))
        if explicit_n_vocab:
            n = len(mergeable_ranks) + len(special_tokens)
            if n != explicit_n_vocab or max_token_value != explicit_n_vocab - 1:
                raise ArgumentError(
                    f"explicit_n_vocab={explicit_n_vocab} does not fit: {len(mergeable_ranks)} mergeable + "
                    f"{len(special_tokens)} special tokens = {n}, largest id {max_token_value}",
                    field="explicit_n_vocab",
                )
        core = Tokenizer.from_ranks(mergeable_ranks, pattern=_as_regex(pat_str), name=name)
        core.register_special_tokens(_decodable_specials(special_tokens, core))
        self._setup(name, core, pat_str, special_tokens, mergeable_ranks, max_token_value)

    @classmethod
    def from_tokenizer(cls, name: str, core: Tokenizer, special_tokens: dict[str, int]) -> Encoding:
        """A registered encoding around an existing bytepair tokenizer (shared
        with :func:`bytepair.get_encoding`; never changed here). ``core`` must
        decode every id of ``special_tokens`` (not in tiktoken: :mod:`.registry` builds its
        encodings with it).

        Raises:
            ValueError: ``core`` has no split pattern.
        """
        enc = cls.__new__(cls)
        pat_str = core.pattern
        if pat_str is None:  # pragma: no cover - every registered encoding has a pattern
            raise ValueError(f"encoding {name!r} has no split pattern")
        enc._setup(name, core, pat_str, special_tokens, None, max(core.n_vocab - 1, *special_tokens.values()))
        return enc

    def _setup(
        self,
        name: str,
        core: Tokenizer,
        pat_str: str,
        special_tokens: dict[str, int],
        mergeable_ranks: dict[bytes, int] | None,
        max_token_value: int,
    ) -> None:
        self.name = name
        self._pat_str = pat_str
        self._special_tokens = special_tokens
        if mergeable_ranks is not None:
            self.__dict__["_mergeable_ranks"] = mergeable_ranks  # else made on first use
        self.max_token_value = max_token_value
        self._special_token_values = set(special_tokens.values())
        self._core = core

    def __repr__(self) -> str:
        return f"<Encoding {self.name!r}>"

    # ------------------------------------------------------------ attributes
    @functools.cached_property
    def _mergeable_ranks(self) -> dict[bytes, int]:
        """``{token bytes: rank}`` of the ordinary tokens (a registered
        encoding's is made from its tokenizer on first use)."""
        return self._core.mergeable_ranks()

    @functools.cached_property
    def _split(self):
        return compile_pattern(self._core.pattern).findall

    @functools.cached_property
    def _sorted_token_bytes(self) -> list[bytes]:
        return sorted(self._mergeable_ranks)

    @property
    def eot_token(self) -> int:
        """The id of ``<|endoftext|>``. Raises KeyError if the encoding has none."""
        return self._special_tokens["<|endoftext|>"]

    @functools.cached_property
    def special_tokens_set(self) -> set[str]:
        """The special tokens' texts."""
        return set(self._special_tokens)

    @property
    def n_vocab(self) -> int:
        """``max_token_value + 1`` (ids below it can be unused)."""
        return self.max_token_value + 1

    def is_special_token(self, token: int) -> bool:
        """Whether id ``token`` is a special token's. Raises TypeError for a non-int."""
        if not isinstance(token, int):
            raise ArgumentTypeError(f"token must be an int, not {type(token).__name__}", field="token")
        return token in self._special_token_values

    # --------------------------------------------------------------- encoding
    def _sets(self, allowed_special: SpecialSet, disallowed_special: SpecialSet, text: str) -> frozenset[str]:
        """tiktoken's reading of the two options: check ``text`` for a
        disallowed token (raise), return the allowed special tokens."""
        if allowed_special == "all":
            allowed_special = self.special_tokens_set
        elif isinstance(allowed_special, str):  # tiktoken fails on it too (a TypeError)
            raise ArgumentTypeError(
                f'allowed_special must be "all" or a set of token texts, e.g. {{{allowed_special!r}}}, not a str',
                field="allowed_special",
            )
        if disallowed_special == "all":
            disallowed_special = self.special_tokens_set - set(allowed_special)
        if disallowed_special:
            match = specials.special_regex(frozenset(disallowed_special)).search(text)  # type: ignore[union-attr]
            if match:
                raise_disallowed_special_token(match.group())
        # tiktoken ignores allowed names that are not special tokens
        return frozenset(t for t in allowed_special if t in self._special_tokens)

    def _encode_native(self, text: str, allowed: frozenset[str]) -> tuple[list[int], int]:
        """The tokens of ``text`` and how many came from its last split piece
        (0 when the text ends with a special token or is empty), as tiktoken's
        ``CoreBPE::encode``."""
        out: list[int] = []
        last = ""
        for segment, is_special in specials.split_on_specials(text, allowed):
            if is_special:
                out.append(self._special_tokens[segment])
                last = ""
            else:
                out += self._core.encode_ordinary(segment)
                last = segment
        if not last:
            return out, 0
        piece = self._split(last)[-1]
        return out, len(bpe.encode_piece_ranks(piece.encode("utf-8"), self._mergeable_ranks))

    def encode_ordinary(self, text: str) -> list[int]:
        """The tokens of ``text``, special tokens' texts encoded as ordinary text.

        Lone surrogates become U+FFFD (tiktoken's rule).
        """
        return self._core.encode_ordinary(text)

    def encode(
        self,
        text: str,
        *,
        allowed_special: SpecialSet = frozenset(),
        disallowed_special: SpecialSet = "all",
    ) -> list[int]:
        """The tokens of ``text``, with tiktoken's special-token contract.

        Args:
            text: the text (characters).
            allowed_special: special tokens encoded as their special id; ``"all"``.
                Names that are not special tokens are ignored (as tiktoken).
            disallowed_special: texts whose presence raises; ``"all"`` (default):
                every special token not allowed; ``()``: none (encoded as text).

        Raises:
            ValueError: the text holds a disallowed special token; tiktoken's message.
            TypeError: ``text`` is not a ``str``; ``allowed_special`` a ``str`` other than ``"all"``.
        """
        allowed = self._sets(allowed_special, disallowed_special, text)
        if not allowed:
            return self._core.encode_ordinary(text)
        return self._encode_allowed(_utf8_safe(text), allowed)

    def _encode_allowed(self, text: str, allowed: frozenset[str]) -> list[int]:
        out: list[int] = []
        for segment, is_special in specials.split_on_specials(text, allowed):
            if is_special:
                out.append(self._special_tokens[segment])
            else:
                out += self._core.encode_ordinary(segment)
        return out

    def encode_to_numpy(
        self,
        text: str,
        *,
        allowed_special: SpecialSet = frozenset(),
        disallowed_special: SpecialSet = "all",
    ) -> npt.NDArray[np.uint32]:
        """:meth:`encode` as a numpy ``uint32`` array (needs numpy)."""
        import numpy as np

        tokens = self.encode(text, allowed_special=allowed_special, disallowed_special=disallowed_special)
        return np.asarray(tokens, dtype=np.uint32)

    def encode_ordinary_batch(self, text: list[str], *, num_threads: int = 8) -> list[list[int]]:
        """:meth:`encode_ordinary` of each text, in order (``num_threads`` is accepted and unused)."""
        return [self.encode_ordinary(t) for t in text]

    def encode_batch(
        self,
        text: list[str],
        *,
        num_threads: int = 8,
        allowed_special: SpecialSet = frozenset(),
        disallowed_special: SpecialSet = "all",
    ) -> list[list[int]]:
        """:meth:`encode` of each text, in order (``num_threads`` is accepted and unused).

        Raises:
            ValueError: a text holds a disallowed special token.
        """
        if allowed_special == "all":
            allowed_special = self.special_tokens_set
        if disallowed_special == "all":
            disallowed_special = self.special_tokens_set - set(allowed_special)
        disallowed_special = frozenset(disallowed_special)
        return [self.encode(t, allowed_special=allowed_special, disallowed_special=disallowed_special) for t in text]

    def encode_with_unstable(
        self,
        text: str,
        *,
        allowed_special: SpecialSet = frozenset(),
        disallowed_special: SpecialSet = "all",
    ) -> tuple[list[int], list[list[int]]]:
        """Stable tokens of ``text`` and the token sequences that may follow them.

        Returns ``(stable, completions)``: ``stable`` encodes a prefix of
        ``text``; each completion, appended to ``stable``, decodes to bytes
        starting with the whole text. tiktoken's rule
        (``_encode_unstable_native`` in its ``src/lib.rs``): the last piece
        (widened over trailing all-space tokens) is unstable; completions are
        every token starting with its bytes, every re-encoding of a prefix of
        it plus a token starting with the rest, cut once they cover it, and the
        split before a final whitespace character. Sorted here (tiktoken: a set).

        Raises:
            ValueError: the text holds a disallowed special token.
        """
        allowed = self._sets(allowed_special, disallowed_special, text)
        tokens, last_len = self._encode_native(_utf8_safe(text), allowed)
        if last_len == 0:
            return tokens, []
        tokens, last_len = self._widen_last_piece(tokens, last_len)
        unstable = self._core.decode_bytes(tokens[len(tokens) - last_len :])
        del tokens[len(tokens) - last_len :]
        if not unstable:
            return tokens, []
        ranks = self._mergeable_ranks
        completions: set[tuple[int, ...]] = {(ranks[t],) for t in self._tokens_starting_with(unstable)}
        for i in range(1, len(unstable)):
            prefix, suffix = unstable[:i], unstable[i:]
            for t in self._tokens_starting_with(suffix):
                possibility = prefix + t
                try:
                    encoded = self.encode_ordinary(possibility.decode("utf-8"))
                except UnicodeDecodeError:
                    encoded = bpe.encode_piece_ranks(possibility, ranks)
                seq: list[int] = []
                covered = 0
                for token in encoded:
                    seq.append(token)
                    covered += len(self._core.decode_single_token_bytes(token))
                    if covered >= len(unstable):
                        break
                completions.add(tuple(seq))
        if len(unstable) > 1:
            ch, width = _last_char(unstable)
            if width < len(unstable) and ch is not None and ch.isspace() and ch not in _NOT_WHITE_SPACE:
                completions.add(
                    tuple(
                        bpe.encode_piece_ranks(unstable[:-width], ranks)
                        + bpe.encode_piece_ranks(unstable[-width:], ranks)
                    )
                )
        return tokens, [list(c) for c in sorted(completions)]

    def _widen_last_piece(self, tokens: list[int], last_len: int) -> tuple[list[int], int]:
        """tiktoken's ``_increase_last_piece_token_len``: if the last piece
        starts with an all-space token, take in the all-space tokens before it
        (a split there may vanish when text is added)."""
        vocab = self._core.vocab
        ranks = self._mergeable_ranks

        def all_space(token: int) -> bool:  # an ordinary token of spaces, tabs and newlines only
            b = vocab.get(token)
            return b is not None and ranks.get(b) == token and all(c in _SPACE_BYTES for c in b)

        if last_len > 0 and all_space(tokens[len(tokens) - last_len]):
            while last_len < len(tokens) and all_space(tokens[len(tokens) - last_len - 1]):
                last_len += 1
        return tokens, last_len

    def _tokens_starting_with(self, head: bytes) -> list[bytes]:
        """The mergeable tokens whose bytes start with ``head``, in byte order."""
        toks = self._sorted_token_bytes
        i = bisect.bisect_left(toks, head)
        out = []
        while i < len(toks) and toks[i].startswith(head):
            out.append(toks[i])
            i += 1
        return out

    def encode_single_token(self, text_or_bytes: str | bytes) -> int:
        """The id of the one token (ordinary or special) whose text or bytes is ``text_or_bytes``.

        Raises:
            KeyError: no single token has these bytes (the key is the bytes, as tiktoken).
        """
        if isinstance(text_or_bytes, str):
            text_or_bytes = text_or_bytes.encode("utf-8")
        token = self._mergeable_ranks.get(text_or_bytes)
        if token is not None:
            return token
        try:
            return self._special_tokens[text_or_bytes.decode("utf-8")]
        except (UnicodeDecodeError, KeyError):
            raise KeyError(text_or_bytes) from None

    # --------------------------------------------------------------- decoding
    def decode_bytes(self, tokens: Sequence[int]) -> bytes:
        """The bytes of ``tokens`` joined. Raises KeyError for an unknown id."""
        return self._core.decode_bytes(tokens)

    def decode(self, tokens: Sequence[int], errors: str = "replace") -> str:
        """The text of ``tokens``; ``errors`` as ``bytes.decode`` (default
        ``"replace"``: a cut character becomes U+FFFD). Raises KeyError for an unknown id."""
        return self._core.decode_bytes(tokens).decode("utf-8", errors=errors)

    def decode_single_token_bytes(self, token: int) -> bytes:
        """The bytes of one token, special tokens included. Raises KeyError for an unknown id."""
        return self._core.decode_single_token_bytes(token)

    def decode_tokens_bytes(self, tokens: Sequence[int]) -> list[bytes]:
        """Each token's bytes. Raises KeyError for an unknown id."""
        return [self._core.decode_single_token_bytes(t) for t in tokens]

    def decode_with_offsets(self, tokens: Sequence[int]) -> tuple[str, list[int]]:
        """The text of ``tokens`` and the character offset where each token starts.

        A token that starts inside a character (its first byte a UTF-8
        continuation byte) gets that character's offset (tiktoken's rule).

        Raises:
            UnicodeDecodeError: the tokens' bytes are not valid UTF-8.
            KeyError: an unknown id.
        """
        token_bytes = self.decode_tokens_bytes(tokens)
        offsets = []
        chars = 0  # characters started so far: bytes that are not continuation bytes
        for b in token_bytes:
            inside = 1 if 0x80 <= b[0] < 0xC0 else 0
            offsets.append(max(0, chars - inside))
            chars += sum(1 for c in b if not 0x80 <= c < 0xC0)
        return b"".join(token_bytes).decode("utf-8", errors="strict"), offsets

    def decode_batch(
        self, batch: Sequence[Sequence[int]], *, errors: str = "replace", num_threads: int = 8
    ) -> list[str]:
        """:meth:`decode` of each token list (``num_threads`` is accepted and unused)."""
        return [self.decode(tokens, errors=errors) for tokens in batch]

    def decode_bytes_batch(self, batch: Sequence[Sequence[int]], *, num_threads: int = 8) -> list[bytes]:
        """:meth:`decode_bytes` of each token list (``num_threads`` is accepted and unused)."""
        return [self.decode_bytes(tokens) for tokens in batch]

    # ---------------------------------------------------------- miscellaneous
    def token_byte_values(self) -> list[bytes]:
        """The bytes of every mergeable token, sorted (special tokens left out)."""
        return list(self._sorted_token_bytes)

    # ---------------------------------------------------- private, as tiktoken
    def _encode_single_piece(self, text_or_bytes: str | bytes) -> list[int]:
        """BPE on ``text_or_bytes`` as one piece: no split, no special tokens."""
        if isinstance(text_or_bytes, str):
            text_or_bytes = text_or_bytes.encode("utf-8")
        return bpe.encode_piece_ranks(text_or_bytes, self._mergeable_ranks)

    def _encode_only_native_bpe(self, text: str) -> list[int]:
        """:meth:`encode_ordinary` with the split done piece by piece here."""
        out: list[int] = []
        for piece in self._split(text):
            out += self._encode_single_piece(piece)
        return out

    def _encode_bytes(self, text: bytes) -> list[int]:
        """The tokens of bytes that may not be valid UTF-8 (tiktoken's
        ``_encode_bytes``): the valid prefix is encoded as text, then its last
        piece (widened as in :meth:`encode_with_unstable`) and the invalid
        rest are merged as one piece."""
        try:
            return self.encode_ordinary(text.decode("utf-8"))
        except UnicodeDecodeError as e:
            valid = e.start
        tokens, last_len = self._encode_native(text[:valid].decode("utf-8"), frozenset())
        tokens, last_len = self._widen_last_piece(tokens, last_len)
        if tokens and last_len > 0:
            rest = self._core.decode_bytes(tokens[len(tokens) - last_len :]) + text[valid:]
            del tokens[len(tokens) - last_len :]
        else:
            rest = text[valid:]
        if rest:
            tokens += bpe.encode_piece_ranks(rest, self._mergeable_ranks)
        return tokens

    # --------------------------------------------------------------- pickling
    def __getstate__(self) -> object:
        """A registered encoding pickles as its name, any other as its constructor arguments."""
        if self is ENCODINGS.get(self.name):
            return self.name
        return {
            "name": self.name,
            "pat_str": self._pat_str,
            "mergeable_ranks": self._mergeable_ranks,
            "special_tokens": self._special_tokens,
        }

    def __setstate__(self, value: Any) -> None:
        if isinstance(value, str):
            self.__dict__ = BY_NAME[0](value).__dict__
            return
        Encoding.__init__(self, **value)


#: The encodings built so far, by name (tiktoken's ``registry.ENCODINGS``; filled by
#: :func:`bytepair.tiktoken.registry.get_encoding`). A registered encoding pickles as its name.
ENCODINGS: dict[str, Encoding] = {}

#: ``[get_encoding]``, set by :mod:`bytepair.tiktoken.registry` when it loads (importing the
#: package loads it): unpickling a name builds the encoding there, and this module does not import
#: the registry that imports it.
BY_NAME: list[Callable[[str], Encoding]] = []


def raise_disallowed_special_token(token: str) -> NoReturn:
    """Raise tiktoken's ``ValueError`` for a disallowed special token found in the text."""
    raise ValueError(
        f"Encountered text corresponding to disallowed special token {token!r}.\n"
        "If you want this text to be encoded as a special token, "
        f"pass it to `allowed_special`, e.g. `allowed_special={{{token!r}, ...}}`.\n"
        "If you want this text to be encoded as normal text, disable the check for this token "
        f"by passing `disallowed_special=(enc.special_tokens_set - {{{token!r}}})`.\n"
        "To disable this check for all special tokens, pass `disallowed_special=()`.\n"
    )


def _as_regex(pat_str: str) -> str:
    """``pat_str`` as a regex bytepair reads as a regex: a bare word (which
    :func:`bytepair.resolve_pattern` takes for a pattern name) is wrapped in ``(?:...)``."""
    if pat_str == "none" or pat_str in PATTERNS or pat_str in ALIASES or re.fullmatch(r"[A-Za-z0-9_.-]+", pat_str):
        return f"(?:{pat_str})"
    return pat_str


def _decodable_specials(special_tokens: dict[str, int], core: Tokenizer) -> dict[str, int]:
    """The special tokens a bytepair tokenizer can hold beside ``core``'s
    ranks: each id once (the first name wins) and not an ordinary token's
    (tiktoken decodes those ids to the ordinary token)."""
    out: dict[str, int] = {}
    taken = set(core.vocab)
    for tok, i in special_tokens.items():
        if isinstance(i, int) and i not in taken:
            out[tok] = i
            taken.add(i)
    return out


def _utf8_safe(text: str) -> str:
    """``text`` with lone surrogates replaced (tiktoken's fallback), unchanged when valid."""
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, got {type(text).__name__}")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return fix_surrogates(text)
    return text


def _last_char(data: bytes) -> tuple[str | None, int]:
    """The last UTF-8 character of ``data`` and its length in bytes; ``(None, 1)``
    when the end is not a whole character (``bstr::decode_last_utf8``'s answer
    for the cases that matter here)."""
    for width in range(1, min(4, len(data)) + 1):
        try:
            ch = data[-width:].decode("utf-8")
        except UnicodeDecodeError:
            continue
        if len(ch) == 1:
            return ch, width
        break
    return None, 1
