"""Long texts in pieces, exactly: a count in time-boxed steps, and the first tokens' spans.

A :class:`bytepair.Tokenizer` with a split pattern encodes each pre-tokenizer piece on its own:
the ids of a text are the ids of its pieces, concatenated. So a count can walk the pieces of the
whole text (one lazy ``finditer`` over it: the same pieces as :meth:`Tokenizer.encode_ordinary`,
whatever the pattern's look-arounds) a range at a time, and the sum equals
``len(tok.encode_ordinary(text))``. The playground's worker steps a :class:`CountJob` for ~50 ms,
yields to its other calls, and steps it again (``web/src/worker.js`` ``countStepped``).

Open models and loaded ``tokenizer.json`` files (:class:`bytepair.hf.tokenizer.HFTokenizer`) are
stepped by :func:`bytepair.hf.chunked.hf_count_steps` (their pipeline's stages, the model's
pieces a batch at a time); Tekken files (:class:`bytepair.hf.tekken.TekkenTokenizer`) count their
base :class:`Tokenizer` in steps, plus BOS.

Counted in one step, as :func:`bytepair.app.models.count_tokens` counts (exact, not divided): a
Tokenizer without a split pattern (``pattern="none"``: the whole text is one piece, and BPE
merges across any cut).
"""

from __future__ import annotations

import time
from collections.abc import Collection, Generator
from typing import Any, Literal

from .. import offsets
from ..hf import chunked as hf_chunked
from ..split.pretokenize import compile_pattern
from ..tokenizer import TokenSpan
from . import models

#: Pieces encoded between two looks at the clock.
_BATCH = 2048


class CountJob:
    """The number of tokens of ``text`` under ``tok``, counted in steps.

    Counts as :func:`bytepair.app.models.count_tokens` (``add_special_tokens`` for open models).

    Attributes:
        count: tokens counted so far (the total once :attr:`done`).
        done: whether the whole text has been counted.
        position: characters of the (normalized) text counted so far; ``length``: all of them
            (``position / length`` is the progress).
        stepped: whether the job is divided (False: the first step counts everything).
    """

    def __init__(self, tok: Any, text: str, *, add_special_tokens: bool = True, batch: int = _BATCH) -> None:
        """``batch``: pieces counted between two looks at the clock (a step counts at least one batch).

        Raises:
            TypeError: ``text`` is not a ``str`` (as the tokenizer's encode does).
            ValueError: ``batch`` < 1.
        """
        if not isinstance(text, str):
            raise TypeError(f"text must be a str, got {type(text).__name__}")
        if batch < 1:
            raise ValueError(f"batch must be >= 1, got {batch}")
        self.count = 0
        self.done = False
        self.position = 0
        self._tok = tok
        self._text = text
        self._add_special_tokens = add_special_tokens
        # a generator of (count, position): the tokenizer's count_steps
        self._steps: Generator[tuple[int, int], None, int] | None = None
        self.stepped = bool(tok.counts_in_steps)
        if self.stepped:  # special-token strings as count_tokens reads them (a Tokenizer: plain text)
            self._text = tok.prepare_text(text)
            self._steps = tok.count_steps(
                text,
                add_special_tokens=add_special_tokens,
                allowed_special=frozenset(),
                disallowed_special=(),
                batch=batch,
            )
        self.length = len(self._text)

    def step(self, budget_ms: float = 50.0) -> bool:
        """Count for about ``budget_ms`` milliseconds (at least one batch of pieces); returns
        :attr:`done`. A job that is not divided counts everything in its first step."""
        if self.done:
            return True
        if not self.stepped:
            self.count = models.count_tokens(self._tok, self._text, add_special_tokens=self._add_special_tokens)
            self.position = self.length
            self.done = True
            return True
        steps = self._steps
        if steps is None:  # pragma: no cover - every stepped job has its steps
            raise RuntimeError("a stepped CountJob without steps")
        deadline = time.perf_counter() + budget_ms / 1000
        try:
            while True:
                count, self.position = next(steps)
                self.count = count
                if time.perf_counter() >= deadline:
                    return False
        except StopIteration as stop:
            self.count, self.position, self.done = stop.value, self.length, True
            return True

    def run(self) -> int:
        """Count the rest at once; returns :attr:`count`."""
        while not self.step(1000.0):
            pass
        return self.count


