"""Offset mapping for :meth:`bytepair.Tokenizer.encode_with_spans`.

Spans are first computed in characters of the text the encoder worked on (the
input after normalization and the U+FFFD replacement of lone surrogates);
these helpers move them back onto the caller's text, and from characters
(Python ``str`` code points) to UTF-16 code units (JavaScript string indices).

Each span is an ``(id, start, end, special)`` tuple; ``[start, end)``.
"""

from __future__ import annotations

import bisect
import itertools
import unicodedata

from .normalize import normalize
from .surrogates import fix_surrogates

__all__ = ["chars_to_utf16", "map_back", "utf16_len"]

Span = tuple[int, int, int, bool]


def utf16_len(s: str) -> int:
    """Length of ``s`` in UTF-16 code units (characters above U+FFFF count 2)."""
    return len(s.encode("utf-16-le", "surrogatepass")) // 2


def chars_to_utf16(text: str, raw: list[Span]) -> list[Span]:
    """Character offsets into ``text`` -> UTF-16 code-unit offsets."""
    if len(text) == utf16_len(text):
        return raw
    u16 = list(itertools.accumulate((2 if ord(ch) > 0xFFFF else 1 for ch in text), initial=0))
    return [(t, u16[a], u16[b], sp) for t, a, b, sp in raw]


def map_back(original: str, work: str, raw: list[Span], form: str | None) -> list[Span]:
    """Offsets into ``work`` (``original`` normalized / surrogate-fixed) -> offsets into ``original``.

    ``original`` is cut before every character of combining class 0; neighbouring
    pieces are joined while transforming them apart differs from transforming
    them together (composition across starters, e.g. Hangul jamo), so each
    piece transforms on its own and the pieces' outputs concatenate to ``work``.
    """

    def transform(s: str) -> str:
        s = normalize(s, form) if form is not None else s
        try:
            s.encode("utf-8")
        except UnicodeEncodeError:
            s = fix_surrogates(s)
        return s

    cuts = [
        i
        for i, ch in enumerate(original)
        if i == 0 or (unicodedata.combining(ch) == 0 and not "\udc00" <= ch <= "\udfff")
    ]
    cuts.append(len(original))
    chunks: list[tuple[int, int, str]] = []  # (start, end) in original, transformed text
    for a, b in zip(cuts, cuts[1:]):
        t = transform(original[a:b])
        if chunks:
            pa, _, pt = chunks[-1]
            joined = transform(original[pa:b])
            if joined != pt + t:
                chunks[-1] = (pa, b, joined)
                continue
        chunks.append((a, b, t))
    if "".join(t for _, _, t in chunks) != work:
        chunks = [(0, len(original), work)]
    # work offset -> index of the chunk holding it
    starts = list(itertools.accumulate((len(t) for _, _, t in chunks), initial=0))
    out = []
    for tok, a, b, sp in raw:
        ca = bisect.bisect_right(starts, a) - 1
        cb = bisect.bisect_right(starts, max(a, b - 1)) - 1
        out.append((tok, chunks[ca][0], chunks[cb][1], sp))
    return out
