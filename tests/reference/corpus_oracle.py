"""A slow oracle for piece counts, shared by the corpus and cluster-count tests.

Whole-text counting written out independently of ``bytepair.corpus``: normalize,
cut at special tokens, ``regex.findall`` with the split pattern. Needs ``regex``
(not in Pyodide: the tests that use it skip there).
"""

from __future__ import annotations

import regex

import bytepair

#: Text with what trips chunk stitching: ``\r\n``, runs of spaces, combining marks, CJK, emoji.
AWKWARD = (
    "Hello world, it's\r\n\r\nthe   end.  \n\tTabs\t\there 1234567 x²ﬁ é\u0301 naïve 中文字符 😀👍🏽 Привет   \r\n" * 3
)


def oracle_counts(text: str, pattern: str | None, specials=(), form=None) -> dict[str, int]:
    """Whole-text counting, written out independently: normalize, cut at specials, findall."""
    import unicodedata

    if form:
        text = unicodedata.normalize(form, text)
    segs = [text]
    if specials:
        rx = "|".join(regex.escape(s) for s in sorted(specials, key=len, reverse=True))
        segs = [s for s in regex.split(f"(?:{rx})", text) if s]
    counts: dict[str, int] = {}
    for seg in segs:
        for piece in [seg] if pattern is None else regex.findall(bytepair.resolve_pattern(pattern), seg):
            if isinstance(piece, tuple):
                raise AssertionError("use patterns without groups here")
            if piece:
                counts[piece] = counts.get(piece, 0) + 1
    return counts
