"""One protocol for every tokenizer kind, with the capabilities code chooses by.

:class:`bytepair.Tokenizer` (OpenAI encodings, trained tokenizers), :class:`bytepair.HFTokenizer`
(open models, ``tokenizer.json`` files) and :class:`bytepair.TekkenTokenizer` (Mistral's Tekken
files) implement :class:`TokenizerLike`. Code that treats the kinds differently (stepped counts,
limits, token stories, the page's switches, the command line) reads a capability attribute, never
the class: a new kind says what it can do and works everywhere.

Capabilities (read-only attributes; class attributes where they do not depend on the instance):

``adds_special_tokens``
    ``encode(text, add_special_tokens=...)`` adds post-processor tokens (BOS/EOS); False: the
    kind takes tiktoken's ``allowed_special`` / ``disallowed_special`` instead.
``special_tokens_in_text``
    how special-token strings typed in the text are read: ``"switch"`` (tiktoken's
    ``allowed_special``: plain text unless allowed), ``"always"`` (one token, as ``tokenizers``),
    ``"never"`` (plain text, as mistral-common).
``has_split_pattern``
    a regex pre-tokenizer divides the text into pieces encoded on their own.
``counts_in_steps``
    ``count_steps`` divides a count into exact steps (else it counts in one go).
``pipeline``
    what the kind's stages are, so a stage-wise walk (first spans, token stories) knows which
    stage interface to use: ``"rank"`` (:class:`Tokenizer`: normalize, split pattern, rank or
    merge BPE on each piece), ``"stages"`` (:class:`HFTokenizer`: a ``tokenizer.json``
    pipeline, see its stage methods), ``"base"`` (a wrapped base :class:`Tokenizer`,
    ``base_tokenizer``, plus ``bos_id``).
``writes_files``
    ``to_json`` / ``to_tiktoken`` / ``to_tokenizer_json`` save it (False: read-only formats).

This module imports no tokenizer class, so every module may import it.
"""

from __future__ import annotations

from collections.abc import Collection, Generator, Iterable
from typing import Any, Literal, Protocol, runtime_checkable

from .errors import ArgumentError, ArgumentTypeError

__all__ = ["LIMIT_BATCH", "TokenizerLike", "PipelineKind", "check_count", "count_within"]

#: Pieces counted between two looks at a limit (small: the walk stops soon after the limit).
LIMIT_BATCH = 64

#: What a kind's stages are (see the module docstring, ``pipeline``).
PipelineKind = Literal["rank", "stages", "base"]


@runtime_checkable
class TokenizerLike(Protocol):
    """What every tokenizer kind offers (see the module docstring for the capabilities)."""

    name: str

    @property
    def adds_special_tokens(self) -> bool: ...

    @property
    def special_tokens_in_text(self) -> Literal["switch", "always", "never"]: ...

    @property
    def has_split_pattern(self) -> bool: ...

    @property
    def counts_in_steps(self) -> bool: ...

    @property
    def pipeline(self) -> PipelineKind: ...

    @property
    def writes_files(self) -> bool: ...

    @property
    def pattern(self) -> str | None: ...

    @property
    def special_tokens(self) -> dict[str, int]: ...

    @property
    def n_vocab(self) -> int: ...

    def encode(self, text: str, **options: Any) -> list[int]: ...

    def encode_with_spans(self, text: str, **options: Any) -> list[Any]: ...

    def decode(self, ids: Iterable[int], **options: Any) -> str: ...

    def token_string(self, tid: int, /) -> str: ...

    def prepare_text(self, text: str) -> str:
        """``text`` as the count's positions count it (normalized where the kind normalizes the
        whole text first; lone surrogates replaced by U+FFFD)."""
        ...

    def count_steps(
        self,
        text: str,
        *,
        add_special_tokens: bool = True,
        allowed_special: Literal["all"] | Collection[str] = frozenset(),
        disallowed_special: Literal["all"] | Collection[str] = "all",
        batch: int = 2048,
    ) -> Generator[tuple[int, int], None, int]:
        """Count as ``encode`` does (see :func:`bytepair.app.chunked.count_steps`)."""
        ...


def check_count(value: Any, field: str, *, minimum: int) -> int:
    """``value`` if it is an ``int`` (not a ``bool``) of at least ``minimum``.

    Raises:
        ArgumentTypeError: not a whole number (``field``). ArgumentError: below ``minimum`` (``field``).
    """
    if isinstance(value, bool) or not isinstance(value, int):
        raise ArgumentTypeError(f"{field} must be a whole number, got {value!r}", field=field)
    if value < minimum:
        raise ArgumentError(f"{field} must be at least {minimum}, got {value}", field=field)
    return value


def count_within(steps: Generator[tuple[int, int], None, int], limit: int) -> int | Literal[False]:
    """Run a ``count_steps`` generator until its count passes ``limit`` (then ``False``, the rest
    not counted) or it ends (then the total, an ``int`` of at most ``limit``)."""
    try:
        while True:
            count, _position = next(steps)
            if count > limit:  # counts so far only grow
                steps.close()
                return False
    except StopIteration as stop:
        total: int = stop.value
    return total if total <= limit else False
