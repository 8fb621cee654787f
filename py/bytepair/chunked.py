"""Counting a long text in time-boxed steps, exactly (for a caller that must stay responsive).

A :class:`bytepair.Tokenizer` with a split pattern encodes each pre-tokenizer piece on its own:
the ids of a text are the ids of its pieces, concatenated. So a count can walk the pieces of the
whole text (one lazy ``finditer`` over it: the same pieces as :meth:`Tokenizer.encode_ordinary`,
whatever the pattern's look-arounds) a range at a time, and the sum equals
``len(tok.encode_ordinary(text))``. The playground's worker steps a :class:`CountJob` for ~50 ms,
yields to its other calls, and steps it again (``web/src/worker.js`` ``countStepped``).

Counted in one step, as :func:`bytepair.models.count_tokens` counts (exact, not divided):

* a Tokenizer without a split pattern (``pattern="none"``: the whole text is one piece, and BPE
  merges across any cut);
* open models and loaded ``tokenizer.json`` files (:class:`bytepair.hf_tokenizer.HFTokenizer`):
  normalizers, added tokens found across the whole text and the post-processor's BOS/EOS would
  each need their own proof of independence; they are not divided (yet).
"""

from __future__ import annotations

import itertools
import time
from typing import Any

from . import models
from .pretokenize import compile_pattern
from .surrogates import fix_surrogates
from .tokenizer import Tokenizer

#: Pieces encoded between two looks at the clock.
_BATCH = 2048


class CountJob:
    """The number of tokens of ``text`` under ``tok``, counted in steps.

    Counts as :func:`bytepair.models.count_tokens` (``add_special_tokens`` for open models).

    Attributes:
        count: tokens counted so far (the total once :attr:`done`).
        done: whether the whole text has been counted.
        position: characters of the (normalized) text counted so far; ``length``: all of them
            (``position / length`` is the progress).
        stepped: whether the job is divided (False: the first step counts everything).
    """

    def __init__(self, tok: Any, text: str, *, add_special_tokens: bool = True) -> None:
        """Raises TypeError if ``text`` is not a ``str`` (as the tokenizer's encode does)."""
        if not isinstance(text, str):
            raise TypeError(f"text must be a str, got {type(text).__name__}")
        self.count = 0
        self.done = False
        self.position = 0
        self._tok = tok
        self._text = text
        self._add_special_tokens = add_special_tokens
        self._matches = None
        self.stepped = isinstance(tok, Tokenizer) and tok.pattern is not None
        if self.stepped:
            work = tok._prepare(text)  # normalization (NFC/NFKC) applies to the whole text first
            try:
                work.encode("utf-8")
            except UnicodeEncodeError:  # lone surrogates: as encode_ordinary's retry
                work = fix_surrogates(work)
            self._text = work
            self._matches = compile_pattern(tok.pattern).finditer(work)
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
        deadline = time.perf_counter() + budget_ms / 1000
        encode = self._tok._encode_pieces
        while True:
            batch = list(itertools.islice(self._matches, _BATCH))
            if not batch:
                self.position = self.length
                self.done = True
                return True
            self.count += len(encode(m.group() for m in batch))
            self.position = batch[-1].end()
            if time.perf_counter() >= deadline:
                return False

    def run(self) -> int:
        """Count the rest at once; returns :attr:`count`."""
        while not self.step(1000.0):
            pass
        return self.count