def count_steps(
    tok: Any,
    text: str,
    *,
    add_special_tokens: bool = True,
    allowed_special: Literal["all"] | Collection[str] = frozenset(),
    disallowed_special: Literal["all"] | Collection[str] = "all",
    batch: int = _BATCH,
) -> Generator[tuple[int, int], None, int]:
    """Count ``text`` as ``tok.encode`` would encode it, in order, a batch of pieces at a time.

    Yields ``(tokens so far, position)`` every ``batch`` pre-tokenizer pieces (``position``:
    characters of the prepared text counted; tokens so far never decrease and never exceed the
    total, so a caller may stop as soon as they pass a limit) and returns the total
    (``StopIteration.value``).

    Special tokens follow each kind's ``encode``: a :class:`bytepair.Tokenizer` takes tiktoken's
    ``allowed_special`` / ``disallowed_special`` (checked over the whole text first, as
    :meth:`Tokenizer.encode`: a disallowed one raises before anything is counted); open models
    (:class:`bytepair.HFTokenizer`, through :func:`bytepair.hf.chunked.hf_count_steps`) and Tekken
    files recognise their added tokens and take ``add_special_tokens`` (BOS/EOS counted).
    Each kind's own ``count_steps`` (:class:`bytepair.protocol.TokenizerLike`) does the walk; a
    Tokenizer without a split pattern is counted in one go (no yield).

    Raises:
        TypeError: ``text`` is not a ``str``. ValueError: ``batch`` < 1; a disallowed special
        token in the text; an ``allowed_special`` name that is not a special token.
    """
    if batch < 1:
        raise ValueError(f"batch must be >= 1, got {batch}")
    return (
        yield from tok.count_steps(
            text,
            add_special_tokens=add_special_tokens,
            allowed_special=allowed_special,
            disallowed_special=disallowed_special,
            batch=batch,
        )
    )


def first_spans(
    tok: Any, text: str, limit: int, *, units: str = "utf16", add_special_tokens: bool = True
) -> tuple[list, int] | None:
    """The first ``limit`` tokens of ``text`` with their spans, without encoding the rest.

    The spans equal ``bytepair.app.models.view_spans(tok, text, units=units)[:limit]`` (special-token strings
    as plain text), exactly: the pieces come from one lazy ``finditer`` over the whole text, so
    they are the whole text's pieces, and the walk stops once ``limit`` tokens are out. Its cost
    follows ``limit``, not the text's length (a 5 MB text's first 5,000 tokens: milliseconds).

    Returns:
        ``(spans, covered)``: ``list[bytepair.TokenSpan]`` (spans in ``units``: ``"chars"`` or
        ``"utf16"``) and ``covered``, the characters of ``text`` they cover (``text[:covered]``:
        for what else the caller shows of that part); or ``None``
        where the shortcut does not apply and the caller encodes the whole text: not a
        :class:`bytepair.Tokenizer` with a split pattern (see the module docstring), a
        normalization that changes the text, or lone surrogates (spans then map back over the
        whole text).

    Raises:
        ValueError: ``limit`` is negative, or ``units`` is not ``"chars"`` / ``"utf16"``.
    """
    if limit < 0:
        raise ValueError(f"limit must be >= 0, got {limit}")
    if units not in ("chars", "utf16"):
        raise ValueError(f'units must be "chars" or "utf16", got {units!r}')
    if tok.pipeline == "stages":  # open models: bytepair.hf.chunked.hf_first_spans
        return hf_chunked.hf_first_spans(tok, text, limit, units=units, add_special_tokens=add_special_tokens)
    if tok.pipeline == "base":  # its base Tokenizer's spans after BOS (as its encode_with_spans)
        bos = tok.bos_id if add_special_tokens else None
        head = [] if bos is None else [TokenSpan(bos, tok.token_bytes(bos), 0, 0, True)]
        rest = first_spans(tok.base_tokenizer, text, max(limit - len(head), 0), units=units)
        return None if rest is None else ((head + rest[0])[:limit], rest[1])
    if tok.pipeline != "rank" or not tok.has_split_pattern or tok.prepare_text(text) != text:
        return None  # (prepare_text: normalized, lone surrogates replaced)
    raw: list[tuple[int, int, int, bool]] = []
    if limit:
        for m in compile_pattern(tok.pattern).finditer(text):
            base = m.start()
            raw += [(t, base + a, base + b, False) for t, a, b in tok.piece_spans(m.group())]
            if len(raw) >= limit:
                break
    raw = raw[:limit]
    covered = max((b for _t, _a, b, _s in raw), default=0)
    if units == "utf16":
        raw = offsets.chars_to_utf16(text[:covered], raw)
    vocab = tok.vocab
    return [TokenSpan(t, vocab[t], a, b, sp) for t, a, b, sp in raw], covered
